// RUN: mx-opt %s --mx-memref-copy-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @strided_copy
//  CHECK-SAME:   (%[[A:.+]]: memref<4x8xf32, strided<[16, 1]>>, %[[B:.+]]: memref<4x8xf32>)
//       CHECK:   linalg.copy ins(%[[A]] : memref<4x8xf32, strided<[16, 1]>>) outs(%[[B]] : memref<4x8xf32>)
//   CHECK-NOT:   memref.copy
func.func @strided_copy(%a: memref<4x8xf32, strided<[16, 1]>>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
  return
}
