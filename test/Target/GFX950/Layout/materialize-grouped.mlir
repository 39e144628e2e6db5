// RUN: mx-opt %s --split-input-file --mx-set-encodings \
// RUN:   --mx-materialize-encodings="target=#mx_gfx950.target<intrinsics_m=1,intrinsics_n=1,intrinsics_k=1,subgroups_m=1,subgroups_n=1>" \
// RUN:   --cse | FileCheck %s

// mx.grouped_scaled_contraction -> one mx.tiled_scaled_mma for all experts.
// 16-row tiles: 5 experts over 40 rows need at most (40 + 5 * 15) / 16 = 7
// tiles. The tile table says, per tile, (expert, first row, row count): the
// loop over experts clamps each expert's rows into [previous end, T] and
// gives it ceil(rows / 16) consecutive tiles.

// CHECK-LABEL: func.func @grouped
//  CHECK-SAME:     (%[[A:[^:]+]]: tensor<40x128xf4E2M1FN>, %[[B:[^:]+]]: tensor<5x24x128xf4E2M1FN>, %[[SA:[^:]+]]: tensor<40x4xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<5x24x4xf8E8M0FNU>, %[[OFF:[^:]+]]: tensor<6xi64>, %[[ACC:[^:]+]]: tensor<40x24xf32>)
//   CHECK-DAG:   %[[T:.+]] = arith.constant 40 : index
//   CHECK-DAG:   %[[E:.+]] = arith.constant 5 : index
//       CHECK:   %[[TABLE:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<7x3xi32>)
//       CHECK:     %[[MO:.+]] = linalg.index 0 : index
//       CHECK:     %[[FIELD:.+]] = linalg.index 1 : index
//       CHECK:     %[[LOOP:.+]]:5 = scf.for %[[EXPERT:.+]] = %{{.+}} to %[[E]]
//       CHECK:       tensor.extract %[[OFF]][%[[EXPERT]]] : tensor<6xi64>
//       CHECK:       arith.minsi %{{.+}}, %[[T]] : index
//       CHECK:       arith.ceildivui %{{.+}}, %{{.+}} : index
//       CHECK:       arith.cmpi ult, %[[MO]], %{{.+}} : index
//       CHECK:     arith.cmpi eq, %[[FIELD]]
//       CHECK:     arith.index_cast %{{.+}} : index to i32
//       CHECK:   } -> tensor<7x3xi32>
// Each expert's rows (and row scales) gathered into its tiles, then packed
// as the lhs of a 7-tile M; the GEMM reads no tile without rows, so theirs
// are left undefined (undefined_empty_tiles).
//       CHECK:   %[[GA:.+]] = mx.gather_row_tiles %[[A]][%[[TABLE]]] tile_rows = 16 undefined_empty_tiles : tensor<40x128xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x128xf4E2M1FN>
//       CHECK:   %[[GSA:.+]] = mx.gather_row_tiles %[[SA]][%[[TABLE]]] tile_rows = 16 undefined_empty_tiles : tensor<40x4xf8E8M0FNU>, tensor<7x3xi32> -> tensor<112x4xf8E8M0FNU>
//       CHECK:   %[[PA:.+]] = linalg.pack %[[GA]] {{.*}} -> tensor<7x1x16x128xf4E2M1FN>
//       CHECK:   %[[TA:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<7x1x4x16x32xf4E2M1FN>)
//       CHECK:   linalg.pack %[[GSA]]
//       CHECK:   %[[TSA:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<7x1x4x16xf8E8M0FNU>)
// The experts' weights tiled with the experts as a leading dimension.
//       CHECK:   linalg.pack %[[B]] {{.*}} outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 128] {{.*}} -> tensor<5x2x1x16x128xf4E2M1FN>
//       CHECK:   %[[TB:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<5x2x1x4x16x32xf4E2M1FN>)
//       CHECK:   %[[TSB:.+]] = linalg.transpose {{.*}} outs(%{{.+}} : tensor<5x2x1x4x16xf8E8M0FNU>)
// The accumulator stays in the user's layout, where the tiles' rows go.
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma ins(%[[TA]], %[[TB]], %[[TSA]], %[[TSB]] : {{.*}}) tile_groups(%[[TABLE]] : tensor<7x3xi32>) outs(%[[ACC]] : tensor<40x24xf32>) layout = #{{.+}} -> tensor<40x24xf32>
//   CHECK-NOT:   zero_acc
//       CHECK:   return %[[R]]
func.func @grouped(%a: tensor<40x128xf4E2M1FN>, %b: tensor<5x24x128xf4E2M1FN>,
                   %sa: tensor<40x4xf8E8M0FNU>, %sb: tensor<5x24x4xf8E8M0FNU>,
                   %offsets: tensor<6xi64>, %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x128xf4E2M1FN>, tensor<5x24x128xf4E2M1FN>,
                            tensor<40x4xf8E8M0FNU>, tensor<5x24x4xf8E8M0FNU>)
      offsets(%offsets : tensor<6xi64>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

// -----

// Constant expert weights and their scales are tiled at compile time: no
// pack of them is left. A dynamic T gives a dynamic tile count.
// CHECK-LABEL: func.func @grouped_constant_weights
//       CHECK:   tensor.dim %{{.+}}, %{{.+}} : tensor<?x128xf4E2M1FN>
//       CHECK:   %[[TABLE:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?x3xi32>)
//       CHECK:   mx.gather_row_tiles %{{.+}}[%[[TABLE]]] tile_rows = 16 undefined_empty_tiles : tensor<?x128xf4E2M1FN>, tensor<?x3xi32> -> tensor<?x128xf4E2M1FN>
//       CHECK:   mx.gather_row_tiles
//       CHECK:   linalg.pack
//       CHECK:   linalg.pack
//   CHECK-NOT:   outer_dims_perm = [0, 1, 2]
//   CHECK-DAG:   %[[CB:.+]] = arith.constant dense<{{.*}}> : tensor<2x2x1x4x16x32xf4E2M1FN>
//   CHECK-DAG:   %[[CSB:.+]] = arith.constant dense<{{.*}}> : tensor<2x2x1x4x16xf8E8M0FNU>
//       CHECK:   mx.tiled_scaled_mma ins(%{{.+}}, %[[CB]], %{{.+}}, %[[CSB]] : tensor<?x1x4x16x32xf4E2M1FN>, tensor<2x2x1x4x16x32xf4E2M1FN>, tensor<?x1x4x16xf8E8M0FNU>, tensor<2x2x1x4x16xf8E8M0FNU>) tile_groups(%[[TABLE]] : tensor<?x3xi32>)
func.func @grouped_constant_weights(%a: tensor<?x128xf4E2M1FN>, %sa: tensor<?x4xf8E8M0FNU>,
                                    %offsets: tensor<3xi32>, %acc: tensor<?x24xf32>) -> tensor<?x24xf32> {
  %b = arith.constant dense<1.0> : tensor<2x24x128xf4E2M1FN>
  %sb = arith.constant dense<2.0> : tensor<2x24x4xf8E8M0FNU>
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<?x128xf4E2M1FN>, tensor<2x24x128xf4E2M1FN>,
                            tensor<?x4xf8E8M0FNU>, tensor<2x24x4xf8E8M0FNU>)
      offsets(%offsets : tensor<3xi32>)
      outs(%acc : tensor<?x24xf32>) -> tensor<?x24xf32>
  return %r : tensor<?x24xf32>
}

// -----

// A pinned mx.layout wins over the target's choice: 32-row tiles, at most
// (40 + 3 * 31) / 32 = 4 of them.
// CHECK-LABEL: func.func @grouped_pinned
//       CHECK:   mx.gather_row_tiles %{{.+}}[%{{.+}}] tile_rows = 32 undefined_empty_tiles : tensor<40x64xf8E4M3FN>, tensor<4x3xi32> -> tensor<128x64xf8E4M3FN>
//       CHECK:   mx.tiled_scaled_mma {{.*}} tile_groups(%{{.+}} : tensor<4x3xi32>) outs(%{{.+}} : tensor<40x24xf32>) layout = #[[PIN:.+]] -> tensor<40x24xf32>
func.func @grouped_pinned(%a: tensor<40x64xf8E4M3FN>, %b: tensor<3x24x64xf8E4M3FN>,
                          %sa: tensor<40x2xf8E8M0FNU>, %sb: tensor<3x24x2xf8E8M0FNU>,
                          %offsets: tensor<4xindex>, %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x64xf8E4M3FN>, tensor<3x24x64xf8E4M3FN>,
                            tensor<40x2xf8E8M0FNU>, tensor<3x24x2xf8E8M0FNU>)
      offsets(%offsets : tensor<4xindex>)
      outs(%acc : tensor<40x24xf32>)
      {mx.layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, intrinsics_m = 2>}
      -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}


// -----

// From a +0.0 fill: the tiles past the experts' name the rows outside every
// expert (the rows before the first expert's, then those after the last
// one's) with the group E = 5, so the tiled op writes every row itself
// (zero_acc zero_empty_tiles) and the fill goes. Two more ranges of rows:
// (40 + 7 * 15) / 16 = 9 tiles.
// CHECK-LABEL: func.func @grouped_from_zero
//  CHECK-SAME:     %[[OFF:[^:]+]]: tensor<6xi64>)
//   CHECK-NOT:   linalg.fill
//   CHECK-DAG:   %[[E:.+]] = arith.constant 5 : index
//   CHECK-DAG:   %[[EMPTY:.+]] = tensor.empty() : tensor<40x24xf32>
//       CHECK:   %[[TABLE:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<9x3xi32>)
//       CHECK:     %[[MO:.+]] = linalg.index 0 : index
//       CHECK:     %[[LOOP:.+]]:5 = scf.for
//       CHECK:     %[[FIRST_OFFSET:.+]] = tensor.extract %[[OFF]][%{{.+}}] : tensor<6xi64>
//       CHECK:     arith.ceildivui
//       CHECK:     %[[FILLER:.+]] = arith.cmpi uge, %[[MO]], %[[LOOP]]#0 : index
//       CHECK:     arith.select %[[FILLER]], %[[E]], %[[LOOP]]#2 : index
//       CHECK:   } -> tensor<9x3xi32>
//       CHECK:   mx.gather_row_tiles %{{.+}}[%[[TABLE]]] tile_rows = 16 undefined_empty_tiles : tensor<40x128xf4E2M1FN>, tensor<9x3xi32> -> tensor<144x128xf4E2M1FN>
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} tile_groups(%[[TABLE]] : tensor<9x3xi32>) outs(%[[EMPTY]] : tensor<40x24xf32>) layout = #{{.+}} zero_acc zero_empty_tiles -> tensor<40x24xf32>
//       CHECK:   return %[[R]]
func.func @grouped_from_zero(%a: tensor<40x128xf4E2M1FN>, %b: tensor<5x24x128xf4E2M1FN>,
                             %sa: tensor<40x4xf8E8M0FNU>, %sb: tensor<5x24x4xf8E8M0FNU>,
                             %offsets: tensor<6xi64>) -> tensor<40x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<40x24xf32>) -> tensor<40x24xf32>
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x128xf4E2M1FN>, tensor<5x24x128xf4E2M1FN>,
                            tensor<40x4xf8E8M0FNU>, tensor<5x24x4xf8E8M0FNU>)
      offsets(%offsets : tensor<6xi64>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
