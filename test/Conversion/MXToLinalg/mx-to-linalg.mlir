// RUN: mx-opt %s --convert-mx-to-linalg --split-input-file | FileCheck %s

// Element values come from a table built from the type's own semantics; the
// scale byte decodes to 2^(s - 127) through the f64 exponent field, 0xFF to NaN.

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
// CHECK-LABEL: func.func @dequantize_fp4
//  CHECK-SAME:   (%[[E:.+]]: tensor<4x64xf4E2M1FN>, %[[S:.+]]: tensor<4x2xf8E8M0FNU>)
//   CHECK-DAG:   %[[NAN:.+]] = arith.constant 0x7FF8000000000000 : f64
//   CHECK-DAG:   %[[TABLE:.+]] = arith.constant dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 1.500000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 6.000000e+00, -0.000000e+00, -5.000000e-01, -1.000000e+00, -1.500000e+00, -2.000000e+00, -3.000000e+00, -4.000000e+00, -6.000000e+00]> : tensor<16xf64>
//       CHECK:   %[[INIT:.+]] = tensor.empty() : tensor<4x64xf32>
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[E]], %[[S]] : tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>) outs(%[[INIT]] : tensor<4x64xf32>)
//       CHECK:   ^bb0(%[[IN:.+]]: f4E2M1FN, %[[SC:.+]]: f8E8M0FNU, %{{.+}}: f32):
//       CHECK:     %[[BITS:.+]] = arith.bitcast %[[IN]] : f4E2M1FN to i4
//       CHECK:     %[[IDX:.+]] = arith.index_castui %[[BITS]] : i4 to index
//       CHECK:     %[[VAL:.+]] = tensor.extract %[[TABLE]][%[[IDX]]] : tensor<16xf64>
//       CHECK:     %[[BYTE:.+]] = arith.bitcast %[[SC]] : f8E8M0FNU to i8
//       CHECK:     %[[WIDE:.+]] = arith.extui %[[BYTE]] : i8 to i64
//       CHECK:     %[[UNB:.+]] = arith.subi %[[WIDE]], %{{.+}} : i64
//       CHECK:     %[[F64E:.+]] = arith.addi %[[UNB]], %{{.+}} : i64
//       CHECK:     %[[SHL:.+]] = arith.shli %[[F64E]], %{{.+}} : i64
//       CHECK:     %[[POW:.+]] = arith.bitcast %[[SHL]] : i64 to f64
//       CHECK:     %[[ISNAN:.+]] = arith.cmpi eq, %[[WIDE]], %{{.+}} : i64
//       CHECK:     %[[SCALE:.+]] = arith.select %[[ISNAN]], %[[NAN]], %[[POW]] : f64
//       CHECK:     %[[PROD:.+]] = arith.mulf %[[VAL]], %[[SCALE]] : f64
//       CHECK:     %[[OUT:.+]] = arith.truncf %[[PROD]] : f64 to f32
//       CHECK:     linalg.yield %[[OUT]] : f32
//       CHECK:   return %[[R]]
func.func @dequantize_fp4(%e: tensor<4x64xf4E2M1FN>, %s: tensor<4x2xf8E8M0FNU>) -> tensor<4x64xf32> {
  %r = mx.dequantize %e, %s axis(1) : tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// Quantize: amax over an expanded [.., D/32, 32, ..] view, then the scale per
// block, then the codes reading the scale through a floordiv map.

// CHECK-DAG: #[[EXP:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[RED:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0 floordiv 32, d1)>
// CHECK-LABEL: func.func @quantize_columnwise
//  CHECK-SAME:   (%[[X:.+]]: tensor<64x8xbf16>)
//   CHECK-DAG:   %[[INTBITS:.+]] = arith.constant 8388607 : i32
//   CHECK-DAG:   %[[TWO23:.+]] = arith.constant 0x4B000000 : f32
//       CHECK:   %[[EXPANDED:.+]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2]] output_shape [2, 32, 8] : tensor<64x8xbf16> into tensor<2x32x8xbf16>
//       CHECK:   %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x8xf32>)
//       CHECK:   %[[AMAX:.+]] = linalg.generic {indexing_maps = [#[[EXP]], #[[RED]]], iterator_types = ["parallel", "reduction", "parallel"]}
//  CHECK-SAME:     ins(%[[EXPANDED]] : tensor<2x32x8xbf16>) outs(%[[FILL]] : tensor<2x8xf32>)
//       CHECK:     math.absf
//       CHECK:     arith.maximumf
//       CHECK:   %[[SCALES:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[AMAX]] : tensor<2x8xf32>) outs(%{{.+}} : tensor<2x8xf8E8M0FNU>)
//       CHECK:     arith.bitcast %{{.+}} : i8 to f8E8M0FNU
//       CHECK:   %[[CODES:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[X]], %[[SCALES]] : tensor<64x8xbf16>, tensor<2x8xf8E8M0FNU>) outs(%{{.+}} : tensor<64x8xf4E2M1FN>)
//   CHECK-NOT:     f64
//       CHECK:     %[[SUM:.+]] = arith.addf %{{.+}}, %[[TWO23]] : f32
//       CHECK:     %[[SUMBITS:.+]] = arith.bitcast %[[SUM]] : f32 to i32
//       CHECK:     arith.andi %[[SUMBITS]], %[[INTBITS]] : i32
//       CHECK:     arith.bitcast %{{.+}} : i4 to f4E2M1FN
//       CHECK:   return %[[CODES]], %[[SCALES]]
func.func @quantize_columnwise(%x: tensor<64x8xbf16>) -> (tensor<64x8xf4E2M1FN>, tensor<2x8xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<64x8xbf16> -> tensor<64x8xf4E2M1FN>, tensor<2x8xf8E8M0FNU>
  return %e, %s : tensor<64x8xf4E2M1FN>, tensor<2x8xf8E8M0FNU>
}

// -----

// The EVEN rule adds half an element ulp to the f32 bits of amax: 0x200000
// for fp4 (1 mantissa bit), 0x80000 for e4m3 (3 bits). Ties-away truncates
// (fptoui) and adds 1 where the exact fraction is at least 1/2; nearest-even
// rounds by adding 2^23 instead.

// CHECK-LABEL: func.func @quantize_even
//   CHECK-DAG:   arith.constant 2097152 : i32
//   CHECK-DAG:   arith.constant -8388608 : i32
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic
//       CHECK:     arith.addi %{{.+}}, %{{.+}} : i32
//       CHECK:   linalg.generic
//       CHECK:     %[[TRUNC:.+]] = arith.fptoui %[[Y:.+]] : f32 to i32
//       CHECK:     %[[BACK:.+]] = arith.uitofp %[[TRUNC]] : i32 to f32
//       CHECK:     %[[FRAC:.+]] = arith.subf %[[Y]], %[[BACK]] : f32
//       CHECK:     %[[UP:.+]] = arith.cmpf oge, %[[FRAC]], %{{.+}} : f32
//       CHECK:     %[[UPI:.+]] = arith.extui %[[UP]] : i1 to i32
//       CHECK:     arith.addi %[[TRUNC]], %[[UPI]] : i32
//   CHECK-NOT:     0x4B000000
// CHECK-LABEL: func.func @quantize_even_e4m3
//   CHECK-DAG:   arith.constant 524288 : i32
func.func @quantize_even(%x: tensor<2x64xf32>) -> (tensor<2x64xf4E2M1FN>, tensor<2x2xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<2x64xf32> -> tensor<2x64xf4E2M1FN>, tensor<2x2xf8E8M0FNU>
  return %e, %s : tensor<2x64xf4E2M1FN>, tensor<2x2xf8E8M0FNU>
}
func.func @quantize_even_e4m3(%x: tensor<2x64xf32>) -> (tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<2x64xf32> -> tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU>
  return %e, %s : tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU>
}

// -----

// Scaled contraction: acc widened to f64, one reduction generic over the
// op's own iteration space (scales read through k floordiv 32), one rounding
// back to f32 into the original acc. Dynamic sizes flow through tensor.dim.

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MKB:.+]] = affine_map<(d0, d1, d2) -> (d0, d2 floordiv 32)>
// CHECK-DAG: #[[KNB:.+]] = affine_map<(d0, d1, d2) -> (d2 floordiv 32, d1)>
// CHECK-DAG: #[[MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @contraction_mixed_dynamic
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<?x?xf4E2M1FN>, %[[B:[^:]+]]: tensor<?x?xf8E5M2>, %[[SA:[^:]+]]: tensor<?x?xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<?x?xf8E8M0FNU>, %[[C:[^:]+]]: tensor<?x?xf32>)
//       CHECK:   %[[D0:.+]] = tensor.dim %[[C]], %{{.+}}
//       CHECK:   %[[D1:.+]] = tensor.dim %[[C]], %{{.+}}
//       CHECK:   %[[EMPTY:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf64>
//       CHECK:   %[[WIDE:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.*}}} ins(%[[C]] : tensor<?x?xf32>) outs(%[[EMPTY]] : tensor<?x?xf64>)
//       CHECK:     arith.extf %{{.+}} : f32 to f64
//       CHECK:   %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[MK]], #[[KN]], #[[MKB]], #[[KNB]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]}
//  CHECK-SAME:     ins(%[[A]], %[[B]], %[[SA]], %[[SB]] : {{.*}}) outs(%[[WIDE]] : tensor<?x?xf64>)
//       CHECK:     tensor.extract %{{.+}}[%{{.+}}] : tensor<16xf64>
//       CHECK:     tensor.extract %{{.+}}[%{{.+}}] : tensor<256xf64>
//       CHECK:     %[[P:.+]] = arith.mulf
//       CHECK:     %[[PS:.+]] = arith.mulf %[[P]], %{{.+}} : f64
//       CHECK:     %[[PSS:.+]] = arith.mulf %[[PS]], %{{.+}} : f64
//       CHECK:     %[[ACC:.+]] = arith.addf %{{.+}}, %[[PSS]] : f64
//       CHECK:     linalg.yield %[[ACC]] : f64
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.*}}} ins(%[[SUM]] : tensor<?x?xf64>) outs(%[[C]] : tensor<?x?xf32>)
//       CHECK:     arith.truncf %{{.+}} : f64 to f32
//       CHECK:   return %[[R]]
func.func @contraction_mixed_dynamic(%a: tensor<?x?xf4E2M1FN>, %b: tensor<?x?xf8E5M2>,
                                     %sa: tensor<?x?xf8E8M0FNU>, %sb: tensor<?x?xf8E8M0FNU>,
                                     %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E5M2>,
                            tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// mx.gather_row_tiles -> a generic reading each result row's source row
// (tile_groups[row / 16, 1] + row % 16) where row % 16 < the tile's count
// and the row is inside the source, else zero (E8M0 byte 0, 2^-127).
// CHECK-LABEL: func.func @gather_row_tiles
//  CHECK-SAME:   (%[[S:[^:]+]]: tensor<?x4xf8E8M0FNU>, %[[T:[^:]+]]: tensor<?x3xi32>)
//       CHECK:   %[[ZERO:.+]] = arith.constant 5.877470e-39 : f8E8M0FNU
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<?x4xf8E8M0FNU>)
//       CHECK:     %[[ROW:.+]] = linalg.index 0 : index
//       CHECK:     %[[COL:.+]] = linalg.index 1 : index
//       CHECK:     %[[TILE:.+]] = arith.divui %[[ROW]], %{{.+}} : index
//       CHECK:     tensor.extract %[[T]][%[[TILE]], %{{.+}}] : tensor<?x3xi32>
//       CHECK:     %[[V:.+]] = tensor.extract %[[S]][%{{.+}}, %[[COL]]] : tensor<?x4xf8E8M0FNU>
//       CHECK:     %[[SEL:.+]] = arith.select %{{.+}}, %[[V]], %[[ZERO]] : f8E8M0FNU
//       CHECK:     linalg.yield %[[SEL]]
func.func @gather_row_tiles(%s: tensor<?x4xf8E8M0FNU>, %t: tensor<?x3xi32>) -> tensor<?x4xf8E8M0FNU> {
  %g = mx.gather_row_tiles %s[%t] tile_rows = 16 : tensor<?x4xf8E8M0FNU>, tensor<?x3xi32> -> tensor<?x4xf8E8M0FNU>
  return %g : tensor<?x4xf8E8M0FNU>
}

// -----

// With undefined_empty_tiles the rows of a tile whose count is 0 keep the
// generic's (undefined) destination element.
// CHECK-LABEL: func.func @gather_row_tiles_undefined_empty_tiles
//  CHECK-SAME:   (%[[S:[^:]+]]: tensor<?x4xf8E8M0FNU>, %[[T:[^:]+]]: tensor<?x3xi32>)
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<?x4xf8E8M0FNU>)
//  CHECK-NEXT:   ^bb0(%[[OUT:.+]]: f8E8M0FNU):
//       CHECK:     %[[SEL:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : f8E8M0FNU
//       CHECK:     %[[TILE:.+]] = arith.divui %{{.+}}, %{{.+}} : index
//       CHECK:     %[[CNT:.+]] = tensor.extract %[[T]][%[[TILE]], %{{.+}}] : tensor<?x3xi32>
//       CHECK:     %[[CI:.+]] = arith.index_cast %[[CNT]] : i32 to index
//       CHECK:     %[[HAS:.+]] = arith.cmpi sgt, %[[CI]], %{{.+}} : index
//       CHECK:     %[[KEPT:.+]] = arith.select %[[HAS]], %[[SEL]], %[[OUT]] : f8E8M0FNU
//       CHECK:     linalg.yield %[[KEPT]]
func.func @gather_row_tiles_undefined_empty_tiles(%s: tensor<?x4xf8E8M0FNU>, %t: tensor<?x3xi32>) -> tensor<?x4xf8E8M0FNU> {
  %g = mx.gather_row_tiles %s[%t] tile_rows = 16 undefined_empty_tiles : tensor<?x4xf8E8M0FNU>, tensor<?x3xi32> -> tensor<?x4xf8E8M0FNU>
  return %g : tensor<?x4xf8E8M0FNU>
}

// -----

// mx.gather_rows -> a generic reading row ids[i] / divisor, or zero.
// CHECK-LABEL: func.func @gather_rows
//  CHECK-SAME:   (%[[S:[^:]+]]: tensor<10x64xf8E4M3FN>, %[[IDS:[^:]+]]: tensor<32xi32>)
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<32x64xf8E4M3FN>)
//       CHECK:     %[[ROW:.+]] = linalg.index 0 : index
//       CHECK:     %[[ID32:.+]] = tensor.extract %[[IDS]][%[[ROW]]] : tensor<32xi32>
//       CHECK:     %[[ID:.+]] = arith.index_cast %[[ID32]] : i32 to index
//       CHECK:     arith.divsi %[[ID]], %{{.+}} : index
//       CHECK:     tensor.extract %[[S]]
//       CHECK:     arith.select
func.func @gather_rows(%s: tensor<10x64xf8E4M3FN>, %ids: tensor<32xi32>) -> tensor<32x64xf8E4M3FN> {
  %g = mx.gather_rows %s[%ids] divisor = 4 : tensor<10x64xf8E4M3FN>, tensor<32xi32> -> tensor<32x64xf8E4M3FN>
  return %g : tensor<32x64xf8E4M3FN>
}
