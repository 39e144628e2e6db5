// --out writes the raw file format (f4E2M1FN packed two per byte) or .npy
// (one code per byte for MX types, bf16 as <u2 bit patterns); an independent
// script checks the bytes, and the files read back through --expect.

// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t/data
// RUN: mx-run %s --arg=file:%t/data/fp4_codes.bin --out=%t/codes.bin --out=%t/bf16.bin --out=%t/scalar.bin
// RUN: mx-run %s --arg=file:%t/data/fp4_codes.bin --out=%t/codes.npy --out=%t/bf16.npy --out=%t/scalar.npy
// RUN: %python %S/Inputs/check_outputs.py roundtrip %t | FileCheck %s --check-prefix=BYTES

// BYTES: ok: raw fp4 output equals the packed input file
// BYTES: ok: fp4 .npy header: {'descr': '|u1', 'fortran_order': False, 'shape': (2, 64), }
// BYTES: ok: fp4 .npy header is 64-byte aligned
// BYTES: ok: fp4 .npy holds one code per byte
// BYTES: ok: bf16 .npy header: {'descr': '<u2', 'fortran_order': False, 'shape': (3,), }
// BYTES: ok: bf16 bits of 1, -2, 3
// BYTES: ok: rank-0 .npy holds 2.5
// BYTES-NOT: BAD

// RUN: mx-run %s --arg=npy:%t/codes.npy --expect=file:%t/codes.bin --expect=file:%t/bf16.bin \
// RUN:   --expect=file:%t/scalar.bin | FileCheck %s --check-prefix=BACK
// RUN: mx-run %s --arg=file:%t/codes.bin --expect=npy:%t/codes.npy --expect=npy:%t/bf16.npy \
// RUN:   --expect=npy:%t/scalar.npy | FileCheck %s --check-prefix=BACK

// BACK:      result #0 tensor<2x64xf4E2M1FN>: max_abs_err=0 max_rel_err=0 mismatches=0/128 (exact): bit-exact
// BACK-NEXT: result #1 tensor<3xbf16>: max_abs_err=0 max_rel_err=0 mismatches=0/3 (rtol=0, atol=0): bit-exact
// BACK-NEXT: result #2 tensor<f32>: max_abs_err=0 max_rel_err=0 mismatches=0/1 (rtol=0, atol=0): bit-exact
// BACK-NEXT: PASS

func.func @roundtrip(%codes: tensor<2x64xf4E2M1FN>) -> (tensor<2x64xf4E2M1FN>, tensor<3xbf16>, tensor<f32>) {
  %b = arith.constant dense<[1.0, -2.0, 3.0]> : tensor<3xbf16>
  %s = arith.constant dense<2.5> : tensor<f32>
  return %codes, %b, %s : tensor<2x64xf4E2M1FN>, tensor<3xbf16>, tensor<f32>
}
