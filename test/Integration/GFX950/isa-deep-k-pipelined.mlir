// The software-pipelined pairs (fp4 A with each of the five B types, and on
// 16x16x128 with one wave along M fp6 or fp8 A with each of them) of
// emulator-deep-k-*.mlir on the ISA executor (--backend=gfx950-isa): the code
// object LLVM makes of them, run with loads poisoned until the s_waitcnt that
// retires them and waves racing between barriers, deep enough in K
// (Inputs/deep-k-pairs.mlir, intrinsics_k = 1: 7 or 17 K steps of 128 on
// 16x16x128, 14 or 34 of 64 on 32x32x64) that the waits left in flight, every
// stage slot and the clamp of the K loop's copies all run; both intrinsics,
// both accumulator sources, one and two waves along M. Random codes, per-block
// scales, bit for bit against the independent reference.

// DEFINE: %{run} = mx-run %S/Inputs/deep-k-pairs.mlir --backend=gfx950-isa --compare=reference --seed=13
// DEFINE: %{mem} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{zero} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{k16} = split-k=1 intrinsic=16x16x128 intrinsics-m=4 intrinsics-n=4 intrinsics-k=1
// DEFINE: %{k32} = split-k=1 intrinsic=32x32x64 intrinsics-m=4 intrinsics-n=4 intrinsics-k=1
// A's scales staged once per workgroup through LDS (several waves along N,
// intrinsics_m * intrinsics_k a multiple of 16; three stages here).
// DEFINE: %{lds_scales} = split-k=1 intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=1 subgroups-m=1 subgroups-n=2

// RUN: %{run} --entry=e2m1_e2m1 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{mem} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m1 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m1 %{zero} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{mem} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m3 %{zero} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{mem} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e3m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e3m2 %{zero} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{mem} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e4m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e4m3 %{zero} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{mem} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e5m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e5m2 %{zero} --gfx950-options="%{k16} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m1 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e2m1 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e2m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m3_e3m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e3m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m3_e4m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e4m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m3_e5m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m3_e5m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m1 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e2m1 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e2m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e3m2_e3m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e3m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e3m2_e4m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e4m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e3m2_e5m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e2m1 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e2m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e4m3_e3m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e3m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e4m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e4m3_e5m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e4m3_e5m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m1 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e2m1 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e2m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e5m2_e3m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e3m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e5m2_e4m3 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e4m3 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e5m2_e5m2 %{mem} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e5m2_e5m2 %{zero} --gfx950-options="%{k16} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{mem} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{mem} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m1 %{zero} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m1 %{zero} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{mem} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{mem} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m3 %{zero} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m3 %{zero} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{mem} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{mem} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e3m2 %{zero} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e3m2 %{zero} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{mem} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{mem} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e4m3 %{zero} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e4m3 %{zero} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{mem} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{mem} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e5m2 %{zero} --gfx950-options="%{k32} subgroups-m=1 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e5m2 %{zero} --gfx950-options="%{k32} subgroups-m=2 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{mem} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m1 %{zero} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{mem} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e2m3 %{zero} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{mem} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e3m2 %{zero} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{mem} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e4m3 %{zero} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{mem} --gfx950-options="%{lds_scales}" | FileCheck %s
// RUN: %{run} --entry=zero_e2m1_e5m2 %{zero} --gfx950-options="%{lds_scales}" | FileCheck %s

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS

// These ran into a finding: in four of the fp4 x fp8 kernels on 32x32x64
// LLVM 22 put 19 wait states, where gfx950 asks for 20 (XDL write -> VMEM
// read, 16 passes + 3, +1 on gfx950), between the last MFMA and the
// buffer_store of its result. LLVM's recognizer looks back at most 19 wait
// states; mx-gfx950-pad-xdl-wait-states now inserts the missing s_nop
// (docs/guides/isa-executor-hazards.md, "LLVM 22 one wait state short").
