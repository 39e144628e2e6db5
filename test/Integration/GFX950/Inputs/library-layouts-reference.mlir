// The peers' layout definitions, spelled as the peers write them (view and
// permute), on the CPU path: what the reference evaluator's result of each
// mx.quantize_into function of ../emulator-quantize-library-layouts.mlir
// must equal (that the maps spell the peers' layouts).

func.func @torchao_reference(%x: tensor<256x512xbf16>)
    -> (tensor<256x512xf8E4M3FN>, tensor<2x4x32x4x4xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(rceil) rounding(nearest_even)
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>
  // view(M/128, 128, K/128, 4).permute(0, 2, 1, 3)
  %v = tensor.expand_shape %s [[0, 1], [2, 3]] output_shape [2, 128, 4, 4]
      : tensor<256x16xf8E8M0FNU> into tensor<2x128x4x4xf8E8M0FNU>
  %i0 = tensor.empty() : tensor<2x4x128x4xf8E8M0FNU>
  %p = linalg.transpose ins(%v : tensor<2x128x4x4xf8E8M0FNU>)
      outs(%i0 : tensor<2x4x128x4xf8E8M0FNU>) permutation = [0, 2, 1, 3]
  // each 128 x 4 block: view(4, 32, 4).transpose(0, 1)
  %b = tensor.expand_shape %p [[0], [1], [2, 3], [4]] output_shape [2, 4, 4, 32, 4]
      : tensor<2x4x128x4xf8E8M0FNU> into tensor<2x4x4x32x4xf8E8M0FNU>
  %i1 = tensor.empty() : tensor<2x4x32x4x4xf8E8M0FNU>
  %t = linalg.transpose ins(%b : tensor<2x4x4x32x4xf8E8M0FNU>)
      outs(%i1 : tensor<2x4x32x4x4xf8E8M0FNU>) permutation = [0, 1, 3, 2, 4]
  return %e, %t : tensor<256x512xf8E4M3FN>, tensor<2x4x32x4x4xf8E8M0FNU>
}

func.func @aiter_reference(%w: tensor<64x512xbf16>)
    -> (tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>) {
  %e, %s = mx.quantize %w axis(1) scale(even) rounding(ties_away)
      : tensor<64x512xbf16> -> tensor<64x512xf4E2M1FN>, tensor<64x16xf8E8M0FNU>
  // shuffle_weight on the bytes: view(N/16, 16, Kbytes/32, 2, 16)
  // .permute(0, 2, 3, 1, 4); 16 bytes are 32 fp4 values.
  %v = tensor.expand_shape %e [[0, 1], [2, 3, 4]] output_shape [4, 16, 8, 2, 32]
      : tensor<64x512xf4E2M1FN> into tensor<4x16x8x2x32xf4E2M1FN>
  %i0 = tensor.empty() : tensor<4x8x2x16x32xf4E2M1FN>
  %w2 = linalg.transpose ins(%v : tensor<4x16x8x2x32xf4E2M1FN>)
      outs(%i0 : tensor<4x8x2x16x32xf4E2M1FN>) permutation = [0, 2, 3, 1, 4]
  // e8m0_shuffle: view(M/32, 2, 16, K/256, 2, 4).permute(0, 3, 5, 2, 4, 1)
  %u = tensor.expand_shape %s [[0, 1, 2], [3, 4, 5]] output_shape [2, 2, 16, 2, 2, 4]
      : tensor<64x16xf8E8M0FNU> into tensor<2x2x16x2x2x4xf8E8M0FNU>
  %i1 = tensor.empty() : tensor<2x2x4x16x2x2xf8E8M0FNU>
  %s2 = linalg.transpose ins(%u : tensor<2x2x16x2x2x4xf8E8M0FNU>)
      outs(%i1 : tensor<2x2x4x16x2x2xf8E8M0FNU>) permutation = [0, 3, 5, 2, 4, 1]
  return %w2, %s2 : tensor<4x8x2x16x32xf4E2M1FN>, tensor<2x2x4x16x2x2xf8E8M0FNU>
}
