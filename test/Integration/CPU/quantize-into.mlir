// mx.quantize_into on the CPU path (convert-mx-to-linalg: an mx.quantize,
// then a loop nest per destination over its padded domain) compared bit for
// bit with the reference evaluator on the same function and inputs
// (--compare=reference). The reference quantizes with mx::ref and writes
// through the maps with code of its own, sharing nothing with the CPU
// lowering (QuantizeArith, the loop nests); its own writes are checked
// against hand-derived answers in test/Tools/mx-run/reference-quantize-into.mlir.
// Maps: plain, a data-tiled layout with padding (40 x 96 into 16 x 64 element
// tiles and 16 x 2 scale tiles, padding byte 127), torchao `to_blocked` and
// AITER `e8m0_shuffle` / `shuffle_weight` (see
// test/Integration/GFX950/emulator-quantize-library-layouts.mlir).

// RUN: mx-run %s --entry=tiled --compare=reference --seed=1 --arg=random:normal,std=30,specials=0.02 | FileCheck %s --check-prefix=TILED
// TILED-COUNT-4: bit-exact
// TILED: PASS
// RUN: mx-run %s --entry=torchao_blocked --compare=reference --seed=3 --arg=random:normal,std=30,specials=0.02 | FileCheck %s
// RUN: mx-run %s --entry=aiter_shuffled --compare=reference --seed=4 --arg=random:normal,std=30,specials=0.02 | FileCheck %s
// CHECK: comparing @{{.*}} on cpu with the reference evaluator
// CHECK-COUNT-2: bit-exact
// CHECK: PASS

// i8 destinations (fp6 packed four codes to three bytes, scale bytes), and the
// same fp4 quantize on tensors, with dynamic sizes, and on memrefs. The
// reference evaluator takes tensors only: the memref form is compared bit for
// bit with the tensor form's results, which the reference checks.
// RUN: mx-run %s --entry=bytes_fp6 --compare=reference --seed=5 --arg=random:normal,std=30,specials=0.02 | FileCheck %s --check-prefix=BYTES
// BYTES-COUNT-4: bit-exact
// BYTES: PASS
// RUN: mx-run %s --entry=fp4_tensors --compare=reference --seed=6 --arg=random:normal,std=30,specials=0.02 --out=%t.e.npy --out=%t.s.npy | FileCheck %s
// RUN: mx-run %s --entry=fp4_dynamic --compare=reference --seed=6 --arg=random:normal,std=30,specials=0.02 | FileCheck %s
// RUN: mx-run %s --entry=fp4_memrefs --seed=6 --arg=random:normal,std=30,specials=0.02 --expect=npy:%t.e.npy --expect=npy:%t.s.npy | FileCheck %s --check-prefix=MEMREFS
// MEMREFS-COUNT-2: bit-exact
// MEMREFS-NOT: FAIL

#identity = affine_map<(m, k) -> (m, k)>
#tiled = affine_map<(m, k) -> (m floordiv 16, k floordiv 64, m mod 16, k mod 64)>
#tiled_scales = affine_map<(m, kb) -> (m floordiv 16, kb floordiv 2, m mod 16, kb mod 2)>
#torchao_blocked = affine_map<(m, kb) -> (m floordiv 128, kb floordiv 4, m mod 32, (m mod 128) floordiv 32, kb mod 4)>
#aiter_e8m0_shuffle = affine_map<(m, kb) -> (m floordiv 32, kb floordiv 8, kb mod 4, m mod 16, (kb mod 8) floordiv 4, (m mod 32) floordiv 16)>
#aiter_shuffle_weight = affine_map<(n, k) -> (n floordiv 16, k floordiv 64, (k mod 64) floordiv 32, n mod 16, k mod 32)>

func.func @tiled(%x: tensor<40x96xf32>)
    -> (tensor<40x96xf6E3M2FN>, tensor<3x2x16x64xf6E3M2FN>,
        tensor<40x3xf8E8M0FNU>, tensor<3x2x16x2xf8E8M0FNU>) {
  %e0 = tensor.empty() : tensor<40x96xf6E3M2FN>
  %e1 = tensor.empty() : tensor<3x2x16x64xf6E3M2FN>
  %s0 = tensor.empty() : tensor<40x3xf8E8M0FNU>
  %s1 = tensor.empty() : tensor<3x2x16x2xf8E8M0FNU>
  %a, %b, %c, %d = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<40x96xf32> -> f6E3M2FN
      elements(%e0, %e1 : tensor<40x96xf6E3M2FN>, tensor<3x2x16x64xf6E3M2FN>)
        maps [#identity, #tiled]
      scales(%s0, %s1 : tensor<40x3xf8E8M0FNU>, tensor<3x2x16x2xf8E8M0FNU>)
        maps [#identity, #tiled_scales] padding [0, 127]
      -> tensor<40x96xf6E3M2FN>, tensor<3x2x16x64xf6E3M2FN>,
         tensor<40x3xf8E8M0FNU>, tensor<3x2x16x2xf8E8M0FNU>
  return %a, %b, %c, %d : tensor<40x96xf6E3M2FN>, tensor<3x2x16x64xf6E3M2FN>,
      tensor<40x3xf8E8M0FNU>, tensor<3x2x16x2xf8E8M0FNU>
}

// MXFP8 activations (RCEIL), 256 x 512.
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

// MXFP4 weights N x K = 64 x 512 (EVEN scales, ties-away elements).
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

#transposed = affine_map<(m, kb) -> (kb, m)>

func.func @bytes_fp6(%x: tensor<40x96xf32>)
    -> (tensor<40x72xi8>, tensor<3x2x16x48xi8>, tensor<3x40xi8>,
        tensor<3x2x16x2xi8>) {
  %e0 = tensor.empty() : tensor<40x72xi8>
  %e1 = tensor.empty() : tensor<3x2x16x48xi8>
  %s0 = tensor.empty() : tensor<3x40xi8>
  %s1 = tensor.empty() : tensor<3x2x16x2xi8>
  %a, %b, %c, %d = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<40x96xf32> -> f6E2M3FN
      elements(%e0, %e1 : tensor<40x72xi8>, tensor<3x2x16x48xi8>)
        maps [#identity, #tiled]
      scales(%s0, %s1 : tensor<3x40xi8>, tensor<3x2x16x2xi8>)
        maps [#transposed, #tiled_scales] padding [0, 127]
      -> tensor<40x72xi8>, tensor<3x2x16x48xi8>, tensor<3x40xi8>,
         tensor<3x2x16x2xi8>
  return %a, %b, %c, %d : tensor<40x72xi8>, tensor<3x2x16x48xi8>,
      tensor<3x40xi8>, tensor<3x2x16x2xi8>
}

func.func @fp4_tensors(%x: tensor<40x96xbf16>)
    -> (tensor<3x2x16x32xi8>, tensor<3x40xf8E8M0FNU>) {
  %e0 = tensor.empty() : tensor<3x2x16x32xi8>
  %s0 = tensor.empty() : tensor<3x40xf8E8M0FNU>
  %a, %b = mx.quantize_into %x axis(1) scale(even) rounding(ties_away)
      : tensor<40x96xbf16> -> f4E2M1FN
      elements(%e0 : tensor<3x2x16x32xi8>) maps [#tiled]
      scales(%s0 : tensor<3x40xf8E8M0FNU>) maps [#transposed] padding [0]
      -> tensor<3x2x16x32xi8>, tensor<3x40xf8E8M0FNU>
  return %a, %b : tensor<3x2x16x32xi8>, tensor<3x40xf8E8M0FNU>
}

func.func @fp4_dynamic(%x: tensor<40x96xbf16>)
    -> (tensor<3x2x16x32xi8>, tensor<3x40xf8E8M0FNU>) {
  %c40 = arith.constant 40 : index
  %xd = tensor.cast %x : tensor<40x96xbf16> to tensor<?x96xbf16>
  %e0 = tensor.empty() : tensor<3x2x16x32xi8>
  %s0 = tensor.empty(%c40) : tensor<3x?xf8E8M0FNU>
  %a, %b = mx.quantize_into %xd axis(1) scale(even) rounding(ties_away)
      : tensor<?x96xbf16> -> f4E2M1FN
      elements(%e0 : tensor<3x2x16x32xi8>) maps [#tiled]
      scales(%s0 : tensor<3x?xf8E8M0FNU>) maps [#transposed] padding [0]
      -> tensor<3x2x16x32xi8>, tensor<3x?xf8E8M0FNU>
  %bs = tensor.cast %b : tensor<3x?xf8E8M0FNU> to tensor<3x40xf8E8M0FNU>
  return %a, %bs : tensor<3x2x16x32xi8>, tensor<3x40xf8E8M0FNU>
}

func.func @fp4_memrefs(%x: tensor<40x96xbf16>)
    -> (tensor<3x2x16x32xi8>, tensor<3x40xf8E8M0FNU>) {
  %xm = bufferization.to_buffer %x read_only
      : tensor<40x96xbf16> to memref<40x96xbf16>
  %e0 = memref.alloc() : memref<3x2x16x32xi8>
  %s0 = memref.alloc() : memref<3x40xf8E8M0FNU>
  mx.quantize_into %xm axis(1) scale(even) rounding(ties_away)
      : memref<40x96xbf16> -> f4E2M1FN
      elements(%e0 : memref<3x2x16x32xi8>) maps [#tiled]
      scales(%s0 : memref<3x40xf8E8M0FNU>) maps [#transposed] padding [0]
  %a = bufferization.to_tensor %e0 restrict
      : memref<3x2x16x32xi8> to tensor<3x2x16x32xi8>
  %b = bufferization.to_tensor %s0 restrict
      : memref<3x40xf8E8M0FNU> to tensor<3x40xf8E8M0FNU>
  return %a, %b : tensor<3x2x16x32xi8>, tensor<3x40xf8E8M0FNU>
}
