// RUN: mx-opt %s -split-input-file --mx-gfx950-lower-quantize | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-gfx950-lower-quantize="workgroup-size=128" | FileCheck %s --check-prefix=WG128
// RUN: mx-opt %s -split-input-file --mx-gfx950-lower-quantize="packed-conversions=false" | FileCheck %s --check-prefix=NOPACK

// Column-wise fp4 (axis 0) in the plain layout: the codes of two neighbouring
// columns share a byte, so each thread quantizes the blocks of 2 columns
// (64 x 16 -> 2 x 8 threads), loads each column's 32 values (strided, one
// memref.load each) and stores one byte per row for both columns, then the
// two scale bytes.
// CHECK-LABEL: func.func @cols_fp4
//       CHECK:   gpu.launch blocks
//       CHECK:     arith.cmpi ult, %{{.+}}, %c16 : index
//   CHECK-COUNT-64:     memref.load %{{.+}} : memref<64x16xbf16>
//   CHECK-NOT:     memref.load
//   CHECK-COUNT-32:     memref.store %{{.+}} : memref<64x8xi8>
//       CHECK:     memref.store %{{.+}} : memref<2x16xi8>
//       CHECK:     memref.store %{{.+}} : memref<2x16xi8>
//   CHECK-NOT:     memref.store
//       CHECK:     gpu.terminator
// WG128-LABEL: func.func @cols_fp4
//       WG128:   gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.+}} = %c128,
func.func @cols_fp4(%x: memref<64x16xbf16>, %e: memref<64x8xi8>, %s: memref<2x16xi8>) {
  mx.quantize_into %x axis(0) scale(floor) rounding(nearest_even) : memref<64x16xbf16> -> f4E2M1FN
      elements(%e : memref<64x8xi8>) maps [affine_map<(m, n) -> (m, n)>]
      scales(%s : memref<2x16xi8>) maps [affine_map<(m, n) -> (m, n)>] padding [127]
  return
}

// -----

// Rows padded to a tile of 16 (rows 10..15 are padding): the block load is
// under the thread's in-bounds test, the padding threads yield zeros and
// store the scale padding byte (0x7F).
// CHECK-LABEL: func.func @padded_rows
//       CHECK:   %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %c10 : index
//       CHECK:   scf.if %[[IN]] -> (vector<32xf32>) {
//       CHECK:     vector.load %{{.+}} : memref<10x64xf32>, vector<32xf32>
//       CHECK:   } else {
//       CHECK:     arith.constant dense<0.000000e+00> : vector<32xf32>
//       CHECK:   arith.select %[[IN]], %{{.+}}, %c127_i8 : i8
func.func @padded_rows(%x: memref<10x64xf32>, %e: memref<1x2x16x32xi8>, %s: memref<1x2x16xi8>) {
  mx.quantize_into %x axis(1) scale(ceil) rounding(ties_away) : memref<10x64xf32> -> f8E4M3FN
      elements(%e : memref<1x2x16x32xi8>) maps [affine_map<(m, k) -> (m floordiv 16, k floordiv 32, m mod 16, k mod 32)>]
      scales(%s : memref<1x2x16xi8>) maps [affine_map<(m, kb) -> (m floordiv 16, kb, m mod 16)>] padding [127]
  return
}


// -----

// Rows and columns of the same input: one launch (64 x 256 -> 2 tiles of
// 32 x 256), whose threads quantize the tile's row blocks (a vector load
// each, also stored to LDS), then after a barrier its column blocks, loaded
// from LDS (32 loads each), written at the position of the later op.
// CHECK-LABEL: func.func @rows_and_columns
//  CHECK-SAME:   (%[[X:[^:]+]]: memref<64x256xbf16>
//       CHECK:   %[[C:.+]] = memref.alloc() : memref<64x128xi8>
//       CHECK:   gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) workgroup(%[[LDS:.+]] : memref<32x256xbf16, #gpu.address_space<workgroup>>)
//       CHECK:     scf.if
//       CHECK:       %[[ROW:.+]] = vector.load %[[X]]
//       CHECK:       vector.store %[[ROW]], %[[LDS]]
//       CHECK:     gpu.barrier
//       CHECK:     scf.if
//   CHECK-COUNT-32:  memref.load %[[LDS]]
//   CHECK-NOT:       vector.load %[[X]]
//       CHECK:     gpu.terminator
//   CHECK-NOT:   gpu.launch
func.func @rows_and_columns(%x: memref<64x256xbf16>, %re: memref<64x128xi8>, %rs: memref<64x8xi8>,
                            %cs: memref<2x256xi8>) -> memref<64x128xi8> {
  mx.quantize_into %x axis(1) scale(even) rounding(ties_away) : memref<64x256xbf16> -> f4E2M1FN
      elements(%re : memref<64x128xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%rs : memref<64x8xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  %ce = memref.alloc() : memref<64x128xi8>
  mx.quantize_into %x axis(0) scale(even) rounding(ties_away) : memref<64x256xbf16> -> f4E2M1FN
      elements(%ce : memref<64x128xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%cs : memref<2x256xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return %ce : memref<64x128xi8>
}

// -----

// A write between them (here to the input) keeps them apart: two launches.
// CHECK-LABEL: func.func @rows_store_columns
//       CHECK:   gpu.launch
//       CHECK:   memref.store
//       CHECK:   gpu.launch
//   CHECK-NOT:   workgroup(
func.func @rows_store_columns(%x: memref<64x256xbf16>, %re: memref<64x128xi8>, %rs: memref<64x8xi8>,
                              %ce: memref<64x128xi8>, %cs: memref<2x256xi8>, %v: bf16) {
  mx.quantize_into %x axis(1) scale(even) rounding(ties_away) : memref<64x256xbf16> -> f4E2M1FN
      elements(%re : memref<64x128xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%rs : memref<64x8xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  %c0 = arith.constant 0 : index
  memref.store %v, %x[%c0, %c0] : memref<64x256xbf16>
  mx.quantize_into %x axis(0) scale(even) rounding(ties_away) : memref<64x256xbf16> -> f4E2M1FN
      elements(%ce : memref<64x128xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%cs : memref<2x256xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}

// -----

// Dynamic rows: the thread count is M x 4 blocks at run time (no launch
// when M is 0), and the threads delinearize over (M, 4).
// CHECK-LABEL: func.func @dynamic_rows
//  CHECK-SAME:   (%[[X:[^:]+]]: memref<?x128xbf16>
//       CHECK:   %[[M:.+]] = memref.dim %[[X]], %c0
//       CHECK:   %[[TOTAL:.+]] = arith.muli %c4, %[[M]]
//       CHECK:   %[[NONEMPTY:.+]] = arith.cmpi ne, %[[TOTAL]], %c0
//       CHECK:   scf.if %[[NONEMPTY]]
//       CHECK:     %[[GRID:.+]] = arith.ceildivui %[[TOTAL]], %c256
//       CHECK:     gpu.launch blocks({{.*}}) in ({{.*}} = %[[GRID]],
//       CHECK:       arith.cmpi ult, %{{.+}}, %[[TOTAL]]
//       CHECK:       affine.delinearize_index %{{.+}} into (%[[M]], 4)
func.func @dynamic_rows(%x: memref<?x128xbf16>, %e: memref<?x128xi8>, %s: memref<?x4xi8>) {
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<?x128xbf16> -> f8E4M3FN
      elements(%e : memref<?x128xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<?x4xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}

// -----

// fp4 codes rounded to nearest even along the axis come from the packed
// scaled conversions (v_cvt_scalef32_pk_fp4_bf16): two elements each, four
// per 32-bit word, the scale an f32 whose exponent field is the E8M0 byte;
// a NaN-scale block's words are 0. Ties-away codes of bf16 input too, each
// value widened to f32 with the bit below its last bf16 mantissa bit set
// (half an ulp: exact ties move above the tie, nothing else crosses one);
// f32 input keeps the exact arithmetic for ties away, and so does
// everything with packed-conversions=false.
// CHECK-LABEL: func.func @rows_fp4_nearest_even
//       CHECK:   %[[SHIFTED:.+]] = arith.shli %{{.+}}, %c23_i32{{.*}} : i32
//       CHECK:   %[[SCALE:.+]] = arith.bitcast %[[SHIFTED]] : i32 to f32
//       CHECK:   %[[W0:.+]] = amdgpu.packed_scaled_trunc %{{.+}} into undef[0], %[[SCALE]] : vector<2xbf16> to vector<8xf4E2M1FN>
//       CHECK:   %[[W1:.+]] = amdgpu.packed_scaled_trunc %{{.+}} into %[[W0]][1], %[[SCALE]] : vector<2xbf16> to vector<8xf4E2M1FN> into vector<8xf4E2M1FN>
//       CHECK:   %[[W2:.+]] = amdgpu.packed_scaled_trunc %{{.+}} into %[[W1]][2], %[[SCALE]]
//       CHECK:   %[[W3:.+]] = amdgpu.packed_scaled_trunc %{{.+}} into %[[W2]][3], %[[SCALE]]
//       CHECK:   vector.bitcast %[[W3]] : vector<8xf4E2M1FN> to vector<1xi32>
// CHECK-COUNT-12:   amdgpu.packed_scaled_trunc
//   CHECK-NOT:   amdgpu.packed_scaled_trunc
//       CHECK:   vector.store %{{.+}} : memref<4x64xi8>, vector<16xi8>
// CHECK-LABEL: func.func @rows_fp4_ties_away
//       CHECK:   %[[HALF:.+]] = arith.ori %{{.+}}, %c32768_i32{{.*}} : i32
//       CHECK:   arith.bitcast %[[HALF]] : i32 to f32
//       CHECK:   amdgpu.packed_scaled_trunc %{{.+}} into undef[0], %{{.+}} : vector<2xf32> to vector<8xf4E2M1FN>
// CHECK-LABEL: func.func @rows_fp4_ties_away_f32
//   CHECK-NOT:   amdgpu.packed_scaled_trunc
// NOPACK-LABEL: func.func @rows_fp4_nearest_even
//   NOPACK-NOT:   amdgpu.packed_scaled_trunc
func.func @rows_fp4_nearest_even(%x: memref<4x128xbf16>, %e: memref<4x64xi8>, %s: memref<4x4xi8>) {
  mx.quantize_into %x axis(1) scale(even) rounding(nearest_even) : memref<4x128xbf16> -> f4E2M1FN
      elements(%e : memref<4x64xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<4x4xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}
func.func @rows_fp4_ties_away(%x: memref<4x128xbf16>, %e: memref<4x64xi8>, %s: memref<4x4xi8>) {
  mx.quantize_into %x axis(1) scale(even) rounding(ties_away) : memref<4x128xbf16> -> f4E2M1FN
      elements(%e : memref<4x64xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<4x4xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}
func.func @rows_fp4_ties_away_f32(%x: memref<4x128xf32>, %e: memref<4x64xi8>, %s: memref<4x4xi8>) {
  mx.quantize_into %x axis(1) scale(even) rounding(ties_away) : memref<4x128xf32> -> f4E2M1FN
      elements(%e : memref<4x64xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<4x4xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}

// -----

// An elementwise producer of the input (SwiGLU over the two halves of a
// GEMM's result, rounded to bf16) is computed in the quantize kernel: each
// block loads the 32 gate and up values (one vector load each: the axis is
// their unit-stride innermost dimension) and applies the body to each
// value; the producer and its buffer are gone.
// CHECK-LABEL: func.func @swiglu_producer
//  CHECK-SAME:   (%[[GU:.+]]: memref<64x512xf32>,
//   CHECK-NOT:   linalg.generic
//   CHECK-NOT:   memref.alloc
//       CHECK:   %[[GATE:.+]] = memref.subview %[[GU]][0, 0] [64, 256]
//       CHECK:   %[[UP:.+]] = memref.subview %[[GU]][0, 256] [64, 256]
//       CHECK:   gpu.launch blocks
//       CHECK:     vector.load %[[GATE]][{{.*}}] : memref<64x256xf32, strided<[512, 1]>>, vector<32xf32>
//       CHECK:     vector.load %[[UP]][{{.*}}] : memref<64x256xf32, strided<[512, 1], offset: 256>>, vector<32xf32>
// CHECK-COUNT-32:     math.exp
//   CHECK-NOT:     math.exp
//       CHECK:     gpu.terminator
//   CHECK-NOT:   linalg.generic
#id = affine_map<(m, n) -> (m, n)>
func.func @swiglu_producer(%gu: memref<64x512xf32>, %e: memref<64x128xi8>, %s: memref<64x8xi8>) {
  %gate = memref.subview %gu[0, 0] [64, 256] [1, 1] : memref<64x512xf32> to memref<64x256xf32, strided<[512, 1]>>
  %up = memref.subview %gu[0, 256] [64, 256] [1, 1] : memref<64x512xf32> to memref<64x256xf32, strided<[512, 1], offset: 256>>
  %act = memref.alloc() : memref<64x256xbf16>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : memref<64x256xf32, strided<[512, 1]>>, memref<64x256xf32, strided<[512, 1], offset: 256>>)
      outs(%act : memref<64x256xbf16>) {
  ^bb0(%g: f32, %u: f32, %o: bf16):
    %one = arith.constant 1.0 : f32
    %ng = arith.negf %g : f32
    %ex = math.exp %ng : f32
    %den = arith.addf %ex, %one : f32
    %silu = arith.divf %g, %den : f32
    %p = arith.mulf %silu, %u : f32
    %b = arith.truncf %p : f32 to bf16
    linalg.yield %b : bf16
  }
  mx.quantize_into %act axis(1) scale(even) rounding(nearest_even) : memref<64x256xbf16> -> f4E2M1FN
      elements(%e : memref<64x128xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<64x8xi8>) maps [affine_map<(m, kb) -> (m, kb)>] padding [127]
  return
}

// -----

// A producer that broadcasts along the axis (one value per row) and reads
// its index: a load per value (no vector), linalg.index becomes the point's
// coordinate.
// CHECK-LABEL: func.func @broadcast_producer
//  CHECK-SAME:   (%[[ROW:.+]]: memref<64xf32>,
//       CHECK:   gpu.launch blocks
// CHECK-COUNT-32:     memref.load %[[ROW]][%{{.+}}] : memref<64xf32>
//   CHECK-NOT:     linalg.index
//       CHECK:     gpu.terminator
func.func @broadcast_producer(%row: memref<64xf32>, %e: memref<64x32xi8>, %s: memref<64x2xi8>) {
  %x = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%row : memref<64xf32>) outs(%x : memref<64x64xf32>) {
  ^bb0(%r: f32, %o: f32):
    %n = linalg.index 1 : index
    %ni = arith.index_cast %n : index to i32
    %nf = arith.sitofp %ni : i32 to f32
    %v = arith.mulf %r, %nf : f32
    linalg.yield %v : f32
  }
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<64x64xf32> -> f4E2M1FN
      elements(%e : memref<64x32xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<64x2xi8>) maps [affine_map<(m, kb) -> (m, kb)>] padding [127]
  return
}

// -----

// A producer whose buffer is read by another op stays a producer (its own
// dispatch): the quantize loads its input.
// CHECK-LABEL: func.func @shared_producer
//       CHECK:   linalg.generic
//       CHECK:   gpu.launch blocks
//       CHECK:     vector.load %{{.+}} : memref<64x64xf32>, vector<32xf32>
func.func @shared_producer(%in: memref<64x64xf32>, %e: memref<64x32xi8>, %s: memref<64x2xi8>, %copy: memref<64x64xf32>) {
  %x = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<64x64xf32>) outs(%x : memref<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = arith.addf %v, %v : f32
    linalg.yield %w : f32
  }
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<64x64xf32> -> f4E2M1FN
      elements(%e : memref<64x32xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<64x2xi8>) maps [affine_map<(m, kb) -> (m, kb)>] padding [127]
  memref.copy %x, %copy : memref<64x64xf32> to memref<64x64xf32>
  return
}

// -----

// Gathered by row ids (divisor 2) into 16-row tiles: each thread reads the
// id of its logical row, loads input row ids[i] / 2 (clamped, and only when
// it lies in the input) and stores zeros and the padding byte otherwise.
// CHECK-LABEL: func.func @gathered
//  CHECK-SAME: (%[[X:.+]]: memref<4x64xbf16>, %[[IDS:.+]]: memref<12xi32>, %[[E:.+]]: memref<1x16x32xi8>, %[[S:.+]]: memref<1x16x2xi8>)
//       CHECK:   gpu.launch blocks
//       CHECK:     %[[T:.+]]:2 = affine.delinearize_index %{{.+}} into (16, 2)
//       CHECK:     %[[ROWOK:.+]] = arith.cmpi ult, %[[T]]#0, %c12
//       CHECK:     %[[AT:.+]] = arith.minui %[[T]]#0, %c11
//       CHECK:     %[[ID:.+]] = memref.load %[[IDS]][%[[AT]]] : memref<12xi32>
//       CHECK:     %[[IDX:.+]] = arith.index_cast %[[ID]] : i32 to index
//       CHECK:     %[[SRC:.+]] = arith.divsi %[[IDX]], %c2
//       CHECK:     %[[CLAMP:.+]] = arith.minsi %[[SRC]]
//       CHECK:     %[[ROW:.+]] = arith.maxsi %[[CLAMP]]
//       CHECK:     %[[VALID:.+]] = arith.andi %[[ROWOK]], %{{.+}} : i1
//       CHECK:     scf.if %[[VALID]] -> (vector<32xbf16>)
//       CHECK:       vector.load %[[X]][%[[ROW]], %{{.+}}] : memref<4x64xbf16>, vector<32xbf16>
//       CHECK:     vector.store %{{.+}}, %[[E]]
//       CHECK:     %[[BYTE:.+]] = arith.select %[[VALID]], %{{.+}}, %c127_i8 : i8
//       CHECK:     memref.store %[[BYTE]], %[[S]]
func.func @gathered(%x: memref<4x64xbf16>, %ids: memref<12xi32>, %e: memref<1x16x32xi8>,
                    %s: memref<1x16x2xi8>) {
  mx.quantize_into %x gather(%ids : memref<12xi32> divisor = 2) axis(1) scale(even)
      rounding(nearest_even) : memref<4x64xbf16> -> f4E2M1FN
      elements(%e : memref<1x16x32xi8>) maps [affine_map<(m, k) -> (m floordiv 16, m mod 16, k)>]
      scales(%s : memref<1x16x2xi8>) maps [affine_map<(m, k) -> (m floordiv 16, m mod 16, k)>] padding [127]
  return
}

// -----

// A 16-bit float block's amax (bf16, f16): the sign bits shifted out of the
// packed bits, a tree of unsigned maxima (v_pk_lshlrev_b16, v_pk_max_u16 on
// gfx950), shifted back and widened; an f32 block keeps the float maxima.
// CHECK-LABEL: func.func @amax_tree
//       CHECK:   %[[BITS:.+]] = vector.bitcast %{{.+}} : vector<32xf16> to vector<32xi16>
//       CHECK:   %[[MAG:.+]] = arith.shli %[[BITS]], %{{.+}} : vector<32xi16>
//       CHECK:   %[[LO:.+]] = vector.shuffle %[[MAG]], %[[MAG]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
//       CHECK:   %[[HI:.+]] = vector.shuffle %[[MAG]], %[[MAG]] [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
//       CHECK:   arith.maxui %[[LO]], %[[HI]] : vector<16xi16>
//       CHECK:   arith.maxui {{.+}} : vector<8xi16>
//       CHECK:   arith.maxui {{.+}} : vector<4xi16>
//       CHECK:   arith.maxui {{.+}} : vector<2xi16>
//       CHECK:   %[[TOP:.+]] = arith.maxui {{.+}} : vector<1xi16>
//       CHECK:   %[[LARGEST:.+]] = vector.extract %[[TOP]][0] : i16 from vector<1xi16>
//       CHECK:   %[[HALF:.+]] = arith.shrui %[[LARGEST]], %{{.+}} : i16
//       CHECK:   %[[AMAX:.+]] = arith.bitcast %[[HALF]] : i16 to f16
//       CHECK:   arith.extf %[[AMAX]] : f16 to f32
//   CHECK-NOT:   arith.maximumf
//       CHECK:   gpu.terminator
// CHECK-LABEL: func.func @amax_f32
//       CHECK:   arith.maximumf
func.func @amax_tree(%x: memref<1x32xf16>, %e: memref<1x16xi8>, %s: memref<1x1xi8>) {
  mx.quantize_into %x axis(1) scale(even) rounding(nearest_even) : memref<1x32xf16> -> f4E2M1FN
      elements(%e : memref<1x16xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<1x1xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}
func.func @amax_f32(%x: memref<1x32xf32>, %e: memref<1x16xi8>, %s: memref<1x1xi8>) {
  mx.quantize_into %x axis(1) scale(even) rounding(nearest_even) : memref<1x32xf32> -> f4E2M1FN
      elements(%e : memref<1x16xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<1x1xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}
