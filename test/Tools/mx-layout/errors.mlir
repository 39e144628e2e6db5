// Bad input gives a diagnostic and exit code 2, never a crash.

// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = bogus>' 2>&1 | FileCheck %s --check-prefix=ATTR
// ATTR: error: unknown intrinsic 'bogus'
// RUN: not mx-layout --layout='i32' 2>&1 | FileCheck %s --check-prefix=NOT-LAYOUT
// NOT-LAYOUT: error: --layout must be a #mx.data_tiled_layout, got i32
// RUN: not mx-layout --layout='#mx.data_tiled_layout<' 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error:
// RUN: not mx-layout --lhs-type=i32 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: --lhs-type must be an MX element type
// RUN: not mx-layout --target='#mx_gfx950.target<subgroups_m = 99>' 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: subgroups_m = 99 exceeds 16
// RUN: not mx-layout --target='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' 2>&1 | FileCheck %s --check-prefix=NOT-TARGET
// NOT-TARGET: error: --target must be a #mx_gfx950.target
// RUN: not mx-layout --intrinsic=8x8x8 2>&1 | FileCheck %s --check-prefix=INTRINSIC
// INTRINSIC: error: --intrinsic must be 16x16x128 or 32x32x64, got '8x8x8'

// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --operand=lhs,foo 2>&1 | FileCheck %s --check-prefix=OPERAND
// OPERAND: error: unknown operand 'foo'
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --cells=byte 2>&1 | FileCheck %s --check-prefix=CELLS
// CELLS: error: --cells must be element, register or lane, got 'byte'
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --format=png 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: --format must be text or svg, got 'png'
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --rows=5:2 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: error: --rows must be BEGIN:END with 0 <= BEGIN < END, got '5:2'

// Queries out of range.
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --where=16,0 --m=16 2>&1 | FileCheck %s --check-prefix=WHERE-RANGE
// WHERE-RANGE: error: --where: m = 16 is out of range [0, 16)
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --where=-1,0 2>&1 | FileCheck %s --check-prefix=WHERE-NEG
// WHERE-NEG: error: --where: m = -1 is out of range
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --where=1,2,3 2>&1 | FileCheck %s --check-prefix=WHERE-SYNTAX
// WHERE-SYNTAX: error: --where must be ROW,COL (two integers), got '1,2,3'
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --where=1,2 --operand=lhs,rhs 2>&1 | FileCheck %s --check-prefix=WHERE-TWO
// WHERE-TWO: error: a query takes one --operand
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --lane=64 2>&1 | FileCheck %s --check-prefix=LANE
// LANE: error: --lane = 64 is out of range [0, 64)
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --lane=0 --wave=1 2>&1 | FileCheck %s --check-prefix=WAVE
// WAVE: error: --wave = 1 is out of range [0, 1)
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --lane=0 --register=4 2>&1 | FileCheck %s --check-prefix=REGISTER
// REGISTER: error: --register = 4 is out of range [0, 4): a lane holds 16 bytes of lhs
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>' --wave=1 2>&1 | FileCheck %s --check-prefix=WAVE-ALONE
// WAVE-ALONE: error: --wave and --register go with --lane
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 0>' 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: error: intrinsics_m must be at least 1, got 0
// A tile too large to tabulate is refused, not a crash.
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, intrinsics_m = 32, intrinsics_n = 16, intrinsics_k = 16, subgroups_m = 4, subgroups_n = 4>' --operand=result 2>&1 | FileCheck %s --check-prefix=LARGE
// LARGE: error: the result tile has 8388608 elements, more than the 4194304 this tool tabulates
// RUN: not mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, intrinsics_m = 32, intrinsics_n = 16, subgroups_m = 2, subgroups_n = 2>' --operand=result --format=svg 2>&1 | FileCheck %s --check-prefix=LARGE-SVG
// LARGE-SVG: error: the picture would have 2097152 positions (at most 1048576)
