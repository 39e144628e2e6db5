// Scaled contractions deep in K for every pair of MX element types (A x B,
// B as N x K), 48 x 40 (padded in M and N): @<a>_<b> accumulates into C
// (C += A x B, K = 896), @zero_<a>_<b> starts from a zero-filled accumulator
// (K = 2176). Used by ../emulator-deep-k-*.mlir, which pin one-intrinsic K
// steps (intrinsics_k = 1: 7 and 17 steps of 128 on 16x16x128, 14 and 34
// steps of 64 on 32x32x64), so that the software-pipelined schedule runs
// every LDS stage more than once.

func.func @e2m1_e2m1(%a: tensor<48x896xf4E2M1FN>, %b: tensor<40x896xf4E2M1FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf4E2M1FN>, tensor<40x896xf4E2M1FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m1_e2m3(%a: tensor<48x896xf4E2M1FN>, %b: tensor<40x896xf6E2M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf4E2M1FN>, tensor<40x896xf6E2M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m1_e3m2(%a: tensor<48x896xf4E2M1FN>, %b: tensor<40x896xf6E3M2FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf4E2M1FN>, tensor<40x896xf6E3M2FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m1_e4m3(%a: tensor<48x896xf4E2M1FN>, %b: tensor<40x896xf8E4M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf4E2M1FN>, tensor<40x896xf8E4M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m1_e5m2(%a: tensor<48x896xf4E2M1FN>, %b: tensor<40x896xf8E5M2>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf4E2M1FN>, tensor<40x896xf8E5M2>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m3_e2m1(%a: tensor<48x896xf6E2M3FN>, %b: tensor<40x896xf4E2M1FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E2M3FN>, tensor<40x896xf4E2M1FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m3_e2m3(%a: tensor<48x896xf6E2M3FN>, %b: tensor<40x896xf6E2M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E2M3FN>, tensor<40x896xf6E2M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m3_e3m2(%a: tensor<48x896xf6E2M3FN>, %b: tensor<40x896xf6E3M2FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E2M3FN>, tensor<40x896xf6E3M2FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m3_e4m3(%a: tensor<48x896xf6E2M3FN>, %b: tensor<40x896xf8E4M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E2M3FN>, tensor<40x896xf8E4M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e2m3_e5m2(%a: tensor<48x896xf6E2M3FN>, %b: tensor<40x896xf8E5M2>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E2M3FN>, tensor<40x896xf8E5M2>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e3m2_e2m1(%a: tensor<48x896xf6E3M2FN>, %b: tensor<40x896xf4E2M1FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E3M2FN>, tensor<40x896xf4E2M1FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e3m2_e2m3(%a: tensor<48x896xf6E3M2FN>, %b: tensor<40x896xf6E2M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E3M2FN>, tensor<40x896xf6E2M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e3m2_e3m2(%a: tensor<48x896xf6E3M2FN>, %b: tensor<40x896xf6E3M2FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E3M2FN>, tensor<40x896xf6E3M2FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e3m2_e4m3(%a: tensor<48x896xf6E3M2FN>, %b: tensor<40x896xf8E4M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E3M2FN>, tensor<40x896xf8E4M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e3m2_e5m2(%a: tensor<48x896xf6E3M2FN>, %b: tensor<40x896xf8E5M2>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf6E3M2FN>, tensor<40x896xf8E5M2>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e4m3_e2m1(%a: tensor<48x896xf8E4M3FN>, %b: tensor<40x896xf4E2M1FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E4M3FN>, tensor<40x896xf4E2M1FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e4m3_e2m3(%a: tensor<48x896xf8E4M3FN>, %b: tensor<40x896xf6E2M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E4M3FN>, tensor<40x896xf6E2M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e4m3_e3m2(%a: tensor<48x896xf8E4M3FN>, %b: tensor<40x896xf6E3M2FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E4M3FN>, tensor<40x896xf6E3M2FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e4m3_e4m3(%a: tensor<48x896xf8E4M3FN>, %b: tensor<40x896xf8E4M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E4M3FN>, tensor<40x896xf8E4M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e4m3_e5m2(%a: tensor<48x896xf8E4M3FN>, %b: tensor<40x896xf8E5M2>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E4M3FN>, tensor<40x896xf8E5M2>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e5m2_e2m1(%a: tensor<48x896xf8E5M2>, %b: tensor<40x896xf4E2M1FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E5M2>, tensor<40x896xf4E2M1FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e5m2_e2m3(%a: tensor<48x896xf8E5M2>, %b: tensor<40x896xf6E2M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E5M2>, tensor<40x896xf6E2M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e5m2_e3m2(%a: tensor<48x896xf8E5M2>, %b: tensor<40x896xf6E3M2FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E5M2>, tensor<40x896xf6E3M2FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e5m2_e4m3(%a: tensor<48x896xf8E5M2>, %b: tensor<40x896xf8E4M3FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E5M2>, tensor<40x896xf8E4M3FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @e5m2_e5m2(%a: tensor<48x896xf8E5M2>, %b: tensor<40x896xf8E5M2>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf8E5M2>, tensor<40x896xf8E5M2>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m1_e2m1(%a: tensor<48x2176xf4E2M1FN>, %b: tensor<40x2176xf4E2M1FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf4E2M1FN>, tensor<40x2176xf4E2M1FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m1_e2m3(%a: tensor<48x2176xf4E2M1FN>, %b: tensor<40x2176xf6E2M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf4E2M1FN>, tensor<40x2176xf6E2M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m1_e3m2(%a: tensor<48x2176xf4E2M1FN>, %b: tensor<40x2176xf6E3M2FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf4E2M1FN>, tensor<40x2176xf6E3M2FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m1_e4m3(%a: tensor<48x2176xf4E2M1FN>, %b: tensor<40x2176xf8E4M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf4E2M1FN>, tensor<40x2176xf8E4M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m1_e5m2(%a: tensor<48x2176xf4E2M1FN>, %b: tensor<40x2176xf8E5M2>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf4E2M1FN>, tensor<40x2176xf8E5M2>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m3_e2m1(%a: tensor<48x2176xf6E2M3FN>, %b: tensor<40x2176xf4E2M1FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E2M3FN>, tensor<40x2176xf4E2M1FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m3_e2m3(%a: tensor<48x2176xf6E2M3FN>, %b: tensor<40x2176xf6E2M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E2M3FN>, tensor<40x2176xf6E2M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m3_e3m2(%a: tensor<48x2176xf6E2M3FN>, %b: tensor<40x2176xf6E3M2FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E2M3FN>, tensor<40x2176xf6E3M2FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m3_e4m3(%a: tensor<48x2176xf6E2M3FN>, %b: tensor<40x2176xf8E4M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E2M3FN>, tensor<40x2176xf8E4M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e2m3_e5m2(%a: tensor<48x2176xf6E2M3FN>, %b: tensor<40x2176xf8E5M2>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E2M3FN>, tensor<40x2176xf8E5M2>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e3m2_e2m1(%a: tensor<48x2176xf6E3M2FN>, %b: tensor<40x2176xf4E2M1FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E3M2FN>, tensor<40x2176xf4E2M1FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e3m2_e2m3(%a: tensor<48x2176xf6E3M2FN>, %b: tensor<40x2176xf6E2M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E3M2FN>, tensor<40x2176xf6E2M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e3m2_e3m2(%a: tensor<48x2176xf6E3M2FN>, %b: tensor<40x2176xf6E3M2FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E3M2FN>, tensor<40x2176xf6E3M2FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e3m2_e4m3(%a: tensor<48x2176xf6E3M2FN>, %b: tensor<40x2176xf8E4M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E3M2FN>, tensor<40x2176xf8E4M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e3m2_e5m2(%a: tensor<48x2176xf6E3M2FN>, %b: tensor<40x2176xf8E5M2>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf6E3M2FN>, tensor<40x2176xf8E5M2>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e4m3_e2m1(%a: tensor<48x2176xf8E4M3FN>, %b: tensor<40x2176xf4E2M1FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E4M3FN>, tensor<40x2176xf4E2M1FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e4m3_e2m3(%a: tensor<48x2176xf8E4M3FN>, %b: tensor<40x2176xf6E2M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E4M3FN>, tensor<40x2176xf6E2M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e4m3_e3m2(%a: tensor<48x2176xf8E4M3FN>, %b: tensor<40x2176xf6E3M2FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E4M3FN>, tensor<40x2176xf6E3M2FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e4m3_e4m3(%a: tensor<48x2176xf8E4M3FN>, %b: tensor<40x2176xf8E4M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E4M3FN>, tensor<40x2176xf8E4M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e4m3_e5m2(%a: tensor<48x2176xf8E4M3FN>, %b: tensor<40x2176xf8E5M2>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E4M3FN>, tensor<40x2176xf8E5M2>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e5m2_e2m1(%a: tensor<48x2176xf8E5M2>, %b: tensor<40x2176xf4E2M1FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E5M2>, tensor<40x2176xf4E2M1FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e5m2_e2m3(%a: tensor<48x2176xf8E5M2>, %b: tensor<40x2176xf6E2M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E5M2>, tensor<40x2176xf6E2M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e5m2_e3m2(%a: tensor<48x2176xf8E5M2>, %b: tensor<40x2176xf6E3M2FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E5M2>, tensor<40x2176xf6E3M2FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e5m2_e4m3(%a: tensor<48x2176xf8E5M2>, %b: tensor<40x2176xf8E4M3FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E5M2>, tensor<40x2176xf8E4M3FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_e5m2_e5m2(%a: tensor<48x2176xf8E5M2>, %b: tensor<40x2176xf8E5M2>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2176xf8E5M2>, tensor<40x2176xf8E5M2>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

// K = 4096 (8 K steps of 512 with intrinsics_k = 4, the tuned fp8 decode
// tile's), from memory and from zero: used by ../emulator-wide-a-two-k.mlir.
func.func @long_e4m3_e4m3(%a: tensor<48x4096xf8E4M3FN>, %b: tensor<40x4096xf8E4M3FN>,
    %sa: tensor<48x128xf8E8M0FNU>, %sb: tensor<40x128xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x4096xf8E4M3FN>, tensor<40x4096xf8E4M3FN>,
                            tensor<48x128xf8E8M0FNU>, tensor<40x128xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_long_e5m2_e4m3(%a: tensor<48x4096xf8E5M2>, %b: tensor<40x4096xf8E4M3FN>,
    %sa: tensor<48x128xf8E8M0FNU>, %sb: tensor<40x128xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x4096xf8E5M2>, tensor<40x4096xf8E4M3FN>,
                            tensor<48x128xf8E8M0FNU>, tensor<40x128xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}
