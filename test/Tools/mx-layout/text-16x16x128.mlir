// The text table of one v_mfma_scale_f32_16x16x128_f8f6f4 (Md = 16, K = 128,
// lane l = r + 16 g), expectations written from the CDNA4 ISA lane tables
// (reference/gfx950-and-mx.md §2): fp4/fp6 item t of lane l is A[l % 16][32 g
// + t]; fp8 item t = 16 h + u is A[l % 16][64 h + 16 g + u], so a lane's
// bytes 0-15 and 16-31 are K/2 = 64 apart.

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f8E4M3FN>' \
// RUN:   --operand=lhs --cells=element --rows=3:4 --cols=32:40 | FileCheck %s --check-prefix=FP4
// FP4: # lhs (A): f4E2M1FN (4 bits), tile 16 x 128 (m x k), 1 wave(s), 16 bytes per lane per intrinsic
// Row 3, k 32..39: lane 3 + 16 = 19, items 0..7, two values a byte (low
// nibble first), 8 values a register.
// FP4-NEXT: m=3 k=32 waves=0 mfma=(m0,k0) lane=19 vgpr=0 bits=0..3
// FP4-NEXT: m=3 k=33 waves=0 mfma=(m0,k0) lane=19 vgpr=0 bits=4..7
// FP4-NEXT: m=3 k=34 waves=0 mfma=(m0,k0) lane=19 vgpr=0 bits=8..11
// FP4:      m=3 k=37 waves=0 mfma=(m0,k0) lane=19 vgpr=0 bits=20..23
// FP4-NEXT: m=3 k=38 waves=0 mfma=(m0,k0) lane=19 vgpr=0 bits=24..27
// FP4-NEXT: m=3 k=39 waves=0 mfma=(m0,k0) lane=19 vgpr=0 bits=28..31
// FP4-NOT:  k=40

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f8E4M3FN>' \
// RUN:   --operand=lhs --rows=15:16 | FileCheck %s --check-prefix=FP4-REG
// One register holds 8 fp4 values: row 15 is lanes 15, 31, 47, 63.
// FP4-REG:      m=15 k=0..7 waves=0 mfma=(m0,k0) lane=15 vgpr=0 bytes=0..3
// FP4-REG-NEXT: m=15 k=8..15 waves=0 mfma=(m0,k0) lane=15 vgpr=1 bytes=4..7
// FP4-REG-NEXT: m=15 k=16..23 waves=0 mfma=(m0,k0) lane=15 vgpr=2 bytes=8..11
// FP4-REG-NEXT: m=15 k=24..31 waves=0 mfma=(m0,k0) lane=15 vgpr=3 bytes=12..15
// FP4-REG-NEXT: m=15 k=32..39 waves=0 mfma=(m0,k0) lane=31 vgpr=0 bytes=0..3
// FP4-REG:      m=15 k=120..127 waves=0 mfma=(m0,k0) lane=63 vgpr=3 bytes=12..15
// FP4-REG-NOT:  m=

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f8E4M3FN>' \
// RUN:   --operand=rhs --cells=lane --rows=0:2 | FileCheck %s --check-prefix=FP8
// B is laid out as A with its column n for the row.
// FP8: # rhs (B): f8E4M3FN (8 bits), tile 16 x 128 (n x k), 1 wave(s), 32 bytes per lane per intrinsic
// FP8-NEXT: n=0 k=0..15 waves=0 mfma=(n0,k0) lane=0 vgpr=0..3 bytes=0..15
// FP8-NEXT: n=0 k=16..31 waves=0 mfma=(n0,k0) lane=16 vgpr=0..3 bytes=0..15
// FP8-NEXT: n=0 k=32..47 waves=0 mfma=(n0,k0) lane=32 vgpr=0..3 bytes=0..15
// FP8-NEXT: n=0 k=48..63 waves=0 mfma=(n0,k0) lane=48 vgpr=0..3 bytes=0..15
// FP8-NEXT: n=0 k=64..79 waves=0 mfma=(n0,k0) lane=0 vgpr=4..7 bytes=16..31
// FP8-NEXT: n=0 k=80..95 waves=0 mfma=(n0,k0) lane=16 vgpr=4..7 bytes=16..31
// FP8-NEXT: n=0 k=96..111 waves=0 mfma=(n0,k0) lane=32 vgpr=4..7 bytes=16..31
// FP8-NEXT: n=0 k=112..127 waves=0 mfma=(n0,k0) lane=48 vgpr=4..7 bytes=16..31
// FP8-NEXT: n=1 k=0..15 waves=0 mfma=(n0,k0) lane=1 vgpr=0..3 bytes=0..15

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f6E2M3FN, rhs_type = f8E4M3FN>' \
// RUN:   --operand=lhs --cells=element --rows=2:3 --cols=36:40 | FileCheck %s --check-prefix=FP6
// fp6: dense 6-bit items, item 5 straddles registers 0 and 1.
// FP6: # lhs (A): f6E2M3FN (6 bits), tile 16 x 128 (m x k), 1 wave(s), 24 bytes per lane per intrinsic
// FP6-NEXT: m=2 k=36 waves=0 mfma=(m0,k0) lane=18 vgpr=0 bits=24..29
// FP6-NEXT: m=2 k=37 waves=0 mfma=(m0,k0) lane=18 vgpr=0..1 bits=30..35
// FP6-NEXT: m=2 k=38 waves=0 mfma=(m0,k0) lane=18 vgpr=1 bits=36..41
// FP6-NEXT: m=2 k=39 waves=0 mfma=(m0,k0) lane=18 vgpr=1 bits=42..47

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f6E2M3FN, rhs_type = f8E4M3FN>' \
// RUN:   --operand=lhs --cells=lane --rows=0:1 | FileCheck %s --check-prefix=FP6-LANE
// FP6-LANE:      m=0 k=0..31 waves=0 mfma=(m0,k0) lane=0 vgpr=0..5 bytes=0..23
// FP6-LANE-NEXT: m=0 k=32..63 waves=0 mfma=(m0,k0) lane=16 vgpr=0..5 bytes=0..23

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f8E4M3FN>' \
// RUN:   --operand=lhs_scales,result --cells=element --rows=1:2 | FileCheck %s --check-prefix=OTHER
// Scales: lane l holds the scale of row l % 16, K-block l / 16.
// OTHER: # lhs_scales (A's scales): f8E8M0FNU (8 bits), tile 16 x 4 (m x kb), 1 wave(s), 1 bytes per lane per intrinsic
// OTHER-NEXT: m=1 kb=0 waves=0 mfma=(m0,k0) lane=1 vgpr=0 bytes=0
// OTHER-NEXT: m=1 kb=1 waves=0 mfma=(m0,k0) lane=17 vgpr=0 bytes=0
// OTHER-NEXT: m=1 kb=2 waves=0 mfma=(m0,k0) lane=33 vgpr=0 bytes=0
// OTHER-NEXT: m=1 kb=3 waves=0 mfma=(m0,k0) lane=49 vgpr=0 bytes=0
// Accumulator: item v of lane l is D[l % 16][4 (l / 16) + v] (the MFMA
// computes D^T = B A^T); row 1 is items 0..3 of lanes 1, 17, 33 and 49,
// four consecutive columns per lane.
// OTHER: # result (accumulator C / result D): f32 (32 bits), tile 16 x 16 (m x n), 1 wave(s), 16 bytes per lane per intrinsic
// OTHER-NEXT: m=1 n=0 waves=0 mfma=(m0,n0) lane=1 vgpr=0 bytes=0..3
// OTHER-NEXT: m=1 n=1 waves=0 mfma=(m0,n0) lane=1 vgpr=1 bytes=4..7
// OTHER-NEXT: m=1 n=2 waves=0 mfma=(m0,n0) lane=1 vgpr=2 bytes=8..11
// OTHER-NEXT: m=1 n=3 waves=0 mfma=(m0,n0) lane=1 vgpr=3 bytes=12..15
// OTHER-NEXT: m=1 n=4 waves=0 mfma=(m0,n0) lane=17 vgpr=0 bytes=0..3
// OTHER:      m=1 n=15 waves=0 mfma=(m0,n0) lane=49 vgpr=3 bytes=12..15
