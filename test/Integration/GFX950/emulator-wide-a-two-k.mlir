// Wide A (fp6 or fp8) in the software-pipelined schedule with more than one
// intrinsic per K step, on both intrinsics: the 32x32x64 tiles (the
// resolver's 8 x 2 x 2 for large GEMMs among them; A read a whole K step
// ahead from memory and fp6 A from zero too, fp8 A one row ahead from zero),
// the 16x16x128 small-M tiles and the tuned fp8 decode tile (intrinsics_k =
// 4). One wave along M, B private, A's fragments read `lookahead` rows ahead
// of their MFMAs, wrapping into the next K step's stage. Deep in K
// (Inputs/deep-k-pairs.mlir): from memory 7 K steps of 128 on 32x32x64;
// from zero 17 K steps of 128 (9 of 256 on 16x16x128, K padded); the decode
// tile 8 K steps of 512; so that every LDS stage and the clamp of the K
// loop's copies run. Random codes, per-block scales, bit for bit against the
// independent reference. (The ISA-executor variant of this file, ctest
// lit-gfx950-isa-*, runs the same lines on the code object.)

// DEFINE: %{run} = mx-run %S/Inputs/deep-k-pairs.mlir --backend=gfx950-emu --compare=reference --seed=13
// DEFINE: %{mem} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{zero} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{k32} = --gfx950-options="split-k=1 intrinsic=32x32x64 intrinsics-m=4 intrinsics-n=2 intrinsics-k=2 subgroups-m=1 subgroups-n=2"
// DEFINE: %{k16} = --gfx950-options="split-k=1 intrinsic=16x16x128 intrinsics-m=4 intrinsics-n=2 intrinsics-k=2 subgroups-m=1 subgroups-n=2"
// The resolver's 32x32x64 tile for large GEMMs (8 x 2 x 2 on 1 x 4 waves) at
// 7 K steps: LLVM unrolled this short K loop fully and spilled (with A read
// two or more rows ahead here; on larger grids with one row as well) until
// the K loop told it not to (llvm.loop_annotation); the ISA-executor variant
// of these lines fails on any scratch.
// DEFINE: %{k32w} = --gfx950-options="split-k=1 intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 intrinsics-k=2 subgroups-m=1 subgroups-n=4"
// The tuned fp8 decode tile (ukernels/gfx950/configs/table.mlir, M = 64):
// 2 x 2 x 4 intrinsics on 1 x 4 waves, K steps of 512 (8 of them here; 4 in
// each of two split-K parts).
// DEFINE: %{decode} = split-k=1 intrinsic=16x16x128 intrinsics-m=2 intrinsics-n=2 intrinsics-k=4 subgroups-m=1 subgroups-n=4

// RUN: %{run} --entry=e2m3_e2m1 %{mem} %{k32} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m3 %{mem} %{k32} | FileCheck %s
// RUN: %{run} --entry=e4m3_e3m2 %{mem} %{k32} | FileCheck %s
// RUN: %{run} --entry=e5m2_e4m3 %{mem} %{k32} | FileCheck %s
// RUN: %{run} --entry=e2m3_e5m2 %{mem} %{k32} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{mem} %{k32} | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e2m3 %{zero} %{k32} | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e2m1 %{zero} %{k32} | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e2m1 %{zero} %{k16} | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e3m2 %{zero} %{k16} | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e2m3 %{zero} %{k16} | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e5m2 %{zero} %{k16} | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e4m3 %{zero} %{k16} | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m3 %{mem} %{k32w} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{mem} %{k32w} | FileCheck %s
// RUN: %{run} --entry=e2m3_e4m3 %{mem} %{k32w} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{mem} %{k32w} | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e5m2 %{zero} %{k32w} | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e2m1 %{zero} %{k32w} | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e4m3 %{zero} %{k32w} | FileCheck %s
// RUN: %{run} --entry=long_e4m3_e4m3 %{mem} --gfx950-options="%{decode}" | FileCheck %s
// RUN: %{run} --entry=zero_long_e5m2_e4m3 %{zero} --gfx950-options="%{decode}" | FileCheck %s
// RUN: %{run} --entry=long_e4m3_e4m3 %{mem} --gfx950-options="%{decode} split-k=2" | FileCheck %s

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS
