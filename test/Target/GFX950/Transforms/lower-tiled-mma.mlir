// RUN: mx-opt %s --mx-gfx950-lower-tiled-mma --canonicalize --cse | FileCheck %s

// mx-gfx950-lower-tiled-mma: each mx.tiled_scaled_mma on memrefs becomes a
// gpu.launch with one workgroup per output tile, grid (No, Mo, batch), and
// 64 * subgroups_m * subgroups_n threads. The workgroup views its tiles in
// global memory (address space 1) as [Ko, <ukernel tile shape>] arrays:
//   lhs        [sm, im, ik, 64, bytes per lane]
//   rhs        [sn, in, ik, 64, bytes per lane]
//   lhs_scales [sm, 64, im * ik]
//   rhs_scales [sn, 64, in * ik]
//   acc        [sm, sn, im, in, 64, f32 per lane] (no Ko)
// at offset (linearized outer indices) * (elements behind them), and calls the
// ukernel the layout's match data selects with (wave / sn, wave % sn, lane)
// and the constant intrinsics_m/n/k. Canonicalization folds the constants so
// the offsets read as products. Kernels are named <func>_mma<i>, counted
// per function.

// fp4, 2 x 1 waves of 2 x 2 x 2 intrinsics; Mo = 3, No = 5, Ko = 4.
#fp4 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @fp4
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<3x4x2x2x2x4x16x16xi8>, %[[B:[^:]+]]: memref<5x4x2x2x4x16x16xi8>, %[[SA:[^:]+]]: memref<3x4x2x4x16x2x2xi8>, %[[SB:[^:]+]]: memref<5x4x4x16x2x2xi8>, %[[C:[^:]+]]: memref<3x5x2x2x2x4x16x4xf32>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C5:.+]] = arith.constant 5 : index
//   CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : index
//   CHECK-DAG:   %[[C128:.+]] = arith.constant 128 : index
//   CHECK-DAG:   %[[C1024:.+]] = arith.constant 1024 : index
//   CHECK-DAG:   %[[C2048:.+]] = arith.constant 2048 : index
//   CHECK-DAG:   %[[C16384:.+]] = arith.constant 16384 : index
//   CHECK-DAG:   %[[C32768:.+]] = arith.constant 32768 : index
//       CHECK:   gpu.launch blocks(%[[BX:[^,]+]], %[[BY:[^,]+]], %{{[^)]+}}) in (%{{[^ ]+}} = %[[C5]], %{{[^ ]+}} = %[[C3]], %{{[^ ]+}} = %[[C1]])
//  CHECK-SAME:     threads(%[[TX:[^,]+]], %{{[^,]+}}, %{{[^)]+}}) in (%{{[^ ]+}} = %[[C128]], %{{[^ ]+}} = %[[C1]], %{{[^ ]+}} = %[[C1]])
//  CHECK-SAME:     module(@fp4_mma0) function(@fp4_mma0)
// Wave w = tid / 64 is subgroup (w / 1, w % 1) = (w, 0).
//  CHECK-NEXT:     %[[WAVE:.+]] = arith.divui %[[TX]], %[[C64]] : index
//  CHECK-NEXT:     %[[LANE:.+]] = arith.remui %[[TX]], %[[C64]] : index
// The lane's accumulators, a private [im, in, f32 per lane] array loaded
// from its tile of acc: BY * 5 + BX, of 2 x 1 x 2 x 2 x 64 x 4 = 2048 floats.
//  CHECK-NEXT:     %[[ACCS:.+]] = memref.alloca() {mx.accumulator_agprs} : memref<2x2x4xf32, 5>
//  CHECK-NEXT:     %[[MN:.+]] = arith.muli %[[BY]], %[[C5]] : index
//  CHECK-NEXT:     %[[LIN:.+]] = arith.addi %[[MN]], %[[BX]] : index
//  CHECK-NEXT:     %[[OC:.+]] = arith.muli %[[LIN]], %[[C2048]] : index
//  CHECK-NEXT:     %[[GC:.+]] = memref.memory_space_cast %[[C]] : memref<3x5x2x2x2x4x16x4xf32> to memref<3x5x2x2x2x4x16x4xf32, 1>
//  CHECK-NEXT:     %[[VC:.+]] = memref.reinterpret_cast %[[GC]] to offset: [%[[OC]]], sizes: [2, 1, 2, 2, 64, 4], strides: [1024, 1024, 512, 256, 4, 1]
//  CHECK-NEXT:     %[[A00:.+]] = vector.load %[[VC]][%[[WAVE]], %[[C0]], %[[C0]], %[[C0]], %[[LANE]], %[[C0]]] : {{.*}}, vector<4xf32>
//  CHECK-NEXT:     vector.store %[[A00]], %[[ACCS]][%[[C0]], %[[C0]], %[[C0]]] : memref<2x2x4xf32, 5>, vector<4xf32>
//  CHECK-NEXT:     %[[A01:.+]] = vector.load %[[VC]][%[[WAVE]], %[[C0]], %[[C0]], %[[C1]], %[[LANE]], %[[C0]]]
//  CHECK-NEXT:     vector.store %[[A01]], %[[ACCS]][%[[C0]], %[[C1]], %[[C0]]]
//  CHECK-COUNT-2:  vector.store %{{.+}}, %[[ACCS]]
// lhs: M tile BY, 4 K steps of 2 x 2 x 2 x 64 x 16 = 8192 bytes.
//  CHECK-NEXT:     %[[OA:.+]] = arith.muli %[[BY]], %[[C32768]] : index
//  CHECK-NEXT:     %[[GA:.+]] = memref.memory_space_cast %[[A]] : memref<3x4x2x2x2x4x16x16xi8> to memref<3x4x2x2x2x4x16x16xi8, 1>
//  CHECK-NEXT:     %[[VA:.+]] = memref.reinterpret_cast %[[GA]] to offset: [%[[OA]]], sizes: [4, 2, 2, 2, 64, 16], strides: [8192, 4096, 2048, 1024, 16, 1]
//  CHECK-SAME:       to memref<4x2x2x2x64x16xi8, strided<[8192, 4096, 2048, 1024, 16, 1], offset: ?>, 1>
// rhs: N tile BX, 4 K steps of 1 x 2 x 2 x 64 x 16 = 4096 bytes.
//  CHECK-NEXT:     %[[OB:.+]] = arith.muli %[[BX]], %[[C16384]] : index
//  CHECK-NEXT:     %[[GB:.+]] = memref.memory_space_cast %[[B]]
//  CHECK-NEXT:     %[[VB:.+]] = memref.reinterpret_cast %[[GB]] to offset: [%[[OB]]], sizes: [4, 1, 2, 2, 64, 16], strides: [4096, 4096, 2048, 1024, 16, 1]
// Scales: 4 K steps of 2 x 64 x 4 and 1 x 64 x 4 bytes.
//  CHECK-NEXT:     %[[OSA:.+]] = arith.muli %[[BY]], %[[C2048]] : index
//  CHECK-NEXT:     %[[GSA:.+]] = memref.memory_space_cast %[[SA]]
//  CHECK-NEXT:     %[[VSA:.+]] = memref.reinterpret_cast %[[GSA]] to offset: [%[[OSA]]], sizes: [4, 2, 64, 4], strides: [512, 256, 4, 1]
//  CHECK-NEXT:     %[[OSB:.+]] = arith.muli %[[BX]], %[[C1024]] : index
//  CHECK-NEXT:     %[[GSB:.+]] = memref.memory_space_cast %[[SB]]
//  CHECK-NEXT:     %[[VSB:.+]] = memref.reinterpret_cast %[[GSB]] to offset: [%[[OSB]]], sizes: [4, 1, 64, 4], strides: [256, 256, 4, 1]
// The ukernel takes dynamically shaped views (the bytes per lane too: its
// element types are parameters) and the accumulator array.
//  CHECK-NEXT:     %[[CA:.+]] = memref.cast %[[VA]] : {{.*}} to memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
//  CHECK-NEXT:     %[[CB:.+]] = memref.cast %[[VB]] : {{.*}} to memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
//  CHECK-NEXT:     %[[CSA:.+]] = memref.cast %[[VSA]] : {{.*}} to memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>
//  CHECK-NEXT:     %[[CSB:.+]] = memref.cast %[[VSB]] : {{.*}} to memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>
//  CHECK-NEXT:     %[[CACCS:.+]] = memref.cast %[[ACCS]] : memref<2x2x4xf32, 5> to memref<?x?x?xf32, 5>
//  CHECK-NEXT:     %[[CL:.+]] = memref.cast
// The type parameters from the layout, the tile sizes as constants. With
// 4 K steps from memory the register schedule keeps the K loop as it is
// (max_k_steps: unrolled by 2, fp4 A's seed tile spilled at 3 and 4 steps).
//  CHECK-NEXT:     func.call @mx_uk_scaled_mma(%[[CA]], %[[CB]], %[[CSA]], %[[CSB]], %[[CACCS]], %[[CL]], %[[WAVE]], %[[C0]], %[[LANE]], %[[C2]], %[[C2]], %[[C2]], %[[C0]])
//  CHECK-SAME:       {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}} : (
// The accumulators back to the tile, the lane index recomputed.
//  CHECK-NEXT:     %[[LANE2:.+]] = gpu.lane_id
//  CHECK-NEXT:     %[[R00:.+]] = vector.load %[[ACCS]][%[[C0]], %[[C0]], %[[C0]]]
//  CHECK-NEXT:     vector.store %[[R00]], %[[VC]][%[[WAVE]], %[[C0]], %[[C0]], %[[C0]], %[[LANE2]], %[[C0]]]
//  CHECK-COUNT-3:  vector.store %{{.+}}, %[[VC]]
//  CHECK-NEXT:     gpu.terminator
//   CHECK-NOT:   mx.tiled_scaled_mma
//       CHECK:   return
func.func @fp4(%a: memref<3x4x2x2x2x4x16x16xi8>, %b: memref<5x4x2x2x4x16x16xi8>,
               %sa: memref<3x4x2x4x16x2x2xi8>, %sb: memref<5x4x4x16x2x2xi8>,
               %c: memref<3x5x2x2x2x4x16x4xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<3x4x2x2x2x4x16x16xi8>, memref<5x4x2x2x4x16x16xi8>,
                                             memref<3x4x2x4x16x2x2xi8>, memref<5x4x4x16x2x2xi8>)
      outs(%c : memref<3x5x2x2x2x4x16x4xf32>) layout = #fp4
  return
}

// fp8 (32 bytes per lane), 2 x 2 waves of 4 x 4 x 1 intrinsics, two batch
// dimensions (2 x 3 = grid z 6, delinearized); Mo = 2, No = 7, Ko = 5. C +=
// A x B with fp8 on both sides: the ukernel's register schedule asks for
// its K loop unrolled by 2 (mx.ukernel.unroll_k).
#fp8 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, intrinsics_m = 4, intrinsics_n = 4, subgroups_m = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @fp8_batched
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<2x3x2x5x2x4x4x16x2x16xi8>, %[[B:[^:]+]]: memref<2x3x7x5x2x4x4x16x2x16xi8>, %[[SA:[^:]+]]: memref<2x3x2x5x2x4x16x4xi8>, %[[SB:[^:]+]]: memref<2x3x7x5x2x4x16x4xi8>, %[[C:[^:]+]]: memref<2x3x2x7x2x2x4x4x4x16x4xf32>)
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C6:.+]] = arith.constant 6 : index
//   CHECK-DAG:   %[[C7:.+]] = arith.constant 7 : index
//   CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : index
//   CHECK-DAG:   %[[C256:.+]] = arith.constant 256 : index
//   CHECK-DAG:   %[[C81920:.+]] = arith.constant 81920 : index
//       CHECK:   gpu.launch blocks(%[[BX:[^,]+]], %[[BY:[^,]+]], %[[BZ:[^)]+]]) in (%{{[^ ]+}} = %[[C7]], %{{[^ ]+}} = %[[C2]], %{{[^ ]+}} = %[[C6]])
//  CHECK-SAME:     threads(%[[TX:[^,]+]], %{{[^,]+}}, %{{[^)]+}}) in (%{{[^ ]+}} = %[[C256]], %{{[^ ]+}} = %[[C1]], %{{[^ ]+}} = %[[C1]])
//  CHECK-SAME:     module(@fp8_batched_mma0) function(@fp8_batched_mma0)
//  CHECK-NEXT:     %[[BATCH:.+]]:2 = affine.delinearize_index %[[BZ]] into (2, 3) : index, index
// Wave w is subgroup (w / 2, w % 2).
//  CHECK-NEXT:     %[[WAVE:.+]] = arith.divui %[[TX]], %[[C64]] : index
//  CHECK-NEXT:     %[[LANE:.+]] = arith.remui %[[TX]], %[[C64]] : index
//  CHECK-NEXT:     %[[WM:.+]] = arith.divui %[[WAVE]], %[[C2]] : index
//  CHECK-NEXT:     %[[WN:.+]] = arith.remui %[[WAVE]], %[[C2]] : index
//  CHECK-NEXT:     %[[ACCS:.+]] = memref.alloca() {mx.accumulator_agprs} : memref<4x4x4xf32, 5>
//  CHECK-NEXT:     %[[B0:.+]] = arith.muli %[[BATCH]]#0, %[[C3]] : index
//  CHECK-NEXT:     %[[BLIN:.+]] = arith.addi %[[B0]], %[[BATCH]]#1 : index
//  CHECK-NEXT:     %[[BM:.+]] = arith.muli %[[BLIN]], %[[C2]] : index
//  CHECK-NEXT:     %[[BMLIN:.+]] = arith.addi %[[BM]], %[[BY]] : index
// The accumulator tile (batch, BY, BX) of 2 x 2 x 4 x 4 x 64 x 4 floats,
// 16 vectors per lane.
//       CHECK:     %[[VC:.+]] = memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [2, 2, 4, 4, 64, 4], strides: [8192, 4096, 1024, 256, 4, 1]
//  CHECK-NEXT:     vector.load %[[VC]][%[[WM]], %[[WN]], %{{.+}}, %{{.+}}, %[[LANE]], %{{.+}}] {{.*}} vector<4xf32>
//  CHECK-COUNT-16: vector.store %{{.+}}, %[[ACCS]]
// 5 K steps of 2 x 4 x 1 x 64 x 32 = 16384 bytes.
//  CHECK-NEXT:     %[[OA:.+]] = arith.muli %[[BMLIN]], %[[C81920]] : index
//  CHECK-NEXT:     %[[GA:.+]] = memref.memory_space_cast %[[A]]
//  CHECK-NEXT:     memref.reinterpret_cast %[[GA]] to offset: [%[[OA]]], sizes: [5, 2, 4, 1, 64, 32], strides: [16384, 8192, 2048, 2048, 32, 1]
//  CHECK-NEXT:     %[[BN:.+]] = arith.muli %[[BLIN]], %[[C7]] : index
//  CHECK-NEXT:     %[[BNLIN:.+]] = arith.addi %[[BN]], %[[BX]] : index
//  CHECK-NEXT:     %[[OB:.+]] = arith.muli %[[BNLIN]], %[[C81920]] : index
//  CHECK-NEXT:     %[[GB:.+]] = memref.memory_space_cast %[[B]]
//  CHECK-NEXT:     memref.reinterpret_cast %[[GB]] to offset: [%[[OB]]], sizes: [5, 2, 4, 1, 64, 32], strides: [16384, 8192, 2048, 2048, 32, 1]
//       CHECK:     memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [5, 2, 64, 4], strides: [512, 256, 4, 1]
//       CHECK:     memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [5, 2, 64, 4], strides: [512, 256, 4, 1]
//       CHECK:     func.call @mx_uk_scaled_mma({{.*}}%[[WM]], %[[WN]], %[[LANE]], %[[C4]], %[[C4]], %[[C1]], %{{[^)]+}})
//  CHECK-SAME:       {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f8E4M3FN}, mx.ukernel.unroll_k = 2 : i64} : (
func.func @fp8_batched(%a: memref<2x3x2x5x2x4x4x16x2x16xi8>, %b: memref<2x3x7x5x2x4x4x16x2x16xi8>,
                       %sa: memref<2x3x2x5x2x4x16x4xi8>, %sb: memref<2x3x7x5x2x4x16x4xi8>,
                       %c: memref<2x3x2x7x2x2x4x4x4x16x4xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<2x3x2x5x2x4x4x16x2x16xi8>, memref<2x3x7x5x2x4x4x16x2x16xi8>,
                                             memref<2x3x2x5x2x4x16x4xi8>, memref<2x3x7x5x2x4x16x4xi8>)
      outs(%c : memref<2x3x2x7x2x2x4x4x4x16x4xf32>) layout = #fp8
  return
}

// The 32x32x64 intrinsic (16 accumulators per lane), dynamic tile counts:
// the grid is (No, Mo) of rhs and lhs, Ko comes from lhs.
#k32 = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_m = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @fp4_32x32x64
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<?x?x2x4x2x32x16xi8>, %[[B:[^:]+]]: memref<?x?x2x4x2x32x16xi8>, %{{[^:]+}}: memref<?x?x2x2x32x4xi8>, %{{[^:]+}}: memref<?x?x2x2x32x4xi8>, %[[C:[^:]+]]: memref<?x?x2x2x2x32x4x4xf32>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C8192:.+]] = arith.constant 8192 : index
//       CHECK:   %[[MO:.+]] = memref.dim %[[A]], %[[C0]]
//       CHECK:   %[[NO:.+]] = memref.dim %[[B]], %[[C0]]
//       CHECK:   gpu.launch blocks(%{{[^,]+}}, %[[BY:[^,]+]], %{{[^)]+}}) in (%{{[^ ]+}} = %[[NO]], %{{[^ ]+}} = %[[MO]], %{{[^ ]+}} = %[[C1]])
//  CHECK-SAME:     module(@fp4_32x32x64_mma0) function(@fp4_32x32x64_mma0)
//       CHECK:     memref.alloca() : memref<1x1x16xf32, 5>
//       CHECK:     memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [2, 2, 1, 1, 64, 16], strides: [2048, 1024, 1024, 1024, 16, 1]
//       CHECK:     vector.load {{.*}} vector<16xf32>
//       CHECK:     %[[KO:.+]] = memref.dim %[[A]], %[[C1]]
//  CHECK-NEXT:     %[[STEP:.+]] = arith.muli %[[KO]], %[[C8192]] : index
//  CHECK-NEXT:     %[[OA:.+]] = arith.muli %[[BY]], %[[STEP]] : index
//  CHECK-NEXT:     %[[GA:.+]] = memref.memory_space_cast %[[A]]
//  CHECK-NEXT:     memref.reinterpret_cast %[[GA]] to offset: [%[[OA]]], sizes: [%[[KO]], 2, 1, 4, 64, 16], strides: [8192, 4096, 4096, 1024, 16, 1]
//       CHECK:     func.call @mx_uk_scaled_mma({{.*}}, %[[C1]], %[[C1]], %[[C4]], %[[C0]])
//  CHECK-SAME:       {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_32x32x64", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}} : (
func.func @fp4_32x32x64(%a: memref<?x?x2x4x2x32x16xi8>, %b: memref<?x?x2x4x2x32x16xi8>,
                        %sa: memref<?x?x2x2x32x4xi8>, %sb: memref<?x?x2x2x32x4xi8>,
                        %c: memref<?x?x2x2x2x32x4x4xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<?x?x2x4x2x32x16xi8>, memref<?x?x2x4x2x32x16xi8>,
                                             memref<?x?x2x2x32x4xi8>, memref<?x?x2x2x32x4xi8>)
      outs(%c : memref<?x?x2x2x2x32x4x4xf32>) layout = #k32
  return
}

// zero_acc: the call tells the ukernel to start its accumulators at +0.0
// (last argument 1) instead of loading them. The register schedules of the
// ukernel (its mx.ukernel.register_schedules data) unroll the K loop and
// keep the accumulators in AGPRs for fp4 x fp4 on 16x16x128 from memory
// (the other cases above: fp8 x fp8 the AGPRs, 32x32x64 neither), and from
// zero with the K loop's first step peeled, from 16 K steps on: not these 4.
// CHECK-LABEL: func.func @fp4_zero_acc
//       CHECK:     memref.alloca() : memref<2x2x4xf32, 5>
//       CHECK:     func.call @mx_uk_scaled_mma({{.*}}, %[[C2:.+]], %[[C2]], %[[C2]], %[[C1:[^)]+]])
//  CHECK-SAME:       {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}} : (
//       CHECK:   return
func.func @fp4_zero_acc(%a: memref<3x4x2x2x2x4x16x16xi8>, %b: memref<5x4x2x2x4x16x16xi8>,
                        %sa: memref<3x4x2x4x16x2x2xi8>, %sb: memref<5x4x4x16x2x2xi8>,
                        %c: memref<3x5x2x2x2x4x16x4xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<3x4x2x2x2x4x16x16xi8>, memref<5x4x2x2x4x16x16xi8>,
                                             memref<3x4x2x4x16x2x2xi8>, memref<5x4x4x16x2x2xi8>)
      outs(%c : memref<3x5x2x2x2x4x16x4xf32>) layout = #fp4 zero_acc
  return
}

// 16 K steps from zero: the schedule with the peel, unrolled only by whole
// pairs of iterations (unroll_remainder = false).
// CHECK-LABEL: func.func @fp4_zero_acc_16_steps
//       CHECK:     memref.alloca() {mx.accumulator_agprs} : memref<2x2x4xf32, 5>
//       CHECK:     func.call @mx_uk_scaled_mma({{.*}}, %[[C2:.+]], %[[C2]], %[[C2]], %[[C1:[^)]+]])
//  CHECK-SAME:       {mx.ukernel.peel_first_k, mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}, mx.ukernel.unroll_k = 2 : i64, mx.ukernel.unroll_whole_k} : (
//       CHECK:   return
func.func @fp4_zero_acc_16_steps(%a: memref<3x16x2x2x2x4x16x16xi8>, %b: memref<5x16x2x2x4x16x16xi8>,
                        %sa: memref<3x16x2x4x16x2x2xi8>, %sb: memref<5x16x4x16x2x2xi8>,
                        %c: memref<3x5x2x2x2x4x16x4xf32>) {
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<3x16x2x2x2x4x16x16xi8>, memref<5x16x2x2x4x16x16xi8>,
                                             memref<3x16x2x4x16x2x2xi8>, memref<5x16x4x16x2x2xi8>)
      outs(%c : memref<3x5x2x2x2x4x16x4xf32>) layout = #fp4 zero_acc
  return
}

// One private declaration of the ukernel, for the calls to verify until
// mx-gfx950-specialize-ukernels replaces them.
//       CHECK: func.func private @mx_uk_scaled_mma(memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>,
//   CHECK-NOT: func.func private @mx_uk_scaled_mma
