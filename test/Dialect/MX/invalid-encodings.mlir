// RUN: mx-opt %s -split-input-file -verify-diagnostics

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// expected-error @+1 {{expected 5 element types (lhs, rhs, lhs_scales, rhs_scales, result), got 4}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [1, 2, 32]>

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// expected-error @+1 {{element type #1 must be an MX element type, got 'bf16'}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, bf16, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [1, 2, 32]>

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// expected-error @+1 {{element type #3 (scales) must be f8E8M0FNU, got 'i8'}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, i8, f32], indexing_maps = #maps, iteration_sizes = [1, 2, 32]>

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// expected-error @+1 {{element type #4 (result) must be f32, got 'f16'}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f16], indexing_maps = #maps, iteration_sizes = [1, 2, 32]>

// -----

// expected-error @+1 {{expected 3 affine maps (lhs, rhs, acc) in indexing_maps}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = [affine_map<(m, n, k) -> (m, k)>], iteration_sizes = [1, 2, 32]>

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// expected-error @+1 {{expected 3 iteration sizes (one per map dimension), got 2}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [1, 32]>

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// expected-error @+1 {{iteration sizes must be non-negative or '?'}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [1, -2, 32]>

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// expected-error @+1 {{layout 5 : i64 does not implement TiledLayoutAttrInterface (is its target registered?)}}
#bad = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [1, 2, 32], layout = 5>

// -----

// expected-error @+1 {{lhs_type must be an MX element type, got 'f16'}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f16, rhs_type = f4E2M1FN>

// -----

// expected-error @+1 {{rhs_type must be an MX element type, got 'f8E8M0FNU'}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f8E8M0FNU>

// -----

// expected-error @+1 {{intrinsics_k must be at least 1, got 0}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 0>

// -----

// expected-error @+1 {{subgroups_m * subgroups_n = 32 exceeds 16 waves (1024 threads) per workgroup}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, subgroups_m = 8, subgroups_n = 4>

// -----

// Unroll and wave counts are bounded, so tile sizes, byte counts and the
// wave product (here 2^64) cannot overflow.
// expected-error @+1 {{intrinsics_k = 1099511627776 exceeds 256 (intrinsics a wave unrolls along one dimension)}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 1099511627776>

// -----

// expected-error @+1 {{subgroups_m = 4294967296 exceeds 16 (waves per workgroup)}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, subgroups_m = 4294967296, subgroups_n = 4294967296>

// -----

// expected-error @+1 {{interleave_m cannot contain rhs: that operand has no such unroll dimension}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, interleave_m = [rhs]>

// -----

// expected-error @+1 {{interleave_k cannot contain result: that operand has no such unroll dimension}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, interleave_k = [result]>

// -----

// expected-error @+1 {{interleave_n lists rhs_scales twice}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, interleave_n = [rhs_scales, rhs_scales]>

// -----

// expected-error @+1 {{unknown intrinsic 'mfma_16x16x32' (expected a target's intrinsic attribute, implementing ScaledMMAIntrinsicAttrInterface)}}
#bad = #mx.data_tiled_layout<intrinsic = mfma_16x16x32, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>

// -----

// expected-error @+1 {{intrinsic 5 : i64 does not implement ScaledMMAIntrinsicAttrInterface}}
#bad = #mx.data_tiled_layout<intrinsic = 5 : i64, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>


// -----

// expected-error @+1 {{unknown data_tiled_layout parameter 'tile_m'}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, tile_m = 64>

// -----

// expected-error @+1 {{duplicate 'intrinsics_m'}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_m = 4>

// -----

// expected-error @+1 {{data_tiled_layout needs intrinsic, lhs_type and rhs_type}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN>

// -----

// expected-error @+1 {{unknown operand role 'acc'}}
#bad = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, interleave_m = [acc]>

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
#lhs = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [16, 16, 64]>
func.func @set_without_encoding(%a: tensor<16x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.set_encoding' op expected an #mx.encoding on 'tensor<16x64xf4E2M1FN>'}}
  %e = mx.set_encoding %a : tensor<16x64xf4E2M1FN> -> tensor<16x64xf4E2M1FN>
  return
}

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
#lhs = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [16, 16, 64]>
func.func @set_wrong_element_type(%a: tensor<16x64xf8E4M3FN>) {
  // expected-error @+1 {{'mx.set_encoding' op element type 'f8E4M3FN' does not match the encoding's lhs type 'f4E2M1FN'}}
  %e = mx.set_encoding %a : tensor<16x64xf8E4M3FN> -> tensor<16x64xf8E4M3FN, #lhs>
  return
}

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
#lhs = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [16, 16, 64]>
func.func @set_changes_shape(%a: tensor<16x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.set_encoding' op encoding must not change the shape or element type: 'tensor<16x64xf4E2M1FN>' vs 'tensor<16x32xf4E2M1FN, #mx.encoding}}
  %e = mx.set_encoding %a : tensor<16x64xf4E2M1FN> -> tensor<16x32xf4E2M1FN, #lhs>
  return
}

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
#lhs = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [16, 16, 64]>
func.func @set_wrong_rank(%a: tensor<64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.set_encoding' op tensor of rank 1 does not match the lhs indexing map, which has 2 results}}
  %e = mx.set_encoding %a : tensor<64xf4E2M1FN> -> tensor<64xf4E2M1FN, #lhs>
  return
}

// -----

#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
#res = #mx.encoding<role = result, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [?, 16, 64]>
func.func @unset_missing_dims(%r: tensor<?x16xf32, #res>) {
  // expected-error @+1 {{'mx.unset_encoding' op expected 1 result_dims for the dynamic sizes of the result, got 0}}
  %u = mx.unset_encoding %r : tensor<?x16xf32, #res> -> tensor<?x16xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_inner_mismatch(%a: tensor<4x2x4x16x16xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs inner tile 4x16x16 does not match the layout's swizzled lhs tile 4x16x32}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x16xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_rank(%a: tensor<4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                      %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                      %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs has rank 3, expected at least 5 (2 outer tile dims and the 3-d swizzled tile of the layout)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_batch(%a: tensor<2x4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                       %sa: tensor<2x4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                       %c: tensor<2x4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op rhs has 0 batch dimensions, expected 1 (as lhs)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<2x4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<2x4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<2x4x3x4x16x4xf32>) layout = #l -> tensor<2x4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_k_count(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x5x4x16x32xf4E2M1FN>,
                         %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x5x4x16xf8E8M0FNU>,
                         %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op K tile count differs: 2 in lhs vs 5 in rhs}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x5x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x5x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_scale_type(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                            %sa: tensor<4x2x4x16xi16>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                            %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs_scales must have element type f8E8M0FNU (or i8), got 'i16'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xi16>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

func.func @tiled_layout_kind(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                             %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                             %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+2 {{invalid kind of attribute specified}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = 16 : i64 -> tensor<4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_mixed_kinds(%a: memref<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                             %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                             %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op operands must be all tensors or all memrefs}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_memref_with_result(%a: memref<4x2x4x16x32xf4E2M1FN>, %b: memref<3x2x4x16x32xf4E2M1FN>,
                                    %sa: memref<4x2x4x16xf8E8M0FNU>, %sb: memref<3x2x4x16xf8E8M0FNU>,
                                    %c: memref<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op on memrefs, expected no result (acc is updated in place)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : memref<4x2x4x16x32xf4E2M1FN>, memref<3x2x4x16x32xf4E2M1FN>, memref<4x2x4x16xf8E8M0FNU>, memref<3x2x4x16xf8E8M0FNU>)
      outs(%c : memref<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_tensor_without_result(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                       %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                       %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op on tensors, expected one result of the acc type 'tensor<4x3x4x16x4xf32>'}}
  mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l
  return
}

// -----

// Packed fp4 bytes: the innermost dimension counts bytes (16 per lane), not
// values.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_packed_bytes(%a: tensor<4x2x4x16x32xi8>, %b: tensor<3x2x4x16x16xi8>,
                              %sa: tensor<4x2x4x16xi8>, %sb: tensor<3x2x4x16xi8>,
                              %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs inner tile 4x16x32 does not match the layout's swizzled lhs tile 4x16x16}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xi8>, tensor<3x2x4x16x16xi8>, tensor<4x2x4x16xi8>, tensor<3x2x4x16xi8>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_type_vs_layout(%a: tensor<4x2x4x16x32xf6E2M3FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                %c: tensor<4x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs has element type 'f6E2M3FN', but the layout says 'f4E2M1FN'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf6E2M3FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>) layout = #l -> tensor<4x3x4x16x4xf32>
  return
}

// -----

// The accumulator in the user's layout: 4 tiles of 16 rows hold 49 to 64.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_user_layout_rows(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                  %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                  %c: tensor<70x40xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op acc in the user's layout has 70 rows, which is not 4 tiles of 16 (as lhs)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<70x40xf32>) layout = #l -> tensor<70x40xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_epilogue_not_zero(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                   %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                   %c: tensor<64x40xbf16>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op an epilogue needs zero_acc and acc in the user's layout ([B.., M, N])}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xbf16>) layout = #l epilogue ins() maps [] {
  ^bb0(%s: f32, %o: bf16):
    %t = arith.truncf %s : f32 to bf16
    mx.yield %t : bf16
  } -> tensor<64x40xbf16>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_epilogue_yield_type(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                     %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                     %c: tensor<64x40xbf16>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op the epilogue must yield one value of acc's element type 'bf16'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xbf16>) layout = #l zero_acc epilogue ins() maps [] {
  ^bb0(%s: f32, %o: bf16):
    mx.yield %s : f32
  } -> tensor<64x40xbf16>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_epilogue_map(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                              %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                              %c: tensor<64x40xf32>, %bias: tensor<40xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op epilogue map #0 must be a projected permutation of the 2 result dimensions onto the 1 dimensions of 'tensor<40xf32>'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xf32>) layout = #l zero_acc epilogue ins(%bias : tensor<40xf32>) maps [affine_map<(m, n) -> (m, n)>] {
  ^bb0(%s: f32, %x: f32, %o: f32):
    %t = arith.addf %s, %x : f32
    mx.yield %t : f32
  } -> tensor<64x40xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_epilogue_reads_old(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                    %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                    %c: tensor<64x40xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op the epilogue must not read acc's old value (the accumulator starts at zero)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xf32>) layout = #l zero_acc epilogue ins() maps [] {
  ^bb0(%s: f32, %o: f32):
    %t = arith.addf %s, %o : f32
    mx.yield %t : f32
  } -> tensor<64x40xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @split_k_not_batch(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                             %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                             %c: tensor<64x40xf32>) {
  // expected-error @+1 {{'mx.split_k' = 2 must be the size of the op's leading batch dimension}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xf32>) layout = #l zero_acc {mx.split_k = 2 : i64} -> tensor<64x40xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @split_k_wrong_size(%a: tensor<3x4x2x4x16x32xf4E2M1FN>, %b: tensor<3x3x2x4x16x32xf4E2M1FN>,
                              %sa: tensor<3x4x2x4x16xf8E8M0FNU>, %sb: tensor<3x3x2x4x16xf8E8M0FNU>,
                              %c: tensor<3x64x40xf32>) {
  // expected-error @+1 {{'mx.split_k' = 2 must be the size of the op's leading batch dimension}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<3x4x2x4x16x32xf4E2M1FN>, tensor<3x3x2x4x16x32xf4E2M1FN>, tensor<3x4x2x4x16xf8E8M0FNU>, tensor<3x3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<3x64x40xf32>) layout = #l zero_acc {mx.split_k = 2 : i64} -> tensor<3x64x40xf32>
  return
}

// -----

func.func @split_k_elsewhere() {
  // expected-error @+1 {{'mx.split_k' must be an integer of at least 2 on an 'mx.tiled_scaled_mma' (the number of parts of its K loop)}}
  %c = arith.constant {mx.split_k = 2 : i64} 0 : index
  return
}

// -----

// Found by mx-pass-fuzzer: an epilogue block without a terminator.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_epilogue_no_terminator(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                        %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                        %c: tensor<64x40xbf16>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op the epilogue must yield one value of acc's element type 'bf16'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xbf16>) layout = #l zero_acc epilogue ins() maps [] {
  ^bb0(%s: f32, %o: bf16):
  } -> tensor<64x40xbf16>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @tiled_epilogue_no_block(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                   %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                   %c: tensor<64x40xbf16>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op the epilogue must be one region of one block}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xbf16>) layout = #l zero_acc epilogue ins() maps [] {
  } -> tensor<64x40xbf16>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @grouped_tiled_acc(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                             %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                             %t: tensor<8x3xi32>, %c: tensor<8x3x4x16x4xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op with tile_groups, acc must be in the user's layout ([T, N]), got 'tensor<8x3x4x16x4xf32>'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x3xi32>)
      outs(%c : tensor<8x3x4x16x4xf32>) layout = #l -> tensor<8x3x4x16x4xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @grouped_tiled_no_group_dim(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                      %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                      %t: tensor<8x3xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op rhs has rank 5, expected at least 6 (the group dim, 2 outer tile dims and the 3-d swizzled tile of the layout)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x3xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @grouped_tiled_batch(%a: tensor<2x8x2x4x16x32xf4E2M1FN>, %b: tensor<2x5x3x2x4x16x32xf4E2M1FN>,
                               %sa: tensor<2x8x2x4x16xf8E8M0FNU>, %sb: tensor<2x5x3x2x4x16xf8E8M0FNU>,
                               %t: tensor<8x3xi32>, %c: tensor<2x40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op lhs has 1 batch dimensions; with tile_groups there are none}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<2x8x2x4x16x32xf4E2M1FN>, tensor<2x5x3x2x4x16x32xf4E2M1FN>, tensor<2x8x2x4x16xf8E8M0FNU>, tensor<2x5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x3xi32>)
      outs(%c : tensor<2x40x48xf32>) layout = #l -> tensor<2x40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @grouped_tiled_groups(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<4x3x2x4x16xf8E8M0FNU>,
                                %t: tensor<8x3xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op rhs has 5 groups but rhs_scales 4}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<4x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x3xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @grouped_tiled_table_type(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                    %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                    %t: tensor<8x2xi64>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op tile_groups must be [Mo, 3] of i32 (group, first row, row count per M tile), got 'tensor<8x2xi64>'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x2xi64>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @grouped_tiled_table_rows(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                    %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                    %t: tensor<7x3xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op tile_groups has 7 rows, lhs has 8 M tiles}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<7x3xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @grouped_tiled_columns(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                 %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                 %t: tensor<8x3xi32>, %c: tensor<40x64xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op acc in the user's layout has 64 columns, which is not 3 tiles of 16 (as rhs)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x3xi32>)
      outs(%c : tensor<40x64xf32>) layout = #l -> tensor<40x64xf32>
  return
}

// -----

// Mo * tile_rows overflows int64 (found by mx-parse-fuzzer under UBSan).
func.func @gather_row_tiles_overflow(%a: tensor<40x64xf4E2M1FN>, %t: tensor<7x3xi32>) -> tensor<112x64xf4E2M1FN> {
  // expected-error @+1 {{'mx.gather_row_tiles' op tile_rows (9223372036854775807) times the 7 rows of tile_groups overflows int64}}
  %p = mx.gather_row_tiles %a[%t] tile_rows = 9223372036854775807 : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
  return %p : tensor<112x64xf4E2M1FN>
}

// -----

func.func @gather_rank(%a: tensor<40xf4E2M1FN>, %t: tensor<7x3xi32>) {
  // expected-error @+1 {{'mx.gather_row_tiles' op source must have rank 2 (rows, columns), got 'tensor<40xf4E2M1FN>'}}
  %p = mx.gather_row_tiles %a[%t] tile_rows = 16 : tensor<40xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf4E2M1FN>
  return
}

// -----

func.func @gather_table(%a: tensor<40x64xf4E2M1FN>, %t: tensor<7x3xi64>) {
  // expected-error @+1 {{'mx.gather_row_tiles' op tile_groups must be [Mo, 3] of i32 (group, first row, row count per tile), got 'tensor<7x3xi64>'}}
  %p = mx.gather_row_tiles %a[%t] tile_rows = 16 : tensor<40x64xf4E2M1FN>, tensor<7x3xi64> -> tensor<112x64xf4E2M1FN>
  return
}

// -----

func.func @gather_rows(%a: tensor<40x64xf4E2M1FN>, %t: tensor<7x3xi32>) {
  // expected-error @+1 {{'mx.gather_row_tiles' op result must have 16 rows per row of tile_groups (7), got 100}}
  %p = mx.gather_row_tiles %a[%t] tile_rows = 16 : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<100x64xf4E2M1FN>
  return
}

// -----

func.func @gather_type(%a: tensor<40x64xf4E2M1FN>, %t: tensor<7x3xi32>) {
  // expected-error @+1 {{'mx.gather_row_tiles' op result must be a rank-2 tensor of 'f4E2M1FN', got 'tensor<112x64xf8E4M3FN>'}}
  %p = mx.gather_row_tiles %a[%t] tile_rows = 16 : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x64xf8E4M3FN>
  return
}

// -----

func.func @gather_columns(%a: tensor<40x64xf4E2M1FN>, %t: tensor<7x3xi32>) {
  // expected-error @+1 {{'mx.gather_row_tiles' op result must have the 64 columns of source, got 32}}
  %p = mx.gather_row_tiles %a[%t] tile_rows = 16 : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x32xf4E2M1FN>
  return
}

// -----

func.func @gather_tile_rows(%a: tensor<40x64xf4E2M1FN>, %t: tensor<7x3xi32>) {
  // expected-error @+1 {{'mx.gather_row_tiles' op attribute 'tile_rows' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %p = mx.gather_row_tiles %a[%t] tile_rows = 0 : tensor<40x64xf4E2M1FN>, tensor<7x3xi32> -> tensor<0x64xf4E2M1FN>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @row_ids_without_groups(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                  %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                  %ids: tensor<128xi32>, %c: tensor<128x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op row_ids needs tile_groups}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<128x48xf32>) layout = #l -> tensor<128x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @row_ids_count(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                         %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                         %t: tensor<8x3xi32>, %ids: tensor<100xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op row_ids has 100 rows, expected 128 (8 M tiles of 16 rows)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x3xi32>) row_ids(%ids : tensor<100xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @row_ids_type(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                        %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                        %t: tensor<8x3xi32>, %ids: tensor<128xi64>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op row_ids must be a 1-d tensor or memref of i32, got 'tensor<128xi64>'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%t : tensor<8x3xi32>) row_ids(%ids : tensor<128xi64>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @block_experts_type(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                              %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                              %e: tensor<4xi64>, %ids: tensor<128xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op tile_groups as block experts must be [blocks] of i32, got 'tensor<4xi64>'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%e : tensor<4xi64>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @block_experts_partial_tiles(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                       %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                       %e: tensor<16xi32>, %ids: tensor<128xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op the 128 row_ids are not 16 blocks (tile_groups as block experts) of whole M tiles of 16 rows}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%e : tensor<16xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @block_experts_without_row_ids(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                         %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                         %e: tensor<4xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op tile_groups must be [Mo, 3] of i32 (group, first row, row count per M tile), got 'tensor<4xi32>'}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%e : tensor<4xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l -> tensor<40x48xf32>
  return
}

// -----

func.func @gather_rows_ids(%a: tensor<8x64xf4E2M1FN>, %ids: tensor<4x16xi32>) {
  // expected-error @+1 {{'mx.gather_rows' op ids must be a 1-d tensor of i32, got 'tensor<4x16xi32>'}}
  %g = mx.gather_rows %a[%ids] divisor = 2 : tensor<8x64xf4E2M1FN>, tensor<4x16xi32> -> tensor<64x64xf4E2M1FN>
  return
}

// -----

func.func @gather_rows_count(%a: tensor<8x64xf4E2M1FN>, %ids: tensor<64xi32>) {
  // expected-error @+1 {{'mx.gather_rows' op result must have one row per id (64), got 32}}
  %g = mx.gather_rows %a[%ids] divisor = 2 : tensor<8x64xf4E2M1FN>, tensor<64xi32> -> tensor<32x64xf4E2M1FN>
  return
}

// -----

func.func @gather_rows_type(%a: tensor<8x64xf4E2M1FN>, %ids: tensor<64xi32>) {
  // expected-error @+1 {{'mx.gather_rows' op result must be a rank-2 tensor of 'f4E2M1FN', got 'tensor<64x64xf8E4M3FN>'}}
  %g = mx.gather_rows %a[%ids] divisor = 2 : tensor<8x64xf4E2M1FN>, tensor<64xi32> -> tensor<64x64xf8E4M3FN>
  return
}

// -----

func.func @gather_rows_columns(%a: tensor<8x64xf4E2M1FN>, %ids: tensor<64xi32>) {
  // expected-error @+1 {{'mx.gather_rows' op result must have the 64 columns of source, got 32}}
  %g = mx.gather_rows %a[%ids] divisor = 2 : tensor<8x64xf4E2M1FN>, tensor<64xi32> -> tensor<64x32xf4E2M1FN>
  return
}

// -----

func.func @gather_rows_rank(%a: tensor<64xf4E2M1FN>, %ids: tensor<64xi32>) {
  // expected-error @+1 {{'mx.gather_rows' op source must have rank 2 (rows, columns), got 'tensor<64xf4E2M1FN>'}}
  %g = mx.gather_rows %a[%ids] divisor = 2 : tensor<64xf4E2M1FN>, tensor<64xi32> -> tensor<64x64xf4E2M1FN>
  return
}

// -----

#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
func.func @zero_empty_tiles_without_zero_acc(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                             %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                             %e: tensor<4xi32>, %ids: tensor<128xi32>, %c: tensor<40x48xf32>) {
  // expected-error @+1 {{'mx.tiled_scaled_mma' op zero_empty_tiles needs zero_acc, and row_ids or a tile table}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>, tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%e : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x48xf32>) layout = #l zero_empty_tiles -> tensor<40x48xf32>
  return
}
