// A tensor quantized along both axes (training's forward GEMM reads it along
// K, the backward one along M: Transformer Engine's cast-transpose) is read
// once: one kernel per pair, whose workgroups quantize the row blocks of a
// 32-row tile from global memory, keep the tile in LDS, and after a barrier
// quantize its column blocks from LDS. Bit-exact against the independent
// reference on the wave emulator: both results plain (shapes that are not
// whole tiles), different element types and rules per axis (fp6 columns
// share bytes four at a time), and the rows fused into a GEMM's operand
// layout.

// RUN: mx-run %s --backend=gfx950-emu --entry=plain --seed=3 --arg=random:normal,std=10,specials=0.02 --compare=reference | FileCheck %s --check-prefix=EXACT4
// RUN: mx-run %s --backend=gfx950-emu --entry=mixed --seed=4 --arg=random:normal,std=10,specials=0.02 --compare=reference | FileCheck %s --check-prefix=EXACT4
// RUN: mx-run %s --backend=gfx950-emu --entry=gemm --seed=5 --arg=random:int,lo=-40,hi=40 --arg=random:codes --arg=random:scales,lo=124,hi=130 --arg=zeros --compare=reference | FileCheck %s --check-prefix=EXACT3
// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=ONE

// EXACT4-COUNT-4: : bit-exact
// EXACT4-NOT: FAIL
// EXACT4: PASS
// EXACT3-COUNT-3: : bit-exact
// EXACT3-NOT: FAIL
// EXACT3: PASS

// One launch reads the input, 3 x 1 workgroups of 32 x 256 (160 columns
// padded to 256, 96 rows).
// ONE-LABEL: func.func @plain
//       ONE:   gpu.launch_func @plain_quantize0::@plain_quantize0 blocks in (%{{.+}}, %{{.+}}, %{{.+}}) threads in (%{{.+}}, %{{.+}}, %{{.+}}) args(%arg0 : memref<96x160xbf16>
//   ONE-NOT:   gpu.launch_func
//       ONE:   return
// The kernel: row blocks from global memory into LDS, a barrier, column
// blocks from LDS (no second read of the input).
// ONE-LABEL: gpu.func @plain_quantize0
//  ONE-SAME:   workgroup(%[[LDS:.+]] : memref<32x256xbf16, #gpu.address_space<workgroup>>)
//       ONE:   vector.store %{{.+}}, %[[LDS]]
//       ONE:   gpu.barrier
//       ONE:   memref.load %[[LDS]]
//   ONE-NOT:   memref.load %arg0
// ONE-LABEL: func.func @mixed
//       ONE:   gpu.launch_func @mixed_quantize0
//   ONE-NOT:   gpu.launch_func {{.*}}memref<64x128xf32>
// ONE-LABEL: func.func @gemm
//       ONE:   gpu.launch_func @gemm_quantize0::@gemm_quantize0 {{.*}}args(%arg0 : memref<128x256xbf16>
//   ONE-NOT:   gpu.launch_func {{.*}}memref<128x256xbf16>
//       ONE:   gpu.launch_func @gemm_mma0

func.func @plain(%x: tensor<96x160xbf16>)
    -> (tensor<96x160xf4E2M1FN>, tensor<96x5xf8E8M0FNU>, tensor<96x160xf4E2M1FN>, tensor<3x160xf8E8M0FNU>) {
  %r, %rs = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<96x160xbf16> -> tensor<96x160xf4E2M1FN>, tensor<96x5xf8E8M0FNU>
  %c, %cs = mx.quantize %x axis(0) scale(even) rounding(ties_away)
      : tensor<96x160xbf16> -> tensor<96x160xf4E2M1FN>, tensor<3x160xf8E8M0FNU>
  return %r, %rs, %c, %cs
      : tensor<96x160xf4E2M1FN>, tensor<96x5xf8E8M0FNU>, tensor<96x160xf4E2M1FN>, tensor<3x160xf8E8M0FNU>
}

// Columns first in the program, fp6 (four codes per three bytes along the
// rows of the column destination), rows fp8 with RCEIL; f32 input.
func.func @mixed(%x: tensor<64x128xf32>)
    -> (tensor<64x128xf6E2M3FN>, tensor<2x128xf8E8M0FNU>, tensor<64x128xf8E4M3FN>, tensor<64x4xf8E8M0FNU>) {
  %c, %cs = mx.quantize %x axis(0) scale(floor) rounding(nearest_even)
      : tensor<64x128xf32> -> tensor<64x128xf6E2M3FN>, tensor<2x128xf8E8M0FNU>
  %r, %rs = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<64x128xf32> -> tensor<64x128xf8E4M3FN>, tensor<64x4xf8E8M0FNU>
  return %c, %cs, %r, %rs
      : tensor<64x128xf6E2M3FN>, tensor<2x128xf8E8M0FNU>, tensor<64x128xf8E4M3FN>, tensor<64x4xf8E8M0FNU>
}

// The rows feed a GEMM (quantized straight into its operand layout), the
// columns are returned (the backward GEMM's operand).
func.func @gemm(%x: tensor<128x256xbf16>, %w: tensor<64x256xf4E2M1FN>,
                %sw: tensor<64x8xf8E8M0FNU>, %acc: tensor<128x64xf32>)
    -> (tensor<128x64xf32>, tensor<128x256xf4E2M1FN>, tensor<4x256xf8E8M0FNU>) {
  %r, %rs = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<128x256xbf16> -> tensor<128x256xf4E2M1FN>, tensor<128x8xf8E8M0FNU>
  %c, %cs = mx.quantize %x axis(0) scale(even) rounding(ties_away)
      : tensor<128x256xbf16> -> tensor<128x256xf4E2M1FN>, tensor<4x256xf8E8M0FNU>
  %y = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%r, %w, %rs, %sw : tensor<128x256xf4E2M1FN>, tensor<64x256xf4E2M1FN>,
                            tensor<128x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
      outs(%acc : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %y, %c, %cs : tensor<128x64xf32>, tensor<128x256xf4E2M1FN>, tensor<4x256xf8E8M0FNU>
}
