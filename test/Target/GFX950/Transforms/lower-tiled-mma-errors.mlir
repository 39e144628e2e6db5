// RUN: mx-opt %s --mx-gfx950-lower-tiled-mma -split-input-file -verify-diagnostics

// mx-gfx950-lower-tiled-mma refuses what it cannot launch: tensors, layouts
// no ukernel serves (with a note giving each ukernel's reason), views that are
// not plain row-major buffers, and MX data that is not stored as bytes.

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

// -----

// The ukernels read the B scales with their K unroll interleaved.
#other = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f6E2M3FN, rhs_type = f6E2M3FN, intrinsics_m = 4, intrinsics_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales]>
func.func @interleave(%a: memref<1x1x4x4x16x24xi8>, %b: memref<1x1x4x4x16x24xi8>,
                      %sa: memref<1x1x4x16x4xi8>, %sb: memref<1x1x4x16x4xi8>,
                      %c: memref<1x1x4x4x4x16x4xf32>) {
  // expected-error @below {{'mx.tiled_scaled_mma' op no gfx950 ukernel serves the layout #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f6E2M3FN, rhs_type = f6E2M3FN, intrinsics_m = 4, intrinsics_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales]>; pick another layout (mx.layout or mx-materialize-encodings options)}}
  // expected-note-re @below {{ukernels rejected it:{{.*}}mx_uk_scaled_mma: interleave_k differs}}
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<1x1x4x4x16x24xi8>, memref<1x1x4x4x16x24xi8>,
                                             memref<1x1x4x16x4xi8>, memref<1x1x4x16x4xi8>)
      outs(%c : memref<1x1x4x4x4x16x4xf32>) layout = #other
  return
}

// -----

// One intrinsic per tile: a lane's scale bytes (intrinsics_m * intrinsics_k
// = 1) are not the 4-byte groups the fp4 ukernel reads.
#one = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @scale_groups(%a: memref<4x2x4x16x16xi8>, %b: memref<2x2x4x16x16xi8>,
                        %sa: memref<4x2x4x16xi8>, %sb: memref<2x2x4x16xi8>,
                        %c: memref<4x2x4x16x4xf32>) {
  // expected-error @below {{no gfx950 ukernel serves the layout}}
  // expected-note-re @below {{ukernels rejected it:{{.*}}mx_uk_scaled_mma: intrinsics_m/n * intrinsics_k must be multiples of 4}}
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x2x4x16x16xi8>, memref<2x2x4x16x16xi8>,
                                             memref<4x2x4x16xi8>, memref<2x2x4x16xi8>)
      outs(%c : memref<4x2x4x16x4xf32>) layout = #one
  return
}

// -----

// A view with a gap between the M tiles (a subview of a larger buffer).
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @strided(%a: memref<3x4x2x2x2x4x16x16xi8, strided<[65536, 8192, 4096, 2048, 1024, 256, 16, 1]>>,
                   %b: memref<5x4x2x2x4x16x16xi8>, %sa: memref<3x4x2x4x16x2x2xi8>,
                   %sb: memref<5x4x4x16x2x2xi8>, %c: memref<3x5x2x2x2x4x16x4xf32>) {
  // expected-error @below {{'mx.tiled_scaled_mma' op lhs must have an identity layout to be lowered to a gfx950 ukernel call, got 'memref<3x4x2x2x2x4x16x16xi8, strided<[65536, 8192, 4096, 2048, 1024, 256, 16, 1]>>'}}
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<3x4x2x2x2x4x16x16xi8, strided<[65536, 8192, 4096, 2048, 1024, 256, 16, 1]>>,
                                             memref<5x4x2x2x4x16x16xi8>, memref<3x4x2x4x16x2x2xi8>, memref<5x4x4x16x2x2xi8>)
      outs(%c : memref<3x5x2x2x2x4x16x4xf32>) layout = #layout
  return
}

// -----

// fp4 data given as f4E2M1FN memrefs (one byte per element in LLVM).
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @typed_data(%a: memref<3x4x2x2x2x4x16x32xf4E2M1FN>, %b: memref<5x4x2x2x4x16x16xi8>,
                      %sa: memref<3x4x2x4x16x2x2xi8>, %sb: memref<5x4x4x16x2x2xi8>,
                      %c: memref<3x5x2x2x2x4x16x4xf32>) {
  // expected-error @below {{'mx.tiled_scaled_mma' op lhs holds 'f4E2M1FN'; run mx-pack-to-bytes before bufferization so the ukernel gets (packed) bytes}}
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<3x4x2x2x2x4x16x32xf4E2M1FN>, memref<5x4x2x2x4x16x16xi8>,
                                             memref<3x4x2x4x16x2x2xi8>, memref<5x4x4x16x2x2xi8>)
      outs(%c : memref<3x5x2x2x2x4x16x4xf32>) layout = #layout
  return
}

// -----

// Typed scales, too.
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @typed_scales(%a: memref<3x4x2x2x2x4x16x16xi8>, %b: memref<5x4x2x2x4x16x16xi8>,
                        %sa: memref<3x4x2x4x16x2x2xi8>, %sb: memref<5x4x4x16x2x2xf8E8M0FNU>,
                        %c: memref<3x5x2x2x2x4x16x4xf32>) {
  // expected-error @below {{'mx.tiled_scaled_mma' op rhs_scales holds 'f8E8M0FNU'; run mx-pack-to-bytes before bufferization so the ukernel gets (packed) bytes}}
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<3x4x2x2x2x4x16x16xi8>, memref<5x4x2x2x4x16x16xi8>,
                                             memref<3x4x2x4x16x2x2xi8>, memref<5x4x4x16x2x2xf8E8M0FNU>)
      outs(%c : memref<3x5x2x2x2x4x16x4xf32>) layout = #layout
  return
}
