// RUN: mx-opt %s -split-input-file --mx-hoist-argument-relayouts | FileCheck %s

// A weight's relayout (pack, expand_shape, transpose) moves into
// @gemm_prepack_1, which takes the logical weight and returns the tiled one;
// @gemm takes the tiled weight. The padding value and the destinations are
// cloned; the argument that is not marked keeps its relayout.

// CHECK-LABEL: func.func @gemm
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<32x256xf4E2M1FN>, %[[W:[^:]+]]: tensor<2x2x4x16x32xf4E2M1FN> {mx.prepacked_by = @gemm_prepack_1})
//  CHECK-SAME:   -> (tensor<2x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>)
//   CHECK-NOT:   linalg.pack %[[W]]
//       CHECK:   %[[AP:.+]] = linalg.pack %[[A]]
//       CHECK:   %[[AX:.+]] = tensor.expand_shape %[[AP]]
//       CHECK:   %[[AT:.+]] = linalg.transpose ins(%[[AX]]
//       CHECK:   return %[[AT]], %[[W]]
// CHECK-LABEL: func.func @gemm_prepack_1
//  CHECK-SAME:   (%[[LW:[^:]+]]: tensor<32x256xf4E2M1FN>) -> tensor<2x2x4x16x32xf4E2M1FN>
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f4E2M1FN
//   CHECK-DAG:   %[[E0:.+]] = tensor.empty() : tensor<2x2x16x128xf4E2M1FN>
//   CHECK-DAG:   %[[E1:.+]] = tensor.empty() : tensor<2x2x4x16x32xf4E2M1FN>
//       CHECK:   %[[P:.+]] = linalg.pack %[[LW]] padding_value(%[[ZERO]] : f4E2M1FN) {{.*}} into %[[E0]]
//       CHECK:   %[[X:.+]] = tensor.expand_shape %[[P]] {{\[}}[0], [1], [2], [3, 4]] output_shape [2, 2, 16, 4, 32]
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<2x2x16x4x32xf4E2M1FN>) outs(%[[E1]] : tensor<2x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
//       CHECK:   return %[[T]] : tensor<2x2x4x16x32xf4E2M1FN>
func.func @gemm(%a: tensor<32x256xf4E2M1FN>,
                %w: tensor<32x256xf4E2M1FN> {mx.prepack})
    -> (tensor<2x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>) {
  %zero = arith.constant 0.0 : f4E2M1FN
  %e0 = tensor.empty() : tensor<2x2x16x128xf4E2M1FN>
  %e1 = tensor.empty() : tensor<2x2x4x16x32xf4E2M1FN>
  %ap = linalg.pack %a padding_value(%zero : f4E2M1FN) outer_dims_perm = [0, 1]
      inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %e0
      : tensor<32x256xf4E2M1FN> -> tensor<2x2x16x128xf4E2M1FN>
  %ax = tensor.expand_shape %ap [[0], [1], [2], [3, 4]] output_shape [2, 2, 16, 4, 32]
      : tensor<2x2x16x128xf4E2M1FN> into tensor<2x2x16x4x32xf4E2M1FN>
  %at = linalg.transpose ins(%ax : tensor<2x2x16x4x32xf4E2M1FN>)
      outs(%e1 : tensor<2x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
  %wp = linalg.pack %w padding_value(%zero : f4E2M1FN) outer_dims_perm = [0, 1]
      inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %e0
      : tensor<32x256xf4E2M1FN> -> tensor<2x2x16x128xf4E2M1FN>
  %wx = tensor.expand_shape %wp [[0], [1], [2], [3, 4]] output_shape [2, 2, 16, 4, 32]
      : tensor<2x2x16x128xf4E2M1FN> into tensor<2x2x16x4x32xf4E2M1FN>
  %wt = linalg.transpose ins(%wx : tensor<2x2x16x4x32xf4E2M1FN>)
      outs(%e1 : tensor<2x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
  return %at, %wt : tensor<2x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>
}

// -----

// The experts' weights and their scales of a routed GEMM, after
// mx-set-encodings and mx-materialize-encodings (the layout of
// test/Integration/CPU/routed-scaled-contraction.mlir's @routed_fp4): the
// experts stay a leading dimension of the packed weights; each argument gets
// its own packing function, and mx.tiled_scaled_mma reads the arguments.

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @experts
//  CHECK-SAME:   %[[W:[^:]+]]: tensor<4x2x1x2x4x16x32xf4E2M1FN> {mx.prepacked_by = @experts_prepack_1}
//  CHECK-SAME:   %[[SW:[^:]+]]: tensor<4x2x1x4x16x2xf8E8M0FNU> {mx.prepacked_by = @experts_prepack_3}
//   CHECK-NOT:   linalg.pack %[[W]]
//       CHECK:   mx.tiled_scaled_mma ins(%{{.+}}, %[[W]], %{{.+}}, %[[SW]] :
// CHECK-LABEL: func.func @experts_prepack_1
//  CHECK-SAME:   (%[[LW:[^:]+]]: tensor<4x24x128xf4E2M1FN>) -> tensor<4x2x1x2x4x16x32xf4E2M1FN>
//       CHECK:   %[[P:.+]] = linalg.pack %[[LW]] {{.*}} inner_tiles = [16, 256]
//       CHECK:   %[[X:.+]] = tensor.expand_shape %[[P]]
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[X]] {{.*}} permutation = [0, 1, 2, 4, 5, 3, 6]
//       CHECK:   return %[[T]]
// CHECK-LABEL: func.func @experts_prepack_3
//  CHECK-SAME:   (%[[LSW:[^:]+]]: tensor<4x24x4xf8E8M0FNU>) -> tensor<4x2x1x4x16x2xf8E8M0FNU>
//       CHECK:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f8E8M0FNU
//       CHECK:   linalg.pack %[[LSW]] padding_value(%[[ONE]] : f8E8M0FNU) outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 8]
func.func @experts(%a: tensor<4x1x2x4x16x32xf4E2M1FN>,
                   %w: tensor<4x24x128xf4E2M1FN> {mx.prepack},
                   %sa: tensor<4x1x4x16x2xf8E8M0FNU>,
                   %sw: tensor<4x24x4xf8E8M0FNU> {mx.prepack},
                   %groups: tensor<4x3xi32>, %ids: tensor<64xi32>,
                   %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %8 = tensor.empty() : tensor<4x2x1x16x256xf4E2M1FN>
  %cst_6 = arith.constant 0.000000e+00 : f4E2M1FN
  %pack_7 = linalg.pack %w padding_value(%cst_6 : f4E2M1FN) outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 256] into %8 : tensor<4x24x128xf4E2M1FN> -> tensor<4x2x1x16x256xf4E2M1FN>
  %expanded_8 = tensor.expand_shape %pack_7 [[0], [1], [2], [3], [4, 5, 6]] output_shape [4, 2, 1, 16, 2, 4, 32] : tensor<4x2x1x16x256xf4E2M1FN> into tensor<4x2x1x16x2x4x32xf4E2M1FN>
  %9 = tensor.empty() : tensor<4x2x1x2x4x16x32xf4E2M1FN>
  %transposed_9 = linalg.transpose ins(%expanded_8 : tensor<4x2x1x16x2x4x32xf4E2M1FN>) outs(%9 : tensor<4x2x1x2x4x16x32xf4E2M1FN>) permutation = [0, 1, 2, 4, 5, 3, 6]
  %10 = tensor.empty() : tensor<4x2x1x16x8xf8E8M0FNU>
  %cst_10 = arith.constant 1.000000e+00 : f8E8M0FNU
  %pack_11 = linalg.pack %sw padding_value(%cst_10 : f8E8M0FNU) outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 8] into %10 : tensor<4x24x4xf8E8M0FNU> -> tensor<4x2x1x16x8xf8E8M0FNU>
  %expanded_12 = tensor.expand_shape %pack_11 [[0], [1], [2], [3], [4, 5]] output_shape [4, 2, 1, 16, 2, 4] : tensor<4x2x1x16x8xf8E8M0FNU> into tensor<4x2x1x16x2x4xf8E8M0FNU>
  %11 = tensor.empty() : tensor<4x2x1x4x16x2xf8E8M0FNU>
  %transposed_13 = linalg.transpose ins(%expanded_12 : tensor<4x2x1x16x2x4xf8E8M0FNU>) outs(%11 : tensor<4x2x1x4x16x2xf8E8M0FNU>) permutation = [0, 1, 2, 5, 3, 4]
  %12 = mx.tiled_scaled_mma ins(%a, %transposed_9, %sa, %transposed_13 : tensor<4x1x2x4x16x32xf4E2M1FN>, tensor<4x2x1x2x4x16x32xf4E2M1FN>, tensor<4x1x4x16x2xf8E8M0FNU>, tensor<4x2x1x4x16x2xf8E8M0FNU>) tile_groups(%groups : tensor<4x3xi32>) row_ids(%ids : tensor<64xi32>) outs(%acc : tensor<20x24xf32>) layout = #l -> tensor<20x24xf32>
  return %12 : tensor<20x24xf32>
}

// -----

// A function without mx.prepack arguments is left alone.

// CHECK-LABEL: func.func @unmarked
//  CHECK-SAME:   (%[[W:[^:]+]]: tensor<32x256xf4E2M1FN>)
//       CHECK:   tensor.expand_shape %[[W]]
//   CHECK-NOT:   func.func @unmarked_prepack
func.func @unmarked(%w: tensor<32x256xf4E2M1FN>) -> tensor<32x8x32xf4E2M1FN> {
  %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 8, 32]
      : tensor<32x256xf4E2M1FN> into tensor<32x8x32xf4E2M1FN>
  return %x : tensor<32x8x32xf4E2M1FN>
}

// -----

// The name is taken: the packing function gets a suffix, and the argument
// names it.

// CHECK-LABEL: func.func @taken
//  CHECK-SAME:   {mx.prepacked_by = @[[NAME:taken_prepack_0_[0-9]+]]}
//       CHECK: func.func @[[NAME]](
//       CHECK: func.func @taken_prepack_0(
func.func @taken(%w: tensor<32x256xf4E2M1FN> {mx.prepack}) -> tensor<32x8x32xf4E2M1FN> {
  %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 8, 32]
      : tensor<32x256xf4E2M1FN> into tensor<32x8x32xf4E2M1FN>
  return %x : tensor<32x8x32xf4E2M1FN>
}
func.func @taken_prepack_0() {
  return
}
