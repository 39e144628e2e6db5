// RUN: mx-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mx-gfx950-quantize-in-gemm))' | FileCheck %s --check-prefix=AUTO
// RUN: mx-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mx-gfx950-quantize-in-gemm{mode=always}))' -verify-diagnostics | FileCheck %s --check-prefix=ALWAYS
// RUN: mx-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mx-gfx950-quantize-in-gemm{mode=never}))' | FileCheck %s --check-prefix=NEVER
// RUN: not mx-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mx-gfx950-quantize-in-gemm{mode=sometimes}))' 2>&1 | FileCheck %s --check-prefix=BADMODE
// BADMODE: error: mx-gfx950-quantize-in-gemm: mode must be auto, always or never, got 'sometimes'

// Where a quantized activation's A tiles are quantized: in the GEMM kernel
// (the quantize_into gets `in_consumer`) or by a quantize dispatch. The
// input is what mx-fuse-quantize-relayouts leaves of a quantize feeding a
// data-tiled GEMM (16x16x128, 1 x 4 waves of 1 x 1 x 4 intrinsics: tiles of
// 16 x 64 x 512).

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// 16 rows: the 4 N tiles' workgroups read A's tile unquantized (16 x 2 B
// per K) no more than B's bytes (64 x 0.5 B per K), so auto quantizes in the
// GEMM.
// AUTO-LABEL: func.func @decode
//       AUTO:   %[[Q:.+]]:2 = mx.quantize_into %{{.+}} axis(1) scale(even) rounding(ties_away) {{.*}} padding [127] in_consumer ->
//       AUTO:   mx.tiled_scaled_mma ins(%[[Q]]#0, %{{.+}}, %[[Q]]#1,
// ALWAYS-LABEL: func.func @decode
//       ALWAYS:   mx.quantize_into {{.*}} in_consumer
// NEVER-LABEL: func.func @decode
//   NEVER-NOT:   in_consumer
func.func @decode(%a: tensor<16x512xbf16>, %b: tensor<4x1x4x4x4x16x16xi8>,
                  %sb: tensor<4x1x4x4x16x4xi8>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x512xbf16> -> f4E2M1FN
      elements(%e : tensor<1x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<1x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// 64 rows (4 M tiles): the unquantized reads would be 4x B's bytes, so auto
// leaves A to a quantize dispatch; always still quantizes in the GEMM.
// AUTO-LABEL: func.func @prefill
//   AUTO-NOT:   in_consumer
// ALWAYS-LABEL: func.func @prefill
//       ALWAYS:   mx.quantize_into {{.*}} in_consumer
func.func @prefill(%a: tensor<64x512xbf16>, %b: tensor<4x1x4x4x4x16x16xi8>,
                   %sb: tensor<4x1x4x4x16x4xi8>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<4x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<4x1x4x16x4xi8>
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<64x512xbf16> -> f4E2M1FN
      elements(%e : tensor<4x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<4x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<4x1x4x4x16x16xi8>, tensor<4x1x4x16x4xi8>
  %c = tensor.empty() : tensor<64x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<4x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<4x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<64x256xf32>) layout = #layout zero_acc -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 8, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 1024, (d1 mod 1024) floordiv 128, ((d1 mod 1024) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 32, d1 mod 4, d0 mod 16, (d1 mod 32) floordiv 4)>

// 16 rows, but K tiles of 1024: 8 A fragments per K step over 4 waves, two
// rounds of load and quantize per wave before the step's barrier, which
// auto declines; always quantizes in the GEMM.
// AUTO-LABEL: func.func @two_rounds
//   AUTO-NOT:   in_consumer
// ALWAYS-LABEL: func.func @two_rounds
//       ALWAYS:   mx.quantize_into {{.*}} in_consumer
func.func @two_rounds(%a: tensor<16x1024xbf16>, %b: tensor<4x1x4x8x4x16x16xi8>,
                      %sb: tensor<4x1x4x4x16x8xi8>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<1x1x8x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x8xi8>
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x1024xbf16> -> f4E2M1FN
      elements(%e : tensor<1x1x8x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x8xi8>) maps [#scales]
      padding [127] -> tensor<1x1x8x4x16x16xi8>, tensor<1x1x4x16x8xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<1x1x8x4x16x16xi8>, tensor<4x1x4x8x4x16x16xi8>, tensor<1x1x4x16x8xi8>, tensor<4x1x4x4x16x8xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// An f16 activation: the kernel cannot (always warns why).
// AUTO-LABEL: func.func @f16_source
//   AUTO-NOT:   in_consumer
// ALWAYS-LABEL: func.func @f16_source
//   ALWAYS-NOT:   in_consumer
func.func @f16_source(%a: tensor<16x512xf16>, %b: tensor<4x1x4x4x4x16x16xi8>,
                      %sb: tensor<4x1x4x4x16x4xi8>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  // expected-warning @+1 {{A is quantized by a dispatch, not in the GEMM: the input is not bf16}}
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x512xf16> -> f4E2M1FN
      elements(%e : tensor<1x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<1x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#swapped = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, (d1 mod 16) floordiv 4, d0 mod 16, d1 mod 4)>

// Scales in another layout than the one the GEMM's lanes read (the lane's
// K group and its intrinsic swapped): the maps are checked, not trusted.
// ALWAYS-LABEL: func.func @foreign_scales
//   ALWAYS-NOT:   in_consumer
func.func @foreign_scales(%a: tensor<16x512xbf16>, %b: tensor<4x1x4x4x4x16x16xi8>,
                          %sb: tensor<4x1x4x4x16x4xi8>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  // expected-warning @+1 {{A is quantized by a dispatch, not in the GEMM: the scales map does not put each block's scale where the lane that multiplies the block reads it}}
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x512xbf16> -> f4E2M1FN
      elements(%e : tensor<1x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x4xi8>) maps [#swapped]
      padding [127] -> tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<1x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// A quantized activation that is also returned must reach memory: it stays
// a dispatch, and mode=always says why.
// ALWAYS-LABEL: func.func @also_returned
//   ALWAYS-NOT:   in_consumer
func.func @also_returned(%a: tensor<16x512xbf16>, %b: tensor<4x1x4x4x4x16x16xi8>,
                         %sb: tensor<4x1x4x4x16x4xi8>) -> (tensor<16x256xf32>, tensor<1x1x4x4x16x16xi8>) {
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  // expected-warning @+1 {{A is quantized by a dispatch, not in the GEMM: the quantized A or its scales have uses besides the GEMM's A operands (e.g. they are returned), so they must reach memory}}
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x512xbf16> -> f4E2M1FN
      elements(%e : tensor<1x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<1x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r, %q#0 : tensor<16x256xf32>, tensor<1x1x4x4x16x16xi8>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>
#plain = affine_map<(d0, d1) -> (d0, d1)>

// The quantized A also written in the plain layout (seed000 from bf16,
// which returns it): a second destination must reach memory, and
// mode=always says why.
// ALWAYS-LABEL: func.func @second_destination
//   ALWAYS-NOT:   in_consumer
func.func @second_destination(%a: tensor<16x512xbf16>, %b: tensor<4x1x4x4x4x16x16xi8>,
                              %sb: tensor<4x1x4x4x16x4xi8>) -> (tensor<16x256xf32>, tensor<16x256xi8>, tensor<16x16xi8>) {
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  %pe = tensor.empty() : tensor<16x256xi8>
  %ps = tensor.empty() : tensor<16x16xi8>
  // expected-warning @+1 {{A is quantized by a dispatch, not in the GEMM: it writes 2 element and 2 scale destinations, the GEMM's and others (e.g. a returned quantized A), which must reach memory}}
  %q:4 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x512xbf16> -> f4E2M1FN
      elements(%e, %pe : tensor<1x1x4x4x16x16xi8>, tensor<16x256xi8>) maps [#elements, #plain]
      scales(%s, %ps : tensor<1x1x4x16x4xi8>, tensor<16x16xi8>) maps [#scales, #plain]
      padding [127, 127] -> tensor<1x1x4x4x16x16xi8>, tensor<16x256xi8>, tensor<1x1x4x16x4xi8>, tensor<16x16xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#2, %sb : tensor<1x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r, %q#1, %q#3 : tensor<16x256xf32>, tensor<16x256xi8>, tensor<16x16xi8>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// A quantize that feeds no GEMM's A (here a returned result only) is not
// what the option is about: no warning, nothing changes.
// ALWAYS-LABEL: func.func @feeds_no_gemm
//   ALWAYS-NOT:   in_consumer
func.func @feeds_no_gemm(%a: tensor<16x512xbf16>) -> (tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>) {
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x512xbf16> -> f4E2M1FN
      elements(%e : tensor<1x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
  return %q#0, %q#1 : tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// Rows gathered by id (a GEMM of routed tokens): the kernel reads each
// lane's row through the ids, so auto and always quantize in the GEMM.
// AUTO-LABEL: func.func @gathered_rows
//       AUTO:   %[[Q:.+]]:2 = mx.quantize_into %{{.+}} gather(%{{.+}} : tensor<16xi32> divisor = 2) {{.*}} in_consumer ->
//       AUTO:   mx.tiled_scaled_mma ins(%[[Q]]#0, %{{.+}}, %[[Q]]#1,
// ALWAYS-LABEL: func.func @gathered_rows
//       ALWAYS:   mx.quantize_into {{.*}} in_consumer
func.func @gathered_rows(%a: tensor<8x512xbf16>, %ids: tensor<16xi32>, %b: tensor<4x1x4x4x4x16x16xi8>,
                         %sb: tensor<4x1x4x4x16x4xi8>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  %q:2 = mx.quantize_into %a gather(%ids : tensor<16xi32> divisor = 2) axis(1) scale(even) rounding(ties_away)
      : tensor<8x512xbf16> -> f4E2M1FN
      elements(%e : tensor<1x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<1x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// A routed GEMM (tile_groups, row_ids) of 20 routed rows over 4 experts'
// weights, its tokens quantized and gathered by the sorted ids: each expert
// streams its own B, and 20 rows over 4 experts are one 16-row tile per
// expert, whose unquantized reads (16 x 2 B per K) are at most the N tile's
// B bytes (64 x 0.5 B); but its 16 workgroups with rows (4 experts x 4 N
// tiles) do not fill the 256 CUs twice, so auto leaves A to the quantize
// dispatch (see @routed_many_experts).
// AUTO-LABEL: func.func @routed
//   AUTO-NOT:   in_consumer
// ALWAYS-LABEL: func.func @routed
//       ALWAYS:   mx.quantize_into {{.*}} in_consumer
// NEVER-LABEL: func.func @routed
//   NEVER-NOT:   in_consumer
func.func @routed(%x: tensor<10x512xbf16>, %ids: tensor<64xi32>, %tiles: tensor<4x3xi32>,
                  %b: tensor<4x4x1x4x4x4x16x16xi8>, %sb: tensor<4x4x1x4x4x16x4xi8>) -> tensor<20x256xf32> {
  %e = tensor.empty() : tensor<4x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<4x1x4x16x4xi8>
  %q:2 = mx.quantize_into %x gather(%ids : tensor<64xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even)
      : tensor<10x512xbf16> -> f4E2M1FN
      elements(%e : tensor<4x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<4x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<4x1x4x4x16x16xi8>, tensor<4x1x4x16x4xi8>
  %c = tensor.empty() : tensor<20x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<4x1x4x4x16x16xi8>, tensor<4x4x1x4x4x4x16x16xi8>, tensor<4x1x4x16x4xi8>, tensor<4x4x1x4x4x16x4xi8>)
      tile_groups(%tiles : tensor<4x3xi32>) row_ids(%ids : tensor<64xi32>)
      outs(%c : tensor<20x256xf32>) layout = #layout zero_acc -> tensor<20x256xf32>
  return %r : tensor<20x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// 128 routed rows over 128 experts (blocks of 16 named by their expert):
// one 16-row tile per expert, 128 x 4 N tiles = 512 workgroups with rows,
// twice the CUs, so auto quantizes in the GEMM.
// AUTO-LABEL: func.func @routed_many_experts
//  AUTO-SAME:   %[[X:[^:]+]]: tensor<64x512xbf16>, %[[IDS:[^:]+]]: tensor<2048xi32>
//       AUTO:   %[[Q:.+]]:2 = mx.quantize_into %[[X]] gather(%[[IDS]] : tensor<2048xi32> divisor = 2) {{.*}} in_consumer ->
//       AUTO:   mx.tiled_scaled_mma ins(%[[Q]]#0, %{{.+}}, %[[Q]]#1, %{{.+}} : {{.*}}) tile_groups(%{{.+}} : tensor<128xi32>) row_ids(%[[IDS]] : tensor<2048xi32>)
func.func @routed_many_experts(%x: tensor<64x512xbf16>, %ids: tensor<2048xi32>, %experts: tensor<128xi32>,
                               %b: tensor<128x4x1x4x4x4x16x16xi8>, %sb: tensor<128x4x1x4x4x16x4xi8>) -> tensor<128x256xf32> {
  %e = tensor.empty() : tensor<128x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<128x1x4x16x4xi8>
  %q:2 = mx.quantize_into %x gather(%ids : tensor<2048xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even)
      : tensor<64x512xbf16> -> f4E2M1FN
      elements(%e : tensor<128x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<128x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<128x1x4x4x16x16xi8>, tensor<128x1x4x16x4xi8>
  %c = tensor.empty() : tensor<128x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<128x1x4x4x16x16xi8>, tensor<128x4x1x4x4x4x16x16xi8>, tensor<128x1x4x16x4xi8>, tensor<128x4x1x4x4x16x4xi8>)
      tile_groups(%experts : tensor<128xi32>) row_ids(%ids : tensor<2048xi32>)
      outs(%c : tensor<128x256xf32>) layout = #layout zero_acc -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// 320 routed rows over 4 experts: 80 rows (5 tiles) per expert read 5x the
// bytes of its B tile unquantized, so auto leaves A to the quantize
// dispatch; always still quantizes in the GEMM.
// AUTO-LABEL: func.func @routed_prefill
//   AUTO-NOT:   in_consumer
// ALWAYS-LABEL: func.func @routed_prefill
//       ALWAYS:   mx.quantize_into {{.*}} in_consumer
func.func @routed_prefill(%x: tensor<160x512xbf16>, %ids: tensor<384xi32>, %tiles: tensor<24x3xi32>,
                          %b: tensor<4x4x1x4x4x4x16x16xi8>, %sb: tensor<4x4x1x4x4x16x4xi8>) -> tensor<320x256xf32> {
  %e = tensor.empty() : tensor<24x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<24x1x4x16x4xi8>
  %q:2 = mx.quantize_into %x gather(%ids : tensor<384xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even)
      : tensor<160x512xbf16> -> f4E2M1FN
      elements(%e : tensor<24x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<24x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<24x1x4x4x16x16xi8>, tensor<24x1x4x16x4xi8>
  %c = tensor.empty() : tensor<320x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<24x1x4x4x16x16xi8>, tensor<4x4x1x4x4x4x16x16xi8>, tensor<24x1x4x16x4xi8>, tensor<4x4x1x4x4x16x4xi8>)
      tile_groups(%tiles : tensor<24x3xi32>) row_ids(%ids : tensor<384xi32>)
      outs(%c : tensor<320x256xf32>) layout = #layout zero_acc -> tensor<320x256xf32>
  return %r : tensor<320x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>

// A grouped GEMM whose A rows are not gathered by the quantize (they come
// from the tile table): the kernel cannot, always warns why.
// ALWAYS-LABEL: func.func @grouped_not_gathered
//   ALWAYS-NOT:   in_consumer
func.func @grouped_not_gathered(%x: tensor<64x512xbf16>, %tiles: tensor<4x3xi32>,
                                %b: tensor<4x4x1x4x4x4x16x16xi8>, %sb: tensor<4x4x1x4x4x16x4xi8>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<4x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<4x1x4x16x4xi8>
  // expected-warning @+1 {{A is quantized by a dispatch, not in the GEMM: the grouped GEMM's A rows come from its tile table (only rows that the quantize gathers by id are read through their ids)}}
  %q:2 = mx.quantize_into %x axis(1) scale(even) rounding(nearest_even)
      : tensor<64x512xbf16> -> f4E2M1FN
      elements(%e : tensor<4x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<4x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<4x1x4x4x16x16xi8>, tensor<4x1x4x16x4xi8>
  %c = tensor.empty() : tensor<64x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<4x1x4x4x16x16xi8>, tensor<4x4x1x4x4x4x16x16xi8>, tensor<4x1x4x16x4xi8>, tensor<4x4x1x4x4x16x4xi8>)
      tile_groups(%tiles : tensor<4x3xi32>)
      outs(%c : tensor<64x256xf32>) layout = #layout zero_acc -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 512, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 4, d0 mod 16, (d1 mod 16) floordiv 4)>
#id = affine_map<(m, k) -> (m, k)>

// The input computed by an elementwise producer (a MoE layer's SwiGLU):
// the quantize dispatch computes it in its kernel, in the GEMM it would
// need a dispatch of its own, so auto leaves A to the quantize; always
// quantizes in the GEMM.
// AUTO-LABEL: func.func @producer
//   AUTO-NOT:   in_consumer
// ALWAYS-LABEL: func.func @producer
//       ALWAYS:   mx.quantize_into {{.*}} in_consumer
func.func @producer(%x: tensor<16x512xf32>, %y: tensor<16x512xf32>, %b: tensor<4x1x4x4x4x16x16xi8>,
                    %sb: tensor<4x1x4x4x16x4xi8>) -> tensor<16x256xf32> {
  %p = tensor.empty() : tensor<16x512xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<16x512xf32>, tensor<16x512xf32>) outs(%p : tensor<16x512xbf16>) {
  ^bb0(%u: f32, %v: f32, %o: bf16):
    %m = arith.mulf %u, %v : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x512xbf16>
  %e = tensor.empty() : tensor<1x1x4x4x16x16xi8>
  %s = tensor.empty() : tensor<1x1x4x16x4xi8>
  %q:2 = mx.quantize_into %a axis(1) scale(even) rounding(ties_away) : tensor<16x512xbf16> -> f4E2M1FN
      elements(%e : tensor<1x1x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<1x1x4x16x4xi8>) maps [#scales]
      padding [127] -> tensor<1x1x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>
  %c = tensor.empty() : tensor<16x256xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<1x1x4x4x16x16xi8>, tensor<4x1x4x4x4x16x16xi8>, tensor<1x1x4x16x4xi8>, tensor<4x1x4x4x16x4xi8>)
      outs(%c : tensor<16x256xf32>) layout = #layout zero_acc -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_k = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
#elements = affine_map<(d0, d1) -> (d0 floordiv 32, d1 floordiv 512, (d0 mod 32) floordiv 16, (d1 mod 512) floordiv 128, ((d1 mod 512) floordiv 32) mod 4, d0 mod 16, d1 mod 32)>
#scales = affine_map<(d0, d1) -> (d0 floordiv 32, d1 floordiv 16, d1 mod 4, d0 mod 16, (d0 mod 32) floordiv 16, (d1 mod 16) floordiv 4)>

// Gathered rows in tiles of two intrinsics along M: each lane reads two
// rows through the ids, one per fragment of rows. auto declines (8 A
// fragments per K step for the one wave); always quantizes in the GEMM.
// AUTO-LABEL: func.func @routed_two_row_fragments
//   AUTO-NOT:   in_consumer
// ALWAYS-LABEL: func.func @routed_two_row_fragments
//       ALWAYS:   mx.quantize_into {{.*}} gather({{.*}}) {{.*}} in_consumer
func.func @routed_two_row_fragments(%x: tensor<10x2048xbf16>, %ids: tensor<96xi32>, %tiles: tensor<3x3xi32>,
                                    %b: tensor<4x4x4x4x4x16x16xi8>, %sb: tensor<4x4x4x4x16x4xi8>) -> tensor<20x64xf32> {
  %e = tensor.empty() : tensor<3x4x2x4x4x16x16xi8>
  %s = tensor.empty() : tensor<3x4x4x16x2x4xi8>
  %q:2 = mx.quantize_into %x gather(%ids : tensor<96xi32> divisor = 2) axis(1) scale(even) rounding(nearest_even)
      : tensor<10x2048xbf16> -> f4E2M1FN
      elements(%e : tensor<3x4x2x4x4x16x16xi8>) maps [#elements] scales(%s : tensor<3x4x4x16x2x4xi8>) maps [#scales]
      padding [127] -> tensor<3x4x2x4x4x16x16xi8>, tensor<3x4x4x16x2x4xi8>
  %c = tensor.empty() : tensor<20x64xf32>
  %r = mx.tiled_scaled_mma ins(%q#0, %b, %q#1, %sb : tensor<3x4x2x4x4x16x16xi8>, tensor<4x4x4x4x4x16x16xi8>, tensor<3x4x4x16x2x4xi8>, tensor<4x4x4x4x16x4xi8>)
      tile_groups(%tiles : tensor<3x3xi32>) row_ids(%ids : tensor<96xi32>)
      outs(%c : tensor<20x64xf32>) layout = #layout zero_acc -> tensor<20x64xf32>
  return %r : tensor<20x64xf32>
}
