// A 256x256x1024 MXFP4 GEMM (B as N x K) for bench/emulator_throughput.sh:
// compiled by mx-gfx950-pipeline and executed on the wave emulator.
func.func @gemm_256x256x1024(%a: tensor<256x1024xf4E2M1FN>, %b: tensor<256x1024xf4E2M1FN>,
                             %sa: tensor<256x32xf8E8M0FNU>, %sb: tensor<256x32xf8E8M0FNU>,
                             %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x1024xf4E2M1FN>, tensor<256x1024xf4E2M1FN>,
                            tensor<256x32xf8E8M0FNU>, tensor<256x32xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
