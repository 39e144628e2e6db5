// RUN: mx-opt %s -verify-roundtrip | FileCheck %s
// RUN: mx-opt %s -mlir-print-op-generic | mx-opt | FileCheck %s

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
         affine_map<(m, n, k) -> (m, n)>]
#lhs = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f8E4M3FN, f8E8M0FNU, f8E8M0FNU, f32],
                    indexing_maps = #maps, iteration_sizes = [255, ?, 4064]>
#result = #mx.encoding<role = result, element_types = [f4E2M1FN, f8E4M3FN, f8E8M0FNU, f8E8M0FNU, f32],
                       indexing_maps = #maps, iteration_sizes = [255, ?, 4064]>
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN,
    rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_k = 2, subgroups_n = 2,
    interleave_m = [lhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#pinned = #mx.encoding<role = rhs_scales, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32],
                       indexing_maps = #maps, iteration_sizes = [64, 32, 256], layout = #layout>

// CHECK-DAG: #[[LHS:.+]] = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f8E4M3FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iteration_sizes = [255, ?, 4064]>
// CHECK-DAG: #[[RESULT:.+]] = #mx.encoding<role = result,
// CHECK-DAG: #[[LAYOUT:[a-z0-9_]+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_k = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-DAG: #[[SIMPLE:[a-z0-9_]+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>{{$}}
// CHECK-DAG: #[[FP8:[a-z0-9_]+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E4M3FN, rhs_type = f4E2M1FN>{{$}}
// CHECK-DAG: #[[PINNED:.+]] = #mx.encoding<role = rhs_scales, {{.*}}, layout = #[[LAYOUT]]>

// CHECK-LABEL: func.func @set_unset
//  CHECK-SAME:   (%[[A:.+]]: tensor<255x4064xf4E2M1FN>, %[[R:.+]]: tensor<255x?xf32, #[[RESULT]]>, %[[D:.+]]: index)
//       CHECK:   %[[E:.+]] = mx.set_encoding %[[A]] : tensor<255x4064xf4E2M1FN> -> tensor<255x4064xf4E2M1FN, #[[LHS]]>
//       CHECK:   %[[U:.+]] = mx.unset_encoding %[[R]] dims(%[[D]]) : tensor<255x?xf32, #[[RESULT]]> -> tensor<255x?xf32>
//       CHECK:   return %[[E]], %[[U]]
func.func @set_unset(%a: tensor<255x4064xf4E2M1FN>, %r: tensor<255x?xf32, #result>, %d: index)
    -> (tensor<255x4064xf4E2M1FN, #lhs>, tensor<255x?xf32>) {
  %e = mx.set_encoding %a : tensor<255x4064xf4E2M1FN> -> tensor<255x4064xf4E2M1FN, #lhs>
  %u = mx.unset_encoding %r dims(%d) : tensor<255x?xf32, #result> -> tensor<255x?xf32>
  return %e, %u : tensor<255x4064xf4E2M1FN, #lhs>, tensor<255x?xf32>
}

// CHECK-LABEL: func.func @pinned_layout
//       CHECK:   mx.set_encoding %{{.+}} : tensor<32x8xf8E8M0FNU> -> tensor<32x8xf8E8M0FNU, #[[PINNED]]>
func.func @pinned_layout(%s: tensor<32x8xf8E8M0FNU>) -> tensor<32x8xf8E8M0FNU, #pinned> {
  %e = mx.set_encoding %s : tensor<32x8xf8E8M0FNU> -> tensor<32x8xf8E8M0FNU, #pinned>
  return %e : tensor<32x8xf8E8M0FNU, #pinned>
}

// One 16x16x128 intrinsic per tile: lhs/rhs [g 4, r 16, 32 values],
// scales [g 4, r 16], acc [g 4, r 16, 4 values].
// CHECK-LABEL: func.func @tiled
//       CHECK:   %[[T:.+]] = mx.tiled_scaled_mma ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
//  CHECK-SAME:     outs(%{{.+}} : tensor<4x3x4x16x4xf32>) layout = #[[SIMPLE]] -> tensor<4x3x4x16x4xf32>
//       CHECK:   return %[[T]]
func.func @tiled(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                 %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                 %c: tensor<4x3x4x16x4xf32>) -> tensor<4x3x4x16x4xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// fp8 operands carry two 16-value K chunks per lane; 32x32x64 accumulators
// hold 4x4 values per lane; batch and dynamic outer dimensions.
// CHECK-LABEL: func.func @tiled_fp8_32x32_batched
//       CHECK:   mx.tiled_scaled_mma ins({{.*}} : tensor<2x?x?x2x32x2x16xf8E4M3FN>, tensor<2x5x?x2x32x32xf4E2M1FN>, tensor<2x?x?x2x32xf8E8M0FNU>, tensor<2x5x?x2x32xf8E8M0FNU>)
//  CHECK-SAME:     outs(%{{.+}} : tensor<2x?x5x2x32x4x4xf32>) layout = #[[FP8]]
func.func @tiled_fp8_32x32_batched(%a: tensor<2x?x?x2x32x2x16xf8E4M3FN>, %b: tensor<2x5x?x2x32x32xf4E2M1FN>,
                                   %sa: tensor<2x?x?x2x32xf8E8M0FNU>, %sb: tensor<2x5x?x2x32xf8E8M0FNU>,
                                   %c: tensor<2x?x5x2x32x4x4xf32>) -> tensor<2x?x5x2x32x4x4xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<2x?x?x2x32x2x16xf8E4M3FN>, tensor<2x5x?x2x32x32xf4E2M1FN>,
                            tensor<2x?x?x2x32xf8E8M0FNU>, tensor<2x5x?x2x32xf8E8M0FNU>)
      outs(%c : tensor<2x?x5x2x32x4x4xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E4M3FN, rhs_type = f4E2M1FN>
      -> tensor<2x?x5x2x32x4x4xf32>
  return %r : tensor<2x?x5x2x32x4x4xf32>
}

// Operands stored as bytes (mx-pack-to-bytes): packed fp4 counts 16 bytes
// per lane, scales are one byte each.
// CHECK-LABEL: func.func @tiled_bytes
//       CHECK:   mx.tiled_scaled_mma ins({{.*}} : tensor<4x2x4x16x16xi8>, tensor<3x2x4x16x16xi8>, tensor<4x2x4x16xi8>, tensor<3x2x4x16xi8>)
func.func @tiled_bytes(%a: tensor<4x2x4x16x16xi8>, %b: tensor<3x2x4x16x16xi8>,
                       %sa: tensor<4x2x4x16xi8>, %sb: tensor<3x2x4x16xi8>,
                       %c: tensor<4x3x4x16x4xf32>) -> tensor<4x3x4x16x4xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x16xi8>, tensor<3x2x4x16x16xi8>,
                            tensor<4x2x4x16xi8>, tensor<3x2x4x16xi8>)
      outs(%c : tensor<4x3x4x16x4xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// After bufferization the op updates its accumulator buffer in place.
// CHECK-LABEL: func.func @tiled_memref
//       CHECK:   mx.tiled_scaled_mma ins({{.*}} : memref<4x2x4x16x32xf4E2M1FN>, memref<3x2x4x16x32xf4E2M1FN>, memref<4x2x4x16xf8E8M0FNU>, memref<3x2x4x16xf8E8M0FNU>) outs(%{{.+}} : memref<4x3x4x16x4xf32>) layout = #[[SIMPLE]]{{$}}
func.func @tiled_memref(%a: memref<4x2x4x16x32xf4E2M1FN>, %b: memref<3x2x4x16x32xf4E2M1FN>,
                        %sa: memref<4x2x4x16xf8E8M0FNU>, %sb: memref<3x2x4x16xf8E8M0FNU>,
                        %c: memref<4x3x4x16x4xf32>) {
  mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : memref<4x2x4x16x32xf4E2M1FN>, memref<3x2x4x16x32xf4E2M1FN>,
                            memref<4x2x4x16xf8E8M0FNU>, memref<3x2x4x16xf8E8M0FNU>)
      outs(%c : memref<4x3x4x16x4xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
  return
}

// zero_acc: the accumulator starts at +0.0 and the destination is not read.
// CHECK-LABEL: func.func @tiled_zero_acc
//       CHECK:   mx.tiled_scaled_mma ins({{.*}}) outs(%{{.+}} : tensor<4x3x4x16x4xf32>) layout = #{{.+}} zero_acc -> tensor<4x3x4x16x4xf32>
func.func @tiled_zero_acc(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                          %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>)
    -> tensor<4x3x4x16x4xf32> {
  %e = tensor.empty() : tensor<4x3x4x16x4xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<4x3x4x16x4xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      zero_acc -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// A grouped GEMM's tiled form: rhs and rhs_scales lead with the groups
// (experts), tile_groups names each M tile's group and rows, acc is in the
// user's layout with any number of rows.
// CHECK-LABEL: func.func @tiled_grouped
//  CHECK-SAME:     %[[TILES:[a-z0-9]+]]: tensor<8x3xi32>
//       CHECK:   mx.tiled_scaled_mma ins({{.*}} : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
//  CHECK-SAME:     tile_groups(%[[TILES]] : tensor<8x3xi32>)
//  CHECK-SAME:     outs(%{{.+}} : tensor<40x48xf32>)
func.func @tiled_grouped(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                         %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                         %tiles: tensor<8x3xi32>, %c: tensor<40x48xf32>) -> tensor<40x48xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%tiles : tensor<8x3xi32>)
      outs(%c : tensor<40x48xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x48xf32>
  return %r : tensor<40x48xf32>
}

// CHECK-LABEL: func.func @gather_row_tiles
//       CHECK:   mx.gather_row_tiles %{{.+}}[%{{.+}}] tile_rows = 16 : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
//       CHECK:   mx.gather_row_tiles %{{.+}}[%{{.+}}] tile_rows = 32 : tensor<?x2xf8E8M0FNU>, tensor<?x3xi32> -> tensor<?x2xf8E8M0FNU>
//       CHECK:   mx.gather_row_tiles %{{.+}}[%{{.+}}] tile_rows = 16 undefined_empty_tiles : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
func.func @gather_row_tiles(%a: tensor<40x64xf4E2M1FN>, %t: tensor<7x3xi32>,
                            %s: tensor<?x2xf8E8M0FNU>, %u: tensor<?x3xi32>)
    -> (tensor<112x64xf4E2M1FN>, tensor<?x2xf8E8M0FNU>, tensor<112x64xf4E2M1FN>) {
  %p = mx.gather_row_tiles %a[%t] tile_rows = 16
      : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
  %q = mx.gather_row_tiles %s[%u] tile_rows = 32
      : tensor<?x2xf8E8M0FNU>, tensor<?x3xi32> -> tensor<?x2xf8E8M0FNU>
  %r = mx.gather_row_tiles %a[%t] tile_rows = 16 undefined_empty_tiles
      : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
  return %p, %q, %r : tensor<112x64xf4E2M1FN>, tensor<?x2xf8E8M0FNU>, tensor<112x64xf4E2M1FN>
}

// A routed GEMM's tiled form: row_ids names the acc row of every tile row.
// CHECK-LABEL: func.func @tiled_routed
//  CHECK-SAME:     %[[TILES:[a-z0-9]+]]: tensor<8x3xi32>, %[[IDS:[a-z0-9]+]]: tensor<128xi32>
//       CHECK:   mx.tiled_scaled_mma {{.*}} tile_groups(%[[TILES]] : tensor<8x3xi32>) row_ids(%[[IDS]] : tensor<128xi32>)
func.func @tiled_routed(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                        %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                        %tiles: tensor<8x3xi32>, %ids: tensor<128xi32>, %c: tensor<40x48xf32>) -> tensor<40x48xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%tiles : tensor<8x3xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x48xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x48xf32>
  return %r : tensor<40x48xf32>
}

// The routed form with the expert of each block of row_ids (4 blocks of 32
// positions, two 16-row tiles each) in place of a tile table.
// CHECK-LABEL: func.func @tiled_routed_block_experts
//  CHECK-SAME:     %[[EXPERTS:[a-z0-9]+]]: tensor<4xi32>, %[[IDS:[a-z0-9]+]]: tensor<128xi32>
//       CHECK:   mx.tiled_scaled_mma {{.*}} tile_groups(%[[EXPERTS]] : tensor<4xi32>) row_ids(%[[IDS]] : tensor<128xi32>)
func.func @tiled_routed_block_experts(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                      %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                      %experts: tensor<4xi32>, %ids: tensor<128xi32>, %c: tensor<40x48xf32>) -> tensor<40x48xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x48xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<40x48xf32>
  return %r : tensor<40x48xf32>
}
