// --expect comparisons: bit-exact by default, --rtol/--atol for float
// results (|got - want| <= atol + rtol * |want|), NaN matching NaN, exact
// comparison for integers whatever the tolerance, the mismatch report and
// the exit codes (1 for a mismatch).

// x * (1 + 2^-20) is off from x by a relative 9.5e-7.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=nudge --arg=fill:1 --expect=fill:1 | FileCheck %s --check-prefix=EXACT
// EXACT:      result #0 tensor<8xf32>: max_abs_err=9.53674316e-07 max_rel_err=9.53674316e-07 mismatches=8/8 (rtol=0, atol=0): FAIL
// EXACT-NEXT:   at [0]: got 1.00000095, want 1
// EXACT-NEXT:   at [1]: got 1.00000095, want 1
// EXACT-NEXT:   at [2]: got 1.00000095, want 1
// EXACT-NEXT:   at [3]: got 1.00000095, want 1
// EXACT-NEXT:   at [4]: got 1.00000095, want 1
// EXACT-NEXT:   ... and 3 more
// EXACT-NEXT: FAIL
// EXACT-NEXT: exit code 1

// RUN: mx-run %s --entry=nudge --arg=fill:1 --expect=fill:1 --rtol=1e-6 | FileCheck %s --check-prefix=RTOL
// RUN: mx-run %s --entry=nudge --arg=fill:1 --expect=fill:1 --atol=1e-6 | FileCheck %s --check-prefix=ATOL
// RUN: not mx-run %s --entry=nudge --arg=fill:1 --expect=fill:1 --rtol=1e-7 | FileCheck %s --check-prefix=TIGHT
// RTOL: mismatches=0/8 (rtol=1e-06, atol=0): within tolerance
// RTOL-NEXT: PASS
// ATOL: mismatches=0/8 (rtol=0, atol=1e-06): within tolerance
// TIGHT: mismatches=8/8 (rtol=1e-07, atol=0): FAIL

// NaN matches NaN; Inf matches Inf even with a tolerance.
// RUN: mx-run %s --entry=nudge --arg=fill:nan --expect=fill:nan | FileCheck %s --check-prefix=NAN
// RUN: mx-run %s --entry=nudge --arg=fill:-inf --expect=fill:-inf --rtol=0.5 | FileCheck %s --check-prefix=NAN
// NAN: mismatches=0/8 ({{.*}}): bit-exact
// NAN-NEXT: PASS

// -0 and +0 differ bit for bit, not in value.
// RUN: not mx-run %s --entry=negate --arg=zeros --expect=zeros | FileCheck %s --check-prefix=ZERO
// RUN: mx-run %s --entry=negate --arg=zeros --expect=zeros --atol=1e-30 | FileCheck %s --check-prefix=ZERO-TOL
// ZERO: mismatches=4/4 (rtol=0, atol=0): FAIL
// ZERO-NEXT: at [0]: got -0, want 0
// ZERO-TOL: max_abs_err=0 max_rel_err=0 mismatches=0/4 (rtol=0, atol=1e-30): within tolerance

// Integer results compare exactly whatever the tolerance.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=to_i8 --arg=fill:1.5 --expect=fill:2 --atol=10 | FileCheck %s --check-prefix=INT
// INT:      result #0 tensor<2x2xi8>: max_abs_err=1 max_rel_err=0.5 mismatches=4/4 (exact): FAIL
// INT-NEXT:   at [0, 0]: got 1, want 2
// INT:      exit code 1

func.func @nudge(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.00000095367431640625 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @negate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.negf ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @to_i8(%x: tensor<2x2xf32>) -> tensor<2x2xi8> {
  %e = tensor.empty() : tensor<2x2xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x2xf32>) outs(%e : tensor<2x2xi8>) {
  ^bb0(%a: f32, %o: i8):
    %i = arith.fptosi %a : f32 to i8
    linalg.yield %i : i8
  } -> tensor<2x2xi8>
  return %r : tensor<2x2xi8>
}
