// mx.quantize on the gfx950 path: every element type x scale rule x element
// rounding, rows (axis 1, bf16) and columns (axis 0, f32), and 3-D expert
// weights (f16, along either inner dimension), compiled by
// mx-gfx950-pipeline into quantize kernels (mx-gfx950-lower-quantize) and
// executed on the wave emulator; codes and scale bytes must equal the
// independent reference bit for bit, on random data with special values
// (NaN, +-Inf, +-0, denormals, the largest finite values) and on small
// integers (many rounding ties).

// RUN: mx-run %s --backend=gfx950-emu --entry=rows_floor_nearest_even --seed=5 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_floor_nearest_even --seed=6 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rows_floor_ties_away --seed=7 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_floor_ties_away --seed=8 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rows_ceil_nearest_even --seed=9 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_ceil_nearest_even --seed=10 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rows_ceil_ties_away --seed=11 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_ceil_ties_away --seed=12 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rows_even_nearest_even --seed=13 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_even_nearest_even --seed=14 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rows_even_ties_away --seed=15 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_even_ties_away --seed=16 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rows_rceil_nearest_even --seed=17 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_rceil_nearest_even --seed=18 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=rows_rceil_ties_away --seed=19 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols_rceil_ties_away --seed=20 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=experts --seed=5 --arg=random:normal,std=100,specials=0.03 --compare=reference | FileCheck %s --check-prefix=EXPERTS

// Ten results per function (elements and scales of five formats), each
// bit-exact against the reference.
// CHECK-COUNT-10: : bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

// EXPERTS-COUNT-4: : bit-exact
// EXPERTS-NOT: FAIL
// EXPERTS: PASS

func.func @rows_floor_nearest_even(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_floor_nearest_even(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

func.func @rows_floor_ties_away(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(floor) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_floor_ties_away(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(floor) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(floor) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(floor) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(floor) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(floor) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

func.func @rows_ceil_nearest_even(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_ceil_nearest_even(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(ceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(ceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(ceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(ceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(ceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

func.func @rows_ceil_ties_away(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_ceil_ties_away(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(ceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(ceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(ceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(ceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(ceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

func.func @rows_even_nearest_even(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_even_nearest_even(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(even) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(even) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(even) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(even) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(even) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

func.func @rows_even_ties_away(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_even_ties_away(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(even) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(even) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(even) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(even) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(even) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

func.func @rows_rceil_nearest_even(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_rceil_nearest_even(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(rceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(rceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(rceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(rceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(rceil) rounding(nearest_even)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

func.func @rows_rceil_ties_away(%x: tensor<24x128xbf16>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(rceil) rounding(ties_away)
      : tensor<24x128xbf16> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_rceil_ties_away(%x: tensor<96x20xf32>)
    -> (tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(0) scale(rceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(0) scale(rceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(0) scale(rceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(0) scale(rceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(0) scale(rceil) rounding(ties_away)
      : tensor<96x20xf32> -> tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<96x20xf4E2M1FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E2M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf6E3M2FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E4M3FN>, tensor<3x20xf8E8M0FNU>, tensor<96x20xf8E5M2>, tensor<3x20xf8E8M0FNU>
}

// MoE expert weights [E, N, K] quantized along K (MXFP8, torchao's RCEIL)
// and [E, K, N] along K (MXFP4, FLOOR).
func.func @experts(%x: tensor<4x64x96xf16>)
    -> (tensor<4x64x96xf8E4M3FN>, tensor<4x64x3xf8E8M0FNU>,
        tensor<4x64x96xf4E2M1FN>, tensor<4x2x96xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(2) scale(rceil) rounding(nearest_even)
      : tensor<4x64x96xf16> -> tensor<4x64x96xf8E4M3FN>, tensor<4x64x3xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64x96xf16> -> tensor<4x64x96xf4E2M1FN>, tensor<4x2x96xf8E8M0FNU>
  return %e0, %s0, %e1, %s1
      : tensor<4x64x96xf8E4M3FN>, tensor<4x64x3xf8E8M0FNU>,
        tensor<4x64x96xf4E2M1FN>, tensor<4x2x96xf8E8M0FNU>
}
