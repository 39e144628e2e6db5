// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s
// RUN: mx-opt %s --mx-gfx950-pipeline=output=isa --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// The seed GEMM from a zero accumulator with a bf16 result: two
// dispatches. The relayouts of A, B and their scales run as one (no
// accumulator is filled or relaid out: the fill folds into the GEMM as
// zero_acc); the GEMM starts its accumulators at +0.0, rounds the sums to
// bf16 (the arith.truncf, fused as its epilogue) and writes them in the
// user's layout.
// CHECK-LABEL: func.func @seed_bf16
//  CHECK-SAME:   -> memref<10000x16384xbf16>
//   CHECK-NOT:   linalg.fill
//       CHECK:   gpu.launch_func @[[R:seed_bf16_relayout[0-9]+_[a-z]+]]::@[[R]] {{.*}} args(%{{[^ ]+}} : memref<10000x8192xi8>, %[[TA:[^ ]+]] : memref<40x64x16x2x4x16x16xi8>,
//  CHECK-SAME:     memref<16384x8192xi8>, %{{[^ ]+}} : memref<64x64x4x4x2x4x16x16xi8>, %{{[^ ]+}} : memref<10000x512xi8>, %{{[^ ]+}} : memref<40x64x4x16x16x2xi8>,
//  CHECK-SAME:     memref<16384x512xi8>, %{{[^ ]+}} : memref<64x64x4x4x16x4x2xi8>)
//       CHECK:   gpu.launch_func @seed_bf16_mma0::@seed_bf16_mma0 {{.*}} args(%[[D:[^ ]+]] : memref<10000x16384xbf16>, %[[TA]] : {{.*}})
//   CHECK-NOT:   gpu.launch_func
//       CHECK:   return %[[D]] : memref<10000x16384xbf16>
// The GEMM kernel loads no accumulator (no f32 memory access at all): it
// rounds each sum to bf16 and stores the four sums of a lane's run of
// columns as one vector through a bounds-checked buffer (N is a multiple of
// 4: no run straddles it, so no value-by-value stores).
//       CHECK:   gpu.module @seed_bf16_mma0
//   CHECK-NOT:     memref.load {{.*}}fat_raw_buffer
//   CHECK-NOT:     xf32, #amdgpu.address_space<fat_raw_buffer>>
//       CHECK:     scf.for
//   CHECK-NOT:     xf32, #amdgpu.address_space<fat_raw_buffer>>
//       CHECK:     %[[T0:.+]] = arith.truncf %{{.+}} : f32 to bf16
//       CHECK:     %[[T1:.+]] = arith.truncf %{{.+}} : f32 to bf16
//       CHECK:     %[[T2:.+]] = arith.truncf %{{.+}} : f32 to bf16
//       CHECK:     %[[T3:.+]] = arith.truncf %{{.+}} : f32 to bf16
//       CHECK:     %[[V:.+]] = vector.from_elements %[[T0]], %[[T1]], %[[T2]], %[[T3]] : vector<4xbf16>
//  CHECK-NEXT:     vector.store %[[V]], %{{.+}} : memref<?x?xbf16, strided<[16384, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
//   CHECK-NOT:     memref.store {{.*}}fat_raw_buffer
//   CHECK-NOT:     xf32, #amdgpu.address_space<fat_raw_buffer>>
// In the ISA: one buffer_store_dwordx2 (four bf16) per intrinsic of the
// wave's 16 x 4, the kernel's only stores.
//  REPORT-LABEL: kernel seed_bf16_mma0
//        REPORT:   scratch_bytes: 0
//        REPORT:   global_stores: 64
//   REPORT-NEXT:   global_stores.buffer_store_dwordx2: 64
//   REPORT-NEXT:   main_loop.instructions
func.func @seed_bf16(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf4E2M1FN>,
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
