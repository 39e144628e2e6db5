// RUN: mx-opt %s --transform-preload-library="transform-library-paths=%p/Inputs/lower-to-ukernel-schedule.mlir" --transform-interpreter > %t.transform
// RUN: mx-opt %s --pass-pipeline='builtin.module(mx-gfx950-lower-tiled-mma,func.func(mx-gfx950-lower-quantize{workgroup-size=128}),mx-gfx950-specialize-ukernels)' > %t.passes
// RUN: diff %t.passes %t.transform
// RUN: FileCheck %s < %t.transform

// transform.mx.gfx950.lower_tiled_mma, lower_quantize and
// specialize_ukernels call the functions the passes drive: the script gives
// the passes' IR exactly (diff): a launch of 128 threads for the quantize,
// a launch of 4 waves over the 3 x 5 output tiles whose ukernel call is
// specialized into straight-line scaled MFMAs.

// CHECK-LABEL: func.func @quantize_then_gemm
//       CHECK:   gpu.launch
//  CHECK-SAME:     threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c128
//   CHECK-NOT:   mx.quantize_into
//       CHECK:   gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c5{{.*}}, %{{.+}} = %c3
//   CHECK-NOT:   func.call @mx_uk
//       CHECK:   amdgpu.scaled_mfma
//   CHECK-NOT:   mx.tiled_scaled_mma
#fp4 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @quantize_then_gemm(%x: memref<64x16xbf16>, %e: memref<64x8xi8>, %s: memref<2x16xi8>,
               %a: memref<3x4x2x2x2x4x16x16xi8>, %b: memref<5x4x2x2x4x16x16xi8>,
               %sa: memref<3x4x2x4x16x2x2xi8>, %sb: memref<5x4x4x16x2x2xi8>,
               %c: memref<3x5x2x2x2x4x16x4xf32>) {
  mx.quantize_into %x axis(0) scale(floor) rounding(nearest_even) : memref<64x16xbf16> -> f4E2M1FN
      elements(%e : memref<64x8xi8>) maps [affine_map<(m, n) -> (m, n)>]
      scales(%s : memref<2x16xi8>) maps [affine_map<(m, n) -> (m, n)>] padding [127]
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<3x4x2x2x2x4x16x16xi8>, memref<5x4x2x2x4x16x16xi8>,
                                             memref<3x4x2x4x16x2x2xi8>, memref<5x4x4x16x2x2xi8>)
      outs(%c : memref<3x5x2x2x2x4x16x4xf32>) layout = #fp4
  return
}
