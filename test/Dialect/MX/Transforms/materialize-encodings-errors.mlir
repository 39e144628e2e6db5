// RUN: mx-opt %s --split-input-file --mx-set-encodings --mx-materialize-encodings="target=#mx_test.resolver<16,16,64>" -verify-diagnostics
// RUN: echo "module {}" | not mx-opt --mx-materialize-encodings="target=gfx942" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: echo "module {}" | not mx-opt --mx-materialize-encodings="target=#mx_test.layout<16,16,64,f4E2M1FN,f4E2M1FN>" 2>&1 | FileCheck %s --check-prefix=NOT-RESOLVER

// The target option must be an attribute, and a layout resolver.
// TARGET: error: expected attribute value
// TARGET: mx-materialize-encodings: invalid target 'gfx942' (expected a target attribute such as #mx_gfx950.target)
// NOT-RESOLVER: mx-materialize-encodings: target #mx_test.layout<16, 16, 64, f4E2M1FN, f4E2M1FN> is not a layout resolver (LayoutResolverAttrInterface)

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

// -----

// The resolver's own errors are reported at the op (the test layout needs n
// to be a multiple of 4).
func.func @resolver_error(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
                          %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>,
                          %c: tensor<16x16xf32>) -> tensor<16x16xf32>
    attributes {mx.target = #mx_test.resolver<16, 6, 64>} {
  // expected-error @+1 {{expected an even m, n a multiple of 4 and k a multiple of 32, got 16, 6, 64}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// mx.target must be a layout resolver.
// expected-error @+1 {{'mx.target' must be a target attribute implementing LayoutResolverAttrInterface (e.g. #mx_gfx950.target), got 4 : i64}}
module attributes {mx.target = 4} {
}
