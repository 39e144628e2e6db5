// Every pair of MX element types (A x B) on 16x16x128 with accumulators from
// memory (C += A x B), deep in K: Inputs/deep-k-pairs.mlir's @<a>_<b> (48 x 40
// x 896) with one intrinsic per K step (intrinsics_k = 1: 7 K steps of 128).
// The software-pipelined schedule keeps up to four LDS stages and copies up to
// three steps ahead, so it needs at least stages + 2 K steps to wrap around its
// stage ring and to reach the clamp of its K loop's copies (the last iterations
// copy the last step again); shallower tests pass with a one-line bug in
// either. Two tilings per pair: one wave along M (subgroups_m = 1: the
// pipelined pairs load B's fragments straight into registers and stage only A,
// in three or four stages) and two (subgroups_m = 2: A and B staged, two
// stages); the waves along the other dimension share the copies. Not split
// along K (split-k=1: mx-split-k would split these small GEMMs).
//
// Random data (every finite code of each format, per-block distinct scales over
// the default range, a normal accumulator) compared bit for bit with the
// independent reference, which on gfx950-emu rounds per MFMA in the kernel's K
// order (mx-run --reference-rounding=auto).

// DEFINE: %{run} = mx-run %S/Inputs/deep-k-pairs.mlir --backend=gfx950-emu --compare=reference --seed=13
// DEFINE: %{data} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{tile} = split-k=1 intrinsic=16x16x128 intrinsics-m=4 intrinsics-n=4 intrinsics-k=1
// DEFINE: %{one_m} = --gfx950-options="%{tile} subgroups-m=1 subgroups-n=2"
// DEFINE: %{two_m} = --gfx950-options="%{tile} subgroups-m=2 subgroups-n=1"
// A's scales staged once per workgroup through LDS (the pipelined pairs with
// several waves along N and intrinsics_m * intrinsics_k a multiple of 16: a
// ring of two slots, step k + 2's copied in iteration k; three stages here).
// DEFINE: %{lds_scales} = --gfx950-options="split-k=1 intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=1 subgroups-m=1 subgroups-n=2"

// RUN: %{run} --entry=e2m1_e2m1 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m1 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m1 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e3m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e3m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e4m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e4m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e5m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e2m3_e5m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m1 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m1 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e3m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e3m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e4m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e4m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e3m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e3m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e5m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e4m3_e5m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m1 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m1 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e3m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e3m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e4m3 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e4m3 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e5m2 %{data} %{one_m} | FileCheck %s
// RUN: %{run} --entry=e5m2_e5m2 %{data} %{two_m} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{data} %{lds_scales} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{data} %{lds_scales} | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{data} %{lds_scales} | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{data} %{lds_scales} | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{data} %{lds_scales} | FileCheck %s

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS
