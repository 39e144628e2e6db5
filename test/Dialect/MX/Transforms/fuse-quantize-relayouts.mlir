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
