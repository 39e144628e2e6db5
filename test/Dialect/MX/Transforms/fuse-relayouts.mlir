// RUN: mx-opt %s --split-input-file --mx-fuse-relayouts --canonicalize | FileCheck %s

// A pack chain (pad, expand_shape, transpose) becomes one gather: the output
// index is mapped back through the transpose and the reshape, checked against
// the padded bounds (33 rows, 112 bytes) and clamped into the source.
// CHECK-LABEL: func.func @pack_chain
//  CHECK-SAME:   (%[[SRC:.+]]: tensor<33x112xi8>)
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0 : i8
//   CHECK-DAG:   %[[C33:.+]] = arith.constant 33 : index
//   CHECK-DAG:   %[[C112:.+]] = arith.constant 112 : index
//       CHECK:   %[[EMPTY:.+]] = tensor.empty() : tensor<2x1x32x128xi8>
//       CHECK:   %[[G:.+]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x1x32x128xi8>)
//   CHECK-DAG:     %[[I0:.+]] = linalg.index 0
//   CHECK-DAG:     %[[I2:.+]] = linalg.index 2
//   CHECK-DAG:     %[[I3:.+]] = linalg.index 3
//       CHECK:     %[[ROW:.+]] = affine.linearize_index disjoint [%[[I0]], %[[I2]]] by (2, 32)
//       CHECK:     arith.cmpi slt, %[[ROW]], %[[C33]]
//       CHECK:     arith.cmpi slt, %[[I3]], %[[C112]]
//       CHECK:     %[[X:.+]] = tensor.extract %[[SRC]]
//       CHECK:     %[[R:.+]] = arith.select %{{.+}}, %[[X]], %[[ZERO]] : i8
//       CHECK:     linalg.yield %[[R]]
//   CHECK-NOT:   linalg.transpose
//   CHECK-NOT:   tensor.pad
//       CHECK:   return %[[G]]
func.func @pack_chain(%a: tensor<33x112xi8>) -> tensor<2x1x32x128xi8> {
  %c0 = arith.constant 0 : i8
  %p = tensor.pad %a low[0, 0] high[31, 16] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c0 : i8
  } : tensor<33x112xi8> to tensor<64x128xi8>
  %e = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 32, 1, 128]
      : tensor<64x128xi8> into tensor<2x32x1x128xi8>
  %init = tensor.empty() : tensor<2x1x32x128xi8>
  %t = linalg.transpose ins(%e : tensor<2x32x1x128xi8>) outs(%init : tensor<2x1x32x128xi8>)
      permutation = [0, 2, 1, 3]
  return %t : tensor<2x1x32x128xi8>
}

// -----

// An unpack chain (transpose, collapse_shape, extract_slice, copy) has no
// pad: a plain gather.
// CHECK-LABEL: func.func @unpack_chain
//  CHECK-SAME:   (%[[SRC:.+]]: tensor<2x2x32x32xf32>)
//       CHECK:   %[[G:.+]] = linalg.generic
//   CHECK-DAG:     %[[I0:.+]] = linalg.index 0
//   CHECK-DAG:     %[[I1:.+]] = linalg.index 1
//       CHECK:     %[[R:.+]]:2 = affine.delinearize_index %[[I0]] into (2, 32)
//       CHECK:     %[[C:.+]]:2 = affine.delinearize_index %[[I1]] into (2, 32)
//       CHECK:     %[[X:.+]] = tensor.extract %[[SRC]][%[[R]]#0, %[[C]]#0, %[[R]]#1, %[[C]]#1]
//   CHECK-NOT:     arith.select
//       CHECK:     linalg.yield %[[X]]
//       CHECK:   return %[[G]] : tensor<33x47xf32>
func.func @unpack_chain(%r: tensor<2x2x32x32xf32>) -> tensor<33x47xf32> {
  %init = tensor.empty() : tensor<2x32x2x32xf32>
  %t = linalg.transpose ins(%r : tensor<2x2x32x32xf32>) outs(%init : tensor<2x32x2x32xf32>)
      permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<2x32x2x32xf32> into tensor<64x64xf32>
  %s = tensor.extract_slice %c[0, 0] [33, 47] [1, 1] : tensor<64x64xf32> to tensor<33x47xf32>
  %out = tensor.empty() : tensor<33x47xf32>
  %copy = linalg.copy ins(%s : tensor<33x47xf32>) outs(%out : tensor<33x47xf32>) -> tensor<33x47xf32>
  return %copy : tensor<33x47xf32>
}

// -----

// A single relayout op is not a chain: left alone.
// CHECK-LABEL: func.func @single
//       CHECK:   linalg.transpose
//   CHECK-NOT:   linalg.generic
func.func @single(%a: tensor<4x8xi8>) -> tensor<8x4xi8> {
  %init = tensor.empty() : tensor<8x4xi8>
  %t = linalg.transpose ins(%a : tensor<4x8xi8>) outs(%init : tensor<8x4xi8>) permutation = [1, 0]
  return %t : tensor<8x4xi8>
}

// -----

// A dynamic intermediate shape: the pad of the dynamic source, the static
// cast, expand_shape and transpose after it become one gather from the
// source, in bounds below its run-time row count.
// CHECK-LABEL: func.func @dynamic_pad
//  CHECK-SAME:   (%[[SRC:.+]]: tensor<?x112xi8>,
//       CHECK:   %[[ROWS:.+]] = tensor.dim %[[SRC]], %{{.+}} : tensor<?x112xi8>
//       CHECK:   linalg.generic
//       CHECK:     arith.cmpi slt, %{{.+}}, %[[ROWS]]
//       CHECK:     tensor.extract %[[SRC]]
//       CHECK:     arith.select
//   CHECK-NOT:   tensor.pad
//   CHECK-NOT:   linalg.transpose
func.func @dynamic_pad(%a: tensor<?x112xi8>, %h: index) -> tensor<2x1x32x128xi8> {
  %c0 = arith.constant 0 : i8
  %p = tensor.pad %a low[0, 0] high[%h, 16] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c0 : i8
  } : tensor<?x112xi8> to tensor<?x128xi8>
  %pc = tensor.cast %p : tensor<?x128xi8> to tensor<64x128xi8>
  %e = tensor.expand_shape %pc [[0, 1], [2, 3]] output_shape [2, 32, 1, 128]
      : tensor<64x128xi8> into tensor<2x32x1x128xi8>
  %init = tensor.empty() : tensor<2x1x32x128xi8>
  %t = linalg.transpose ins(%e : tensor<2x32x1x128xi8>) outs(%init : tensor<2x1x32x128xi8>)
      permutation = [0, 2, 1, 3]
  return %t : tensor<2x1x32x128xi8>
}

// -----

// An unpadded pack: insert_slice into an empty tensor (rank-expanding), then
// reshape and transpose. Outside the slice the destination is undefined, so
// the gather clamps instead of selecting a padding value.
// CHECK-LABEL: func.func @insert_chain
//  CHECK-SAME:   (%[[SRC:.+]]: tensor<64x64xf32>)
//       CHECK:   %[[G:.+]] = linalg.generic
//       CHECK:     %[[X:.+]] = tensor.extract %[[SRC]]
//   CHECK-NOT:     arith.select
//       CHECK:     linalg.yield %[[X]]
//   CHECK-NOT:   tensor.insert_slice
//       CHECK:   return %[[G]]
func.func @insert_chain(%c: tensor<64x64xf32>) -> tensor<1x1x4x4x16x16xf32> {
  %e = tensor.empty() : tensor<1x1x64x64xf32>
  %i = tensor.insert_slice %c into %e[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1]
      : tensor<64x64xf32> into tensor<1x1x64x64xf32>
  %x = tensor.expand_shape %i [[0], [1], [2, 3], [4, 5]] output_shape [1, 1, 4, 16, 4, 16]
      : tensor<1x1x64x64xf32> into tensor<1x1x4x16x4x16xf32>
  %init = tensor.empty() : tensor<1x1x4x4x16x16xf32>
  %t = linalg.transpose ins(%x : tensor<1x1x4x16x4x16xf32>) outs(%init : tensor<1x1x4x4x16x16xf32>)
      permutation = [0, 1, 2, 4, 3, 5]
  return %t : tensor<1x1x4x4x16x16xf32>
}

// -----

// A dynamic M (the data-tiled pack of an activation whose rows are known at
// run time): the chain is one gather too. Its size comes from the last op's
// shape, and the tensor.dim of the intermediates that computed it resolves
// to the source's dimension, so nothing of the chain remains.
// CHECK-LABEL: func.func @pack_chain_dynamic
//  CHECK-SAME:   (%[[SRC:.+]]: tensor<?x112xi8>, %{{.+}}: index)
//       CHECK:   %[[ROWS:.+]] = tensor.dim %[[SRC]], %{{.+}} : tensor<?x112xi8>
//       CHECK:   %[[EMPTY:.+]] = tensor.empty(%{{.+}}) : tensor<?x1x32x128xi8>
//       CHECK:   %[[G:.+]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x1x32x128xi8>)
//       CHECK:     arith.cmpi slt, %{{.+}}, %[[ROWS]]
//       CHECK:     tensor.extract %[[SRC]]
//   CHECK-NOT:   linalg.transpose
//   CHECK-NOT:   tensor.expand_shape
//   CHECK-NOT:   tensor.pad
//       CHECK:   return %[[G]]
func.func @pack_chain_dynamic(%a: tensor<?x112xi8>, %tiles: index) -> tensor<?x1x32x128xi8> {
  %c0 = arith.constant 0 : i8
  %i0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %m = tensor.dim %a, %i0 : tensor<?x112xi8>
  %padded_m = arith.muli %tiles, %c32 : index
  %high = arith.subi %padded_m, %m : index
  %p = tensor.pad %a low[0, 0] high[%high, 16] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c0 : i8
  } : tensor<?x112xi8> to tensor<?x128xi8>
  %rows = tensor.dim %p, %i0 : tensor<?x128xi8>
  %n = arith.divsi %rows, %c32 : index
  %e = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [%n, 32, 1, 128]
      : tensor<?x128xi8> into tensor<?x32x1x128xi8>
  %init = tensor.empty(%tiles) : tensor<?x1x32x128xi8>
  %t = linalg.transpose ins(%e : tensor<?x32x1x128xi8>) outs(%init : tensor<?x1x32x128xi8>)
      permutation = [0, 2, 1, 3]
  return %t : tensor<?x1x32x128xi8>
}

// -----

// mx.gather_row_tiles is the first link of the chain that packs a grouped
// GEMM's lhs: result row 16 mo + r (of tile mo) is row f + r of the source,
// (f, c) = tile_groups[mo, 1..2], if r < c and the row is inside the source
// (else zero bytes); the source row is clamped so that the read is always in
// bounds. The packed row is linearize(mo, r) by (7, 16): its tile and row in
// the tile are mo and r, without a division.
// CHECK-LABEL: func.func @gather_pack
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<40x64xi8>, %[[T:[^:]+]]: tensor<7x3xi32>)
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0 : i8
//   CHECK-DAG:   %[[C39:.+]] = arith.constant 39 : index
//   CHECK-DAG:   %[[C40:.+]] = arith.constant 40 : index
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<7x1x16x64xi8>)
//       CHECK:     %[[MO:.+]] = linalg.index 0 : index
//       CHECK:     %[[R:.+]] = linalg.index 2 : index
//       CHECK:     %[[COL:.+]] = linalg.index 3 : index
//   CHECK-NOT:     arith.divui
//       CHECK:     %[[F:.+]] = tensor.extract %[[T]][%[[MO]], %{{.+}}] : tensor<7x3xi32>
//       CHECK:     %[[FI:.+]] = arith.index_cast %[[F]] : i32 to index
//       CHECK:     %[[CNT:.+]] = tensor.extract %[[T]][%[[MO]], %{{.+}}] : tensor<7x3xi32>
//       CHECK:     %[[CI:.+]] = arith.index_cast %[[CNT]] : i32 to index
//       CHECK:     %[[SRC:.+]] = arith.addi %[[FI]], %[[R]] : index
//       CHECK:     %[[IN:.+]] = arith.cmpi slt, %[[R]], %[[CI]] : index
//       CHECK:     arith.cmpi slt, %[[SRC]], %[[C40]] : index
//       CHECK:     %[[OK:.+]] = arith.andi %[[IN]], %{{.+}} : i1
//       CHECK:     %[[LOW:.+]] = arith.minsi %[[SRC]], %[[C39]] : index
//       CHECK:     %[[CLAMPED:.+]] = arith.maxsi %[[LOW]], %{{.+}} : index
//       CHECK:     %[[V:.+]] = tensor.extract %[[A]][%[[CLAMPED]], %[[COL]]] : tensor<40x64xi8>
//       CHECK:     %[[SEL:.+]] = arith.select %[[OK]], %[[V]], %[[ZERO]] : i8
//       CHECK:     linalg.yield %[[SEL]] : i8
//   CHECK-NOT:   mx.gather_row_tiles
func.func @gather_pack(%a: tensor<40x64xi8>, %t: tensor<7x3xi32>) -> tensor<7x1x16x64xi8> {
  %g = mx.gather_row_tiles %a[%t] tile_rows = 16 : tensor<40x64xi8>, tensor<7x3xi32> -> tensor<112x64xi8>
  %x = tensor.expand_shape %g [[0, 1], [2, 3]] output_shape [7, 16, 1, 64] : tensor<112x64xi8> into tensor<7x16x1x64xi8>
  %e = tensor.empty() : tensor<7x1x16x64xi8>
  %tr = linalg.transpose ins(%x : tensor<7x16x1x64xi8>) outs(%e : tensor<7x1x16x64xi8>) permutation = [0, 2, 1, 3]
  return %tr : tensor<7x1x16x64xi8>
}

// -----

// With undefined_empty_tiles the rows of a tile without rows (count 0) keep
// the generic's destination (tensor.empty: undefined), which the GPU
// dispatch turns into no store at all.
// CHECK-LABEL: func.func @gather_pack_undefined_empty_tiles
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<40x64xi8>, %[[T:[^:]+]]: tensor<7x3xi32>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0 : i8
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<7x1x16x64xi8>)
//  CHECK-NEXT:   ^bb0(%[[OUT:.+]]: i8):
//       CHECK:     %[[MO:.+]] = linalg.index 0 : index
//       CHECK:     tensor.extract %[[T]][%[[MO]], %[[C2]]] : tensor<7x3xi32>
//       CHECK:     %[[CNT:.+]] = tensor.extract %[[T]][%[[MO]], %[[C2]]] : tensor<7x3xi32>
//       CHECK:     %[[CI:.+]] = arith.index_cast %[[CNT]] : i32 to index
//       CHECK:     %[[HAS:.+]] = arith.cmpi sgt, %[[CI]], %[[C0]] : index
//       CHECK:     %[[V:.+]] = tensor.extract %[[A]]
//       CHECK:     %[[SEL:.+]] = arith.select %{{.+}}, %[[V]], %[[ZERO]] : i8
//       CHECK:     %[[KEPT:.+]] = arith.select %[[HAS]], %[[SEL]], %[[OUT]] : i8
//       CHECK:     linalg.yield %[[KEPT]] : i8
func.func @gather_pack_undefined_empty_tiles(%a: tensor<40x64xi8>, %t: tensor<7x3xi32>) -> tensor<7x1x16x64xi8> {
  %g = mx.gather_row_tiles %a[%t] tile_rows = 16 undefined_empty_tiles : tensor<40x64xi8>, tensor<7x3xi32> -> tensor<112x64xi8>
  %x = tensor.expand_shape %g [[0, 1], [2, 3]] output_shape [7, 16, 1, 64] : tensor<112x64xi8> into tensor<7x16x1x64xi8>
  %e = tensor.empty() : tensor<7x1x16x64xi8>
  %tr = linalg.transpose ins(%x : tensor<7x16x1x64xi8>) outs(%e : tensor<7x1x16x64xi8>) permutation = [0, 2, 1, 3]
  return %tr : tensor<7x1x16x64xi8>
}

// -----

// A gather alone (no view after it) becomes a generic too; dynamic sizes
// from the op's shape (tiles x 32 rows).
// CHECK-LABEL: func.func @gather_alone
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<?x4xi8>, %[[T:[^:]+]]: tensor<?x3xi32>)
//       CHECK:   %[[TILES:.+]] = tensor.dim %[[T]], %{{.+}} : tensor<?x3xi32>
//       CHECK:   %[[ROWS:.+]] = arith.muli %[[TILES]], %{{.+}} : index
//       CHECK:   %[[E:.+]] = tensor.empty(%[[ROWS]]) : tensor<?x4xi8>
//       CHECK:   linalg.generic {{.*}} outs(%[[E]] : tensor<?x4xi8>)
//       CHECK:     tensor.extract %[[A]]
//   CHECK-NOT:   mx.gather_row_tiles
func.func @gather_alone(%a: tensor<?x4xi8>, %t: tensor<?x3xi32>) -> tensor<?x4xi8> {
  %g = mx.gather_row_tiles %a[%t] tile_rows = 32 : tensor<?x4xi8>, tensor<?x3xi32> -> tensor<?x4xi8>
  return %g : tensor<?x4xi8>
}

// -----

// mx.gather_rows in a chain: result row i (here row 16 mo + r of the packed
// tiles) is source row ids[i] / 2, or zero bytes where the id is negative or
// past the source's rows.
// CHECK-LABEL: func.func @gather_rows_pack
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<10x64xi8>, %[[IDS:[^:]+]]: tensor<64xi32>)
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0 : i8
//   CHECK-DAG:   %[[C10:.+]] = arith.constant 10 : index
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<4x1x16x64xi8>)
//       CHECK:     %[[ROW:.+]] = affine.linearize_index disjoint [%{{.+}}, %{{.+}}] by (4, 16)
//       CHECK:     %[[ID32:.+]] = tensor.extract %[[IDS]][%[[ROW]]] : tensor<64xi32>
//       CHECK:     %[[ID:.+]] = arith.index_cast %[[ID32]] : i32 to index
//       CHECK:     %[[NONNEG:.+]] = arith.cmpi sge, %[[ID]], %{{.+}} : index
//       CHECK:     %[[SRC:.+]] = arith.divsi %[[ID]], %{{.+}} : index
//       CHECK:     arith.cmpi slt, %[[SRC]], %[[C10]] : index
//       CHECK:     %[[V:.+]] = tensor.extract %[[A]][%{{.+}}, %{{.+}}] : tensor<10x64xi8>
//       CHECK:     arith.select %{{.+}}, %[[V]], %[[ZERO]] : i8
//   CHECK-NOT:   mx.gather_rows
func.func @gather_rows_pack(%a: tensor<10x64xi8>, %ids: tensor<64xi32>) -> tensor<4x1x16x64xi8> {
  %g = mx.gather_rows %a[%ids] divisor = 2 : tensor<10x64xi8>, tensor<64xi32> -> tensor<64x64xi8>
  %x = tensor.expand_shape %g [[0, 1], [2, 3]] output_shape [4, 16, 1, 64] : tensor<64x64xi8> into tensor<4x16x1x64xi8>
  %e = tensor.empty() : tensor<4x1x16x64xi8>
  %tr = linalg.transpose ins(%x : tensor<4x16x1x64xi8>) outs(%e : tensor<4x1x16x64xi8>) permutation = [0, 2, 1, 3]
  return %tr : tensor<4x1x16x64xi8>
}
