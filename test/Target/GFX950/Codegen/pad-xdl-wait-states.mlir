// RUN: mx-opt %s --split-input-file --mx-gfx950-pad-xdl-wait-states | FileCheck %s

// A 16-pass MFMA (32x32x64, fp8 A and B: no cbsz/blgp) whose result a VALU
// reads 19 wait states later (17 instructions and an s_nop 1): one s_nop 0
// in front of the reader, nothing in front of the instructions that do not
// touch v[0:15].
// CHECK-LABEL: gpu.binary @valu_read
//       CHECK:   v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33\0A
//  CHECK-SAME:   \09s_nop 1\0A
//  CHECK-SAME:   \09v_mov_b32 v50, v51\0A\09s_nop 0\0A\09v_cvt_pk_bf16_f32 v40, v2, v3\0A
//  CHECK-SAME:   \09s_endpgm
gpu.binary @valu_read [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "\09v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33\0A\09v_mov_b32 v34, v35\0A\09v_mov_b32 v52, v35\0A\09v_mov_b32 v36, v35\0A\09v_mov_b32 v37, v35\0A\09v_mov_b32 v38, v35\0A\09v_mov_b32 v39, v35\0A\09v_mov_b32 v41, v35\0A\09v_mov_b32 v42, v35\0A\09v_mov_b32 v43, v35\0A\09v_mov_b32 v44, v35\0A\09v_mov_b32 v45, v35\0A\09v_mov_b32 v46, v35\0A\09v_mov_b32 v47, v35\0A\09v_mov_b32 v48, v35\0A\09v_mov_b32 v49, v35\0A\09v_mov_b32 v50, v35\0A\09s_nop 1\0A\09v_mov_b32 v50, v51\0A\09v_cvt_pk_bf16_f32 v40, v2, v3\0A\09s_endpgm\0A">]

// -----

// A buffer store of an AGPR result right after the MFMA: 20 wait states in
// front of it (three s_nops of up to 8). An MFMA reading the result as srcC
// (accumulation) needs none; one reading it as srcA right behind that one
// does (20 again: the accumulating MFMA rewrote the result).
// CHECK-LABEL: gpu.binary @store_and_mfma
//       CHECK:   a[0:15], a[16:23], a[24:31], a[0:15], v32, v33\0A\09s_nop 7\0A\09s_nop 7\0A\09s_nop 3\0A\09buffer_store_dwordx4 a[0:3], v1, s[0:3], 0 offen\0A
//  CHECK-SAME:   \09v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], a[16:23], a[24:31], a[0:15], v32, v33\0A\09s_nop 7\0A\09s_nop 7\0A\09s_nop 3\0A\09v_mfma_scale_f32_32x32x64_f8f6f4 a[32:47], a[0:7], a[24:31], a[32:47], v32, v33\0A
gpu.binary @store_and_mfma [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "\09v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], a[16:23], a[24:31], a[0:15], v32, v33\0A\09buffer_store_dwordx4 a[0:3], v1, s[0:3], 0 offen\0A\09v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], a[16:23], a[24:31], a[0:15], v32, v33\0A\09v_mfma_scale_f32_32x32x64_f8f6f4 a[32:47], a[0:7], a[24:31], a[32:47], v32, v33\0A\09s_endpgm\0A">]

// -----

// Left alone: an 8-pass MFMA (fp4 A and B, cbsz:4 blgp:4), a reader behind
// a label (another path reaches it) and a register that only looks like
// the result (vcc, s0).
// CHECK-LABEL: gpu.binary @untouched
//   CHECK-NOT:   s_nop
//       CHECK:   gpu.binary
gpu.binary @untouched [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "\09v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33 cbsz:4 blgp:4\0A\09v_cvt_pk_bf16_f32 v40, v2, v3\0A\09v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33\0A.LBB0_1:\0A\09v_cvt_pk_bf16_f32 v40, v2, v3\0A\09s_mov_b64 vcc, s[0:1]\0A\09s_endpgm\0A">]
gpu.binary @end [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "\09s_endpgm\0A">]
