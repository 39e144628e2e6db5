// MFMA srcC overlapping an earlier MFMA's result that a later MFMA
// rewrote whole (test/Target/GFX950/ISA/mfma-srcc-rewritten.mlir): the
// third MFMA's srcC v[18:21] is the second's result (identical range: no
// wait), not the first's v[20:23].
.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
.text
.globl mfma_srcc
.p2align 8
.type mfma_srcc,@function
mfma_srcc:
  v_mfma_scale_f32_16x16x128_f8f6f4 v[20:23], v[0:7], v[0:7], 0, v8, v8
  v_mfma_scale_f32_16x16x128_f8f6f4 v[18:21], v[0:7], v[0:7], 0, v8, v8
  v_mfma_scale_f32_16x16x128_f8f6f4 v[24:27], v[0:7], v[0:7], v[18:21], v8, v8
  s_nop 7
  s_nop 7
  s_endpgm
.size mfma_srcc, .-mfma_srcc

.rodata
.p2align 6
.amdhsa_kernel mfma_srcc
  .amdhsa_next_free_vgpr 28
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 28
.end_amdhsa_kernel
