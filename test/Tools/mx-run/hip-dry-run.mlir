// mx-run --backend=hip --dry-run: the launch plan of the program compiled to
// gfx950 code objects, without a HIP runtime. The plan's launch and argument
// lines are the emulator's (--backend=gfx950-emu --print-launches, the host
// function's launches as the emulator executes them): one host walk, one
// source of truth. The HIP-only lines add the code object's facts (LDS,
// registers, the kernarg layout checked against its metadata) and the
// statically counted MFMAs, which must equal the MFMAs the emulator executes.

// DEFINE: %{seed000} = %mx_src_root/examples/seed000_gemm.mlir --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_bf16.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_bf16.bin --arg=zeros
// RUN: mx-run %{seed000} --backend=gfx950-emu --print-launches --emu-stats > %t.seed000.emu
// RUN: mx-run %{seed000} --backend=hip --dry-run > %t.seed000.hip
// RUN: grep -v -e '^  code object' -e '^  work' -e '^  kernarg' %t.seed000.hip > %t.seed000.common
// RUN: grep -v '^gfx950-emu' %t.seed000.emu | diff - %t.seed000.common
// RUN: FileCheck %s --check-prefix=SEED < %t.seed000.hip
// RUN: FileCheck %s --check-prefix=SEED-EMU < %t.seed000.emu
// The plan does not depend on the values: without --arg it is the same.
// RUN: mx-run %mx_src_root/examples/seed000_gemm.mlir --backend=hip --dry-run | diff - %t.seed000.hip

// The quantize dispatch of both operands (merged), then the GEMM: 128x96x512
// with N padded to the workgroup tile (128), on 16x16x128 MFMAs: (128/16) x
// (128/16) x (512/128) = 256 MFMAs of 2*16*16*128 FLOPs.
// SEED: launch #0 @seed000_gemm_quantize0::@seed000_gemm_quantize0 grid 16x1x1 block 256x1x1
// SEED-NEXT: arg #0 memref<128x512xbf16>: buffer #0 (131072 bytes, argument #0 of @seed000_gemm), offset 0, sizes [128, 512], strides [512, 1]
// SEED: code object @seed000_gemm_quantize0: seed000_gemm_quantize0.kd, LDS 0 bytes, scratch 0 bytes
// SEED-NEXT: work: 0 MFMAs, 0 FLOPs
// SEED-NEXT: kernarg segment [[QSIZE:[0-9]+]] bytes, align 8, explicit [[QSIZE]] bytes
// SEED-NEXT: kernarg 0+8 arg #0 allocated pointer = buffer #0
// SEED-NEXT: kernarg 8+8 arg #0 aligned pointer = buffer #0
// SEED-NEXT: kernarg 16+8 arg #0 offset = 0
// SEED-NEXT: kernarg 24+8 arg #0 size[0] = 128
// SEED-NEXT: kernarg 32+8 arg #0 size[1] = 512
// SEED-NEXT: kernarg 40+8 arg #0 stride[0] = 512
// SEED-NEXT: kernarg 48+8 arg #0 stride[1] = 1
// SEED-NEXT: kernarg 56+8 arg #1 allocated pointer = buffer #1
// SEED: launch #1 @seed000_gemm_mma0::@seed000_gemm_mma0 grid 2x1x1 block 256x1x1
// SEED-NEXT: arg #0 memref<128x96xf32>: buffer #10 (49152 bytes, argument #2 of @seed000_gemm), offset 0, sizes [128, 96], strides [96, 1]
// SEED: code object @seed000_gemm_mma0: seed000_gemm_mma0.kd, LDS {{[1-9][0-9]*}} bytes, scratch 0 bytes
// SEED-NEXT: work: 256 MFMAs, 16777216 FLOPs, {{[0-9]+}} bytes viewed
// SEED-NEXT: kernarg segment [[MSIZE:[0-9]+]] bytes, align 8, explicit [[MSIZE]] bytes
// SEED-NEXT: kernarg 0+8 arg #0 allocated pointer = buffer #10
// SEED-NOT: launch #2
// SEED-EMU: gfx950-emu @seed000_gemm: 2 launches (2 kernels), 18 workgroups, 256 MFMAs

// A batched GEMM (two 20x24x128 fp4 products, each padded to 32x32x128: 2 x
// 2 x 2 x 1 = 16 MFMAs), a K loop (1024 deep: the ukernel's scf.for, whose
// trip count the static count multiplies), and
// constant weights relaid out at compile time (memref.globals passed to
// the kernel).
// DEFINE: %{contractions} = %S/../../Integration/GFX950/Inputs/contractions.mlir
// DEFINE: %{ints} = --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129 --arg=random:int,lo=-8,hi=8
// RUN: mx-run %{contractions} --entry=batched_fp4 %{ints} --backend=gfx950-emu --print-launches --emu-stats > %t.batched.emu
// RUN: mx-run %{contractions} --entry=batched_fp4 %{ints} --backend=hip --dry-run > %t.batched.hip
// RUN: grep -v -e '^  code object' -e '^  work' -e '^  kernarg' %t.batched.hip > %t.batched.common
// RUN: grep -v '^gfx950-emu' %t.batched.emu | diff - %t.batched.common
// RUN: FileCheck %s --check-prefix=BATCHED < %t.batched.hip
// RUN: FileCheck %s --check-prefix=BATCHED-EMU < %t.batched.emu
// BATCHED: launch #0 @batched_fp4_{{.*}} grid
// BATCHED: work: 0 MFMAs
// BATCHED: launch #1 @batched_fp4_mma0::@batched_fp4_mma0 grid
// BATCHED: work: 16 MFMAs, 1048576 FLOPs
// BATCHED-EMU: gfx950-emu @batched_fp4: 2 launches (2 kernels), {{[0-9]+}} workgroups, 16 MFMAs

// RUN: mx-run %{contractions} --entry=nt_fp4_deep %{ints} --backend=gfx950-emu --print-launches --emu-stats > %t.deep.emu
// RUN: mx-run %{contractions} --entry=nt_fp4_deep %{ints} --backend=hip --dry-run > %t.deep.hip
// RUN: grep -v -e '^  code object' -e '^  work' -e '^  kernarg' %t.deep.hip > %t.deep.common
// RUN: grep -v '^gfx950-emu' %t.deep.emu | diff - %t.deep.common
// RUN: FileCheck %s --check-prefix=DEEP < %t.deep.hip
// RUN: FileCheck %s --check-prefix=DEEP-EMU < %t.deep.emu
// DEEP: launch #1 @nt_fp4_deep_mma0::@nt_fp4_deep_mma0 grid
// DEEP: work: 120 MFMAs, 7864320 FLOPs
// DEEP-EMU: gfx950-emu @nt_fp4_deep: 2 launches (2 kernels), {{[0-9]+}} workgroups, 120 MFMAs

// RUN: mx-run %{contractions} --entry=constant_fp4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=zeros --backend=gfx950-emu --print-launches > %t.constant.emu
// RUN: mx-run %{contractions} --entry=constant_fp4 --backend=hip --dry-run > %t.constant.hip
// RUN: grep -v -e '^  code object' -e '^  work' -e '^  kernarg' %t.constant.hip | diff %t.constant.emu -
// RUN: FileCheck %s --check-prefix=CONSTANT < %t.constant.hip
// CONSTANT: launch #1 @constant_fp4_mma0::@constant_fp4_mma0 grid
// CONSTANT: arg #2 memref<{{.*}}xi8>: buffer #{{[0-9]+}} ({{[0-9]+}} bytes, memref.global @__constant_{{.*}}), offset 0
// CONSTANT: kernarg {{[0-9]+}}+8 arg #2 allocated pointer = buffer #{{[0-9]+}}

// Errors: the plan options need the hip backend, and a dry run checks
// nothing.
// RUN: %python %S/Inputs/exit_code.py mx-run %{seed000} --dry-run | FileCheck %s --check-prefix=NOT-HIP
// NOT-HIP: mx-run: error: --dry-run, --repeat and --hip-library need --backend=hip
// NOT-HIP-NEXT: exit code 2
// RUN: %python %S/Inputs/exit_code.py mx-run %{seed000} --backend=hip --print-launches | FileCheck %s --check-prefix=PRINT-LAUNCHES
// PRINT-LAUNCHES: mx-run: error: --print-launches needs --backend=gfx950-emu
// PRINT-LAUNCHES-NEXT: exit code 2
// RUN: %python %S/Inputs/exit_code.py mx-run %{seed000} --backend=hip --dry-run --compare=reference | FileCheck %s --check-prefix=DRY-COMPARE
// DRY-COMPARE: mx-run: error: --dry-run runs nothing: no --compare, --expect, --out or --print
// DRY-COMPARE-NEXT: exit code 2
