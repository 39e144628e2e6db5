// Decode-shaped GEMMs (M of 1 to 64, weights N x K much larger): the
// resolver's small-M tiles and mx-split-k's parts. Used by
// ../emulator-decode.mlir.

func.func @fp4_m1(%a: tensor<1x4096xf4E2M1FN>, %b: tensor<256x4096xf4E2M1FN>,
    %sa: tensor<1x128xf8E8M0FNU>, %sb: tensor<256x128xf8E8M0FNU>,
    %c: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<1x4096xf4E2M1FN>, tensor<256x4096xf4E2M1FN>,
                            tensor<1x128xf8E8M0FNU>, tensor<256x128xf8E8M0FNU>)
      outs(%c : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %r : tensor<1x256xf32>
}

func.func @fp8_m1(%a: tensor<1x2048xf8E4M3FN>, %b: tensor<256x2048xf8E4M3FN>,
    %sa: tensor<1x64xf8E8M0FNU>, %sb: tensor<256x64xf8E8M0FNU>,
    %c: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<1x2048xf8E4M3FN>, tensor<256x2048xf8E4M3FN>,
                            tensor<1x64xf8E8M0FNU>, tensor<256x64xf8E8M0FNU>)
      outs(%c : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %r : tensor<1x256xf32>
}

func.func @fp4_m4(%a: tensor<4x4096xf4E2M1FN>, %b: tensor<256x4096xf4E2M1FN>,
    %sa: tensor<4x128xf8E8M0FNU>, %sb: tensor<256x128xf8E8M0FNU>,
    %c: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<4x4096xf4E2M1FN>, tensor<256x4096xf4E2M1FN>,
                            tensor<4x128xf8E8M0FNU>, tensor<256x128xf8E8M0FNU>)
      outs(%c : tensor<4x256xf32>) -> tensor<4x256xf32>
  return %r : tensor<4x256xf32>
}

func.func @fp8_m4(%a: tensor<4x2048xf8E4M3FN>, %b: tensor<256x2048xf8E4M3FN>,
    %sa: tensor<4x64xf8E8M0FNU>, %sb: tensor<256x64xf8E8M0FNU>,
    %c: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<4x2048xf8E4M3FN>, tensor<256x2048xf8E4M3FN>,
                            tensor<4x64xf8E8M0FNU>, tensor<256x64xf8E8M0FNU>)
      outs(%c : tensor<4x256xf32>) -> tensor<4x256xf32>
  return %r : tensor<4x256xf32>
}

func.func @fp4_m16(%a: tensor<16x4096xf4E2M1FN>, %b: tensor<256x4096xf4E2M1FN>,
    %sa: tensor<16x128xf8E8M0FNU>, %sb: tensor<256x128xf8E8M0FNU>,
    %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x4096xf4E2M1FN>, tensor<256x4096xf4E2M1FN>,
                            tensor<16x128xf8E8M0FNU>, tensor<256x128xf8E8M0FNU>)
      outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

func.func @fp8_m16(%a: tensor<16x2048xf8E4M3FN>, %b: tensor<256x2048xf8E4M3FN>,
    %sa: tensor<16x64xf8E8M0FNU>, %sb: tensor<256x64xf8E8M0FNU>,
    %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x2048xf8E4M3FN>, tensor<256x2048xf8E4M3FN>,
                            tensor<16x64xf8E8M0FNU>, tensor<256x64xf8E8M0FNU>)
      outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

func.func @fp4_m33(%a: tensor<33x4096xf4E2M1FN>, %b: tensor<256x4096xf4E2M1FN>,
    %sa: tensor<33x128xf8E8M0FNU>, %sb: tensor<256x128xf8E8M0FNU>,
    %c: tensor<33x256xf32>) -> tensor<33x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x4096xf4E2M1FN>, tensor<256x4096xf4E2M1FN>,
                            tensor<33x128xf8E8M0FNU>, tensor<256x128xf8E8M0FNU>)
      outs(%c : tensor<33x256xf32>) -> tensor<33x256xf32>
  return %r : tensor<33x256xf32>
}

func.func @fp8_m33(%a: tensor<33x2048xf8E4M3FN>, %b: tensor<256x2048xf8E4M3FN>,
    %sa: tensor<33x64xf8E8M0FNU>, %sb: tensor<256x64xf8E8M0FNU>,
    %c: tensor<33x256xf32>) -> tensor<33x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x2048xf8E4M3FN>, tensor<256x2048xf8E4M3FN>,
                            tensor<33x64xf8E8M0FNU>, tensor<256x64xf8E8M0FNU>)
      outs(%c : tensor<33x256xf32>) -> tensor<33x256xf32>
  return %r : tensor<33x256xf32>
}

func.func @fp4_m64(%a: tensor<64x4096xf4E2M1FN>, %b: tensor<256x4096xf4E2M1FN>,
    %sa: tensor<64x128xf8E8M0FNU>, %sb: tensor<256x128xf8E8M0FNU>,
    %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x4096xf4E2M1FN>, tensor<256x4096xf4E2M1FN>,
                            tensor<64x128xf8E8M0FNU>, tensor<256x128xf8E8M0FNU>)
      outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

func.func @fp8_m64(%a: tensor<64x2048xf8E4M3FN>, %b: tensor<256x2048xf8E4M3FN>,
    %sa: tensor<64x64xf8E8M0FNU>, %sb: tensor<256x64xf8E8M0FNU>,
    %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x2048xf8E4M3FN>, tensor<256x2048xf8E4M3FN>,
                            tensor<64x64xf8E8M0FNU>, tensor<256x64xf8E8M0FNU>)
      outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

func.func @fp4_m16_zero_bf16(%a: tensor<16x4096xf4E2M1FN>, %b: tensor<512x4096xf4E2M1FN>,
    %sa: tensor<16x128xf8E8M0FNU>, %sb: tensor<512x128xf8E8M0FNU>) -> tensor<16x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x4096xf4E2M1FN>, tensor<512x4096xf4E2M1FN>,
                            tensor<16x128xf8E8M0FNU>, tensor<512x128xf8E8M0FNU>)
      outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
  %t = arith.truncf %r : tensor<16x512xf32> to tensor<16x512xbf16>
  return %t : tensor<16x512xbf16>
}

func.func @fp8_fp4_m1_zero(%a: tensor<1x2048xf8E4M3FN>, %b: tensor<320x2048xf4E2M1FN>,
    %sa: tensor<1x64xf8E8M0FNU>, %sb: tensor<320x64xf8E8M0FNU>) -> tensor<1x320xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x320xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x320xf32>) -> tensor<1x320xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<1x2048xf8E4M3FN>, tensor<320x2048xf4E2M1FN>,
                            tensor<1x64xf8E8M0FNU>, tensor<320x64xf8E8M0FNU>)
      outs(%c : tensor<1x320xf32>) -> tensor<1x320xf32>
  return %r : tensor<1x320xf32>
}

// Rows of 72 bytes (fp6, K = 96): no operand row is 16-byte aligned; the
// relayouts read the user's tensors at any byte stride.
func.func @fp6_unaligned_rows(%a: tensor<20x96xf6E2M3FN>, %b: tensor<40x96xf6E3M2FN>,
    %sa: tensor<20x3xf8E8M0FNU>, %sb: tensor<40x3xf8E8M0FNU>,
    %c: tensor<20x40xf32>) -> tensor<20x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<20x96xf6E2M3FN>, tensor<40x96xf6E3M2FN>,
                            tensor<20x3xf8E8M0FNU>, tensor<40x3xf8E8M0FNU>)
      outs(%c : tensor<20x40xf32>) -> tensor<20x40xf32>
  return %r : tensor<20x40xf32>
}

// Dynamic M (mx-specialize-dynamic-m): the same program for M = 1, 16, 40
// and 100 runs the M <= 16, M <= 64 and generic versions.
func.func @dynamic_m1(%a0: tensor<1x2048xf4E2M1FN>, %b: tensor<512x2048xf4E2M1FN>,
    %sa0: tensor<1x64xf8E8M0FNU>, %sb: tensor<512x64xf8E8M0FNU>) -> tensor<?x512xbf16> {
  %a = tensor.cast %a0 : tensor<1x2048xf4E2M1FN> to tensor<?x2048xf4E2M1FN>
  %sa = tensor.cast %sa0 : tensor<1x64xf8E8M0FNU> to tensor<?x64xf8E8M0FNU>
  %i0 = arith.constant 0 : index
  %m = tensor.dim %a, %i0 : tensor<?x2048xf4E2M1FN>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x2048xf4E2M1FN>, tensor<512x2048xf4E2M1FN>,
                            tensor<?x64xf8E8M0FNU>, tensor<512x64xf8E8M0FNU>)
      outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  %t = arith.truncf %r : tensor<?x512xf32> to tensor<?x512xbf16>
  return %t : tensor<?x512xbf16>
}
func.func @dynamic_m16(%a0: tensor<16x2048xf4E2M1FN>, %b: tensor<512x2048xf4E2M1FN>,
    %sa0: tensor<16x64xf8E8M0FNU>, %sb: tensor<512x64xf8E8M0FNU>) -> tensor<?x512xbf16> {
  %a = tensor.cast %a0 : tensor<16x2048xf4E2M1FN> to tensor<?x2048xf4E2M1FN>
  %sa = tensor.cast %sa0 : tensor<16x64xf8E8M0FNU> to tensor<?x64xf8E8M0FNU>
  %i0 = arith.constant 0 : index
  %m = tensor.dim %a, %i0 : tensor<?x2048xf4E2M1FN>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x2048xf4E2M1FN>, tensor<512x2048xf4E2M1FN>,
                            tensor<?x64xf8E8M0FNU>, tensor<512x64xf8E8M0FNU>)
      outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  %t = arith.truncf %r : tensor<?x512xf32> to tensor<?x512xbf16>
  return %t : tensor<?x512xbf16>
}
func.func @dynamic_m40(%a0: tensor<40x2048xf4E2M1FN>, %b: tensor<512x2048xf4E2M1FN>,
    %sa0: tensor<40x64xf8E8M0FNU>, %sb: tensor<512x64xf8E8M0FNU>) -> tensor<?x512xbf16> {
  %a = tensor.cast %a0 : tensor<40x2048xf4E2M1FN> to tensor<?x2048xf4E2M1FN>
  %sa = tensor.cast %sa0 : tensor<40x64xf8E8M0FNU> to tensor<?x64xf8E8M0FNU>
  %i0 = arith.constant 0 : index
  %m = tensor.dim %a, %i0 : tensor<?x2048xf4E2M1FN>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x2048xf4E2M1FN>, tensor<512x2048xf4E2M1FN>,
                            tensor<?x64xf8E8M0FNU>, tensor<512x64xf8E8M0FNU>)
      outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  %t = arith.truncf %r : tensor<?x512xf32> to tensor<?x512xbf16>
  return %t : tensor<?x512xbf16>
}
func.func @dynamic_m100(%a0: tensor<100x2048xf4E2M1FN>, %b: tensor<512x2048xf4E2M1FN>,
    %sa0: tensor<100x64xf8E8M0FNU>, %sb: tensor<512x64xf8E8M0FNU>) -> tensor<?x512xbf16> {
  %a = tensor.cast %a0 : tensor<100x2048xf4E2M1FN> to tensor<?x2048xf4E2M1FN>
  %sa = tensor.cast %sa0 : tensor<100x64xf8E8M0FNU> to tensor<?x64xf8E8M0FNU>
  %i0 = arith.constant 0 : index
  %m = tensor.dim %a, %i0 : tensor<?x2048xf4E2M1FN>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x2048xf4E2M1FN>, tensor<512x2048xf4E2M1FN>,
                            tensor<?x64xf8E8M0FNU>, tensor<512x64xf8E8M0FNU>)
      outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  %t = arith.truncf %r : tensor<?x512xf32> to tensor<?x512xbf16>
  return %t : tensor<?x512xbf16>
}
