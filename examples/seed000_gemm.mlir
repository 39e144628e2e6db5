// The seed000 MXFP4 GEMM (m128n96k512): quantize the bf16 activations A
// (M x K) and weights B (N x K) with the AITER/Triton rule (EVEN scales,
// ties-away rounding), then C = A_q * B_q^T with f32 accumulation. Returns C
// and the quantized operands so all can be checked against known answers.
func.func @seed000_gemm(%a: tensor<128x512xbf16>, %b: tensor<96x512xbf16>,
                        %acc: tensor<128x96xf32>)
    -> (tensor<128x96xf32>, tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>,
        tensor<96x512xf4E2M1FN>, tensor<96x16xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  %qb, %sb = mx.quantize %b axis(1) scale(even) rounding(ties_away)
      : tensor<96x512xbf16> -> tensor<96x512xf4E2M1FN>, tensor<96x16xf8E8M0FNU>
  %c = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %qb, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                              tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%acc : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %c, %qa, %sa, %qb, %sb
      : tensor<128x96xf32>, tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>,
        tensor<96x512xf4E2M1FN>, tensor<96x16xf8E8M0FNU>
}
