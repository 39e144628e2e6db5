// mx.quantize with scale(rceil) rounding(ties_away) on the gfx950 path: all five
// element types, rows (axis 1) of a bf16 tensor and columns (axis 0) of an
// f32 tensor (fp4/fp6 codes of neighbouring columns share bytes), compiled
// into quantize kernels and executed on the wave emulator. Codes and scale
// bytes must equal the independent reference bit for bit, on random data
// with special values (NaN, +-Inf, +-0, denormals, the largest finite
// values) and on small integers (many rounding ties). One file per rule and
// rounding keeps each module, compiled once per run, small.

// RUN: mx-run %s --backend=gfx950-emu --entry=rows --seed=19 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --backend=gfx950-emu --entry=cols --seed=20 --arg=random:int,lo=-64,hi=64,specials=0.02 --compare=reference | FileCheck %s

// Ten results per function (elements and scales of five formats), each
// bit-exact against the reference.
// CHECK-COUNT-10: : bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

func.func @rows(%x: tensor<24x128xbf16>)
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

func.func @cols(%x: tensor<96x20xf32>)
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
