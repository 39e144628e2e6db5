// RUN: mx-opt %s --split-input-file --mx-gfx950-lower-tiled-mma --canonicalize --cse | FileCheck %s

// mx-gfx950-lower-tiled-mma with the accumulator in the user's layout
// ([M, N], row-major unless its strides say otherwise). The ukernels compute
// D^T = B A^T, so lane (g, r) of an intrinsic holds row r of D and
// consecutive columns: 16x16x128, columns 4 g .. 4 g + 3 (one run of 4);
// 32x32x64, columns 8 h + 4 g .. 8 h + 4 g + 3 for h = 0..3 (four runs).
// Each run is one vector access through a bounds-checked buffer, its row
// replaced by M (outside the buffer) when the run's first column is past
// N, or unconditionally when the workgroup's tile lies inside N.

#fp4 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// C += A B, f32, N = 60 (a multiple of 4: no run straddles it). 2 x 1
// waves of 2 x 2 intrinsics (64 x 32 tiles): lane (g, r) of wave w loads
// and stores row 64 Mo + 32 w + 16 i + r, columns 32 No + 4 g + 16 j, as
// one vector<4xf32> each (a dwordx4), row M = 100 where the column is past
// N.
// CHECK-LABEL: func.func @f32
//  CHECK-SAME:   %[[C:[^:]+]]: memref<100x60xf32>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C60:.+]] = arith.constant 60 : index
//   CHECK-DAG:   %[[C100:.+]] = arith.constant 100 : index
//       CHECK:   gpu.launch blocks(%[[NO:[^,]+]], %[[MO:[^,]+]], %{{[^)]+}}) {{.*}} threads(%[[TX:[^,]+]],
//       CHECK:     %[[WAVE:.+]] = arith.divui %[[TX]], %{{.+}} : index
//       CHECK:     %[[LANE:.+]] = arith.remui %[[TX]], %{{.+}} : index
//       CHECK:     %[[ACCS:.+]] = memref.alloca() {mx.accumulator_agprs} : memref<2x2x4xf32, 5>
//       CHECK:     %[[GLOBAL:.+]] = memref.memory_space_cast %[[C]]
// The buffer holds the workgroup's rows only (its base is the tile's first
// row, 64-bit address arithmetic; the 32-bit buffer range and offsets then
// hold for results of any size); rows are the tile's.
//       CHECK:     %[[ROWS:.+]] = arith.muli %[[MO]], %[[C64:[^ ]+]] : index
//       CHECK:     %[[LEFT:.+]] = arith.subi %[[C100]], %[[ROWS]] : index
//       CHECK:     %[[TROWS:.+]] = arith.minui %[[LEFT]], %[[C64]] : index
//       CHECK:     %[[TILE:.+]] = memref.subview %[[GLOBAL]][%[[ROWS]], 0] [%[[TROWS]], 60] [1, 1]
//       CHECK:     %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast %{{.+}} resetOffset : memref<?x?xf32, strided<[60, 1], offset: ?>, 1> to memref<?x?xf32, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>
//       CHECK:     %[[COLS:.+]] = arith.muli %[[NO]], %{{.+}} : index
//       CHECK:     %[[GR:.+]]:2 = affine.delinearize_index %[[LANE]] into (4, 16)
//       CHECK:     %[[R:.+]] = affine.linearize_index disjoint [%[[WAVE]], %[[C0]], %[[GR]]#1] by (2, 2, 16)
//       CHECK:     %[[G:.+]] = affine.linearize_index disjoint [%[[GR]]#0, %[[C0]]] by (4, 4)
//       CHECK:     %[[COL:.+]] = arith.addi %[[COLS]], %[[G]] : index
//       CHECK:     %[[IN:.+]] = arith.cmpi ult, %[[COL]], %[[C60]] : index
//       CHECK:     %[[MASKED:.+]] = arith.select %[[IN]], %[[R]], %[[TROWS]] : index
//       CHECK:     %[[V:.+]] = vector.load %[[BUF]][%[[MASKED]], %[[COL]]] : memref<?x?xf32, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
//       CHECK:     vector.store %[[V]], %[[ACCS]][%[[C0]], %[[C0]], %[[C0]]]
//       CHECK:     %[[COL1:.+]] = arith.addi %[[COL]], %[[C16]] : index
//       CHECK:     vector.load %[[BUF]][%{{.+}}, %[[COL1]]] : {{.*}}, vector<4xf32>
//       CHECK:     %[[ROW1:.+]] = arith.addi %[[R]], %[[C16]] : index
//       CHECK:     %[[MASKED1:.+]] = arith.select %[[IN]], %[[ROW1]], %[[TROWS]] : index
//       CHECK:     vector.load %[[BUF]][%[[MASKED1]], %[[COL]]] : {{.*}}, vector<4xf32>
//       CHECK:     vector.load %[[BUF]][%{{.+}}, %[[COL1]]] : {{.*}}, vector<4xf32>
//   CHECK-NOT:     memref.load
//       CHECK:     call @mx_uk_scaled_mma
// The stores, addressed from the lane index recomputed.
//       CHECK:     %[[LANE2:.+]] = gpu.lane_id
//       CHECK:     %[[S:.+]] = vector.load %[[ACCS]][%[[C0]], %[[C0]], %[[C0]]] : memref<2x2x4xf32, 5>, vector<4xf32>
//       CHECK:     affine.delinearize_index %[[LANE2]] into (4, 16)
//       CHECK:     %[[SCOL:.+]] = arith.addi %[[COLS]], %{{.+}} : index
//       CHECK:     %[[SIN:.+]] = arith.cmpi ult, %[[SCOL]], %[[C60]] : index
//       CHECK:     %[[SROW:.+]] = arith.select %[[SIN]], %{{.+}}, %[[TROWS]] : index
//       CHECK:     vector.store %[[S]], %[[BUF]][%[[SROW]], %[[SCOL]]] : memref<?x?xf32, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
//   CHECK-COUNT-3:     vector.store %{{.+}}, %[[BUF]][%{{.+}}, %{{.+}}] : memref<?x?xf32, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
//   CHECK-NOT:     memref.store
//       CHECK:     gpu.terminator
func.func @f32(%a: memref<2x4x2x2x2x4x16x16xi8>, %b: memref<2x4x2x2x4x16x16xi8>,
               %sa: memref<2x4x2x4x16x2x2xi8>, %sb: memref<2x4x4x16x2x2xi8>,
               %c: memref<100x60xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<2x4x2x2x2x4x16x16xi8>, memref<2x4x2x2x4x16x16xi8>,
                                             memref<2x4x2x4x16x2x2xi8>, memref<2x4x4x16x2x2xi8>)
      outs(%c : memref<100x60xf32>) layout = #fp4
  return
}

// -----

#fp4 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// D = bf16(A B) from zero: the epilogue (arith.truncf) runs per value, the
// four bf16 of a run are packed into one vector<4xbf16> (a dwordx2).
// CHECK-LABEL: func.func @bf16
//   CHECK-DAG:   %[[C60:.+]] = arith.constant 60 : index
//   CHECK-DAG:   %[[C100:.+]] = arith.constant 100 : index
//       CHECK:   %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast {{.*}} to memref<?x?xbf16, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>
//   CHECK-NOT:   vector.load %[[BUF]]
//       CHECK:   call @mx_uk_scaled_mma
//       CHECK:   %[[S:.+]] = vector.load %{{.+}} : memref<2x2x4xf32, 5>, vector<4xf32>
//       CHECK:   %[[ROW0:.+]] = affine.linearize_index
//  CHECK-NEXT:   affine.linearize_index
//  CHECK-NEXT:   %[[COL:.+]] = arith.addi
//       CHECK:   %[[X0:.+]] = vector.extract %[[S]][0]
//       CHECK:   %[[T0:.+]] = arith.truncf %[[X0]] : f32 to bf16
//       CHECK:   %[[X1:.+]] = vector.extract %[[S]][1]
//       CHECK:   %[[T1:.+]] = arith.truncf %[[X1]] : f32 to bf16
//       CHECK:   %[[X2:.+]] = vector.extract %[[S]][2]
//       CHECK:   %[[T2:.+]] = arith.truncf %[[X2]] : f32 to bf16
//       CHECK:   %[[X3:.+]] = vector.extract %[[S]][3]
//       CHECK:   %[[T3:.+]] = arith.truncf %[[X3]] : f32 to bf16
//       CHECK:   %[[IN:.+]] = arith.cmpi ult, %[[COL]], %[[C60]] : index
//       CHECK:   %[[ROW:.+]] = arith.select %[[IN]], %[[ROW0]], %[[TROWS:.+]] : index
//       CHECK:   %[[P:.+]] = vector.from_elements %[[T0]], %[[T1]], %[[T2]], %[[T3]] : vector<4xbf16>
//       CHECK:   vector.store %[[P]], %[[BUF]][%[[ROW]], %[[COL]]] : memref<?x?xbf16, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
//   CHECK-COUNT-3:   vector.store %{{.+}}, %[[BUF]][%{{.+}}, %{{.+}}] : memref<?x?xbf16, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xbf16>
//   CHECK-NOT:   memref.store
//       CHECK:   gpu.terminator
func.func @bf16(%a: memref<2x4x2x2x2x4x16x16xi8>, %b: memref<2x4x2x2x4x16x16xi8>,
                %sa: memref<2x4x2x4x16x2x2xi8>, %sb: memref<2x4x4x16x2x2xi8>,
                %d: memref<100x60xbf16>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<2x4x2x2x2x4x16x16xi8>, memref<2x4x2x2x4x16x16xi8>,
                                             memref<2x4x2x4x16x2x2xi8>, memref<2x4x4x16x2x2xi8>)
      outs(%d : memref<100x60xbf16>) layout = #fp4 zero_acc
      epilogue ins() maps [] {
  ^bb0(%sum: f32, %old: bf16):
    %t = arith.truncf %sum : f32 to bf16
    mx.yield %t : bf16
  }
  return
}

// -----

#fp4 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// N = 47: a run of the second column of tiles may straddle N (columns 44
// .. 47, the last one past it). C is loaded value by value, each value
// masked (a branch before the K loop costs spills). The stores branch on
// whether the workgroup's tile lies inside N (uniform): inside, whole runs
// without a column mask; the last column of tiles value by value, masked.
// CHECK-LABEL: func.func @straddle
//   CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
//   CHECK-DAG:   %[[C47:.+]] = arith.constant 47 : index
//   CHECK-DAG:   %[[C100:.+]] = arith.constant 100 : index
//       CHECK:   gpu.launch blocks(%[[NO:[^,]+]],
//       CHECK:     %[[TROWS:.+]] = arith.minui
//       CHECK:     %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast {{.*}} to memref<?x?xf32, strided<[47, 1]>, #amdgpu.address_space<fat_raw_buffer>>
//       CHECK:     %[[COLS:.+]] = arith.muli %[[NO]], %[[C32]] : index
//   CHECK-NOT:     scf.if
//       CHECK:     %[[COL:.+]] = arith.addi %[[COLS]], %{{.+}} : index
//       CHECK:     %[[IN:.+]] = arith.cmpi ult, %[[COL]], %[[C47]] : index
//       CHECK:     %[[ROW:.+]] = arith.select %[[IN]], %{{.+}}, %[[TROWS]] : index
//       CHECK:     memref.load %[[BUF]][%[[ROW]], %[[COL]]]
//   CHECK-COUNT-15:  memref.load %[[BUF]]
//   CHECK-NOT:     vector.load %[[BUF]]
//   CHECK-NOT:     scf.if
//       CHECK:     call @mx_uk_scaled_mma
//       CHECK:     %[[END:.+]] = arith.addi %[[COLS]], %[[C32]] : index
//       CHECK:     %[[INSIDE:.+]] = arith.cmpi ule, %[[END]], %[[C47]] : index
//       CHECK:     scf.if %[[INSIDE]] {
//   CHECK-NOT:       arith.select
//   CHECK-COUNT-4:   vector.store %{{.+}}, %[[BUF]][%{{.+}}, %{{.+}}] : memref<?x?xf32, strided<[47, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
//   CHECK-NOT:       memref.store
//       CHECK:     } else {
//   CHECK-COUNT-16:  memref.store %{{.+}}, %[[BUF]]
//   CHECK-NOT:       vector.store %{{.+}}, %[[BUF]]
//       CHECK:     }
//       CHECK:     gpu.terminator
func.func @straddle(%a: memref<2x4x2x2x2x4x16x16xi8>, %b: memref<2x4x2x2x4x16x16xi8>,
                    %sa: memref<2x4x2x4x16x2x2xi8>, %sb: memref<2x4x4x16x2x2xi8>,
                    %c: memref<100x47xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<2x4x2x2x2x4x16x16xi8>, memref<2x4x2x2x4x16x16xi8>,
                                             memref<2x4x2x4x16x2x2xi8>, memref<2x4x4x16x2x2xi8>)
      outs(%c : memref<100x47xf32>) layout = #fp4
  return
}

// -----

#fp4 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// A column-major accumulator (innermost stride 100): consecutive columns
// are not contiguous, so every value is its own access, masked.
// CHECK-LABEL: func.func @column_major
//       CHECK:   %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast {{.*}} to memref<?x?xf32, strided<[1, 100]>, #amdgpu.address_space<fat_raw_buffer>>
//   CHECK-NOT:   scf.if
//   CHECK-COUNT-16:   memref.load %[[BUF]]
//   CHECK-NOT:   vector.load %[[BUF]]
//       CHECK:   call @mx_uk_scaled_mma
//   CHECK-COUNT-16:   memref.store %{{.+}}, %[[BUF]]
//   CHECK-NOT:   vector.store %{{.+}}, %[[BUF]]
//       CHECK:   gpu.terminator
func.func @column_major(%a: memref<2x4x2x2x2x4x16x16xi8>, %b: memref<2x4x2x2x4x16x16xi8>,
                        %sa: memref<2x4x2x4x16x2x2xi8>, %sb: memref<2x4x4x16x2x2xi8>,
                        %c: memref<100x60xf32, strided<[1, 100]>>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<2x4x2x2x2x4x16x16xi8>, memref<2x4x2x2x4x16x16xi8>,
                                             memref<2x4x2x4x16x2x2xi8>, memref<2x4x4x16x2x2xi8>)
      outs(%c : memref<100x60xf32, strided<[1, 100]>>) layout = #fp4
  return
}

// -----

// 32x32x64 on 2 x 2 waves of one intrinsic (64 x 64 tiles): a lane's 16
// values are four runs, columns 32 wn + 8 h + 4 g + (0..3) for h = 0..3 of
// row 32 wm + r: four vector<4xf32> accesses.
// CHECK-LABEL: func.func @f32_32x32x64
//   CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : index
//   CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C24:.+]] = arith.constant 24 : index
//       CHECK:   %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast {{.*}} to memref<?x?xf32, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>
//   CHECK-COUNT-4:   vector.load %[[BUF]][%{{.+}}, %{{.+}}] : memref<?x?xf32, strided<[60, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<4xf32>
//       CHECK:   call @mx_uk_scaled_mma
//       CHECK:   %[[LANE:.+]] = gpu.lane_id
//       CHECK:   %[[GR:.+]]:2 = affine.delinearize_index %[[LANE]] into (2, 32)
//       CHECK:   %[[G:.+]] = affine.linearize_index disjoint [%{{.+}}, %{{.+}}, %[[GR]]#0, %{{.+}}] by (2, 4, 2, 4)
//       CHECK:   vector.store %{{.+}}, %[[BUF]][%{{.+}}, %[[G]]] : {{.*}}, vector<4xf32>
//       CHECK:   %[[G8:.+]] = arith.addi %[[G]], %[[C8]] : index
//       CHECK:   vector.store %{{.+}}, %[[BUF]][%{{.+}}, %[[G8]]] : {{.*}}, vector<4xf32>
//       CHECK:   %[[G16:.+]] = arith.addi %[[G]], %[[C16]] : index
//       CHECK:   vector.store %{{.+}}, %[[BUF]][%{{.+}}, %[[G16]]] : {{.*}}, vector<4xf32>
//       CHECK:   %[[G24:.+]] = arith.addi %[[G]], %[[C24]] : index
//       CHECK:   vector.store %{{.+}}, %[[BUF]][%{{.+}}, %[[G24]]] : {{.*}}, vector<4xf32>
//   CHECK-NOT:   memref.store
//       CHECK:   gpu.terminator
#fp4_32 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_m = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
func.func @f32_32x32x64(%a: memref<2x2x2x4x2x32x16xi8>, %b: memref<1x2x2x4x2x32x16xi8>,
                        %sa: memref<2x2x2x2x32x4xi8>, %sb: memref<1x2x2x2x32x4xi8>,
                        %c: memref<100x60xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<2x2x2x4x2x32x16xi8>, memref<1x2x2x4x2x32x16xi8>,
                                             memref<2x2x2x2x32x4xi8>, memref<1x2x2x2x32x4xi8>)
      outs(%c : memref<100x60xf32>) layout = #fp4_32
  return
}
