// RUN: mx-opt %s --split-input-file --mx-set-encodings --mx-materialize-encodings -verify-diagnostics
// RUN: not mx-opt %s --mx-materialize-encodings="target=gfx942" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mx-opt %s --mx-materialize-encodings="intrinsic=16x16x32" 2>&1 | FileCheck %s --check-prefix=INTRINSIC
// RUN: not mx-opt %s --mx-materialize-encodings="intrinsics-m=-2" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// TARGET: mx-materialize-encodings: unknown target 'gfx942' (available: gfx950)
// INTRINSIC: mx-materialize-encodings: unknown intrinsic '16x16x32' (available: 16x16x128, 32x32x64)
// NEGATIVE: mx-materialize-encodings: intrinsics-m must be non-negative, got -2

// Two M dimensions cannot be tiled by one intrinsic row dimension.
func.func @two_m_dims(%a: tensor<2x16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
                      %sa: tensor<2x16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>,
                      %c: tensor<2x16x16xf32>) -> tensor<2x16x16xf32> {
  // expected-error @+1 {{data tiling needs exactly one M and one N dimension, got 2 and 1}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m0, m1, n, k) -> (m0, m1, k)>,
                       affine_map<(m0, m1, n, k) -> (n, k)>,
                       affine_map<(m0, m1, n, k) -> (m0, m1, n)>]
      ins(%a, %b, %sa, %sb : tensor<2x16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<2x16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  return %r : tensor<2x16x16xf32>
}

// -----

func.func @bad_override(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
                        %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>,
                        %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'mx.layout' must be a data-tiled layout (TiledLayoutAttrInterface), got 4 : i64}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) {mx.layout = 4} -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
