// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa intrinsics-m=16 intrinsics-n=4 subgroups-n=4" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 subgroups-n=4" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// The other accumulator source of the seed-layout files beside this one:
// every pair of element types from zero-filled accumulators with a bf16
// result (AITER's contract: the fill folds into the GEMM as zero_acc, the
// truncf is its epilogue), at the seed shape, on both intrinsics. Their
// K loops have 32 or 64 steps, so the register schedules of zero-filled
// accumulators apply (the AGPRs and the first K step peeled, and the
// unroll for fp4 A on 16x16x128): no kernel has scratch or spills.

// CHECK-LABEL: kernel zero_e2m1_e2m1_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m1_e2m1(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m1_e2m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m1_e2m3(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf6E2M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf6E2M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m1_e3m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m1_e3m2(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf6E3M2FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf6E3M2FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m1_e4m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m1_e4m3(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf8E4M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf8E4M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m1_e5m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m1_e5m2(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf8E5M2>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf8E5M2>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m3_e2m1_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m3_e2m1(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m3_e2m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m3_e2m3(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf6E2M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf6E2M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m3_e3m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m3_e3m2(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf6E3M2FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf6E3M2FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m3_e4m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m3_e4m3(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf8E4M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf8E4M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e2m3_e5m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e2m3_e5m2(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf8E5M2>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf8E5M2>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e3m2_e2m1_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e3m2_e2m1(%a: tensor<10000x16384xf6E3M2FN>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E3M2FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e3m2_e2m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e3m2_e2m3(%a: tensor<10000x16384xf6E3M2FN>, %b: tensor<16384x16384xf6E2M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E3M2FN>, tensor<16384x16384xf6E2M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e3m2_e3m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e3m2_e3m2(%a: tensor<10000x16384xf6E3M2FN>, %b: tensor<16384x16384xf6E3M2FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E3M2FN>, tensor<16384x16384xf6E3M2FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e3m2_e4m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e3m2_e4m3(%a: tensor<10000x16384xf6E3M2FN>, %b: tensor<16384x16384xf8E4M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E3M2FN>, tensor<16384x16384xf8E4M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e3m2_e5m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e3m2_e5m2(%a: tensor<10000x16384xf6E3M2FN>, %b: tensor<16384x16384xf8E5M2>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E3M2FN>, tensor<16384x16384xf8E5M2>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e4m3_e2m1_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e4m3_e2m1(%a: tensor<10000x16384xf8E4M3FN>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E4M3FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e4m3_e2m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e4m3_e2m3(%a: tensor<10000x16384xf8E4M3FN>, %b: tensor<16384x16384xf6E2M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E4M3FN>, tensor<16384x16384xf6E2M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e4m3_e3m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e4m3_e3m2(%a: tensor<10000x16384xf8E4M3FN>, %b: tensor<16384x16384xf6E3M2FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E4M3FN>, tensor<16384x16384xf6E3M2FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e4m3_e4m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e4m3_e4m3(%a: tensor<10000x16384xf8E4M3FN>, %b: tensor<16384x16384xf8E4M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E4M3FN>, tensor<16384x16384xf8E4M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e4m3_e5m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e4m3_e5m2(%a: tensor<10000x16384xf8E4M3FN>, %b: tensor<16384x16384xf8E5M2>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E4M3FN>, tensor<16384x16384xf8E5M2>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e5m2_e2m1_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e5m2_e2m1(%a: tensor<10000x16384xf8E5M2>, %b: tensor<16384x16384xf4E2M1FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E5M2>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e5m2_e2m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e5m2_e2m3(%a: tensor<10000x16384xf8E5M2>, %b: tensor<16384x16384xf6E2M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E5M2>, tensor<16384x16384xf6E2M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e5m2_e3m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e5m2_e3m2(%a: tensor<10000x16384xf8E5M2>, %b: tensor<16384x16384xf6E3M2FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E5M2>, tensor<16384x16384xf6E3M2FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e5m2_e4m3_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e5m2_e4m3(%a: tensor<10000x16384xf8E5M2>, %b: tensor<16384x16384xf8E4M3FN>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E5M2>, tensor<16384x16384xf8E4M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}

// CHECK-LABEL: kernel zero_e5m2_e5m2_mma0
//       CHECK:   scratch_bytes: 0
//  CHECK-NEXT:   vgpr_spills: 0
//  CHECK-NEXT:   sgpr_spills: 0
func.func @zero_e5m2_e5m2(%a: tensor<10000x16384xf8E5M2>, %b: tensor<16384x16384xf8E5M2>,
    %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>)
    -> tensor<10000x16384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10000x16384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E5M2>, tensor<16384x16384xf8E5M2>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  %t = arith.truncf %r : tensor<10000x16384xf32> to tensor<10000x16384xbf16>
  return %t : tensor<10000x16384xbf16>
}
