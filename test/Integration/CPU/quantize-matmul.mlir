// End to end on the CPU path: bf16 activations and weights quantized (MXFP4
// with the EVEN rule for A, MXFP8 E4M3 with RCEIL for the weights), then the
// scaled contraction in the NT layout; every intermediate and the result are
// compared with the reference evaluator (codes and scales bit-exact; the f32
// result with rtol=1e-6: both sides sum exact products in f64 and round once).

// RUN: mx-run %s --entry=qmm --seed=21 --arg=random:normal,std=3 --arg=random:normal --arg=zeros \
// RUN:   --compare=reference --rtol=1e-6 | FileCheck %s

// CHECK: result #0 tensor<32x64xf32>: {{.*}}mismatches=0/2048
// CHECK: result #1 tensor<32x256xf4E2M1FN>: {{.*}}: bit-exact
// CHECK: result #2 tensor<32x8xf8E8M0FNU>: {{.*}}: bit-exact
// CHECK: result #3 tensor<64x256xf8E4M3FN>: {{.*}}: bit-exact
// CHECK: result #4 tensor<64x8xf8E8M0FNU>: {{.*}}: bit-exact
// CHECK: PASS

func.func @qmm(%x: tensor<32x256xbf16>, %w: tensor<64x256xbf16>, %acc: tensor<32x64xf32>)
    -> (tensor<32x64xf32>, tensor<32x256xf4E2M1FN>, tensor<32x8xf8E8M0FNU>,
        tensor<64x256xf8E4M3FN>, tensor<64x8xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<32x256xbf16> -> tensor<32x256xf4E2M1FN>, tensor<32x8xf8E8M0FNU>
  %qb, %sb = mx.quantize %w axis(1) scale(rceil) rounding(nearest_even)
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x8xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %qb, %sa, %sb : tensor<32x256xf4E2M1FN>, tensor<64x256xf8E4M3FN>,
                              tensor<32x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
      outs(%acc : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r, %qa, %sa, %qb, %sb : tensor<32x64xf32>, tensor<32x256xf4E2M1FN>, tensor<32x8xf8E8M0FNU>,
                                  tensor<64x256xf8E4M3FN>, tensor<64x8xf8E8M0FNU>
}
