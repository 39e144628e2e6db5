// The activation epilogues of ../GFX950/Inputs/activations.mlir on the CPU
// path, against the independent reference (the user's ops in f32, math.exp
// and math.tanh from the host libm in double, rounded to f32): as written
// (each op on the CPU; math.tanh is the libm's tanhf, which is not
// correctly rounded) and data-tiled with the activation fused into
// mx.tiled_scaled_mma's epilogue (its CPU lowering; canonicalize folds the
// zero fill into zero_acc first). SiLU and SwiGLU are
// bit-exact; GELU-tanh is compared with the tolerance that
// ../GFX950/emulator-activations.mlir derives (the CPU's tanhf is closer
// than the gfx950 expansion).

// DEFINE: %{run} = mx-run %S/../GFX950/Inputs/activations.mlir --compare=reference --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-2,hi=2 --arg=random:scales,lo=123,hi=126 --arg=random:scales,lo=123,hi=126
// DEFINE: %{fused} = --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target user-layout-results=true},canonicalize,mx-fuse-epilogues"
// RUN: %{run} --entry=silu_f32 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: %{run} --entry=silu_f32 %{fused} | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: %{run} --entry=silu_bf16 %{fused} | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: %{run} --entry=silu_tensor_ops | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: %{run} --entry=gelu_f32 --rtol=3.6e-7 --atol=4.3e-6 | FileCheck %s --check-prefixes=CHECK,TOL
// RUN: %{run} --entry=gelu_f32 %{fused} --rtol=3.6e-7 --atol=4.3e-6 | FileCheck %s --check-prefixes=CHECK,TOL
// RUN: %{run} --entry=gelu_bf16 %{fused} --rtol=7.9e-3 --atol=4.3e-6 | FileCheck %s --check-prefixes=CHECK,TOL
// RUN: %{run} --entry=swiglu_bf16 | FileCheck %s --check-prefixes=CHECK,EXACT
// EXACT: result #0 tensor<33x47x{{bf16|f32}}>: max_abs_err=0 max_rel_err=0 mismatches=0/1551 ({{.+}}): bit-exact
// TOL: result #0 tensor<33x47x{{bf16|f32}}>: max_abs_err={{.+}} mismatches=0/1551 ({{.+}}): {{bit-exact|within tolerance}}
// CHECK: PASS
