// RUN: mx-opt %s -split-input-file --mx-gfx950-lower-quantize -verify-diagnostics

func.func @not_bytes(%x: memref<4x64xbf16>, %e: memref<4x64xf4E2M1FN>) {
  // expected-error @+1 {{'mx.quantize_into' op destination #0 must be a static i8 memref with the identity layout on gfx950 (run mx-pack-to-bytes), got 'memref<4x64xf4E2M1FN>'}}
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even) : memref<4x64xbf16> -> f4E2M1FN
      elements(%e : memref<4x64xf4E2M1FN>) maps [affine_map<(m, k) -> (m, k)>] scales() maps [] padding []
  return
}
