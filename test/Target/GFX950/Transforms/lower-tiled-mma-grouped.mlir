// RUN: mx-opt %s --split-input-file --mx-gfx950-lower-tiled-mma --canonicalize --cse | FileCheck %s

// mx-gfx950-lower-tiled-mma of a grouped GEMM (tile_groups): one workgroup
// per (N tile, M tile) as usual. The workgroup reads its M tile's table
// entry (expert e, first row f, row count c); a tile without rows, or of a
// group outside [0, E) (the rows outside every expert a table from zero
// names, see @grouped_fillers), computes nothing; the rhs tiles are expert
// e's ([E, No, ...], linearized as
// e * No + no); the accumulator's bounds-checked buffer holds rows
// f .. f + c - 1 of C, so the tile's rows past c are dropped.

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @grouped
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<7x1x4x4x16x16xi8>, %[[B:[^:]+]]: memref<5x2x1x4x4x16x16xi8>, %[[SA:[^:]+]]: memref<7x1x4x16x4xi8>, %[[SB:[^:]+]]: memref<5x2x1x4x16x4xi8>, %[[TABLE:[^:]+]]: memref<7x3xi32>, %[[C:[^:]+]]: memref<40x24xf32>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C5:.+]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C7:.+]] = arith.constant 7 : index
//       CHECK:   gpu.launch blocks(%[[NO:[^,]+]], %[[MO:[^,]+]], %{{[^)]+}}) in (%{{.+}} = %[[C2]], %{{.+}} = %[[C7]], %{{.+}} = %[[C1]])
//       CHECK:     %[[GTABLE:.+]] = memref.memory_space_cast %[[TABLE]] : memref<7x3xi32> to memref<7x3xi32, 1>
//       CHECK:     %[[E32:.+]] = memref.load %[[GTABLE]][%[[MO]], %[[C0]]]
//       CHECK:     %[[G:.+]] = arith.index_castui %[[E32]] : i32 to index
//       CHECK:     %[[VALID:.+]] = arith.cmpi ult, %[[G]], %[[C5]] : index
//       CHECK:     %[[F32:.+]] = memref.load %[[GTABLE]][%[[MO]], %[[C1]]]
//       CHECK:     %[[F:.+]] = arith.index_castui %[[F32]] : i32 to index
//       CHECK:     %[[N32:.+]] = memref.load %[[GTABLE]][%[[MO]], %[[C2]]]
//       CHECK:     %[[COUNT:.+]] = arith.index_castui %[[N32]] : i32 to index
//       CHECK:     %[[E:.+]] = arith.select %[[VALID]], %[[G]], %[[C0]] : index
//       CHECK:     %[[COMPUTED:.+]] = arith.select %[[VALID]], %[[COUNT]], %[[C0]] : index
//       CHECK:     %[[HAS:.+]] = arith.cmpi ne, %[[COMPUTED]], %[[C0]] : index
//       CHECK:     scf.if %[[HAS]] {
//       CHECK:       %[[GC:.+]] = memref.memory_space_cast %[[C]]
//       CHECK:       %[[ROWS:.+]] = memref.subview %[[GC]][%[[F]], 0] [%[[COUNT]], 24] [1, 1]
//       CHECK:       amdgpu.fat_raw_buffer_cast
// Past the tile's row count: row c, outside the buffer.
//       CHECK:       arith.select %{{.+}}, %{{.+}}, %[[COUNT]] : index
//       CHECK:       %[[AOFF:.+]] = arith.muli %[[MO]], %{{.+}} : index
//       CHECK:       memref.reinterpret_cast %{{.+}} to offset: [%[[AOFF]]]
//       CHECK:       %[[EN:.+]] = arith.muli %[[E]], %[[C2]] : index
//       CHECK:       %[[ENO:.+]] = arith.addi %[[EN]], %[[NO]] : index
//       CHECK:       %[[BOFF:.+]] = arith.muli %[[ENO]], %{{.+}} : index
//       CHECK:       memref.reinterpret_cast %{{.+}} to offset: [%[[BOFF]]]
//       CHECK:       %[[SBOFF:.+]] = arith.muli %[[ENO]], %{{.+}} : index
//       CHECK:       memref.reinterpret_cast %{{.+}} to offset: [%[[SBOFF]]]
//       CHECK:       func.call @mx_uk_scaled_mma(
//       CHECK:       vector.store
//       CHECK:     }
//       CHECK:     gpu.terminator
func.func @grouped(%a: memref<7x1x4x4x16x16xi8>, %b: memref<5x2x1x4x4x16x16xi8>,
                   %sa: memref<7x1x4x16x4xi8>, %sb: memref<5x2x1x4x16x4xi8>,
                   %tiles: memref<7x3xi32>, %c: memref<40x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<7x1x4x4x16x16xi8>, memref<5x2x1x4x4x16x16xi8>, memref<7x1x4x16x4xi8>, memref<5x2x1x4x16x4xi8>)
      tile_groups(%tiles : memref<7x3xi32>)
      outs(%c : memref<40x24xf32>) layout = #l
  return
}

// -----

// With row_ids (a routed GEMM): the buffer is the whole accumulator, and
// tile row r is row row_ids[16 mo + r] of it, or row M = 20 (outside the
// buffer: dropped) when r is past the tile's count or the id is outside
// [0, 20).
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @routed
//  CHECK-SAME:   %[[TABLE:[^:]+]]: memref<4x3xi32>, %[[IDS:[^:]+]]: memref<64xi32>, %[[C:[^:]+]]: memref<20x24xf32>)
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C20:.+]] = arith.constant 20 : index
//       CHECK:   gpu.launch blocks(%{{[^,]+}}, %[[MO:[^,]+]], %{{[^)]+}})
//       CHECK:     %[[N32:.+]] = memref.load %{{.+}}[%[[MO]], %[[C2]]] : memref<4x3xi32, 1>
//       CHECK:     %[[COUNT:.+]] = arith.index_castui %[[N32]] : i32 to index
//       CHECK:     scf.if
//       CHECK:       %[[GC:.+]] = memref.memory_space_cast %[[C]] : memref<20x24xf32> to memref<20x24xf32, 1>
//       CHECK:       %[[GIDS:.+]] = memref.memory_space_cast %[[IDS]] : memref<64xi32> to memref<64xi32, 1>
//       CHECK:       %[[FIRST:.+]] = arith.muli %[[MO]], %{{.+}} : index
//   CHECK-NOT:       memref.subview %[[GC]]
//       CHECK:       %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast %{{.+}} resetOffset
//       CHECK:       %[[POS:.+]] = arith.addi %[[FIRST]], %[[R:.+]] : index
//       CHECK:       %[[ID32:.+]] = memref.load %[[GIDS]][%[[POS]]] : memref<64xi32, 1>
//       CHECK:       %[[ID:.+]] = arith.index_cast %[[ID32]] : i32 to index
//       CHECK:       arith.cmpi sge, %[[ID]], %{{.+}} : index
//       CHECK:       arith.cmpi slt, %[[ID]], %[[C20]] : index
//       CHECK:       %[[INTILE:.+]] = arith.cmpi ult, %[[R]], %[[COUNT]] : index
//       CHECK:       %[[ROW:.+]] = arith.select %{{.+}}, %[[ID]], %[[C20]] : index
//       CHECK:       %[[MASKED:.+]] = arith.select %{{.+}}, %[[ROW]], %[[C20]] : index
//       CHECK:       vector.load %[[BUF]][%[[MASKED]], %{{.+}}]
//       CHECK:       func.call @mx_uk_scaled_mma(
//       CHECK:       vector.store %{{.+}}, %[[BUF]][%{{.+}}, %{{.+}}]
func.func @routed(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x2x1x4x4x16x16xi8>,
                  %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x2x1x4x16x4xi8>,
                  %tiles: memref<4x3xi32>, %ids: memref<64xi32>, %c: memref<20x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x2x1x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x2x1x4x16x4xi8>)
      tile_groups(%tiles : memref<4x3xi32>) row_ids(%ids : memref<64xi32>)
      outs(%c : memref<20x24xf32>) layout = #l
  return
}

// -----

// A routed tile of two N intrinsics: each of the lane's rows is looked up
// once (both vectors (0, j) of a row share its id), and every id is loaded
// once, before the accumulators' loads and the ukernel call, so that its
// latency passes during the K loop (after it, the loads came after the last
// MFMA); the loads and the stores share it.
#l2 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_n = 2, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @routed_two_n
//  CHECK-SAME:   %[[IDS:[^:]+]]: memref<64xi32>, %[[C:[^:]+]]: memref<20x24xf32>)
//       CHECK:   %[[GIDS:.+]] = memref.memory_space_cast %[[IDS]]
//       CHECK:   %[[ID:.+]] = memref.load %[[GIDS]]
//   CHECK-NOT:   memref.load %[[GIDS]]
//       CHECK:   arith.index_cast %[[ID]] : i32 to index
//   CHECK-NOT:   memref.load %[[GIDS]]
//       CHECK:   func.call @mx_uk_scaled_mma(
//   CHECK-NOT:   memref.load %[[GIDS]]
//       CHECK:   vector.store
//   CHECK-NOT:   memref.load %[[GIDS]]
//       CHECK:   vector.store
//   CHECK-NOT:   memref.load %[[GIDS]]
//       CHECK:   return
func.func @routed_two_n(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x1x1x2x4x4x16x16xi8>,
                        %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x1x1x4x16x2x4xi8>,
                        %tiles: memref<4x3xi32>, %ids: memref<64xi32>, %c: memref<20x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x1x1x2x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x1x1x4x16x2x4xi8>)
      tile_groups(%tiles : memref<4x3xi32>) row_ids(%ids : memref<64xi32>)
      outs(%c : memref<20x24xf32>) layout = #l2
  return
}

// -----

// The block experts form (tile_groups [blocks] of i32: the expert of each
// block of 32 sorted positions, two 16-row tiles): tile mo's expert is
// experts[16 mo / 32], its rows the tile's 16 when the expert is in
// [0, E = 4), none otherwise. From an unfilled zero (zero_acc
// zero_empty_tiles), a tile without rows stores +0.0 in the rows its ids
// name (the else branch), so that every row the ids name is written.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @routed_block_experts
//  CHECK-SAME:   %[[EXPERTS:[^:]+]]: memref<2xi32>, %[[IDS:[^:]+]]: memref<64xi32>, %[[C:[^:]+]]: memref<20x24xf32>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
//       CHECK:   gpu.launch blocks(%{{[^,]+}}, %[[MO:[^,]+]], %{{[^)]+}})
//       CHECK:     %[[GEXPERTS:.+]] = memref.memory_space_cast %[[EXPERTS]] : memref<2xi32> to memref<2xi32, 1>
//       CHECK:     %[[FIRST:.+]] = arith.muli %[[MO]], %[[C16]] : index
//       CHECK:     %[[BLOCK:.+]] = arith.divui %[[FIRST]], %[[C32]] : index
//       CHECK:     %[[E32:.+]] = memref.load %[[GEXPERTS]][%[[BLOCK]]] : memref<2xi32, 1>
//       CHECK:     %[[E:.+]] = arith.index_cast %[[E32]] : i32 to index
//       CHECK:     %[[GE0:.+]] = arith.cmpi sge, %[[E]], %[[C0]] : index
//       CHECK:     %[[LTE:.+]] = arith.cmpi slt, %[[E]], %[[C4]] : index
//       CHECK:     %[[VALID:.+]] = arith.andi %[[GE0]], %[[LTE]] : i1
//       CHECK:     %[[COUNT:.+]] = arith.select %[[VALID]], %[[C16]], %[[C0]] : index
//       CHECK:     arith.select %[[VALID]], %[[E]], %[[C0]] : index
//       CHECK:     %[[HAS:.+]] = arith.cmpi ne, %[[COUNT]], %[[C0]] : index
//       CHECK:     scf.if %[[HAS]] {
//       CHECK:       func.call @mx_uk_scaled_mma(
//       CHECK:       vector.store
//       CHECK:     } else {
//   CHECK-NOT:       func.call
//       CHECK:       %[[GIDS:.+]] = memref.memory_space_cast %[[IDS]]
//       CHECK:       memref.load %[[GIDS]]
//       CHECK:       vector.store %[[ZERO]]
//       CHECK:     }
//       CHECK:     gpu.terminator
func.func @routed_block_experts(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x2x1x4x4x16x16xi8>,
                                %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x2x1x4x16x4xi8>,
                                %experts: memref<2xi32>, %ids: memref<64xi32>, %c: memref<20x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x2x1x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x2x1x4x16x4xi8>)
      tile_groups(%experts : memref<2xi32>) row_ids(%ids : memref<64xi32>)
      outs(%c : memref<20x24xf32>) layout = #l zero_acc zero_empty_tiles
  return
}

// -----

// From zero without zero_empty_tiles (acc is a +0.0 fill): a tile without
// rows does nothing.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @routed_block_experts_filled
//       CHECK:     scf.if
//       CHECK:       func.call @mx_uk_scaled_mma(
//   CHECK-NOT:     } else {
//       CHECK:     gpu.terminator
func.func @routed_block_experts_filled(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x2x1x4x4x16x16xi8>,
                                       %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x2x1x4x16x4xi8>,
                                       %experts: memref<2xi32>, %ids: memref<64xi32>, %c: memref<20x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x2x1x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x2x1x4x16x4xi8>)
      tile_groups(%experts : memref<2xi32>) row_ids(%ids : memref<64xi32>)
      outs(%c : memref<20x24xf32>) layout = #l zero_acc
  return
}

// -----

// A table from zero with zero_empty_tiles (mx-materialize-encodings of a
// grouped GEMM from a +0.0 fill: the tiles past the experts' name the rows
// outside every expert, with the group E): a tile of a group outside
// [0, E) with rows stores +0.0 at its table rows f .. f + c - 1 (no row
// ids), a tile of no rows at all stores nothing.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @grouped_fillers
//  CHECK-SAME:   %[[C:[^:]+]]: memref<40x24xf32>)
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
//       CHECK:     %[[G:.+]] = arith.index_castui %{{.+}} : i32 to index
//       CHECK:     %[[VALID:.+]] = arith.cmpi ult, %[[G]], %{{.+}} : index
//       CHECK:     %[[F:.+]] = arith.index_castui %{{.+}} : i32 to index
//       CHECK:     %[[COUNT:.+]] = arith.index_castui %{{.+}} : i32 to index
//       CHECK:     %[[COMPUTED:.+]] = arith.select %[[VALID]], %[[COUNT]], %{{.+}} : index
//       CHECK:     %[[HAS:.+]] = arith.cmpi ne, %[[COMPUTED]], %{{.+}} : index
//       CHECK:     scf.if %[[HAS]] {
//       CHECK:       func.call @mx_uk_scaled_mma(
//       CHECK:     } else {
//       CHECK:       %[[NAMED:.+]] = arith.cmpi ne, %[[COUNT]], %{{.+}} : index
//       CHECK:       scf.if %[[NAMED]] {
//       CHECK:         %[[GC:.+]] = memref.memory_space_cast %[[C]]
//       CHECK:         memref.subview %[[GC]][%[[F]], 0] [%[[COUNT]], 24] [1, 1]
//       CHECK:         vector.store %[[ZERO]]
//       CHECK:     gpu.terminator
func.func @grouped_fillers(%a: memref<7x1x4x4x16x16xi8>, %b: memref<5x2x1x4x4x16x16xi8>,
                           %sa: memref<7x1x4x16x4xi8>, %sb: memref<5x2x1x4x16x4xi8>,
                           %table: memref<7x3xi32>, %c: memref<40x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<7x1x4x4x16x16xi8>, memref<5x2x1x4x4x16x16xi8>, memref<7x1x4x16x4xi8>, memref<5x2x1x4x16x4xi8>)
      tile_groups(%table : memref<7x3xi32>)
      outs(%c : memref<40x24xf32>) layout = #l zero_acc zero_empty_tiles
  return
}
