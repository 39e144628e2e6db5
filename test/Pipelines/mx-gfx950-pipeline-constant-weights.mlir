// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s

// Constant weights, a zero accumulator and a bf16 result: B and its scales
// are relaid out and packed at compile time (memref.global constants in the
// data-tiled layout), so the program is the relayout of A with its scales
// (one dispatch) and the GEMM, which starts from zero and writes bf16 into
// the user's result.
//   CHECK-DAG: memref.global "private" constant @[[B:__constant_2x1x2x2x4x16x16xi8[_0-9]*]] : memref<2x1x2x2x4x16x16xi8>
//   CHECK-DAG: memref.global "private" constant @[[SB:__constant_2x1x4x16x2x2xi8[_0-9]*]] : memref<2x1x4x16x2x2xi8>
// CHECK-LABEL: func.func @constant_weights_bf16
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<33x112xi8> {{.*}}, %[[SA:[^:]+]]: memref<33x7xi8>
//   CHECK-DAG:   %[[GB:.+]] = memref.get_global @[[B]]
//   CHECK-DAG:   %[[GSB:.+]] = memref.get_global @[[SB]]
//       CHECK:   gpu.launch_func @[[R:constant_weights_bf16_relayout0_[a-z]+]]::@[[R]] {{.*}} args(%[[A]] : memref<33x112xi8>, %[[TA:[^ ]+]] : memref<2x1x2x2x4x16x16xi8>, %[[SA]] : memref<33x7xi8>, %[[TSA:[^ ]+]] : memref<2x1x4x16x2x2xi8>)
//       CHECK:   gpu.launch_func @constant_weights_bf16_mma0::@constant_weights_bf16_mma0 {{.*}} args(%[[D:[^ ]+]] : memref<33x47xbf16>, %[[TA]] : {{.*}}, %[[GB]] : {{.*}}, %[[TSA]] : {{.*}}, %[[GSB]] : {{.*}})
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   return %[[D]] : memref<33x47xbf16>
func.func @constant_weights_bf16(%a: tensor<33x224xf4E2M1FN>, %sa: tensor<33x7xf8E8M0FNU>) -> tensor<33x47xbf16> {
  %b = arith.constant dense<1.5> : tensor<47x224xf4E2M1FN>
  %sb = arith.constant dense<2.0> : tensor<47x7xf8E8M0FNU>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %t = arith.truncf %r : tensor<33x47xf32> to tensor<33x47xbf16>
  return %t : tensor<33x47xbf16>
}
