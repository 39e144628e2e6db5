// The arithmetic probes of v_mfma_scale_f32_* (bench/mfma_probes.py): one
// 16x16 output tile of a 16x16x128 E4M3 x E4M3 GEMM ("NT": B is N x K), so
// that with the pins of mfma_probes.py (one MFMA per workgroup) every output
// is one instruction's dot product plus C. Probe p lives in row p of A, row
// p of B, their scales and C[p, p]; it is read at the diagonal.
func.func @probe_e4m3(%a: tensor<16x128xf8E4M3FN>, %b: tensor<16x128xf8E4M3FN>,
                      %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<16x4xf8E8M0FNU>,
                      %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x128xf8E4M3FN>, tensor<16x128xf8E4M3FN>,
                            tensor<16x4xf8E8M0FNU>, tensor<16x4xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
