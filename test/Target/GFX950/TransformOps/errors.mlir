// RUN: mx-opt %s --split-input-file --transform-interpreter -verify-diagnostics

// A payload op of the wrong kind is a silenceable failure naming both.
func.func @not_a_gemm(%x: memref<4xf32>) {
  // expected-note @below {{payload op}}
  memref.dealloc %x : memref<4xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["memref.dealloc"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected 'mx.tiled_scaled_mma' payload, got 'memref.dealloc'}}
    %launch = transform.mx.gfx950.lower_tiled_mma %op
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A lowering that reports an error is a definite failure: an op still on
// tensors.
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @tensors(%a: tensor<3x4x2x2x2x4x16x16xi8>, %b: tensor<5x4x2x2x4x16x16xi8>,
                   %sa: tensor<3x4x2x4x16x2x2xi8>, %sb: tensor<5x4x4x16x2x2xi8>,
                   %c: tensor<3x5x2x2x2x4x16x4xf32>) -> tensor<3x5x2x2x2x4x16x4xf32> {
  // expected-error @below {{'mx.tiled_scaled_mma' op must be bufferized before the gfx950 lowering (it is on tensors)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<3x4x2x2x2x4x16x16xi8>, tensor<5x4x2x2x4x16x16xi8>,
                                                 tensor<3x4x2x4x16x2x2xi8>, tensor<5x4x4x16x2x2xi8>)
      outs(%c : tensor<3x5x2x2x2x4x16x4xf32>) layout = #layout -> tensor<3x5x2x2x2x4x16x4xf32>
  return %r : tensor<3x5x2x2x2x4x16x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mma = transform.structured.match ops{["mx.tiled_scaled_mma"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the lowering failed (see the errors above)}}
    %launch = transform.mx.gfx950.lower_tiled_mma %mma
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
