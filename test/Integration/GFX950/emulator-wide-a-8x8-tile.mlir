// The 8 x 8 wave tile (128 x 512 outputs on 1 x 4 waves, 256 accumulators a
// lane) that bench/mx_tune.py's large-GEMM tuning records in the embedded
// configuration table for fp6 A times fp4 B at the seed shape and 16384^3
// (ukernels/gfx950/configs/table.mlir; fp8 A x fp4 B, recorded before, runs
// here too): the software-pipelined schedule with A read rows ahead, B
// private, deep in K
// (Inputs/deep-k-pairs.mlir: 7 K steps of 128 from memory, 17 from zero), so
// that every LDS stage and the clamp of the K loop's copies run. Random codes,
// per-block scales, bit for bit against the independent reference. (The
// ISA-executor variant of this file, ctest lit-gfx950-isa-*, runs the same
// lines on the code object.)

// DEFINE: %{run} = mx-run %S/Inputs/deep-k-pairs.mlir --backend=gfx950-emu --compare=reference --seed=13
// DEFINE: %{mem} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{zero} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{wide} = --gfx950-options="split-k=1 intrinsic=16x16x128 intrinsics-m=8 intrinsics-n=8 intrinsics-k=1 subgroups-m=1 subgroups-n=4"

// RUN: %{run} --entry=e2m3_e2m1 %{mem} %{wide} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m1 %{mem} %{wide} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{mem} %{wide} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m1 %{mem} %{wide} | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e2m1 %{zero} %{wide} | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e2m1 %{zero} %{wide} | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e2m1 %{zero} %{wide} | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e2m1 %{zero} %{wide} | FileCheck %s

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS
