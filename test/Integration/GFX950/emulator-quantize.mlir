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
// RUN: mx-run %s --backend=gfx950-emu --entry=gemm_padded --seed=6 --arg=random:int,lo=-50,hi=50 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=124,hi=130 --arg=zeros --compare=reference | FileCheck %s --check-prefix=PADDED
// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=FUSED
// RUN: mx-run %s --backend=gfx950-emu --entry=experts --seed=5 --arg=random:normal,std=100,specials=0.03 --compare=reference | FileCheck %s --check-prefix=EXPERTS

// Ten results per function (elements and scales of five formats), each
// bit-exact against the reference.
// CHECK-COUNT-10: : bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

// PADDED-COUNT-3: : bit-exact
// PADDED-NOT: FAIL
// PADDED: PASS

// The padded GEMM's A is quantized straight into its tiled layout (rows 100
// to 127 and K 320 to 511 are padding: code 0, scale 0x7F), no relayout.
// FUSED-LABEL: func.func @gemm_padded
//   FUSED-NOT:   gpu.launch_func {{.*}}memref<100x320xbf16>{{.*}}relayout
//       FUSED:   gpu.launch_func @gemm_padded_quantize0

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

// M and K not multiples of the tile (100 x 320 with 128 x 256 tiles):
// the fused quantize writes the padding of A's tiled layout.
func.func @gemm_padded(%a: tensor<100x320xbf16>, %b: tensor<48x320xf8E4M3FN>,
                       %sb: tensor<48x10xf8E8M0FNU>, %c: tensor<100x48xf32>)
    -> (tensor<100x48xf32>, tensor<100x320xf4E2M1FN>, tensor<100x10xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %a axis(1) scale(rceil) rounding(nearest_even)
      : tensor<100x320xbf16> -> tensor<100x320xf4E2M1FN>, tensor<100x10xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<100x320xf4E2M1FN>, tensor<48x320xf8E4M3FN>,
                             tensor<100x10xf8E8M0FNU>, tensor<48x10xf8E8M0FNU>)
      outs(%c : tensor<100x48xf32>) -> tensor<100x48xf32>
  return %r, %qa, %sa : tensor<100x48xf32>, tensor<100x320xf4E2M1FN>, tensor<100x10xf8E8M0FNU>
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
