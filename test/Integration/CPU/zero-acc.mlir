// The programs of ../GFX950/Inputs/zero-acc.mlir (GEMMs from a zero
// accumulator with f32, bf16 and f16 results) on the CPU path, bit-identical
// to the independent reference on exact-integer data.

// DEFINE: %{run} = mx-run %S/../GFX950/Inputs/zero-acc.mlir --compare=reference --seed=3 --arg=random:int,lo=-8,hi=8 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129
// RUN: %{run} --entry=fp4_bf16_33x47x224 | FileCheck %s
// RUN: %{run} --entry=fp8_fp4_f16_1x300x512 | FileCheck %s
// RUN: %{run} --entry=batched_bf16 | FileCheck %s
// RUN: %{run} --entry=dynamic_m_bf16 | FileCheck %s
// RUN: %{run} --entry=fp6_f32_255x513x4064 | FileCheck %s
// RUN: %{run} --entry=bias_scale_relu --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-2,hi=2 | FileCheck %s
// RUN: %{run} --entry=bias_bf16 --arg=random:int,lo=-4,hi=4 | FileCheck %s
// CHECK: result #0 tensor<{{.+}}>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CHECK: PASS
