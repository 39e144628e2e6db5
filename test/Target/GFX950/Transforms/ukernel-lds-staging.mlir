// RUN: mx-opt %s --split-input-file --mx-gfx950-lower-tiled-mma --canonicalize -verify-diagnostics | FileCheck %s

// The gfx950 ukernels stage the A and B tiles of a workgroup and A's scales
// through LDS, two K steps of them (double buffering):
// mx-gfx950-lower-tiled-mma gives each launch a workgroup attribution of
// 2 * (A + B bytes per K step), plus 2 * A's scale bytes per K step where
// that fits and leaves as many workgroups per CU (getUKernelLDSBytes), and
// passes it to the ukernel after the accumulator view. A layout whose staging does
// not fit the 160 KiB of LDS of a gfx950 workgroup is an error.

// The seed shape's layout: 1 x 4 waves of 16 x 4 x 2 fp4 intrinsics, 32 A
// and 32 B fragments of 1 KiB and 2 KiB of A's scales per K step: 2 x 66 KiB.
#seed = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @seed
//       CHECK:   gpu.launch
//  CHECK-SAME:     workgroup(%[[LDS:.+]] : memref<135168xi8, #gpu.address_space<workgroup>>)
//       CHECK:     %[[L:.+]] = memref.cast %[[LDS]] : memref<135168xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
//       CHECK:     call @mx_uk_scaled_mma(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[L]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
//       CHECK:   func.func private @mx_uk_scaled_mma(
//  CHECK-SAME:     memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
func.func @seed(%a: memref<2x3x16x2x4x16x16xi8>, %b: memref<4x3x4x4x2x4x16x16xi8>,
                %sa: memref<2x3x4x16x16x2xi8>, %sb: memref<4x3x4x4x16x4x2xi8>,
                %c: memref<2x4x4x16x4x4x16x4xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<2x3x16x2x4x16x16xi8>, memref<4x3x4x4x2x4x16x16xi8>,
                                             memref<2x3x4x16x16x2xi8>, memref<4x3x4x4x16x4x2xi8>)
      outs(%c : memref<2x4x4x16x4x4x16x4xf32>) layout = #seed
  return
}

// -----

// Mixed fp8 x fp4 on 2 x 2 waves of 4 x 4 x 2 intrinsics: 16 A fragments of
// 2 KiB, 16 B fragments of 1 KiB and 1 KiB of A's scales per K step: 2 x 49
// KiB.
#mixed = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, intrinsics_m = 4, intrinsics_n = 4, intrinsics_k = 2, subgroups_m = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @mixed
//       CHECK:   gpu.launch
//  CHECK-SAME:     workgroup(%{{.+}} : memref<100352xi8, #gpu.address_space<workgroup>>)
func.func @mixed(%a: memref<1x2x2x4x2x4x16x2x16xi8>, %b: memref<1x2x2x4x2x4x16x16xi8>,
                 %sa: memref<1x2x2x4x16x4x2xi8>, %sb: memref<1x2x2x4x16x4x2xi8>,
                 %c: memref<1x1x2x2x4x4x4x16x4xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<1x2x2x4x2x4x16x2x16xi8>, memref<1x2x2x4x2x4x16x16xi8>,
                                             memref<1x2x2x4x16x4x2xi8>, memref<1x2x2x4x16x4x2xi8>)
      outs(%c : memref<1x1x2x2x4x4x4x16x4xf32>) layout = #mixed
  return
}

// -----

// fp8 on 2 x 2 waves of 16 x 16 x 2 intrinsics: 64 + 64 fragments of 2 KiB
// per K step, 512 KiB double-buffered (no room for A's scales' ring).
#big = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, intrinsics_m = 16, intrinsics_n = 16, intrinsics_k = 2, subgroups_m = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @too_big(%a: memref<1x1x2x16x2x4x16x2x16xi8>, %b: memref<1x1x2x16x2x4x16x2x16xi8>,
                   %sa: memref<1x1x2x4x16x16x2xi8>, %sb: memref<1x1x2x4x16x16x2xi8>,
                   %c: memref<1x1x2x2x16x16x4x16x4xf32>) {
  // expected-error @below {{stages 262144 bytes of A and B per K step through LDS, double-buffered 524288 bytes: more than the 163840 bytes of LDS of a gfx950 workgroup; pick a smaller tile (intrinsics_m/n/k, subgroups_m/n)}}
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<1x1x2x16x2x4x16x2x16xi8>, memref<1x1x2x16x2x4x16x2x16xi8>,
                                             memref<1x1x2x4x16x16x2xi8>, memref<1x1x2x4x16x16x2xi8>)
      outs(%c : memref<1x1x2x2x16x16x4x16x4xf32>) layout = #big
  return
}
