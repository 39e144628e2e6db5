// RUN: mx-opt %s --split-input-file --mx-set-encodings | FileCheck %s
// RUN: mx-opt %s --split-input-file --mx-set-encodings="only-static=true" | FileCheck %s --check-prefix=STATIC

// CHECK-DAG: #[[MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[LHS:.+]] = #mx.encoding<role = lhs, element_types = [f8E4M3FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = [#[[MK]], #[[NK]], #[[MN]]], iteration_sizes = [64, 32, 256]>
// CHECK-DAG: #[[RHS:.+]] = #mx.encoding<role = rhs, {{.*}}, iteration_sizes = [64, 32, 256]>
// CHECK-DAG: #[[LHSS:.+]] = #mx.encoding<role = lhs_scales, {{.*}}, iteration_sizes = [64, 32, 256]>
// CHECK-DAG: #[[RHSS:.+]] = #mx.encoding<role = rhs_scales, {{.*}}, iteration_sizes = [64, 32, 256]>
// CHECK-DAG: #[[RES:.+]] = #mx.encoding<role = result, {{.*}}, iteration_sizes = [64, 32, 256]>
// CHECK-LABEL: func.func @static
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<64x256xf8E4M3FN>, %[[B:[^:]+]]: tensor<32x256xf4E2M1FN>, %[[SA:[^:]+]]: tensor<64x8xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<32x8xf8E8M0FNU>, %[[C:[^:]+]]: tensor<64x32xf32>)
//       CHECK:   %[[EA:.+]] = mx.set_encoding %[[A]] : tensor<64x256xf8E4M3FN> -> tensor<64x256xf8E4M3FN, #[[LHS]]>
//       CHECK:   %[[EB:.+]] = mx.set_encoding %[[B]] : tensor<32x256xf4E2M1FN> -> tensor<32x256xf4E2M1FN, #[[RHS]]>
//       CHECK:   %[[ESA:.+]] = mx.set_encoding %[[SA]] : tensor<64x8xf8E8M0FNU> -> tensor<64x8xf8E8M0FNU, #[[LHSS]]>
//       CHECK:   %[[ESB:.+]] = mx.set_encoding %[[SB]] : tensor<32x8xf8E8M0FNU> -> tensor<32x8xf8E8M0FNU, #[[RHSS]]>
//       CHECK:   %[[EC:.+]] = mx.set_encoding %[[C]] : tensor<64x32xf32> -> tensor<64x32xf32, #[[RES]]>
//       CHECK:   %[[R:.+]] = mx.scaled_contraction indexing_maps = [#[[MK]], #[[NK]], #[[MN]]] ins(%[[EA]], %[[EB]], %[[ESA]], %[[ESB]] : {{.*}}) outs(%[[EC]] : tensor<64x32xf32, #[[RES]]>) -> tensor<64x32xf32, #[[RES]]>
//       CHECK:   %[[U:.+]] = mx.unset_encoding %[[R]] : tensor<64x32xf32, #[[RES]]> -> tensor<64x32xf32>
//       CHECK:   return %[[U]]
// STATIC-LABEL: func.func @static
//       STATIC:   mx.set_encoding
func.func @static(%a: tensor<64x256xf8E4M3FN>, %b: tensor<32x256xf4E2M1FN>,
                  %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<32x8xf8E8M0FNU>,
                  %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf8E4M3FN>, tensor<32x256xf4E2M1FN>,
                            tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>)
      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

// Dynamic sizes are recorded as '?'; the result sizes come from the plain
// accumulator. only-static leaves the op alone.
// CHECK-DAG: #[[DRES:.+]] = #mx.encoding<role = result, {{.*}}, iteration_sizes = [?, 16, ?]>
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   %[[C:[^:]+]]: tensor<?x16xf32>)
//       CHECK:   %[[EC:.+]] = mx.set_encoding %[[C]]
//       CHECK:   %[[D:.+]] = tensor.dim %[[C]], %{{.+}} : tensor<?x16xf32>
//       CHECK:   %[[R:.+]] = mx.scaled_contraction
//       CHECK:   mx.unset_encoding %[[R]] dims(%[[D]]) : tensor<?x16xf32, #[[DRES]]> -> tensor<?x16xf32>
// STATIC-LABEL: func.func @dynamic
//   STATIC-NOT:   mx.set_encoding
//       STATIC:   mx.scaled_contraction
func.func @dynamic(%a: tensor<?x?xf4E2M1FN>, %b: tensor<16x?xf4E2M1FN>,
                   %sa: tensor<?x?xf8E8M0FNU>, %sb: tensor<16x?xf8E8M0FNU>,
                   %c: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x?xf4E2M1FN>, tensor<16x?xf4E2M1FN>,
                            tensor<?x?xf8E8M0FNU>, tensor<16x?xf8E8M0FNU>)
      outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// A per-op layout override travels in the encodings.
// CHECK-DAG: #[[L:.+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2>
// CHECK-DAG: #{{.+}} = #mx.encoding<role = lhs, {{.*}}, layout = #[[L]]>
// CHECK-LABEL: func.func @override
//   CHECK-NOT:   mx.layout
func.func @override(%a: tensor<64x64xf4E2M1FN>, %b: tensor<64x64xf4E2M1FN>,
                    %sa: tensor<64x2xf8E8M0FNU>, %sb: tensor<64x2xf8E8M0FNU>,
                    %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x64xf4E2M1FN>, tensor<64x64xf4E2M1FN>,
                            tensor<64x2xf8E8M0FNU>, tensor<64x2xf8E8M0FNU>)
      outs(%c : tensor<64x64xf32>)
      {mx.layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2>}
      -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
