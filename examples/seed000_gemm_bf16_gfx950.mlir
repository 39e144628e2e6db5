// The seed000 MXFP4 GEMM (m128n96k512) for gfx950 from bf16 activations, as
// seed 000 runs it: A (M x K, bf16) is quantized with its recipe (EVEN
// scales, ties-away rounding) by one kernel that reads A once and writes the
// fp4 bytes and E8M0 scales straight into the GEMM's data-tiled operand
// layout (mx-fuse-quantize-relayouts: no relayout dispatch for A); B is the
// pre-quantized fp4 weight (N x K) with its scales. The quantized A is also
// returned in the plain layout, written by the same kernel, so that it can be
// checked against the recorded A_fp4 and A_e8m0.
func.func @seed000_gemm_bf16(%a: tensor<128x512xbf16>, %b: tensor<96x512xf4E2M1FN>,
                             %sb: tensor<96x16xf8E8M0FNU>, %c: tensor<128x96xf32>)
    -> (tensor<128x96xf32>, tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                             tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r, %qa, %sa : tensor<128x96xf32>, tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
}

// Only the GEMM result: the quantize kernel writes the tiled layout only.
func.func @seed000_gemm_bf16_c(%a: tensor<128x512xbf16>, %b: tensor<96x512xf4E2M1FN>,
                               %sb: tensor<96x16xf8E8M0FNU>, %c: tensor<128x96xf32>)
    -> tensor<128x96xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                             tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}
