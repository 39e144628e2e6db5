// RUN: mx-opt %s -split-input-file --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" | FileCheck %s --check-prefix=LAYOUT
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=gpu split-k=1" | FileCheck %s --check-prefix=GPU
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=isa split-k=1" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// Small MXFP4 GEMMs whose sizes are not multiples of the tiles, compiled to
// gfx950: the resolver keeps tiles no larger than the problem, the relayouts
// pad. (split-k=1: splitting the K loop of GEMMs with few tiles is
// mx-gfx950-pipeline-split-k.mlir's subject.)

// 100 x 80 x 4096: 64 x 64 tiles (2 x 2 intrinsics x 2 along K on 2 x 2
// waves); M and N are padded to 2 tiles each, 16 K steps.
// LAYOUT: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, subgroups_n = 2,
// LAYOUT-LABEL: func.func @small
//   GPU-LABEL: func.func @small
//     GPU-DAG:   %[[ONE:.+]] = arith.constant 1 : index
//     GPU-DAG:   %[[TWO:.+]] = arith.constant 2 : index
//     GPU-DAG:   %[[WG:.+]] = arith.constant 256 : index
//         GPU:   gpu.launch_func @small_mma0::@small_mma0 blocks in (%[[TWO]], %[[TWO]], %[[ONE]]) threads in (%[[WG]], %[[ONE]], %[[ONE]])
//    GPU-SAME:     memref<2x16x2x2x2x4x16x16xi8>
// The K loop has 2 x 2 x 2 = 8 MFMAs per K step; LLVM may unroll it, so
// a main loop holds a whole number of K steps (here LLVM unrolls all 16 K
// steps: 128 MFMAs and no loop).
//  REPORT-LABEL: kernel small_mma0
//        REPORT:   lds_bytes: {{([0-9]{1,5}|1[0-5][0-9]{4}|16[0-2][0-9]{3}|163[0-7][0-9]{2}|1638[0-3][0-9]|163840)$}}
//   REPORT-NEXT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//        REPORT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8])$}}
//        REPORT:   {{^  (main_loop\.)?mfma: (8|16|32|64|128)$}}
func.func @small(%a: tensor<100x4096xf4E2M1FN>, %b: tensor<80x4096xf4E2M1FN>,
                 %sa: tensor<100x128xf8E8M0FNU>, %sb: tensor<80x128xf8E8M0FNU>,
                 %c: tensor<100x80xf32>) -> tensor<100x80xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<100x4096xf4E2M1FN>, tensor<80x4096xf4E2M1FN>,
                            tensor<100x128xf8E8M0FNU>, tensor<80x128xf8E8M0FNU>)
      outs(%c : tensor<100x80xf32>) -> tensor<100x80xf32>
  return %r : tensor<100x80xf32>
}

// -----

// 33 x 47 x 2048, small M: the tile that gives the most workgroups, one wave
// of one intrinsic (16 x 16 tiles; a K step of 4 intrinsics, so that the
// lane's scale bytes are a whole 4-byte group), a 3 x 3 grid, 4 K steps.
// With 3 or 4 K steps from memory the register schedule does not unroll the
// K loop (max_k_steps), and LLVM is told not to: 3 steps of 4 MFMAs in the
// loop, the last step after it.
// LAYOUT: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m
// LAYOUT-LABEL: func.func @tiny
//   GPU-LABEL: func.func @tiny
//     GPU-DAG:   %[[ONE:.+]] = arith.constant 1 : index
//     GPU-DAG:   %[[THREE:.+]] = arith.constant 3 : index
//     GPU-DAG:   %[[WG:.+]] = arith.constant 64 : index
//         GPU:   gpu.launch_func @tiny_mma0::@tiny_mma0 blocks in (%[[THREE]], %[[THREE]], %[[ONE]]) threads in (%[[WG]], %[[ONE]], %[[ONE]])
//    GPU-SAME:     memref<3x4x4x4x16x16xi8>
//  REPORT-LABEL: kernel tiny_mma0
//        REPORT:   lds_bytes: {{([0-9]{1,5}|1[0-5][0-9]{4}|16[0-2][0-9]{3}|163[0-7][0-9]{2}|1638[0-3][0-9]|163840)$}}
//   REPORT-NEXT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//        REPORT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8])$}}
//        REPORT:   mfma: 8
//        REPORT:   main_loop.mfma: 4
// The GEMM writes the result: no relayout kernel after it.
//    REPORT-NOT: kernel
// -----
func.func @tiny(%a: tensor<33x2048xf4E2M1FN>, %b: tensor<47x2048xf4E2M1FN>,
                %sa: tensor<33x64xf8E8M0FNU>, %sb: tensor<47x64xf8E8M0FNU>,
                %c: tensor<33x47xf32>) -> tensor<33x47xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x2048xf4E2M1FN>, tensor<47x2048xf4E2M1FN>,
                            tensor<33x64xf8E8M0FNU>, tensor<47x64xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  return %r : tensor<33x47xf32>
}
