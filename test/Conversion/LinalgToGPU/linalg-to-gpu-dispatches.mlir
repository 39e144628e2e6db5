// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches{workgroup-size=64}))' | FileCheck %s
// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches),canonicalize)' | FileCheck %s --check-prefix=FOLD
// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches),canonicalize,gpu-launch-sink-index-computations,gpu-kernel-outlining)' | FileCheck %s --check-prefix=OUTLINE

// convert-linalg-to-gpu-dispatches: every elementwise linalg op on memrefs
// becomes a gpu.launch with one thread per iteration point, or per 16 bytes
// of consecutive points of the innermost loop when the op writes one buffer
// in loop order and the innermost size allows: grid ceil(threads /
// workgroup-size) x 1 x 1, workgroup-size x 1 x 1 threads; the thread's
// linear id (block_id.x * workgroup-size + thread_id.x) is bounds checked,
// delinearized into the loop indices (last loop fastest), the inputs are
// loaded through their indexing maps, the body is cloned (once per point of
// the thread) and the outputs are stored (16 bytes at once). Kernels are
// named <func>_relayout<i>_<op>.

// The column map 19 - j of @ops below, printed first.
// CHECK: #[[$REV:.+]] = affine_map<(d0, d1) -> (-d1 + 19)>

// The pass description's example: out[i0, i1, i2, i3] = in[i0, i2, i1, i3]
// over 2 x 1 x 32 x 128 = 8192 points of one byte: 512 threads of 16
// consecutive points each, stored as one vector<16xi8>.
// CHECK-LABEL: func.func @transpose
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<2x32x1x128xi8>, %[[B:[^:]+]]: memref<2x1x32x128xi8>)
//       CHECK:   %[[C8:.+]] = arith.constant 8 : index
//  CHECK-NEXT:   %[[TOTAL:.+]] = arith.muli %{{.+}}, %[[C8]] : index
//  CHECK-NEXT:   %[[ONE:.+]] = arith.constant 1 : index
//  CHECK-NEXT:   %[[WG:.+]] = arith.constant 64 : index
//  CHECK-NEXT:   %[[GRID:.+]] = arith.ceildivui %[[TOTAL]], %[[WG]] : index
//  CHECK-NEXT:   gpu.launch blocks(%[[BX:[^,]+]], %{{[^,]+}}, %{{[^)]+}}) in (%{{[^ ]+}} = %[[GRID]], %{{[^ ]+}} = %[[ONE]], %{{[^ ]+}} = %[[ONE]])
//  CHECK-SAME:       threads(%[[TX:[^,]+]], %{{[^,]+}}, %{{[^)]+}}) in (%{{[^ ]+}} = %[[WG]], %{{[^ ]+}} = %[[ONE]], %{{[^ ]+}} = %[[ONE]])
//  CHECK-SAME:       module(@transpose_relayout0_transpose) function(@transpose_relayout0_transpose)
//  CHECK-NEXT:     %[[WG2:.+]] = arith.constant 64 : index
//  CHECK-NEXT:     %[[BASE:.+]] = arith.muli %[[BX]], %[[WG2]] : index
//  CHECK-NEXT:     %[[ID:.+]] = arith.addi %[[BASE]], %[[TX]] : index
//  CHECK-NEXT:     %[[IN:.+]] = arith.cmpi ult, %[[ID]], %[[TOTAL]] : index
//  CHECK-NEXT:     scf.if %[[IN]] {
//  CHECK-NEXT:       %[[I:.+]]:4 = affine.delinearize_index %[[ID]] into (2, 1, 32, 8) : index, index, index, index
//  CHECK-NEXT:       %[[C16:.+]] = arith.constant 16 : index
//  CHECK-NEXT:       %[[K:.+]] = arith.muli %[[I]]#3, %[[C16]] : index
//  CHECK-NEXT:       %[[V0:.+]] = memref.load %[[A]][%[[I]]#0, %[[I]]#2, %[[I]]#1, %[[K]]] : memref<2x32x1x128xi8>
//  CHECK-NEXT:       %[[C1:.+]] = arith.constant 1 : index
//  CHECK-NEXT:       %[[K1:.+]] = arith.addi %[[K]], %[[C1]] : index
//  CHECK-NEXT:       %[[V1:.+]] = memref.load %[[A]][%[[I]]#0, %[[I]]#2, %[[I]]#1, %[[K1]]] : memref<2x32x1x128xi8>
//  CHECK-COUNT-14:   memref.load %[[A]]
//  CHECK-NEXT:       %[[V:.+]] = vector.from_elements %[[V0]], %[[V1]], {{.*}} : vector<16xi8>
//  CHECK-NEXT:       vector.store %[[V]], %[[B]][%[[I]]#0, %[[I]]#1, %[[I]]#2, %[[K]]] : memref<2x1x32x128xi8>, vector<16xi8>
//  CHECK-NEXT:     }
//  CHECK-NEXT:     gpu.terminator
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return

// With the default 256 threads: 2 workgroups, and threads at or past 512
// do nothing.
// FOLD-LABEL: func.func @transpose
//   FOLD-DAG:   %[[C256:.+]] = arith.constant 256 : index
//   FOLD-DAG:   %[[C512:.+]] = arith.constant 512 : index
//   FOLD-DAG:   %[[C2:.+]] = arith.constant 2 : index
//   FOLD-DAG:   %[[C1:.+]] = arith.constant 1 : index
//       FOLD:   gpu.launch blocks({{.*}}) in (%{{[^ ]+}} = %[[C2]], %{{[^ ]+}} = %[[C1]], %{{[^ ]+}} = %[[C1]]) threads({{.*}}) in (%{{[^ ]+}} = %[[C256]], %{{[^ ]+}} = %[[C1]], %{{[^ ]+}} = %[[C1]])
//       FOLD:     arith.cmpi ult, %{{.+}}, %[[C512]] : index

// After outlining (constants sunk into the launch first, as the gfx950
// pipeline does), one gpu.module and kernel per dispatch, with the name, whose
// only arguments are the buffers.
// OUTLINE-LABEL: func.func @transpose
//       OUTLINE:   gpu.launch_func @transpose_relayout0_transpose::@transpose_relayout0_transpose blocks in ({{.+}}) threads in ({{.+}}) args(%{{[^ ]+}} : memref<2x32x1x128xi8>, %{{[^ ]+}} : memref<2x1x32x128xi8>){{$}}
// OUTLINE-LABEL: gpu.module @transpose_relayout0_transpose
//       OUTLINE:   gpu.func @transpose_relayout0_transpose(%{{[^:]+}}: memref<2x32x1x128xi8>, %{{[^:]+}}: memref<2x1x32x128xi8>) kernel
//  OUTLINE-SAME:     known_block_size = array<i32: 256, 1, 1>
//  OUTLINE-SAME:     known_grid_size = array<i32: 2, 1, 1>
func.func @transpose(%a: memref<2x32x1x128xi8>, %b: memref<2x1x32x128xi8>) {
  linalg.transpose ins(%a : memref<2x32x1x128xi8>) outs(%b : memref<2x1x32x128xi8>)
      permutation = [0, 2, 1, 3]
  return
}

// Other elementwise ops, one thread per point (99 points, or two outputs):
// a fill (the scalar is used in the kernel), a 1-d copy (the id is the
// index, no delinearization), a generic with a
// broadcast input, linalg.index, an output read by the body (%c) and one
// written through a non-trivial map (%e, column 19 - j; not loaded since the
// body does not read it). A copy with no points is erased; a reduction is
// left alone.
// CHECK-LABEL: func.func @ops
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<99xf32>, %[[B:[^:]+]]: memref<99xf32>, %[[C:[^:]+]]: memref<10x20xf32>, %[[D:[^:]+]]: memref<20xf32>, %[[E:[^:]+]]: memref<10x20xf32>,
//       CHECK:   %[[CST:.+]] = arith.constant 1.000000e+00 : f32
//       CHECK:   gpu.launch blocks(%[[BX:[^,]+]], {{.*}} threads(%[[TX:[^,]+]], {{.*}} module(@ops_relayout0_fill) function(@ops_relayout0_fill)
//       CHECK:     %[[BASE:.+]] = arith.muli %[[BX]], %{{.+}} : index
//  CHECK-NEXT:     %[[ID:.+]] = arith.addi %[[BASE]], %[[TX]] : index
//  CHECK-NEXT:     %[[IN:.+]] = arith.cmpi ult, %[[ID]], %{{.+}} : index
//  CHECK-NEXT:     scf.if %[[IN]] {
//  CHECK-NEXT:       memref.store %[[CST]], %[[A]][%[[ID]]] : memref<99xf32>
//  CHECK-NEXT:     }
//       CHECK:   gpu.launch blocks(%[[BX:[^,]+]], {{.*}} threads(%[[TX:[^,]+]], {{.*}} module(@ops_relayout1_copy) function(@ops_relayout1_copy)
//       CHECK:     %[[BASE:.+]] = arith.muli %[[BX]], %{{.+}} : index
//  CHECK-NEXT:     %[[ID:.+]] = arith.addi %[[BASE]], %[[TX]] : index
//       CHECK:     scf.if
//  CHECK-NEXT:       %[[V:.+]] = memref.load %[[A]][%[[ID]]] : memref<99xf32>
//  CHECK-NEXT:       memref.store %[[V]], %[[B]][%[[ID]]] : memref<99xf32>
//       CHECK:   gpu.launch blocks(%[[BX:[^,]+]], {{.*}} threads(%[[TX:[^,]+]], {{.*}} module(@ops_relayout2_generic) function(@ops_relayout2_generic)
//       CHECK:     %[[BASE:.+]] = arith.muli %[[BX]], %{{.+}} : index
//  CHECK-NEXT:     %[[ID:.+]] = arith.addi %[[BASE]], %[[TX]] : index
//       CHECK:     scf.if
//  CHECK-NEXT:       %[[I:.+]]:2 = affine.delinearize_index %[[ID]] into (10, 20) : index, index
//  CHECK-NEXT:       %[[X:.+]] = memref.load %[[D]][%[[I]]#1] : memref<20xf32>
//  CHECK-NEXT:       %[[Y:.+]] = memref.load %[[C]][%[[I]]#0, %[[I]]#1] : memref<10x20xf32>
//  CHECK-NEXT:       %[[ROW:.+]] = arith.index_cast %[[I]]#0 : index to i32
//  CHECK-NEXT:       %[[FROW:.+]] = arith.sitofp %[[ROW]] : i32 to f32
//  CHECK-NEXT:       %[[R:.+]] = arith.addf %[[X]], %[[FROW]] : f32
//  CHECK-NEXT:       %[[R2:.+]] = arith.addf %[[R]], %[[Y]] : f32
//  CHECK-NEXT:       memref.store %[[R]], %[[C]][%[[I]]#0, %[[I]]#1] : memref<10x20xf32>
//  CHECK-NEXT:       %[[COL:.+]] = affine.apply #[[$REV]](%[[I]]#0, %[[I]]#1)
//  CHECK-NEXT:       memref.store %[[R2]], %[[E]][%[[I]]#0, %[[COL]]] : memref<10x20xf32>
//  CHECK-NEXT:     }
//   CHECK-NOT:   gpu.launch
//       CHECK:   linalg.reduce ins(%[[C]] : memref<10x20xf32>) outs(%[[D]] : memref<20xf32>)
//   CHECK-NOT:   gpu.launch
//       CHECK:   return
func.func @ops(%a: memref<99xf32>, %b: memref<99xf32>, %c: memref<10x20xf32>,
               %d: memref<20xf32>, %e: memref<10x20xf32>, %s: memref<0x4xf32>,
               %t: memref<0x4xf32>) {
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%a : memref<99xf32>)
  linalg.copy ins(%a : memref<99xf32>) outs(%b : memref<99xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                                   affine_map<(i, j) -> (i, j)>,
                                   affine_map<(i, j) -> (i, 19 - j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%d : memref<20xf32>) outs(%c, %e : memref<10x20xf32>, memref<10x20xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %r = arith.addf %x, %fi : f32
    %r2 = arith.addf %r, %y : f32
    linalg.yield %r, %r2 : f32, f32
  }
  linalg.copy ins(%s : memref<0x4xf32>) outs(%t : memref<0x4xf32>)
  linalg.reduce ins(%c : memref<10x20xf32>) outs(%d : memref<20xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  return
}

// Dynamic sizes: the point count is the product of the memref.dim sizes,
// which also form the delinearization basis.
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<?x?xf32>, %[[B:[^:]+]]: memref<?x?xf32>)
//       CHECK:   %[[D0:.+]] = memref.dim %[[A]], %{{.+}} : memref<?x?xf32>
//       CHECK:   %[[D1:.+]] = memref.dim %[[A]], %{{.+}} : memref<?x?xf32>
//       CHECK:   %[[P0:.+]] = arith.muli %{{.+}}, %[[D0]] : index
//  CHECK-NEXT:   %[[TOTAL:.+]] = arith.muli %[[P0]], %[[D1]] : index
//       CHECK:   %[[GRID:.+]] = arith.ceildivui %[[TOTAL]], %{{.+}} : index
//       CHECK:   gpu.launch blocks({{.*}}) in (%{{[^ ]+}} = %[[GRID]], {{.*}} module(@dynamic_relayout0_copy)
//       CHECK:     arith.cmpi ult, %[[ID:.+]], %[[TOTAL]] : index
//       CHECK:     %[[I:.+]]:2 = affine.delinearize_index %[[ID]] into (%[[D0]], %[[D1]]) : index, index
//  CHECK-NEXT:     %[[V:.+]] = memref.load %[[A]][%[[I]]#0, %[[I]]#1] : memref<?x?xf32>
//  CHECK-NEXT:     memref.store %[[V]], %[[B]][%[[I]]#0, %[[I]]#1] : memref<?x?xf32>
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>) {
  linalg.copy ins(%a : memref<?x?xf32>) outs(%b : memref<?x?xf32>)
  return
}

// A 0-d copy is one thread.
// CHECK-LABEL: func.func @zero_d
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<f32>, %[[B:[^:]+]]: memref<f32>)
//       CHECK:   %[[ONE:.+]] = arith.constant 1 : index
//       CHECK:   gpu.launch {{.*}} module(@zero_d_relayout0_copy)
//       CHECK:     arith.cmpi ult, %{{.+}}, %[[ONE]] : index
//       CHECK:     scf.if
//  CHECK-NEXT:       %[[V:.+]] = memref.load %[[A]][] : memref<f32>
//  CHECK-NEXT:       memref.store %[[V]], %[[B]][] : memref<f32>
func.func @zero_d(%a: memref<f32>, %b: memref<f32>) {
  linalg.copy ins(%a : memref<f32>) outs(%b : memref<f32>)
  return
}

// Ops on tensors and ops already in a kernel are not dispatches.
// CHECK-LABEL: func.func @tensors
//   CHECK-NOT:   gpu.launch
//       CHECK:   linalg.copy ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>) -> tensor<4xf32>
//   CHECK-NOT:   gpu.launch
//       CHECK:   return
func.func @tensors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.copy ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @inside_launch
//       CHECK:   gpu.launch
//   CHECK-NOT:     gpu.launch
//       CHECK:     linalg.copy ins(%{{.+}} : memref<4xf32>) outs(%{{.+}} : memref<4xf32>)
//  CHECK-NEXT:     gpu.terminator
func.func @inside_launch(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
    gpu.terminator
  }
  return
}

// A scale tile ([.., 16, 2] bytes): the innermost size (2) is less than 16
// bytes, so a thread's 16 points span the two innermost loops (8 x 2) and
// are stored as one vector into the init with those loops collapsed.
// CHECK-LABEL: func.func @scale_tile
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<4x2x16xi8>, %[[B:[^:]+]]: memref<4x16x2xi8>)
//       CHECK:   gpu.launch
//       CHECK:     scf.if
//  CHECK-NEXT:       %[[I:.+]]:2 = affine.delinearize_index %{{.+}} into (4, 2) : index, index
//       CHECK:       %[[BASE:.+]] = arith.muli %[[I]]#1, %{{.+}} : index
//  CHECK-NEXT:       %[[P0:.+]]:2 = affine.delinearize_index %[[BASE]] into (16, 2) : index, index
//  CHECK-NEXT:       %[[X0:.+]] = memref.load %[[A]][%[[I]]#0, %[[P0]]#1, %[[P0]]#0] : memref<4x2x16xi8>
//       CHECK:       %[[FLAT:.+]] = memref.collapse_shape %[[B]] {{\[}}[0], [1, 2]] : memref<4x16x2xi8> into memref<4x32xi8>
//  CHECK-NEXT:       %[[V:.+]] = vector.from_elements %[[X0]], {{.+}} : vector<16xi8>
//  CHECK-NEXT:       vector.store %[[V]], %[[FLAT]][%[[I]]#0, %[[BASE]]] : memref<4x32xi8>, vector<16xi8>
func.func @scale_tile(%a: memref<4x2x16xi8>, %b: memref<4x16x2xi8>) {
  linalg.transpose ins(%a : memref<4x2x16xi8>) outs(%b : memref<4x16x2xi8>) permutation = [0, 2, 1]
  return
}

// A body that yields its destination's own element where a condition is
// false (select(%keep, %x, %out): a relayout of mx.gather_row_tiles with
// undefined_empty_tiles) stores only where it holds, and never loads the
// destination. Here the condition is a row's (%keep[i], the same for the
// thread's 16 points): one branch around the vector store.
// CHECK-LABEL: func.func @kept_rows
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<4x64xi8>, %[[KEEP:[^:]+]]: memref<4xi1>, %[[B:[^:]+]]: memref<4x64xi8>)
//       CHECK:   gpu.launch
//       CHECK:     scf.if
//  CHECK-NEXT:       %[[I:.+]]:2 = affine.delinearize_index %{{.+}} into (4, 4) : index, index
//   CHECK-NOT:       memref.load %[[B]]
//       CHECK:       %[[K:.+]] = memref.load %[[KEEP]][%[[I]]#0] : memref<4xi1>
//   CHECK-NOT:       memref.load %[[B]]
//   CHECK-NOT:       arith.select
//       CHECK:       scf.if %[[K]] {
//  CHECK-NEXT:         %[[V:.+]] = vector.from_elements {{.+}} : vector<16xi8>
//  CHECK-NEXT:         vector.store %[[V]], %[[B]][%[[I]]#0, %{{.+}}] : memref<4x64xi8>, vector<16xi8>
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:     gpu.terminator
func.func @kept_rows(%a: memref<4x64xi8>, %keep: memref<4xi1>, %b: memref<4x64xi8>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %keep : memref<4x64xi8>, memref<4xi1>) outs(%b : memref<4x64xi8>) {
  ^bb0(%x: i8, %k: i1, %out: i8):
    %s = arith.select %k, %x, %out : i8
    linalg.yield %s : i8
  }
  return
}

// A condition that differs between a thread's points (column < 37): the
// vector where all of them hold, else point by point.
// CHECK-LABEL: func.func @kept_points
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<4x64xi8>, %[[B:[^:]+]]: memref<4x64xi8>)
//       CHECK:   gpu.launch
//   CHECK-NOT:       memref.load %[[B]]
//       CHECK:       %[[C0:.+]] = arith.cmpi ult, %{{.+}}, %c37{{.*}} : index
//       CHECK:       %[[C1:.+]] = arith.cmpi ult, %{{.+}}, %c37{{.*}} : index
//       CHECK:       %[[ALL1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-COUNT-13:    arith.andi
//       CHECK:       %[[ALL:.+]] = arith.andi %{{.+}}, %{{.+}} : i1
//  CHECK-NEXT:       scf.if %[[ALL]] {
//  CHECK-NEXT:         %[[V:.+]] = vector.from_elements {{.+}} : vector<16xi8>
//  CHECK-NEXT:         vector.store %[[V]], %[[B]]
//  CHECK-NEXT:       } else {
//  CHECK-NEXT:         scf.if %[[C0]] {
//  CHECK-NEXT:           arith.constant 0 : index
//  CHECK-NEXT:           arith.addi
//  CHECK-NEXT:           memref.store %{{.+}}, %[[B]]
//  CHECK-NEXT:         }
//  CHECK-NEXT:         scf.if %[[C1]] {
// CHECK-COUNT-14:      memref.store %{{.+}}, %[[B]]
//   CHECK-NOT:       memref.load %[[B]]
//       CHECK:     gpu.terminator
func.func @kept_points(%a: memref<4x64xi8>, %b: memref<4x64xi8>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x64xi8>) outs(%b : memref<4x64xi8>) {
  ^bb0(%x: i8, %out: i8):
    %j = linalg.index 1 : index
    %c37 = arith.constant 37 : index
    %k = arith.cmpi ult, %j, %c37 : index
    %s = arith.select %k, %x, %out : i8
    linalg.yield %s : i8
  }
  return
}
