// mx.quantize of bf16 rows on the gfx950 path (wave emulator) and the CPU
// path, bit-exact against the independent reference on data whose 32-element
// blocks stress the exact arithmetic (Inputs/blocks.py: every binade
// including subnormal inputs, blocks whose scale clamps at 2^-127, exact
// ties on every element grid, the largest binade with +0/-0, NaN/Inf/-0):
// one function per scale rule, each quantizing to the five element types with
// both roundings (twenty results, codes and scales).

// RUN: %python %S/Inputs/blocks.py bf16 24 256 %t.bin 7

// RUN: mx-run %s --backend=gfx950-emu --entry=floor --arg=file:%t.bin --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=ceil --arg=file:%t.bin --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=even --arg=file:%t.bin --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rceil --arg=file:%t.bin --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=floor --arg=file:%t.bin --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=ceil --arg=file:%t.bin --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=even --arg=file:%t.bin --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=rceil --arg=file:%t.bin --compare=reference | FileCheck %s

// CHECK-COUNT-20: : bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

func.func @floor(%x: tensor<24x256xbf16>)
    -> (tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  %e5, %s5 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e6, %s6 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e7, %s7 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e8, %s8 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e9, %s9 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4, %e5, %s5, %e6, %s6, %e7, %s7, %e8, %s8, %e9, %s9
      : tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
}

func.func @ceil(%x: tensor<24x256xbf16>)
    -> (tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  %e5, %s5 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e6, %s6 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e7, %s7 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e8, %s8 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e9, %s9 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4, %e5, %s5, %e6, %s6, %e7, %s7, %e8, %s8, %e9, %s9
      : tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
}

func.func @even(%x: tensor<24x256xbf16>)
    -> (tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  %e5, %s5 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e6, %s6 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e7, %s7 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e8, %s8 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e9, %s9 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4, %e5, %s5, %e6, %s6, %e7, %s7, %e8, %s8, %e9, %s9
      : tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
}

func.func @rceil(%x: tensor<24x256xbf16>)
    -> (tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  %e5, %s5 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>
  %e6, %s6 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>
  %e7, %s7 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>
  %e8, %s8 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>
  %e9, %s9 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x256xbf16> -> tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4, %e5, %s5, %e6, %s6, %e7, %s7, %e8, %s8, %e9, %s9
      : tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf4E2M1FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E2M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf6E3M2FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E4M3FN>, tensor<24x8xf8E8M0FNU>, tensor<24x256xf8E5M2>, tensor<24x8xf8E8M0FNU>
}
