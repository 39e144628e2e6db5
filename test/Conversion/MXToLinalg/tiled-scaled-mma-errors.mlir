// RUN: mx-opt %s --split-input-file --convert-mx-to-linalg -verify-diagnostics
// RUN: not mx-opt %s --split-input-file --mx-cpu-pipeline -o /dev/null 2>&1 | FileCheck %s

// The host lowering of mx.tiled_scaled_mma needs the MX element types: on
// the bytes of mx-pack-to-bytes (i8 operands, legal for the op) it is an
// error (issue 20: the CPU pipeline used to crash on a float-semantics query
// of the i8 scales).

// CHECK: error: 'mx.tiled_scaled_mma' op lhs holds 'i8' (packed bytes)
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f6E2M3FN, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @packed_bytes(%a: tensor<4x2x4x16x16xi8>, %b: tensor<2x2x4x16x24xi8>,
                        %sa: tensor<4x2x4x16xi8>, %sb: tensor<2x2x4x16xi8>,
                        %c: tensor<4x2x4x16x4xf32>) -> tensor<4x2x4x16x4xf32> {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs holds 'i8' (packed bytes): the host lowering needs the layout's MX element types (run it before mx-pack-to-bytes)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb
      : tensor<4x2x4x16x16xi8>, tensor<2x2x4x16x24xi8>,
        tensor<4x2x4x16xi8>, tensor<2x2x4x16xi8>)
      outs(%c : tensor<4x2x4x16x4xf32>) layout = #layout -> tensor<4x2x4x16x4xf32>
  return %r : tensor<4x2x4x16x4xf32>
}

// -----

// Only the scales packed.
// CHECK: error: 'mx.tiled_scaled_mma' op lhs_scales holds 'i8' (packed bytes)
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @packed_scales(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf4E2M1FN>,
                         %sa: tensor<4x2x4x16xi8>, %sb: tensor<2x2x4x16xi8>,
                         %c: tensor<4x2x4x16x4xf32>) -> tensor<4x2x4x16x4xf32> {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs_scales holds 'i8' (packed bytes)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb
      : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>,
        tensor<4x2x4x16xi8>, tensor<2x2x4x16xi8>)
      outs(%c : tensor<4x2x4x16x4xf32>) layout = #layout -> tensor<4x2x4x16x4xf32>
  return %r : tensor<4x2x4x16x4xf32>
}
