//! gfx950-emu
#aiter_shuffle_weight = affine_map<(n, k) -> (n floordiv 16, k floordiv 2147483648, (k mod 64) floordiv 32, n mod 16, k mod 32)>
#aiter_e8m0_shuffle = affine_map<(m, kb) -> (m floordiv 32, kb floordiv 8, kb mod 4, m mod 16, (kb mod 8) floordiv 4, (m mod 32) floordiv 16)>
func.func @aiter_shuffled(%w: tensor<64x512xbf16>)
    -> (tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>) {
  %e0 = tensor.empty() : tensor<4x8x2x16x32xf4E2M1FN>
  %s0 = tensor.empty() : tensor<2x2x4x16x2x2xf8E8M0FNU>
  %e, %s = mx.quantize_into %w axis(1) scale(even) rounding(ties_away)
      : tensor<64x512xbf16> -> f4E2M1FN
      elements(%e0 : tensor<4x8x2x16x32xf4E2M1FN>) maps [#aiter_shuffle_weight]
      scales(%s0 : tensor<2x2x4x16x2x2xf8E8M0FNU>) maps [#aiter_e8m0_shuffle] padding [127]
      -> tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>
  return %e, %s : tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>
}
