// mx.routed_scaled_contraction (MoE grouped GEMM in vLLM/AITER's
// sorted-token-ids form) on the CPU path against the independent reference
// (ref::routedScaledMatmul: per block, the reference scaled matmul of the
// block's routed rows with its expert's weights).
//
// Exact-integer data: every product and partial sum is exact, so the
// results must be bit-identical. 10 tokens, top 2 (20 routed rows), 4
// experts, blocks of 16 positions: expert 0 takes rows 0, 3, 5; expert 1
// rows 1, 2, 4, 6..11; expert 2 none; expert 3 rows 12..16; a block of
// expert -1 (another rank's) names rows 17..19, which keep acc. Padding
// positions hold the id 20 (T * top_k). The same program runs on the gfx950
// emulator (test/Integration/GFX950/emulator-routed.mlir).

// DEFINE: %{exact} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference

// RUN: mx-run %s --entry=routed_fp4 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=routed_fp8_fp4 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=routed_fp4_k512 %{exact} | FileCheck %s --check-prefix=EXACT
// DEFINE: %{exact4} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --compare=reference
// RUN: mx-run %s --entry=routed_fp4_zero %{exact4} | FileCheck %s --check-prefix=EXACT
// EXACT: result #0 tensor<20x24xf32>: {{.*}}mismatches=0/480{{.*}}: bit-exact
// EXACT: PASS
// K = 640 (five 128-element steps; a 1024 K step pads it) in blocks of 64
// positions, N = 64.
// RUN: mx-run %s --entry=routed_fp4_k640 %{exact} | FileCheck %s --check-prefix=K640
// K640: result #0 tensor<20x64xf32>: {{.*}}mismatches=0/1280{{.*}}: bit-exact
// K640: PASS

// Routing given at run time: every position padding (every row is acc),
// then every block of an expert outside [0, E) (its rows keep acc).
// DEFINE: %{args} = --entry=routed_args --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference
// RUN: mx-run %s %{args} --arg=fill:20 --arg=fill:1 | FileCheck %s --check-prefix=ACC
// RUN: mx-run %s %{args} --arg=fill:20 --arg=fill:4 | FileCheck %s --check-prefix=ACC
// ACC: bit-exact
// ACC: PASS

// A row named by two positions (every position names row 5, both blocks
// expert 1; or row 3, in blocks of expert 4, outside [0, E), in which a GPU
// kernel from zero writes +0.0) is inconsistent routing: a run-time error
// of the host path (and of the reference evaluator:
// GFX950/emulator-routed.mlir and unittests/Reference/ScaledMatmulTest.cpp),
// never a silent result.
// DEFINE: %{routing} = --entry=routed_args --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --arg=fill:5 --arg=fill:1
// RUN: not mx-run %s %{routing} 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not mx-run %s %{args} --arg=fill:3 --arg=fill:4 2>&1 | FileCheck %s --check-prefix=REPEAT
// REPEAT: sorted_ids of mx.routed_scaled_contraction name a routed row more than once; the experts were not computed

// all_rows_named: the routing of routed_fp4_zero names every row (the
// block of expert -1 too), so the result is the same as without it; a
// routing that leaves a row unnamed (all padding) breaks the promise, a
// run-time error of the host path and of the reference evaluator; a row
// named twice is still reported as such.
// RUN: mx-run %s --entry=routed_fp4_all_rows %{exact4} | FileCheck %s --check-prefix=EXACT
// DEFINE: %{named} = --entry=routed_all_rows_args --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales
// RUN: not mx-run %s %{named} --arg=fill:20 --arg=fill:1 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: @routed_all_rows_args: sorted_ids of mx.routed_scaled_contraction name no position for some routed row, against its all_rows_named; the experts were not computed
// RUN: not mx-run %s %{named} --arg=fill:20 --arg=fill:1 --backend=reference 2>&1 | FileCheck %s --check-prefix=UNNAMED-REF
// UNNAMED-REF: all_rows_named: sorted_ids name no position for routed row 0
// RUN: not mx-run %s %{named} --arg=fill:5 --arg=fill:1 2>&1 | FileCheck %s --check-prefix=REPEAT

func.func @routed_fp4(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                      %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
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

func.func @routed_fp8_fp4(%a: tensor<10x64xf8E4M3FN>, %w: tensor<4x24x64xf4E2M1FN>,
                          %sa: tensor<10x2xf8E8M0FNU>, %sw: tensor<4x24x2xf8E8M0FNU>,
                          %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x64xf8E4M3FN>, tensor<4x24x64xf4E2M1FN>,
                            tensor<10x2xf8E8M0FNU>, tensor<4x24x2xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// K = 512: several K steps of the gfx950 kernel.
func.func @routed_fp4_k512(%a: tensor<10x512xf4E2M1FN>, %w: tensor<4x24x512xf4E2M1FN>,
                      %sa: tensor<10x16xf8E8M0FNU>, %sw: tensor<4x24x16xf8E8M0FNU>,
                      %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x512xf4E2M1FN>, tensor<4x24x512xf4E2M1FN>,
                            tensor<10x16xf8E8M0FNU>, tensor<4x24x16xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

func.func @routed_args(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                       %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
                       %acc: tensor<20x24xf32>, %ids: tensor<32xi32>,
                       %experts: tensor<2xi32>) -> tensor<20x24xf32> {
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<32xi32>, tensor<2xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// From a +0.0 fill (the GEMM starts its tiles' rows at zero and reads no
// accumulator): rows 17..19, named by the block of expert -1, and no
// others, keep the fill's zeros.
func.func @routed_fp4_zero(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                           %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>)
    -> tensor<20x24xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<20x24xf32>) -> tensor<20x24xf32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// The same, promising that every row is named: the +0.0 fill is dropped
// when data tiling (the GPU kernel writes every row).
func.func @routed_fp4_all_rows(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                               %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>)
    -> tensor<20x24xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<20x24xf32>) -> tensor<20x24xf32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) {all_rows_named} -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// all_rows_named with the routing given at run time (32 positions for the
// 20 rows).
func.func @routed_all_rows_args(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                                %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
                                %ids: tensor<32xi32>, %experts: tensor<2xi32>)
    -> tensor<20x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<20x24xf32>) -> tensor<20x24xf32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<32xi32>, tensor<2xi32>)
      outs(%acc : tensor<20x24xf32>) {all_rows_named} -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

func.func @routed_fp4_k640(%a: tensor<10x640xf4E2M1FN>, %w: tensor<4x64x640xf4E2M1FN>,
                      %sa: tensor<10x20xf8E8M0FNU>, %sw: tensor<4x64x20xf8E8M0FNU>,
                      %acc: tensor<20x64xf32>) -> tensor<20x64xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<256xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x640xf4E2M1FN>, tensor<4x64x640xf4E2M1FN>,
                            tensor<10x20xf8E8M0FNU>, tensor<4x64x20xf8E8M0FNU>)
      routing(%ids, %experts : tensor<256xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x64xf32>) -> tensor<20x64xf32>
  return %r : tensor<20x64xf32>
}
