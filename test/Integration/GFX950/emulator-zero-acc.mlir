// GEMMs from a zero accumulator on the wave emulator: the accumulator fill
// folds into mx.tiled_scaled_mma (zero_acc), so there is no accumulator
// buffer to fill or relay out and the ukernel starts its registers at +0.0;
// f32 results, or bf16/f16 (arith.truncf, rounded to nearest-even). Odd
// shapes (33x47x224, 1x300x512, 255x513x4064), batched, dynamic M, mixed
// types.
// Exact-integer data with per-block distinct scales: bit-identical to the
// independent reference, including the bf16/f16 rounding of the sums.

// DEFINE: %{run} = mx-run %S/Inputs/zero-acc.mlir --backend=gfx950-emu --compare=reference --seed=3 --arg=random:int,lo=-8,hi=8 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129
// RUN: %{run} --entry=fp4_bf16_33x47x224 --emu-stats | FileCheck %s --check-prefixes=CHECK,STATS
// RUN: %{run} --entry=fp4_bf16_33x47x224 --gfx950-options=intrinsic=32x32x64 | FileCheck %s
// RUN: %{run} --entry=fp8_fp4_f16_1x300x512 | FileCheck %s
// RUN: %{run} --entry=batched_bf16 | FileCheck %s
// RUN: %{run} --entry=dynamic_m_bf16 | FileCheck %s
// RUN: %{run} --entry=fp6_f32_255x513x4064 --emu-stats --gfx950-options=split-k=1 | FileCheck %s --check-prefixes=CHECK,BIG
// Its 18 output tiles split K in parts (mx-split-k), added by a third dispatch.
// RUN: %{run} --entry=fp6_f32_255x513x4064 --emu-stats | FileCheck %s --check-prefixes=CHECK,BIG-SPLIT
// Elementwise epilogues (bias along N, scale per row, ReLU; bias then bf16)
// fused into the GEMM (mx-fuse-epilogues): bit-exact (f32 arithmetic in the
// same order as the reference, one rounding to bf16).
// RUN: %{run} --entry=bias_scale_relu --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-2,hi=2 --emu-stats | FileCheck %s --check-prefixes=CHECK,EPILOGUE
// RUN: %{run} --entry=bias_bf16 --arg=random:int,lo=-4,hi=4 | FileCheck %s

// One dispatch for the four operand relayouts and the GEMM, which starts
// from zero, applies the conversion to bf16 or the epilogue and writes the
// result in the user's layout: no accumulator fill, no result relayout.
// STATS: gfx950-{{emu|isa}} @fp4_bf16_33x47x224: 2 launches
// BIG: gfx950-{{emu|isa}} @fp6_f32_255x513x4064: 2 launches
// BIG-SPLIT: gfx950-{{emu|isa}} @fp6_f32_255x513x4064: 3 launches
// EPILOGUE: gfx950-{{emu|isa}} @bias_scale_relu: 2 launches
// CHECK: result #0 tensor<{{.+}}>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CHECK: PASS
