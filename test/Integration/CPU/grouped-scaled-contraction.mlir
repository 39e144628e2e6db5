// mx.grouped_scaled_contraction (MoE grouped GEMM) on the CPU path against
// the independent reference (ref::groupedScaledMatmul, per expert the
// reference scaled matmul of the expert's rows).
//
// Exact-integer data (integer element values, per-block scales in [120, 134],
// integer acc): every product and partial sum is exact in f64, so the
// results must be bit-identical. Ragged groups with empty experts (first,
// middle and last), rows before the first and after the last group (acc
// unchanged), fp4 and fp8 weights, i32 and i64 offsets.

// DEFINE: %{exact} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference

// RUN: mx-run %s --entry=grouped_fp4 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=grouped_fp4_gaps %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=grouped_fp8 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=grouped_fp8_fp4 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=grouped_dynamic_rows %{exact} | FileCheck %s --check-prefix=EXACT

// EXACT: result #0 tensor<40x24xf32>: {{.*}}mismatches=0/960{{.*}}: bit-exact
// EXACT: PASS

// Offsets given at run time: all groups empty (every row is acc), then
// inconsistent offsets (past T, decreasing): a run-time error, never an
// out-of-bounds access (the reference's check is unit-tested in
// unittests/Reference/ScaledMatmulTest.cpp).
// DEFINE: %{dyn} = --entry=grouped_dynamic --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8
// RUN: mx-run %s %{dyn} --arg=fill:7 --compare=reference | FileCheck %s --check-prefix=EMPTY
// EMPTY: bit-exact
// EMPTY: PASS
// RUN: not mx-run %s %{dyn} --arg=fill:41 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: inconsistent expert offsets in mx.grouped_scaled_contraction (they must be non-decreasing within [0, T])
// RUN: printf '\000\000\000\000\020\000\000\000\010\000\000\000\030\000\000\000\030\000\000\000\050\000\000\000' > %t.offsets
// RUN: not mx-run %s %{dyn} --arg=file:%t.offsets 2>&1 | FileCheck %s --check-prefix=RANGE

// 5 experts over 40 rows: expert 0 empty, 13 rows, expert 2 empty, 20 rows,
// expert 4 (the last) empty; rows 33..39 belong to no expert.
func.func @grouped_fp4(%a: tensor<40x128xf4E2M1FN>, %b: tensor<5x24x128xf4E2M1FN>,
                       %sa: tensor<40x4xf8E8M0FNU>, %sb: tensor<5x24x4xf8E8M0FNU>,
                       %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %offsets = arith.constant dense<[0, 0, 13, 13, 33, 33]> : tensor<6xi32>
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x128xf4E2M1FN>, tensor<5x24x128xf4E2M1FN>,
                            tensor<40x4xf8E8M0FNU>, tensor<5x24x4xf8E8M0FNU>)
      offsets(%offsets : tensor<6xi32>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

// Rows 0..2 before the first group; groups of 7, 1, 0, 29 rows (the last
// expert ends at T).
func.func @grouped_fp4_gaps(%a: tensor<40x128xf4E2M1FN>, %b: tensor<4x24x128xf4E2M1FN>,
                            %sa: tensor<40x4xf8E8M0FNU>, %sb: tensor<4x24x4xf8E8M0FNU>,
                            %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %offsets = arith.constant dense<[3, 10, 11, 11, 40]> : tensor<5xi64>
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<40x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi64>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @grouped_fp8(%a: tensor<40x64xf8E4M3FN>, %b: tensor<5x24x64xf8E4M3FN>,
                       %sa: tensor<40x2xf8E8M0FNU>, %sb: tensor<5x24x2xf8E8M0FNU>,
                       %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %offsets = arith.constant dense<[0, 0, 13, 13, 33, 33]> : tensor<6xi32>
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x64xf8E4M3FN>, tensor<5x24x64xf8E4M3FN>,
                            tensor<40x2xf8E8M0FNU>, tensor<5x24x2xf8E8M0FNU>)
      offsets(%offsets : tensor<6xi32>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @grouped_fp8_fp4(%a: tensor<40x64xf8E4M3FN>, %b: tensor<3x24x64xf4E2M1FN>,
                           %sa: tensor<40x2xf8E8M0FNU>, %sb: tensor<3x24x2xf8E8M0FNU>,
                           %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %offsets = arith.constant dense<[0, 20, 20, 40]> : tensor<4xi32>
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x64xf8E4M3FN>, tensor<3x24x64xf4E2M1FN>,
                            tensor<40x2xf8E8M0FNU>, tensor<3x24x2xf8E8M0FNU>)
      offsets(%offsets : tensor<4xi32>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @grouped_dynamic(%a: tensor<40x128xf4E2M1FN>, %b: tensor<5x24x128xf4E2M1FN>,
                           %sa: tensor<40x4xf8E8M0FNU>, %sb: tensor<5x24x4xf8E8M0FNU>,
                           %acc: tensor<40x24xf32>, %offsets: tensor<6xi32>) -> tensor<40x24xf32> {
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x128xf4E2M1FN>, tensor<5x24x128xf4E2M1FN>,
                            tensor<40x4xf8E8M0FNU>, tensor<5x24x4xf8E8M0FNU>)
      offsets(%offsets : tensor<6xi32>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

// T dynamic (the row count of a MoE batch is known at run time only).
func.func @grouped_dynamic_rows(%a0: tensor<40x128xf4E2M1FN>, %b: tensor<5x24x128xf4E2M1FN>,
                                %sa0: tensor<40x4xf8E8M0FNU>, %sb: tensor<5x24x4xf8E8M0FNU>,
                                %acc0: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %a = tensor.cast %a0 : tensor<40x128xf4E2M1FN> to tensor<?x128xf4E2M1FN>
  %sa = tensor.cast %sa0 : tensor<40x4xf8E8M0FNU> to tensor<?x4xf8E8M0FNU>
  %acc = tensor.cast %acc0 : tensor<40x24xf32> to tensor<?x24xf32>
  %offsets = arith.constant dense<[0, 9, 9, 21, 38, 40]> : tensor<6xi32>
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<?x128xf4E2M1FN>, tensor<5x24x128xf4E2M1FN>,
                            tensor<?x4xf8E8M0FNU>, tensor<5x24x4xf8E8M0FNU>)
      offsets(%offsets : tensor<6xi32>)
      outs(%acc : tensor<?x24xf32>) -> tensor<?x24xf32>
  %r0 = tensor.cast %r : tensor<?x24xf32> to tensor<40x24xf32>
  return %r0 : tensor<40x24xf32>
}
