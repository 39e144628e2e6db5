// GEMMs from a zero accumulator (linalg.fill with +0.0), with f32, bf16 and
// f16 results (arith.truncf of the f32 result, rounded to nearest-even).
// Used by ../emulator-zero-acc.mlir and ../../CPU/zero-acc.mlir.

func.func @fp4_bf16_33x47x224(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>) -> tensor<33x47xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %t = arith.truncf %r : tensor<33x47xf32> to tensor<33x47xbf16>
  return %t : tensor<33x47xbf16>
}

func.func @fp8_fp4_f16_1x300x512(%a: tensor<1x512xf8E4M3FN>, %b: tensor<300x512xf4E2M1FN>,
    %sa: tensor<1x16xf8E8M0FNU>, %sb: tensor<300x16xf8E8M0FNU>) -> tensor<1x300xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x300xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x300xf32>) -> tensor<1x300xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<1x512xf8E4M3FN>, tensor<300x512xf4E2M1FN>,
                            tensor<1x16xf8E8M0FNU>, tensor<300x16xf8E8M0FNU>)
      outs(%c : tensor<1x300xf32>) -> tensor<1x300xf32>
  %t = arith.truncf %r : tensor<1x300xf32> to tensor<1x300xf16>
  return %t : tensor<1x300xf16>
}

func.func @fp6_f32_255x513x4064(%a: tensor<255x4064xf6E2M3FN>, %b: tensor<513x4064xf4E2M1FN>,
    %sa: tensor<255x127xf8E8M0FNU>, %sb: tensor<513x127xf8E8M0FNU>) -> tensor<255x513xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<255x513xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<255x513xf32>) -> tensor<255x513xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<255x4064xf6E2M3FN>, tensor<513x4064xf4E2M1FN>,
                            tensor<255x127xf8E8M0FNU>, tensor<513x127xf8E8M0FNU>)
      outs(%c : tensor<255x513xf32>) -> tensor<255x513xf32>
  return %r : tensor<255x513xf32>
}

func.func @batched_bf16(%a: tensor<2x20x128xf4E2M1FN>, %b: tensor<2x24x128xf8E5M2>,
    %sa: tensor<2x20x4xf8E8M0FNU>, %sb: tensor<2x24x4xf8E8M0FNU>) -> tensor<2x20x24xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x24xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x24xf32>) -> tensor<2x20x24xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b, %sa, %sb : tensor<2x20x128xf4E2M1FN>, tensor<2x24x128xf8E5M2>,
                            tensor<2x20x4xf8E8M0FNU>, tensor<2x24x4xf8E8M0FNU>)
      outs(%c : tensor<2x20x24xf32>) -> tensor<2x20x24xf32>
  %t = arith.truncf %r : tensor<2x20x24xf32> to tensor<2x20x24xbf16>
  return %t : tensor<2x20x24xbf16>
}

// Elementwise epilogues: a bias along N, a scale per row, a ReLU, and (the
// second) the result rounded to bf16; they fuse with the result's relayout.
#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
#row = affine_map<(m, n) -> (m)>
func.func @bias_scale_relu(%a: tensor<33x256xf4E2M1FN>, %b: tensor<47x256xf4E2M1FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<47x8xf8E8M0FNU>, %bias: tensor<47xf32>,
    %scale: tensor<33xf32>) -> tensor<33x47xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf4E2M1FN>, tensor<47x256xf4E2M1FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<47x8xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %o = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias, %scale : tensor<33x47xf32>, tensor<47xf32>, tensor<33xf32>) outs(%e : tensor<33x47xf32>) {
  ^bb0(%x: f32, %y: f32, %s: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %sum = arith.addf %x, %y : f32
    %scaled = arith.mulf %sum, %s : f32
    %relu = arith.maximumf %scaled, %z : f32
    linalg.yield %relu : f32
  } -> tensor<33x47xf32>
  return %o : tensor<33x47xf32>
}

func.func @bias_bf16(%a: tensor<33x256xf8E4M3FN>, %b: tensor<47x256xf6E2M3FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<47x8xf8E8M0FNU>, %bias: tensor<47xf32>)
    -> tensor<33x47xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf8E4M3FN>, tensor<47x256xf6E2M3FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<47x8xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %eb = tensor.empty() : tensor<33x47xbf16>
  %o = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<33x47xf32>, tensor<47xf32>) outs(%eb : tensor<33x47xbf16>) {
  ^bb0(%x: f32, %y: f32, %out: bf16):
    %sum = arith.addf %x, %y : f32
    %t = arith.truncf %sum : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x47xbf16>
  return %o : tensor<33x47xbf16>
}

// Dynamic M from a zero accumulator, bf16 result: the fill, the GEMM and
// the conversion see M only at run time.
func.func @dynamic_m_bf16(%a0: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa0: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>) -> tensor<?x47xbf16> {
  %a = tensor.cast %a0 : tensor<33x224xf4E2M1FN> to tensor<?x224xf4E2M1FN>
  %sa = tensor.cast %sa0 : tensor<33x7xf8E8M0FNU> to tensor<?x7xf8E8M0FNU>
  %i0 = arith.constant 0 : index
  %m = tensor.dim %a, %i0 : tensor<?x224xf4E2M1FN>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x47xf32>) -> tensor<?x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<?x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<?x47xf32>) -> tensor<?x47xf32>
  %t = arith.truncf %r : tensor<?x47xf32> to tensor<?x47xbf16>
  return %t : tensor<?x47xbf16>
}
