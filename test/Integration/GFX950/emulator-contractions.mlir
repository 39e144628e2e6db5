// The whole gfx950 program (relayout dispatches, packed bytes, the selected
// ukernel specialized to the layout) executed on the wave emulator
// (mx-run --backend=gfx950-emu) and compared with the untiled
// mx.scaled_contraction evaluated by the independent reference.
//
// Exact-integer data with per-block distinct scales in [2^-2, 2^2]: every
// product and every partial sum is exact in f32 (|partial| < 2^16 with 2^-4
// resolution), so the per-instruction rounding of the modelled MFMA cannot
// differ from the reference's single rounding and the results must be
// bit-identical. Random codes with the full default scale range are
// bit-identical too: the emulator rounds to f32 after each MFMA, and the
// reference (mx-run --reference-rounding=auto on gfx950-emu) at the same
// points in the kernel's K order.
//
// Configurations: both intrinsics; fp4, fp8 (K-major and N-major weights),
// mixed fp8 x fp4; sizes that are not multiples of the tiles (padding);
// several K tiles (the ukernel's K loop); 1 to 4 waves; batched; dynamic
// sizes; constant weights relaid out and packed at compile time.

// DEFINE: %{run} = mx-run %S/Inputs/contractions.mlir --backend=gfx950-emu --compare=reference --seed=3
// DEFINE: %{ints} = --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129 --arg=random:int,lo=-8,hi=8

// 33x47x224 fp4 on the resolver's layout for this size: 16x16x128 with
// intrinsics 2x2x2 on one wave (32x32x256 tiles), so 2x2 workgroups of 8
// MFMAs each.
// RUN: %{run} --entry=nt_fp4 %{ints} --emu-stats | FileCheck %s --check-prefixes=CHECK,STATS
// STATS: gfx950-{{emu|isa}} @nt_fp4: {{[0-9]+}} launches ({{[0-9]+}} kernels), {{[0-9]+}} workgroups, 32 MFMAs
// RUN: %{run} --entry=nt_fp4 %{ints} --gfx950-options="intrinsic=32x32x64" | FileCheck %s
// RUN: %{run} --entry=nt_fp4 %{ints} --gfx950-options="intrinsics-m=2 intrinsics-n=2 subgroups-m=2 subgroups-n=2" | FileCheck %s
// RUN: %{run} --entry=nt_fp4 %{ints} --gfx950-options="intrinsic=32x32x64 intrinsics-m=2 intrinsics-k=2 subgroups-n=2" | FileCheck %s
// A transposed result (found by mx-exec-fuzzer: it was written as [M, N]).
// RUN: %{run} --entry=nt_fp4_result_nm %{ints} | FileCheck %s
// RUN: %{run} --entry=nt_fp4_result_nm --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=nt_fp4_deep %{ints} | FileCheck %s
// RUN: %{run} --entry=nt_fp4_deep %{ints} --gfx950-options="intrinsics-m=1 intrinsics-n=2 intrinsics-k=4" | FileCheck %s
// RUN: %{run} --entry=nt_fp8 %{ints} | FileCheck %s
// RUN: %{run} --entry=nt_fp8 %{ints} --gfx950-options="intrinsics-m=4 intrinsics-n=4 subgroups-m=2" | FileCheck %s
// RUN: %{run} --entry=nn_fp8 %{ints} | FileCheck %s
// RUN: %{run} --entry=nt_fp8_fp4 %{ints} | FileCheck %s
// RUN: %{run} --entry=nt_fp8_fp4 %{ints} --gfx950-options="intrinsics-m=8 intrinsics-n=4 subgroups-n=2" | FileCheck %s
// 128x128x512 on 4x4x2 intrinsics and 2x2 waves: nothing is padded, the
// relayouts of the operands are one dispatch, then the GEMM (1 workgroup of
// 4 waves x 32 MFMAs x 2 K steps), which reads and writes the accumulator
// in place.
// RUN: %{run} --entry=nt_fp4_aligned %{ints} --gfx950-options="intrinsics-m=4 intrinsics-n=4 intrinsics-k=2 subgroups-m=2 subgroups-n=2" --emu-stats | FileCheck %s --check-prefixes=CHECK,ALIGNED
// ALIGNED: gfx950-{{emu|isa}} @nt_fp4_aligned: 2 launches (2 kernels), {{[0-9]+}} workgroups, 256 MFMAs
// RUN: %{run} --entry=batched_fp4 %{ints} | FileCheck %s
// RUN: %{run} --entry=dynamic_fp4 %{ints} | FileCheck %s
// RUN: %{run} --entry=constant_fp4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:int,lo=-8,hi=8 | FileCheck %s

// CHECK: result #0 tensor<{{.+}}xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CHECK: PASS

// RUN: %{run} --entry=nt_fp4_deep --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=nt_fp8 --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal | FileCheck %s --check-prefix=CODES
// RUN: %{run} --entry=nt_fp8_fp4 --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal | FileCheck %s --check-prefix=CODES
// CODES: result #0 tensor<{{.+}}xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CODES: PASS
