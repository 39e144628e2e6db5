// RUN: mx-opt %s -split-input-file --mx-gfx950-lower-quantize -verify-diagnostics

func.func @not_bytes(%x: memref<4x64xbf16>, %e: memref<4x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op destination #0 must be an i8 memref with the identity layout on gfx950 (run mx-pack-to-bytes), got 'memref<4x64xf4E2M1FN>'}}
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<4x64xbf16> -> f4E2M1FN
      elements(%e : memref<4x64xf4E2M1FN>) maps [affine_map<(m, k) -> (m, k)>] scales() maps [] padding []
  return
}

// -----

func.func @dynamic_axis(%x: memref<4x?xbf16>, %e: memref<4x?xi8>, %s: memref<4x?xi8>) {
  // expected-error @+1 {{'mx.quantize_into' op needs a static size along the axis on gfx950}}
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<4x?xbf16> -> f8E4M3FN
      elements(%e : memref<4x?xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<4x?xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}

// -----

// A dynamic input size must be the destination's too (no padding there).
func.func @dynamic_input_static_destination(%x: memref<?x64xbf16>, %e: memref<8x64xi8>, %s: memref<8x2xi8>) {
  // expected-error @+1 {{'mx.quantize_into' op destination #0 must be dynamic exactly where the input is on gfx950 (dimension 0)}}
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<?x64xbf16> -> f8E4M3FN
      elements(%e : memref<8x64xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s : memref<8x2xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}

// -----

// fp4 columns with a dynamic number of columns: the codes of two columns
// share a byte, which needs the size statically.
func.func @dynamic_packed_columns(%x: memref<64x?xbf16>, %e: memref<64x?xi8>, %s: memref<2x?xi8>) {
  // expected-error @+1 {{'mx.quantize_into' op cannot pack 'f4E2M1FN' codes into destination #0 with a dynamic innermost size on gfx950}}
  mx.quantize_into %x axis(0) scale(floor) rounding(nearest_even) : memref<64x?xbf16> -> f4E2M1FN
      elements(%e : memref<64x?xi8>) maps [affine_map<(m, n) -> (m, n)>]
      scales(%s : memref<2x?xi8>) maps [affine_map<(m, n) -> (m, n)>] padding [127]
  return
}

// -----

// fp4 columns packed along a dynamic dimension through a tiled map.
func.func @dynamic_packed_dimension(%x: memref<?x64xbf16>, %e: memref<?x2x8xi8>, %s: memref<?x64xi8>) {
  // expected-error @+1 {{'mx.quantize_into' op cannot pack 'f4E2M1FN' codes along dimension 0, whose size is dynamic, on gfx950}}
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<?x64xbf16> -> f4E2M1FN
      elements(%e : memref<?x2x8xi8>) maps [affine_map<(m, k) -> (m floordiv 16, k floordiv 32, m mod 16)>]
      scales(%s : memref<?x64xi8>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
  return
}
