// RUN: mx-opt %s --split-input-file --mx-set-encodings \
// RUN:   --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" \
// RUN:   --mx-fuse-quantize-relayouts | FileCheck %s

// A quantize that feeds the GEMM writes its elements and scales in the
// operand layouts the resolver picked: the maps are the pack (outer tile
// index, inner index), expand_shape and transpose of the materialized
// relayout composed, the chain is gone, and the scales keep the pack's
// padding byte 0x7F.
// CHECK-DAG: #[[EMAP:.+]] = affine_map<(d0, d1) -> (d0 floordiv 128, d1 floordiv 256, (d0 mod 128) floordiv 64, ((d0 mod 128) floordiv 16) mod 4, (d1 mod 256) floordiv 128, ((d1 mod 256) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
// CHECK-DAG: #[[SMAP:.+]] = affine_map<(d0, d1) -> (d0 floordiv 128, d1 floordiv 8, (d0 mod 128) floordiv 64, d1 mod 4, d0 mod 16, ((d0 mod 128) floordiv 16) mod 4, (d1 mod 8) floordiv 4)>
// CHECK-LABEL: func.func @fused
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<128x512xbf16>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<1x2x2x4x2x4x16x32xf4E2M1FN>
//       CHECK:   %[[S:.+]] = tensor.empty() : tensor<1x2x2x4x16x4x2xf8E8M0FNU>
//       CHECK:   %[[Q:.+]]:2 = mx.quantize_into %[[A]] axis(1) scale(even) rounding(ties_away) : tensor<128x512xbf16> -> f4E2M1FN
//  CHECK-SAME:     elements(%[[E]] : tensor<1x2x2x4x2x4x16x32xf4E2M1FN>) maps [#[[EMAP]]]
//  CHECK-SAME:     scales(%[[S]] : tensor<1x2x2x4x16x4x2xf8E8M0FNU>) maps [#[[SMAP]]] padding [127]
//   CHECK-NOT:   mx.quantize
//       CHECK:   mx.tiled_scaled_mma ins(%[[Q]]#0, %{{.+}}, %[[Q]]#1,
func.func @fused(%a: tensor<128x512xbf16>, %b: tensor<96x512xf4E2M1FN>,
                 %sb: tensor<96x16xf8E8M0FNU>, %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                             tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}

// -----

// Also returned: one more destination in the plain layout (identity maps),
// written by the same op; the plain results are what the function returns.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @fused_and_returned
//       CHECK:   %[[Q:.+]]:4 = mx.quantize_into
//  CHECK-SAME:     elements(%{{.+}}, %{{.+}} : tensor<1x2x2x4x2x4x16x32xf4E2M1FN>, tensor<128x512xf4E2M1FN>) maps [#{{[a-z0-9]+}}, #[[ID]]]
//  CHECK-SAME:     scales(%{{.+}}, %{{.+}} : tensor<1x2x2x4x16x4x2xf8E8M0FNU>, tensor<128x16xf8E8M0FNU>) maps [#{{[a-z0-9]+}}, #[[ID]]] padding [127, 127]
//       CHECK:   return %{{.+}}, %[[Q]]#1, %[[Q]]#3
func.func @fused_and_returned(%a: tensor<128x512xbf16>, %b: tensor<96x512xf4E2M1FN>,
                              %sb: tensor<96x16xf8E8M0FNU>, %c: tensor<128x96xf32>)
    -> (tensor<128x96xf32>, tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                             tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r, %qa, %sa : tensor<128x96xf32>, tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
}

// -----

// A quantize with no relayout: plain destinations only.
// CHECK-LABEL: func.func @plain
//       CHECK:   mx.quantize_into %{{.+}} axis(0) scale(floor) rounding(nearest_even) : tensor<64x8xf32> -> f8E4M3FN
//  CHECK-SAME:     elements(%{{.+}} : tensor<64x8xf8E4M3FN>) maps [#{{[a-z0-9]+}}]
//  CHECK-SAME:     scales(%{{.+}} : tensor<2x8xf8E8M0FNU>) maps [#{{[a-z0-9]+}}] padding [127]
func.func @plain(%x: tensor<64x8xf32>) -> (tensor<64x8xf8E4M3FN>, tensor<2x8xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<64x8xf32> -> tensor<64x8xf8E4M3FN>, tensor<2x8xf8E8M0FNU>
  return %e, %s : tensor<64x8xf8E4M3FN>, tensor<2x8xf8E8M0FNU>
}

// -----

// The tokens of a routed GEMM, quantized then gathered by the sorted ids
// (mx.gather_rows of the elements and of the scales, same ids and divisor
// top_k): the quantize writes the gathered rows into A's tiles itself, and
// the gathers disappear with the relayout chains.
// CHECK-DAG: #[[GEMAP:.+]] = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
// CHECK-DAG: #[[GSMAP:.+]] = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>
// CHECK-LABEL: func.func @gathered
//  CHECK-SAME:   (%[[X:[^:]+]]: tensor<10x128xbf16>, %{{[^:]+}}: tensor<4x24x128xf4E2M1FN>, %{{[^:]+}}: tensor<4x24x4xf8E8M0FNU>, %[[IDS:[^:]+]]: tensor<64xi32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<4x1x4x4x16x32xf4E2M1FN>
//       CHECK:   %[[S:.+]] = tensor.empty() : tensor<4x1x4x16x4xf8E8M0FNU>
//       CHECK:   %[[Q:.+]]:2 = mx.quantize_into %[[X]] gather(%[[IDS]] : tensor<64xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even) : tensor<10x128xbf16> -> f4E2M1FN
//  CHECK-SAME:     elements(%[[E]] : tensor<4x1x4x4x16x32xf4E2M1FN>) maps [#[[GEMAP]]]
//  CHECK-SAME:     scales(%[[S]] : tensor<4x1x4x16x4xf8E8M0FNU>) maps [#[[GSMAP]]] padding [127]
//   CHECK-NOT:   mx.gather_rows
//       CHECK:   mx.tiled_scaled_mma ins(%[[Q]]#0, %{{.+}}, %[[Q]]#1, %{{.+}}) tile_groups({{.+}}) row_ids(%[[IDS]]
func.func @gathered(%x: tensor<10x128xbf16>, %w: tensor<4x24x128xf4E2M1FN>,
                    %sw: tensor<4x24x4xf8E8M0FNU>, %ids: tensor<64xi32>,
                    %experts: tensor<4xi32>, %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %a, %sa = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<10x128xbf16> -> tensor<10x128xf4E2M1FN>, tensor<10x4xf8E8M0FNU>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// -----

// The elements and the scales gathered by different ids: not the same rows,
// so the gathers stay (the quantize writes the plain layout).
// CHECK-LABEL: func.func @gathered_other_ids
//       CHECK:   %[[Q:.+]]:2 = mx.quantize_into %{{[^ ]+}} axis(1)
//       CHECK:   mx.gather_rows %[[Q]]#0
//       CHECK:   mx.gather_rows %[[Q]]#1
func.func @gathered_other_ids(%x: tensor<10x128xbf16>, %ids: tensor<64xi32>, %ids2: tensor<64xi32>)
    -> (tensor<64x128xf4E2M1FN>, tensor<64x4xf8E8M0FNU>) {
  %a, %sa = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<10x128xbf16> -> tensor<10x128xf4E2M1FN>, tensor<10x4xf8E8M0FNU>
  %ga = mx.gather_rows %a[%ids] divisor = 2 : tensor<10x128xf4E2M1FN>, tensor<64xi32> -> tensor<64x128xf4E2M1FN>
  %gs = mx.gather_rows %sa[%ids2] divisor = 2 : tensor<10x4xf8E8M0FNU>, tensor<64xi32> -> tensor<64x4xf8E8M0FNU>
  return %ga, %gs : tensor<64x128xf4E2M1FN>, tensor<64x4xf8E8M0FNU>
}
