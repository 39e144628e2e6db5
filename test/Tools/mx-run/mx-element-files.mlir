// MX element tensors in files: f4E2M1FN packed two per byte in raw files,
// one code per byte or packed in .npy; f8E8M0FNU scales one byte each. The
// expected f32 values are decoded by Inputs/make_data.py from the OCP E2M1
// table.

// RUN: %python %S/Inputs/make_data.py %t
// RUN: mx-run %s --arg=file:%t/fp4_codes.bin --arg=file:%t/fp4_scales.bin \
// RUN:   --expect=file:%t/fp4_values.bin | FileCheck %s
// RUN: mx-run %s --arg=npy:%t/fp4_codes.npy --arg=file:%t/fp4_scales.bin \
// RUN:   --expect=file:%t/fp4_values.bin | FileCheck %s
// RUN: mx-run %s --arg=npy:%t/fp4_packed.npy --arg=file:%t/fp4_scales.bin \
// RUN:   --expect=file:%t/fp4_values.bin | FileCheck %s

// CHECK: result #0 tensor<2x64xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/128 (rtol=0, atol=0): bit-exact
// CHECK: PASS

func.func @dequantize(%codes: tensor<2x64xf4E2M1FN>, %scales: tensor<2x2xf8E8M0FNU>) -> tensor<2x64xf32> {
  %r = mx.dequantize %codes, %scales axis(1) : tensor<2x64xf4E2M1FN>, tensor<2x2xf8E8M0FNU> -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}
