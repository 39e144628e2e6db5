// RUN: mx-opt %s -split-input-file -verify-diagnostics

#id = affine_map<(m, k) -> (m, k)>

func.func @mixed(%x: tensor<4x64xbf16>, %e: memref<4x64xf4E2M1FN>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{'mx.quantize_into' op expects the input and all destinations to be tensors, or all memrefs}}
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : memref<4x64xf4E2M1FN>) maps [#id] scales(%s : tensor<4x2xf8E8M0FNU>) maps [#id] padding [127]
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @element_type(%x: tensor<4x64xbf16>, %e: tensor<4x64xf8E4M3FN>) {
  // expected-error @+1 {{'mx.quantize_into' op elements destination #0 must have element type 'f4E2M1FN' or i8 (bytes), got 'f8E4M3FN'}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : tensor<4x64xf8E4M3FN>) maps [#id] scales() maps [] padding []
      -> tensor<4x64xf8E4M3FN>
  return
}

// -----

func.func @map_rank(%x: tensor<4x64xbf16>, %e: tensor<4x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op map of elements destination #0 must have 2 dimensions, no symbols and 2 results, got affine_map<(d0, d1) -> (d0)>}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : tensor<4x64xf4E2M1FN>) maps [affine_map<(m, k) -> (m)>] scales() maps [] padding []
      -> tensor<4x64xf4E2M1FN>
  return
}

// -----

func.func @map_dims(%x: tensor<4x64xbf16>, %e: tensor<4x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op map of elements destination #0 must use every dimension as `d` or `d floordiv T`: affine_map<(d0, d1) -> (d0, d1 mod 64)>}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : tensor<4x64xf4E2M1FN>) maps [affine_map<(m, k) -> (m, k mod 64)>] scales() maps [] padding []
      -> tensor<4x64xf4E2M1FN>
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @too_small(%x: tensor<4x64xbf16>, %e: tensor<4x32xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op elements destination #0 covers [4, 32], less than the logical shape [4, 64]}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : tensor<4x32xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<4x32xf4E2M1FN>
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @padding_count(%x: tensor<4x64xbf16>, %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{'mx.quantize_into' op expects one map per destination and one padding byte per scales destination}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements() maps [] scales(%s : tensor<4x2xf8E8M0FNU>) maps [#id] padding []
      -> tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @no_destination(%x: tensor<4x64xbf16>) {
  // expected-error @+1 {{'mx.quantize_into' op expects at least one destination}}
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements() maps [] scales() maps [] padding []
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @axis_size(%x: tensor<4x48xbf16>, %e: tensor<4x48xf8E4M3FN>) {
  // expected-error @+1 {{'mx.quantize_into' op input size 48 along axis 1 is not a multiple of the block size 32}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<4x48xbf16> -> f8E4M3FN
      elements(%e : tensor<4x48xf8E4M3FN>) maps [#id] scales() maps [] padding []
      -> tensor<4x48xf8E4M3FN>
  return
}

// -----

// Issue 37: `k floordiv 2147483648` on a K of 512 stretched the padded domain
// to 8 x 2^31 points (a launch grid of 134,217,728 workgroups); each padded
// point needs an element of its own, and 4 x 8 x 16 x 32 has 16384.
#huge_tile = affine_map<(n, k) -> (n floordiv 16, k floordiv 2147483648, n mod 16, k mod 32)>

func.func @map_covers_too_many_points(%w: tensor<64x512xbf16>, %e: tensor<4x8x16x32xf8E4M3FN>) {
  // expected-error @+1 {{'mx.quantize_into' op elements destination #0 has 16384 elements but its map covers [64, 17179869184] points}}
  %r = mx.quantize_into %w axis(1) scale(floor) rounding(nearest_even) : tensor<64x512xbf16> -> f8E4M3FN
      elements(%e : tensor<4x8x16x32xf8E4M3FN>) maps [#huge_tile] scales() maps [] padding []
      -> tensor<4x8x16x32xf8E4M3FN>
  return
}

// -----

// A tile so large that the padded extent (8 x 2^61) overflows int64.
#overflowing_tile = affine_map<(n, k) -> (n floordiv 16, k floordiv 2305843009213693952, n mod 16, k mod 32)>

func.func @map_extent_overflows(%w: tensor<64x512xbf16>, %e: tensor<4x8x16x32xf8E4M3FN>) {
  // expected-error @+1 {{'mx.quantize_into' op elements destination #0 has 16384 elements but its map covers [64, ?] points}}
  %r = mx.quantize_into %w axis(1) scale(floor) rounding(nearest_even) : tensor<64x512xbf16> -> f8E4M3FN
      elements(%e : tensor<4x8x16x32xf8E4M3FN>) maps [#overflowing_tile] scales() maps [] padding []
      -> tensor<4x8x16x32xf8E4M3FN>
  return
}

// -----

// Valid: the bytes of sub-byte elements count as elements (4 x 8 x 16 x 32
// bytes of fp4 hold 4 x 8 x 16 x 64 elements, the padded domain's 64 x 512).
#bytes = affine_map<(n, k) -> (n floordiv 16, k floordiv 64, n mod 16, k mod 64)>

func.func @one_to_one_bytes(%w: tensor<64x512xbf16>, %e: tensor<4x8x16x32xi8>) {
  %r = mx.quantize_into %w axis(1) scale(floor) rounding(nearest_even) : tensor<64x512xbf16> -> f4E2M1FN
      elements(%e : tensor<4x8x16x32xi8>) maps [#bytes] scales() maps [] padding []
      -> tensor<4x8x16x32xi8>
  return
}

// -----

// fp6 codes pack four to three bytes: 70 bytes hold no whole number of codes.
func.func @fp6_bytes_partial(%x: tensor<1x96xf32>, %e: tensor<1x70xi8>) {
  // expected-error @+1 {{'mx.quantize_into' op elements destination #0 packs 'f6E2M3FN' codes into bytes: 70 bytes hold no whole number of codes}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<1x96xf32> -> f6E2M3FN
      elements(%e : tensor<1x70xi8>) maps [affine_map<(m, k) -> (m, k)>] scales() maps [] padding []
      -> tensor<1x70xi8>
  return
}

// -----

// A dynamic byte count of fp6 codes may hold no whole number of them.
func.func @fp6_bytes_dynamic(%x: tensor<1x96xf32>, %e: tensor<1x?xi8>) {
  // expected-error @+1 {{'mx.quantize_into' op elements destination #0 packs 'f6E2M3FN' codes into bytes: its innermost size must be static}}
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<1x96xf32> -> f6E2M3FN
      elements(%e : tensor<1x?xi8>) maps [affine_map<(m, k) -> (m, k)>] scales() maps [] padding []
      -> tensor<1x?xi8>
  return
}

// -----

// Valid: any byte count holds a whole number of fp4 codes, so it may be
// dynamic.
func.func @fp4_bytes_dynamic(%x: tensor<1x96xf32>, %e: tensor<1x?xi8>) {
  %r = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : tensor<1x96xf32> -> f4E2M1FN
      elements(%e : tensor<1x?xi8>) maps [affine_map<(m, k) -> (m, k)>] scales() maps [] padding []
      -> tensor<1x?xi8>
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @gather_ids_type(%x: tensor<4x64xbf16>, %ids: tensor<8xi64>, %e: tensor<8x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op ids must be a 1-d tensor or memref of i32, got 'tensor<8xi64>'}}
  %r = mx.quantize_into %x gather(%ids : tensor<8xi64> divisor = 2) axis(1) scale(floor)
      rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : tensor<8x64xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<8x64xf4E2M1FN>
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @gather_ids_memref(%x: tensor<4x64xbf16>, %ids: memref<8xi32>, %e: tensor<8x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op expects ids to be a tensor exactly when the input is}}
  %r = mx.quantize_into %x gather(%ids : memref<8xi32> divisor = 2) axis(1) scale(floor)
      rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : tensor<8x64xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<8x64xf4E2M1FN>
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @gather_axis(%x: tensor<64x4xbf16>, %ids: tensor<8xi32>, %e: tensor<8x4xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op gathers rows: the input must have rank 2 (rows, columns) and axis 1, got 'tensor<64x4xbf16>' and axis 0}}
  %r = mx.quantize_into %x gather(%ids : tensor<8xi32> divisor = 1) axis(0) scale(floor)
      rounding(nearest_even) : tensor<64x4xbf16> -> f4E2M1FN
      elements(%e : tensor<8x4xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<8x4xf4E2M1FN>
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

func.func @gather_divisor(%x: tensor<4x64xbf16>, %ids: tensor<8xi32>, %e: tensor<8x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op attribute 'divisor' failed to satisfy constraint}}
  %r = mx.quantize_into %x gather(%ids : tensor<8xi32> divisor = 0) axis(1) scale(floor)
      rounding(nearest_even) : tensor<4x64xbf16> -> f4E2M1FN
      elements(%e : tensor<8x64xf4E2M1FN>) maps [#id] scales() maps [] padding []
      -> tensor<8x64xf4E2M1FN>
  return
}

// -----

#id = affine_map<(m, k) -> (m, k)>

// The destinations cover the gathered rows (one per id), not the input's.
func.func @gather_rows_covered(%x: tensor<16x64xbf16>, %ids: tensor<8xi32>, %e: tensor<8x64xf4E2M1FN>,
                               %s: tensor<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{'mx.quantize_into' op scales destination #1 covers [4, 2], less than the logical shape [8, 2]}}
  %r:2 = mx.quantize_into %x gather(%ids : tensor<8xi32> divisor = 2) axis(1) scale(floor)
      rounding(nearest_even) : tensor<16x64xbf16> -> f4E2M1FN
      elements(%e : tensor<8x64xf4E2M1FN>) maps [#id] scales(%s : tensor<4x2xf8E8M0FNU>) maps [#id] padding [127]
      -> tensor<8x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>
  return
}
