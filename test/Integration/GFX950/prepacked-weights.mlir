// Weights packed once (mx.prepack, mx-hoist-argument-relayouts): mx-run
// passes the logical weights, runs the packing functions on them, then the
// entry on the packed weights; the reference evaluates the logical program.
// Exact-integer data with per-block distinct scales: bit-exact on every
// backend. A dense GEMM (B as N x K, sizes not multiples of the tile: the
// packs pad) and a routed MoE GEMM (the experts a leading dimension of the
// packed weights, as test/Integration/CPU/routed-scaled-contraction.mlir's
// @routed_fp4).

// DEFINE: %{ints} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference
// DEFINE: %{codes} = --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal --compare=reference

// gfx950: the pipeline hoists the relayouts; the launch plan lists the
// packing functions' dispatches apart from the entry's. (This line checks
// the wave emulator's statistics per function, so it names its backend as
// `--backend gfx950-emu`, which the ISA-executor variant of this file
// leaves as it is; the other lines run on both.)
// RUN: mx-run %s --backend gfx950-emu --entry=dense %{ints} --print-launches --emu-stats | FileCheck %s --check-prefixes=EXACT,DENSE
// DENSE: prepack @dense_prepack_1 (argument #1 of @dense): once per model load
// DENSE-NEXT: launch #0 @dense_prepack_1_relayout0_generic::@dense_prepack_1_relayout0_generic
// DENSE-NEXT: arg #0 memref<47x112xi8>: buffer #{{[0-9]+}} (5264 bytes, argument #0 of @dense_prepack_1)
// DENSE-NEXT: arg #1 memref<2x1x2x2x4x16x16xi8>: buffer #[[PACKED:[0-9]+]] (8192 bytes, 'memref.alloc'
// DENSE-NEXT: gfx950-emu @dense_prepack_1: 1 launches (1 kernels), 2 workgroups, 0 MFMAs
// DENSE-NEXT: prepack @dense_prepack_3 (argument #3 of @dense): once per model load
// DENSE-NEXT: launch #0 @dense_prepack_3_relayout0_generic::@dense_prepack_3_relayout0_generic
// DENSE: gfx950-emu @dense_prepack_3: 1 launches (1 kernels)
// DENSE-NEXT: @dense: per call
// DENSE-NEXT: launch #0 @dense_relayout0_generic::@dense_relayout0_generic
// DENSE: launch #1 @dense_mma0::@dense_mma0
// DENSE: arg #2 memref<2x1x2x2x4x16x16xi8>: buffer #[[PACKED]] (8192 bytes, argument #1 of @dense)
// DENSE-NOT: launch #2
// DENSE: gfx950-emu @dense: 2 launches (2 kernels), 7 workgroups, 32 MFMAs
// RUN: mx-run %s --backend=gfx950-emu --entry=dense %{codes} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=routed %{ints} --print-launches | FileCheck %s --check-prefixes=EXACT,ROUTED
// ROUTED: prepack @routed_prepack_1 (argument #1 of @routed): once per model load
// ROUTED: prepack @routed_prepack_3 (argument #3 of @routed): once per model load
// ROUTED: @routed: per call
// ROUTED-NEXT: launch #0 @routed_relayout0_generic::@routed_relayout0_generic
// ROUTED-NEXT: arg
// ROUTED: launch #1 @routed_mma0::@routed_mma0
// ROUTED-NOT: launch #2
// RUN: mx-run %s --backend=gfx950-emu --entry=routed %{codes} | FileCheck %s --check-prefix=EXACT
// The launch plan of the code objects (mx-run --backend=hip --dry-run, the C
// API's mxGFX950PrintLaunchPlan) has the same headers.
// RUN: mx-run %s --backend=hip --dry-run --entry=routed | FileCheck %s --check-prefix=PLAN
// PLAN: prepack @routed_prepack_1 (argument #1 of @routed): once per model load
// PLAN-NEXT: launch #0 @routed_prepack_1_relayout0_generic::@routed_prepack_1_relayout0_generic
// PLAN: prepack @routed_prepack_3 (argument #3 of @routed): once per model load
// PLAN-NEXT: launch #0 @routed_prepack_3_relayout0_generic::@routed_prepack_3_relayout0_generic
// PLAN: @routed: per call
// PLAN-NEXT: launch #0 @routed_relayout0_generic::@routed_relayout0_generic
// PLAN: launch #1 @routed_mma0::@routed_mma0
// PLAN-NOT: launch #2
// RUN: mx-run %s --backend=gfx950-isa --entry=routed %{ints} | FileCheck %s --check-prefix=EXACT

// A decode GEMM whose K mx-split-k splits in 4 parts: the parts' views of
// the weight join its hoisted relayout (the pass runs after mx-split-k), so
// the entry relays out only A.
// RUN: mx-run %s --backend=gfx950-emu --entry=decode --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129 --arg=random:int,lo=-8,hi=8 --compare=reference --print-launches | FileCheck %s --check-prefixes=EXACT,DECODE
// DECODE: prepack @decode_prepack_1 (argument #1 of @decode): once per model load
// DECODE-NEXT: launch #0 @decode_prepack_1_relayout0_generic
// DECODE-NEXT: arg #0 memref<256x2048xi8>
// DECODE-NEXT: arg #1 memref<4x16x2x4x4x16x16xi8>
// DECODE: @decode: per call
// DECODE-NEXT: launch #0 @decode_relayout0_generic::@decode_relayout0_generic
// DECODE-NEXT: arg #0 memref<1x2048xi8>: buffer #{{[0-9]+}} (2048 bytes, argument #0 of @decode)
// DECODE-NEXT: arg #1
// DECODE-NEXT: arg #2 memref<1x128xi8>: buffer #{{[0-9]+}} (128 bytes, argument #2 of @decode)
// DECODE-NEXT: arg #3
// DECODE-NEXT: launch #1 @decode_mma0::@decode_mma0 grid 16x1x4 block 64x1x1
// DECODE: arg #2 memref<4x16x2x4x4x16x16xi8>: buffer #{{[0-9]+}} (524288 bytes, argument #1 of @decode)
// DECODE: launch #2 @decode_{{.*}} grid
// DECODE-NOT: launch #3

// The CPU path has no data tiling: mx.prepack asks for nothing there (the
// hoisted program on the CPU path: test/Integration/CPU/prepacked-weights.mlir).
// RUN: mx-run %s --entry=routed %{ints} | FileCheck %s --check-prefix=EXACT
// EXACT: mismatches=0/{{[0-9]+}}{{.*}}: bit-exact
// EXACT: PASS

func.func @dense(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN> {mx.prepack},
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU> {mx.prepack},
    %c: tensor<33x47xf32>) -> tensor<33x47xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  return %r : tensor<33x47xf32>
}

func.func @routed(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN> {mx.prepack},
                  %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU> {mx.prepack},
                  %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

func.func @decode(%a: tensor<1x4096xf4E2M1FN>, %b: tensor<256x4096xf4E2M1FN> {mx.prepack},
    %sa: tensor<1x128xf8E8M0FNU>, %sb: tensor<256x128xf8E8M0FNU> {mx.prepack},
    %c: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<1x4096xf4E2M1FN>, tensor<256x4096xf4E2M1FN>,
                            tensor<1x128xf8E8M0FNU>, tensor<256x128xf8E8M0FNU>)
      outs(%c : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %r : tensor<1x256xf32>
}
