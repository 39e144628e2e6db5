// RUN: mx-opt %s --split-input-file --mx-split-empty-tensors | FileCheck %s

// Two fills of one tensor.empty in one block: the second gets its own.
// CHECK-LABEL: func.func @two_fills
//       CHECK:   %[[E0:.+]] = tensor.empty() : tensor<16x64xf32>
//       CHECK:   %[[E1:.+]] = tensor.empty() : tensor<16x64xf32>
//       CHECK:   %[[A:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E0]] : tensor<16x64xf32>)
//       CHECK:   %[[B:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E1]] : tensor<16x64xf32>)
//       CHECK:   return %[[A]], %[[B]]
func.func @two_fills(%x: f32, %y: f32) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %e = tensor.empty() : tensor<16x64xf32>
  %a = linalg.fill ins(%x : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %b = linalg.fill ins(%y : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %a, %b : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// Dynamic sizes: the clone takes the same size operand.
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   (%[[N:.+]]: index
//       CHECK:   %[[E0:.+]] = tensor.empty(%[[N]]) : tensor<?xf32>
//       CHECK:   %[[E1:.+]] = tensor.empty(%[[N]]) : tensor<?xf32>
//       CHECK:   linalg.fill ins(%{{.+}} : f32) outs(%[[E0]] : tensor<?xf32>)
//       CHECK:   linalg.fill ins(%{{.+}} : f32) outs(%[[E1]] : tensor<?xf32>)
func.func @dynamic(%n: index, %x: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %b = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// Uses in the exclusive branches of a scf.if keep the one tensor.empty.
// CHECK-LABEL: func.func @branches
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<8xf32>
//   CHECK-NOT:   tensor.empty
//       CHECK:   scf.if
//       CHECK:     linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<8xf32>)
//       CHECK:   else
//       CHECK:     linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<8xf32>)
func.func @branches(%c: i1, %x: f32, %y: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.if %c -> tensor<8xf32> {
    %a = linalg.fill ins(%x : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    %b = linalg.fill ins(%y : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// One use: nothing to split.
// CHECK-LABEL: func.func @one_use
//       CHECK:   tensor.empty
//   CHECK-NOT:   tensor.empty
func.func @one_use(%x: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.fill ins(%x : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %a : tensor<8xf32>
}
