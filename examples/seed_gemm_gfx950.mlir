// The seed MXFP4 GEMM for gfx950 (mx-gfx950-pipeline), on already quantized
// operands: A (M x K) and the weights B (N x K) as fp4 E2M1 with one E8M0
// scale per 32 elements along K, accumulated in f32 ("NT" layout).

// The seed issue's shape, 10000 x 16384 x 16384.
func.func @seed_gemm(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf4E2M1FN>,
                     %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
                     %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}

// The same computation at the size of the seed000 known-answer vectors
// (test/data/mxfp4-seed000/m128n96k512), small enough for the wave emulator.
func.func @seed000_gemm(%a: tensor<128x512xf4E2M1FN>, %b: tensor<96x512xf4E2M1FN>,
                        %sa: tensor<128x16xf8E8M0FNU>, %sb: tensor<96x16xf8E8M0FNU>,
                        %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                            tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}
