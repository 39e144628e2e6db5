// A routed GEMM whose kernel quantizes its own A from the bf16 tokens,
// reading each row through the sorted ids (mx-gfx950-quantize-in-gemm on a
// gathered mx.quantize_into, the ukernel mx_uk_scaled_mma_quantized_lhs):
// no quantize kernel (the one launch before the GEMM packs the weights,
// which are arguments here), bit-exact on the wave emulator against
// the independent reference, which quantizes the tokens, gathers them and
// multiplies the original program's way. The ids hold padding ids (20 =
// T * top_k: zero rows), an empty expert (2), a block of another rank's
// expert (-1) and partly filled tiles; K = 2048 is four K tiles of 512, so
// the ukernel's prologue, steady state and last step all run.

// DEFINE: %{run} = mx-run %s --backend=gfx950-emu --compare=reference
// DEFINE: %{always} = --gfx950-options=quantize-in-gemm=always
// DEFINE: %{exact} = --seed=3 --arg=random:int,lo=-6,hi=6 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8
// DEFINE: %{normal} = --seed=5 --arg=random:normal,std=10,specials=0.02 --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:normal
// RUN: %{run} --entry=routed_in_gemm %{exact} %{always} --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH
// LAUNCH-NOT: _quantize0
// LAUNCH: launch #1 @routed_in_gemm_mma0::@routed_in_gemm_mma0
// LAUNCH-NOT: launch #
// RUN: %{run} --entry=routed_in_gemm %{normal} %{always} | FileCheck %s
// mode=auto leaves it to the quantize dispatch even with K tiles of 512 on
// 4 waves along N (one 16-row tile per expert against N tiles of 64 fp4
// weights, one A fragment per wave and K step): its 16 workgroups with rows
// do not fill the CUs twice (test/Target/GFX950/Transforms/
// quantize-in-gemm.mlir has the routed GEMMs auto quantizes in).
// RUN: %{run} --entry=routed_in_gemm %{exact} --gfx950-options="intrinsics-m=1 intrinsics-n=1 intrinsics-k=4 subgroups-m=1 subgroups-n=4" --print-launches | FileCheck %s --check-prefixes=CHECK,NEVER
// RUN: %{run} --entry=routed_in_gemm %{exact} --print-launches | FileCheck %s --check-prefixes=CHECK,NEVER
// The same with tiles of 32 rows (the 32x32x64 intrinsic, blocks of 32;
// K tiles of 512: four K steps).
// RUN: %{run} --entry=routed_in_gemm_32 %{exact} --gfx950-options="quantize-in-gemm=always intrinsic=32x32x64 intrinsics-k=8" --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH32
// LAUNCH32-NOT: _quantize0
// LAUNCH32: launch #1 @routed_in_gemm_32_mma0::@routed_in_gemm_32_mma0
// LAUNCH32-NOT: launch #
// RUN: %{run} --entry=routed_in_gemm_32 %{normal} --gfx950-options="quantize-in-gemm=always intrinsic=32x32x64 intrinsics-k=8" | FileCheck %s
// Tiles of 32 rows in two fragments of 16 (two 16x16x128 intrinsics, or
// two subgroups, along M): each lane reads one input row through the ids
// per fragment of rows (row_offsets).
// RUN: %{run} --entry=routed_in_gemm_32 %{exact} --gfx950-options="quantize-in-gemm=always intrinsics-m=2 intrinsics-k=4" --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH32
// RUN: %{run} --entry=routed_in_gemm_32 %{normal} --gfx950-options="quantize-in-gemm=always intrinsics-m=2 intrinsics-k=4" | FileCheck %s
// RUN: %{run} --entry=routed_in_gemm_32 %{exact} --gfx950-options="quantize-in-gemm=always subgroups-m=2 subgroups-n=2 intrinsics-k=4" --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH32
// The quantize dispatch instead (quantize-in-gemm=never): the same bits.
// RUN: %{run} --entry=routed_in_gemm %{normal} --gfx950-options=quantize-in-gemm=never --print-launches | FileCheck %s --check-prefixes=CHECK,NEVER
// NEVER: @routed_in_gemm_quantize0::@routed_in_gemm_quantize0
// NEVER: @routed_in_gemm_mma0::@routed_in_gemm_mma0
// CHECK: result #0 tensor<20x64xf32>: {{.*}}mismatches=0/1280{{.*}}: bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

// The kernels: no scratch, no spills.
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa quantize-in-gemm=always" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// REPORT-LABEL: kernel routed_in_gemm_mma0
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
// REPORT-LABEL: kernel routed_in_gemm_32_mma0
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
// (The function of 32-row blocks alone: the other's blocks of 16 are not
// whole 32-row tiles.)
// RUN: sed -n '/^func.func @routed_in_gemm_32/,$p' %s \
// RUN:   | mx-opt --mx-gfx950-pipeline="output=isa quantize-in-gemm=always intrinsic=32x32x64 intrinsics-k=8" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT32 --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// REPORT32-LABEL: kernel routed_in_gemm_32_mma0
//       REPORT32:   scratch_bytes: 0
//  REPORT32-NEXT:   vgpr_spills: 0
//  REPORT32-NEXT:   sgpr_spills: 0

func.func @routed_in_gemm(%x: tensor<10x2048xbf16>, %w: tensor<4x64x2048xf4E2M1FN>,
                          %sw: tensor<4x64x64xf8E8M0FNU>,
                          %acc: tensor<20x64xf32>) -> tensor<20x64xf32> {
  %ids = arith.constant dense<[0, 3, 5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               1, 2, 4, 6, 7, 8, 9, 10, 11, 20, 20, 20, 20, 20, 20, 20,
                               12, 13, 14, 15, 16, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<64xi32>
  %experts = arith.constant dense<[0, 1, 3, -1]> : tensor<4xi32>
  %a, %sa = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<10x2048xbf16> -> tensor<10x2048xf4E2M1FN>, tensor<10x64xf8E8M0FNU>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x2048xf4E2M1FN>, tensor<4x64x2048xf4E2M1FN>,
                            tensor<10x64xf8E8M0FNU>, tensor<4x64x64xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x64xf32>) -> tensor<20x64xf32>
  return %r : tensor<20x64xf32>
}

// Blocks of 32 sorted positions (tiles of 32 rows): expert 0's block is
// one routed row and 31 padding ids.
func.func @routed_in_gemm_32(%x: tensor<10x2048xbf16>, %w: tensor<4x64x2048xf4E2M1FN>,
                             %sw: tensor<4x64x64xf8E8M0FNU>,
                             %acc: tensor<20x64xf32>) -> tensor<20x64xf32> {
  %ids = arith.constant dense<[5, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                               17, 18, 19, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20,
                               20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20]> : tensor<96xi32>
  %experts = arith.constant dense<[3, 0, -1]> : tensor<3xi32>
  %a, %sa = mx.quantize %x axis(1) scale(even) rounding(nearest_even)
      : tensor<10x2048xbf16> -> tensor<10x2048xf4E2M1FN>, tensor<10x64xf8E8M0FNU>
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x2048xf4E2M1FN>, tensor<4x64x2048xf4E2M1FN>,
                            tensor<10x64xf8E8M0FNU>, tensor<4x64x64xf8E8M0FNU>)
      routing(%ids, %experts : tensor<96xi32>, tensor<3xi32>)
      outs(%acc : tensor<20x64xf32>) -> tensor<20x64xf32>
  return %r : tensor<20x64xf32>
}
