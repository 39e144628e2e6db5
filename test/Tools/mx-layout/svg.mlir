// The SVG output is a well-formed SVG document (parsed with
// xml.etree): one rectangle per cell, labels of lanes and registers.

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 2, subgroups_m = 2, subgroups_n = 2, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --format=svg --cells=lane -o %t.svg
// RUN: python3 %S/Inputs/check_svg.py %t.svg | FileCheck %s
// Tiles: A 64 x 256 fp8 (a lane holds two 16-value runs per intrinsic, 16
// runs a row), B 64 x 256 fp4 (8 runs of 32 a row), scales 64 x 8 (one byte
// a cell), accumulator 64 x 64 (a lane holds 4 consecutive columns of a
// row per intrinsic: 16 runs a row).
// Each panel has a colour key of its waves (distinct colours).
// CHECK: svg ok: 5 panels
// CHECK-NEXT: cells: 1024 512 512 512 1024
// CHECK-NEXT: key: wave 0, wave 1, wave 2, wave 3
// CHECK-NEXT: label: L0 v0-3
// CHECK-NEXT: label: L0 v4-7
// CHECK-NOT: label:

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' \
// RUN:   --format=svg --operand=lhs_scales --cells=element -o %t.scales.svg
// RUN: python3 %S/Inputs/check_svg.py %t.scales.svg | FileCheck %s --check-prefix=SCALES
// SCALES: svg ok: 1 panels
// SCALES-NEXT: cells: 64
// SCALES-NEXT: key: wave 0
// SCALES-NEXT: label: L0 b0
