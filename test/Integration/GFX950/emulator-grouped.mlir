// Grouped (MoE) GEMMs on the wave emulator, compared with the independent
// reference (ref::groupedScaledMatmul): one GEMM launch for all experts
// (mx-materialize-encodings gathers each expert's rows into tiles of their
// own; the kernel reads each tile's expert and rows from the tile table).
//
// Exact-integer data: products and partial sums are exact in f32, so any
// summation order gives the same bits. Random codes and scales over the
// whole range (NaN and Inf included) are bit-exact too: the reference
// rounds per MFMA in the kernel's K order, expert by expert.

// The small cases of the CPU path's test: 5 experts over 40 rows with empty
// first, middle and last experts and rows outside every group; rows before
// the first group; fp8; fp8 x fp4; a dynamic T.
// DEFINE: %{cpu} = mx-run %S/../CPU/grouped-scaled-contraction.mlir --backend=gfx950-emu --compare=reference --seed=3
// DEFINE: %{ints} = --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8
// RUN: %{cpu} --entry=grouped_fp4 %{ints} --print-launches | FileCheck %s --check-prefixes=CHECK,SMALL
// The tile table, the gathers of the rows fused with the relayouts (and the
// weights' relayout), then one GEMM launch: 2 N tiles x at most
// (40 + 5 x 15) / 16 = 7 row tiles (16 x 16 tiles on one wave: within one
// round of the CUs, the fewest bytes per K step on a CU).
// SMALL: launch #0 @grouped_fp4_relayout0_generic::@grouped_fp4_relayout0_generic grid 1x1x1
// SMALL: launch #1 @grouped_fp4_relayout1_generic
// SMALL: launch #2 @grouped_fp4_mma0::@grouped_fp4_mma0 grid 2x7x1 block 64x1x1
// SMALL-NOT: launch #3
// RUN: %{cpu} --entry=grouped_fp4_gaps %{ints} | FileCheck %s
// RUN: %{cpu} --entry=grouped_fp8 %{ints} | FileCheck %s
// RUN: %{cpu} --entry=grouped_fp8_fp4 %{ints} | FileCheck %s
// RUN: %{cpu} --entry=grouped_dynamic_rows %{ints} | FileCheck %s
// Offsets at run time, every expert empty: every row is acc.
// RUN: %{cpu} --entry=grouped_dynamic %{ints} --arg=fill:7 | FileCheck %s

// Larger ragged groups, offsets at run time (files of i32 / i64 values):
// fp4 experts of 0, 17, 0, 33, 1, 39 and 7 rows with rows 97..99 outside;
// fp8 with rows 0..2 outside and an empty last expert; constant fp4 weights
// and scales (tiled at compile time) with fp8 activations.
// RUN: printf '\000\000\000\000\021\000\000\000\021\000\000\000\062\000\000\000\063\000\000\000\132\000\000\000\141\000\000\000' > %t.o32
// RUN: printf '\003\000\000\000\000\000\000\000\003\000\000\000\000\000\000\000\050\000\000\000\000\000\000\000\051\000\000\000\000\000\000\000\120\000\000\000\000\000\000\000\120\000\000\000\000\000\000\000\144\000\000\000\000\000\000\000' > %t.o64
// RUN: printf '\000\000\000\000\024\000\000\000\024\000\000\000\062\000\000\000' > %t.oc
// DEFINE: %{moe} = mx-run %S/Inputs/grouped.mlir --backend=gfx950-emu --compare=reference
// DEFINE: %{codes} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// RUN: %{moe} --entry=moe_fp4 --seed=3 %{ints} --arg=file:%t.o32 --print-launches | FileCheck %s --check-prefixes=CHECK,MOE
// MOE: launch #2 @moe_fp4_mma0::@moe_fp4_mma0 grid 5x11x1 block 64x1x1
// RUN: %{moe} --entry=moe_fp4 --seed=5 %{codes} --arg=file:%t.o32 | FileCheck %s
// RUN: %{moe} --entry=moe_fp8 --seed=3 %{ints} --arg=file:%t.o64 | FileCheck %s
// RUN: %{moe} --entry=moe_fp8 --seed=7 %{codes} --arg=file:%t.o64 | FileCheck %s
// RUN: %{moe} --entry=moe_constant_weights --seed=7 --arg=random:codes --arg=random:scales --arg=random:normal --arg=file:%t.oc --print-launches | FileCheck %s --check-prefixes=CHECK,CONST
// No relayout of the weights is left: the table, the gathers, the GEMM.
// CONST: launch #0 @moe_constant_weights_relayout0_generic
// CONST: launch #1 @moe_constant_weights_relayout1_generic
// CONST: launch #2 @moe_constant_weights_mma0::@moe_constant_weights_mma0 grid 1x5x1
// CONST-NOT: launch #3

// From a +0.0 fill with the result rounded to bf16 (exact integers, then
// random codes with a bias along N and a ReLU before the rounding): the
// consumer becomes the GEMM's epilogue, so the program is the table, the
// gathers and the GEMM, which writes bf16 into an unfilled buffer: the
// tiles past the experts' (13 tile rows: (100 + 8 x 15) / 16) write what
// the consumer makes of +0.0 into the rows outside every group (+0.0,
// bf16(max(bias, 0)), and bf16(1.0) for a consumer that adds 1 first):
// rows 97..99; then rows 0..4 and 95..99 (offsets 5, 20, 20, 50, 51, 90,
// 95); then every row (every expert empty); then with T known only at run
// time.
// RUN: printf '\005\000\000\000\024\000\000\000\024\000\000\000\062\000\000\000\063\000\000\000\132\000\000\000\137\000\000\000' > %t.o32b
// DEFINE: %{offsets} = --arg=file:%t.o32
// RUN: %{moe} --entry=moe_fp4_bf16 --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales %{offsets} --print-launches | FileCheck %s --check-prefixes=CHECK,EPI
// EPI: launch #2 @moe_fp4_bf16_mma0::@moe_fp4_bf16_mma0 grid 5x13x1
// EPI-NOT: launch #3
// RUN: %{moe} --entry=moe_fp4_bias_relu --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales %{offsets} --arg=random:normal --print-launches | FileCheck %s --check-prefixes=CHECK,BIAS
// BIAS: launch #2 @moe_fp4_bias_relu_mma0::@moe_fp4_bias_relu_mma0 grid 5x13x1
// BIAS-NOT: launch #3
// RUN: %{moe} --entry=moe_fp4_plus_one --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales %{offsets} --print-launches | FileCheck %s --check-prefixes=CHECK,ONE
// ONE: launch #2 @moe_fp4_plus_one_mma0::@moe_fp4_plus_one_mma0 grid 5x13x1
// ONE-NOT: launch #3
// RUN: %{moe} --entry=moe_fp4_plus_one --seed=7 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=file:%t.o32b | FileCheck %s
// RUN: %{moe} --entry=moe_fp4_bias_relu --seed=7 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=file:%t.o32b --arg=random:normal | FileCheck %s
// RUN: %{moe} --entry=moe_fp4_plus_one --seed=7 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=zeros | FileCheck %s
// RUN: %{moe} --entry=moe_fp4_plus_one_dynamic --seed=7 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=file:%t.o32b | FileCheck %s

// The random-code runs need the per-instruction rounding: rounded once, the
// reference differs (the comparison is not vacuous).
// RUN: not %{moe} --entry=moe_fp4 --seed=5 %{codes} --arg=file:%t.o32 --reference-rounding=once | FileCheck %s --check-prefix=ONCE
// ONCE: FAIL

// Inconsistent offsets (decreasing, past T) are clamped on the device into
// [previous end, T], so no tile names a row outside acc: the emulator, which
// checks every access, runs the program to its end without an error (the
// reference, and the CPU path, report the offsets as an error instead).
// RUN: printf '\000\000\000\000\020\000\000\000\010\000\000\000\030\000\000\000\030\000\000\000\050\000\000\000' > %t.bad
// RUN: mx-run %S/../CPU/grouped-scaled-contraction.mlir --backend=gfx950-emu --entry=grouped_dynamic --seed=3 %{ints} --arg=file:%t.bad --print | FileCheck %s --check-prefix=BAD
// BAD: result #0 tensor<40x24xf32>

// CHECK: bit-exact
// CHECK: PASS
