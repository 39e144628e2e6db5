// RUN: mx-opt %s --mx-gfx950-kernel-report -o /dev/null | FileCheck %s

// The kernel report of a hand-written kernel: its real loop (.LBB0_1, one
// MFMA) and a block placed after the end of the program, as LLVM places
// the rare side of a branch (.LBB0_3, two MFMAs), that branches back into
// the code before it. That backward branch closes no loop (nothing in
// .LBB0_2 .. .LBB0_3 reaches it), so the main loop is .LBB0_1. Global
// stores are counted by mnemonic.
// CHECK-LABEL: kernel k
//       CHECK:   vgprs: 16
//       CHECK:   mfma: 3
//       CHECK:   global_stores: 2
//  CHECK-NEXT:   global_stores.buffer_store_dwordx4: 1
//  CHECK-NEXT:   global_stores.global_store_dword: 1
//  CHECK-NEXT:   main_loop.instructions: 4
//  CHECK-NEXT:   main_loop.mfma: 1
//       CHECK:   main_loop.global_stores: 0
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "\09.text\0A\09.globl k\0A\09.p2align 8\0A\09.type k,@function\0Ak:\0A\09s_cmp_lg_u32 s2, 0\0A\09s_cbranch_scc1 .LBB0_3\0A.LBB0_1:\0A\09v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]\0A\09s_sub_u32 s3, s3, 1\0A\09s_cmp_lg_u32 s3, 0\0A\09s_cbranch_scc1 .LBB0_1\0A.LBB0_2:\0A\09buffer_store_dwordx4 v[4:7], v8, s[4:7], 0 offen\0A\09global_store_dword v[10:11], v12, off\0A\09s_endpgm\0A.LBB0_3:\0A\09v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]\0A\09v_mfma_f32_16x16x16_f16 a[4:7], v[0:1], v[2:3], a[4:7]\0A\09s_branch .LBB0_2\0A.Lfunc_end0:\0A\09.size k, .Lfunc_end0-k\0A.amdgpu_metadata\0A---\0Aamdhsa.kernels:\0A  - .agpr_count:     8\0A    .group_segment_fixed_size: 0\0A    .kernarg_segment_align: 8\0A    .kernarg_segment_size: 0\0A    .max_flat_workgroup_size: 64\0A    .name:           k\0A    .private_segment_fixed_size: 0\0A    .sgpr_count:     8\0A    .symbol:         k.kd\0A    .vgpr_count:     16\0A    .wavefront_size: 64\0Aamdhsa.target:   amdgcn-amd-amdhsa--gfx950\0Aamdhsa.version:\0A  - 1\0A  - 2\0A...\0A.end_amdgpu_metadata\0A">]
}
