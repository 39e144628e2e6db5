// The inverse queries on the seed layout (16x16x128 fp4, intrinsics 16 x 4 x
// 2, 4 waves along N, scales interleaved over the M and K unrolls).
// Expectations by hand: rows of A are (i_m, r) with r = lane % 16, K is
// (i_k, 32 g + t) with g = lane / 16; wave w computes N subgroup w, so every
// wave holds all of A and wave w the B rows 64 w .. 64 w + 63.

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --where=37,200 | FileCheck %s --check-prefix=WHERE
// m = 37 = 2 * 16 + 5, k = 200 = 128 + 2 * 32 + 8: intrinsic (m2, k1), lane
// 5 + 16 * 2 = 37, item 8 = bits 32..35 (register 1, byte 4, low nibble).
// Its scale (m 37, K-block 6) is byte i_m * 2 + i_k = 5 of lane 37.
// WHERE:      lhs m=37 k=200: workgroup tile (0, 0), at m=37 k=200: waves=0..3 mfma=(m2,k1) lane=37 item=8 vgpr=1 bits=32..35
// WHERE-NEXT:   its scale: lhs_scales m=37 kb=6: waves=0..3 mfma=(m2,k1) lane=37 item=0 vgpr=1 bytes=5

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --m=1000 --k=1024 --where=293,713 | FileCheck %s --check-prefix=WHERE-TILE
// Problem coordinates: workgroup tile (293 / 256, 713 / 256) = (1, 2), then
// (37, 201) within it: item 9, bits 36..39 (the high nibble of byte 4).
// WHERE-TILE: lhs m=293 k=713: workgroup tile (1, 2), at m=37 k=201: waves=0..3 mfma=(m2,k1) lane=37 item=9 vgpr=1 bits=36..39

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --operand=rhs --lane=5 --wave=2 --register=1 | FileCheck %s --check-prefix=LANE
// Wave 2 holds B rows n = 128 + 16 i_n + r; lane 5 is r = 5, g = 0, and its
// register 1 holds items 8..15 (k 8..15 of each K intrinsic): 4 x 2
// intrinsics of 8 values.
// LANE:      rhs wave 2 lane 5 register 1 holds:
// LANE-NEXT:   rhs n=133 k=8: waves=2 mfma=(n0,k0) lane=5 item=8 vgpr=1 bits=32..35
// LANE-NEXT:   rhs n=133 k=9: waves=2 mfma=(n0,k0) lane=5 item=9 vgpr=1 bits=36..39
// LANE:        rhs n=133 k=15: waves=2 mfma=(n0,k0) lane=5 item=15 vgpr=1 bits=60..63
// LANE-NEXT:   rhs n=133 k=136: waves=2 mfma=(n0,k1) lane=5 item=8 vgpr=1 bits=32..35
// LANE:        rhs n=149 k=8: waves=2 mfma=(n1,k0) lane=5 item=8 vgpr=1 bits=32..35
// LANE:        rhs n=181 k=143: waves=2 mfma=(n3,k1) lane=5 item=15 vgpr=1 bits=60..63
// LANE-NOT:    rhs n=
// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --operand=rhs --lane=5 --wave=2 --register=1 | grep -c 'rhs n=' | FileCheck %s --check-prefix=LANE-COUNT
// LANE-COUNT: 64

// RUN: mx-layout --layout='#mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>' \
// RUN:   --operand=lhs_scales --lane=20 --wave=3 --register=7 | FileCheck %s --check-prefix=SCALES
// Lane 20 (r 4, K-block 1) holds 32 scale bytes, i_m * 2 + i_k: register 7 is
// i_m = 14, 15.
// SCALES:      lhs_scales wave 3 lane 20 register 7 holds:
// SCALES-NEXT:   lhs_scales m=228 kb=1: waves=0..3 mfma=(m14,k0) lane=20 item=0 vgpr=7 bytes=28
// SCALES-NEXT:   lhs_scales m=228 kb=5: waves=0..3 mfma=(m14,k1) lane=20 item=0 vgpr=7 bytes=29
// SCALES-NEXT:   lhs_scales m=244 kb=1: waves=0..3 mfma=(m15,k0) lane=20 item=0 vgpr=7 bytes=30
// SCALES-NEXT:   lhs_scales m=244 kb=5: waves=0..3 mfma=(m15,k1) lane=20 item=0 vgpr=7 bytes=31

// Resolved from the pipeline's options: the resolver's layout for the seed
// problem is the layout above; pins are kept.
// RUN: mx-layout --lhs-type=f4E2M1FN --rhs-type=f4E2M1FN --m=10000 --n=16384 \
// RUN:   --operand=lhs --rows=0:1 --cols=0:8 | FileCheck %s --check-prefix=RESOLVE
// RESOLVE: # layout: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// RUN: mx-layout --lhs-type=f8E4M3FN --rhs-type=f4E2M1FN --m=256 --n=256 --intrinsic=32x32x64 \
// RUN:   --operand=lhs --rows=0:1 --cols=0:16 | FileCheck %s --check-prefix=PINNED
// RUN: mx-layout --lhs-type=f8E4M3FN --rhs-type=f4E2M1FN --m=256 --n=256 \
// RUN:   --target='#mx_gfx950.target<intrinsic = mfma_scale_32x32x64>' \
// RUN:   --operand=lhs --rows=0:1 --cols=0:16 | FileCheck %s --check-prefix=PINNED
// PINNED: # layout: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f8E4M3FN, rhs_type = f4E2M1FN,
// PINNED: m=0 k=0..3 waves={{.*}} mfma=(m0,k0) lane=0 vgpr=0 bytes=0..3
