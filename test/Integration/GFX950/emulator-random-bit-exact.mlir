// Random data, deep K (Inputs/deep-pairs.mlir: 48 x 40 x 640), compared bit
// for bit: the emulator rounds the f32 accumulators after every MFMA, and on
// gfx950-emu the reference (mx-run --reference-rounding=auto, i.e.
// per-instruction) rounds at the same points, in the K order of the
// ukernel (one rounding per 128 K values on 16x16x128, per 64 on 32x32x64,
// the K tail padded with zeros), so any data give identical bits. Every
// finite code of each format, per-block distinct scales over the default
// range [2^-7, 2^7] and a normal accumulator; representative type pairs on
// both intrinsics.

// DEFINE: %{run} = mx-run %S/Inputs/deep-pairs.mlir --backend=gfx950-emu --compare=reference --seed=7
// DEFINE: %{codes} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{mfma32} = --gfx950-options=intrinsic=32x32x64

// RUN: %{run} --entry=e2m1_e2m1 %{codes} | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{codes} %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{codes} | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{codes} %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{codes} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{codes} %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{codes} | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{codes} %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{codes} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{codes} %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e2m3_e3m2 %{codes} | FileCheck %s
// RUN: %{run} --entry=e2m3_e3m2 %{codes} %{mfma32} | FileCheck %s

// Under the CDNA3-style grouped MFMA arithmetic (emulator and reference:
// two independent implementations of the model) the bits are identical too.
// RUN: %{run} --entry=e2m1_e2m1 %{codes} --mfma-arithmetic=cdna3-grouped | FileCheck %s
// RUN: %{run} --entry=e4m3_e4m3 %{codes} --mfma-arithmetic=cdna3-grouped %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{codes} --mfma-arithmetic=cdna3-grouped | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{codes} --mfma-arithmetic=cdna3-grouped %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e4m3_e2m1 %{codes} --mfma-arithmetic=cdna3-grouped | FileCheck %s

// Wide scales (E8M0 NaN bytes and products that overflow f32 included) and
// accumulators with NaN, Inf, zeros, subnormals and the largest values.
// DEFINE: %{wide} = --arg=random:codes --arg=random:codes --arg=random:scales,lo=0,hi=255 --arg=random:scales,lo=0,hi=255 --arg=random:normal,specials=0.05
// RUN: %{run} --entry=e4m3_e4m3 %{wide} | FileCheck %s
// RUN: %{run} --entry=e3m2_e5m2 %{wide} %{mfma32} | FileCheck %s
// RUN: %{run} --entry=e5m2_e2m3 %{wide} --mfma-arithmetic=cdna3-grouped | FileCheck %s
// RUN: %{run} --entry=e2m1_e2m1 %{wide} --mfma-arithmetic=cdna3-grouped %{mfma32} | FileCheck %s

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS

// The same data against the exact result rounded once differ in the last
// bits (cancellation makes that many ulps of small results): what the
// per-instruction rounding accounts for.
// RUN: not %{run} --entry=e4m3_e4m3 %{codes} --reference-rounding=once | FileCheck %s --check-prefix=ONCE
// ONCE: result #0 tensor<48x40xf32>: {{.*}} mismatches={{[1-9][0-9]*}}/1920 (rtol=0, atol=0): FAIL
// ONCE-NEXT: max_err/sum|a*b|={{[0-9.e-]+}} max_ulp={{[0-9]+}} at [{{[0-9]+}}, {{[0-9]+}}] (got {{.+}}, want {{.+}}, sum|a*b| {{.+}}) (sum_tol=0)
// ONCE: FAIL

// Random-data tolerances are stated relative to |acc| + sum |a*b|: the
// grouped model stays within 7e-7 of it from the exact one and from the
// exact result rounded once (the envelope of bench/mfma_arithmetic.py at
// K = 1024), so 1e-6 holds.
// RUN: %{run} --entry=e4m3_e4m3 %{codes} --mfma-arithmetic=cdna3-grouped --reference-arithmetic=exact --sum-tol=1e-6 | FileCheck %s --check-prefix=SUM
// RUN: %{run} --entry=e5m2_e2m3 %{codes} --mfma-arithmetic=cdna3-grouped --reference-rounding=once --sum-tol=1e-6 %{mfma32} | FileCheck %s --check-prefix=SUM
// SUM: result #0 tensor<48x40xf32>: {{.*}} mismatches=0/1920 (rtol=0, atol=0): within tolerance
// SUM-NEXT: max_err/sum|a*b|={{[0-9.e-]+}} max_ulp={{[0-9]+}} at [{{[0-9]+}}, {{[0-9]+}}] (got {{.+}}, want {{.+}}, sum|a*b| {{.+}}) (sum_tol=1e-06)
// SUM-NEXT: PASS
