// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64,require_ukernel=true>" | FileCheck %s --check-prefix=LAYOUT
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu split-k=1 intrinsic=32x32x64" | FileCheck %s --check-prefix=GPU
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa split-k=1 intrinsic=32x32x64" | FileCheck %s --check-prefix=ISA
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa split-k=1 intrinsic=32x32x64" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// MXFP4 256 x 256 x 8192 with the intrinsic pinned to 32x32x64.

// 8 x 2 intrinsics per wave (256 x 64), 4 along K (one 128-byte row of fp4
// = 256 values per K step), on 1 x 4 waves.
// LAYOUT: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 8, intrinsics_n = 2, intrinsics_k = 4, subgroups_n = 4,

// lhs tiles [Mo, Ko = 32, im 8, ik 4, g 2, r 32, 16 bytes]; 16 f32
// accumulators per lane and intrinsic, read from and written to C in place.
//   GPU-LABEL: func.func @fp4_32x32x64
//  GPU-SAME:     %[[C:[^:]+]]: memref<256x256xf32>
//         GPU:   gpu.launch_func @fp4_32x32x64_mma0::@fp4_32x32x64_mma0 {{.*}} args(%[[C]] : memref<256x256xf32>, %{{[^ ]+}} : memref<1x32x8x4x2x32x16xi8>, %{{[^ ]+}} : memref<1x32x4x2x4x2x32x16xi8>, %{{[^ ]+}} : memref<1x32x2x32x8x4xi8>, %{{[^ ]+}} : memref<1x32x4x2x32x2x4xi8>)
//         GPU:   gpu.module @fp4_32x32x64_mma0
//         GPU:     scf.for
//   GPU-COUNT-64:    amdgpu.scaled_mfma 32x32x64 {{.*}} : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<16xf32>

// 16 accumulator registers, fp4 operands in 4 registers each.
//      ISA: gpu.binary @fp4_32x32x64_mma0 [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}v_mfma_scale_f32_32x32x64_f8f6f4 {{[av]}}{{\[}}[[#D:]]
// ISA-SAME: :[[#D+15]]], {{[av]}}{{\[}}[[#A:]]
// ISA-SAME: :[[#A+3]]], {{[av]}}{{\[}}[[#B:]]
// ISA-SAME: :[[#B+3]]], {{[av]}}{{\[}}[[#D]]:[[#D+15]]], {{[^\\]*}}op_sel_hi:[{{[01]}},{{[01]}},{{[01]}}] cbsz:4 blgp:4\0A

// 8 x 2 x 4 = 64 MFMAs per wave and K step.
//  REPORT-LABEL: kernel fp4_32x32x64_mma0
//        REPORT:   lds_bytes: {{([0-9]{1,5}|1[0-5][0-9]{4}|16[0-2][0-9]{3}|163[0-7][0-9]{2}|1638[0-3][0-9]|163840)$}}
//   REPORT-NEXT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//        REPORT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8])$}}
//        REPORT:   main_loop.mfma: 64
//   REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 64
func.func @fp4_32x32x64(%a: tensor<256x8192xf4E2M1FN>, %b: tensor<256x8192xf4E2M1FN>,
                        %sa: tensor<256x256xf8E8M0FNU>, %sb: tensor<256x256xf8E8M0FNU>,
                        %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x8192xf4E2M1FN>, tensor<256x8192xf4E2M1FN>,
                            tensor<256x256xf8E8M0FNU>, tensor<256x256xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
