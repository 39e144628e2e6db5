// Two routed GEMMs in a row, as a MoE layer's gate_up and down: the first
// from zero, its result read only through the rows the sorted ids name (a
// bf16 rounding, then the second GEMM's quantize gathers its rows by the
// same ids). Its +0.0 fill is dropped (mx.tiled_scaled_mma's
// canonicalization), and its kernel writes every row the ids name: the sums
// of the blocks of valid experts and +0.0 in the rows of the block of
// another rank's expert (-1). The emulator reports any read of a byte no
// one wrote, so a row left unwritten fails the run; bit-exact against the
// independent reference. 10 tokens, top 2, 4 experts (expert 1 empty),
// blocks of 16 positions with padding ids (20).

// DEFINE: %{run} = mx-run %s --backend=gfx950-emu --compare=reference --entry=chain
// DEFINE: %{ints} = --seed=3 --arg=random:int,lo=-6,hi=6 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=124,hi=128 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=124,hi=128
// DEFINE: %{normal} = --seed=5 --arg=random:normal --arg=random:codes --arg=random:scales,lo=122,hi=128 --arg=random:codes --arg=random:scales,lo=122,hi=128
// RUN: %{run} %{ints} --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH
// RUN: %{run} %{normal} | FileCheck %s
// Both GEMMs quantizing their A in the kernel (K = 256 and 128, each
// padded to one K tile of 512; the two quantized A share one buffer pair
// after bufferization, and each GEMM takes the quantize just before it).
// RUN: %{run} %{ints} --gfx950-options=quantize-in-gemm=always --print-launches | FileCheck %s --check-prefixes=CHECK,ALWAYS
// ALWAYS-NOT: _quantize
// ALWAYS: @chain_mma1::@chain_mma1
// The first GEMM's accumulator is not filled: the only fill launched is
// the second's, after the first GEMM.
// LAUNCH: @chain_mma0::@chain_mma0
// LAUNCH-NOT: _fill
// LAUNCH: @chain_mma1::@chain_mma1
// CHECK: result #0 tensor<20x64xf32>: {{.*}}mismatches=0/1280{{.*}}: bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

// Before the kernels are made: the first GEMM's output is a fresh buffer,
// which nothing fills or copies into; the bf16 rounding is its epilogue
// (mx-fuse-epilogues), so it is that bf16 buffer.
// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu --mlir-print-ir-before=mx-gfx950-lower-tiled-mma 2>&1 >/dev/null | FileCheck %s --check-prefix=ACC
// ACC-LABEL: func.func @chain
//       ACC: %[[H:.+]] = memref.alloc() {{.*}} : memref<20x128xbf16>
//   ACC-NOT: outs(%[[H]]
//       ACC: mx.tiled_scaled_mma {{.*}} tile_groups(%{{.+}} : memref<4xi32>) row_ids(%{{.+}} : memref<64xi32>) outs(%[[H]] : memref<20x128xbf16>) {{.*}} zero_acc zero_empty_tiles epilogue
//       ACC:   arith.truncf

func.func @chain(%x: tensor<10x256xbf16>, %w1: tensor<4x128x256xf4E2M1FN>,
                 %s1: tensor<4x128x8xf8E8M0FNU>, %w2: tensor<4x64x128xf4E2M1FN>,
                 %s2: tensor<4x64x4xf8E8M0FNU>) -> tensor<20x64xf32> {
  %ids = arith.constant dense<[0, 5, 9, 14, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               3, 7, 11, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 8, 10, 12, 13, 20, 20, 20, 20, 20, 20, 20, 20,
                               15, 16, 17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, -1, 2, 3]> : tensor<4xi32>
  %zero = arith.constant 0.0 : f32
  %xq, %xs = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<10x256xbf16> -> tensor<10x256xf4E2M1FN>, tensor<10x8xf8E8M0FNU>
  %e0 = tensor.empty() : tensor<20x128xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<20x128xf32>) -> tensor<20x128xf32>
  %h = mx.routed_scaled_contraction top_k = 2
      ins(%xq, %w1, %xs, %s1 : tensor<10x256xf4E2M1FN>, tensor<4x128x256xf4E2M1FN>,
                              tensor<10x8xf8E8M0FNU>, tensor<4x128x8xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%z0 : tensor<20x128xf32>) -> tensor<20x128xf32>
  %e1 = tensor.empty() : tensor<20x128xbf16>
  %hb = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<20x128xf32>) outs(%e1 : tensor<20x128xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %b = arith.truncf %v : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<20x128xbf16>
  %hq, %hs = mx.quantize %hb axis(1) scale(even) rounding(nearest_even)
      : tensor<20x128xbf16> -> tensor<20x128xf4E2M1FN>, tensor<20x4xf8E8M0FNU>
  %e2 = tensor.empty() : tensor<20x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<20x64xf32>) -> tensor<20x64xf32>
  %y = mx.routed_scaled_contraction top_k = 1
      ins(%hq, %w2, %hs, %s2 : tensor<20x128xf4E2M1FN>, tensor<4x64x128xf4E2M1FN>,
                              tensor<20x4xf8E8M0FNU>, tensor<4x64x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%z2 : tensor<20x64xf32>) -> tensor<20x64xf32>
  return %y : tensor<20x64xf32>
}
