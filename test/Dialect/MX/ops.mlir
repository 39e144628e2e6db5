// RUN: mx-opt %s -verify-roundtrip | FileCheck %s
// RUN: mx-opt %s -mlir-print-op-generic | mx-opt | FileCheck %s

// CHECK-DAG: #[[MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func @quantize_rowwise
//  CHECK-SAME:   (%[[X:.+]]: tensor<64x256xbf16>)
//       CHECK:   %[[E:.+]], %[[S:.+]] = mx.quantize %[[X]] axis(1) scale(even) rounding(ties_away)
//  CHECK-SAME:     : tensor<64x256xbf16> -> tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
//       CHECK:   return %[[E]], %[[S]]
func.func @quantize_rowwise(%x: tensor<64x256xbf16>)
    -> (tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<64x256xbf16> -> tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
  return %e, %s : tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
}

// CHECK-LABEL: func.func @quantize_modes
//       CHECK:   mx.quantize %{{.+}} axis(0) scale(floor) rounding(nearest_even) : tensor<64x16xf32> -> tensor<64x16xf8E4M3FN>, tensor<2x16xf8E8M0FNU>
//       CHECK:   mx.quantize %{{.+}} axis(1) scale(ceil) rounding(nearest_even) : tensor<4x64xf16> -> tensor<4x64xf6E2M3FN>, tensor<4x2xf8E8M0FNU>
//       CHECK:   mx.quantize %{{.+}} axis(1) scale(rceil) rounding(ties_away) : tensor<4x32xf32> -> tensor<4x32xf6E3M2FN>, tensor<4x1xf8E8M0FNU>
//       CHECK:   mx.quantize %{{.+}} axis(2) scale(floor) rounding(nearest_even) : tensor<2x3x64xf32> -> tensor<2x3x64xf8E5M2>, tensor<2x3x2xf8E8M0FNU>
func.func @quantize_modes(%a: tensor<64x16xf32>, %b: tensor<4x64xf16>,
                          %c: tensor<4x32xf32>, %d: tensor<2x3x64xf32>) {
  %0:2 = mx.quantize %a axis(0) scale(floor) rounding(nearest_even)
      : tensor<64x16xf32> -> tensor<64x16xf8E4M3FN>, tensor<2x16xf8E8M0FNU>
  %1:2 = mx.quantize %b axis(1) scale(ceil) rounding(nearest_even)
      : tensor<4x64xf16> -> tensor<4x64xf6E2M3FN>, tensor<4x2xf8E8M0FNU>
  %2:2 = mx.quantize %c axis(1) scale(rceil) rounding(ties_away)
      : tensor<4x32xf32> -> tensor<4x32xf6E3M2FN>, tensor<4x1xf8E8M0FNU>
  %3:2 = mx.quantize %d axis(2) scale(floor) rounding(nearest_even)
      : tensor<2x3x64xf32> -> tensor<2x3x64xf8E5M2>, tensor<2x3x2xf8E8M0FNU>
  return
}

// Dynamic sizes are allowed; static parts are still checked.
// CHECK-LABEL: func.func @quantize_dynamic
//       CHECK:   mx.quantize %{{.+}} axis(1) scale(floor) rounding(nearest_even) : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
func.func @quantize_dynamic(%x: tensor<?x?xf32>)
    -> (tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<?x?xf32> -> tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
  return %e, %s : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>
}

// CHECK-LABEL: func.func @dequantize
//  CHECK-SAME:   (%[[E:.+]]: tensor<64x256xf4E2M1FN>, %[[S:.+]]: tensor<64x8xf8E8M0FNU>)
//       CHECK:   %[[R:.+]] = mx.dequantize %[[E]], %[[S]] axis(1) : tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xbf16>
//       CHECK:   return %[[R]]
func.func @dequantize(%e: tensor<64x256xf4E2M1FN>, %s: tensor<64x8xf8E8M0FNU>)
    -> tensor<64x256xbf16> {
  %r = mx.dequantize %e, %s axis(1)
      : tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU> -> tensor<64x256xbf16>
  return %r : tensor<64x256xbf16>
}

// CHECK-LABEL: func.func @contraction_nn
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<32x128xf4E2M1FN>, %[[B:[^:]+]]: tensor<128x16xf4E2M1FN>, %[[SA:[^:]+]]: tensor<32x4xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<4x16xf8E8M0FNU>, %[[C:[^:]+]]: tensor<32x16xf32>)
//       CHECK:   %[[R:.+]] = mx.scaled_contraction indexing_maps = [#[[MK]], #[[KN]], #[[MN]]]
//  CHECK-SAME:     ins(%[[A]], %[[B]], %[[SA]], %[[SB]] : tensor<32x128xf4E2M1FN>, tensor<128x16xf4E2M1FN>, tensor<32x4xf8E8M0FNU>, tensor<4x16xf8E8M0FNU>)
//  CHECK-SAME:     outs(%[[C]] : tensor<32x16xf32>) -> tensor<32x16xf32>
//       CHECK:   return %[[R]]
func.func @contraction_nn(%a: tensor<32x128xf4E2M1FN>, %b: tensor<128x16xf4E2M1FN>,
                          %sa: tensor<32x4xf8E8M0FNU>, %sb: tensor<4x16xf8E8M0FNU>,
                          %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x128xf4E2M1FN>, tensor<128x16xf4E2M1FN>,
                            tensor<32x4xf8E8M0FNU>, tensor<4x16xf8E8M0FNU>)
      outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// Mixed fp8 x fp4 in the NT (weights N x K) layout.
// CHECK-LABEL: func.func @contraction_nt_mixed
//       CHECK:   mx.scaled_contraction indexing_maps = [#[[MK]], #[[NK]], #[[MN]]]
//  CHECK-SAME:     tensor<16x64xf8E4M3FN>, tensor<48x64xf4E2M1FN>, tensor<16x2xf8E8M0FNU>, tensor<48x2xf8E8M0FNU>
func.func @contraction_nt_mixed(%a: tensor<16x64xf8E4M3FN>, %b: tensor<48x64xf4E2M1FN>,
                                %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<48x2xf8E8M0FNU>,
                                %c: tensor<16x48xf32>) -> tensor<16x48xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf8E4M3FN>, tensor<48x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<48x2xf8E8M0FNU>)
      outs(%c : tensor<16x48xf32>) -> tensor<16x48xf32>
  return %r : tensor<16x48xf32>
}

// Batched, with fp6 and e5m2 operands.
// CHECK-LABEL: func.func @contraction_batched
//       CHECK:   mx.scaled_contraction indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}]
//  CHECK-SAME:     tensor<4x16x96xf6E2M3FN>, tensor<4x96x8xf8E5M2>, tensor<4x16x3xf8E8M0FNU>, tensor<4x3x8xf8E8M0FNU>
//  CHECK-SAME:     outs(%{{.+}} : tensor<4x16x8xf32>)
func.func @contraction_batched(%a: tensor<4x16x96xf6E2M3FN>, %b: tensor<4x96x8xf8E5M2>,
                               %sa: tensor<4x16x3xf8E8M0FNU>, %sb: tensor<4x3x8xf8E8M0FNU>,
                               %c: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, k, n)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b, %sa, %sb : tensor<4x16x96xf6E2M3FN>, tensor<4x96x8xf8E5M2>,
                            tensor<4x16x3xf8E8M0FNU>, tensor<4x3x8xf8E8M0FNU>)
      outs(%c : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %r : tensor<4x16x8xf32>
}

// Dynamic M, N and K.
// CHECK-LABEL: func.func @contraction_dynamic
//       CHECK:   mx.scaled_contraction
//  CHECK-SAME:     tensor<?x?xf6E3M2FN>, tensor<?x?xf4E2M1FN>, tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>
//  CHECK-SAME:     outs(%{{.+}} : tensor<?x?xf32>) -> tensor<?x?xf32>
func.func @contraction_dynamic(%a: tensor<?x?xf6E3M2FN>, %b: tensor<?x?xf4E2M1FN>,
                               %sa: tensor<?x?xf8E8M0FNU>, %sb: tensor<?x?xf8E8M0FNU>,
                               %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x?xf6E3M2FN>, tensor<?x?xf4E2M1FN>,
                            tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @quantize_into
//       CHECK:   mx.quantize_into %{{.+}} axis(1) scale(even) rounding(ties_away) : tensor<32x128xbf16> -> f4E2M1FN
//  CHECK-SAME:     elements(%{{.+}}, %{{.+}} : tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>) maps [#{{[a-z0-9]+}}, #{{[a-z0-9]+}}]
//  CHECK-SAME:     scales(%{{.+}} : tensor<32x4xf8E8M0FNU>) maps [#{{[a-z0-9]+}}] padding [127]
//  CHECK-SAME:     -> tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>, tensor<32x4xf8E8M0FNU>
//       CHECK:   mx.quantize_into %{{.+}} axis(0) scale(rceil) rounding(nearest_even) : memref<64x8xf32> -> f8E4M3FN
//  CHECK-SAME:     elements(%{{.+}} : memref<64x8xi8>) maps [#{{[a-z0-9]+}}] scales() maps [] padding []
//   CHECK-NOT:     ->
func.func @quantize_into(%x: tensor<32x128xbf16>, %e0: tensor<32x128xf4E2M1FN>,
                         %t0: tensor<2x2x16x64xf4E2M1FN>, %s0: tensor<32x4xf8E8M0FNU>,
                         %y: memref<64x8xf32>, %b: memref<64x8xi8>)
    -> (tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>, tensor<32x4xf8E8M0FNU>) {
  %e, %t, %s = mx.quantize_into %x axis(1) scale(even) rounding(ties_away)
      : tensor<32x128xbf16> -> f4E2M1FN
      elements(%e0, %t0 : tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>)
        maps [affine_map<(m, k) -> (m, k)>,
              affine_map<(m, k) -> (m floordiv 16, k floordiv 64, m mod 16, k mod 64)>]
      scales(%s0 : tensor<32x4xf8E8M0FNU>) maps [affine_map<(m, kb) -> (m, kb)>] padding [127]
      -> tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>, tensor<32x4xf8E8M0FNU>
  mx.quantize_into %y axis(0) scale(rceil) rounding(nearest_even) : memref<64x8xf32> -> f8E4M3FN
      elements(%b : memref<64x8xi8>) maps [affine_map<(m, n) -> (m, n)>] scales() maps [] padding []
  return %e, %t, %s : tensor<32x128xf4E2M1FN>, tensor<2x2x16x64xf4E2M1FN>, tensor<32x4xf8E8M0FNU>
}

// Gathered by row ids: one logical row per id.
// CHECK-LABEL: func.func @quantize_into_gather
//       CHECK:   mx.quantize_into %{{.+}} gather(%{{.+}} : tensor<64xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even) : tensor<8x128xbf16> -> f4E2M1FN
//  CHECK-SAME:     elements(%{{.+}} : tensor<4x2x16x64xf4E2M1FN>)
//       CHECK:   mx.quantize_into %{{.+}} gather(%{{.+}} : memref<64xi32> divisor = 1) axis(1)
func.func @quantize_into_gather(%x: tensor<8x128xbf16>, %ids: tensor<64xi32>,
                                %t0: tensor<4x2x16x64xf4E2M1FN>, %s0: tensor<64x4xf8E8M0FNU>,
                                %y: memref<8x128xbf16>, %mids: memref<64xi32>,
                                %b: memref<64x64xi8>)
    -> (tensor<4x2x16x64xf4E2M1FN>, tensor<64x4xf8E8M0FNU>) {
  %t, %s = mx.quantize_into %x gather(%ids : tensor<64xi32> divisor = 2)
      axis(1) scale(even) rounding(nearest_even)
      : tensor<8x128xbf16> -> f4E2M1FN
      elements(%t0 : tensor<4x2x16x64xf4E2M1FN>)
        maps [affine_map<(m, k) -> (m floordiv 16, k floordiv 64, m mod 16, k mod 64)>]
      scales(%s0 : tensor<64x4xf8E8M0FNU>) maps [affine_map<(m, kb) -> (m, kb)>] padding [127]
      -> tensor<4x2x16x64xf4E2M1FN>, tensor<64x4xf8E8M0FNU>
  mx.quantize_into %y gather(%mids : memref<64xi32> divisor = 1) axis(1) scale(even)
      rounding(nearest_even) : memref<8x128xbf16> -> f4E2M1FN
      elements(%b : memref<64x64xi8>) maps [affine_map<(m, k) -> (m, k)>] scales() maps [] padding []
  return %t, %s : tensor<4x2x16x64xf4E2M1FN>, tensor<64x4xf8E8M0FNU>
}

// A tiled extent past int64 (2^62 tiles of 4 rows) is unknown, so the
// destination is taken to cover the input. The product once wrapped to 0 and
// the op was rejected as covering [0, 64] (found by the pass fuzzer under
// UBSan, which reports the overflow itself in the sanitizer suite).
// CHECK-LABEL: func.func @quantize_into_extent_overflow
//       CHECK:   mx.quantize_into %{{.+}} axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
//  CHECK-SAME:     elements(%{{.+}} : tensor<4611686018427387904x64xf4E2M1FN>)
func.func @quantize_into_extent_overflow(%x: tensor<4x64xbf16>,
    %e0: tensor<4611686018427387904x64xf4E2M1FN>)
    -> tensor<4611686018427387904x64xf4E2M1FN> {
  %e = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e0 : tensor<4611686018427387904x64xf4E2M1FN>)
        maps [affine_map<(m, k) -> (m floordiv 4, k)>] scales() maps [] padding []
      -> tensor<4611686018427387904x64xf4E2M1FN>
  return %e : tensor<4611686018427387904x64xf4E2M1FN>
}

// CHECK-LABEL: func.func @grouped_scaled_contraction
//  CHECK-SAME:   (%[[A:.+]]: tensor<?x256xf4E2M1FN>, %[[B:.+]]: tensor<4x128x256xf8E4M3FN>, %[[SA:.+]]: tensor<?x8xf8E8M0FNU>, %[[SB:.+]]: tensor<4x128x8xf8E8M0FNU>, %[[OFF:.+]]: tensor<5xi32>, %[[ACC:.+]]: tensor<?x128xf32>)
//       CHECK:   %[[R:.+]] = mx.grouped_scaled_contraction ins(%[[A]], %[[B]], %[[SA]], %[[SB]] : tensor<?x256xf4E2M1FN>, tensor<4x128x256xf8E4M3FN>, tensor<?x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
//  CHECK-SAME:     offsets(%[[OFF]] : tensor<5xi32>) outs(%[[ACC]] : tensor<?x128xf32>) -> tensor<?x128xf32>
//       CHECK:   return %[[R]]
func.func @grouped_scaled_contraction(
    %a: tensor<?x256xf4E2M1FN>, %b: tensor<4x128x256xf8E4M3FN>,
    %sa: tensor<?x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>,
    %offsets: tensor<5xi32>, %acc: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<?x256xf4E2M1FN>, tensor<4x128x256xf8E4M3FN>,
                            tensor<?x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>)
      outs(%acc : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}

// The sorted-token-ids form: 8 tokens, top 2, 4 experts, 4 blocks of 16.
// CHECK-LABEL: func.func @routed_scaled_contraction
//       CHECK:   %[[R:.+]] = mx.routed_scaled_contraction top_k = 2 ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
//  CHECK-SAME:     routing(%{{.+}}, %{{.+}} : tensor<64xi32>, tensor<4xi32>)
//  CHECK-SAME:     outs(%{{.+}} : tensor<16x128xf32>) -> tensor<16x128xf32>
func.func @routed_scaled_contraction(
    %a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>,
    %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>,
    %ids: tensor<64xi32>, %experts: tensor<4xi32>,
    %acc: tensor<16x128xf32>) -> tensor<16x128xf32> {
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>,
                            tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// Every routed row named: a unit attribute, printed in the attribute
// dictionary.
// CHECK-LABEL: func.func @routed_all_rows_named
//       CHECK:   mx.routed_scaled_contraction top_k = 2
//  CHECK-SAME:     outs(%{{.+}} : tensor<16x128xf32>) {all_rows_named} -> tensor<16x128xf32>
func.func @routed_all_rows_named(
    %a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>,
    %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>,
    %ids: tensor<64xi32>, %experts: tensor<4xi32>,
    %acc: tensor<16x128xf32>) -> tensor<16x128xf32> {
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>,
                            tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<16x128xf32>) {all_rows_named} -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// CHECK-LABEL: func.func @gather_rows
//       CHECK:   mx.gather_rows %{{.+}}[%{{.+}}] divisor = 2 : tensor<8x256xf4E2M1FN>, tensor<64xi32> -> tensor<64x256xf4E2M1FN>
func.func @gather_rows(%a: tensor<8x256xf4E2M1FN>, %ids: tensor<64xi32>) -> tensor<64x256xf4E2M1FN> {
  %g = mx.gather_rows %a[%ids] divisor = 2
      : tensor<8x256xf4E2M1FN>, tensor<64xi32> -> tensor<64x256xf4E2M1FN>
  return %g : tensor<64x256xf4E2M1FN>
}
