// Mutation tests of the gfx950 ISA executor (mx-run --backend=gfx950-isa):
// the seed tile's GEMM kernel as LLVM compiles it (output=isa), reassembled
// with llvm-mc and linked with ld.lld, runs bit-exact; with one wait, one
// barrier or one wait state removed, or an LDS read moved above its wait,
// the executor reports the broken rule and names the instructions.

// DEFINE: %{opts} = intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=2 subgroups-m=1 subgroups-n=4
// RUN: mx-opt %S/../../../Integration/GFX950/emulator-seed-tile.mlir --mx-gfx950-pipeline="output=isa %{opts}" -o %t.mlir
// DEFINE: %{asm} = %python %S/Inputs/mutate.py %t.mlir seed_tile_mma0
// DEFINE: %{link} = llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.s -o %t.o && %llvm_tools_dir/ld.lld -shared %t.o -o %t.co
// DEFINE: %{run} = mx-run %S/../../../Integration/GFX950/emulator-seed-tile.mlir --backend=gfx950-isa --compare=reference --seed=16384 --gfx950-options="%{opts}" --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-2,hi=2 --arg=random:scales,lo=126,hi=128 --arg=random:scales,lo=126,hi=128 --arg=random:int,lo=-8,hi=8 --isa-code-object=seed_tile_mma0=%t.co

// The kernel as LLVM wrote it.
// RUN: %{asm} none %t.s && %{link} && %{run} | FileCheck %s --check-prefix=INTACT
// INTACT: result #0 tensor<256x256xf32>: {{.*}}: bit-exact
// INTACT: PASS

// A wait removed: the first `s_waitcnt lgkmcnt(0)` (after the kernel
// arguments' scalar loads).
// RUN: %{asm} delete:'s_waitcnt lgkmcnt\(0\)':0 %t.s 2>&1 | FileCheck %s --check-prefix=WAIT-MUT
// RUN: %{link} && not %{run} 2>&1 | FileCheck %s --check-prefix=WAIT
// WAIT-MUT: deleted: s_waitcnt lgkmcnt(0)
// WAIT: wave 0, pc {{.*}}: s_{{[a-z0-9_]+}} [[REG:s[0-9]+]]{{.*}}: {{reads|overwrites}} [[REG]] before the load that writes it (pc {{.*}}: s_load_dword{{.*}}) is retired by an s_waitcnt

// The first barrier removed: another wave's LDS-DMA overwrites A/B bytes
// the waves read.
// RUN: %{asm} delete:s_barrier:0 %t.s 2>&1 | FileCheck %s --check-prefix=BARRIER-MUT
// RUN: %{link} && not %{run} 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER-MUT: deleted: s_barrier
// BARRIER: wave {{[1-3]}}, pc {{.*}}: buffer_load_dwordx4 {{.*}} lds: LDS race: writes byte {{[0-9]+}} that another wave read since the last barrier

// A wait state removed: the first `s_nop 4`, which LLVM put between an
// MFMA and the LDS read that overwrites its srcC accumulators.
// RUN: %{asm} delete:'s_nop 4':0 %t.s 2>&1 | FileCheck %s --check-prefix=NOP-MUT
// RUN: %{link} && not %{run} 2>&1 | FileCheck %s --check-prefix=NOP
// NOP-MUT: deleted: s_nop 4
// NOP: wait-state hazard: rule LLVM-GCNHazardRecognizer-

// An LDS read moved above the wait for the LDS-DMA that fills its bytes.
// RUN: %{asm} hoist:ds_read:0:s_waitcnt %t.s 2>&1 | FileCheck %s --check-prefix=HOIST-MUT
// RUN: %{link} && not %{run} 2>&1 | FileCheck %s --check-prefix=HOIST
// HOIST-MUT: hoisted: ds_read_b128
// HOIST: ds_read_b128 {{.*}}: reads LDS byte {{[0-9]+}} while the LDS-DMA of wave 0 that writes it is not retired (missing s_waitcnt vmcnt)
