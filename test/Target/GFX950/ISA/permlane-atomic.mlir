// v_permlane16_swap_b32 and buffer_atomic_pk_add_bf16 (both in AITER's
// hand-written MXFP4 GEMM, bench/aiter_witness.py) on a hand-written kernel
// (Inputs/permlane-atomic.s): the outputs are checked against values
// derived in Inputs/permlane_atomic.py from the CDNA4 ISA's definitions
// (the swap's lane pseudocode; bf16 sums rounded to nearest even, computed
// exactly there; the pre-op value returned with sc0; a dword beyond the
// V#'s num_records neither written nor returned, a V# with a stride but
// no idxen being raw).

// DEFINE: %{link} = llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx950 -filetype=obj %t.s -o %t.o && %llvm_tools_dir/ld.lld -shared %t.o -o %t.co
// DEFINE: %{run} = mx-isa %t.co --run --kernel=permlane_atomic --grid=1,1,1 --block=64,1,1 --buffer=in=%t.d/in.bin --buffer=out=zeros:512 --buffer=mem=%t.d/mem.bin --buffer=addend=%t.d/addend.bin --buffer=ret=zeros:256 --kernarg=0:ptr:in --kernarg=8:ptr:out --kernarg=16:ptr:mem --kernarg=24:ptr:addend --kernarg=32:ptr:ret --out=out=%t.d/out.bin --out=mem=%t.d/mem.out.bin --out=ret=%t.d/ret.bin
// DEFINE: %{check} = %python %S/Inputs/permlane_atomic.py check %t.d

// RUN: rm -rf %t.d && mkdir -p %t.d && %python %S/Inputs/permlane_atomic.py make %t.d
// RUN: cp %S/Inputs/permlane-atomic.s %t.s && %{link}
// RUN: mx-isa %t.co | FileCheck %s --check-prefix=LIST
// RUN: %{run} && %{check} | FileCheck %s
// LIST: v_permlane16_swap_b32_e32 1
// LIST-NOT: NOT COVERED
// CHECK: v_permlane16_swap_b32: 128 dwords as the ISA defines
// CHECK: buffer_atomic_pk_add_bf16 memory: 64 dwords as the ISA defines
// CHECK: buffer_atomic_pk_add_bf16 sc0 return: 64 dwords as the ISA defines

// The check bites: the swap's operands exchanged (rows 1 and 3 of v3 swap
// with rows 0 and 2 of v2 instead).
// RUN: sed 's/v_permlane16_swap_b32 v2, v3/v_permlane16_swap_b32 v3, v2/' %S/Inputs/permlane-atomic.s > %t.s && %{link}
// RUN: %{run} && not %{check} | FileCheck %s --check-prefix=SWAPPED
// SWAPPED: v_permlane16_swap_b32: MISMATCH at dword 0 of 128

// A partial EXEC is not modelled: an error, not a guess.
// RUN: sed 's/v_permlane16_swap_b32 v2, v3/s_mov_b32 exec_lo, 0xffff\n  v_permlane16_swap_b32 v2, v3/' %S/Inputs/permlane-atomic.s > %t.s && %{link}
// RUN: not %{run} 2>&1 | FileCheck %s --check-prefix=EXEC
// EXEC: v_permlane16_swap_b32 with a partial EXEC is not modelled by the ISA executor
