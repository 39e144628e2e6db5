// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline=output=isa -verify-diagnostics -o /dev/null

// Programs the gfx950 pipeline rejects, with a diagnostic at the contraction.

// The fp4 weight given as K x N: its relayout would move K (the packed
// innermost dimension of the source) away from innermost, which cannot be
// done in whole bytes. mx-pack-to-bytes says so and suggests N x K.
func.func @fp4_weight_k_by_n(%a: tensor<256x1024xf4E2M1FN>, %b: tensor<1024x256xf4E2M1FN>,
                             %sa: tensor<256x32xf8E8M0FNU>, %sb: tensor<32x256xf8E8M0FNU>,
                             %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error-re @below {{'linalg.transpose' op moves the innermost dimension of a packed 'f4E2M1FN' tensor (permutation [{{[0-9, ]+}}]): packed sub-byte data can only be relaid out in whole bytes; keep the reduction dimension K innermost in the source (e.g. the weight as N x K)}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x1024xf4E2M1FN>, tensor<1024x256xf4E2M1FN>,
                            tensor<256x32xf8E8M0FNU>, tensor<32x256xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// The function pins one intrinsic per tile, whose scale bytes no ukernel
// reads: materialization (require-ukernel) stops at the first operand it
// lays out, naming the types, the closest layout and each ukernel's reason.
func.func @fp8_e5m2(%a: tensor<256x1024xf8E4M3FN>, %b: tensor<256x1024xf8E5M2>,
                    %sa: tensor<256x32xf8E8M0FNU>, %sb: tensor<256x32xf8E8M0FNU>,
                    %c: tensor<256x256xf32>) -> tensor<256x256xf32>
    attributes {mx.target = #mx_gfx950.target<intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 1, require_ukernel = true>} {
  // expected-error @below {{'mx.set_encoding' op no gfx950 ukernel serves 'f8E4M3FN' x 'f8E5M2' with these options (require-ukernel); the closest layout is #mx.data_tiled_layout<intrinsic = mfma_scale_16x16x128, lhs_type = f8E4M3FN, rhs_type = f8E5M2,}}
  // expected-note-re @below {{ukernels rejected it:{{.*}}mx_uk_scaled_mma: intrinsics_m/n * intrinsics_k must be multiples of 4}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x1024xf8E4M3FN>, tensor<256x1024xf8E5M2>,
                            tensor<256x32xf8E8M0FNU>, tensor<256x32xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
