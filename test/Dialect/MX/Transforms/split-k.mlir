// RUN: mx-opt %s -split-input-file --mx-split-k="target=#mx_gfx950.target<split_k=2>" | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-split-k="target=#mx_gfx950.target<split_k=1>" | FileCheck %s --check-prefix=NONE
// The heuristic: 4 output tiles for 256 CUs, but 2 K tiles cannot be split
// into parts of at least 2.
// RUN: mx-opt %s -split-input-file --mx-split-k="target=#mx_gfx950.target" | FileCheck %s --check-prefix=NONE

// A 16 x 64 GEMM over 2 K tiles of 512 (fp4, one 16x16x128 intrinsic per
// tile, 4 along K) in 2 parts: the operands' K tiles become a leading batch
// dimension, the GEMM sums each part from zero into a [2, 16, 64] workspace,
// and a generic adds the parts to C in K order.

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @acc
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<1x2x4x4x16x32xf4E2M1FN>, %[[B:[^:]+]]: tensor<4x2x4x4x16x32xf4E2M1FN>, %[[SA:[^:]+]]: tensor<1x2x4x16x4xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<4x2x4x16x4xf8E8M0FNU>, %[[C:[^:]+]]: tensor<16x64xf32>)
//       CHECK:   %[[AX:.+]] = tensor.expand_shape %[[A]] {{\[}}[0], [1, 2], [3], [4], [5], [6]] output_shape [1, 2, 1, 4, 4, 16, 32]
//       CHECK:   %[[AT:.+]] = linalg.transpose ins(%[[AX]] : tensor<1x2x1x4x4x16x32xf4E2M1FN>) outs(%{{.+}} : tensor<2x1x1x4x4x16x32xf4E2M1FN>) permutation = [1, 0, 2, 3, 4, 5, 6]
//       CHECK:   %[[BX:.+]] = tensor.expand_shape %[[B]] {{\[}}[0], [1, 2], [3], [4], [5], [6]] output_shape [4, 2, 1, 4, 4, 16, 32]
//       CHECK:   %[[BT:.+]] = linalg.transpose ins(%[[BX]] : {{.+}}) outs(%{{.+}} : tensor<2x4x1x4x4x16x32xf4E2M1FN>) permutation = [1, 0, 2, 3, 4, 5, 6]
//       CHECK:   %[[SAX:.+]] = tensor.expand_shape %[[SA]] {{\[}}[0], [1, 2], [3], [4], [5]] output_shape [1, 2, 1, 4, 16, 4]
//       CHECK:   %[[SAT:.+]] = linalg.transpose ins(%[[SAX]] : {{.+}}) outs(%{{.+}} : tensor<2x1x1x4x16x4xf8E8M0FNU>) permutation = [1, 0, 2, 3, 4, 5]
//       CHECK:   %[[SBX:.+]] = tensor.expand_shape %[[SB]]
//       CHECK:   %[[SBT:.+]] = linalg.transpose ins(%[[SBX]] : {{.+}}) outs(%{{.+}} : tensor<2x4x1x4x16x4xf8E8M0FNU>) permutation = [1, 0, 2, 3, 4, 5]
//       CHECK:   %[[W:.+]] = tensor.empty() : tensor<2x16x64xf32>
//       CHECK:   %[[P:.+]] = mx.tiled_scaled_mma ins(%[[AT]], %[[BT]], %[[SAT]], %[[SBT]] : {{.+}}) outs(%[[W]] : tensor<2x16x64xf32>) layout = #{{.+}} zero_acc {mx.split_k = 2 : i64} -> tensor<2x16x64xf32>
//       CHECK:   %[[P0:.+]] = tensor.extract_slice %[[P]][0, 0, 0] [1, 16, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<16x64xf32>
//       CHECK:   %[[P1:.+]] = tensor.extract_slice %[[P]][1, 0, 0] [1, 16, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<16x64xf32>
//       CHECK:   %[[R:.+]] = linalg.generic {{.+}} ins(%[[C]], %[[P0]], %[[P1]] : {{.+}}) outs(%[[C]] : tensor<16x64xf32>)
//  CHECK-NEXT:   ^bb0(%[[XC:.+]]: f32, %[[X0:.+]]: f32, %[[X1:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[S0:.+]] = arith.addf %[[XC]], %[[X0]] : f32
//  CHECK-NEXT:     %[[S1:.+]] = arith.addf %[[S0]], %[[X1]] : f32
//  CHECK-NEXT:     linalg.yield %[[S1]] : f32
//       CHECK:   return %[[R]]
// NONE-LABEL: func.func @acc
//   NONE-NOT:   mx.split_k
//       NONE:   mx.tiled_scaled_mma {{.+}} outs(%{{.+}} : tensor<16x64xf32>)
func.func @acc(%a: tensor<1x2x4x4x16x32xf4E2M1FN>, %b: tensor<4x2x4x4x16x32xf4E2M1FN>,
               %sa: tensor<1x2x4x16x4xf8E8M0FNU>, %sb: tensor<4x2x4x16x4xf8E8M0FNU>,
               %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<1x2x4x4x16x32xf4E2M1FN>, tensor<4x2x4x4x16x32xf4E2M1FN>, tensor<1x2x4x16x4xf8E8M0FNU>, tensor<4x2x4x16x4xf8E8M0FNU>)
      outs(%c : tensor<16x64xf32>) layout = #l -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// From zero, batched and with a dynamic M (the workspace takes acc's sizes):
// the parts are added without C, and the batch dimension follows the parts.

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @zero_batched_dynamic
//       CHECK:   %[[M:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<3x?x64xf32>
//       CHECK:   %[[W:.+]] = tensor.empty(%[[M]]) : tensor<2x3x?x64xf32>
//       CHECK:   %[[P:.+]] = mx.tiled_scaled_mma ins({{.+}} : tensor<2x3x?x1x4x4x16x32xf4E2M1FN>, tensor<2x3x4x1x4x4x16x32xf4E2M1FN>, {{.+}}) outs(%[[W]] : tensor<2x3x?x64xf32>) layout = #{{.+}} zero_acc {mx.split_k = 2 : i64}
//       CHECK:   %[[P0:.+]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 3, %[[M]], 64] [1, 1, 1, 1]
//       CHECK:   %[[P1:.+]] = tensor.extract_slice %[[P]][1, 0, 0, 0] [1, 3, %[[M]], 64] [1, 1, 1, 1]
//       CHECK:   linalg.generic {{.+}} ins(%[[P0]], %[[P1]] : tensor<3x?x64xf32>, tensor<3x?x64xf32>)
//  CHECK-NEXT:   ^bb0(%[[X0:.+]]: f32, %[[X1:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:     %[[S:.+]] = arith.addf %[[X0]], %[[X1]] : f32
//  CHECK-NEXT:     linalg.yield %[[S]] : f32
func.func @zero_batched_dynamic(%a: tensor<3x?x2x4x4x16x32xf4E2M1FN>, %b: tensor<3x4x2x4x4x16x32xf4E2M1FN>,
               %sa: tensor<3x?x2x4x16x4xf8E8M0FNU>, %sb: tensor<3x4x2x4x16x4xf8E8M0FNU>,
               %c: tensor<3x?x64xf32>) -> tensor<3x?x64xf32> {
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<3x?x2x4x4x16x32xf4E2M1FN>, tensor<3x4x2x4x4x16x32xf4E2M1FN>, tensor<3x?x2x4x16x4xf8E8M0FNU>, tensor<3x4x2x4x16x4xf8E8M0FNU>)
      outs(%c : tensor<3x?x64xf32>) layout = #l zero_acc -> tensor<3x?x64xf32>
  return %r : tensor<3x?x64xf32>
}
