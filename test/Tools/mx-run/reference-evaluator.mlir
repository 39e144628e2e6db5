// The reference evaluator (--compare=reference) against the CPU backend on
// mx ops in shapes and layouts the seed example does not use: quantize and
// dequantize along the first, middle and last axis of rank-3 tensors,
// batched scaled contractions whose operands are permuted by their maps, two
// M dimensions, dense constants. Integer-valued data keep every sum exact,
// so all results must be bit-exact.

// RUN: mx-run %s --entry=quantize_axes --seed=1 --arg=random:normal,std=4,specials=0.05 \
// RUN:   --arg=random:uniform,lo=-100,hi=100 --arg=random:normal --compare=reference | FileCheck %s --check-prefix=QUANTIZE
// QUANTIZE-COUNT-6: (exact): bit-exact
// QUANTIZE: PASS

// RUN: mx-run %s --entry=dequantize_axes --seed=2 --arg=random:codes --arg=random:scales \
// RUN:   --arg=random:codes --arg=random:scales --compare=reference | FileCheck %s --check-prefix=DEQUANTIZE
// DEQUANTIZE: result #0 tensor<2x64x3xbf16>: {{.*}}: bit-exact
// DEQUANTIZE: result #1 tensor<3x64xf16>: {{.*}}: bit-exact
// DEQUANTIZE: PASS

// RUN: mx-run %s --entry=batched_permuted --seed=3 --arg=random:int,lo=-3,hi=3 --arg=random:int,lo=-2,hi=2 \
// RUN:   --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=two_m_dims --seed=4 --arg=random:int --arg=random:int --arg=random:scales \
// RUN:   --arg=random:scales --arg=random:int --compare=reference | FileCheck %s --check-prefix=EXACT
// EXACT: result #0 tensor<{{.*}}xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// EXACT: PASS

// A known answer worked out by hand: every element 1.0, scale rule floor,
// E2M1 (emax = 2): scale 2^(0 - 2) = byte 125, element 1 / 2^-2 = 4.0, code
// 0b0110.
// RUN: mx-run %s --entry=known --arg=fill:1 --compare=reference --expect=fill:0x6 --expect=fill:0.25 | FileCheck %s --check-prefix=KNOWN
// KNOWN:      comparing @known on cpu with the reference evaluator:
// KNOWN-NEXT: result #0 tensor<4x32xf4E2M1FN>: {{.*}} mismatches=0/128 (exact): bit-exact
// KNOWN-NEXT: result #1 tensor<4x1xf8E8M0FNU>: {{.*}} mismatches=0/4 (exact): bit-exact
// KNOWN-NEXT: comparing @known on cpu with --expect:
// KNOWN-NEXT: result #0 tensor<4x32xf4E2M1FN>: {{.*}} mismatches=0/128 (exact): bit-exact
// KNOWN-NEXT: result #1 tensor<4x1xf8E8M0FNU>: {{.*}} mismatches=0/4 (exact): bit-exact
// KNOWN-NEXT: PASS

func.func @quantize_axes(%a: tensor<64x2x3xf32>, %b: tensor<2x64x3xbf16>, %c: tensor<2x3x64xf16>)
    -> (tensor<64x2x3xf8E4M3FN>, tensor<2x2x3xf8E8M0FNU>, tensor<2x64x3xf4E2M1FN>, tensor<2x2x3xf8E8M0FNU>,
        tensor<2x3x64xf6E3M2FN>, tensor<2x3x2xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %a axis(0) scale(rceil) rounding(nearest_even)
      : tensor<64x2x3xf32> -> tensor<64x2x3xf8E4M3FN>, tensor<2x2x3xf8E8M0FNU>
  %qb, %sb = mx.quantize %b axis(1) scale(even) rounding(ties_away)
      : tensor<2x64x3xbf16> -> tensor<2x64x3xf4E2M1FN>, tensor<2x2x3xf8E8M0FNU>
  %qc, %sc = mx.quantize %c axis(2) scale(ceil) rounding(nearest_even)
      : tensor<2x3x64xf16> -> tensor<2x3x64xf6E3M2FN>, tensor<2x3x2xf8E8M0FNU>
  return %qa, %sa, %qb, %sb, %qc, %sc : tensor<64x2x3xf8E4M3FN>, tensor<2x2x3xf8E8M0FNU>, tensor<2x64x3xf4E2M1FN>,
      tensor<2x2x3xf8E8M0FNU>, tensor<2x3x64xf6E3M2FN>, tensor<2x3x2xf8E8M0FNU>
}

func.func @dequantize_axes(%e0: tensor<2x64x3xf8E4M3FN>, %s0: tensor<2x2x3xf8E8M0FNU>,
                           %e1: tensor<3x64xf6E3M2FN>, %s1: tensor<3x2xf8E8M0FNU>)
    -> (tensor<2x64x3xbf16>, tensor<3x64xf16>) {
  %r0 = mx.dequantize %e0, %s0 axis(1) : tensor<2x64x3xf8E4M3FN>, tensor<2x2x3xf8E8M0FNU> -> tensor<2x64x3xbf16>
  %r1 = mx.dequantize %e1, %s1 axis(1) : tensor<3x64xf6E3M2FN>, tensor<3x2xf8E8M0FNU> -> tensor<3x64xf16>
  return %r0, %r1 : tensor<2x64x3xbf16>, tensor<3x64xf16>
}

// lhs is K x batch x M, rhs batch x N x K, acc N x batch x M; the rhs scales
// are a dense constant.
func.func @batched_permuted(%lhs: tensor<64x2x5xf8E5M2>, %rhs: tensor<2x3x64xf6E2M3FN>,
                            %lhs_scales: tensor<2x2x5xf8E8M0FNU>, %acc: tensor<3x2x5xf32>) -> tensor<3x2x5xf32> {
  %rhs_scales = arith.constant dense<[[[1.0, 2.0], [0.5, 4.0], [8.0, 0.25]],
                                      [[2.0, 1.0], [4.0, 0.5], [0.125, 16.0]]]> : tensor<2x3x2xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(b, m, n, k) -> (k, b, m)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (n, b, m)>]
      ins(%lhs, %rhs, %lhs_scales, %rhs_scales : tensor<64x2x5xf8E5M2>, tensor<2x3x64xf6E2M3FN>,
                                                 tensor<2x2x5xf8E8M0FNU>, tensor<2x3x2xf8E8M0FNU>)
      outs(%acc : tensor<3x2x5xf32>) -> tensor<3x2x5xf32>
  return %r : tensor<3x2x5xf32>
}

// Two M dimensions split around K in lhs, the NN layout for rhs, and an
// accumulator ordered (m2, n, m1).
func.func @two_m_dims(%lhs: tensor<2x64x3xf4E2M1FN>, %rhs: tensor<64x4xf8E4M3FN>,
                      %lhs_scales: tensor<2x2x3xf8E8M0FNU>, %rhs_scales: tensor<2x4xf8E8M0FNU>,
                      %acc: tensor<3x4x2xf32>) -> tensor<3x4x2xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m1, m2, n, k) -> (m1, k, m2)>,
                       affine_map<(m1, m2, n, k) -> (k, n)>,
                       affine_map<(m1, m2, n, k) -> (m2, n, m1)>]
      ins(%lhs, %rhs, %lhs_scales, %rhs_scales : tensor<2x64x3xf4E2M1FN>, tensor<64x4xf8E4M3FN>,
                                                 tensor<2x2x3xf8E8M0FNU>, tensor<2x4xf8E8M0FNU>)
      outs(%acc : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}

func.func @known(%x: tensor<4x32xf32>) -> (tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>
  return %e, %s : tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>
}
