// The upstream form of an MX matmul (a linalg.generic extending both operands
// with arith.scaling_extf, as IREE's tests and torch-mlir write it), executed
// on the CPU path: mx-cpu-pipeline raises it with mx-raise-scaled-matmul
// first. The reference evaluator interprets the original linalg.generic
// itself (its f32 products, scaling_extf = decode(x) * 2^(s-127)), summing
// the reduction exactly because the raise reassociates it (random data:
// upstream-reassociation.mlir). The gfx950 emulator runs the same functions
// (test/Integration/GFX950/emulator-upstream.mlir).
//
// Exact-integer data with per-block distinct scales in [2^-2, 2^2]: every
// product and partial sum is exact in f32, so results must be bit-identical.

// DEFINE: %{ints} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129 --arg=random:int,lo=-8,hi=8 --compare=reference

// RUN: mx-run %s --entry=nt_fp4 %{ints} | FileCheck %s
// RUN: mx-run %s --entry=nn_fp8 %{ints} | FileCheck %s
// RUN: mx-run %s --entry=tn_fp8_fp4 %{ints} | FileCheck %s
// RUN: mx-run %s --entry=batched_fp4 %{ints} | FileCheck %s
// RUN: mx-run %s --entry=flat_k_fp6 %{ints} | FileCheck %s
// RUN: mx-run %s --entry=batched_activations_fp4 %{ints} | FileCheck %s

// CHECK: result #0 tensor<{{.+}}xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CHECK: PASS

// The raising is what makes the CPU path exact: every function is one
// mx.scaled_contraction after the pipeline's first pass.
// RUN: mx-opt %s --mx-raise-scaled-matmul | FileCheck %s --check-prefix=RAISED
// RAISED-COUNT-6: mx.scaled_contraction
// RAISED-NOT: linalg.generic

// IREE's form (NT, K expanded to [K/32, 32]): 33x47x224 fp4.
func.func @nt_fp4(%A: tensor<33x7x32xf4E2M1FN>, %B: tensor<47x7x32xf4E2M1FN>,
    %As: tensor<33x7xf8E8M0FNU>, %Bs: tensor<47x7xf8E8M0FNU>,
    %C: tensor<33x47xf32>) -> tensor<33x47xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<33x7x32xf4E2M1FN>, tensor<47x7x32xf4E2M1FN>, tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>) outs(%C : tensor<33x47xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<33x47xf32>
  return %0 : tensor<33x47xf32>
}

// NN: B is K x N, stored [K/32, 32, N].
func.func @nn_fp8(%A: tensor<24x4x32xf8E4M3FN>, %B: tensor<4x32x40xf8E4M3FN>,
    %As: tensor<24x4xf8E8M0FNU>, %Bs: tensor<4x40xf8E8M0FNU>,
    %C: tensor<24x40xf32>) -> tensor<24x40xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (ko, kb, n)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (ko, n)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<24x4x32xf8E4M3FN>, tensor<4x32x40xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<4x40xf8E8M0FNU>) outs(%C : tensor<24x40xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f8E4M3FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f8E4M3FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<24x40xf32>
  return %0 : tensor<24x40xf32>
}

// TN: A is K x M, stored [K/32, 32, M]; fp8 (E5M2) x fp4.
func.func @tn_fp8_fp4(%A: tensor<4x32x20xf8E5M2>, %B: tensor<36x4x32xf4E2M1FN>,
    %As: tensor<4x20xf8E8M0FNU>, %Bs: tensor<36x4xf8E8M0FNU>,
    %C: tensor<20x36xf32>) -> tensor<20x36xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (ko, kb, m)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (ko, m)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<4x32x20xf8E5M2>, tensor<36x4x32xf4E2M1FN>, tensor<4x20xf8E8M0FNU>, tensor<36x4xf8E8M0FNU>) outs(%C : tensor<20x36xf32>) {
  ^bb0(%a: f8E5M2, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f8E5M2, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<20x36xf32>
  return %0 : tensor<20x36xf32>
}

// Batched (IREE's scaled_matmul_with_batch shape, smaller).
func.func @batched_fp4(%A: tensor<2x20x4x32xf4E2M1FN>, %B: tensor<2x24x4x32xf4E2M1FN>,
    %As: tensor<2x20x4xf8E8M0FNU>, %Bs: tensor<2x24x4xf8E8M0FNU>,
    %C: tensor<2x20x24xf32>) -> tensor<2x20x24xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(b, m, n, ko, kb) -> (b, m, ko, kb)>,
                     affine_map<(b, m, n, ko, kb) -> (b, n, ko, kb)>,
                     affine_map<(b, m, n, ko, kb) -> (b, m, ko)>,
                     affine_map<(b, m, n, ko, kb) -> (b, n, ko)>,
                     affine_map<(b, m, n, ko, kb) -> (b, m, n)>],
    iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<2x20x4x32xf4E2M1FN>, tensor<2x24x4x32xf4E2M1FN>, tensor<2x20x4xf8E8M0FNU>, tensor<2x24x4xf8E8M0FNU>) outs(%C : tensor<2x20x24xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<2x20x24xf32>
  return %0 : tensor<2x20x24xf32>
}

// Flat K, scales at k floordiv 32; fp6 x fp6.
func.func @flat_k_fp6(%A: tensor<16x128xf6E2M3FN>, %B: tensor<24x128xf6E3M2FN>,
    %As: tensor<16x4xf8E8M0FNU>, %Bs: tensor<24x4xf8E8M0FNU>,
    %C: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                     affine_map<(m, n, k) -> (n, k)>,
                     affine_map<(m, n, k) -> (m, k floordiv 32)>,
                     affine_map<(m, n, k) -> (n, k floordiv 32)>,
                     affine_map<(m, n, k) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<16x128xf6E2M3FN>, tensor<24x128xf6E3M2FN>, tensor<16x4xf8E8M0FNU>, tensor<24x4xf8E8M0FNU>) outs(%C : tensor<16x24xf32>) {
  ^bb0(%a: f6E2M3FN, %b: f6E3M2FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f6E2M3FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f6E3M2FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<16x24xf32>
  return %0 : tensor<16x24xf32>
}

// A batch of activations against one weight matrix (IREE's
// scaled_matmul_with_dynamic_batch shape, static and smaller): b is a second
// M dimension.
func.func @batched_activations_fp4(%A: tensor<3x8x2x32xf4E2M1FN>, %B: tensor<16x2x32xf4E2M1FN>,
    %As: tensor<3x8x2xf8E8M0FNU>, %Bs: tensor<16x2xf8E8M0FNU>,
    %C: tensor<3x8x16xf32>) -> tensor<3x8x16xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(b, m, n, ko, kb) -> (b, m, ko, kb)>,
                     affine_map<(b, m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(b, m, n, ko, kb) -> (b, m, ko)>,
                     affine_map<(b, m, n, ko, kb) -> (n, ko)>,
                     affine_map<(b, m, n, ko, kb) -> (b, m, n)>],
    iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<3x8x2x32xf4E2M1FN>, tensor<16x2x32xf4E2M1FN>, tensor<3x8x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>) outs(%C : tensor<3x8x16xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<3x8x16xf32>
  return %0 : tensor<3x8x16xf32>
}
