// Activation epilogues on the wave emulator, against the independent
// reference (which evaluates the user's ops one by one in f32, with math.exp
// and math.tanh from the host libm in double, rounded once to f32).
// The data (products of small integers, per-block scales 2^-4..2^-1) give
// sums x in about [-22, 22], around the bends of the activations.
//
// SiLU x / (1 + exp(-x)) is fused into the GEMM (2 launches); the kernel
// evaluates the same f32 ops, and the emulator models math.exp as the
// reference does (libm in double, one rounding), so f32 and bf16 results are
// bit-exact. (Real gfx950 code computes exp through v_exp_f32 and may differ
// in the last bit: see include/mx/Emulator/WaveEmulator.h.)
//
// GELU-tanh is fused too; the kernel computes tanh(u) as mx-gfx950-pipeline
// expands it, sign(u) (1 - e) / (1 + e) with e = exp(-2|u|) in f32, whose
// error is at most about 4 * 2^-24 absolute (e's rounding, then 1 - e exact
// or rounded, 1 + e and the quotient rounded). Through 1 + t, rounded on both
// sides, the two results of 1 + tanh(u) differ by at most 6 * 2^-24 = 3.6e-7,
// so the results differ by at most 0.5 |x| 3.6e-7 + 1 ulp of the result:
// rtol = 3.6e-7 (6 ulps), atol = 0.5 * 24 * 3.6e-7 = 4.3e-6 for |x| <= 24
// (the atol covers x < 0, where GELU goes to 0 and the absolute error
// stays). A bf16 result is that f32 value rounded to bf16, so it may be one
// bf16 ulp off: rtol = 2^-7 = 7.9e-3 there.
//
// SwiGLU silu(gate) * up over the two halves of N is not fused (remark):
// it runs as a separate elementwise dispatch after the GEMM (3 launches)
// and is bit-exact.

// DEFINE: %{run} = mx-run %S/Inputs/activations.mlir --backend=gfx950-emu --compare=reference --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-2,hi=2 --arg=random:scales,lo=123,hi=126 --arg=random:scales,lo=123,hi=126
// UNSUPPORTED: backend-gfx950-isa
// RUN: %{run} --entry=silu_f32 --emu-stats | FileCheck %s --check-prefixes=CHECK,EXACT,FUSED
// RUN: %{run} --entry=silu_bf16 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: %{run} --entry=silu_tensor_ops --emu-stats | FileCheck %s --check-prefixes=CHECK,EXACT,FUSED
// RUN: %{run} --entry=gelu_f32 --emu-stats --rtol=3.6e-7 --atol=4.3e-6 | FileCheck %s --check-prefixes=CHECK,TOL,FUSED
// RUN: %{run} --entry=gelu_bf16 --rtol=7.9e-3 --atol=4.3e-6 | FileCheck %s --check-prefixes=CHECK,TOL
// RUN: %{run} --entry=gelu_bf16 --rtol=7.9e-3 --atol=4.3e-6 --gfx950-options=intrinsic=32x32x64 | FileCheck %s --check-prefixes=CHECK,TOL
// RUN: %{run} --entry=silu_f32 --gfx950-options=intrinsic=32x32x64 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: %{run} --entry=swiglu_bf16 --emu-stats 2>&1 | FileCheck %s --check-prefixes=CHECK,EXACT,SWIGLU

// SWIGLU: remark: the elementwise consumer of the result stays a separate dispatch: the result has other uses than the consumer (e.g. slices of the two halves of N of a gated pair such as SwiGLU)
// FUSED: gfx950-{{emu|isa}} @{{[a-z_0-9]+}}: 2 launches
// SWIGLU: gfx950-{{emu|isa}} @swiglu_bf16: 3 launches
// EXACT: result #0 tensor<33x47x{{bf16|f32}}>: max_abs_err=0 max_rel_err=0 mismatches=0/1551 ({{.+}}): bit-exact
// TOL: result #0 tensor<33x47x{{bf16|f32}}>: max_abs_err={{.+}} mismatches=0/1551 ({{.+}}): {{bit-exact|within tolerance}}
// CHECK: PASS
