// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa intrinsics-m=16 intrinsics-n=4 subgroups-n=4" --mx-gfx950-kernel-report -o /dev/null | FileCheck %s
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 subgroups-n=4" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=K32 --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// Code quality of the GEMM kernel for E2M3 activations against every
// weight type, at the seed shape 10000 x 16384 x 16384 and the seed layout
// (16 x 4 intrinsics per wave on 1 x 4 waves; the resolver picks intrinsics_k:
// 2 when both operands are fp4, else 1, so a K step is 128 bytes of the
// wider row): no scratch, no spills, LDS = two stages of the fragments in 1
// KiB chunks (one per fp4 fragment, two per fp6 or fp8 one) and of A's
// scales, under 30000
// bytes of code, and 16 x 4 x intrinsics_k MFMAs per wave and K step in the
// main loop, whose iterations run two K steps where B is fp6 or fp8 too (the
// register schedule's unroll for wide A x wide B).
// The same on 32x32x64 with 8 x 2 intrinsics per wave (intrinsics_k 4 when
// both operands are fp4, else 2): no scratch, no spills, 8 x 2 x
// intrinsics_k MFMAs per wave in the main loop.

// CHECK-LABEL: kernel e2m3_e2m1_mma0
//       CHECK:   lds_bytes: 100352
//  CHECK-NEXT:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
//       CHECK:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4})$}}
//       CHECK:   main_loop.mfma: 64
//  CHECK-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 64
//   K32-LABEL: kernel e2m3_e2m1_mma0
//         K32:   main_loop.mfma: 32
//    K32-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 32
func.func @e2m3_e2m1(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
    %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}

// CHECK-LABEL: kernel e2m3_e2m3_mma0
//       CHECK:   lds_bytes: 133120
//  CHECK-NEXT:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
//       CHECK:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4})$}}
//       CHECK:   main_loop.mfma: 128
//  CHECK-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 128
//   K32-LABEL: kernel e2m3_e2m3_mma0
//         K32:   main_loop.mfma: 32
//    K32-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 32
func.func @e2m3_e2m3(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf6E2M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
    %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf6E2M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}

// CHECK-LABEL: kernel e2m3_e3m2_mma0
//       CHECK:   lds_bytes: 133120
//  CHECK-NEXT:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
//       CHECK:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4})$}}
//       CHECK:   main_loop.mfma: 128
//  CHECK-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 128
//   K32-LABEL: kernel e2m3_e3m2_mma0
//         K32:   main_loop.mfma: 32
//    K32-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 32
func.func @e2m3_e3m2(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf6E3M2FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
    %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf6E3M2FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}

// CHECK-LABEL: kernel e2m3_e4m3_mma0
//       CHECK:   lds_bytes: 133120
//  CHECK-NEXT:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
//       CHECK:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4})$}}
//       CHECK:   main_loop.mfma: 128
//  CHECK-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 128
//   K32-LABEL: kernel e2m3_e4m3_mma0
//         K32:   main_loop.mfma: 32
//    K32-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 32
func.func @e2m3_e4m3(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf8E4M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
    %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf8E4M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}

// CHECK-LABEL: kernel e2m3_e5m2_mma0
//       CHECK:   lds_bytes: 133120
//  CHECK-NEXT:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
//       CHECK:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4})$}}
//       CHECK:   main_loop.mfma: 128
//  CHECK-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 128
//   K32-LABEL: kernel e2m3_e5m2_mma0
//         K32:   main_loop.mfma: 32
//    K32-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 32
func.func @e2m3_e5m2(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf8E5M2>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
    %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf8E5M2>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}
