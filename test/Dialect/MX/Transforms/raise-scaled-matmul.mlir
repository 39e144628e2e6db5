// RUN: mx-opt %s --split-input-file --mx-raise-scaled-matmul --verify-diagnostics --mlir-print-local-scope | FileCheck %s
//
// The upstream form of an MX matmul: IREE's linalg.generic over an expanded K
// ([K/32, 32], the scale maps drop the 32) in the shapes of its gfx950
// scaled-matmul tests (NT, batched, dynamic batch, dynamic and size-1 blocks),
// the NN and TN variants, the flat-K form (scales at k floordiv 32), and ops
// that use arith.scaling_extf but are not raised (with a remark).

#lhs_map = affine_map<(M, N, Ko, Kb) -> (M, Ko, Kb)>
#rhs_map = affine_map<(M, N, Ko, Kb) -> (N, Ko, Kb)>
#scale_m = affine_map<(M, N, Ko, Kb) -> (M, Ko)>
#scale_n = affine_map<(M, N, Ko, Kb) -> (N, Ko)>
#out_map = affine_map<(M, N, Ko, Kb) -> (M, N)>
// CHECK-LABEL: func.func @scaled_matmul(
//  CHECK-SAME:     %[[A:.+]]: tensor<1024x512x32xf4E2M1FN>, %[[B:.+]]: tensor<1024x512x32xf4E2M1FN>, %[[BS:.+]]: tensor<1024x512xf8E8M0FNU>, %[[AS:.+]]: tensor<1024x512xf8E8M0FNU>, %[[C:.+]]: tensor<1024x1024xf32>)
//   CHECK-DAG:   %[[A2:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0], [1, 2]] : tensor<1024x512x32xf4E2M1FN> into tensor<1024x16384xf4E2M1FN>
//   CHECK-DAG:   %[[B2:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0], [1, 2]] : tensor<1024x512x32xf4E2M1FN> into tensor<1024x16384xf4E2M1FN>
//       CHECK:   %[[R:.+]] = mx.scaled_contraction indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[A2]], %[[B2]], %[[AS]], %[[BS]] :
//  CHECK-SAME:     outs(%[[C]] : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[R]]
func.func @scaled_matmul(
    %A: tensor<1024x512x32xf4E2M1FN>, %B: tensor<1024x512x32xf4E2M1FN>, %B_scales: tensor<1024x512xf8E8M0FNU>, %A_scales: tensor<1024x512xf8E8M0FNU>, %C: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  // expected-remark @below {{raised to mx.scaled_contraction (K expanded in blocks)}}
  %0 = linalg.generic {
    indexing_maps = [#lhs_map, #rhs_map, #scale_m, #scale_n, #out_map],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %A_scales, %B_scales : tensor<1024x512x32xf4E2M1FN>, tensor<1024x512x32xf4E2M1FN>, tensor<1024x512xf8E8M0FNU>, tensor<1024x512xf8E8M0FNU>) outs(%C : tensor<1024x1024xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %a_scale: f8E8M0FNU, %b_scale: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %a_scale : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %b_scale : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

#lhs_map = affine_map<(B, M, N, Ko, Kb) -> (B, M, Ko, Kb)>
#rhs_map = affine_map<(B, M, N, Ko, Kb) -> (B, N, Ko, Kb)>
#scale_m = affine_map<(B, M, N, Ko, Kb) -> (B, M, Ko)>
#scale_n = affine_map<(B, M, N, Ko, Kb) -> (B, N, Ko)>
#out_map = affine_map<(B, M, N, Ko, Kb) -> (B, M, N)>
// CHECK-LABEL: func.func @scaled_matmul_with_batch(
//   CHECK-DAG:   tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<4x1024x512x32xf4E2M1FN> into tensor<4x1024x16384xf4E2M1FN>
//       CHECK:   mx.scaled_contraction indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
//  CHECK-SAME:     -> tensor<4x1024x1024xf32>
func.func @scaled_matmul_with_batch(
    %A: tensor<4x1024x512x32xf4E2M1FN>, %B: tensor<4x1024x512x32xf4E2M1FN>, %A_scales: tensor<4x1024x512xf8E8M0FNU>, %B_scales: tensor<4x1024x512xf8E8M0FNU>, %C: tensor<4x1024x1024xf32>) -> tensor<4x1024x1024xf32> {
  // expected-remark @below {{raised to mx.scaled_contraction (K expanded in blocks)}}
  %0 = linalg.generic {
    indexing_maps = [#lhs_map, #rhs_map, #scale_m, #scale_n, #out_map],
    iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %A_scales, %B_scales : tensor<4x1024x512x32xf4E2M1FN>, tensor<4x1024x512x32xf4E2M1FN>, tensor<4x1024x512xf8E8M0FNU>, tensor<4x1024x512xf8E8M0FNU>) outs(%C : tensor<4x1024x1024xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %a_scale: f8E8M0FNU, %b_scale: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %a_scale : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %b_scale : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<4x1024x1024xf32>
  return %0 : tensor<4x1024x1024xf32>
}

// -----

// A batch of activations against one weight matrix: b is an M dimension.
#lhs_map = affine_map<(b, m, n, ko, kb) -> (b, m, ko, kb)>
#rhs_map = affine_map<(b, m, n, ko, kb) -> (n, ko, kb)>
#scale_lhs = affine_map<(b, m, n, ko, kb) -> (b, m, ko)>
#scale_rhs = affine_map<(b, m, n, ko, kb) -> (n, ko)>
#out_map = affine_map<(b, m, n, ko, kb) -> (b, m, n)>
// CHECK-LABEL: func.func @scaled_matmul_with_dynamic_batch(
//   CHECK-DAG:   tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<?x128x512x32xf4E2M1FN> into tensor<?x128x16384xf4E2M1FN>
//   CHECK-DAG:   tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : tensor<16384x512x32xf4E2M1FN> into tensor<16384x16384xf4E2M1FN>
//       CHECK:   mx.scaled_contraction indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
func.func @scaled_matmul_with_dynamic_batch(
    %A: tensor<?x128x512x32xf4E2M1FN>, %B: tensor<16384x512x32xf4E2M1FN>, %A_scales: tensor<?x128x512xf8E8M0FNU>, %B_scales: tensor<16384x512xf8E8M0FNU>, %C: tensor<?x128x16384xf32>) -> tensor<?x128x16384xf32> {
  // expected-remark @below {{raised to mx.scaled_contraction (K expanded in blocks)}}
  %0 = linalg.generic {
    indexing_maps = [#lhs_map, #rhs_map, #scale_lhs, #scale_rhs, #out_map],
    iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %A_scales, %B_scales : tensor<?x128x512x32xf4E2M1FN>, tensor<16384x512x32xf4E2M1FN>, tensor<?x128x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>) outs(%C : tensor<?x128x16384xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %a_scale: f8E8M0FNU, %b_scale: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %a_scale : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %b_scale : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<?x128x16384xf32>
  return %0 : tensor<?x128x16384xf32>
}

// -----

// NN: B is K x N, stored [K/32, 32, N]; fp8 x fp4; mulf and addf operands
// swapped.
// CHECK-LABEL: func.func @nn_fp8_fp4(
//  CHECK-SAME:     %[[A:.+]]: tensor<64x4x32xf8E4M3FN>, %[[B:.+]]: tensor<4x32x48xf4E2M1FN>, %[[AS:.+]]: tensor<64x4xf8E8M0FNU>, %[[BS:.+]]: tensor<4x48xf8E8M0FNU>
//   CHECK-DAG:   %[[A2:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0], [1, 2]] : tensor<64x4x32xf8E4M3FN> into tensor<64x128xf8E4M3FN>
//   CHECK-DAG:   %[[B2:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2]] : tensor<4x32x48xf4E2M1FN> into tensor<128x48xf4E2M1FN>
//       CHECK:   mx.scaled_contraction indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[A2]], %[[B2]], %[[AS]], %[[BS]] :
func.func @nn_fp8_fp4(%A: tensor<64x4x32xf8E4M3FN>, %B: tensor<4x32x48xf4E2M1FN>,
                      %As: tensor<64x4xf8E8M0FNU>, %Bs: tensor<4x48xf8E8M0FNU>,
                      %C: tensor<64x48xf32>) -> tensor<64x48xf32> {
  // expected-remark @below {{raised to mx.scaled_contraction (K expanded in blocks)}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (ko, kb, n)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (ko, n)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<64x4x32xf8E4M3FN>, tensor<4x32x48xf4E2M1FN>, tensor<64x4xf8E8M0FNU>, tensor<4x48xf8E8M0FNU>) outs(%C : tensor<64x48xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f8E4M3FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %2, %1 : f32
    %4 = arith.addf %3, %out : f32
    linalg.yield %4 : f32
  } -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}

// -----

// TN: A is K x M, stored [K/32, 32, M]; the reduction dimensions come first
// in the iteration space and the inputs are scales first.
// CHECK-LABEL: func.func @tn_fp6(
//  CHECK-SAME:     %[[AS:[^:]+]]: tensor<2x16xf8E8M0FNU>, %[[A:[^:]+]]: tensor<2x32x16xf6E2M3FN>, %[[BS:[^:]+]]: tensor<24x2xf8E8M0FNU>, %[[B:[^:]+]]: tensor<24x2x32xf6E3M2FN>
//   CHECK-DAG:   %[[A2:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<2x32x16xf6E2M3FN> into tensor<64x16xf6E2M3FN>
//   CHECK-DAG:   %[[B2:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0], [1, 2]] : tensor<24x2x32xf6E3M2FN> into tensor<24x64xf6E3M2FN>
//       CHECK:   mx.scaled_contraction indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>]
//  CHECK-SAME:     ins(%[[A2]], %[[B2]], %[[AS]], %[[BS]] :
func.func @tn_fp6(%As: tensor<2x16xf8E8M0FNU>, %A: tensor<2x32x16xf6E2M3FN>,
                  %Bs: tensor<24x2xf8E8M0FNU>, %B: tensor<24x2x32xf6E3M2FN>,
                  %C: tensor<16x24xf32>) -> tensor<16x24xf32> {
  // expected-remark @below {{raised to mx.scaled_contraction (K expanded in blocks)}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(ko, kb, m, n) -> (ko, m)>,
                     affine_map<(ko, kb, m, n) -> (ko, kb, m)>,
                     affine_map<(ko, kb, m, n) -> (n, ko)>,
                     affine_map<(ko, kb, m, n) -> (n, ko, kb)>,
                     affine_map<(ko, kb, m, n) -> (m, n)>],
    iterator_types = ["reduction", "reduction", "parallel", "parallel"]
  } ins(%As, %A, %Bs, %B : tensor<2x16xf8E8M0FNU>, tensor<2x32x16xf6E2M3FN>, tensor<24x2xf8E8M0FNU>, tensor<24x2x32xf6E3M2FN>) outs(%C : tensor<16x24xf32>) {
  ^bb0(%sa: f8E8M0FNU, %a: f6E2M3FN, %sb: f8E8M0FNU, %b: f6E3M2FN, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f6E2M3FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f6E3M2FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<16x24xf32>
  return %0 : tensor<16x24xf32>
}

// -----

// Flat K: the scales are indexed with k floordiv 32; nothing is reshaped.
// CHECK-LABEL: func.func @flat_k(
//  CHECK-SAME:     %[[A:.+]]: tensor<64x256xf4E2M1FN>, %[[B:.+]]: tensor<32x256xf4E2M1FN>, %[[AS:.+]]: tensor<64x8xf8E8M0FNU>, %[[BS:.+]]: tensor<32x8xf8E8M0FNU>, %[[C:.+]]: tensor<64x32xf32>
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   mx.scaled_contraction indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
//  CHECK-SAME:     ins(%[[A]], %[[B]], %[[AS]], %[[BS]] :
func.func @flat_k(%A: tensor<64x256xf4E2M1FN>, %B: tensor<32x256xf4E2M1FN>,
                  %As: tensor<64x8xf8E8M0FNU>, %Bs: tensor<32x8xf8E8M0FNU>,
                  %C: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{raised to mx.scaled_contraction (flat K)}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                     affine_map<(m, n, k) -> (n, k)>,
                     affine_map<(m, n, k) -> (m, k floordiv 32)>,
                     affine_map<(m, n, k) -> (n, k floordiv 32)>,
                     affine_map<(m, n, k) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<64x256xf4E2M1FN>, tensor<32x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>) outs(%C : tensor<64x32xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Not candidates: no arith.scaling_extf, no remark.
// CHECK-LABEL: func.func @plain_matmul(
//       CHECK:   linalg.generic
func.func @plain_matmul(%A: tensor<4x8xf32>, %B: tensor<8x4xf32>, %C: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction"]
  } ins(%A, %B : tensor<4x8xf32>, tensor<8x4xf32>) outs(%C : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %1 = arith.mulf %a, %b : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// IREE's scaled_matmul_with_dynamic_red_dim: the block size is not known.
#lhs_map = affine_map<(M, N, Ko, Kb) -> (M, Ko, Kb)>
#rhs_map = affine_map<(M, N, Ko, Kb) -> (N, Ko, Kb)>
#scale_m = affine_map<(M, N, Ko, Kb) -> (M, Ko)>
#scale_n = affine_map<(M, N, Ko, Kb) -> (N, Ko)>
#out_map = affine_map<(M, N, Ko, Kb) -> (M, N)>
// CHECK-LABEL: func.func @scaled_matmul_with_dynamic_red_dim(
//       CHECK:   linalg.generic
//   CHECK-NOT:   mx.scaled_contraction
func.func @scaled_matmul_with_dynamic_red_dim(
    %A: tensor<1024x?x?xf4E2M1FN>, %B: tensor<1024x?x?xf4E2M1FN>, %A_scales: tensor<1024x?xf8E8M0FNU>, %B_scales: tensor<1024x?xf8E8M0FNU>, %C: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  // expected-remark @below {{not raised to mx.scaled_contraction: the element-in-block dimension of input 0 has size ?, expected 32}}
  %0 = linalg.generic {
    indexing_maps = [#lhs_map, #rhs_map, #scale_m, #scale_n, #out_map],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %A_scales, %B_scales : tensor<1024x?x?xf4E2M1FN>, tensor<1024x?x?xf4E2M1FN>, tensor<1024x?xf8E8M0FNU>, tensor<1024x?xf8E8M0FNU>) outs(%C : tensor<1024x1024xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %a_scale: f8E8M0FNU, %b_scale: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %a_scale : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %b_scale : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// IREE's small_scaled_matmul: blocks of one element are not MX.
#lhs_map = affine_map<(M, N, Ko, Kb) -> (M, Ko, Kb)>
#rhs_map = affine_map<(M, N, Ko, Kb) -> (N, Ko, Kb)>
#scale_m = affine_map<(M, N, Ko, Kb) -> (M, Ko)>
#scale_n = affine_map<(M, N, Ko, Kb) -> (N, Ko)>
#out_map = affine_map<(M, N, Ko, Kb) -> (M, N)>
func.func @small_scaled_matmul(
    %A: tensor<2x1x1xf4E2M1FN>, %B: tensor<2x1x1xf4E2M1FN>, %A_scales: tensor<2x1xf8E8M0FNU>, %B_scales: tensor<2x1xf8E8M0FNU>, %C: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-remark @below {{the element-in-block dimension of input 0 has size 1, expected 32}}
  %0 = linalg.generic {
    indexing_maps = [#lhs_map, #rhs_map, #scale_m, #scale_n, #out_map],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %A_scales, %B_scales : tensor<2x1x1xf4E2M1FN>, tensor<2x1x1xf4E2M1FN>, tensor<2x1xf8E8M0FNU>, tensor<2x1xf8E8M0FNU>) outs(%C : tensor<2x2xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %a_scale: f8E8M0FNU, %b_scale: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %a_scale : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %b_scale : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// The element in the block comes before the block index: the 32 elements of
// a block are not contiguous along K.
func.func @block_before_index(%A: tensor<64x32x4xf4E2M1FN>, %B: tensor<32x4x32xf4E2M1FN>,
                              %As: tensor<64x4xf8E8M0FNU>, %Bs: tensor<32x4xf8E8M0FNU>,
                              %C: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{in the map of input 0, the element-in-block dimension d3 must directly follow the block dimension d2}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, kb, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<64x32x4xf4E2M1FN>, tensor<32x4x32xf4E2M1FN>, tensor<64x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>) outs(%C : tensor<64x32xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Scales transposed with respect to their data.
func.func @transposed_scales(%A: tensor<64x4x32xf4E2M1FN>, %B: tensor<32x4x32xf4E2M1FN>,
                             %As: tensor<4x64xf8E8M0FNU>, %Bs: tensor<32x4xf8E8M0FNU>,
                             %C: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{the map of the scales (input 2) must be the map of input 0 without the element-in-block dimension d3}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (ko, m)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<64x4x32xf4E2M1FN>, tensor<32x4x32xf4E2M1FN>, tensor<4x64xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>) outs(%C : tensor<64x32xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Flat K with a block size of 16.
func.func @flat_k_block16(%A: tensor<64x256xf4E2M1FN>, %B: tensor<32x256xf4E2M1FN>,
                          %As: tensor<64x16xf8E8M0FNU>, %Bs: tensor<32x16xf8E8M0FNU>,
                          %C: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{the map of the scales (input 2) must be the map of input 0 with d2 replaced by d2 floordiv 32}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                     affine_map<(m, n, k) -> (n, k)>,
                     affine_map<(m, n, k) -> (m, k floordiv 16)>,
                     affine_map<(m, n, k) -> (n, k floordiv 16)>,
                     affine_map<(m, n, k) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<64x256xf4E2M1FN>, tensor<32x256xf4E2M1FN>, tensor<64x16xf8E8M0FNU>, tensor<32x16xf8E8M0FNU>) outs(%C : tensor<64x32xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Extension to bf16: the products and sums would be rounded to bf16.
func.func @bf16_products(%A: tensor<64x4x32xf4E2M1FN>, %B: tensor<32x4x32xf4E2M1FN>,
                         %As: tensor<64x4xf8E8M0FNU>, %Bs: tensor<32x4xf8E8M0FNU>,
                         %C: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{the body is not `out + scaling_extf(a, sa) * scaling_extf(b, sb)` in f32 over the four inputs}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<64x4x32xf4E2M1FN>, tensor<32x4x32xf4E2M1FN>, tensor<64x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>) outs(%C : tensor<64x32xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to bf16
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to bf16
    %3 = arith.mulf %1, %2 : bf16
    %4 = arith.extf %3 : bf16 to f32
    %5 = arith.addf %out, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// A dequantization (one operand, elementwise) uses arith.scaling_extf too.
func.func @dequantize(%A: tensor<64x4x32xf4E2M1FN>, %As: tensor<64x4xf8E8M0FNU>,
                      %D: tensor<64x4x32xf32>) -> tensor<64x4x32xf32> {
  // expected-remark @below {{expected four inputs (two data operands and their scales) and one init}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, ko, kb) -> (m, ko)>,
                     affine_map<(m, ko, kb) -> (m, ko, kb)>],
    iterator_types = ["parallel", "parallel", "parallel"]
  } ins(%A, %As : tensor<64x4x32xf4E2M1FN>, tensor<64x4xf8E8M0FNU>) outs(%D : tensor<64x4x32xf32>) {
  ^bb0(%a: f4E2M1FN, %sa: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %1 : f32
  } -> tensor<64x4x32xf32>
  return %0 : tensor<64x4x32xf32>
}

// -----

// bf16 elements (scaling_extf accepts any float) are not an MX type.
func.func @bf16_elements(%A: tensor<64x4x32xbf16>, %B: tensor<32x4x32xf4E2M1FN>,
                         %As: tensor<64x4xf8E8M0FNU>, %Bs: tensor<32x4xf8E8M0FNU>,
                         %C: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{input 0 is not of an MX element type}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<64x4x32xbf16>, tensor<32x4x32xf4E2M1FN>, tensor<64x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>) outs(%C : tensor<64x32xf32>) {
  ^bb0(%a: bf16, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : bf16, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// A parallel dimension used by the lhs only is not a contraction.
func.func @lhs_only_parallel(%A: tensor<2x64x4x32xf4E2M1FN>, %B: tensor<32x4x32xf4E2M1FN>,
                             %As: tensor<2x64x4xf8E8M0FNU>, %Bs: tensor<32x4xf8E8M0FNU>,
                             %C: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-remark @below {{the init map must use exactly the parallel dimensions}}
  %0 = linalg.generic {
    indexing_maps = [affine_map<(x, m, n, ko, kb) -> (x, m, ko, kb)>,
                     affine_map<(x, m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(x, m, n, ko, kb) -> (x, m, ko)>,
                     affine_map<(x, m, n, ko, kb) -> (n, ko)>,
                     affine_map<(x, m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<2x64x4x32xf4E2M1FN>, tensor<32x4x32xf4E2M1FN>, tensor<2x64x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>) outs(%C : tensor<64x32xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Buffers are not raised.
func.func @buffers(%A: memref<64x4x32xf4E2M1FN>, %B: memref<32x4x32xf4E2M1FN>,
                   %As: memref<64x4xf8E8M0FNU>, %Bs: memref<32x4xf8E8M0FNU>,
                   %C: memref<64x32xf32>) {
  // expected-remark @below {{only linalg.generic on tensors is raised}}
  linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : memref<64x4x32xf4E2M1FN>, memref<32x4x32xf4E2M1FN>, memref<64x4xf8E8M0FNU>, memref<32x4xf8E8M0FNU>) outs(%C : memref<64x32xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  }
  return
}
