// A routed GEMM whose tokens are quantized in the program (bf16 -> MXFP4
// along K, as the MoE layer of bench/moe_layer.py does), on the CPU path
// against the independent reference, which quantizes, gathers and
// multiplies the original program's way. mx-fuse-quantize-relayouts turns
// the quantize and the gather of its rows (mx.gather_rows, with divisor
// top_k) into one mx.quantize_into gathered by the sorted ids, so these
// check its row gather: padding ids (20 = T * top_k), an empty expert (2),
// a block of another rank's expert (-1), and the pack's padding rows. The
// same program runs on the gfx950 emulator
// (test/Integration/GFX950/emulator-routed-quantized-lhs.mlir).
//
// Exact-integer data: the quantized tokens are small integers times powers
// of two and every product and partial sum is exact, so the results must
// be bit-identical.

// DEFINE: %{exact} = --seed=3 --arg=random:int,lo=-6,hi=6 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference
// RUN: mx-run %s --entry=routed_quantized %{exact} | FileCheck %s
// RUN: mx-run %s --entry=routed_quantized --seed=5 --arg=random:normal --arg=random:codes --arg=random:scales --arg=random:normal --compare=reference | FileCheck %s
// DEFINE: %{producer} = --seed=3 --arg=random:int,lo=-6,hi=6 --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference
// RUN: mx-run %s --entry=routed_quantized_producer %{producer} | FileCheck %s
// CHECK: result #0 tensor<20x24xf32>: {{.*}}mismatches=0/480{{.*}}: bit-exact
// CHECK: PASS

// The quantize writes the GEMM's A tiles gathered: no mx.gather_rows and no
// relayout of A are left.
// RUN: mx-opt %s --mx-set-encodings \
// RUN:   --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" \
// RUN:   --mx-fuse-quantize-relayouts | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @routed_quantized
//       FUSED:   mx.quantize_into %{{.+}} gather(%{{.+}} : tensor<64xi32> divisor = 2)
//   FUSED-NOT:   mx.gather_rows
//       FUSED:   mx.tiled_scaled_mma
// FUSED-LABEL: func.func @routed_quantized_producer
//       FUSED:   mx.quantize_into %{{.+}} gather(%{{.+}} : tensor<64xi32> divisor = 1)
//   FUSED-NOT:   mx.gather_rows
//       FUSED:   mx.tiled_scaled_mma

func.func @routed_quantized(%x: tensor<10x128xbf16>, %w: tensor<4x24x128xf4E2M1FN>,
                            %sw: tensor<4x24x4xf8E8M0FNU>,
                            %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %a, %sa = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<10x128xbf16> -> tensor<10x128xf4E2M1FN>, tensor<10x4xf8E8M0FNU>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// The second GEMM of a MoE layer: its rows are the routed rows themselves
// (top_k 1, divisor 1), computed by an elementwise producer (here x * y
// rounded to bf16, exact for these integers) that the quantize kernel computes at the gathered rows.
func.func @routed_quantized_producer(%x: tensor<20x128xf32>, %y: tensor<20x128xf32>,
                                     %w: tensor<4x24x128xf4E2M1FN>,
                                     %sw: tensor<4x24x4xf8E8M0FNU>,
                                     %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %e = tensor.empty() : tensor<20x128xbf16>
  %xy = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>,
                                         affine_map<(m, k) -> (m, k)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<20x128xf32>, tensor<20x128xf32>) outs(%e : tensor<20x128xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %p = arith.mulf %a, %b : f32
    %t = arith.truncf %p : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x128xbf16>
  %a, %sa = mx.quantize %xy axis(1) scale(even) rounding(nearest_even)
      : tensor<20x128xbf16> -> tensor<20x128xf4E2M1FN>, tensor<20x4xf8E8M0FNU>
  %r = mx.routed_scaled_contraction top_k = 1
      ins(%a, %w, %sa, %sw : tensor<20x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<20x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}
