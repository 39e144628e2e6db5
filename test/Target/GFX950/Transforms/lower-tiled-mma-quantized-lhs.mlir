// RUN: mx-opt %s -split-input-file --mx-gfx950-lower-tiled-mma -verify-diagnostics | FileCheck %s

// A GEMM whose A an `in_consumer` quantize writes: the launch calls the
// ukernel that quantizes A itself, on a view of the unquantized input, with
// an LDS buffer for two K steps of the quantized A tile (4 fragments of 1
// KiB of codes and 64 scale bytes each: 2 x 4352 bytes), and the quantize
// is gone (it gets no kernel of its own).

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// 20 rows (2 M tiles, the second one padded), K = 1024 (2 K tiles). The
// view: the whole input as a bounds-checked buffer (rows past 20 read 0),
// reinterpreted per workgroup at its first row (tile mo: 16 * 1024 * mo) as
// [Ko, subgroups_m, intrinsics_m, intrinsics_k, K groups, rows, 32] with
// the strides of the quantize's map: 512, -, -, 128, 32, 1024 (a row), 1.
// CHECK-LABEL: func.func @decode
//   CHECK-NOT:   mx.quantize_into
//       CHECK:   gpu.launch
//  CHECK-SAME:     threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c256
//  CHECK-SAME:     workgroup(%[[LDS:.+]] : memref<8704xi8, #gpu.address_space<workgroup>>)
//       CHECK:     %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast %{{.+}} resetOffset : memref<20x1024xbf16, 1> to memref<20x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
//       CHECK:     %[[MO:.+]] = arith.muli %{{.+}}, %c16384
//       CHECK:     %[[OFF:.+]] = arith.addi %{{.+}}, %[[MO]]
//       CHECK:     %[[VIEW:.+]] = memref.reinterpret_cast %[[BUF]] to offset: [%[[OFF]]], sizes: [2, 1, 1, 4, 4, 16, 32], strides: [512, 0, 0, 128, 32, 1024, 1]
//       CHECK:     %[[SRC:.+]] = memref.cast %[[VIEW]] : {{.*}} to memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
//       CHECK:     %[[LDSV:.+]] = memref.cast %[[LDS]] : memref<8704xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
//       CHECK:     %[[NO_ROWS:.+]] = memref.cast %{{.+}} : memref<0xindex, 5> to memref<?xindex, 5>
// K is not padded: k_blocks -1 (after the wave and lane indices).
//       CHECK:     %[[NOT_PADDED:.+]] = arith.constant -1 : index
// Rows not gathered: every lane quantizes its own row's blocks
// (active_rows_log2 = -1).
//       CHECK:     %[[ALL_ROWS:.+]] = arith.constant -1 : index
//       CHECK:     call @mx_uk_scaled_mma_quantized_lhs(%[[SRC]], %{{.+}}, %{{.+}}, %{{.+}}, %[[LDSV]], %[[NO_ROWS]], %{{.+}}, %{{.+}}, %{{.+}}, %[[NOT_PADDED]], %[[ALL_ROWS]],
//  CHECK-SAME:       mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_rounding = "ties_away", lhs_scale = "even", lhs_source = bf16, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}
func.func @decode(%a: memref<20x1024xbf16>, %b: memref<4x2x4x4x4x16x16xi8>,
                  %sb: memref<4x2x4x4x16x4xi8>, %c: memref<20x256xf32>) {
  %e = memref.alloc() : memref<2x2x4x4x16x16xi8>
  %s = memref.alloc() : memref<2x2x4x16x4xi8>
  mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : memref<20x1024xbf16> -> f4E2M1FN
      elements(%e : memref<2x2x4x4x16x16xi8>) maps [#elements] scales(%s : memref<2x2x4x16x4xi8>) maps [#scales]
      padding [127] in_consumer
  mx.tiled_scaled_mma ins(%e, %b, %s, %sb : memref<2x2x4x4x16x16xi8>, memref<4x2x4x4x4x16x16xi8>, memref<2x2x4x16x4xi8>, memref<4x2x4x4x16x4xi8>)
      outs(%c : memref<20x256xf32>) layout = #layout zero_acc
  return
}

// -----

// A routed GEMM whose A the quantize gathers by the sorted ids (divisor 2:
// top 2). Its tile is one fragment of rows, so the kernel first finds the
// rows it needs: each of the tile's 16 ids is loaded and checked (logical
// row mo * 16 + r, ids past the 64 are padding; input row ids[row] / 2,
// mx::buildGatheredSourceRow), and the last row r that holds an input row
// gives active_rows_log2 = log2 of the least power of two above r (0, 1, 2,
// 2, 3, 3, 3, 3, then 4 for rows 8 to 15). Each lane then quantizes
// blocks of row lane mod 2^active_rows_log2, read through its id, and a
// padding id reads the row past the input's 10 (the bounds-checked buffer
// reads it as zeros); the view's M dimensions have stride 0 and its row
// dimension stride 1, indexed by the element offset of the lane's row
// (row_offsets, one per fragment of rows: here one).
// CHECK-LABEL: func.func @routed
//  CHECK-SAME:   %[[X:[^:]+]]: memref<10x1024xbf16>, %[[IDS:[^:]+]]: memref<64xi32>
//       CHECK:   gpu.launch blocks(%{{[^,]+}}, %[[MO:[^,]+]], %{{[^)]+}})
//       CHECK:     scf.if
//       CHECK:       %[[GX:.+]] = memref.memory_space_cast %[[X]] : memref<10x1024xbf16> to memref<10x1024xbf16, 1>
//       CHECK:       %[[BUF:.+]] = amdgpu.fat_raw_buffer_cast %[[GX]] resetOffset : memref<10x1024xbf16, 1> to memref<10x1024xbf16, #amdgpu.address_space<fat_raw_buffer>>
//       CHECK:       %[[VIEW:.+]] = memref.reinterpret_cast %[[BUF]] to offset: [%{{.+}}], sizes: [2, 1, 1, 4, 4, 11264, 32], strides: [512, 0, 0, 128, 32, 1, 1]
//       CHECK:       %[[OFFSETS:.+]] = memref.alloca() : memref<1xindex, 5>
//       CHECK:       %[[TILE0:.+]] = arith.muli %[[MO]], %{{.+}} : index
//       CHECK:       %[[ID0:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<64xi32, 1>
//       CHECK:       arith.index_cast %[[ID0]] : i32 to index
//       CHECK:       %[[LOG0:.+]] = arith.select %{{.+}}, %c0{{.*}}, %c0{{.*}} : index
//       CHECK:       %[[LOG1:.+]] = arith.select %{{.+}}, %c1{{.*}}, %[[LOG0]] : index
//       CHECK:       %[[LOG2:.+]] = arith.select %{{.+}}, %c2{{.*}}, %[[LOG1]] : index
// (rows 3 to 14 alike)
//  CHECK-COUNT-12:   memref.load %{{.+}}[%{{.+}}] : memref<64xi32, 1>
//       CHECK:       %[[ID15:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<64xi32, 1>
//       CHECK:       arith.index_cast %[[ID15]] : i32 to index
//       CHECK:       %[[LOG:.+]] = arith.select %{{.+}}, %c4{{.*}}, %{{.+}} : index
//       CHECK:       %[[ACTIVE:.+]] = arith.shli %c1{{.*}}, %[[LOG]] : index
//       CHECK:       %[[MASK:.+]] = arith.subi %[[ACTIVE]], %c1{{.*}} : index
//       CHECK:       %[[LANE_ROW:.+]] = arith.andi %{{.+}}, %[[MASK]] : index
//       CHECK:       %[[ROW_POS:.+]] = arith.muli %[[LANE_ROW]], %{{.+}} : index
//       CHECK:       %[[POS:.+]] = arith.addi %{{.+}}, %[[ROW_POS]] : index
//       CHECK:       %[[GIDS:.+]] = memref.memory_space_cast %[[IDS]] : memref<64xi32> to memref<64xi32, 1>
//       CHECK:       %[[IN_IDS:.+]] = arith.cmpi ult, %[[POS]], %{{.+}} : index
//       CHECK:       %[[CLAMPED:.+]] = arith.minui %[[POS]], %{{.+}} : index
//       CHECK:       %[[ID:.+]] = memref.load %[[GIDS]][%[[CLAMPED]]] : memref<64xi32, 1>
//       CHECK:       %[[ID_INDEX:.+]] = arith.index_cast %[[ID]] : i32 to index
//       CHECK:       arith.divsi %[[ID_INDEX]], %{{.+}} : index
//       CHECK:       %[[VALID:.+]] = arith.andi %[[IN_IDS]], %{{.+}} : i1
//       CHECK:       %[[ROW:.+]] = arith.select %[[VALID]], %{{.+}}, %{{.+}} : index
//       CHECK:       %[[ROW_OFF:.+]] = arith.muli %[[ROW]], %{{.+}} : index
//       CHECK:       memref.store %[[ROW_OFF]], %[[OFFSETS]][%{{.+}}] : memref<1xindex, 5>
//       CHECK:       %[[SRC:.+]] = memref.cast %[[VIEW]]
//       CHECK:       %[[OFFSETS_ARG:.+]] = memref.cast %[[OFFSETS]] : memref<1xindex, 5> to memref<?xindex, 5>
//       CHECK:       call @mx_uk_scaled_mma_quantized_lhs(%[[SRC]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[OFFSETS_ARG]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[LOG]],
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>
func.func @routed(%x: memref<10x1024xbf16>, %ids: memref<64xi32>, %tiles: memref<4x3xi32>,
                  %b: memref<4x4x2x4x4x4x16x16xi8>, %sb: memref<4x4x2x4x4x16x4xi8>, %c: memref<20x256xf32>) {
  %e = memref.alloc() : memref<4x2x4x4x16x16xi8>
  %s = memref.alloc() : memref<4x2x4x16x4xi8>
  mx.quantize_into %x gather(%ids : memref<64xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even) : memref<10x1024xbf16> -> f4E2M1FN
      elements(%e : memref<4x2x4x4x16x16xi8>) maps [#elements] scales(%s : memref<4x2x4x16x4xi8>) maps [#scales]
      padding [127] in_consumer
  mx.tiled_scaled_mma ins(%e, %b, %s, %sb : memref<4x2x4x4x16x16xi8>, memref<4x4x2x4x4x4x16x16xi8>, memref<4x2x4x16x4xi8>, memref<4x4x2x4x4x16x4xi8>)
      tile_groups(%tiles : memref<4x3xi32>) row_ids(%ids : memref<64xi32>)
      outs(%c : memref<20x256xf32>) layout = #layout zero_acc
  return
}

// -----

#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// A quantize left to a consumer that does not exist would never run.
func.func @no_consumer(%a: memref<20x1024xbf16>) -> memref<2x2x4x4x16x16xi8> {
  %e = memref.alloc() : memref<2x2x4x4x16x16xi8>
  %s = memref.alloc() : memref<2x2x4x16x4xi8>
  // expected-error @+1 {{'mx.quantize_into' op is marked in_consumer, but no mx.tiled_scaled_mma reads its elements as A and its scales as A's scales to quantize it}}
  mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : memref<20x1024xbf16> -> f4E2M1FN
      elements(%e : memref<2x2x4x4x16x16xi8>) maps [#elements] scales(%s : memref<2x2x4x16x4xi8>) maps [#scales]
      padding [127] in_consumer
  return %e : memref<2x2x4x4x16x16xi8>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// Two quantizes writing one buffer pair (as bufferization may leave two
// GEMMs' quantized A): each GEMM quantizes the input of the quantize just
// before it.
// CHECK-LABEL: func.func @shared_buffers
//  CHECK-SAME:   %[[A1:[^:]+]]: memref<20x1024xbf16>, %[[A2:[^:]+]]: memref<20x1024xbf16>
//       CHECK:   gpu.launch
//       CHECK:     memref.memory_space_cast %[[A1]]
//       CHECK:     call @mx_uk_scaled_mma_quantized_lhs(
//       CHECK:   gpu.launch
//       CHECK:     memref.memory_space_cast %[[A2]]
//       CHECK:     call @mx_uk_scaled_mma_quantized_lhs(
//   CHECK-NOT:   mx.quantize_into
func.func @shared_buffers(%a1: memref<20x1024xbf16>, %a2: memref<20x1024xbf16>,
                          %b: memref<4x2x4x4x4x16x16xi8>, %sb: memref<4x2x4x4x16x4xi8>,
                          %c1: memref<20x256xf32>, %c2: memref<20x256xf32>) {
  %e = memref.alloc() : memref<2x2x4x4x16x16xi8>
  %s = memref.alloc() : memref<2x2x4x16x4xi8>
  mx.quantize_into %a1 axis(1) scale(even) rounding(ties_away) : memref<20x1024xbf16> -> f4E2M1FN
      elements(%e : memref<2x2x4x4x16x16xi8>) maps [#elements] scales(%s : memref<2x2x4x16x4xi8>) maps [#scales]
      padding [127] in_consumer
  mx.tiled_scaled_mma ins(%e, %b, %s, %sb : memref<2x2x4x4x16x16xi8>, memref<4x2x4x4x4x16x16xi8>, memref<2x2x4x16x4xi8>, memref<4x2x4x4x16x4xi8>)
      outs(%c1 : memref<20x256xf32>) layout = #layout zero_acc
  mx.quantize_into %a2 axis(1) scale(even) rounding(ties_away) : memref<20x1024xbf16> -> f4E2M1FN
      elements(%e : memref<2x2x4x4x16x16xi8>) maps [#elements] scales(%s : memref<2x2x4x16x4xi8>) maps [#scales]
      padding [127] in_consumer
  mx.tiled_scaled_mma ins(%e, %b, %s, %sb : memref<2x2x4x4x16x16xi8>, memref<4x2x4x4x4x16x16xi8>, memref<2x2x4x16x4xi8>, memref<4x2x4x4x16x4xi8>)
      outs(%c2 : memref<20x256xf32>) layout = #layout zero_acc
  return
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// K = 992 is padded to 1024 (the K tile is 512): the ukernel gets the 31
// blocks of 32 a row holds (k_blocks) and reads the 32nd as zeros; the view
// is the unpadded rows' (a row: 992 values).
// CHECK-LABEL: func.func @padded_k
//       CHECK:     %[[VIEW:.+]] = memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [2, 1, 1, 4, 4, 16, 32], strides: [512, 0, 0, 128, 32, 992, 1]
//       CHECK:     %[[BLOCKS:.+]] = arith.constant 31 : index
//       CHECK:     call @mx_uk_scaled_mma_quantized_lhs(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[BLOCKS]],
func.func @padded_k(%a: memref<20x992xbf16>, %b: memref<4x2x4x4x4x16x16xi8>,
                    %sb: memref<4x2x4x4x16x4xi8>, %c: memref<20x256xf32>) {
  %e = memref.alloc() : memref<2x2x4x4x16x16xi8>
  %s = memref.alloc() : memref<2x2x4x16x4xi8>
  mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : memref<20x992xbf16> -> f4E2M1FN
      elements(%e : memref<2x2x4x4x16x16xi8>) maps [#elements] scales(%s : memref<2x2x4x16x4xi8>) maps [#scales]
      padding [127] in_consumer
  mx.tiled_scaled_mma ins(%e, %b, %s, %sb : memref<2x2x4x4x16x16xi8>, memref<4x2x4x4x4x16x16xi8>, memref<2x2x4x16x4xi8>, memref<4x2x4x4x16x4xi8>)
      outs(%c : memref<20x256xf32>) layout = #layout zero_acc
  return
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// Gathered rows of a column-major input: the row past the last (where a
// padding id reads zeros) would not lie past the buffer.
func.func @routed_column_major(%x: memref<10x1024xbf16, strided<[1, 10]>>, %ids: memref<64xi32>, %tiles: memref<4x3xi32>,
                               %b: memref<4x4x2x4x4x4x16x16xi8>, %sb: memref<4x4x2x4x4x16x4xi8>, %c: memref<20x256xf32>) {
  %e = memref.alloc() : memref<4x2x4x4x16x16xi8>
  %s = memref.alloc() : memref<4x2x4x16x4xi8>
  mx.quantize_into %x gather(%ids : memref<64xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even) : memref<10x1024xbf16, strided<[1, 10]>> -> f4E2M1FN
      elements(%e : memref<4x2x4x4x16x16xi8>) maps [#elements] scales(%s : memref<4x2x4x16x4xi8>) maps [#scales]
      padding [127] in_consumer
  // expected-error @+1 {{quantizes A in the kernel from rows of 'memref<10x1024xbf16, strided<[1, 10]>>' gathered by id, which needs rows one after another}}
  mx.tiled_scaled_mma ins(%e, %b, %s, %sb : memref<4x2x4x4x16x16xi8>, memref<4x4x2x4x4x4x16x16xi8>, memref<4x2x4x16x4xi8>, memref<4x4x2x4x4x16x4xi8>)
      tile_groups(%tiles : memref<4x3xi32>) row_ids(%ids : memref<64xi32>)
      outs(%c : memref<20x256xf32>) layout = #layout zero_acc
  return
}
