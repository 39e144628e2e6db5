// RUN: mx-opt %s -transform-interpreter -split-input-file -verify-diagnostics | FileCheck %s

// Tiling mx.scaled_contraction through its TilingInterface: data operands are
// sliced like the iteration space, scale operands with k divided by 32.

// CHECK-DAG: #[[DIV32:.+]] = affine_map<(d0) -> (d0 floordiv 32)>
// CHECK-LABEL: func.func @tile_nt
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<64x256xf4E2M1FN>, %[[B:[^:]+]]: tensor<32x256xf4E2M1FN>, %[[SA:[^:]+]]: tensor<64x8xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<32x8xf8E8M0FNU>, %[[C:[^:]+]]: tensor<64x32xf32>)
//       CHECK:   scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[CM:.+]] = %[[C]])
//       CHECK:     scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[CN:.+]] = %[[CM]])
//       CHECK:       scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[CK:.+]] = %[[CN]])
//       CHECK:         %[[A_T:.+]] = tensor.extract_slice %[[A]][%[[M]], %[[K]]] [16, 64] [1, 1]
//       CHECK:         %[[B_T:.+]] = tensor.extract_slice %[[B]][%[[N]], %[[K]]] [16, 64] [1, 1]
//       CHECK:         %[[KB:.+]] = affine.apply #[[DIV32]](%[[K]])
//       CHECK:         %[[SA_T:.+]] = tensor.extract_slice %[[SA]][%[[M]], %[[KB]]] [16, 2] [1, 1]
//       CHECK:         %[[KB2:.+]] = affine.apply #[[DIV32]](%[[K]])
//       CHECK:         %[[SB_T:.+]] = tensor.extract_slice %[[SB]][%[[N]], %[[KB2]]] [16, 2] [1, 1]
//       CHECK:         %[[C_T:.+]] = tensor.extract_slice %[[CK]][%[[M]], %[[N]]] [16, 16] [1, 1]
//       CHECK:         %[[R:.+]] = mx.scaled_contraction
//  CHECK-SAME:           ins(%[[A_T]], %[[B_T]], %[[SA_T]], %[[SB_T]] : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>, tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
//  CHECK-SAME:           outs(%[[C_T]] : tensor<16x16xf32>)
//       CHECK:         tensor.insert_slice %[[R]] into %[[CK]][%[[M]], %[[N]]] [16, 16] [1, 1]
func.func @tile_nt(%a: tensor<64x256xf4E2M1FN>, %b: tensor<32x256xf4E2M1FN>,
                   %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<32x8xf8E8M0FNU>,
                   %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<32x256xf4E2M1FN>,
                            tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>)
      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["mx.scaled_contraction"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:3 = transform.structured.tile_using_for %op tile_sizes [16, 16, 64]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A reduction tile that splits a 32-block is rejected with a diagnostic.
func.func @tile_k_unaligned(%a: tensor<16x128xf8E4M3FN>, %b: tensor<16x128xf8E4M3FN>,
                            %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<16x4xf8E8M0FNU>,
                            %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // The tiling driver adds its own errors after ours.
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{cannot tile the reduction dimension: the tile offset is only known to be a multiple of 48, it must be a multiple of 32 so that the scales stay aligned}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x128xf8E4M3FN>, tensor<16x128xf8E4M3FN>,
                            tensor<16x4xf8E8M0FNU>, tensor<16x4xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["mx.scaled_contraction"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loops = transform.structured.tile_using_for %op tile_sizes [0, 0, 48]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
