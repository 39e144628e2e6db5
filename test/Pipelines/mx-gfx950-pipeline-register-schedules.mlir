// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=gpu split-k=1" | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=gpu split-k=1 unroll-k=1 reserve-accumulator-agprs=never" | FileCheck %s --check-prefix=NEVER
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=gpu split-k=1 reserve-accumulator-agprs=always" | FileCheck %s --check-prefix=ALWAYS
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=isa split-k=1" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// RUN: not mx-opt %s -split-input-file --mx-gfx950-pipeline="reserve-accumulator-agprs=true" 2>&1 | FileCheck %s --check-prefix=BAD

// The register schedules of the ukernel (its mx.ukernel.register_schedules
// data, see ukernels/gfx950/mx_uk_scaled_mma.mlir) by default: the MXFP4
// GEMM with accumulators from memory (C += A x B) unrolls its K loop by 2
// and keeps its 256 accumulators in AGPRs ("amdgpu-agpr-alloc"); so does
// the same GEMM from zero-filled accumulators (it has 16 K steps or more:
// here 32), with the K loop's first step peeled (peel_first_k: its 128 MFMAs take the +0.0 start, the loop
// starts at step 1; without the peel LLVM spills). unroll-k=1 and
// reserve-accumulator-agprs=never turn the unroll and the AGPRs off (not
// the peel); reserve-accumulator-agprs=always asks for AGPRs in every GEMM
// kernel. Neither kernel has scratch or spills with the defaults.

// CHECK-LABEL: gpu.module @accumulate_mma0
//       CHECK:   gpu.func @accumulate_mma0({{.*}}) kernel attributes {{{.*}}passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]}
//       CHECK:     %[[TWO:.+]] = arith.constant 2 : index
//       CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[TWO]] {
// Row 0 runs K-half by K-half: the first four MFMAs take A's scale byte 0
// (K half 0) and B's of intrinsics 0-3 (bytes 0 and 2 of two groups), then
// K half 1; each accumulator's two MFMAs 4 apart.
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[0] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[2] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[0] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[2] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[1] * %{{[^ ]+}}) * (%{{[^ ]+}}[1] * %{{[^ ]+}})
//   NEVER-LABEL: gpu.module @accumulate_mma0
//     NEVER-NOT:   passthrough
//         NEVER:     %[[ONE:.+]] = arith.constant 1 : index
//     NEVER-NOT:     passthrough
//         NEVER:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[ONE]] {
//  ALWAYS-LABEL: gpu.module @accumulate_mma0
//        ALWAYS:   gpu.func @accumulate_mma0({{.*}}) kernel attributes {{{.*}}passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]}
//  REPORT-LABEL: kernel accumulate_mma0
//        REPORT:   agprs: 256
//        REPORT:   main_loop.mfma: 256
func.func @accumulate(%a: tensor<256x8192xf4E2M1FN>, %b: tensor<256x8192xf4E2M1FN>,
                      %sa: tensor<256x256xf8E8M0FNU>, %sb: tensor<256x256xf8E8M0FNU>,
                      %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x8192xf4E2M1FN>, tensor<256x8192xf4E2M1FN>,
                            tensor<256x256xf8E8M0FNU>, tensor<256x256xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// BAD: for the --reserve-accumulator-agprs option: Cannot find option named 'true'!

// -----

// CHECK-LABEL: gpu.module @from_zero_mma0
//       CHECK:   gpu.func @from_zero_mma0({{.*}}) kernel attributes {{{.*}}passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]}
//       CHECK:     %[[ONE:.+]] = arith.constant 1 : index
//       CHECK:     %[[TWO:.+]] = arith.constant 2 : index
//   CHECK-NOT:     scf.for
//   CHECK-COUNT-128: amdgpu.scaled_mfma
//   CHECK-NOT:     amdgpu.scaled_mfma
//       CHECK:     scf.for %{{.+}} = %[[ONE]] to %{{.+}} step %[[TWO]] {
// From zero, the copies' step (min(k + ahead, K steps - 1)) is clamped in
// 32 bits: one scalar min, not a 64-bit compare on the VALU.
//       CHECK:       arith.minui %{{.+}}, %{{.+}} : i32
// From zero too, row 0 runs K-half by K-half (each accumulator's two MFMAs
// 4 apart); row 1 keeps them back to back (K half by K half there made LLVM
// move an accumulator out of the AGPRs).
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[0] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[2] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[0] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[2] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   CHECK-NOT:       amdgpu.scaled_mfma
//       CHECK:       amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[1] * %{{[^ ]+}}) * (%{{[^ ]+}}[1] * %{{[^ ]+}})
//   NEVER-LABEL: gpu.module @from_zero_mma0
//     NEVER-NOT:   passthrough
//         NEVER:     %[[ONE:.+]] = arith.constant 1 : index
//     NEVER-NOT:     passthrough
//         NEVER:     scf.for %{{.+}} = %[[ONE]] to %{{.+}} step %[[ONE]] {
//  ALWAYS-LABEL: gpu.module @from_zero_mma0
//        ALWAYS:   gpu.func @from_zero_mma0({{.*}}) kernel attributes {{{.*}}passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]}
//  REPORT-LABEL: kernel from_zero_mma0
//        REPORT:   agprs: 256
//        REPORT:   main_loop.mfma: 256
func.func @from_zero(%a: tensor<256x8192xf4E2M1FN>, %b: tensor<256x8192xf4E2M1FN>,
                     %sa: tensor<256x256xf8E8M0FNU>, %sb: tensor<256x256xf8E8M0FNU>)
    -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x8192xf4E2M1FN>, tensor<256x8192xf4E2M1FN>,
                            tensor<256x256xf8E8M0FNU>, tensor<256x256xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// From memory with 3 or 4 static K steps (here 4) the loop is not unrolled
// (max_k_steps): unrolled, this kernel spilled 70 VGPRs. The accumulators
// stay in AGPRs; no scratch (REPORT's implicit checks).
// CHECK-LABEL: gpu.module @short_k_mma0
//       CHECK:   gpu.func @short_k_mma0({{.*}}) kernel attributes {{{.*}}passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]}
//       CHECK:     %[[ONE:.+]] = arith.constant 1 : index
//       CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[ONE]] {
//   NEVER-LABEL: gpu.module @short_k_mma0
//  ALWAYS-LABEL: gpu.module @short_k_mma0
//  REPORT-LABEL: kernel short_k_mma0
//        REPORT:   agprs: 256
func.func @short_k(%a: tensor<256x1024xf4E2M1FN>, %b: tensor<256x1024xf4E2M1FN>,
                   %sa: tensor<256x32xf8E8M0FNU>, %sb: tensor<256x32xf8E8M0FNU>,
                   %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x1024xf4E2M1FN>, tensor<256x1024xf4E2M1FN>,
                            tensor<256x32xf8E8M0FNU>, tensor<256x32xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// From zero with an odd number of K loop iterations after the peeled one
// (17 K steps: 15) the seed tile's loop is not unrolled (unroll_remainder =
// false): unrolled, its remainder iteration ran as straight-line code after
// the loop and this kernel (bf16 result) spilled 56 VGPRs. The accumulators
// stay in AGPRs; no scratch (REPORT's implicit checks).
// CHECK-LABEL: gpu.module @odd_k_mma0
//       CHECK:   gpu.func @odd_k_mma0({{.*}}) kernel attributes {{{.*}}passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]}
//       CHECK:     %[[ONE:.+]] = arith.constant 1 : index
//       CHECK:     scf.for %{{.+}} = %[[ONE]] to %{{.+}} step %[[ONE]] {
//   NEVER-LABEL: gpu.module @odd_k_mma0
//  ALWAYS-LABEL: gpu.module @odd_k_mma0
//  REPORT-LABEL: kernel odd_k_mma0
//        REPORT:   agprs: 256
func.func @odd_k(%a: tensor<256x4352xf4E2M1FN>, %b: tensor<256x4352xf4E2M1FN>,
                 %sa: tensor<256x136xf8E8M0FNU>, %sb: tensor<256x136xf8E8M0FNU>)
    -> tensor<256x256xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x4352xf4E2M1FN>, tensor<256x4352xf4E2M1FN>,
                            tensor<256x136xf8E8M0FNU>, tensor<256x136xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %t = arith.truncf %r : tensor<256x256xf32> to tensor<256x256xbf16>
  return %t : tensor<256x256xbf16>
}
