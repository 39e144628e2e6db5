// A training step's activation, 10240 x 16384 bf16, quantized to MXFP4 along
// K (straight into the seed GEMM's operand layout, the forward GEMM) and
// along M (returned in the plain layout: the backward GEMM's operand) with
// seed 000's recipe: one kernel reads it once (bench/quantize_metrics.py
// --both-axes). M is a multiple of 32 so that column blocks are whole.
func.func @both_axes(%a: tensor<10240x16384xbf16>)
    -> (tensor<10240x256xf32>, tensor<10240x16384xf4E2M1FN>, tensor<320x16384xf8E8M0FNU>) {
  %b = arith.constant dense<1.0> : tensor<256x16384xf4E2M1FN>
  %sb = arith.constant dense<1.0> : tensor<256x512xf8E8M0FNU>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10240x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10240x256xf32>) -> tensor<10240x256xf32>
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<10240x16384xbf16> -> tensor<10240x16384xf4E2M1FN>, tensor<10240x512xf8E8M0FNU>
  %qt, %st = mx.quantize %a axis(0) scale(even) rounding(ties_away)
      : tensor<10240x16384xbf16> -> tensor<10240x16384xf4E2M1FN>, tensor<320x16384xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<10240x16384xf4E2M1FN>, tensor<256x16384xf4E2M1FN>,
                            tensor<10240x512xf8E8M0FNU>, tensor<256x512xf8E8M0FNU>)
      outs(%c : tensor<10240x256xf32>) -> tensor<10240x256xf32>
  return %r, %qt, %st : tensor<10240x256xf32>, tensor<10240x16384xf4E2M1FN>, tensor<320x16384xf8E8M0FNU>
}
