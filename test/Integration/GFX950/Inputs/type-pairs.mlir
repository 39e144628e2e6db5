// Scaled contractions for every pair of MX element types (A x B, B as N x K),
// 40 x 24 x 256: padding in M and N, two or more K tiles. Used by
// ../emulator-type-pairs-*.mlir.

func.func @e2m1_e2m1(%a: tensor<40x256xf4E2M1FN>, %b: tensor<24x256xf4E2M1FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf4E2M1FN>, tensor<24x256xf4E2M1FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m1_e2m3(%a: tensor<40x256xf4E2M1FN>, %b: tensor<24x256xf6E2M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf4E2M1FN>, tensor<24x256xf6E2M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m1_e3m2(%a: tensor<40x256xf4E2M1FN>, %b: tensor<24x256xf6E3M2FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf4E2M1FN>, tensor<24x256xf6E3M2FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m1_e4m3(%a: tensor<40x256xf4E2M1FN>, %b: tensor<24x256xf8E4M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf4E2M1FN>, tensor<24x256xf8E4M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m1_e5m2(%a: tensor<40x256xf4E2M1FN>, %b: tensor<24x256xf8E5M2>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf4E2M1FN>, tensor<24x256xf8E5M2>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m3_e2m1(%a: tensor<40x256xf6E2M3FN>, %b: tensor<24x256xf4E2M1FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E2M3FN>, tensor<24x256xf4E2M1FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m3_e2m3(%a: tensor<40x256xf6E2M3FN>, %b: tensor<24x256xf6E2M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E2M3FN>, tensor<24x256xf6E2M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m3_e3m2(%a: tensor<40x256xf6E2M3FN>, %b: tensor<24x256xf6E3M2FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E2M3FN>, tensor<24x256xf6E3M2FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m3_e4m3(%a: tensor<40x256xf6E2M3FN>, %b: tensor<24x256xf8E4M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E2M3FN>, tensor<24x256xf8E4M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e2m3_e5m2(%a: tensor<40x256xf6E2M3FN>, %b: tensor<24x256xf8E5M2>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E2M3FN>, tensor<24x256xf8E5M2>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e3m2_e2m1(%a: tensor<40x256xf6E3M2FN>, %b: tensor<24x256xf4E2M1FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E3M2FN>, tensor<24x256xf4E2M1FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e3m2_e2m3(%a: tensor<40x256xf6E3M2FN>, %b: tensor<24x256xf6E2M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E3M2FN>, tensor<24x256xf6E2M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e3m2_e3m2(%a: tensor<40x256xf6E3M2FN>, %b: tensor<24x256xf6E3M2FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E3M2FN>, tensor<24x256xf6E3M2FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e3m2_e4m3(%a: tensor<40x256xf6E3M2FN>, %b: tensor<24x256xf8E4M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E3M2FN>, tensor<24x256xf8E4M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e3m2_e5m2(%a: tensor<40x256xf6E3M2FN>, %b: tensor<24x256xf8E5M2>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E3M2FN>, tensor<24x256xf8E5M2>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e4m3_e2m1(%a: tensor<40x256xf8E4M3FN>, %b: tensor<24x256xf4E2M1FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E4M3FN>, tensor<24x256xf4E2M1FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e4m3_e2m3(%a: tensor<40x256xf8E4M3FN>, %b: tensor<24x256xf6E2M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E4M3FN>, tensor<24x256xf6E2M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e4m3_e3m2(%a: tensor<40x256xf8E4M3FN>, %b: tensor<24x256xf6E3M2FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E4M3FN>, tensor<24x256xf6E3M2FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e4m3_e4m3(%a: tensor<40x256xf8E4M3FN>, %b: tensor<24x256xf8E4M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E4M3FN>, tensor<24x256xf8E4M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e4m3_e5m2(%a: tensor<40x256xf8E4M3FN>, %b: tensor<24x256xf8E5M2>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E4M3FN>, tensor<24x256xf8E5M2>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e5m2_e2m1(%a: tensor<40x256xf8E5M2>, %b: tensor<24x256xf4E2M1FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E5M2>, tensor<24x256xf4E2M1FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e5m2_e2m3(%a: tensor<40x256xf8E5M2>, %b: tensor<24x256xf6E2M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E5M2>, tensor<24x256xf6E2M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e5m2_e3m2(%a: tensor<40x256xf8E5M2>, %b: tensor<24x256xf6E3M2FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E5M2>, tensor<24x256xf6E3M2FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e5m2_e4m3(%a: tensor<40x256xf8E5M2>, %b: tensor<24x256xf8E4M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E5M2>, tensor<24x256xf8E4M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @e5m2_e5m2(%a: tensor<40x256xf8E5M2>, %b: tensor<24x256xf8E5M2>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E5M2>, tensor<24x256xf8E5M2>,
                            tensor<40x8xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

// Weights stored K x N (not transposed): fp4 and fp6 B relaid out value by
// value (mx-pack-to-bytes moves nibbles and 6-bit fields, not bytes).
func.func @nn_e2m1_e2m1(%a: tensor<40x256xf4E2M1FN>, %b: tensor<256x24xf4E2M1FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<8x24xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf4E2M1FN>, tensor<256x24xf4E2M1FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<8x24xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @nn_e4m3_e2m3(%a: tensor<40x256xf8E4M3FN>, %b: tensor<256x24xf6E2M3FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<8x24xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf8E4M3FN>, tensor<256x24xf6E2M3FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<8x24xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @nn_e3m2_e3m2(%a: tensor<40x256xf6E3M2FN>, %b: tensor<256x24xf6E3M2FN>,
    %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<8x24xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x256xf6E3M2FN>, tensor<256x24xf6E3M2FN>,
                            tensor<40x8xf8E8M0FNU>, tensor<8x24xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

// A x B with A stored K x M (transposed activations), fp4.
func.func @tn_e2m1_e2m1(%a: tensor<256x40xf4E2M1FN>, %b: tensor<24x256xf4E2M1FN>,
    %sa: tensor<8x40xf8E8M0FNU>, %sb: tensor<24x8xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x40xf4E2M1FN>, tensor<24x256xf4E2M1FN>,
                            tensor<8x40xf8E8M0FNU>, tensor<24x8xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
