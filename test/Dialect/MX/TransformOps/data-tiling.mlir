// RUN: mx-opt %s --transform-preload-library="transform-library-paths=%p/Inputs/data-tiling-schedule.mlir" --transform-interpreter > %t.transform
// RUN: mx-opt %s --mx-raise-scaled-matmul --mx-set-encodings --mx-materialize-encodings="target=#mx_test.resolver<16,16,64>" > %t.passes
// RUN: diff %t.passes %t.transform
// RUN: FileCheck %s < %t.transform

// transform.mx.raise_scaled_matmul, set_encodings and materialize_encodings
// call the functions the passes drive: the script gives the passes' IR
// exactly (diff), which is the upstream-form matmul raised and data-tiled
// for the made-up test target (mx_test, test/lib/TestTarget).

// CHECK-LABEL: func.func @scaled_matmul
//   CHECK-NOT:   linalg.generic
//   CHECK-NOT:   mx.set_encoding
//       CHECK:   linalg.pack
//       CHECK:   %[[MMA:.+]] = mx.tiled_scaled_mma {{.*}} layout = #mx_test.layout<16, 16, 64, f4E2M1FN, f4E2M1FN>
//       CHECK:   linalg.transpose ins(%[[MMA]]
//       CHECK:   %[[U:.+]] = linalg.unpack
//       CHECK:   return %[[U]]
//   CHECK-NOT:   mx.unset_encoding
#lhs_map = affine_map<(M, N, Ko, Kb) -> (M, Ko, Kb)>
#rhs_map = affine_map<(M, N, Ko, Kb) -> (N, Ko, Kb)>
#scale_m = affine_map<(M, N, Ko, Kb) -> (M, Ko)>
#scale_n = affine_map<(M, N, Ko, Kb) -> (N, Ko)>
#out_map = affine_map<(M, N, Ko, Kb) -> (M, N)>
func.func @scaled_matmul(
    %A: tensor<40x2x32xf4E2M1FN>, %B: tensor<24x2x32xf4E2M1FN>,
    %A_scales: tensor<40x2xf8E8M0FNU>, %B_scales: tensor<24x2xf8E8M0FNU>,
    %C: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %0 = linalg.generic {
    indexing_maps = [#lhs_map, #rhs_map, #scale_m, #scale_n, #out_map],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %A_scales, %B_scales : tensor<40x2x32xf4E2M1FN>, tensor<24x2x32xf4E2M1FN>, tensor<40x2xf8E8M0FNU>, tensor<24x2xf8E8M0FNU>) outs(%C : tensor<40x24xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %a_scale: f8E8M0FNU, %b_scale: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %a_scale : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %b_scale : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<40x24xf32>
  return %0 : tensor<40x24xf32>
}
