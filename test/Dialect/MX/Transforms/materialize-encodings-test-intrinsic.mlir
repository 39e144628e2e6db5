// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings | FileCheck %s

// A #mx.data_tiled_layout whose intrinsic is not gfx950's: #mx_test.mma
// (test/lib/TestTarget) is 8x16x64 over 32 lanes with lane tables of its own,
// and the core composes its swizzles with the layout's unroll counts,
// subgroups and interleavings like any target's.
//
// The layout: intrinsics_m = 2, intrinsics_k = 2, subgroups_n = 2 give the
// workgroup tile M = 2 * 8 = 16, N = 2 * 16 = 32, K = 2 * 64 = 128. The
// intrinsic's swizzles (TestTarget.td) and the layout's dimensions around
// them (subgroups first, then unrolls not interleaved, then the
// intrinsic's lanes, then interleaved unrolls, then a lane's values; unit
// dimensions left out) give:
//  * lhs [16, 128] = [(i_m 2, r 8), (i_k 2, g 4, t 16)] -> [i_m, i_k, r, g, t];
//  * rhs [32, 128] = [(sg 2, r 16), (i_k 2, g 2, t 32)] -> [sg, i_k, g, r, t];
//  * lhs_scales [16, 4] = [(i_m 2, r 8), (i_k 2, b 2)] -> [r, i_m, i_k, b]
//    (M and K interleaved);
//  * rhs_scales [32, 4] = [(sg 2, r 16), (i_k 2, g 2)] -> [sg, g, r, i_k]
//    (K interleaved; intrinsics_n = 1);
//  * result [16, 32] = [(i_m 2, h 2, q 4), (sg_n 2, c 8, v 2)]
//    -> [sg_n, i_m, q, c, h, v].
// Each relayout packs with the tile, expands the two inner dimensions (two
// outer tile dimensions come first) and transposes.

// The encodings' element types replace the resolver's.
// CHECK: #[[L:[a-z0-9_]+]] = #mx.data_tiled_layout<intrinsic = #mx_test.mma, lhs_type = f4E2M1FN, rhs_type = f8E4M3FN, intrinsics_m = 2, intrinsics_k = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>

// CHECK-LABEL: func.func @test_intrinsic
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<40x256xf4E2M1FN>
// CHECK-SAME:    %[[B:[a-z0-9]+]]: tensor<64x256xf8E4M3FN>
// CHECK-SAME:    %[[SA:[a-z0-9]+]]: tensor<40x8xf8E8M0FNU>
// CHECK-SAME:    %[[SB:[a-z0-9]+]]: tensor<64x8xf8E8M0FNU>
// CHECK-SAME:    %[[C:[a-z0-9]+]]: tensor<40x64xf32>

// CHECK:         %[[PA:.+]] = linalg.pack %[[A]]
// CHECK-SAME:      inner_tiles = [16, 128]
// CHECK-SAME:      -> tensor<3x2x16x128xf4E2M1FN>
// CHECK:         %[[EA:.+]] = tensor.expand_shape %[[PA]] {{\[\[}}0], [1], [2, 3], [4, 5, 6]] output_shape [3, 2, 2, 8, 2, 4, 16]
// CHECK:         %[[LHS:.+]] = linalg.transpose ins(%[[EA]] : tensor<3x2x2x8x2x4x16xf4E2M1FN>)
// CHECK-SAME:      permutation = [0, 1, 2, 4, 3, 5, 6]

// CHECK:         %[[PB:.+]] = linalg.pack %[[B]]
// CHECK-SAME:      inner_tiles = [32, 128]
// CHECK-SAME:      -> tensor<2x2x32x128xf8E4M3FN>
// CHECK:         %[[EB:.+]] = tensor.expand_shape %[[PB]] {{\[\[}}0], [1], [2, 3], [4, 5, 6]] output_shape [2, 2, 2, 16, 2, 2, 32]
// CHECK:         %[[RHS:.+]] = linalg.transpose ins(%[[EB]] : tensor<2x2x2x16x2x2x32xf8E4M3FN>)
// CHECK-SAME:      permutation = [0, 1, 2, 4, 5, 3, 6]

// CHECK:         %[[PSA:.+]] = linalg.pack %[[SA]]
// CHECK-SAME:      inner_tiles = [16, 4]
// CHECK-SAME:      -> tensor<3x2x16x4xf8E8M0FNU>
// CHECK:         %[[ESA:.+]] = tensor.expand_shape %[[PSA]] {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [3, 2, 2, 8, 2, 2]
// CHECK:         %[[LHSS:.+]] = linalg.transpose ins(%[[ESA]] : tensor<3x2x2x8x2x2xf8E8M0FNU>)
// CHECK-SAME:      permutation = [0, 1, 3, 2, 4, 5]

// CHECK:         %[[PSB:.+]] = linalg.pack %[[SB]]
// CHECK-SAME:      inner_tiles = [32, 4]
// CHECK-SAME:      -> tensor<2x2x32x4xf8E8M0FNU>
// CHECK:         %[[ESB:.+]] = tensor.expand_shape %[[PSB]] {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [2, 2, 2, 16, 2, 2]
// CHECK:         %[[RHSS:.+]] = linalg.transpose ins(%[[ESB]] : tensor<2x2x2x16x2x2xf8E8M0FNU>)
// CHECK-SAME:      permutation = [0, 1, 2, 5, 3, 4]

// CHECK:         %[[PC:.+]] = linalg.pack %[[C]]
// CHECK-SAME:      inner_tiles = [16, 32]
// CHECK-SAME:      -> tensor<3x2x16x32xf32>
// CHECK:         %[[EC:.+]] = tensor.expand_shape %[[PC]] {{\[\[}}0], [1], [2, 3, 4], [5, 6, 7]] output_shape [3, 2, 2, 2, 4, 2, 8, 2]
// CHECK:         %[[ACC:.+]] = linalg.transpose ins(%[[EC]] : tensor<3x2x2x2x4x2x8x2xf32>)
// CHECK-SAME:      permutation = [0, 1, 5, 2, 4, 6, 3, 7]

// CHECK:         mx.tiled_scaled_mma ins(%[[LHS]], %[[RHS]], %[[LHSS]], %[[RHSS]] :
// CHECK-SAME:      outs(%[[ACC]] :
// CHECK-SAME:      layout = #[[L]]
// CHECK:         linalg.unpack
module attributes {mx.target = #mx_test.data_tiled_resolver<
    #mx.data_tiled_layout<intrinsic = #mx_test.mma, lhs_type = f4E2M1FN,
        rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_k = 2,
        subgroups_n = 2, interleave_m = [lhs_scales],
        interleave_n = [rhs_scales],
        interleave_k = [lhs_scales, rhs_scales]>>} {
  func.func @test_intrinsic(%a: tensor<40x256xf4E2M1FN>, %b: tensor<64x256xf8E4M3FN>,
                            %sa: tensor<40x8xf8E8M0FNU>, %sb: tensor<64x8xf8E8M0FNU>,
                            %c: tensor<40x64xf32>) -> tensor<40x64xf32> {
    %r = mx.scaled_contraction
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                         affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b, %sa, %sb : tensor<40x256xf4E2M1FN>, tensor<64x256xf8E4M3FN>,
                              tensor<40x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
        outs(%c : tensor<40x64xf32>) -> tensor<40x64xf32>
    return %r : tensor<40x64xf32>
  }
}
