// mx.quantize with scale(ceil), both element roundings, all five element
// formats, rows and columns: the compiled CPU path must equal the independent
// reference bit for bit (codes and scale bytes), on random data with special
// values (NaN, +-Inf, +-0, denormals, huge) and on small integers, where many
// scaled values fall exactly halfway between two codes (rounding ties).

// RUN: mx-run %s --entry=rows_nearest_even --seed=7 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=cols_nearest_even --seed=11 --arg=random:uniform,lo=-1000,hi=1000,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=rows_nearest_even --seed=13 --arg=random:int,lo=-64,hi=64 --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=rows_ties_away --seed=7 --arg=random:normal,std=8,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=cols_ties_away --seed=11 --arg=random:uniform,lo=-1000,hi=1000,specials=0.05 --compare=reference | FileCheck %s
// RUN: mx-run %s --entry=rows_ties_away --seed=13 --arg=random:int,lo=-64,hi=64 --compare=reference | FileCheck %s

// Ten results per function (elements and scales of five formats), each
// bit-exact against the reference.
// CHECK-COUNT-10: : bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

func.func @rows_nearest_even(%x: tensor<24x128xf32>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xf32> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xf32> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xf32> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xf32> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(ceil) rounding(nearest_even)
      : tensor<24x128xf32> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_nearest_even(%x: tensor<96x20xf32>)
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

func.func @rows_ties_away(%x: tensor<24x128xf32>)
    -> (tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xf32> -> tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xf32> -> tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>
  %e2, %s2 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xf32> -> tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>
  %e3, %s3 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xf32> -> tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>
  %e4, %s4 = mx.quantize %x axis(1) scale(ceil) rounding(ties_away)
      : tensor<24x128xf32> -> tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
  return %e0, %s0, %e1, %s1, %e2, %s2, %e3, %s3, %e4, %s4
      : tensor<24x128xf4E2M1FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E2M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf6E3M2FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E4M3FN>, tensor<24x4xf8E8M0FNU>, tensor<24x128xf8E5M2>, tensor<24x4xf8E8M0FNU>
}

func.func @cols_ties_away(%x: tensor<96x20xf32>)
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
