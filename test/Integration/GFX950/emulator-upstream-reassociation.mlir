// --compare=reference on random data of upstream-form MX matmuls
// (linalg.generic + arith.scaling_extf) compiled for gfx950 and run on the
// wave emulator. The kernel rounds its f32 accumulator after every MFMA in
// an order of its own (and, for a decode shape, adds the K parts of
// mx-split-k in order), not in the generic's loop order: the reference sums
// the generic's products exactly, rounds once, and compares within the bound
// of an unknown order, c x (|acc| + sum|a*b|) with c = n u / (1 - n u) + u,
// u = 2^-24, n = K/32 + 1 (5.36e-07 for K = 224, 3.93e-06 for K = 2048).
// That bound holds for any split: K/kStep MFMA roundings plus one per part
// are at most K/32 + 1. The compiled IR's mx.scaled_contraction, compared
// as such, is rounded per MFMA in the kernel's order, parts included:
// bit-exact, with a note saying so.

// DEFINE: %{random} = --backend=gfx950-emu --compare=reference --seed=3 --arg=random:codes --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:scales,lo=120,hi=130 --arg=random:normal

// RUN: mx-run %S/../CPU/upstream-scaled-matmul.mlir --entry=nt_fp4 %{random} | FileCheck %s --check-prefix=NT
// NT: note: result #0: the reduction of linalg.generic at {{.*}}upstream-scaled-matmul.mlir:{{[0-9]+}}:8 is reassociated by mx-raise-scaled-matmul: compared with its exact sum within 5.36e-07 x (|acc| + sum|a*b|)
// NT-NEXT: result #0 tensor<33x47xf32>: {{.*}} mismatches=0/1551 (rtol=0, atol=0): within tolerance
// NT: PASS

// Decode: K = 2048 in parts (grid z), the generic compared within the bound.
// RUN: mx-run %s --entry=decode_fp4 %{random} --print-launches | FileCheck %s --check-prefix=DECODE
// DECODE: launch #1 @decode_fp4_mma0::@decode_fp4_mma0 grid {{[0-9]+}}x1x[[PARTS:[2-9]|[1-9][0-9]+]] block
// DECODE: note: result #0: the reduction of linalg.generic at {{.*}}emulator-upstream-reassociation.mlir:[[#@LINE+13]]:8 is reassociated by mx-raise-scaled-matmul: compared with its exact sum within 3.93e-06 x (|acc| + sum|a*b|)
// DECODE-NEXT: result #0 tensor<4x64xf32>: {{.*}} mismatches=0/256 (rtol=0, atol=0): {{within tolerance|bit-exact}}
// DECODE: PASS

// The raised program itself: per MFMA in the kernel's order, K in parts.
// RUN: mx-opt %s --mx-raise-scaled-matmul | mx-run - --entry=decode_fp4 %{random} | FileCheck %s --check-prefix=RAISED
// RAISED: note: result #0: mx.scaled_contraction at {{.*}} is rounded to f32 after every matrix instruction (K step 128) in the kernel's K order, K split in {{[0-9]+}} parts added to acc in K order (split-K)
// RAISED-NEXT: result #0 tensor<4x64xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/256 (rtol=0, atol=0): bit-exact
// RAISED-NEXT: PASS

func.func @decode_fp4(%A: tensor<4x64x32xf4E2M1FN>, %B: tensor<64x64x32xf4E2M1FN>,
    %As: tensor<4x64xf8E8M0FNU>, %Bs: tensor<64x64xf8E8M0FNU>,
    %C: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<4x64x32xf4E2M1FN>, tensor<64x64x32xf4E2M1FN>, tensor<4x64xf8E8M0FNU>, tensor<64x64xf8E8M0FNU>) outs(%C : tensor<4x64xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
