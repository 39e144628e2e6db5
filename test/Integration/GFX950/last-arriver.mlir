// The "last arriver" protocol of a split GEMM's epilogue on the gfx950 ISA
// executor, as LLVM compiles it: Inputs/last-arriver-kernel.mlir (12
// workgroups of 2 waves store their values, lane 0 of each wave adds 1 to
// its strip's counter with a system-scope memref.atomic_rmw, and the wave
// that sees the strip's last count sums every workgroup's values); its
// output is checked against the values derived by hand in the kernel's
// header (Inputs/last_arriver.py). The wave emulator runs the same file in
// unittests/Emulator/HostProgramTest.cpp (LastArriverKernel*).

// RUN: mx-opt %S/Inputs/last-arriver-kernel.mlir --pass-pipeline='builtin.module(gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),rocdl-attach-target{chip=gfx950},mx-gpu-modules-to-binaries{format=isa})' -o %t.mlir
// RUN: %python %S/../../Target/GFX950/ISA/Inputs/mutate.py %t.mlir last_arriver none %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.s -o %t.o && %llvm_tools_dir/ld.lld -shared %t.o -o %t.co

// What LLVM 22 makes of the atomic (acq_rel at system scope): a release (L2
// writeback, wait), the returning atomic at system scope (sc0: return the
// old value, sc1: system), a wait and an acquire (invalidate). LLVM's
// atomic optimizer has the first active lane add the number of active lanes
// (s_bcnt1 of EXEC) and gives each lane the old value plus its v_mbcnt rank.
// RUN: FileCheck %s --check-prefix=ISA < %t.s
// ISA: v_mbcnt_lo_u32_b32
// ISA: v_mbcnt_hi_u32_b32
// ISA: s_bcnt1_i32_b64
// ISA: buffer_wbl2 sc0 sc1
// ISA-NEXT: s_waitcnt vmcnt(0)
// ISA-NEXT: global_atomic_add [[OLD:v[0-9]+]], v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}] sc0 sc1
// ISA-NEXT: s_waitcnt vmcnt(0)
// ISA-NEXT: buffer_inv sc0 sc1
// ISA: v_readfirstlane_b32 {{s[0-9]+}}, [[OLD]]
// ISA: v_readlane_b32

// Every opcode is covered.
// RUN: mx-isa %t.co | FileCheck %s --check-prefix=LIST
// LIST: kernel last_arriver:
// LIST-DAG: buffer_inv 1{{$}}
// LIST-DAG: buffer_wbl2 1{{$}}
// LIST-DAG: global_atomic_add 1{{$}}
// LIST-NOT: NOT COVERED

// Kernel arguments: three memref descriptors (allocated and aligned
// pointers, offset, sizes, strides) at bytes 0, 56 and 96; the kernel reads
// the aligned pointers only. On one host thread, then on four (the
// workgroups race for the counters).
// DEFINE: %{run} = mx-isa %t.co --run --kernel=last_arriver --grid=3,4,1 --block=128,1,1 --buffer=vals=zeros:6144 --buffer=counters=zeros:12 --buffer=out=zeros:768 --kernarg=0:ptr:vals --kernarg=8:ptr:vals --kernarg=56:ptr:counters --kernarg=64:ptr:counters --kernarg=96:ptr:out --kernarg=104:ptr:out --out=out=%t.out --out=counters=%t.counters
// DEFINE: %{check} = %python %S/Inputs/last_arriver.py %t.out %t.counters
// RUN: %{run} --run-threads=1 | FileCheck %s --check-prefix=RAN
// RUN: %{check} | FileCheck %s
// RUN: %{run} --run-threads=4 | FileCheck %s --check-prefix=RAN
// RUN: %{check} | FileCheck %s
// RAN: ran last_arriver: 12 workgroups, 24 waves
// CHECK: out: 192 values as expected
// CHECK: counters: [8, 8, 8]

// The timing model classifies every instruction of it.
// RUN: %{run} --timing-model | FileCheck %s --check-prefix=TIMING
// TIMING: ran last_arriver: 12 workgroups
