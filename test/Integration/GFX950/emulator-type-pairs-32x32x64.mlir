// Every pair of MX element types (A x B: E2M1, E2M3, E3M2, E4M3, E5M2) on
// the 32x32x64 intrinsic, through mx-gfx950-pipeline and the one
// parameterized ukernel, executed on the wave emulator and compared with
// the independent reference (Inputs/type-pairs.mlir: 40 x 24 x 256, padded
// in M and N, several K tiles).
//
// Exact data: small integers (exact in every format) with per-block distinct
// scales in [2^-2, 2^2]; every product and partial sum is exact in f32, so
// the results must be bit-identical.
// Random codes (every finite code of each format, scales over the default
// range) are bit-identical too: the emulator rounds to f32 after each MFMA
// (as the hardware does), and on gfx950-emu the reference rounds at the same
// points, in the kernel's K order (mx-run --reference-rounding=auto).
// The exact data also give the mathematically exact result, rounded once,
// under the CDNA3-style grouped MFMA arithmetic (representative pairs).

// DEFINE: %{run} = mx-run %S/Inputs/type-pairs.mlir --backend=gfx950-emu --compare=reference --gfx950-options=intrinsic=32x32x64
// DEFINE: %{ints} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129 --arg=random:int,lo=-8,hi=8

// RUN: %{run} --entry=e2m1_e2m1 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m1_e3m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m1_e4m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m1_e5m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m1 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m3_e2m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m3_e3m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m3_e4m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e2m3_e5m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m1 %{ints} | FileCheck %s
// RUN: %{run} --entry=e3m2_e2m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e3m2_e3m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e3m2_e4m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{ints} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e4m3_e3m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e4m3_e5m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m1 %{ints} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e5m2_e3m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=e5m2_e4m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=e5m2_e5m2 %{ints} | FileCheck %s
// Weights stored K x N (fp4, fp6: relaid out value by value) and fp4
// activations stored K x M.
// RUN: %{run} --entry=nn_e2m1_e2m1 %{ints} | FileCheck %s
// RUN: %{run} --entry=nn_e4m3_e2m3 %{ints} | FileCheck %s
// RUN: %{run} --entry=nn_e3m2_e3m2 %{ints} | FileCheck %s
// RUN: %{run} --entry=tn_e2m1_e2m1 %{ints} | FileCheck %s
// DEFINE: %{grouped} = --mfma-arithmetic=cdna3-grouped --reference-rounding=once
// RUN: %{run} --entry=e2m1_e2m1 %{ints} %{grouped} | FileCheck %s
// RUN: %{run} --entry=e2m3_e5m2 %{ints} %{grouped} | FileCheck %s
// RUN: %{run} --entry=e3m2_e4m3 %{ints} %{grouped} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{ints} %{grouped} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m1 %{ints} %{grouped} | FileCheck %s
// CHECK: result #0 tensor<40x24xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/960 (rtol=0, atol=0): bit-exact
// CHECK: PASS

// DEFINE: %{codes} = --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// RUN: %{run} --entry=e2m1_e2m1 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m1_e2m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m1_e3m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m1_e4m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m1_e5m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m3_e2m1 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m3_e2m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m3_e3m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m3_e4m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e2m3_e5m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e3m2_e2m1 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e3m2_e2m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e3m2_e3m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e3m2_e4m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e3m2_e5m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e4m3_e2m1 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e4m3_e2m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e4m3_e3m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e4m3_e4m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e4m3_e5m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e5m2_e2m1 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e5m2_e2m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e5m2_e3m2 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e5m2_e4m3 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=e5m2_e5m2 %{codes} | FileCheck %s --check-prefix=CODES
// CODES: result #0 tensor<40x24xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/960 (rtol=0, atol=0): bit-exact
// CODES: PASS
