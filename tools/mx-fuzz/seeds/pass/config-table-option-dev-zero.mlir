//! gfx950 output=gpu config-table=/dev/zero
func.func @tuned(%a: tensor<16x4096xf4E2M1FN>, %b: tensor<512x4096xf4E2M1FN>,
                 %sa: tensor<16x128xf8E8M0FNU>, %sb: tensor<512x128xf8E8M0FNU>,
                 %c: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x4096xf4E2M1FN>, tensor<512x4096xf4E2M1FN>,
                            tensor<16x128xf8E8M0FNU>, tensor<512x128xf8E8M0FNU>)
      outs(%c : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %r : tensor<16x512xf32>
}
