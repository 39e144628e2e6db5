// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=gpu" | FileCheck %s --check-prefix=GPU
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=isa" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// A MoE layer's grouped GEMM through the gfx950 pipeline: 512 routed rows
// (64 tokens x top 8) over 32 experts, N = 1024, K = 2048, MXFP4. The
// layout is resolved for an expert's average share (16 rows) with the 32
// experts' tiles counted as workgroups of the same launch (and no split
// K, so the fewest K steps in a row per CU first: 32 x 8 tiles are one
// round of the CUs): 16 x 128 tiles on 4 waves, K step 1024. Three
// launches: the tile
// table (one workgroup), the gathers of the experts' rows fused with the
// relayouts of both operands, and ONE GEMM for every expert, over 8 N tiles
// x at most (512 + 32 x 15) / 16 = 62 row tiles.
//   GPU-LABEL: func.func @moe_fp4
//     GPU-DAG:   %[[C8:.+]] = arith.constant 8 : index
//     GPU-DAG:   %[[C62:.+]] = arith.constant 62 : index
//     GPU-DAG:   %[[C256:.+]] = arith.constant 256 : index
//         GPU:   gpu.launch_func @moe_fp4_relayout0_generic::@moe_fp4_relayout0_generic blocks in (%{{.+}}, %{{.+}}, %{{.+}}) threads in ({{.*}}) args(%{{.+}} : memref<33xi32>, %[[TABLE:.+]] : memref<62x3xi32>)
//         GPU:   gpu.launch_func @moe_fp4_relayout1_generic::@moe_fp4_relayout1_generic {{.*}} args(%[[TABLE]] : memref<62x3xi32>
//         GPU:   gpu.launch_func @moe_fp4_mma0::@moe_fp4_mma0 blocks in (%[[C8]], %[[C62]], %{{.+}}) threads in (%[[C256]], {{.*}} args(%[[TABLE]] : memref<62x3xi32>, %{{.+}} : memref<512x1024xf32>
//    GPU-SAME:     memref<32x8x2x4x
//     GPU-NOT:   gpu.launch_func
//  REPORT-LABEL: kernel moe_fp4_mma0
//        REPORT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//        REPORT:   mfma.v_mfma_scale_f32_16x16x128_f8f6f4: {{[1-9][0-9]*}}
func.func @moe_fp4(%a: tensor<512x2048xf4E2M1FN>, %b: tensor<32x1024x2048xf4E2M1FN>,
                   %sa: tensor<512x64xf8E8M0FNU>, %sb: tensor<32x1024x64xf8E8M0FNU>,
                   %offsets: tensor<33xi32>, %acc: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<512x2048xf4E2M1FN>, tensor<32x1024x2048xf4E2M1FN>,
                            tensor<512x64xf8E8M0FNU>, tensor<32x1024x64xf8E8M0FNU>)
      offsets(%offsets : tensor<33xi32>)
      outs(%acc : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %r : tensor<512x1024xf32>
}

// -----

// MXFP8 with the expert count and the rows known at run time only: the tile
// count is computed on the host, (T + E x (tile rows - 1)) / tile rows.
//   GPU-LABEL: func.func @moe_fp8_dynamic
//         GPU:   %[[T:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x256xi8>
//         GPU:   %[[E:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x24x256xi8>
//         GPU:   gpu.launch_func @moe_fp8_dynamic_mma0::@moe_fp8_dynamic_mma0
//  REPORT-LABEL: kernel moe_fp8_dynamic_mma0
//        REPORT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
func.func @moe_fp8_dynamic(%a: tensor<?x256xf8E4M3FN>, %b: tensor<?x24x256xf8E4M3FN>,
                           %sa: tensor<?x8xf8E8M0FNU>, %sb: tensor<?x24x8xf8E8M0FNU>,
                           %offsets: tensor<?xi64>, %acc: tensor<?x24xf32>) -> tensor<?x24xf32> {
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<?x256xf8E4M3FN>, tensor<?x24x256xf8E4M3FN>,
                            tensor<?x8xf8E8M0FNU>, tensor<?x24x8xf8E8M0FNU>)
      offsets(%offsets : tensor<?xi64>)
      outs(%acc : tensor<?x24xf32>) -> tensor<?x24xf32>
  return %r : tensor<?x24xf32>
}

// -----

// The same layer in the sorted-token-ids form (vLLM's moe_align_block_size
// with blocks of 16: 512 + 32 x 15 = 992 positions, 62 blocks): two
// launches, the gathers of the sorted rows' tokens with the weights'
// relayout, then one GEMM over 4 N tiles x 62 blocks (16 x 256 tiles, K
// step 512: 62 x 4 tiles are one round of the CUs, 62 x 8 two) whose tiles
// look up their block's expert in the expert ids (no tile table is built)
// and write their rows at the sorted ids.
//   GPU-LABEL: func.func @moe_routed
//     GPU-DAG:   %[[C4:.+]] = arith.constant 4 : index
//     GPU-DAG:   %[[C62:.+]] = arith.constant 62 : index
//         GPU:   gpu.launch_func @moe_routed_relayout0_generic::@moe_routed_relayout0_generic {{.*}} args(%[[IDS:.+]] : memref<992xi32>,
//         GPU:   gpu.launch_func @moe_routed_mma0::@moe_routed_mma0 blocks in (%[[C4]], %[[C62]], %{{.+}}) {{.*}} args(%[[EXPERTS:.+]] : memref<62xi32>, %{{.+}} : memref<512x1024xf32>, %[[IDS]] : memref<992xi32>
//     GPU-NOT:   gpu.launch_func
//  REPORT-LABEL: kernel moe_routed_mma0
//        REPORT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
func.func @moe_routed(%a: tensor<64x2048xf4E2M1FN>, %w: tensor<32x1024x2048xf4E2M1FN>,
                      %sa: tensor<64x64xf8E8M0FNU>, %sw: tensor<32x1024x64xf8E8M0FNU>,
                      %ids: tensor<992xi32>, %experts: tensor<62xi32>,
                      %acc: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %r = mx.routed_scaled_contraction top_k = 8
      ins(%a, %w, %sa, %sw : tensor<64x2048xf4E2M1FN>, tensor<32x1024x2048xf4E2M1FN>,
                            tensor<64x64xf8E8M0FNU>, tensor<32x1024x64xf8E8M0FNU>)
      routing(%ids, %experts : tensor<992xi32>, tensor<62xi32>)
      outs(%acc : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %r : tensor<512x1024xf32>
}
