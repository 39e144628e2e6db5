// The reference evaluator on mx.quantize_into, run alone (--backend=reference)
// on an input written here, against answers derived by hand from the op's
// definition (MXOps.td) and OCP MX v1.0 (FLOOR scale, fp4 to nearest even):
// independent of both the evaluator's code and the lowerings' QuantizeArith.
//
// Input 1 x 64 f32: block 0 holds 1, 2, -6, 0.5 at k = 0..3 (amax 6:
// scale 2^(floor(log2 6) - 2) = 2^0, byte 127), block 1 holds 12, 3 at
// k = 32, 33 (amax 12: 2^(3 - 2) = 2^1, byte 128, so 6 and 1.5); every other
// element is 0. f4E2M1FN codes: 1 -> 0x2, 2 -> 0x4, -6 -> 0xF, 0.5 -> 0x1,
// 6 -> 0x7, 1.5 -> 0x3.

// RUN: %python -c "import struct,sys; v=[0.0]*64; v[0:4]=[1.0,2.0,-6.0,0.5]; v[32:34]=[12.0,3.0]; open(sys.argv[1],'wb').write(struct.pack('<64f',*v))" %t.x
// RUN: mx-run %s --backend=reference --entry=layouts --arg=file:%t.x --print --print-limit=0 | FileCheck %s

// The CPU path (convert-mx-to-linalg, i8 destinations packed after the
// loop nests) gives the same hand-derived answers, and the reference agrees
// (checked at the end of the file).
// RUN: mx-run %s --entry=layouts --arg=file:%t.x --print --print-limit=0 --compare=reference | FileCheck %s --check-prefixes=CHECK,CPU

// Results print row-major, flattened.
// Plain: the codes in order.
// CHECK: result #0 tensor<1x64xf4E2M1FN> = [1, 2, -6, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// K tiles of 16 outermost: tile 0 starts 1, 2, -6, 0.5; tile 2 (k = 32..47)
// starts 6, 1.5.
// CHECK: result #1 tensor<4x1x16xf4E2M1FN> = [1, 2, -6, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// Packed bytes (element i in bits [4i, 4i + 4)), rows padded from 1 to 2
// with code 0: byte 0 = 0x2 | 0x4 << 4 = 66, byte 1 = 0xF | 0x1 << 4 = 31,
// byte 16 = 0x7 | 0x3 << 4 = 55; the padding row is all 0.
// CHECK: result #2 tensor<1x2x32xi8> = [66, 31, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 55, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// Scales 2^0, 2^1.
// CHECK: result #3 tensor<1x2xf8E8M0FNU> = [1, 2]
// Scale bytes transposed (kb, m), m padded from 1 to 2 with the byte 5:
// 127, 128 (-128 as i8) in column 0.
// CHECK: result #4 tensor<2x2xi8> = [127, 5, -128, 5]
func.func @layouts(%x: tensor<1x64xf32>)
    -> (tensor<1x64xf4E2M1FN>, tensor<4x1x16xf4E2M1FN>, tensor<1x2x32xi8>,
        tensor<1x2xf8E8M0FNU>, tensor<2x2xi8>) {
  %e0 = tensor.empty() : tensor<1x64xf4E2M1FN>
  %e1 = tensor.empty() : tensor<4x1x16xf4E2M1FN>
  %e2 = tensor.empty() : tensor<1x2x32xi8>
  %s0 = tensor.empty() : tensor<1x2xf8E8M0FNU>
  %s1 = tensor.empty() : tensor<2x2xi8>
  %a, %b, %c, %d, %e = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<1x64xf32> -> f4E2M1FN
      elements(%e0, %e1, %e2 : tensor<1x64xf4E2M1FN>, tensor<4x1x16xf4E2M1FN>, tensor<1x2x32xi8>)
        maps [affine_map<(m, k) -> (m, k)>,
              affine_map<(m, k) -> (k floordiv 16, m, k mod 16)>,
              affine_map<(m, k) -> (m floordiv 2, m mod 2, k)>]
      scales(%s0, %s1 : tensor<1x2xf8E8M0FNU>, tensor<2x2xi8>)
        maps [affine_map<(m, kb) -> (m, kb)>, affine_map<(m, kb) -> (kb, m)>]
        padding [127, 5]
      -> tensor<1x64xf4E2M1FN>, tensor<4x1x16xf4E2M1FN>, tensor<1x2x32xi8>,
         tensor<1x2xf8E8M0FNU>, tensor<2x2xi8>
  return %a, %b, %c, %d, %e : tensor<1x64xf4E2M1FN>, tensor<4x1x16xf4E2M1FN>,
      tensor<1x2x32xi8>, tensor<1x2xf8E8M0FNU>, tensor<2x2xi8>
}

// CPU: comparing @layouts on cpu with the reference evaluator
// CPU-COUNT-5: bit-exact
// CPU: PASS
