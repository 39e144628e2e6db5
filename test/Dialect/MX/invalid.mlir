// RUN: mx-opt %s -split-input-file -verify-diagnostics

func.func @quantize_block_size(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op block_size must be 32, got 16}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even) {block_size = 16 : i64}
      : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x4xf8E8M0FNU>
  return
}

// -----

func.func @quantize_input_type(%x: tensor<4x64xf64>) {
  // expected-error @+1 {{'mx.quantize' op input element type must be bf16, f16 or f32, got 'f64'}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf64> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_element_type(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op elements must have an MX element type (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN or f8E5M2), got 'i8'}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xi8>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_fnuz_element_type(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op elements must have an MX element type (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN or f8E5M2), got 'f8E4M3FNUZ'}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xf8E4M3FNUZ>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_scale_type(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op scales must have element type f8E8M0FNU, got 'i8'}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xi8>
  return
}

// -----

func.func @quantize_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'mx.quantize' op input must have rank at least 1}}
  %e, %s = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<f32> -> tensor<f4E2M1FN>, tensor<f8E8M0FNU>
  return
}

// -----

func.func @quantize_axis(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op axis 2 is out of range for input of rank 2}}
  %e, %s = mx.quantize %x axis(2) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_negative_axis(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op axis -1 is out of range for input of rank 2}}
  %e, %s = mx.quantize %x axis(-1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_elements_shape(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op elements shape [4, 32] does not match input shape [4, 64]}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_not_multiple(%x: tensor<4x48xf32>) {
  // expected-error @+1 {{'mx.quantize' op input size 48 along axis 1 is not a multiple of the block size 32}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x48xf32> -> tensor<4x48xf4E2M1FN>, tensor<4x1xf8E8M0FNU>
  return
}

// -----

func.func @quantize_scales_rank(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op scales must have the rank of input (2), got rank 1}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<8xf8E8M0FNU>
  return
}

// -----

func.func @quantize_scales_shape(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'mx.quantize' op scales shape [4, 64] does not match input shape [4, 64]: expected [4, 2] (axis 1 divided by 32)}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x64xf8E8M0FNU>
  return
}

// -----

func.func @quantize_columnwise_scales_shape(%x: tensor<64x4xf32>) {
  // expected-error @+1 {{'mx.quantize' op scales shape [64, 1] does not match input shape [64, 4]: expected [2, 4] (axis 0 divided by 32)}}
  %e, %s = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<64x4xf32> -> tensor<64x4xf4E2M1FN>, tensor<64x1xf8E8M0FNU>
  return
}

// -----

func.func @quantize_bad_rule(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'scale' [floor, ceil, even, rceil]}}
  %e, %s = mx.quantize %x axis(1) scale(nearest) rounding(nearest_even)
      : tensor<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_memref(%x: memref<4x64xf32>) {
  // expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'memref<4x64xf32>'}}
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : memref<4x64xf32> -> tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @dequantize_result_type(%e: tensor<4x64xf4E2M1FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{'mx.dequantize' op result element type must be bf16, f16 or f32, got 'i32'}}
  %r = mx.dequantize %e, %s axis(1) : tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU> -> tensor<4x64xi32>
  return
}

// -----

func.func @dequantize_scales(%e: tensor<4x64xf4E2M1FN>, %s: tensor<4x4xf8E8M0FNU>) {
  // expected-error @+1 {{'mx.dequantize' op scales shape [4, 4] does not match result shape [4, 64]: expected [4, 2] (axis 1 divided by 32)}}
  %r = mx.dequantize %e, %s axis(1) : tensor<4x64xf4E2M1FN>, tensor<4x4xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_block_size(%e: tensor<4x64xf4E2M1FN>, %s: tensor<4x4xf8E8M0FNU>) {
  // expected-error @+1 {{'mx.dequantize' op block_size must be 32, got 64}}
  %r = mx.dequantize %e, %s axis(1) {block_size = 64 : i64} : tensor<4x64xf4E2M1FN>, tensor<4x4xf8E8M0FNU> -> tensor<4x64xf32>
  return
}

// -----

func.func @contraction_num_maps(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op expected 3 indexing maps (lhs, rhs, acc), got 2}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_symbols(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op indexing map of rhs must not have symbols}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k)[s0] -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_num_dims(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op indexing map of acc has 4 dimensions, expected 3 (as the lhs map)}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k, b) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_not_permutation(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op indexing map of lhs must be a projected permutation, got affine_map<(d0, d1, d2) -> (d0 + d1, d2)>}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m + n, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_rank(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op rhs has rank 2 but its indexing map has 3 results}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_unused_dim(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op iteration dimension d3 is not used by any indexing map}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k, x) -> (m, k)>, affine_map<(m, n, k, x) -> (n, k)>,
                       affine_map<(m, n, k, x) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_dim_only_in_lhs(%a: tensor<16x64x2xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op iteration dimension d3 is used only by lhs; every dimension must be a batch (lhs, rhs, acc), M (lhs, acc), N (rhs, acc) or reduction (lhs, rhs) dimension}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k, x) -> (m, k, x)>, affine_map<(m, n, k, x) -> (n, k)>,
                       affine_map<(m, n, k, x) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64x2xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_no_reduction(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16x64xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op expected exactly one reduction dimension (used by lhs and rhs, not by acc), found 0}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n, k)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16x64xf32>) -> tensor<16x16x64xf32>
  return
}

// -----

func.func @contraction_two_reductions(%a: tensor<16x64x32xf4E2M1FN>, %b: tensor<16x64x32xf4E2M1FN>,
    %sa: tensor<16x2x32xf8E8M0FNU>, %sb: tensor<16x2x32xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op expected exactly one reduction dimension (used by lhs and rhs, not by acc), found 2}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k, l) -> (m, k, l)>, affine_map<(m, n, k, l) -> (n, k, l)>,
                       affine_map<(m, n, k, l) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64x32xf4E2M1FN>, tensor<16x64x32xf4E2M1FN>,
                            tensor<16x2x32xf8E8M0FNU>, tensor<16x2x32xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_lhs_type(%a: tensor<16x64xbf16>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op lhs must have an MX element type (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN or f8E5M2), got 'bf16'}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xbf16>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_rhs_type(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xi8>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op rhs must have an MX element type (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN or f8E5M2), got 'i8'}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xi8>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_scale_type(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op rhs_scales must have element type f8E8M0FNU, got 'i8'}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xi8>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_acc_type(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'mx.scaled_contraction' op acc must have element type f32, got 'f16'}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf16>) -> tensor<16x16xf16>
  return
}

// -----

func.func @contraction_result_type(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op result type 'tensor<16x8xf32>' must match the acc type 'tensor<16x16xf32>'}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @contraction_size_mismatch(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<32x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op iteration dimension d0 has size 16 in lhs but 32 in acc}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return
}

// -----

func.func @contraction_k_size_mismatch(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x96xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x3xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op iteration dimension d2 has size 64 in lhs but 96 in rhs}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x96xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x3xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_k_not_multiple(%a: tensor<16x48xf4E2M1FN>, %b: tensor<16x48xf4E2M1FN>,
    %sa: tensor<16x1xf8E8M0FNU>, %sb: tensor<16x1xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op reduction dimension size 48 is not a multiple of the block size 32}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x48xf4E2M1FN>, tensor<16x48xf4E2M1FN>,
                            tensor<16x1xf8E8M0FNU>, tensor<16x1xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @contraction_lhs_scales_shape(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op lhs_scales shape [16, 4] does not match lhs shape [16, 64]: expected [16, 2] (axis 1 divided by 32)}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x4xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

// The rhs is K x N here, so its scales must be (K/32) x N.
func.func @contraction_rhs_scales_transposed(%a: tensor<16x64xf4E2M1FN>, %b: tensor<64x8xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<8x2xf8E8M0FNU>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op rhs_scales shape [8, 2] does not match rhs shape [64, 8]: expected [2, 8] (axis 0 divided by 32)}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<64x8xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<8x2xf8E8M0FNU>)
      outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @contraction_scales_rank(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
    %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<32xf8E8M0FNU>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'mx.scaled_contraction' op rhs_scales must have the rank of rhs (2), got rank 1}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<32xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

func.func @grouped_rank(%a: tensor<64x256xf4E2M1FN>, %b: tensor<128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<128x8xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op rhs must have rank 3 ([E, N, K]), got rank 2}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_lhs_type(%a: tensor<64x256xbf16>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op lhs must have an MX element type (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN or f8E5M2), got 'bf16'}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xbf16>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_scale_type(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xi8>, %offsets: tensor<5xi32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op rhs_scales must have element type f8E8M0FNU, got 'i8'}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xi8>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_acc_type(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<64x128xbf16>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op acc must have element type f32, got 'bf16'}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return
}

// -----

func.func @grouped_offset_type(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %offsets: tensor<5xf32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op offsets must have element type i32, i64 or index, got 'f32'}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xf32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_offset_count(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %offsets: tensor<4xi32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op offsets must have E + 1 = 5 elements for 4 experts, got 4}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<4xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_rows(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<32x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op lhs has 64 rows but acc has 32}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<32x128xf32>) -> tensor<32x128xf32>
  return
}

// -----

func.func @grouped_k(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x128xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x4xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op reduction size 256 of lhs differs from 128 of rhs}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x128xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x4xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_n(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op rhs has N = 128 but acc has 64 columns}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return
}

// -----

func.func @grouped_k_block(%a: tensor<64x48xf4E2M1FN>, %b: tensor<4x128x48xf4E2M1FN>, %sa: tensor<64x1xf8E8M0FNU>, %sb: tensor<4x128x1xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op lhs size 48 along axis 1 is not a multiple of the block size 32}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x48xf4E2M1FN>, tensor<4x128x48xf4E2M1FN>, tensor<64x1xf8E8M0FNU>, tensor<4x128x1xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_scale_shape(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x4xf8E8M0FNU>, %offsets: tensor<5xi32>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op rhs_scales shape [4, 128, 4] does not match rhs shape [4, 128, 256]: expected [4, 128, 8] (axis 2 divided by 32)}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x4xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_decreasing(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %acc: tensor<64x128xf32>) {
  %offsets = arith.constant dense<[0, 16, 8, 32, 64]> : tensor<5xi32>
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op offsets must be non-decreasing within [0, T]: offset #2 is 8 after 16 with T = 64}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @grouped_past_end(%a: tensor<64x256xf4E2M1FN>, %b: tensor<4x128x256xf4E2M1FN>, %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<4x128x8xf8E8M0FNU>, %acc: tensor<64x128xf32>) {
  %offsets = arith.constant dense<[0, 16, 32, 64, 65]> : tensor<5xi32>
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op offsets must be non-decreasing within [0, T]: offset #4 is 65 after 64 with T = 64}}
  %r = mx.grouped_scaled_contraction ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      offsets(%offsets : tensor<5xi32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  return
}

// -----

func.func @routed_rank(%a: tensor<8x256xf4E2M1FN>, %w: tensor<128x256xf4E2M1FN>, %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<128x8xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<4xi32>, %acc: tensor<16x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op rhs must have rank 3 ([E, N, K]), got rank 2}}
  %r = mx.routed_scaled_contraction top_k = 2 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<128x256xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<4xi32>) outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
  return
}

// -----

func.func @routed_acc_rows(%a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<4xi32>, %acc: tensor<8x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op acc must have T * top_k = 16 rows (one per routed row), got 8}}
  %r = mx.routed_scaled_contraction top_k = 2 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<4xi32>) outs(%acc : tensor<8x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

// T * top_k wraps around int64 (4 * 4611686018427387909 = 20 mod 2^64): an
// error, not a program that verifies with 20 rows.
func.func @routed_top_k_overflow(%a: tensor<4x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<4x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<4xi32>, %acc: tensor<20x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op T * top_k (4 * 4611686018427387909) overflows int64}}
  %r = mx.routed_scaled_contraction top_k = 4611686018427387909 ins(%a, %w, %sa, %sw : tensor<4x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<4x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<4xi32>) outs(%acc : tensor<20x128xf32>) -> tensor<20x128xf32>
  return
}

// -----

// all_rows_named with fewer positions than routed rows: some row is never
// named.
func.func @routed_all_rows_named_positions(%a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<8xi32>, %e: tensor<4xi32>, %acc: tensor<16x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op all_rows_named needs a position for each of the 16 routed rows, but sorted_ids has 8}}
  %r = mx.routed_scaled_contraction top_k = 2 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<8xi32>, tensor<4xi32>) outs(%acc : tensor<16x128xf32>) {all_rows_named} -> tensor<16x128xf32>
  return
}

// -----

func.func @routed_blocks(%a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<5xi32>, %acc: tensor<16x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op expert_ids must divide sorted_ids into blocks of equal size: 64 positions in 5 blocks}}
  %r = mx.routed_scaled_contraction top_k = 2 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<5xi32>) outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
  return
}

// -----

func.func @routed_id_type(%a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<64xi64>, %e: tensor<4xi32>, %acc: tensor<16x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op sorted_ids must have element type i32, got 'i64'}}
  %r = mx.routed_scaled_contraction top_k = 2 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi64>, tensor<4xi32>) outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
  return
}

// -----

func.func @routed_k(%a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x128xf4E2M1FN>, %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x4xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<4xi32>, %acc: tensor<16x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op reduction size 256 of lhs differs from 128 of rhs}}
  %r = mx.routed_scaled_contraction top_k = 2 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x128xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<4x128x4xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<4xi32>) outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
  return
}

// -----

func.func @routed_scales(%a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<8x4xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<4xi32>, %acc: tensor<16x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op lhs_scales}}
  %r = mx.routed_scaled_contraction top_k = 2 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<8x4xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<4xi32>) outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
  return
}

// -----

func.func @routed_top_k(%a: tensor<8x256xf4E2M1FN>, %w: tensor<4x128x256xf4E2M1FN>, %sa: tensor<8x8xf8E8M0FNU>, %sw: tensor<4x128x8xf8E8M0FNU>, %ids: tensor<64xi32>, %e: tensor<4xi32>, %acc: tensor<16x128xf32>) {
  // expected-error @+1 {{'mx.routed_scaled_contraction' op attribute 'top_k' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %r = mx.routed_scaled_contraction top_k = 0 ins(%a, %w, %sa, %sw : tensor<8x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>, tensor<8x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %e : tensor<64xi32>, tensor<4xi32>) outs(%acc : tensor<16x128xf32>) -> tensor<16x128xf32>
  return
}
