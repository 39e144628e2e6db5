// The text table of one v_mfma_scale_f32_32x32x64_f8f6f4 (Md = 32, K = 64,
// lane l = r + 32 g), expectations from the CDNA4 ISA lane tables
// (reference/gfx950-and-mx.md §2): fp4 item t of lane l is A[l % 32][32 g +
// t]; fp8 item t = 16 h + u is A[l % 32][32 h + 16 g + u], bytes 0-15 and
// 16-31 of a lane K/2 = 32 apart.

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E5M2, rhs_type = f4E2M1FN>' \
// RUN:   --operand=lhs --cells=lane --rows=16:18 | FileCheck %s --check-prefix=FP8
// FP8: # lhs (A): f8E5M2 (8 bits), tile 32 x 64 (m x k), 1 wave(s), 32 bytes per lane per intrinsic
// FP8-NEXT: m=16 k=0..15 waves=0 mfma=(m0,k0) lane=16 vgpr=0..3 bytes=0..15
// FP8-NEXT: m=16 k=16..31 waves=0 mfma=(m0,k0) lane=48 vgpr=0..3 bytes=0..15
// FP8-NEXT: m=16 k=32..47 waves=0 mfma=(m0,k0) lane=16 vgpr=4..7 bytes=16..31
// FP8-NEXT: m=16 k=48..63 waves=0 mfma=(m0,k0) lane=48 vgpr=4..7 bytes=16..31
// FP8-NEXT: m=17 k=0..15 waves=0 mfma=(m0,k0) lane=17 vgpr=0..3 bytes=0..15

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E5M2, rhs_type = f4E2M1FN>' \
// RUN:   --operand=rhs --cells=lane --rows=5:6 | FileCheck %s --check-prefix=FP4
// FP4: # rhs (B): f4E2M1FN (4 bits), tile 32 x 64 (n x k), 1 wave(s), 16 bytes per lane per intrinsic
// FP4-NEXT: n=5 k=0..31 waves=0 mfma=(n0,k0) lane=5 vgpr=0..3 bytes=0..15
// FP4-NEXT: n=5 k=32..63 waves=0 mfma=(n0,k0) lane=37 vgpr=0..3 bytes=0..15
// FP4-NOT: n=

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E5M2, rhs_type = f4E2M1FN>' \
// RUN:   --operand=rhs --cells=element --rows=31:32 --cols=60:64 | FileCheck %s --check-prefix=FP4-ELEM
// FP4-ELEM:      n=31 k=60 waves=0 mfma=(n0,k0) lane=63 vgpr=3 bits=112..115
// FP4-ELEM-NEXT: n=31 k=61 waves=0 mfma=(n0,k0) lane=63 vgpr=3 bits=116..119
// FP4-ELEM-NEXT: n=31 k=62 waves=0 mfma=(n0,k0) lane=63 vgpr=3 bits=120..123
// FP4-ELEM-NEXT: n=31 k=63 waves=0 mfma=(n0,k0) lane=63 vgpr=3 bits=124..127

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f6E3M2FN, rhs_type = f4E2M1FN>' \
// RUN:   --operand=lhs --cells=lane --rows=0:1 | FileCheck %s --check-prefix=FP6
// FP6:      m=0 k=0..31 waves=0 mfma=(m0,k0) lane=0 vgpr=0..5 bytes=0..23
// FP6-NEXT: m=0 k=32..63 waves=0 mfma=(m0,k0) lane=32 vgpr=0..5 bytes=0..23

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E5M2, rhs_type = f4E2M1FN>' \
// RUN:   --operand=rhs_scales --cells=element --rows=7:8 | FileCheck %s --check-prefix=SCALE
// Lane l holds the scale of column l % 32, K-block l / 32.
// SCALE:      n=7 kb=0 waves=0 mfma=(n0,k0) lane=7 vgpr=0 bytes=0
// SCALE-NEXT: n=7 kb=1 waves=0 mfma=(n0,k0) lane=39 vgpr=0 bytes=0

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E5M2, rhs_type = f4E2M1FN>' \
// RUN:   --operand=result --cells=element --rows=13:14 --cols=12:14 | FileCheck %s --check-prefix=ACC
// Item v of lane l is D[l % 32][8 (v / 4) + 4 (l / 32) + v % 4] (the MFMA
// computes D^T = B A^T): D[13][12] and D[13][13] are v = 4 and 5 of lane
// 45 (r = 13, g = 1).
// ACC:      m=13 n=12 waves=0 mfma=(m0,n0) lane=45 vgpr=4 bytes=16..19
// ACC-NEXT: m=13 n=13 waves=0 mfma=(m0,n0) lane=45 vgpr=5 bytes=20..23
