// mx.quantize_into gathered by row ids, written directly (what
// mx-fuse-quantize-relayouts makes of a quantize whose rows a routed GEMM
// gathers), on the CPU path against the independent reference evaluator:
// logical row i is input row ids[i] / 2; padding ids (16 = T * top_k) and
// negative ids give code 0 and the scale padding byte; the elements land in
// 16 x 64 tiles, the scales row-major.
// RUN: mx-run %s --seed=3 --arg=random:normal,std=10,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --seed=4 --arg=random:int,lo=-6,hi=6 --compare=reference | FileCheck %s
// CHECK: result #0 tensor<4x2x16x64xf4E2M1FN>: {{.*}}mismatches=0/8192{{.*}}: bit-exact
// CHECK: result #1 tensor<64x4xf8E8M0FNU>: {{.*}}mismatches=0/256{{.*}}: bit-exact
// CHECK: PASS

func.func @gathered(%x: tensor<8x128xbf16>)
    -> (tensor<4x2x16x64xf4E2M1FN>, tensor<64x4xf8E8M0FNU>) {
  %ids = arith.constant dense<[4, 1, 16, 11, 6, 16, 2, 16, 1, 3, 1, 12, 16, 16, 4, -1,
                           16, 16, 5, 16, 6, 2, 6, 13, 14, 14, 7, 7, 16, 15, 14, -1,
                           3, 5, 4, 13, 16, 10, 11, 14, 16, 16, -1, 2, 16, 14, -1, 11,
                           16, 5, 15, 16, 4, 12, 15, 16, 8, 13, 8, 11, 12, 4, 16, 16]> : tensor<64xi32>
  %t0 = tensor.empty() : tensor<4x2x16x64xf4E2M1FN>
  %s0 = tensor.empty() : tensor<64x4xf8E8M0FNU>
  %t, %s = mx.quantize_into %x gather(%ids : tensor<64xi32> divisor = 2)
      axis(1) scale(even) rounding(nearest_even)
      : tensor<8x128xbf16> -> f4E2M1FN
      elements(%t0 : tensor<4x2x16x64xf4E2M1FN>)
        maps [affine_map<(m, k) -> (m floordiv 16, k floordiv 64, m mod 16, k mod 64)>]
      scales(%s0 : tensor<64x4xf8E8M0FNU>) maps [affine_map<(m, kb) -> (m, kb)>] padding [127]
      -> tensor<4x2x16x64xf4E2M1FN>, tensor<64x4xf8E8M0FNU>
  return %t, %s : tensor<4x2x16x64xf4E2M1FN>, tensor<64x4xf8E8M0FNU>
}
