// RUN: mx-opt %s --mx-lower-relayouts --canonicalize | FileCheck %s

// linalg.pack becomes pad + expand_shape + transpose, linalg.unpack becomes
// transpose + collapse_shape + extract_slice: forms that bufferize for the
// host.

// CHECK-LABEL: func.func @pack
//  CHECK-SAME:   (%[[A:.+]]: tensor<30x200xf4E2M1FN>)
//       CHECK:   %[[PAD:.+]] = tensor.pad %[[A]] low[0, 0] high[2, 56]
//       CHECK:   %[[X:.+]] = tensor.expand_shape %[[PAD]] {{\[}}[0, 1], [2, 3]] output_shape [2, 16, 2, 128] : tensor<32x256xf4E2M1FN> into tensor<2x16x2x128xf4E2M1FN>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<2x16x2x128xf4E2M1FN>) outs(%{{.+}} : tensor<2x2x16x128xf4E2M1FN>) permutation = [0, 2, 1, 3]
//       CHECK:   return %[[T]]
//   CHECK-NOT:   linalg.pack
func.func @pack(%a: tensor<30x200xf4E2M1FN>) -> tensor<2x2x16x128xf4E2M1FN> {
  %zero = arith.constant 0.0 : f4E2M1FN
  %e = tensor.empty() : tensor<2x2x16x128xf4E2M1FN>
  %p = linalg.pack %a padding_value(%zero : f4E2M1FN) inner_dims_pos = [0, 1] inner_tiles = [16, 128]
      into %e : tensor<30x200xf4E2M1FN> -> tensor<2x2x16x128xf4E2M1FN>
  return %p : tensor<2x2x16x128xf4E2M1FN>
}

// CHECK-LABEL: func.func @unpack
//  CHECK-SAME:   (%[[P:.+]]: tensor<2x2x16x16xf32>)
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[P]] : tensor<2x2x16x16xf32>) outs(%{{.+}} : tensor<2x16x2x16xf32>) permutation = [0, 2, 1, 3]
//       CHECK:   %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1], [2, 3]] : tensor<2x16x2x16xf32> into tensor<32x32xf32>
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[C]][0, 0] [30, 20] [1, 1] : tensor<32x32xf32> to tensor<30x20xf32>
//       CHECK:   %[[R:.+]] = linalg.copy ins(%[[S]] : tensor<30x20xf32>)
//       CHECK:   return %[[R]]
func.func @unpack(%p: tensor<2x2x16x16xf32>) -> tensor<30x20xf32> {
  %e = tensor.empty() : tensor<30x20xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %e
      : tensor<2x2x16x16xf32> -> tensor<30x20xf32>
  return %u : tensor<30x20xf32>
}
