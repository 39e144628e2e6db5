// Scaled contractions deep in K for representative pairs of MX element types
// (A x B, B as N x K): 48 x 40 x 640 (padding in M, N and, for the wider tiles,
// in K). Used by ../emulator-random-bit-exact.mlir.

func.func @e2m1_e2m1(%a: tensor<48x640xf4E2M1FN>, %b: tensor<40x640xf4E2M1FN>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x640xf4E2M1FN>, tensor<40x640xf4E2M1FN>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e4m3_e4m3(%a: tensor<48x640xf8E4M3FN>, %b: tensor<40x640xf8E4M3FN>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x640xf8E4M3FN>, tensor<40x640xf8E4M3FN>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e5m2_e2m3(%a: tensor<48x640xf8E5M2>, %b: tensor<40x640xf6E2M3FN>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x640xf8E5M2>, tensor<40x640xf6E2M3FN>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e3m2_e5m2(%a: tensor<48x640xf6E3M2FN>, %b: tensor<40x640xf8E5M2>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x640xf6E3M2FN>, tensor<40x640xf8E5M2>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e4m3_e2m1(%a: tensor<48x640xf8E4M3FN>, %b: tensor<40x640xf4E2M1FN>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x640xf8E4M3FN>, tensor<40x640xf4E2M1FN>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m3_e3m2(%a: tensor<48x640xf6E2M3FN>, %b: tensor<40x640xf6E3M2FN>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x640xf6E2M3FN>, tensor<40x640xf6E3M2FN>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}
