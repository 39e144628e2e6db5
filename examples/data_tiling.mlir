// A small MXFP4 GEMM (NT) for the data-tiling walkthrough in the README:
//   mx-opt examples/data_tiling.mlir --mx-set-encodings
//   mx-opt examples/data_tiling.mlir --mx-set-encodings \
//     --mx-materialize-encodings="target=#mx_gfx950.target<intrinsics_m=1,intrinsics_n=1,intrinsics_k=1,subgroups_m=1,subgroups_n=1>"
func.func @gemm(%a: tensor<64x256xf4E2M1FN>, %b: tensor<32x256xf4E2M1FN>,
                %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<32x8xf8E8M0FNU>,
                %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<32x256xf4E2M1FN>,
                            tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>)
      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
