// A 1024x1024x4096 MXFP4 GEMM (B as N x K) for bench/emulator_throughput.sh:
// compiled by mx-gfx950-pipeline (the seed layout, 256x256x256 tiles: 16
// workgroups of 8,192 MFMAs) and executed on the wave emulator.
func.func @gemm_1024x1024x4096(%a: tensor<1024x4096xf4E2M1FN>, %b: tensor<1024x4096xf4E2M1FN>,
                               %sa: tensor<1024x128xf8E8M0FNU>, %sb: tensor<1024x128xf8E8M0FNU>,
                               %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<1024x4096xf4E2M1FN>, tensor<1024x4096xf4E2M1FN>,
                            tensor<1024x128xf8E8M0FNU>, tensor<1024x128xf8E8M0FNU>)
      outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
