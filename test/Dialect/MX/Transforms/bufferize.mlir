// RUN: mx-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --split-input-file | FileCheck %s

// mx.tiled_scaled_mma bufferizes in place: the accumulator buffer is updated
// and becomes the result.

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @in_place
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<4x2x4x16x32xf4E2M1FN>, %[[B:[^:]+]]: memref<3x2x4x16x32xf4E2M1FN>, %[[SA:[^:]+]]: memref<4x2x4x16xf8E8M0FNU>, %[[SB:[^:]+]]: memref<3x2x4x16xf8E8M0FNU>, %[[C:[^:]+]]: memref<4x3x4x16x4xf32>)
//       CHECK:   mx.tiled_scaled_mma ins(%[[A]], %[[B]], %[[SA]], %[[SB]] : {{.*}}) outs(%[[C]] : memref<4x3x4x16x4xf32>) layout = #{{.+}}{{$}}
//       CHECK:   return %[[C]]
func.func @in_place(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                    %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                    %c: tensor<4x3x4x16x4xf32>) -> tensor<4x3x4x16x4xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// -----

// The original accumulator is still needed afterwards: bufferization copies
// it and the op updates the copy.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @copy_when_acc_is_live
//  CHECK-SAME:   %[[C:[^:]+]]: memref<4x3x4x16x4xf32>)
//       CHECK:   %[[NEW:.+]] = memref.alloc() {{.*}}: memref<4x3x4x16x4xf32>
//       CHECK:   memref.copy %[[C]], %[[NEW]]
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[NEW]] : memref<4x3x4x16x4xf32>)
//       CHECK:   return %[[NEW]], %[[C]]
func.func @copy_when_acc_is_live(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                 %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                 %c: tensor<4x3x4x16x4xf32>) -> (tensor<4x3x4x16x4xf32>, tensor<4x3x4x16x4xf32>) {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return %r, %c : tensor<4x3x4x16x4xf32>, tensor<4x3x4x16x4xf32>
}
