// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s
// RUN: mx-opt %s --mx-gfx950-pipeline=output=isa --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// A GEMM whose M is known only at run time, from a zero accumulator with a
// bf16 result: one version per M bucket (mx-specialize-dynamic-m: M <= 16,
// M <= 64, larger), chosen by M at run time, each two dispatches as with
// static shapes. The relayouts of A and its scales (dynamic) and of B and
// its scales (static) are each one gather (mx-fuse-relayouts fuses chains
// with dynamic sizes) and run as one launch; the GEMM writes bf16 into the
// user's M x N result. The M <= 16 version has 16 x 16 tiles, one wave.
// CHECK-LABEL: func.func @dynamic_m_bf16
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<?x112xi8>
//   CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : index
//       CHECK:   %[[M:.+]] = memref.dim %[[A]]
//       CHECK:   %[[SMALL:.+]] = arith.cmpi ule, %[[M]], %[[C16]] : index
//       CHECK:   scf.if %[[SMALL]] {
//       CHECK:     gpu.launch_func @[[R:dynamic_m_bf16_relayout[0-9]+_[a-z]+]]::@[[R]] {{.*}} args(%[[A]] : memref<?x112xi8>,
//  CHECK-SAME:       %[[TA:[^ ]+]] : memref<?x1x4x4x16x16xi8>
//       CHECK:     gpu.launch_func @dynamic_m_bf16_mma0::@dynamic_m_bf16_mma0 {{.*}} threads in (%[[C64]], {{.*}} args(%[[D:[^ ]+]] : memref<?x47xbf16>, %{{.+}} : index, %[[TA]] : {{.*}})
//   CHECK-NOT:     gpu.launch_func
//       CHECK:   } else {
//       CHECK:     %[[MID:.+]] = arith.cmpi ule, %[[M]], %[[C64]] : index
//       CHECK:     scf.if %[[MID]] {
//       CHECK:       gpu.launch_func @[[R1:dynamic_m_bf16_relayout[0-9]+_[a-z]+]]::@[[R1]]
//       CHECK:       gpu.launch_func @dynamic_m_bf16_mma1::@dynamic_m_bf16_mma1 {{.*}} args(%[[D]] : memref<?x47xbf16>,
//   CHECK-NOT:       gpu.launch_func
//       CHECK:     } else {
//       CHECK:       gpu.launch_func @[[R2:dynamic_m_bf16_relayout[0-9]+_[a-z]+]]::@[[R2]]
//  CHECK-SAME:         memref<?x1x4x8x2x4x16x16xi8>
//       CHECK:       gpu.launch_func @dynamic_m_bf16_mma2::@dynamic_m_bf16_mma2 {{.*}} args(%[[D]] : memref<?x47xbf16>,
//   CHECK-NOT:     gpu.launch_func
//       CHECK:   return %[[D]] : memref<?x47xbf16>
//  REPORT-LABEL: kernel dynamic_m_bf16_mma0
//        REPORT:   scratch_bytes: 0
func.func @dynamic_m_bf16(%a: tensor<?x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa: tensor<?x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>) -> tensor<?x47xbf16> {
  %i0 = arith.constant 0 : index
  %m = tensor.dim %a, %i0 : tensor<?x224xf4E2M1FN>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x47xf32>) -> tensor<?x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<?x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<?x47xf32>) -> tensor<?x47xf32>
  %t = arith.truncf %r : tensor<?x47xf32> to tensor<?x47xbf16>
  return %t : tensor<?x47xbf16>
}
