// --compare=reference of an upstream-form MX matmul (linalg.generic +
// arith.scaling_extf) on random data. The generic says "add the products in
// loop order in f32"; mx-raise-scaled-matmul turns it into an
// mx.scaled_contraction, which sums them in an order of its own (the CPU
// path: exactly, in f64, rounded once; gfx950: rounded per MFMA). So the
// reference evaluates the generic's body itself (each product in f32) but
// sums the reduction exactly, rounds once, and compares within the error
// bound of an unknown order, c x (|acc| + sum|a*b|), c = (n u / (1 - n u)) + u
// with u = 2^-24 and n = K/32 + 1 roundings: 5.36e-07 for K = 224, 3.58e-07
// for K = 128 (getUnorderedErrorBound). mx-run says so in a note.

// DEFINE: %{random} = --seed=3 --arg=random:codes --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:scales,lo=120,hi=130 --arg=random:normal --compare=reference
// RUN: mx-run %S/upstream-scaled-matmul.mlir --entry=nt_fp4 %{random} | FileCheck %s --check-prefix=NT
// NT: comparing @nt_fp4 on cpu with the reference evaluator:
// NT-NEXT: note: result #0: the reduction of linalg.generic at {{.*}}upstream-scaled-matmul.mlir:{{[0-9]+}}:8 is reassociated by mx-raise-scaled-matmul: compared with its exact sum within 5.36e-07 x (|acc| + sum|a*b|)
// NT-NEXT: result #0 tensor<33x47xf32>: {{.*}} mismatches=0/1551 (rtol=0, atol=0): {{bit-exact|within tolerance}}
// NT: PASS
// RUN: mx-run %S/upstream-scaled-matmul.mlir --entry=batched_fp4 %{random} | FileCheck %s --check-prefix=BATCHED
// BATCHED: note: result #0: the reduction of linalg.generic at {{.*}}upstream-scaled-matmul.mlir:{{[0-9]+}}:8 is reassociated by mx-raise-scaled-matmul: compared with its exact sum within 3.58e-07 x (|acc| + sum|a*b|)
// BATCHED-NEXT: result #0 tensor<2x20x24xf32>: {{.*}} mismatches=0/960
// BATCHED: PASS
// RUN: mx-run %S/upstream-scaled-matmul.mlir --entry=flat_k_fp6 %{random} | FileCheck %s --check-prefix=FLAT
// FLAT: note: result #0: the reduction of linalg.generic at {{.*}}upstream-scaled-matmul.mlir:{{[0-9]+}}:8 is reassociated
// FLAT-NEXT: result #0 tensor<16x24xf32>: {{.*}} mismatches=0/384
// FLAT: PASS

// The raised IR itself (an mx.scaled_contraction on tensor.collapse_shape'd
// operands) is a contraction whose result the CPU path rounds once, like the
// reference: no note, bit-exact.
// RUN: mx-opt %S/upstream-scaled-matmul.mlir --mx-raise-scaled-matmul | mx-run - --entry=nt_fp4 %{random} | FileCheck %s --check-prefix=RAISED
// RAISED: comparing @nt_fp4 on cpu with the reference evaluator:
// RAISED-NEXT: result #0 tensor<33x47xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1551 (rtol=0, atol=0): bit-exact
// RAISED-NEXT: PASS
// Asked to round per instruction, the reference finds no kernel order on
// the CPU backend and says so: the contraction is compared within the same
// bound as the generic.
// RUN: mx-opt %S/upstream-scaled-matmul.mlir --mx-raise-scaled-matmul | mx-run - --entry=nt_fp4 %{random} --reference-rounding=per-instruction | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: note: result #0: mx.scaled_contraction at {{.*}}: the kernel's K order is not known: compared with its exact sum within 5.36e-07 x (|acc| + sum|a*b|)
// UNKNOWN-NEXT: result #0 tensor<33x47xf32>: {{.*}} mismatches=0/1551
// UNKNOWN: PASS

// A real difference still fails, naming the element and the bound. In
// @underflow every product is 1.5 * 2^-127 (fp4 1.5, scale byte 0) times
// 2^-22 (fp4 1.0, scale byte 105) = 1.5 * 2^-149: exact for the raised
// contraction, but the generic's f32 multiply rounds it to the subnormal
// grid, a tie, to even: 2^-148. The reference (the generic's products summed
// exactly) is 32 * 2^-148 = 2^-143 = 8.96831017e-44, the compiled program
// 32 * 1.5 * 2^-149 = 6.72623263e-44: |got - want| = 2^-145 =
// 2.24207754e-44, far above the bound 1.79e-07 x 2^-143 (K = 32: n = 2).
// This is where the raise changes the generic's results: only products below
// f32's normal range (2^-126) differ.
// DEFINE: %{under} = --entry=underflow --arg=fill:0x3 --arg=fill:0x2 --arg=fill:0x0 --arg=fill:0x69 --arg=zeros --compare=reference
// RUN: not mx-run %s %{under} | FileCheck %s --check-prefix=UNDER
// UNDER: note: result #0: the reduction of linalg.generic at {{.*}}upstream-reassociation.mlir:[[#@LINE+18]]:8 is reassociated by mx-raise-scaled-matmul: compared with its exact sum within 1.79e-07 x (|acc| + sum|a*b|)
// UNDER-NEXT: result #0 tensor<1x1xf32>: max_abs_err=2.24207754e-44 {{.*}} mismatches=1/1 (rtol=0, atol=0): FAIL
// UNDER-NEXT: max_err/sum|a*b|=0.25 {{.*}} (got 6.72623263e-44, want 8.96831017e-44, sum|a*b| 8.96831017e-44) (sum_tol=0, plus the bound of an unknown K order)
// UNDER-NEXT: at [0, 0]: got 6.72623263e-44, want 8.96831017e-44 (|got - want| 2.24207754e-44 > allowed 1.6{{[0-9]+}}e-50)
// UNDER-NEXT: FAIL

// --sum-tol applies on top of the bound: 0.3 x 2^-143 > 2^-145 passes, 0.2 x
// 2^-143 < 2^-145 fails.
// RUN: mx-run %s %{under} --sum-tol=0.3 | FileCheck %s --check-prefix=TOL-PASS
// TOL-PASS: mismatches=0/1 (rtol=0, atol=0): within tolerance
// TOL-PASS: PASS
// RUN: not mx-run %s %{under} --sum-tol=0.2 | FileCheck %s --check-prefix=TOL-FAIL
// TOL-FAIL: at [0, 0]: got 6.72623263e-44, want 8.96831017e-44 (|got - want| 2.24207754e-44 > allowed 1.7{{[0-9]+}}e-44)
// TOL-FAIL: FAIL

func.func @underflow(%A: tensor<1x1x32xf4E2M1FN>, %B: tensor<1x1x32xf4E2M1FN>,
    %As: tensor<1x1xf8E8M0FNU>, %Bs: tensor<1x1xf8E8M0FNU>,
    %C: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<1x1x32xf4E2M1FN>, tensor<1x1x32xf4E2M1FN>, tensor<1x1xf8E8M0FNU>, tensor<1x1xf8E8M0FNU>) outs(%C : tensor<1x1xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
