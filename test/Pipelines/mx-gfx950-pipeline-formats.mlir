// RUN: mx-opt %s -split-input-file --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" | FileCheck %s --check-prefix=LAYOUT
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=gpu split-k=1" | FileCheck %s --check-prefix=GPU
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=isa split-k=1" | FileCheck %s --check-prefix=ISA
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=isa split-k=1" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// FP8 x FP8 and mixed FP8 x FP4 (E4M3 lhs, E2M1 rhs as N x K), 256 x 256 x
// 8192, compiled to gfx950 with the resolver's layout.

// MXFP8: one 128-byte row of fp8 per K step is one intrinsic along K, so
// 16 x 4 x 1 intrinsics per wave on 1 x 4 waves.
// LAYOUT: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, intrinsics_m = 16, intrinsics_n = 4, subgroups_n = 4,
// LAYOUT-LABEL: func.func @fp8

// fp8 tiles: [Mo, Ko = 64, im 16, g 4, r 16, 2 K chunks, 16 bytes] (a lane
// holds two 16-value K chunks); one byte per element, no packing.
//   GPU-LABEL: func.func @fp8
//    GPU-SAME:   memref<256x8192xi8> {mx.packed_type = tensor<256x8192xf8E4M3FN>}
//         GPU:   gpu.launch_func @fp8_mma0::@fp8_mma0 {{.*}} args(%{{[^ ]+}} : memref<256x256xf32>, %{{[^ ]+}} : memref<1x64x16x4x16x2x16xi8>, %{{[^ ]+}} : memref<1x64x4x4x4x16x2x16xi8>, %{{[^ ]+}} : memref<1x64x4x16x16xi8>, %{{[^ ]+}} : memref<1x64x4x4x16x4xi8>)
//         GPU:   gpu.module @fp8_mma0
//         GPU:     scf.for
//   GPU-COUNT-64:    amdgpu.scaled_mfma 16x16x128 {{.*}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf32>

// Both operands are 8 registers (32 fp8 bytes per lane); E4M3 is format 0
// for both (no cbsz/blgp modifier).
//      ISA: gpu.binary @fp8_mma0 [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}v_mfma_scale_f32_16x16x128_f8f6f4 {{[av]}}{{\[}}[[#D:]]
// ISA-SAME: :[[#D+3]]], {{[av]}}{{\[}}[[#A:]]
// ISA-SAME: :[[#A+7]]], {{[av]}}{{\[}}[[#B:]]
// ISA-SAME: :[[#B+7]]], {{[av]}}{{\[}}[[#C:]]
// ISA-SAME: :[[#C+3]]], {{[^\\]*}}op_sel_hi:[{{[01]}},{{[01]}},{{[01]}}]\0A

// 16 x 4 x 1 = 64 MFMAs per wave and K step, two K steps per iteration
// (the register schedule's unroll for fp6/fp8 A x fp6/fp8 B, 64 K steps).
//  REPORT-LABEL: kernel fp8_mma0
//        REPORT:   lds_bytes: {{([0-9]{1,5}|1[0-5][0-9]{4}|16[0-2][0-9]{3}|163[0-7][0-9]{2}|1638[0-3][0-9]|163840)$}}
//   REPORT-NEXT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//        REPORT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8])$}}
//        REPORT:   main_loop.mfma: 128
//   REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 128
func.func @fp8(%a: tensor<256x8192xf8E4M3FN>, %b: tensor<256x8192xf8E4M3FN>,
               %sa: tensor<256x256xf8E8M0FNU>, %sb: tensor<256x256xf8E8M0FNU>,
               %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x8192xf8E4M3FN>, tensor<256x8192xf8E4M3FN>,
                            tensor<256x256xf8E8M0FNU>, tensor<256x256xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// Mixed: the K step follows the fp8 lhs (128 values), so intrinsics_k = 1.
// LAYOUT: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, subgroups_n = 4,
// LAYOUT-LABEL: func.func @mixed

// fp8 lhs tiles as above, fp4 rhs tiles of 16 bytes per lane.
//   GPU-LABEL: func.func @mixed
//    GPU-SAME:   memref<256x8192xi8> {mx.packed_type = tensor<256x8192xf8E4M3FN>}, %{{[^:]+}}: memref<256x4096xi8> {mx.packed_type = tensor<256x8192xf4E2M1FN>}
//         GPU:   gpu.launch_func @mixed_mma0::@mixed_mma0 {{.*}} args(%{{[^ ]+}} : memref<256x256xf32>, %{{[^ ]+}} : memref<1x64x16x4x16x2x16xi8>, %{{[^ ]+}} : memref<1x64x4x4x4x16x16xi8>, %{{[^ ]+}} : memref<1x64x4x16x16xi8>, %{{[^ ]+}} : memref<1x64x4x4x16x4xi8>)
//         GPU:   gpu.module @mixed_mma0
//         GPU:     scf.for
//   GPU-COUNT-64:    amdgpu.scaled_mfma 16x16x128 {{.*}} : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf32>

// The MFMA computes D^T = B A^T: B (fp4: cbsz:4) in 4 registers is its
// first operand, A (fp8, format 0) in 8 its second.
//      ISA: gpu.binary @mixed_mma0 [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}v_mfma_scale_f32_16x16x128_f8f6f4 {{[av]}}{{\[}}[[#D:]]
// ISA-SAME: :[[#D+3]]], {{[av]}}{{\[}}[[#B:]]
// ISA-SAME: :[[#B+3]]], {{[av]}}{{\[}}[[#A:]]
// ISA-SAME: :[[#A+7]]], {{[av]}}{{\[}}[[#C:]]
// ISA-SAME: :[[#C+3]]], {{[^\\]*}}op_sel_hi:[{{[01]}},{{[01]}},{{[01]}}] cbsz:4\0A

//  REPORT-LABEL: kernel mixed_mma0
//        REPORT:   lds_bytes: {{([0-9]{1,5}|1[0-5][0-9]{4}|16[0-2][0-9]{3}|163[0-7][0-9]{2}|1638[0-3][0-9]|163840)$}}
//   REPORT-NEXT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//        REPORT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8])$}}
//        REPORT:   main_loop.mfma: 64
//   REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 64
func.func @mixed(%a: tensor<256x8192xf8E4M3FN>, %b: tensor<256x8192xf4E2M1FN>,
                 %sa: tensor<256x256xf8E8M0FNU>, %sb: tensor<256x256xf8E8M0FNU>,
                 %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x8192xf8E4M3FN>, tensor<256x8192xf4E2M1FN>,
                            tensor<256x256xf8E8M0FNU>, tensor<256x256xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
