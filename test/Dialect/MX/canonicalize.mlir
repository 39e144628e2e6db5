// RUN: mx-opt %s --canonicalize --split-input-file | FileCheck %s

// mx.tiled_scaled_mma whose accumulator is a +0.0 fill starts from zero
// (zero_acc) and takes the fill's destination: no fill, no accumulator read.

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>

// CHECK-LABEL: func.func @fill_zero
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<4x3x4x16x4xf32>
//   CHECK-NOT:   linalg.fill
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[E]] : tensor<4x3x4x16x4xf32>) layout = #{{.+}} zero_acc
func.func @fill_zero(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                     %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>)
    -> tensor<4x3x4x16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3x4x16x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3x4x16x4xf32>) -> tensor<4x3x4x16x4xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #layout -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// -----

// The relayout of a fill, as mx-fuse-relayouts leaves it: a generic without
// inputs that yields +0.0.
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @generic_zero
//   CHECK-NOT:   linalg.generic
//       CHECK:   mx.tiled_scaled_mma {{.*}} zero_acc
func.func @generic_zero(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                        %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>)
    -> tensor<4x3x4x16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3x4x16x4xf32>
  %c = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<4x3x4x16x4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  } -> tensor<4x3x4x16x4xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #layout -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// -----

// -0.0 and other values are accumulated from as given.
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @fill_other
//       CHECK:   %[[N:.+]] = linalg.fill ins(%{{.+}} : f32)
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[N]] : {{.*}}) layout = #{{[^ ]+}} -> 
//       CHECK:   %[[O:.+]] = linalg.fill ins(%{{.+}} : f32)
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[O]] : {{.*}}) layout = #{{[^ ]+}} -> 
func.func @fill_other(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                      %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>)
    -> (tensor<4x3x4x16x4xf32>, tensor<4x3x4x16x4xf32>) {
  %neg = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x3x4x16x4xf32>
  %n = linalg.fill ins(%neg : f32) outs(%e : tensor<4x3x4x16x4xf32>) -> tensor<4x3x4x16x4xf32>
  %r0 = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%n : tensor<4x3x4x16x4xf32>) layout = #layout -> tensor<4x3x4x16x4xf32>
  %o = linalg.fill ins(%one : f32) outs(%e : tensor<4x3x4x16x4xf32>) -> tensor<4x3x4x16x4xf32>
  %r1 = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%o : tensor<4x3x4x16x4xf32>) layout = #layout -> tensor<4x3x4x16x4xf32>
  return %r0, %r1 : tensor<4x3x4x16x4xf32>, tensor<4x3x4x16x4xf32>
}

// -----

// A grouped GEMM (tile_groups) whose accumulator is a +0.0 fill starts its
// tiles' rows from zero too, but keeps the fill as acc: the rows that no
// tile names keep its zeros.
// CHECK-LABEL: func.func @grouped_fill_zero
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   mx.tiled_scaled_mma {{.*}} tile_groups(%{{.+}} : tensor<8x3xi32>) outs(%[[FILL]] : tensor<40x48xf32>) layout = #{{.+}} zero_acc
func.func @grouped_fill_zero(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                             %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                             %tiles: tensor<8x3xi32>) -> tensor<40x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x48xf32>) -> tensor<40x48xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%tiles : tensor<8x3xi32>)
      outs(%c : tensor<40x48xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x48xf32>
  return %r : tensor<40x48xf32>
}

// -----

// A routed GEMM from zero whose result is read only at the rows its row ids
// name (whole-row slices, an elementwise generic, then a quantize gathering
// its rows by the same ids): the kernel writes every such row (+0.0 from a
// tile without rows), so the fill is dropped and acc is its destination.
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @routed_unread_fill
//  CHECK-SAME:     %[[EXPERTS:[a-z0-9]+]]: tensor<4xi32>, %[[IDS:[a-z0-9]+]]: tensor<128xi32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<40x128xf32>
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} row_ids(%[[IDS]] : tensor<128xi32>) outs(%[[E]] : tensor<40x128xf32>) {{.*}} zero_acc zero_empty_tiles
//       CHECK:   tensor.extract_slice %[[R]][0, 0] [40, 64] [1, 1]
//       CHECK:   mx.quantize_into %{{.+}} gather(%[[IDS]] : tensor<128xi32> divisor = 1)
func.func @routed_unread_fill(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x8x2x4x16x32xf4E2M1FN>,
                              %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x8x2x4x16xf8E8M0FNU>,
                              %experts: tensor<4xi32>, %ids: tensor<128xi32>) -> tensor<128x64xf4E2M1FN> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x128xf32>) -> tensor<40x128xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x8x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x8x2x4x16xf8E8M0FNU>)
      tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x128xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x128xf32>
  %gate = tensor.extract_slice %r[0, 0] [40, 64] [1, 1] : tensor<40x128xf32> to tensor<40x64xf32>
  %up = tensor.extract_slice %r[0, 64] [40, 64] [1, 1] : tensor<40x128xf32> to tensor<40x64xf32>
  %e1 = tensor.empty() : tensor<40x64xbf16>
  %act = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<40x64xf32>, tensor<40x64xf32>) outs(%e1 : tensor<40x64xbf16>) {
  ^bb0(%g: f32, %u: f32, %o: bf16):
    %p = arith.mulf %g, %u : f32
    %t = arith.truncf %p : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<40x64xbf16>
  %q0 = tensor.empty() : tensor<128x64xf4E2M1FN>
  %q = mx.quantize_into %act gather(%ids : tensor<128xi32> divisor = 1) axis(1) scale(even)
      rounding(nearest_even) : tensor<40x64xbf16> -> f4E2M1FN
      elements(%q0 : tensor<128x64xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<128x64xf4E2M1FN>
  return %q : tensor<128x64xf4E2M1FN>
}

// -----

// The fill stays where a reader may see rows that no id names: the result
// returned, read by a quantize gathering other ids, or gathering by
// ids / 2.
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @routed_fill_read
//       CHECK:   %[[FILL:.+]] = linalg.fill
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[FILL]] : tensor<40x64xf32>) {{.*}} zero_acc -> tensor<40x64xf32>
//       CHECK:   %[[FILL2:.+]] = linalg.fill
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[FILL2]] : tensor<40x64xf32>) {{.*}} zero_acc -> tensor<40x64xf32>
//       CHECK:   %[[FILL3:.+]] = linalg.fill
//       CHECK:   mx.tiled_scaled_mma {{.*}} outs(%[[FILL3]] : tensor<40x64xf32>) {{.*}} zero_acc -> tensor<40x64xf32>
func.func @routed_fill_read(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x4x2x4x16x32xf4E2M1FN>,
                            %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x4x2x4x16xf8E8M0FNU>,
                            %experts: tensor<4xi32>, %ids: tensor<128xi32>, %other: tensor<128xi32>)
    -> (tensor<40x64xf32>, tensor<128x64xf4E2M1FN>, tensor<128x64xf4E2M1FN>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x64xf32>) -> tensor<40x64xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x4x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x4x2x4x16xf8E8M0FNU>)
      tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x64xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x64xf32>
  %e2 = tensor.empty() : tensor<40x64xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40x64xf32>) -> tensor<40x64xf32>
  %r2 = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x4x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x4x2x4x16xf8E8M0FNU>)
      tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c2 : tensor<40x64xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x64xf32>
  %q0 = tensor.empty() : tensor<128x64xf4E2M1FN>
  %q = mx.quantize_into %r2 gather(%other : tensor<128xi32> divisor = 1) axis(1) scale(even)
      rounding(nearest_even) : tensor<40x64xf32> -> f4E2M1FN
      elements(%q0 : tensor<128x64xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<128x64xf4E2M1FN>
  %e3 = tensor.empty() : tensor<40x64xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<40x64xf32>) -> tensor<40x64xf32>
  %r3 = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x4x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x4x2x4x16xf8E8M0FNU>)
      tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c3 : tensor<40x64xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x64xf32>
  %q2 = mx.quantize_into %r3 gather(%ids : tensor<128xi32> divisor = 2) axis(1) scale(even)
      rounding(nearest_even) : tensor<40x64xf32> -> f4E2M1FN
      elements(%q0 : tensor<128x64xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<128x64xf4E2M1FN>
  return %r, %q, %q2 : tensor<40x64xf32>, tensor<128x64xf4E2M1FN>, tensor<128x64xf4E2M1FN>
}
