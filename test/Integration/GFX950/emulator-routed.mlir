// mx.routed_scaled_contraction (MoE in vLLM/AITER's sorted-token-ids form)
// on the wave emulator, compared with the independent reference
// (ref::routedScaledMatmul). The program is the CPU path's test: 10 tokens,
// top 2, 4 experts, blocks of 16 sorted positions, padding ids, an empty
// expert and a block of another rank's expert (-1) whose rows keep acc.
//
// One GEMM launch for every block: the tokens of the sorted rows gathered
// in sorted order (fused with the relayouts), then the GEMM, whose tiles
// look up their block's expert and write their rows at the sorted ids.

// DEFINE: %{run} = mx-run %S/../CPU/routed-scaled-contraction.mlir --backend=gfx950-emu --compare=reference
// DEFINE: %{ints} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8
// DEFINE: %{codes} = --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// RUN: %{run} --entry=routed_fp4 %{ints} --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH
// LAUNCH: launch #0 @routed_fp4_relayout0_generic::@routed_fp4_relayout0_generic
// LAUNCH: launch #1 @routed_fp4_mma0::@routed_fp4_mma0 grid 2x4x1 block 64x1x1
// LAUNCH-NOT: launch #2
// RUN: %{run} --entry=routed_fp4 %{codes} | FileCheck %s
// RUN: %{run} --entry=routed_fp4_k512 %{ints} | FileCheck %s
// RUN: %{run} --entry=routed_fp4_k512 %{codes} | FileCheck %s
// RUN: %{run} --entry=routed_fp8_fp4 %{ints} | FileCheck %s
// RUN: %{run} --entry=routed_fp8_fp4 %{codes} | FileCheck %s
// K = 640 in blocks of 64: the resolver's tile, and a 64x64x1024 tile
// whose K padding and 64-row blocks take s_lshl4_add_u32 on the ISA
// executor.
// RUN: %{run} --entry=routed_fp4_k640 %{ints} | FileCheck %s
// RUN: %{run} --entry=routed_fp4_k640 %{codes} | FileCheck %s
// RUN: %{run} --entry=routed_fp4_k640 %{ints} --gfx950-options="intrinsics-m=4 intrinsics-n=1 intrinsics-k=8 subgroups-n=4" | FileCheck %s
// The 16x64x1024 tile on 4 waves that the resolver gives the MoE layer's
// latency-bound down GEMM at one token (bench/moe_layer.py, gpt-oss-120b).
// RUN: %{run} --entry=routed_fp4_k640 %{ints} --gfx950-options="intrinsics-m=1 intrinsics-n=1 intrinsics-k=8 subgroups-n=4" | FileCheck %s
// RUN: %{run} --entry=routed_fp4_k640 %{codes} --gfx950-options="intrinsics-m=1 intrinsics-n=1 intrinsics-k=8 subgroups-n=4" | FileCheck %s
// From a +0.0 fill: zero_acc (no accumulator read; the tile's rows start
// at zero), the rows of the block of expert -1 keep the fill's zeros.
// RUN: mx-run %S/../CPU/routed-scaled-contraction.mlir --backend=gfx950-emu --compare=reference --entry=routed_fp4_zero --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales | FileCheck %s
// RUN: mx-opt %S/../CPU/routed-scaled-contraction.mlir --mx-gfx950-pipeline=output=gpu --mlir-print-ir-before=mx-gfx950-lower-tiled-mma 2>&1 >/dev/null | FileCheck %s --check-prefix=ZERO
// ZERO-LABEL: func.func @routed_fp4_zero
// ZERO: %[[ACC:.+]] = memref.alloc() {{.*}} : memref<20x24xf32>
// ZERO: gpu.launch {{.*}} module(@routed_fp4_zero_relayout0_fill)
// ZERO: vector.store %{{.+}}, %[[ACC]]
// ZERO: mx.tiled_scaled_mma {{.*}} row_ids(%{{.+}} : memref<64xi32>) outs(%[[ACC]] : memref<20x24xf32>) {{.*}} zero_acc
// ZERO: return %[[ACC]]
// The same with all_rows_named: no fill (the relayout launch no longer
// writes one: relayout0_generic, not relayout0_fill), the kernel
// from zero writes every row (+0.0 in those of the block of expert -1:
// zero_empty_tiles) into a fresh buffer. The wave emulator fails a read of
// memory no one wrote, and the result is compared bit for bit.
// DEFINE: %{ints4} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales
// RUN: %{run} --entry=routed_fp4_all_rows %{ints4} --print-launches | FileCheck %s --check-prefixes=CHECK,NAMED-LAUNCH
// NAMED-LAUNCH: launch #0 @routed_fp4_all_rows_relayout0_generic::@routed_fp4_all_rows_relayout0_generic
// NAMED-LAUNCH: launch #1 @routed_fp4_all_rows_mma0::@routed_fp4_all_rows_mma0
// NAMED-LAUNCH-NOT: launch #2
// RUN: %{run} --entry=routed_fp4_all_rows --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales | FileCheck %s
// RUN: mx-opt %S/../CPU/routed-scaled-contraction.mlir --mx-gfx950-pipeline=output=gpu --mlir-print-ir-before=mx-gfx950-lower-tiled-mma 2>&1 >/dev/null | FileCheck %s --check-prefix=NAMED
// NAMED-LABEL: func.func @routed_fp4_all_rows
//       NAMED: %[[ACC:.+]] = memref.alloc() {{.*}} : memref<20x24xf32>
//   NAMED-NOT: _fill
//       NAMED: mx.tiled_scaled_mma {{.*}} row_ids(%{{.+}} : memref<64xi32>) outs(%[[ACC]] : memref<20x24xf32>) {{.*}} zero_acc zero_empty_tiles
//       NAMED: return %[[ACC]]
// Unnamed rows break the promise: the reference rejects the routing.
// RUN: not %{run} --entry=routed_all_rows_args %{ints4} --arg=fill:20 --arg=fill:1 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: error: all_rows_named: sorted_ids name no position for routed row 0
// Routing at run time: all padding; all blocks of an expert outside [0, E).
// RUN: %{run} --entry=routed_args %{ints} --arg=fill:20 --arg=fill:1 | FileCheck %s
// RUN: %{run} --entry=routed_args %{ints} --arg=fill:20 --arg=fill:4 | FileCheck %s
// A row named by two valid positions: the kernel runs (its tiles write one
// of the competing sums, never out of bounds) and the reference rejects the
// routing.
// RUN: not %{run} --entry=routed_args %{ints} --arg=fill:5 --arg=fill:1 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not %{run} --entry=routed_args %{ints} --arg=fill:3 --arg=fill:4 2>&1 | FileCheck %s --check-prefix=REPEAT
// REPEAT: error: sorted_ids name a routed row more than once
// Random codes need the per-instruction rounding (rounded once they differ).
// RUN: not %{run} --entry=routed_fp4_k512 %{codes} --reference-rounding=once | FileCheck %s --check-prefix=ONCE
// ONCE: FAIL

// CHECK: bit-exact
// CHECK: PASS
