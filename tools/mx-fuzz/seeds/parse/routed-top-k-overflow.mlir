func.func @routed_top_k_overflow(%a: tensor<4x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<4x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<4xi32>, %acc: tensor<20x128xf32>) {
  %r = mx.routed_scaled_contraction top_k = 4611686018427387909 ins(%a, %w, %sa, %sw : tensor<4x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<4x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<4xi32>) outs(%acc : tensor<20x128xf32>) -> tensor<20x128xf32>
  return
}
