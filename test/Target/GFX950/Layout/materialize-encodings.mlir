// RUN: mx-opt %s --split-input-file --mx-set-encodings \
// RUN:   --mx-materialize-encodings="target=#mx_gfx950.target<intrinsics_m=1,intrinsics_n=1,intrinsics_k=1,subgroups_m=1,subgroups_n=1>" \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: mx-opt %s --split-input-file --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64>" \
// RUN:   | FileCheck %s --check-prefix=K32
// RUN: mx-opt %s --split-input-file --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target" --cse \
// RUN:   | FileCheck %s --check-prefix=AUTO

// One 16x16x128 intrinsic per tile, fp4 x fp4, NT. Each operand is packed
// into [outer M or N, outer K, tile] tiles, expanded along the ISA lane
// layout and permuted so that a wave's 64 lanes (K group g, row r) come first
// and a lane's own values last.

// ONE-LABEL: func.func @nt_fp4
//  ONE-SAME:   (%[[A:[^:]+]]: tensor<64x256xf4E2M1FN>, %[[B:[^:]+]]: tensor<32x256xf4E2M1FN>, %[[SA:[^:]+]]: tensor<64x8xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<32x8xf8E8M0FNU>, %[[C:[^:]+]]: tensor<64x32xf32>)
//       ONE:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f4E2M1FN
//       ONE:   %[[PA:.+]] = linalg.pack %[[A]] padding_value(%[[ZERO]] : f4E2M1FN) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %{{.+}} : tensor<64x256xf4E2M1FN> -> tensor<4x2x16x128xf4E2M1FN>
//       ONE:   %[[XA:.+]] = tensor.expand_shape %[[PA]] {{\[}}[0], [1], [2], [3, 4]] output_shape [4, 2, 16, 4, 32] : tensor<4x2x16x128xf4E2M1FN> into tensor<4x2x16x4x32xf4E2M1FN>
//       ONE:   %[[TA:.+]] = linalg.transpose ins(%[[XA]] : tensor<4x2x16x4x32xf4E2M1FN>) outs(%{{.+}} : tensor<4x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
//       ONE:   %[[PB:.+]] = linalg.pack %[[B]] {{.*}} inner_tiles = [16, 128] {{.*}} -> tensor<2x2x16x128xf4E2M1FN>
//       ONE:   %[[TB:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<2x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
// Scales pad with 1.0 (byte 0x7F), never NaN; one byte per lane: [g 4, r 16].
//       ONE:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f8E8M0FNU
//       ONE:   %[[PSA:.+]] = linalg.pack %[[SA]] padding_value(%[[ONE]] : f8E8M0FNU) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 4] into %{{.+}} : tensor<64x8xf8E8M0FNU> -> tensor<4x2x16x4xf8E8M0FNU>
//       ONE:   %[[TSA:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<4x2x4x16xf8E8M0FNU>) permutation = [0, 1, 3, 2]
//       ONE:   %[[TSB:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<2x2x4x16xf8E8M0FNU>) permutation = [0, 1, 3, 2]
// The accumulator: item v of lane (g, r) is D[r][4 g + v] (the ukernels
// compute D^T = B A^T, so a lane holds 4 consecutive columns of a row).
//       ONE:   %[[PC:.+]] = linalg.pack %[[C]] {{.*}} inner_tiles = [16, 16] {{.*}} -> tensor<4x2x16x16xf32>
//       ONE:   %[[XC:.+]] = tensor.expand_shape %[[PC]] {{\[}}[0], [1], [2], [3, 4]] output_shape [4, 2, 16, 4, 4]
//       ONE:   %[[TC:.+]] = linalg.transpose ins(%[[XC]] : tensor<4x2x16x4x4xf32>) outs(%{{.+}} : tensor<4x2x4x16x4xf32>) permutation = [0, 1, 3, 2, 4]
//       ONE:   %[[MMA:.+]] = mx.tiled_scaled_mma ins(%[[TA]], %[[TB]], %[[TSA]], %[[TSB]] : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
//  ONE-SAME:     outs(%[[TC]] : tensor<4x2x4x16x4xf32>) layout = #{{.+}} -> tensor<4x2x4x16x4xf32>
//       ONE:   %[[UT:.+]] = linalg.transpose ins(%[[MMA]] : tensor<4x2x4x16x4xf32>) outs(%{{.+}} : tensor<4x2x16x4x4xf32>) permutation = [0, 1, 3, 2, 4]
//       ONE:   %[[UC:.+]] = tensor.collapse_shape %[[UT]] {{\[}}[0], [1], [2], [3, 4]]
//       ONE:   %[[R:.+]] = linalg.unpack %[[UC]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %{{.+}} : tensor<4x2x16x16xf32> -> tensor<64x32xf32>
//       ONE:   return %[[R]]

// K32-LABEL: func.func @nt_fp4
//       K32:   linalg.pack {{.*}} inner_tiles = [{{[0-9]+}}, 256] {{.*}} : tensor<64x256xf4E2M1FN>
//       K32:   mx.tiled_scaled_mma
//  K32-SAME:     layout = #{{.+}}
func.func @nt_fp4(%a: tensor<64x256xf4E2M1FN>, %b: tensor<32x256xf4E2M1FN>,
                  %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<32x8xf8E8M0FNU>,
                  %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<32x256xf4E2M1FN>,
                            tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>)
      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

// IREE's odd sizes (255 x 513 x 127*32), fp8 x fp4, B stored K x N.

// K32-DAG: #[[L32:.+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, intrinsics_m = 8, intrinsics_n = 2, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// K32-LABEL: func.func @nn_fp8_fp4_odd
//  K32-SAME:   (%[[A:[^:]+]]: tensor<255x4064xf8E4M3FN>, %[[B:[^:]+]]: tensor<4064x513xf4E2M1FN>, %[[SA:[^:]+]]: tensor<255x127xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<127x513xf8E8M0FNU>, %[[C:[^:]+]]: tensor<255x513xf32>)
// fp8: each lane holds two 16-value K chunks: K 128 = [i_k 2, chunk 2, g 2, 16].
//       K32:   %[[PA:.+]] = linalg.pack %[[A]] {{.*}} inner_tiles = [256, 128] {{.*}} -> tensor<1x32x256x128xf8E4M3FN>
//       K32:   tensor.expand_shape %[[PA]] {{\[}}[0], [1], [2, 3], [4, 5, 6, 7]] output_shape [1, 32, 8, 32, 2, 2, 2, 16]
//       K32:   %[[TA:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<1x32x8x2x2x32x2x16xf8E4M3FN>) permutation = [0, 1, 2, 4, 6, 3, 5, 7]
// B is K x N: the pack reads N as the first tile dimension.
//       K32:   %[[PB:.+]] = linalg.pack %[[B]] {{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [256, 128] {{.*}} -> tensor<3x32x256x128xf4E2M1FN>
//       K32:   %[[TB:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<3x32x4x2x2x2x32x32xf4E2M1FN>)
// Scales: the lane's 8 (M) x 2 (K) bytes are innermost: one 16-byte load.
//       K32:   %[[TSA:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<1x32x2x32x8x2xf8E8M0FNU>) permutation = [0, 1, 5, 3, 2, 4]
//       K32:   %[[PSB:.+]] = linalg.pack %[[SB]] {{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [256, 4] {{.*}} -> tensor<3x32x256x4xf8E8M0FNU>
//       K32:   %[[TSB:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<3x32x4x2x32x2x2xf8E8M0FNU>)
//       K32:   %[[TC:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<1x3x4x8x2x2x32x4x4xf32>)
//       K32:   mx.tiled_scaled_mma ins(%[[TA]], %[[TB]], %[[TSA]], %[[TSB]] : {{.*}}) outs(%[[TC]] : tensor<1x3x4x8x2x2x32x4x4xf32>) layout = #[[L32]]
//       K32:   linalg.unpack {{.*}} -> tensor<255x513xf32>
func.func @nn_fp8_fp4_odd(%a: tensor<255x4064xf8E4M3FN>, %b: tensor<4064x513xf4E2M1FN>,
                          %sa: tensor<255x127xf8E8M0FNU>, %sb: tensor<127x513xf8E8M0FNU>,
                          %c: tensor<255x513xf32>) -> tensor<255x513xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<255x4064xf8E4M3FN>, tensor<4064x513xf4E2M1FN>,
                            tensor<255x127xf8E8M0FNU>, tensor<127x513xf8E8M0FNU>)
      outs(%c : tensor<255x513xf32>) -> tensor<255x513xf32>
  return %r : tensor<255x513xf32>
}

// -----

// Dynamic sizes: the heuristic uses the largest tile that fits (256 x 256 x
// 256 fp4 with 4 waves, 256 accumulators per lane); the pack sizes the tile
// grid at run time and the unpack takes the result sizes from the input.

// AUTO-DAG: #[[LDYN:.+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// AUTO-LABEL: func.func @dynamic
//  AUTO-SAME:   (%[[A:[^:]+]]: tensor<?x?xf4E2M1FN>, {{.*}}, %[[C:[^:]+]]: tensor<?x?xf32>)
//       AUTO:   linalg.pack %[[A]] {{.*}} inner_tiles = [256, 256] {{.*}} : tensor<?x?xf4E2M1FN> -> tensor<?x?x256x256xf4E2M1FN>
//       AUTO:   %[[D0:.+]] = tensor.dim %[[C]], %{{.+}} : tensor<?x?xf32>
//       AUTO:   %[[D1:.+]] = tensor.dim %[[C]], %{{.+}} : tensor<?x?xf32>
//       AUTO:   %[[MMA:.+]] = mx.tiled_scaled_mma {{.*}} : tensor<?x?x16x2x4x16x32xf4E2M1FN>, tensor<?x?x4x4x2x4x16x32xf4E2M1FN>, tensor<?x?x4x16x16x2xf8E8M0FNU>, tensor<?x?x4x4x16x4x2xf8E8M0FNU>) outs(%{{.+}} : tensor<?x?x4x16x4x4x16x4xf32>) layout = #[[LDYN]]
//       AUTO:   %[[EMPTY:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
//       AUTO:   linalg.unpack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [256, 256] into %[[EMPTY]] : tensor<?x?x256x256xf32> -> tensor<?x?xf32>
func.func @dynamic(%a: tensor<?x?xf4E2M1FN>, %b: tensor<?x?xf4E2M1FN>,
                   %sa: tensor<?x?xf8E8M0FNU>, %sb: tensor<?x?xf8E8M0FNU>,
                   %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x?xf4E2M1FN>, tensor<?x?xf4E2M1FN>,
                            tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A per-op layout (mx.layout) wins over the heuristic and the pass options.

// AUTO-DAG: #[[PINNED:.+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E5M2, rhs_type = f6E2M3FN, intrinsics_k = 3>
// AUTO-LABEL: func.func @pinned
//       AUTO:   mx.tiled_scaled_mma {{.*}} layout = #[[PINNED]]
// ONE-LABEL: func.func @pinned
//       ONE:   mx.tiled_scaled_mma {{.*}} layout = #{{.+}}
func.func @pinned(%a: tensor<32x192xf8E5M2>, %b: tensor<32x192xf6E2M3FN>,
                  %sa: tensor<32x6xf8E8M0FNU>, %sb: tensor<32x6xf8E8M0FNU>,
                  %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x192xf8E5M2>, tensor<32x192xf6E2M3FN>,
                            tensor<32x6xf8E8M0FNU>, tensor<32x6xf8E8M0FNU>)
      outs(%c : tensor<32x32xf32>)
      {mx.layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E5M2, rhs_type = f6E2M3FN, intrinsics_k = 3>}
      -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// The seed MXFP4 GEMM 10000 x 16384 x 16384: 256 x 256 x 256 tiles on 4
// waves (each 256 x 64: 16 x 4 intrinsics, 256 accumulators per lane), two
// intrinsics along K (128 bytes of each row per step).

// AUTO-DAG: #[[LSEED:.+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// AUTO-LABEL: func.func @seed
//       AUTO:   linalg.pack %{{.+}} {{.*}} inner_tiles = [256, 256] {{.*}} : tensor<10000x16384xf4E2M1FN> -> tensor<40x64x256x256xf4E2M1FN>
//       AUTO:   mx.tiled_scaled_mma {{.*}} layout = #[[LSEED]]
func.func @seed(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf4E2M1FN>,
                %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
                %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}

// -----

// fp8 x fp8 on 16x16x128, one intrinsic per tile: the K tile of 128 splits
// into [chunk 2, lane group 4, 16 values], and the permutation puts the lanes
// (g, r) before the two chunks: each lane reads k 16g..16g+15 then
// 64+16g..64+16g+15, as the ISA table says.

// ONE-LABEL: func.func @nt_fp8
//  ONE-SAME:   (%[[A:[^:]+]]: tensor<32x256xf8E4M3FN>, %[[B:[^:]+]]: tensor<16x256xf8E5M2>
//       ONE:   %[[PA:.+]] = linalg.pack %[[A]] {{.*}} inner_tiles = [16, 128] {{.*}} -> tensor<2x2x16x128xf8E4M3FN>
//       ONE:   %[[XA:.+]] = tensor.expand_shape %[[PA]] {{\[}}[0], [1], [2], [3, 4, 5]] output_shape [2, 2, 16, 2, 4, 16] : tensor<2x2x16x128xf8E4M3FN> into tensor<2x2x16x2x4x16xf8E4M3FN>
//       ONE:   %[[TA:.+]] = linalg.transpose ins(%[[XA]] : tensor<2x2x16x2x4x16xf8E4M3FN>) outs(%{{.+}} : tensor<2x2x4x16x2x16xf8E4M3FN>) permutation = [0, 1, 4, 2, 3, 5]
//       ONE:   %[[PB:.+]] = linalg.pack %[[B]] {{.*}} -> tensor<1x2x16x128xf8E5M2>
//       ONE:   %[[TB:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<1x2x4x16x2x16xf8E5M2>) permutation = [0, 1, 4, 2, 3, 5]
//       ONE:   mx.tiled_scaled_mma ins(%[[TA]], %[[TB]], %{{.+}}, %{{.+}} : tensor<2x2x4x16x2x16xf8E4M3FN>, tensor<1x2x4x16x2x16xf8E5M2>, tensor<2x2x4x16xf8E8M0FNU>, tensor<1x2x4x16xf8E8M0FNU>) outs(%{{.+}} : tensor<2x1x4x16x4xf32>)
func.func @nt_fp8(%a: tensor<32x256xf8E4M3FN>, %b: tensor<16x256xf8E5M2>,
                  %sa: tensor<32x8xf8E8M0FNU>, %sb: tensor<16x8xf8E8M0FNU>,
                  %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x256xf8E4M3FN>, tensor<16x256xf8E5M2>,
                            tensor<32x8xf8E8M0FNU>, tensor<16x8xf8E8M0FNU>)
      outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}
