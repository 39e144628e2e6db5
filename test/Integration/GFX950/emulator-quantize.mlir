// mx.quantize on the gfx950 path beyond the plain 2-D cases (every element
// type x scale rule x rounding on rows and columns is in quantize/): a padded
// GEMM operand quantized straight into its tiled layout, and 3-D expert
// weights (f16) along either inner dimension; bit-exact against the
// independent reference on the wave emulator.

// RUN: mx-run %s --backend=gfx950-emu --entry=gemm_padded --seed=6 --arg=random:int,lo=-50,hi=50 --arg=random:int,lo=-4,hi=4 --arg=random:scales,lo=124,hi=130 --arg=zeros --compare=reference | FileCheck %s --check-prefix=PADDED
// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=FUSED
// An elementwise producer computed in the quantize kernel (one launch):
// SwiGLU over the two halves of its input rounded to bf16 (a MoE layer's
// intermediate), and an outer product of a row and a column vector (the
// row's value broadcast along the axis: a load per value).
// RUN: mx-run %s --backend=gfx950-emu --entry=swiglu_quantize --seed=9 --arg=random:normal,std=4 --compare=reference | FileCheck %s --check-prefix=PRODUCER
// RUN: mx-run %s --backend=gfx950-emu --entry=ramp_quantize --seed=9 --arg=random:normal,std=4 --arg=random:normal --compare=reference | FileCheck %s --check-prefix=PRODUCER
// PRODUCER: result #0 {{.*}}: bit-exact
// PRODUCER: result #1 {{.*}}: bit-exact
// PRODUCER: PASS
// RUN: mx-run %s --backend=gfx950-emu --entry=experts --seed=5 --arg=random:normal,std=100,specials=0.03 --compare=reference | FileCheck %s --check-prefix=EXPERTS

// PADDED-COUNT-3: : bit-exact
// PADDED-NOT: FAIL
// PADDED: PASS

// The padded GEMM's A is quantized straight into its tiled layout (rows 100
// to 127 and K 320 to 511 are padding: code 0, scale 0x7F), no relayout.
// FUSED-LABEL: func.func @gemm_padded
//   FUSED-NOT:   gpu.launch_func {{.*}}memref<100x320xbf16>{{.*}}relayout
//       FUSED:   gpu.launch_func @gemm_padded_quantize0

// RUN: mx-run %s --backend=gfx950-emu --entry=gemm_split_k --seed=6 --arg=random:int,lo=-50,hi=50 --arg=random:codes --arg=random:scales,lo=124,hi=130 --arg=random:int,lo=-8,hi=8 --compare=reference | FileCheck %s --check-prefix=PADDED
// RUN: mx-run %s --backend=gfx950-emu --entry=dynamic_m_5 --seed=7 --arg=random:int,lo=-50,hi=50 --arg=random:codes --arg=random:scales,lo=124,hi=130 --arg=random:int,lo=-8,hi=8 --compare=reference | FileCheck %s --check-prefix=PADDED
// RUN: mx-run %s --backend=gfx950-emu --entry=dynamic_m_70 --seed=8 --arg=random:int,lo=-50,hi=50 --arg=random:codes --arg=random:scales,lo=124,hi=130 --arg=random:int,lo=-8,hi=8 --compare=reference | FileCheck %s --check-prefix=PADDED

// The split-K GEMM's A is quantized into the split layout (2 K splits of 2
// tiles), which the GEMM reads as it is: no relayout dispatch in between.
// FUSED-LABEL: func.func @gemm_split_k
//       FUSED:   gpu.launch_func @gemm_split_k_quantize0::@gemm_split_k_quantize0 {{.*}}args(%arg0 : memref<16x2048xbf16>, %[[SPLITA:[^ ]+]] : memref<2x1x2x4x4x16x16xi8>
//   FUSED-NOT:   gpu.launch_func {{.*}}relayout{{.*}}%[[SPLITA]]
//       FUSED:   gpu.launch_func @gemm_split_k_mma0::@gemm_split_k_mma0 {{.*}}args(%{{[^ ]+}} : memref<2x16x64xf32>, %[[SPLITA]] : memref<2x1x2x4x4x16x16xi8>

// EXPERTS-COUNT-4: : bit-exact
// EXPERTS-NOT: FAIL
// EXPERTS: PASS

// M and K not multiples of the tile (100 x 320 with 128 x 256 tiles):
// the fused quantize writes the padding of A's tiled layout.
func.func @gemm_padded(%a: tensor<100x320xbf16>, %b: tensor<48x320xf8E4M3FN>,
                       %sb: tensor<48x10xf8E8M0FNU>, %c: tensor<100x48xf32>)
    -> (tensor<100x48xf32>, tensor<100x320xf4E2M1FN>, tensor<100x10xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %a axis(1) scale(rceil) rounding(nearest_even)
      : tensor<100x320xbf16> -> tensor<100x320xf4E2M1FN>, tensor<100x10xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<100x320xf4E2M1FN>, tensor<48x320xf8E4M3FN>,
                             tensor<100x10xf8E8M0FNU>, tensor<48x10xf8E8M0FNU>)
      outs(%c : tensor<100x48xf32>) -> tensor<100x48xf32>
  return %r, %qa, %sa : tensor<100x48xf32>, tensor<100x320xf4E2M1FN>, tensor<100x10xf8E8M0FNU>
}

// MoE expert weights [E, N, K] quantized along K (MXFP8, torchao's RCEIL)
// and [E, K, N] along K (MXFP4, FLOOR).
func.func @experts(%x: tensor<4x64x96xf16>)
    -> (tensor<4x64x96xf8E4M3FN>, tensor<4x64x3xf8E8M0FNU>,
        tensor<4x64x96xf4E2M1FN>, tensor<4x2x96xf8E8M0FNU>) {
  %e0, %s0 = mx.quantize %x axis(2) scale(rceil) rounding(nearest_even)
      : tensor<4x64x96xf16> -> tensor<4x64x96xf8E4M3FN>, tensor<4x64x3xf8E8M0FNU>
  %e1, %s1 = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x64x96xf16> -> tensor<4x64x96xf4E2M1FN>, tensor<4x2x96xf8E8M0FNU>
  return %e0, %s0, %e1, %s1
      : tensor<4x64x96xf8E4M3FN>, tensor<4x64x3xf8E8M0FNU>,
        tensor<4x64x96xf4E2M1FN>, tensor<4x2x96xf8E8M0FNU>
}

// A decode-sized GEMM from bf16 activations: the resolver splits K (one
// output tile for 256 CUs), and the quantize writes A straight into the
// split layout ([split, M tiles, K tiles per split, ...]), so no relayout
// dispatch reads or writes the quantized A.
func.func @gemm_split_k(%a: tensor<16x2048xbf16>, %b: tensor<64x2048xf4E2M1FN>,
                        %sb: tensor<64x64xf8E8M0FNU>, %c: tensor<16x64xf32>)
    -> (tensor<16x64xf32>, tensor<16x2048xf4E2M1FN>, tensor<16x64xf8E8M0FNU>) {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<16x2048xbf16> -> tensor<16x2048xf4E2M1FN>, tensor<16x64xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<16x2048xf4E2M1FN>, tensor<64x2048xf4E2M1FN>,
                             tensor<16x64xf8E8M0FNU>, tensor<64x64xf8E8M0FNU>)
      outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r, %qa, %sa : tensor<16x64xf32>, tensor<16x2048xf4E2M1FN>, tensor<16x64xf8E8M0FNU>
}

// Dynamic M (M = 5, run-time buckets of the GEMM): the quantize kernel
// takes its thread count from the run-time size, writing the plain layout
// that the bucket's relayout then reads.
func.func @dynamic_m_5(%a0: tensor<5x512xbf16>, %b: tensor<64x512xf4E2M1FN>,
                      %sb: tensor<64x16xf8E8M0FNU>, %c0: tensor<5x64xf32>)
    -> (tensor<?x64xf32>, tensor<?x512xf4E2M1FN>, tensor<?x16xf8E8M0FNU>) {
  %a = tensor.cast %a0 : tensor<5x512xbf16> to tensor<?x512xbf16>
  %c = tensor.cast %c0 : tensor<5x64xf32> to tensor<?x64xf32>
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<?x512xbf16> -> tensor<?x512xf4E2M1FN>, tensor<?x16xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<?x512xf4E2M1FN>, tensor<64x512xf4E2M1FN>,
                             tensor<?x16xf8E8M0FNU>, tensor<64x16xf8E8M0FNU>)
      outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r, %qa, %sa : tensor<?x64xf32>, tensor<?x512xf4E2M1FN>, tensor<?x16xf8E8M0FNU>
}

// Dynamic M (M = 70, run-time buckets of the GEMM): the quantize kernel
// takes its thread count from the run-time size, writing the plain layout
// that the bucket's relayout then reads.
func.func @dynamic_m_70(%a0: tensor<70x512xbf16>, %b: tensor<64x512xf4E2M1FN>,
                      %sb: tensor<64x16xf8E8M0FNU>, %c0: tensor<70x64xf32>)
    -> (tensor<?x64xf32>, tensor<?x512xf4E2M1FN>, tensor<?x16xf8E8M0FNU>) {
  %a = tensor.cast %a0 : tensor<70x512xbf16> to tensor<?x512xbf16>
  %c = tensor.cast %c0 : tensor<70x64xf32> to tensor<?x64xf32>
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<?x512xbf16> -> tensor<?x512xf4E2M1FN>, tensor<?x16xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%qa, %b, %sa, %sb : tensor<?x512xf4E2M1FN>, tensor<64x512xf4E2M1FN>,
                             tensor<?x16xf8E8M0FNU>, tensor<64x16xf8E8M0FNU>)
      outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r, %qa, %sa : tensor<?x64xf32>, tensor<?x512xf4E2M1FN>, tensor<?x16xf8E8M0FNU>
}

// FUSED-LABEL: func.func @swiglu_quantize
//       FUSED:   gpu.launch_func @swiglu_quantize_quantize0
//   FUSED-NOT:   gpu.launch_func
//       FUSED:   return
#id = affine_map<(m, n) -> (m, n)>
func.func @swiglu_quantize(%gu: tensor<33x512xf32>)
    -> (tensor<33x256xf4E2M1FN>, tensor<33x8xf8E8M0FNU>) {
  %gate = tensor.extract_slice %gu[0, 0] [33, 256] [1, 1] : tensor<33x512xf32> to tensor<33x256xf32>
  %up = tensor.extract_slice %gu[0, 256] [33, 256] [1, 1] : tensor<33x512xf32> to tensor<33x256xf32>
  %e = tensor.empty() : tensor<33x256xbf16>
  %act = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<33x256xf32>, tensor<33x256xf32>) outs(%e : tensor<33x256xbf16>) {
  ^bb0(%g: f32, %u: f32, %o: bf16):
    %one = arith.constant 1.0 : f32
    %ng = arith.negf %g : f32
    %ex = math.exp %ng : f32
    %den = arith.addf %ex, %one : f32
    %silu = arith.divf %g, %den : f32
    %p = arith.mulf %silu, %u : f32
    %b = arith.truncf %p : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<33x256xbf16>
  %q, %s = mx.quantize %act axis(1) scale(even) rounding(nearest_even)
      : tensor<33x256xbf16> -> tensor<33x256xf4E2M1FN>, tensor<33x8xf8E8M0FNU>
  return %q, %s : tensor<33x256xf4E2M1FN>, tensor<33x8xf8E8M0FNU>
}

// FUSED-LABEL: func.func @ramp_quantize
//       FUSED:   gpu.launch_func @ramp_quantize_quantize0
//   FUSED-NOT:   gpu.launch_func
//       FUSED:   return
func.func @ramp_quantize(%row: tensor<40xf32>, %col: tensor<64xf32>)
    -> (tensor<40x64xf8E4M3FN>, tensor<40x2xf8E8M0FNU>) {
  %e = tensor.empty() : tensor<40x64xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%row, %col : tensor<40xf32>, tensor<64xf32>) outs(%e : tensor<40x64xf32>) {
  ^bb0(%r: f32, %c: f32, %o: f32):
    %v = arith.mulf %r, %c : f32
    linalg.yield %v : f32
  } -> tensor<40x64xf32>
  %q, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<40x64xf32> -> tensor<40x64xf8E4M3FN>, tensor<40x2xf8E8M0FNU>
  return %q, %s : tensor<40x64xf8E4M3FN>, tensor<40x2xf8E8M0FNU>
}
