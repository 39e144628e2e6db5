// mx.dequantize on the CPU path against the reference, bit for bit: random
// codes of every format (NaN/Inf codes of f8 included), every scale byte
// (0x00 = 2^-127 gives subnormal results, 0xFF = NaN), to f32, bf16 and f16
// (one rounding of the exact value).

// RUN: mx-run %s --entry=dequantize_all --seed=9 --arg=random:codes --arg=random:codes --arg=random:codes --arg=random:codes --arg=random:codes \
// RUN:   --arg=random:scales,lo=0,hi=255 --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=dequantize_narrow --seed=10 --arg=random:codes --arg=random:scales,lo=100,hi=150 \
// RUN:   --arg=random:codes --arg=random:scales,lo=110,hi=140 --compare=reference | FileCheck %s --check-prefix=NARROW

// CHECK-COUNT-5: : bit-exact
// CHECK: PASS
// NARROW-COUNT-2: : bit-exact
// NARROW: PASS

func.func @dequantize_all(%e0: tensor<8x64xf4E2M1FN>, %e1: tensor<8x64xf6E2M3FN>, %e2: tensor<8x64xf6E3M2FN>,
                          %e3: tensor<8x64xf8E4M3FN>, %e4: tensor<8x64xf8E5M2>, %s: tensor<8x2xf8E8M0FNU>)
    -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>) {
  %r0 = mx.dequantize %e0, %s axis(1) : tensor<8x64xf4E2M1FN>, tensor<8x2xf8E8M0FNU> -> tensor<8x64xf32>
  %r1 = mx.dequantize %e1, %s axis(1) : tensor<8x64xf6E2M3FN>, tensor<8x2xf8E8M0FNU> -> tensor<8x64xf32>
  %r2 = mx.dequantize %e2, %s axis(1) : tensor<8x64xf6E3M2FN>, tensor<8x2xf8E8M0FNU> -> tensor<8x64xf32>
  %r3 = mx.dequantize %e3, %s axis(1) : tensor<8x64xf8E4M3FN>, tensor<8x2xf8E8M0FNU> -> tensor<8x64xf32>
  %r4 = mx.dequantize %e4, %s axis(1) : tensor<8x64xf8E5M2>, tensor<8x2xf8E8M0FNU> -> tensor<8x64xf32>
  return %r0, %r1, %r2, %r3, %r4 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>
}

func.func @dequantize_narrow(%e0: tensor<64x4xf8E5M2>, %s0: tensor<2x4xf8E8M0FNU>,
                             %e1: tensor<4x96xf6E3M2FN>, %s1: tensor<4x3xf8E8M0FNU>)
    -> (tensor<64x4xbf16>, tensor<4x96xf16>) {
  %r0 = mx.dequantize %e0, %s0 axis(0) : tensor<64x4xf8E5M2>, tensor<2x4xf8E8M0FNU> -> tensor<64x4xbf16>
  %r1 = mx.dequantize %e1, %s1 axis(1) : tensor<4x96xf6E3M2FN>, tensor<4x3xf8E8M0FNU> -> tensor<4x96xf16>
  return %r0, %r1 : tensor<64x4xbf16>, tensor<4x96xf16>
}
