// RUN: mx-opt %s --mx-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// RUN: mx-opt %s --mx-cpu-pipeline="lower-to-llvm=false" | FileCheck %s --check-prefix=LOOPS

// The full pipeline leaves only the LLVM dialect; the function keeps its name
// and takes memref descriptors (allocated ptr, aligned ptr, offset, sizes,
// strides) for each tensor argument.
// LLVM-LABEL: llvm.func @gemm(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64,
//       LLVM:   llvm.return %{{.+}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
//   LLVM-NOT: mx.
//   LLVM-NOT: linalg.
//   LLVM-NOT: func.func

// Stopping before LLVM shows the bufferized loops.
// LOOPS-LABEL: func.func @gemm
//  LOOPS-SAME:   (%[[A:.+]]: memref<32x64xf8E4M3FN>, %[[B:.+]]: memref<16x64xf4E2M1FN>, %[[SA:.+]]: memref<32x2xf8E8M0FNU>, %[[SB:.+]]: memref<16x2xf8E8M0FNU>, %[[C:.+]]: memref<32x16xf32>) -> memref<32x16xf32>
//       LOOPS:   memref.get_global
//       LOOPS:   scf.for
//       LOOPS:     scf.for
//       LOOPS:       scf.for
//       LOOPS:         memref.load %[[A]]
//       LOOPS:         memref.load %[[B]]
//       LOOPS:         memref.load %[[SA]]
//       LOOPS:         memref.load %[[SB]]
//   LOOPS-NOT: mx.
func.func @gemm(%a: tensor<32x64xf8E4M3FN>, %b: tensor<16x64xf4E2M1FN>,
                %sa: tensor<32x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>,
                %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x64xf8E4M3FN>, tensor<16x64xf4E2M1FN>,
                            tensor<32x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}
