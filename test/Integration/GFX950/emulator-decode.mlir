// Decode-shaped GEMMs on the wave emulator, compared with the independent
// reference: M in {1, 4, 16, 33, 64}, fp4 and fp8, with the resolver's
// small-M tiles (16 rows) and K split in parts by mx-split-k (the parts are
// a batch dimension of the GEMM; a second dispatch adds them in K order).
//
// Exact-integer data (products and partial sums exact in f32), so no order
// of the parts could hide a wrong part; random codes with the full scale
// range are bit-exact too: the reference (--reference-rounding=auto) rounds
// per MFMA within each part and adds the parts to C in order, as the
// reduction does.

// DEFINE: %{run} = mx-run %S/Inputs/decode.mlir --backend=gfx950-emu --compare=reference --seed=3
// DEFINE: %{ints} = --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129
// DEFINE: %{codes} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales

// RUN: %{run} --entry=fp4_m1 %{ints} --arg=random:int,lo=-8,hi=8 --print-launches | FileCheck %s --check-prefixes=CHECK,M1
// M1: launch #1 @fp4_m1_mma0::@fp4_m1_mma0 grid 16x1x4 block 64x1x1
// M1: launch #2 @fp4_m1_{{.*}} grid
// RUN: %{run} --entry=fp4_m4 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp4_m16 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp4_m33 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp4_m64 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp8_m1 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp8_m4 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp8_m16 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp8_m33 %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: %{run} --entry=fp8_m64 %{ints} --arg=random:int,lo=-8,hi=8 --print-launches | FileCheck %s --check-prefixes=CHECK,M64
// M64: launch #1 @fp8_m64_mma0::@fp8_m64_mma0 grid 16x4x2 block 64x1x1

// Pinned parts (rounded down to a divisor of the K tiles), and none.
// RUN: %{run} --entry=fp4_m16 %{ints} --arg=random:int,lo=-8,hi=8 --gfx950-options="split-k=8" --print-launches | FileCheck %s --check-prefixes=CHECK,PIN8
// PIN8: launch #1 @fp4_m16_mma0::@fp4_m16_mma0 grid 16x1x8
// RUN: %{run} --entry=fp4_m16 %{ints} --arg=random:int,lo=-8,hi=8 --gfx950-options="split-k=3" --print-launches | FileCheck %s --check-prefixes=CHECK,PIN3
// PIN3: launch #1 @fp4_m16_mma0::@fp4_m16_mma0 grid 16x1x2
// RUN: %{run} --entry=fp4_m16 %{ints} --arg=random:int,lo=-8,hi=8 --gfx950-options="split-k=1" --emu-stats | FileCheck %s --check-prefixes=CHECK,NOSPLIT
// NOSPLIT: gfx950-{{emu|isa}} @fp4_m16: 2 launches

// Random codes and scales over the whole range, NaN and Inf included.
// RUN: %{run} --entry=fp4_m33 --seed=5 %{codes} --arg=random:normal | FileCheck %s
// RUN: %{run} --entry=fp8_m4 --seed=5 %{codes} --arg=random:normal | FileCheck %s
// RUN: %{run} --entry=fp8_m64 --seed=7 %{codes} --arg=random:normal --gfx950-options="split-k=4" | FileCheck %s

// From zero: the bf16 conversion fuses into the parts' reduction; mixed
// fp8 x fp4 with M = 1.
// RUN: %{run} --entry=fp4_m16_zero_bf16 %{ints} --emu-stats | FileCheck %s --check-prefixes=CHECK,ZERO
// ZERO: gfx950-{{emu|isa}} @fp4_m16_zero_bf16: 3 launches
// RUN: %{run} --entry=fp8_fp4_m1_zero %{ints} | FileCheck %s
// RUN: %{run} --entry=fp8_fp4_m1_zero --seed=9 %{codes} | FileCheck %s

// Dynamic M: the version for M <= 16 (16-row tiles, K in 2 parts), for
// M <= 64, and the generic one, chosen at run time (mx-specialize-dynamic-m).
// RUN: %{run} --entry=dynamic_m1 %{ints} --print-launches | FileCheck %s --check-prefixes=CHECK,DYN1
// DYN1: launch #1 @dynamic_m1_mma0::@dynamic_m1_mma0 grid 32x1x2 block 64x1x1
// RUN: %{run} --entry=dynamic_m16 %{ints} | FileCheck %s
// RUN: %{run} --entry=dynamic_m40 %{ints} --print-launches | FileCheck %s --check-prefixes=CHECK,DYN40
// DYN40: launch #1 @dynamic_m40_mma0::@dynamic_m40_mma0 grid 32x3x2 block 64x1x1
// RUN: %{run} --entry=dynamic_m100 %{ints} --print-launches | FileCheck %s --check-prefixes=CHECK,DYN100
// DYN100: launch #1 @dynamic_m100_mma0::@dynamic_m100_mma0 grid 2x1x1 block 256x1x1
// RUN: %{run} --entry=dynamic_m40 --seed=11 %{codes} | FileCheck %s

// Operand rows at a byte stride that is no multiple of 16 (fp6, K = 96).
// RUN: %{run} --entry=fp6_unaligned_rows %{ints} --arg=random:int,lo=-8,hi=8 | FileCheck %s

// CHECK: result #0 tensor<{{.+}}>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CHECK: PASS
