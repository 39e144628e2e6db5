// Activation epilogues executed as machine code (mx-run --backend=gfx950-isa):
// the code objects of emulator-activations.mlir, whose exact checks assume
// the wave emulator's math.exp (libm, one rounding). The machine code
// computes exp(x) as LLVM's AMDGPU backend expands it: x log2(e) split into
// two f32 parts with fma, v_exp_f32 of the reduced argument (a 1-ULP
// approximation on the hardware, evaluated here correctly rounded) and
// v_ldexp_f32; that expansion is within 2 ulps of exp(x). SiLU's 1 + e and
// the quotient (v_div_scale/v_rcp/v_div_fmas/v_div_fixup: correctly rounded)
// add one rounding each: results within 4 ulps, rtol = 4 * 2^-24 = 2.4e-7
// of the result's magnitude, or atol = 1e-30 where it is 0. GELU keeps
// emulator-activations.mlir's bound (6 ulps of 1 + tanh) plus 2 ulps of its
// exp: rtol = 4.8e-7, atol = 0.5 * 24 * 4.8e-7 = 5.8e-6. bf16 results may be
// one bf16 ulp off: rtol = 2^-7. SwiGLU runs silu(gate) * up with the same
// exp: rtol = 3.6e-7 (6 ulps).

// DEFINE: %{run} = mx-run %S/Inputs/activations.mlir --backend=gfx950-isa --compare=reference --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-2,hi=2 --arg=random:scales,lo=123,hi=126 --arg=random:scales,lo=123,hi=126
// RUN: %{run} --entry=silu_f32 --emu-stats --rtol=2.4e-7 --atol=1e-30 | FileCheck %s --check-prefixes=CHECK,FUSED
// RUN: %{run} --entry=silu_bf16 --rtol=7.9e-3 --atol=1e-30 | FileCheck %s
// RUN: %{run} --entry=silu_tensor_ops --rtol=2.4e-7 --atol=1e-30 | FileCheck %s
// RUN: %{run} --entry=gelu_f32 --rtol=4.8e-7 --atol=5.8e-6 | FileCheck %s
// RUN: %{run} --entry=gelu_bf16 --rtol=7.9e-3 --atol=5.8e-6 | FileCheck %s
// RUN: %{run} --entry=swiglu_bf16 --rtol=7.9e-3 --atol=1e-30 | FileCheck %s

// FUSED: gfx950-isa @silu_f32: 2 launches
// CHECK: comparing @{{.+}} on gfx950-isa with the reference evaluator
// CHECK: result #0 tensor<{{.+}}>: {{.+}}: {{bit-exact|within tolerance}}
// CHECK: PASS
