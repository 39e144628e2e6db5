// RUN: mx-opt %s --split-input-file --mx-set-encodings \
// RUN:   --mx-materialize-encodings="target=#mx_gfx950.target<intrinsics_m=1,intrinsics_n=1,intrinsics_k=1,subgroups_m=1,subgroups_n=1>" \
// RUN:   --cse -verify-diagnostics | FileCheck %s

// mx.routed_scaled_contraction (sorted-token-ids form) -> one
// mx.tiled_scaled_mma for every block: 64 sorted positions in 4 blocks of
// 16, 16-row tiles, so tile mo lies in block mo. The expert ids are the
// tile table (its block experts form: the kernel looks up each tile's
// expert, no rows when it is outside [0, E)); the tokens of the sorted rows
// (id / top_k) are gathered in sorted order; the sorted ids are the tiles'
// rows of the accumulator.

// CHECK-LABEL: func.func @routed
//  CHECK-SAME:     (%[[A:[^:]+]]: tensor<10x128xf4E2M1FN>, %[[W:[^:]+]]: tensor<4x24x128xf4E2M1FN>, %[[SA:[^:]+]]: tensor<10x4xf8E8M0FNU>, %[[SW:[^:]+]]: tensor<4x24x4xf8E8M0FNU>, %[[IDS:[^:]+]]: tensor<64xi32>, %[[EXPERTS:[^:]+]]: tensor<4xi32>, %[[ACC:[^:]+]]: tensor<20x24xf32>)
//   CHECK-NOT:   linalg.generic
//       CHECK:   %[[GA:.+]] = mx.gather_rows %[[A]][%[[IDS]]] divisor = 2 : tensor<10x128xf4E2M1FN>, tensor<64xi32> -> tensor<64x128xf4E2M1FN>
//       CHECK:   %[[GSA:.+]] = mx.gather_rows %[[SA]][%[[IDS]]] divisor = 2 : tensor<10x4xf8E8M0FNU>, tensor<64xi32> -> tensor<64x4xf8E8M0FNU>
//       CHECK:   linalg.pack %[[GA]] {{.*}} -> tensor<4x1x16x128xf4E2M1FN>
//       CHECK:   linalg.pack %[[GSA]]
//       CHECK:   linalg.pack %[[W]] {{.*}} -> tensor<4x2x1x16x128xf4E2M1FN>
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} tile_groups(%[[EXPERTS]] : tensor<4xi32>) row_ids(%[[IDS]] : tensor<64xi32>) outs(%[[ACC]] : tensor<20x24xf32>)
//       CHECK:   return %[[R]]
func.func @routed(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                  %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
                  %ids: tensor<64xi32>, %experts: tensor<4xi32>,
                  %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// -----

// Blocks of 8 positions: no 16-row tile lies in one block.
func.func @routed_small_blocks(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                               %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
                               %ids: tensor<64xi32>, %experts: tensor<8xi32>,
                               %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op blocks of 8 sorted positions are not whole tiles of 16 rows of the layout; pin a layout whose M tile divides the block size ('mx.layout')}}
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<8xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// -----

// The block size must be known to tile.
func.func @routed_dynamic(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                          %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
                          %ids: tensor<?xi32>, %experts: tensor<?xi32>,
                          %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op data tiling needs static, non-empty sorted_ids and expert_ids (the block size is their ratio)}}
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<?xi32>, tensor<?xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// -----

// Every row named, from a +0.0 fill: the GEMM starts from zero and writes
// every row (zero_empty_tiles: +0.0 in those of a block of an expert outside
// [0, E)) into the fill's destination; the fill is dead.
// CHECK-LABEL: func.func @routed_all_rows_named_zero
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<20x24xf32>
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} row_ids(%{{.+}} : tensor<64xi32>) outs(%[[E]] : tensor<20x24xf32>) {{.*}}zero_acc zero_empty_tiles
//       CHECK:   return %[[R]]
func.func @routed_all_rows_named_zero(
    %a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
    %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
    %ids: tensor<64xi32>, %experts: tensor<4xi32>) -> tensor<20x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<20x24xf32>) -> tensor<20x24xf32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) {all_rows_named} -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// -----

// Without the promise the fill stays the accumulator (rows no position
// names keep it); with it but an accumulator that is not a +0.0 fill, the
// GEMM adds to it as always.
// CHECK-LABEL: func.func @routed_zero_unnamed_rows_kept
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[FILL]] : tensor<20x24xf32>)
//   CHECK-NOT:   zero_empty_tiles
// CHECK-LABEL: func.func @routed_all_rows_named_acc
//  CHECK-SAME:     %[[ACC:[^:]+]]: tensor<20x24xf32>)
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} outs(%[[ACC]] : tensor<20x24xf32>)
//   CHECK-NOT:   zero_acc
//       CHECK:   return %[[R]]
func.func @routed_zero_unnamed_rows_kept(
    %a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
    %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
    %ids: tensor<64xi32>, %experts: tensor<4xi32>) -> tensor<20x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<20x24xf32>) -> tensor<20x24xf32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

func.func @routed_all_rows_named_acc(
    %a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
    %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
    %ids: tensor<64xi32>, %experts: tensor<4xi32>,
    %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) {all_rows_named} -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}
