// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches{workgroup-size=64}),canonicalize,cse)' | FileCheck %s

// Source runs (issue 33): when a relayout's body loads one buffer whose
// innermost index is linear in the loop indices (possibly clamped to the
// buffer: a fused pack's pad), each thread reads that buffer in aligned runs
// of >= 16 bytes, one vector.load each, and takes its points' elements out
// of them; the outer loops a run needs beyond the thread's 16-byte output
// chunk are dealt to the thread whole, so it also writes several chunks.

// The seed's lhs-scale relayout in small: out[tm, tk, c, r, q, h] =
// src[tm * 128 + q * 16 + r, tk * 8 + h * 4 + c] (rows past 100 are the pad,
// read as 0x7F). A thread's output chunk (q, h) is 8 rows x 2 bytes 4 apart;
// with c (4 scales) and tk (2 tiles) dealt to it whole, each of its 8 rows
// is 16 consecutive bytes of the source: 8 vector loads of 16 bytes (no
// byte loads) for 8 chunks of 16 bytes (16 threads in all).
// CHECK-LABEL: func.func @scale_runs
//  CHECK-SAME:   (%[[SRC:[^:]+]]: memref<100x16xi8>, %[[DST:[^:]+]]: memref<1x2x4x16x8x2xi8>)
//   CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//       CHECK:   gpu.launch
//  CHECK-SAME:       threads(%[[TX:[^,]+]],
//       CHECK:     %[[IN:.+]] = arith.cmpi ult, %[[TX]], %[[C16]] : index
//  CHECK-NEXT:     scf.if %[[IN]] {
//   CHECK-NOT:       memref.load
//       CHECK:       %[[ROW0:.+]] = arith.maxsi
//  CHECK-NEXT:       %[[ROWS0:.+]] = vector.load %[[SRC]][%[[ROW0]], %[[C0]]] : memref<100x16xi8>, vector<16xi8>
//  CHECK-NEXT:       %[[E0:.+]] = vector.extract %[[ROWS0]][0] : i8 from vector<16xi8>
//  CHECK-NEXT:       %[[P0:.+]] = arith.select %{{.+}}, %[[E0]], %{{.+}} : i8
//  CHECK-NEXT:       %[[E1:.+]] = vector.extract %[[ROWS0]][4] : i8 from vector<16xi8>
//  CHECK-NEXT:       %[[P1:.+]] = arith.select %{{.+}}, %[[E1]], %{{.+}} : i8
// CHECK-COUNT-7:     vector.load %[[SRC]][%{{.+}}, %[[C0]]] : memref<100x16xi8>, vector<16xi8>
//   CHECK-NOT:       memref.load
//       CHECK:       %[[OUT:.+]] = memref.collapse_shape %[[DST]] {{\[}}[0], [1], [2], [3], [4, 5]] : memref<1x2x4x16x8x2xi8> into memref<1x2x4x16x16xi8>
//  CHECK-NEXT:       %[[V0:.+]] = vector.from_elements %[[P0]], %[[P1]], {{.*}} : vector<16xi8>
//  CHECK-NEXT:       vector.store %[[V0]], %[[OUT]][%[[C0]], %[[C0]], %[[C0]], %[[TX]], %[[C0]]] : memref<1x2x4x16x16xi8>, vector<16xi8>
// The next chunk (c = 1) takes bytes 1 and 5 of each row's run.
//       CHECK:       vector.extract %[[ROWS0]][1] : i8 from vector<16xi8>
//       CHECK:       vector.extract %[[ROWS0]][5] : i8 from vector<16xi8>
// CHECK-COUNT-7:     vector.store %{{.+}}, %[[OUT]][%[[C0]], %{{.+}}, %{{.+}}, %[[TX]], %[[C0]]] : memref<1x2x4x16x16xi8>, vector<16xi8>
//   CHECK-NOT:       vector.load
//   CHECK-NOT:       memref.load
//       CHECK:   return

// A run padded along the loaded dimension: out[r, t, i] = src[r, t * 16 + i]
// for t * 16 + i < 48, else 0. The run starts at min(max(t * 16, 0), 32);
// a run wholly past the end (t = 3) reads the clamped element (15 of the
// last run) at every point, as the scalar loads did; the pad's select then
// writes zeros.
// CHECK-LABEL: func.func @pad_runs
//  CHECK-SAME:   (%[[SRC:[^:]+]]: memref<4x48xi8>, %[[DST:[^:]+]]: memref<4x4x16xi8>)
//   CHECK-DAG:   %[[C32:.+]] = arith.constant 32 : index
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//       CHECK:     scf.if
//  CHECK-NEXT:       %[[I:.+]]:2 = affine.delinearize_index %{{.+}} into (4, 4) : index, index
//  CHECK-NEXT:       %[[START:.+]] = affine.linearize_index disjoint [%[[I]]#1, %[[C0]]] by (4, 16) : index
//  CHECK-NEXT:       arith.cmpi slt, %[[START]], %{{.+}} : index
//  CHECK-NEXT:       %[[MIN:.+]] = arith.minsi %[[START]], %[[C32]] : index
//  CHECK-NEXT:       %[[COL:.+]] = arith.maxsi %[[MIN]], %[[C0]] : index
//  CHECK-NEXT:       %[[LOADED:.+]] = vector.load %[[SRC]][%[[I]]#0, %[[COL]]] : memref<4x48xi8>, vector<16xi8>
//  CHECK-NEXT:       %[[BEFORE:.+]] = arith.cmpi slt, %[[START]], %[[C0]] : index
//  CHECK-NEXT:       %[[AFTER:.+]] = arith.cmpi sgt, %[[START]], %[[C32]] : index
//  CHECK-NEXT:       %[[LAST:.+]] = vector.extract %[[LOADED]][15] : i8 from vector<16xi8>
//  CHECK-NEXT:       %[[LASTS:.+]] = vector.broadcast %[[LAST]] : i8 to vector<16xi8>
//  CHECK-NEXT:       %[[R1:.+]] = arith.select %[[AFTER]], %[[LASTS]], %[[LOADED]] : vector<16xi8>
//  CHECK-NEXT:       %[[FIRST:.+]] = vector.extract %[[LOADED]][0] : i8 from vector<16xi8>
//  CHECK-NEXT:       %[[FIRSTS:.+]] = vector.broadcast %[[FIRST]] : i8 to vector<16xi8>
//  CHECK-NEXT:       %[[R2:.+]] = arith.select %[[BEFORE]], %[[FIRSTS]], %[[R1]] : vector<16xi8>
//  CHECK-NEXT:       vector.extract %[[R2]][0] : i8 from vector<16xi8>
//   CHECK-NOT:       vector.load
//   CHECK-NOT:       memref.load
//       CHECK:       vector.store %{{.+}}, %[[DST]][%[[I]]#0, %[[I]]#1, %[[C0]]] : memref<4x4x16xi8>, vector<16xi8>

// No runs: the loaded dimension (7 scales) is not a whole number of 16-byte
// runs, so each point loads its byte, as before.
// CHECK-LABEL: func.func @no_runs
//   CHECK-NOT:   vector.load
// CHECK-COUNT-16: memref.load %{{.+}} : memref<64x7xi8>
//       CHECK:   vector.store %{{.+}} : memref<4x32xi8>, vector<16xi8>

// fp6 in small: rows of 24 bytes (32 fp6 values), out[t, r, j] = src[r,
// t * 24 + j]. A thread owns two whole rows (48 bytes: a 16-byte chunk would
// split one) and two of t, so it reads 2 runs of 48 consecutive bytes
// (3 x 16, aligned to 16) and stores 2 chunks of 48.
// CHECK-LABEL: func.func @fp6_rows
//  CHECK-SAME:   (%[[SRC:[^:]+]]: memref<8x96xi8>, %[[DST:[^:]+]]: memref<4x8x24xi8>)
//       CHECK:     scf.if
//  CHECK-NEXT:       %[[I:.+]]:2 = affine.delinearize_index %{{.+}} into (2, 4) : index, index
//  CHECK-NEXT:       %[[BASE:.+]] = arith.muli %[[I]]#1, %{{.+}} : index
//  CHECK-NEXT:       %[[T:.+]] = arith.muli %[[I]]#0, %{{.+}} : index
//  CHECK-NEXT:       %[[P:.+]]:2 = affine.delinearize_index %[[BASE]] into (8, 24) : index, index
//  CHECK-NEXT:       %[[COL:.+]] = affine.linearize_index disjoint [%[[T]], %[[P]]#1] by (4, 24) : index
//  CHECK-NEXT:       %[[ROW0:.+]] = vector.load %[[SRC]][%[[P]]#0, %[[COL]]] : memref<8x96xi8>, vector<48xi8>
//       CHECK:       %[[ROW1:.+]] = vector.load %[[SRC]][%{{.+}}, %{{.+}}] : memref<8x96xi8>, vector<48xi8>
//   CHECK-NOT:       vector.load
//   CHECK-NOT:       memref.load
//       CHECK:       %[[OUT:.+]] = memref.collapse_shape %[[DST]] {{\[}}[0], [1, 2]] : memref<4x8x24xi8> into memref<4x192xi8>
//       CHECK:       vector.store %{{.+}}, %[[OUT]][%[[T]], %[[BASE]]] : memref<4x192xi8>, vector<48xi8>
//       CHECK:       vector.store %{{.+}}, %[[OUT]][%{{.+}}, %[[BASE]]] : memref<4x192xi8>, vector<48xi8>

func.func @scale_runs(%src: memref<100x16xi8>, %dst: memref<1x2x4x16x8x2xi8>) {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %c99 = arith.constant 99 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 127 : i8
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      outs(%dst : memref<1x2x4x16x8x2xi8>) {
  ^bb0(%out: i8):
    %0 = linalg.index 0 : index
    %1 = linalg.index 1 : index
    %2 = linalg.index 2 : index
    %3 = linalg.index 3 : index
    %4 = linalg.index 4 : index
    %5 = linalg.index 5 : index
    %6 = affine.linearize_index disjoint [%4, %3] by (8, 16) : index
    %7 = affine.linearize_index disjoint [%5, %2] by (2, 4) : index
    %8 = affine.linearize_index disjoint [%0, %6] by (1, 128) : index
    %9 = affine.linearize_index disjoint [%1, %7] by (2, 8) : index
    %10 = arith.cmpi slt, %8, %c100 : index
    %11 = arith.cmpi sge, %8, %c0 : index
    %12 = arith.andi %10, %11 : i1
    %13 = arith.minsi %8, %c99 : index
    %14 = arith.maxsi %13, %c0 : index
    %15 = arith.cmpi slt, %9, %c16 : index
    %16 = arith.cmpi sge, %9, %c0 : index
    %17 = arith.andi %15, %16 : i1
    %18 = arith.andi %12, %17 : i1
    %19 = arith.minsi %9, %c15 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = memref.load %src[%14, %20] : memref<100x16xi8>
    %22 = arith.select %18, %21, %one : i8
    linalg.yield %22 : i8
  }
  return
}

func.func @pad_runs(%src: memref<4x48xi8>, %dst: memref<4x4x16xi8>) {
  %c0 = arith.constant 0 : index
  %c48 = arith.constant 48 : index
  %c47 = arith.constant 47 : index
  %zero = arith.constant 0 : i8
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%dst : memref<4x4x16xi8>) {
  ^bb0(%out: i8):
    %0 = linalg.index 0 : index
    %1 = linalg.index 1 : index
    %2 = linalg.index 2 : index
    %3 = affine.linearize_index disjoint [%1, %2] by (4, 16) : index
    %4 = arith.cmpi slt, %3, %c48 : index
    %5 = arith.minsi %3, %c47 : index
    %6 = arith.maxsi %5, %c0 : index
    %7 = memref.load %src[%0, %6] : memref<4x48xi8>
    %8 = arith.select %4, %7, %zero : i8
    linalg.yield %8 : i8
  }
  return
}

func.func @no_runs(%src: memref<64x7xi8>, %dst: memref<4x16x2xi8>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%dst : memref<4x16x2xi8>) {
  ^bb0(%out: i8):
    %0 = linalg.index 0 : index
    %1 = linalg.index 1 : index
    %2 = linalg.index 2 : index
    %3 = affine.linearize_index disjoint [%2, %0] by (2, 4) : index
    %c6 = arith.constant 6 : index
    %4 = arith.minsi %3, %c6 : index
    %7 = memref.load %src[%1, %4] : memref<64x7xi8>
    linalg.yield %7 : i8
  }
  return
}

func.func @fp6_rows(%src: memref<8x96xi8>, %dst: memref<4x8x24xi8>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%dst : memref<4x8x24xi8>) {
  ^bb0(%out: i8):
    %0 = linalg.index 0 : index
    %1 = linalg.index 1 : index
    %2 = linalg.index 2 : index
    %3 = affine.linearize_index disjoint [%0, %2] by (4, 24) : index
    %4 = memref.load %src[%1, %3] : memref<8x96xi8>
    linalg.yield %4 : i8
  }
  return
}
