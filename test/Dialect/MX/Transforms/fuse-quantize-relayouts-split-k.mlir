// RUN: mx-opt %s --mx-set-encodings \
// RUN:   --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" \
// RUN:   --mx-split-k="target=#mx_gfx950.target<split_k=2>" \
// RUN:   --mx-fuse-quantize-relayouts | FileCheck %s

// Split-K appends an expand_shape (K tiles -> [split, K tiles per split])
// and a transpose (split outermost) to the operand's relayout chain; the
// quantize writes that final layout. The outer K tile index, split again,
// reads as one division of K: d1 floordiv 512 = (d1 floordiv 256) floordiv
// 2 for the split, (d1 floordiv 256) mod 2 for the tile within it.
// CHECK-DAG: #[[EMAP:.+]] = affine_map<(d0, d1) -> (d1 floordiv 512, d0 floordiv 128, (d1 floordiv 256) mod 2, (d0 mod 128) floordiv 64, ((d0 mod 128) floordiv 16) mod 4, (d1 mod 256) floordiv 128, ((d1 mod 256) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
// CHECK-DAG: #[[SMAP:.+]] = affine_map<(d0, d1) -> (d1 floordiv 16, d0 floordiv 128, (d1 floordiv 8) mod 2, (d0 mod 128) floordiv 64, d1 mod 4, d0 mod 16, ((d0 mod 128) floordiv 16) mod 4, (d1 mod 8) floordiv 4)>
// CHECK-LABEL: func.func @fused_split
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<128x1024xbf16>
//       CHECK:   %[[Q:.+]]:2 = mx.quantize_into %[[A]] axis(1) scale(even) rounding(ties_away) : tensor<128x1024xbf16> -> f4E2M1FN
//  CHECK-SAME:     elements(%{{.+}} : tensor<2x1x2x2x4x2x4x16x32xf4E2M1FN>) maps [#[[EMAP]]]
//  CHECK-SAME:     scales(%{{.+}} : tensor<2x1x2x2x4x16x4x2xf8E8M0FNU>) maps [#[[SMAP]]] padding [127]
//       CHECK:   mx.tiled_scaled_mma ins(%[[Q]]#0, %{{.+}}, %[[Q]]#1,
func.func @fused_split(%a: tensor<128x1024xbf16>, %b: tensor<96x1024xf4E2M1FN>,
                       %sb: tensor<96x32xf8E8M0FNU>, %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x1024xbf16> -> tensor<128x1024xf4E2M1FN>, tensor<128x32xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<128x1024xf4E2M1FN>, tensor<96x1024xf4E2M1FN>,
                             tensor<128x32xf8E8M0FNU>, tensor<96x32xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}
