// The seed activation 10000 x 16384 bf16 quantized to MXFP4 (seed 000's
// EVEN / ties-away recipe) into the operand layout of the seed GEMM
// (bench/quantize_metrics.sh). The weights are a constant and the
// accumulator a zero fill, so neither needs a run-time relayout and the
// quantize is a dispatch of its own, whose code and registers are measured
// alone. N = 256 (one tile of the seed layout, pinned by the script) keeps
// the compile-time relayout of the constant small; the quantize does not
// depend on N.
func.func @seed_activation(%a: tensor<10000x16384xbf16>) -> tensor<10000x256xf32> {
  %b = arith.constant dense<1.0> : tensor<256x16384xf4E2M1FN>
  %sb = arith.constant dense<1.0> : tensor<256x512xf8E8M0FNU>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x256xf32>) -> tensor<10000x256xf32>
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<10000x16384xbf16> -> tensor<10000x16384xf4E2M1FN>, tensor<10000x512xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<256x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<256x512xf8E8M0FNU>)
      outs(%c : tensor<10000x256xf32>) -> tensor<10000x256xf32>
  return %r : tensor<10000x256xf32>
}
