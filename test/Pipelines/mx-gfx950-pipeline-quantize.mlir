// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s
// RUN: mx-opt %s --mx-gfx950-pipeline=output=isa --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT

// The seed000 GEMM from bf16 activations: the quantize of A writes A's fp4
// bytes and scales straight into the GEMM's operand layout. There is no
// relayout of a quantized A: the program is 2 dispatches (the quantize,
// merged with the independent relayouts of B and its scales; the GEMM,
// which reads and writes C in place), the same count as the GEMM on
// pre-quantized operands, and A (bf16) is read by the quantize kernel only.
// CHECK-LABEL: func.func @gemm_bf16
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<128x512xbf16>,
//       CHECK:   %[[TA:.+]] = memref.alloc() {{.*}} : memref<1x2x2x4x2x4x16x16xi8>
//       CHECK:   %[[TSA:.+]] = memref.alloc() {{.*}} : memref<1x2x2x4x16x4x2xi8>
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   gpu.launch_func @[[Q:gemm_bf16_quantize0]]::@[[Q]] {{.*}} args(%[[A]] : memref<128x512xbf16>, %[[TA]] : memref<1x2x2x4x2x4x16x16xi8>, %[[TSA]] : memref<1x2x2x4x16x4x2xi8>,
//   CHECK-NOT:   gpu.launch_func {{.*}}%[[A]]
//       CHECK:   gpu.launch_func @[[MMA:gemm_bf16_mma0]]::@[[MMA]] {{.*}} args(%{{[^ ]+}} : memref<128x96xf32>, %[[TA]] : {{.*}}, %[[TSA]] :
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   return
// The kernel: one thread per block of 32 K values, loaded with one vector
// load; the 32 fp4 codes land in one lane's 16 contiguous bytes of the
// operand layout (one store), then the scale byte in the scale layout.
//       CHECK:   gpu.func @gemm_bf16_quantize0
//       CHECK:     vector.load %{{.+}} : memref<128x512xbf16>, vector<32xbf16>
//       CHECK:     vector.store %{{.+}} : memref<1x2x2x4x2x4x16x16xi8>, vector<16xi8>
//   CHECK-NOT:     vector.store %{{.+}} : memref<1x2x2x4x2x4x16x16xi8>
//       CHECK:     memref.store %{{.+}} : memref<1x2x2x4x16x4x2xi8>
//       CHECK:     gpu.return

// No scratch, no spills in the merged quantize dispatch.
//      REPORT: kernel gemm_bf16_quantize0
//      REPORT:   scratch_bytes: 0
//      REPORT:   vgpr_spills: 0
//      REPORT:   sgpr_spills: 0
func.func @gemm_bf16(%a: tensor<128x512xbf16>, %b: tensor<96x512xf4E2M1FN>,
                     %sb: tensor<96x16xf8E8M0FNU>, %c: tensor<128x96xf32>)
    -> tensor<128x96xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                             tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}
