// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=GPU
// RUN: mx-opt %s --mx-gfx950-pipeline=output=rocdl | FileCheck %s --check-prefix=ROCDL

// A result past 4 GiB (32768 x 32768 f32): buffer resources have a 32-bit
// range and 32-bit offsets, so the GEMM's accumulator buffer covers only the
// workgroup's rows. Its base, the tile's first row, is computed in 64 bits
// (the subview's offset, a 64-bit getelementptr); the bytes in range are at
// most 256 rows x 32768 x 4 B = 32 MiB. (The relayout kernels index with
// 64-bit `index` arithmetic and plain global pointers; the ukernel's
// buffers are views of one K step of a tile.)

// GPU-LABEL: gpu.func @big_mma0
//       GPU:   %[[ROW0:.+]] = arith.muli %{{.+}}, %{{.+}} : index
//       GPU:   %[[LEFT:.+]] = arith.subi %{{.+}}, %[[ROW0]] : index
//       GPU:   %[[ROWS:.+]] = arith.minui %[[LEFT]], %{{.+}} : index
//       GPU:   %[[TILE:.+]] = memref.subview %{{.+}}[%[[ROW0]], 0] [%[[ROWS]], 32768] [1, 1] : memref<32768x32768xf32, 1> to memref<?x32768xf32, strided<[32768, 1], offset: ?>, 1>
//       GPU:   amdgpu.fat_raw_buffer_cast %{{.+}} resetOffset : memref<?x?xf32, strided<[32768, 1], offset: ?>, 1> to memref<?x?xf32, strided<[32768, 1]>, #amdgpu.address_space<fat_raw_buffer>>
//   GPU-NOT:   amdgpu.fat_raw_buffer_cast %{{.+}} : memref<32768x32768xf32

// ROCDL-LABEL: llvm.func @big_mma0
//       ROCDL:   %[[BASE:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
//       ROCDL:   rocdl.make.buffer.rsrc %[[BASE]], %{{.+}}, %{{.+}}, %{{.+}} : <1> to <7>
func.func @big(%a: tensor<32768x1024xf4E2M1FN>, %b: tensor<32768x1024xf4E2M1FN>,
               %sa: tensor<32768x32xf8E8M0FNU>, %sb: tensor<32768x32xf8E8M0FNU>,
               %c: tensor<32768x32768xf32>) -> tensor<32768x32768xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32768x1024xf4E2M1FN>, tensor<32768x1024xf4E2M1FN>,
                            tensor<32768x32xf8E8M0FNU>, tensor<32768x32xf8E8M0FNU>)
      outs(%c : tensor<32768x32768xf32>) -> tensor<32768x32768xf32>
  return %r : tensor<32768x32768xf32>
}
