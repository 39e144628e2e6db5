// A routed GEMM (10 tokens x top 2 = 20 rows, 4 blocks of 16 sorted
// positions, the second block another rank's expert (-1), row 19 named by
// no position) followed by the weighted combine out[t, n] = w[t, 0] y[2t, n]
// + w[t, 1] y[2t + 1, n], rounded to bf16. mx-fuse-column-consumers puts
// the combine in the GEMM's kernel: the last wave of each strip of N tiles
// (found by counting every wave of the strip, the tiles without rows too,
// with an atomic) combines the strip's columns. Row 19 keeps the
// accumulator's +0.0 fill, and the block of expert -1 names rows whose sums
// are +0.0 too, as the reference computes them. Bit-exact against the
// independent reference on the wave emulator and on the ISA executor (its
// workgroups on 4 host threads, so the last arriver varies), with no
// dispatch after the GEMM's.

// DEFINE: %{run} = mx-run %s --compare=reference --entry=combine --threads=4 --seed=7 --arg=random:normal --arg=random:codes --arg=random:scales,lo=122,hi=128 --arg=random:normal
// RUN: %{run} --backend=gfx950-emu --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH
// RUN: %{run} --backend=gfx950-isa | FileCheck %s
// Row by row (column-consumer-elements=16, below the strips' 10 x 16
// outputs): each output row is computed by the wave that completes its
// count of 2 rows, token 9 (its row 19 named by no id) by the strip's last
// wave. Fails when a row is computed one count early (435 of 640 wrong) or
// the last wave skips token 9 (its 64).
// RUN: %{run} --backend=gfx950-emu --print-launches --gfx950-options=column-consumer-elements=16 | FileCheck %s --check-prefixes=CHECK,LAUNCH
// RUN: %{run} --backend=gfx950-isa --gfx950-options=column-consumer-elements=16 | FileCheck %s
// With column-consumer-elements=0 the combine is a dispatch of its own (and
// the result the same).
// RUN: %{run} --backend=gfx950-emu --print-launches --gfx950-options=column-consumer-elements=0 | FileCheck %s --check-prefixes=CHECK,UNFUSED
// LAUNCH: @combine_mma0::@combine_mma0
// LAUNCH-NOT: @combine_
// UNFUSED: @combine_mma0::@combine_mma0
// UNFUSED: @combine_relayout{{[0-9]+}}_generic
// CHECK: result #0 tensor<10x64xbf16>: {{.*}}mismatches=0/640{{.*}}: bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

func.func @combine(%x: tensor<20x128xbf16>, %w: tensor<4x64x128xf4E2M1FN>,
                   %s: tensor<4x64x4xf8E8M0FNU>, %weights: tensor<10x2xf32>)
    -> tensor<10x64xbf16> {
  %ids = arith.constant dense<[0, 5, 9, 14, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               3, 7, 11, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 8, 10, 12, 13, 20, 20, 20, 20, 20, 20, 20, 20,
                               15, 16, 17, 18, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, -1, 2, 3]> : tensor<4xi32>
  %zero = arith.constant 0.0 : f32
  %xq, %xs = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<20x128xbf16> -> tensor<20x128xf4E2M1FN>, tensor<20x4xf8E8M0FNU>
  %e = tensor.empty() : tensor<20x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<20x64xf32>) -> tensor<20x64xf32>
  %y = mx.routed_scaled_contraction top_k = 1
      ins(%xq, %w, %xs, %s : tensor<20x128xf4E2M1FN>, tensor<4x64x128xf4E2M1FN>,
                            tensor<20x4xf8E8M0FNU>, tensor<4x64x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%z : tensor<20x64xf32>) -> tensor<20x64xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [10, 2, 64] : tensor<20x64xf32> into tensor<10x2x64xf32>
  %o = tensor.empty() : tensor<10x64xbf16>
  %out = linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 1, n)>,
                                          affine_map<(t, n) -> (t, 0)>, affine_map<(t, n) -> (t, 1)>, affine_map<(t, n) -> (t, n)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%y3, %y3, %weights, %weights : tensor<10x2x64xf32>, tensor<10x2x64xf32>, tensor<10x2xf32>, tensor<10x2xf32>)
      outs(%o : tensor<10x64xbf16>) {
  ^bb0(%v0: f32, %v1: f32, %c0: f32, %c1: f32, %b: bf16):
    %p0 = arith.mulf %c0, %v0 : f32
    %p1 = arith.mulf %c1, %v1 : f32
    %sum = arith.addf %p0, %p1 : f32
    %r = arith.truncf %sum : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<10x64xbf16>
  return %out : tensor<10x64xbf16>
}
