// The seed MXFP4 GEMM in the mx dialect: quantize A (M x K) and the weights
// B (N x K) rowwise with the AITER/Triton scale rule, then contract them in
// the "NT" layout with f32 accumulation.
func.func @mxfp4_gemm(%a: tensor<64x256xbf16>, %b: tensor<64x256xbf16>,
                      %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<64x256xbf16> -> tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
  %qb, %sb = mx.quantize %b axis(1) scale(even) rounding(ties_away)
      : tensor<64x256xbf16> -> tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
  %c = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %qb, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<64x256xf4E2M1FN>,
                              tensor<64x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
      outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
