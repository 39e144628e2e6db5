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
