// A hand-written gfx950 kernel for v_permlane16_swap_b32 and
// buffer_atomic_pk_add_bf16 (test/Target/GFX950/ISA/new-opcodes.mlir).
// Kernel arguments: 0: in (128 dwords), 8: out (128 dwords), 16: mem (64
// dwords of packed bf16, added into), 24: addend (64 dwords), 32: ret (64
// dwords, the pre-op values of the second atomic).
.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
.text
.globl permlane_atomic
.p2align 8
.type permlane_atomic,@function
permlane_atomic:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_load_dwordx2 s[6:7], s[0:1], 0x8
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  s_load_dwordx2 s[12:13], s[0:1], 0x18
  s_load_dwordx2 s[14:15], s[0:1], 0x20
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  global_load_dword v4, v1, s[12:13]
  s_waitcnt vmcnt(0)
  v_permlane16_swap_b32 v2, v3
  s_nop 1
  global_store_dword v1, v2, s[6:7]
  global_store_dword v1, v3, s[6:7] offset:256
  // V# of mem: num_records 252 bytes (lane 63's dword is out of range) and
  // a stride of 4 as AITER's kernel sets it: without idxen the access is
  // raw all the same (CDNA4 ISA 9.1.5.1).
  s_and_b32 s9, s9, 0xffff
  s_or_b32 s9, s9, 0x40000
  s_mov_b32 s10, 252
  s_mov_b32 s11, 0x20000
  buffer_atomic_pk_add_bf16 v4, v1, s[8:11], 0 offen
  buffer_atomic_pk_add_bf16 v4, v1, s[8:11], 0 offen sc0
  s_waitcnt vmcnt(0)
  global_store_dword v1, v4, s[14:15]
  s_waitcnt vmcnt(0)
  s_endpgm
.size permlane_atomic, .-permlane_atomic

.rodata
.p2align 6
.amdhsa_kernel permlane_atomic
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 40
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
