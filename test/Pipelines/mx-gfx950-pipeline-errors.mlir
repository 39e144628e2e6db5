// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline=output=isa -verify-diagnostics -o /dev/null

// Programs the gfx950 pipeline rejects, with a diagnostic at the contraction.

// An fp4 weight given as K x N with an odd N: it is relaid out value by
// value, but its rows of 255 values are not whole bytes of packed storage.
// expected-error @below {{'func.func' op cannot store 'tensor<1024x255xf4E2M1FN>' packed: its innermost dimension (255 x 4 bits) is not whole bytes}}
func.func @fp4_weight_k_by_odd_n(%a: tensor<256x1024xf4E2M1FN>, %b: tensor<1024x255xf4E2M1FN>,
                                 %sa: tensor<256x32xf8E8M0FNU>, %sb: tensor<32x255xf8E8M0FNU>,
                                 %c: tensor<256x255xf32>) -> tensor<256x255xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x1024xf4E2M1FN>, tensor<1024x255xf4E2M1FN>,
                            tensor<256x32xf8E8M0FNU>, tensor<32x255xf8E8M0FNU>)
      outs(%c : tensor<256x255xf32>) -> tensor<256x255xf32>
  return %r : tensor<256x255xf32>
}

// -----

// The function pins one intrinsic per tile, whose scale bytes no ukernel
// reads: materialization (require-ukernel) stops at the first operand it
// lays out, naming the types, the closest layout and each ukernel's reason.
func.func @fp8_e5m2(%a: tensor<256x1024xf8E4M3FN>, %b: tensor<256x1024xf8E5M2>,
                    %sa: tensor<256x32xf8E8M0FNU>, %sb: tensor<256x32xf8E8M0FNU>,
                    %c: tensor<256x256xf32>) -> tensor<256x256xf32>
    attributes {mx.target = #mx_gfx950.target<intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 1, require_ukernel = true>} {
  // expected-error @below {{'mx.set_encoding' op no gfx950 ukernel serves 'f8E4M3FN' x 'f8E5M2' with these options (require-ukernel); the closest layout is #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f8E5M2,}}
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

// -----

// A zero-sized M (issue 20: the emulator used to report "offset 0 is
// out-of-bounds: 0 >= 0"): refused by the gfx950 layout resolver, which says
// which dimension is empty.
func.func @zero_m(%a: tensor<0x128xf4E2M1FN>, %b: tensor<32x128xf4E2M1FN>,
                  %sa: tensor<0x4xf8E8M0FNU>, %sb: tensor<32x4xf8E8M0FNU>,
                  %c: tensor<0x32xf32>) -> tensor<0x32xf32> {
  // expected-error @below {{'mx.set_encoding' op has a zero-sized M dimension: gfx950 kernels need M, N and K of at least 1}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<0x128xf4E2M1FN>, tensor<32x128xf4E2M1FN>,
                            tensor<0x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>)
      outs(%c : tensor<0x32xf32>) -> tensor<0x32xf32>
  return %r : tensor<0x32xf32>
}

// -----

// A zero-sized K.
func.func @zero_k(%a: tensor<32x0xf8E4M3FN>, %b: tensor<32x0xf8E4M3FN>,
                  %sa: tensor<32x0xf8E8M0FNU>, %sb: tensor<32x0xf8E8M0FNU>,
                  %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // expected-error @below {{'mx.set_encoding' op has a zero-sized K dimension}}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x0xf8E4M3FN>, tensor<32x0xf8E4M3FN>,
                            tensor<32x0xf8E8M0FNU>, tensor<32x0xf8E8M0FNU>)
      outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// A grouped (MoE) contraction with an empty K: no kernel to launch.
func.func @grouped_empty_k(%a: tensor<40x0xf8E4M3FN>, %b: tensor<3x24x0xf4E2M1FN>,
                           %sa: tensor<40x0xf8E8M0FNU>, %sb: tensor<3x24x0xf8E8M0FNU>,
                           %offsets: tensor<4xi32>, %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  // expected-error @below {{'mx.grouped_scaled_contraction' op has a zero-sized K dimension: gfx950 kernels need M, N and K of at least 1}}
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x0xf8E4M3FN>, tensor<3x24x0xf4E2M1FN>,
                            tensor<40x0xf8E8M0FNU>, tensor<3x24x0xf8E8M0FNU>)
      offsets(%offsets : tensor<4xi32>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
