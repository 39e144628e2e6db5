// Library layouts as output layouts of the quantize kernel: the layout is
// data, an affine map of mx.quantize_into, and the gfx950 quantize kernel
// writes it directly. Its bytes on the emulator are compared bit for bit
// with the reference evaluator on the same function (--compare=reference:
// mx::ref's quantization written through the maps), which shares no code
// with the kernel's QuantizeArith; mutating the EVEN rule in
// lib/Dialect/MX/Transforms/QuantizeArith.cpp (its rounding constant) was
// checked to make this test fail. The maps themselves are checked against
// each peer's own definition (Inputs/library-layouts-reference.mlir: a plain
// quantize, then the peer's view/permute as tensor.expand_shape +
// linalg.transpose, on the CPU path): the reference evaluator's result of
// each quantize_into function must equal it bit for bit.
//
// * torchao `to_blocked` (torchao/prototype/mx_formats/utils.py, cuBLAS's
//   block-scaling layout): scales [M, K/32] padded to [128 a, 4 b] with
//   zeros, `view(M/128, 128, K/128, 4).permute(0, 2, 1, 3)`, each 128 x 4
//   block `view(4, 32, 4).transpose(0, 1)`: index (m, kb) ->
//   (m / 128, kb / 4, m % 32, (m % 128) / 32, kb % 4).
// * AITER `e8m0_shuffle` (aiter/utility/fp4_utils.py): scales
//   `view(M/32, 2, 16, K/256, 2, 4).permute(0, 3, 5, 2, 4, 1)`: (m, kb) ->
//   (m / 32, kb / 8, kb % 4, m % 16, (kb % 8) / 4, (m % 32) / 16).
// * AITER `shuffle_weight(w, layout=(16, 16))` (aiter/ops/shuffle.py) of fp4
//   bytes: `view(N/16, 16, Kbytes/32, 2, 16).permute(0, 2, 3, 1, 4)`, in fp4
//   elements (n, k) -> (n / 16, k / 64, (k % 64) / 32, n % 16, k % 32).

// RUN: mx-run %s --entry=torchao_blocked --backend=gfx950-emu --compare=reference --seed=3 \
// RUN:   --arg=random:normal,std=30,specials=0.02 | FileCheck %s
// RUN: mx-run %s --entry=aiter_shuffled --backend=gfx950-emu --compare=reference --seed=4 \
// RUN:   --arg=random:normal,std=30,specials=0.02 | FileCheck %s
// RUN: mx-run %S/Inputs/library-layouts-reference.mlir --entry=torchao_reference --seed=3 --arg=random:normal,std=30,specials=0.02 --out=%t.torchao.e --out=%t.torchao.s > /dev/null
// RUN: mx-run %s --entry=torchao_blocked --backend=reference --seed=3 --arg=random:normal,std=30,specials=0.02 \
// RUN:   --expect=file:%t.torchao.e --expect=file:%t.torchao.s | FileCheck %s
// RUN: mx-run %S/Inputs/library-layouts-reference.mlir --entry=aiter_reference --seed=4 --arg=random:normal,std=30,specials=0.02 --out=%t.aiter.w --out=%t.aiter.s > /dev/null
// RUN: mx-run %s --entry=aiter_shuffled --backend=reference --seed=4 --arg=random:normal,std=30,specials=0.02 \
// RUN:   --expect=file:%t.aiter.w --expect=file:%t.aiter.s | FileCheck %s

// CHECK-COUNT-2: bit-exact
// CHECK: PASS

#identity = affine_map<(m, k) -> (m, k)>
#torchao_blocked = affine_map<(m, kb) -> (m floordiv 128, kb floordiv 4, m mod 32, (m mod 128) floordiv 32, kb mod 4)>
#aiter_e8m0_shuffle = affine_map<(m, kb) -> (m floordiv 32, kb floordiv 8, kb mod 4, m mod 16, (kb mod 8) floordiv 4, (m mod 32) floordiv 16)>
#aiter_shuffle_weight = affine_map<(n, k) -> (n floordiv 16, k floordiv 64, (k mod 64) floordiv 32, n mod 16, k mod 32)>

// MXFP8 activations (torchao's usual recipe: RCEIL), 256 x 512.
func.func @torchao_blocked(%x: tensor<256x512xbf16>)
    -> (tensor<256x512xf8E4M3FN>, tensor<2x4x32x4x4xf8E8M0FNU>) {
  %e0 = tensor.empty() : tensor<256x512xf8E4M3FN>
  %s0 = tensor.empty() : tensor<2x4x32x4x4xf8E8M0FNU>
  %e, %s = mx.quantize_into %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<256x512xbf16> -> f8E4M3FN
      elements(%e0 : tensor<256x512xf8E4M3FN>) maps [#identity]
      scales(%s0 : tensor<2x4x32x4x4xf8E8M0FNU>) maps [#torchao_blocked] padding [0]
      -> tensor<256x512xf8E4M3FN>, tensor<2x4x32x4x4xf8E8M0FNU>
  return %e, %s : tensor<256x512xf8E4M3FN>, tensor<2x4x32x4x4xf8E8M0FNU>
}

// MXFP4 weights N x K = 64 x 512 for AITER's gemm_a4w4 (EVEN scales with
// ties-away elements, seed 000's recipe; AITER's own per_1x32_f4_quant
// rounds fp4 ties to even; the layouts do not depend on the rounding).
func.func @aiter_shuffled(%w: tensor<64x512xbf16>)
    -> (tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>) {
  %e0 = tensor.empty() : tensor<4x8x2x16x32xf4E2M1FN>
  %s0 = tensor.empty() : tensor<2x2x4x16x2x2xf8E8M0FNU>
  %e, %s = mx.quantize_into %w axis(1) scale(even) rounding(ties_away)
      : tensor<64x512xbf16> -> f4E2M1FN
      elements(%e0 : tensor<4x8x2x16x32xf4E2M1FN>) maps [#aiter_shuffle_weight]
      scales(%s0 : tensor<2x2x4x16x2x2xf8E8M0FNU>) maps [#aiter_e8m0_shuffle] padding [127]
      -> tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>
  return %e, %s : tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>
}
