// RUN: mx-opt %s --split-input-file --mx-gfx950-lower-tiled-mma --canonicalize --cse -verify-diagnostics | FileCheck %s

// A routed GEMM (10 tokens, top 2: 20 rows of y, 24 columns in 2 N tiles
// of 16) whose weighted combine is marked mx.column_consumer: the kernel
// ends with the combine. After its stores, lane 0 of each wave counts the
// wave on its strip's counter (counters[no], an acquire-release atomic
// add); the count is broadcast from lane 0, and the wave that saw (4 M
// tiles x 1 wave) - 1 = 3 before it is the strip's last: it resets the
// counter and computes the strip's 10 x 16 outputs, 3 per lane, their loads
// at indices clamped into the output and their stores guarded (columns 24
// to 31 of the second strip are past N). The generic is gone.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @combine
//  CHECK-SAME:   %[[W:[^:]+]]: memref<10x2xf32>, %[[COUNTERS:[^:]+]]: memref<2xi32>, %[[OUT:[^:]+]]: memref<10x24xbf16>
//   CHECK-DAG:   %[[LASTCOUNT:.+]] = arith.constant 3 : i32
//       CHECK:   %[[Y3:.+]] = memref.expand_shape
//       CHECK:   gpu.launch blocks(%[[NO:[^,]+]], %{{[^,]+}}, %{{[^)]+}}) in (%{{[^,]+}}, %{{[^,]+}}, %{{[^)]+}}) threads(%[[TID:[^,]+]],
//       CHECK:     vector.store
//       CHECK:     %[[GC:.+]] = memref.memory_space_cast %[[COUNTERS]] : memref<2xi32> to memref<2xi32, 1>
//       CHECK:     %[[LANE:.+]] = arith.remui %[[TID]], %{{.+}} : index
//       CHECK:     %[[IS0:.+]] = arith.cmpi eq, %[[LANE]], %{{.+}} : index
//       CHECK:     %[[OLD:.+]] = scf.if %[[IS0]] -> (i32) {
//       CHECK:       %[[ADD:.+]] = memref.atomic_rmw addi %{{.+}}, %[[GC]][%[[NO]]] : (i32, memref<2xi32, 1>) -> i32
//       CHECK:       scf.yield %[[ADD]] : i32
//       CHECK:     } else {
//       CHECK:     %[[COUNT:.+]] = gpu.subgroup_broadcast %[[OLD]],  specific_lane %{{.+}} : i32
//       CHECK:     %[[ISLAST:.+]] = arith.cmpi eq, %[[COUNT]], %[[LASTCOUNT]] : i32
//       CHECK:     scf.if %[[ISLAST]] {
//       CHECK:       scf.if %[[IS0]] {
//       CHECK:         memref.store %{{.+}}, %[[GC]][%[[NO]]] : memref<2xi32, 1>
//       CHECK:       %[[FIRST:.+]] = arith.muli %[[NO]], %{{.+}} : index
//       CHECK:       %[[ROW:.+]] = arith.divui %[[LANE]], %{{.+}} : index
//       CHECK:       %[[COL:.+]] = arith.remui %[[LANE]], %{{.+}} : index
//       CHECK:       %[[N:.+]] = arith.addi %[[FIRST]], %[[COL]] : index
//       CHECK:       %[[ROWOK:.+]] = arith.cmpi ult, %[[ROW]], %{{.+}} : index
//       CHECK:       %[[COLOK:.+]] = arith.cmpi ult, %[[N]], %{{.+}} : index
//       CHECK:       %[[OK:.+]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
//       CHECK:       %[[T:.+]] = arith.minui %[[ROW]], %{{.+}} : index
//       CHECK:       %[[NC:.+]] = arith.minui %[[N]], %{{.+}} : index
//       CHECK:       %[[V0:.+]] = memref.load %[[Y3]][%[[T]], %{{.+}}, %[[NC]]] : memref<10x2x24xf32>
//       CHECK:       %[[V1:.+]] = memref.load %[[Y3]][%[[T]], %{{.+}}, %[[NC]]] : memref<10x2x24xf32>
//       CHECK:       %[[C0:.+]] = memref.load %[[W]][%[[T]], %{{.+}}] : memref<10x2xf32>
//       CHECK:       %[[C1:.+]] = memref.load %[[W]][%[[T]], %{{.+}}] : memref<10x2xf32>
//       CHECK:       %[[P0:.+]] = arith.mulf %[[C0]], %[[V0]] : f32
//       CHECK:       %[[P1:.+]] = arith.mulf %[[C1]], %[[V1]] : f32
//       CHECK:       %[[S:.+]] = arith.addf %[[P0]], %[[P1]] : f32
//       CHECK:       %[[B:.+]] = arith.truncf %[[S]] : f32 to bf16
// The second and third elements' loads come before the first's store.
//       CHECK:       memref.load %[[Y3]]
//       CHECK:       memref.load %[[Y3]]
//       CHECK:       scf.if %[[OK]] {
//  CHECK-NEXT:         memref.store %[[B]], %[[OUT]][%[[T]], %[[NC]]] : memref<10x24xbf16>
//       CHECK:       scf.if
//       CHECK:       scf.if
//   CHECK-NOT:   linalg.generic
//       CHECK:   return
func.func @combine(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x2x1x4x4x16x16xi8>,
                   %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x2x1x4x16x4xi8>,
                   %experts: memref<4xi32>, %ids: memref<64xi32>, %y: memref<20x24xf32>,
                   %w: memref<10x2xf32>, %counters: memref<2xi32>, %out: memref<10x24xbf16>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x2x1x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x2x1x4x16x4xi8>)
      tile_groups(%experts : memref<4xi32>) row_ids(%ids : memref<64xi32>)
      outs(%y : memref<20x24xf32>) layout = #l zero_acc
  %y3 = memref.expand_shape %y [[0, 1], [2]] output_shape [10, 2, 24] : memref<20x24xf32> into memref<10x2x24xf32>
  linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 1, n)>,
                                   affine_map<(t, n) -> (t, 0)>, affine_map<(t, n) -> (t, 1)>, affine_map<(t, n) -> (0)>, affine_map<(t, n) -> (t, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y3, %y3, %w, %w, %counters : memref<10x2x24xf32>, memref<10x2x24xf32>, memref<10x2xf32>, memref<10x2xf32>, memref<2xi32>) outs(%out : memref<10x24xbf16>)
      attrs = {mx.column_consumer} {
  ^bb0(%v0: f32, %v1: f32, %c0: f32, %c1: f32, %n: i32, %o: bf16):
    %p0 = arith.mulf %c0, %v0 : f32
    %p1 = arith.mulf %c1, %v1 : f32
    %s = arith.addf %p0, %p1 : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// Two waves per workgroup (subgroups_n = 2, N tiles of 32): each counts
// itself, so the last count is (4 M tiles x 2) - 1 = 7.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @two_waves
//   CHECK-DAG:   %[[LASTCOUNT:.+]] = arith.constant 7 : i32
//       CHECK:   gpu.launch
//       CHECK:     memref.atomic_rmw addi
//       CHECK:     %[[COUNT:.+]] = gpu.subgroup_broadcast
//       CHECK:     arith.cmpi eq, %[[COUNT]], %[[LASTCOUNT]] : i32
func.func @two_waves(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x1x1x2x4x4x16x16xi8>,
                     %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x1x1x2x4x16x4xi8>,
                     %experts: memref<4xi32>, %ids: memref<64xi32>, %y: memref<20x24xf32>,
                     %counters: memref<1xi32>, %out: memref<10x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x1x1x2x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x1x1x2x4x16x4xi8>)
      tile_groups(%experts : memref<4xi32>) row_ids(%ids : memref<64xi32>)
      outs(%y : memref<20x24xf32>) layout = #l zero_acc
  %y3 = memref.expand_shape %y [[0, 1], [2]] output_shape [10, 2, 24] : memref<20x24xf32> into memref<10x2x24xf32>
  linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 1, n)>, affine_map<(t, n) -> (0)>, affine_map<(t, n) -> (t, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y3, %y3, %counters : memref<10x2x24xf32>, memref<10x2x24xf32>, memref<1xi32>) outs(%out : memref<10x24xf32>)
      attrs = {mx.column_consumer} {
  ^bb0(%v0: f32, %v1: f32, %n: i32, %o: f32):
    %s = arith.addf %v0, %v1 : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A marked generic that no GEMM before it feeds is an error, not a silently
// dropped computation.
func.func @orphan(%x: memref<10x24xf32>, %counters: memref<2xi32>, %out: memref<10x24xf32>) {
  // expected-error @+1 {{is marked mx.column_consumer, but no mx.tiled_scaled_mma before it writes the result it reads}}
  linalg.generic {indexing_maps = [affine_map<(t, n) -> (9 - t, n)>, affine_map<(t, n) -> (0)>, affine_map<(t, n) -> (t, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %counters : memref<10x24xf32>, memref<2xi32>) outs(%out : memref<10x24xf32>)
      attrs = {mx.column_consumer} {
  ^bb0(%v: f32, %n: i32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

// The counters must be one i32 per N tile (24 columns in tiles of 16: 2,
// not 3): an error, not an atomic out of bounds.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @wrong_counters(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x2x1x4x4x16x16xi8>,
                          %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x2x1x4x16x4xi8>,
                          %experts: memref<4xi32>, %ids: memref<64xi32>, %y: memref<20x24xf32>,
                          %counters: memref<3xi32>, %out: memref<10x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x2x1x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x2x1x4x16x4xi8>)
      tile_groups(%experts : memref<4xi32>) row_ids(%ids : memref<64xi32>)
      outs(%y : memref<20x24xf32>) layout = #l zero_acc
  %y3 = memref.expand_shape %y [[0, 1], [2]] output_shape [10, 2, 24] : memref<20x24xf32> into memref<10x2x24xf32>
  // expected-error @+1 {{is marked mx.column_consumer, but its last input is not a memref of one i32 counter per N tile of its GEMM}}
  linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (0)>, affine_map<(t, n) -> (t, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y3, %counters : memref<10x2x24xf32>, memref<3xi32>) outs(%out : memref<10x24xf32>)
      attrs = {mx.column_consumer} {
  ^bb0(%v: f32, %n: i32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

// Row by row (mx.column_consumer = 2: output row t combines rows 2t and
// 2t + 1; counters: 2 per strip, then one per output row and strip, 2 x
// (1 + 10) = 22). Each lane takes one row of the tile: its id (padding and
// ids past the 20 rows count nothing), its output row id / 2, whose
// counter (row + 1) x 2 + no it adds 1 to; the lane whose add saw 2 rows x
// 1 wave - 1 = 1 completed the row. Then the strip's count (last: 4 M
// tiles x 1 wave - 1 = 3). Then the wave computes, lane by lane, each row
// one of its lanes completed. The strip's last wave resets the strip's
// counter, reads each output row's count, computes the rows whose count is
// not 2 (a row no id names) and resets them all.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @rows
//  CHECK-SAME:   %[[IDS:[^:]+]]: memref<64xi32>, %[[Y:[^:]+]]: memref<20x24xf32>, %[[COUNTERS:[^:]+]]: memref<22xi32>, %[[OUT:[^:]+]]: memref<10x24xf32>
//   CHECK-DAG:   %[[C1I:.+]] = arith.constant 1 : i32
//   CHECK-DAG:   %[[C2I:.+]] = arith.constant 2 : i32
//   CHECK-DAG:   %[[C3I:.+]] = arith.constant 3 : i32
//       CHECK:   gpu.launch blocks(%[[NO:[^,]+]], %[[MO:[^,]+]], %{{[^)]+}})
//       CHECK:     %[[GC:.+]] = memref.memory_space_cast %[[COUNTERS]] : memref<22xi32> to memref<22xi32, 1>
//       CHECK:     %[[LANE:.+]] = arith.remui
//       CHECK:     %[[GIDS:.+]] = memref.memory_space_cast %[[IDS]]
//       CHECK:     %[[ID32:.+]] = memref.load %[[GIDS]]
//       CHECK:     %[[ID:.+]] = arith.index_cast %[[ID32]] : i32 to index
//       CHECK:     %[[INRANGE:.+]] = arith.andi
//       CHECK:     %[[VALID:.+]] = arith.andi %{{.+}}, %[[INRANGE]] : i1
//       CHECK:     %[[SAFE:.+]] = arith.select %[[VALID]], %[[ID]], %{{.+}} : index
//       CHECK:     %[[ROW:.+]] = arith.divui %[[SAFE]], %{{.+}} : index
//       CHECK:     %[[ROW1:.+]] = arith.addi %[[ROW]], %{{.+}} : index
//       CHECK:     %[[BASE:.+]] = arith.muli %[[ROW1]], %{{.+}} : index
//       CHECK:     %[[COUNTER:.+]] = arith.addi %[[BASE]], %[[NO]] : index
//       CHECK:     %[[OLD:.+]] = scf.if %[[VALID]] -> (i32) {
//       CHECK:       memref.atomic_rmw addi %{{.+}}, %[[GC]][%[[COUNTER]]]
//       CHECK:     %[[COMPLETES:.+]] = arith.cmpi eq, %[[OLD]], %[[C1I]] : i32
//       CHECK:     %[[DONE:.+]] = arith.andi %[[VALID]], %[[COMPLETES]] : i1
//       CHECK:       memref.atomic_rmw addi %{{.+}}, %[[GC]][%[[NO]]]
//       CHECK:     %[[COUNT:.+]] = gpu.subgroup_broadcast
//       CHECK:     %[[LAST:.+]] = arith.cmpi eq, %[[COUNT]], %[[C3I]] : i32
//       CHECK:     %[[DONE32:.+]] = arith.extui %[[DONE]] : i1 to i32
//       CHECK:     %[[ROW32:.+]] = arith.index_cast %[[ROW]] : index to i32
//       CHECK:     scf.for %[[L:.+]] = %{{.+}} to %{{.+}} step
//       CHECK:       %[[L32:.+]] = arith.index_cast %[[L]] : index to i32
//       CHECK:       %[[FLAG:.+]] = gpu.subgroup_broadcast %[[DONE32]],  specific_lane %[[L32]] : i32
//       CHECK:       %[[LROW32:.+]] = gpu.subgroup_broadcast %[[ROW32]],  specific_lane %[[L32]] : i32
//       CHECK:       %[[LROW:.+]] = arith.index_cast %[[LROW32]] : i32 to index
//       CHECK:       scf.if
//       CHECK:         memref.load %{{.+}}[%[[LROW]], %{{.+}}, %{{.+}}] : memref<10x2x24xf32>
//       CHECK:         memref.store %{{.+}}, %[[OUT]][%[[LROW]], %{{.+}}] : memref<10x24xf32>
//       CHECK:     scf.if %[[LAST]] {
//       CHECK:       memref.store %{{.+}}, %[[GC]][%[[NO]]]
//       CHECK:       %[[SWEEPCOUNT:.+]] = memref.load %[[GC]][%[[SWEEPIDX:.+]]] : memref<22xi32, 1>
//       CHECK:       arith.cmpi ne, %[[SWEEPCOUNT]], %[[C2I]] : i32
//       CHECK:       memref.store %{{.+}}, %[[GC]][%[[SWEEPIDX]]] : memref<22xi32, 1>
//       CHECK:       scf.for
//       CHECK:         memref.store %{{.+}}, %[[OUT]]
func.func @rows(%a: memref<4x1x4x4x16x16xi8>, %b: memref<4x2x1x4x4x16x16xi8>,
                %sa: memref<4x1x4x16x4xi8>, %sb: memref<4x2x1x4x16x4xi8>,
                %experts: memref<4xi32>, %ids: memref<64xi32>, %y: memref<20x24xf32>,
                %counters: memref<22xi32>, %out: memref<10x24xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x1x4x4x16x16xi8>, memref<4x2x1x4x4x16x16xi8>, memref<4x1x4x16x4xi8>, memref<4x2x1x4x16x4xi8>)
      tile_groups(%experts : memref<4xi32>) row_ids(%ids : memref<64xi32>)
      outs(%y : memref<20x24xf32>) layout = #l zero_acc
  %y3 = memref.expand_shape %y [[0, 1], [2]] output_shape [10, 2, 24] : memref<20x24xf32> into memref<10x2x24xf32>
  linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 1, n)>, affine_map<(t, n) -> (0)>, affine_map<(t, n) -> (t, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y3, %y3, %counters : memref<10x2x24xf32>, memref<10x2x24xf32>, memref<22xi32>) outs(%out : memref<10x24xf32>)
      attrs = {mx.column_consumer = 2 : i64} {
  ^bb0(%v0: f32, %v1: f32, %n: i32, %o: f32):
    %s = arith.addf %v0, %v1 : f32
    linalg.yield %s : f32
  }
  return
}
