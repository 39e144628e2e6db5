// mx-run --backend=gfx950-isa runs the workgroups of each launch on
// --threads host threads: the results are the same bits for every count,
// and --progress reports each launch's workgroups done on stderr.

// DEFINE: %{args} = --gfx950-options="intrinsics-m=2 intrinsics-n=2 intrinsics-k=2 subgroups-m=1 subgroups-n=1" \
// DEFINE:   --seed=7 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 \
// DEFINE:   --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129 --arg=random:int,lo=-8,hi=8
// RUN: mx-run %S/gfx950-emu-threads.mlir --backend=gfx950-isa --threads=1 --progress=false %{args} --out=%t.bin
// RUN: mx-run %S/gfx950-emu-threads.mlir --backend=gfx950-isa --threads=3 --progress=false %{args} --expect=file:%t.bin \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: mx-run %S/gfx950-emu-threads.mlir --backend=gfx950-isa --threads=2 --progress %{args} --expect=file:%t.bin 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=PROGRESS,SAME

// 32x32 tiles: the GEMM dispatch has 2x2 workgroups; its last report is the
// total.
// PROGRESS: mx-run: @gemm_mma0::@gemm_mma0: 4/4 workgroups
// SAME: result #0 tensor<64x64xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/4096 (rtol=0, atol=0): bit-exact
// SAME: PASS
