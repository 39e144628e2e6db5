// The picture committed under docs/ is what the command documented in
// docs/guides/layout-pictures.md makes today (a staleness check, not a correctness
// test: regenerate it with that command after changing the drawing).
// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --operand=lhs --cells=lane --rows=0:32 --format=svg -o %t.svg
// RUN: diff %t.svg %mx_src_root/docs/images/seed-lhs-tile.svg
