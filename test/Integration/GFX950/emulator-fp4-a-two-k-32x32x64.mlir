// fp4 A on the resolver's 32x32x64 tile for large GEMMs (8 x 2 x 2 intrinsics
// on 1 x 4 waves: two intrinsics along K, a K step of 128), deep in K
// (Inputs/deep-k-pairs.mlir: from memory 7 K steps, from zero 17), bit for bit
// against the independent reference on random codes and per-block scales.
// With fp4 or fp6 B the ukernel issues B's private loads after the first two
// rows and the scales' after row 1 (`early`), with fp8 B spread over the
// first half of the step. Every LDS stage and the clamp of the K loop's
// copies run. (The ISA-executor variant of this file, ctest
// lit-gfx950-isa-*, runs the same lines on the code object.)

// DEFINE: %{run} = mx-run %S/Inputs/deep-k-pairs.mlir --backend=gfx950-emu --compare=reference --seed=17
// DEFINE: %{mem} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{zero} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{tile} = --gfx950-options="split-k=1 intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 intrinsics-k=2 subgroups-m=1 subgroups-n=4"

// RUN: %{run} --entry=e2m1_e2m3 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m3 %{zero} %{tile} | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e5m2 %{zero} %{tile} | FileCheck %s

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS
