// RUN: mx-opt %s | mx-opt | FileCheck %s

// The scaled MMA ukernel of gfx950: every pair of MX element types (A and B
// independently f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN or f8E5M2) on both
// v_mfma_scale_f32_16x16x128_f8f6f4 and v_mfma_scale_f32_32x32x64_f8f6f4,
// for the data-tiled layouts of mx::gfx950::getSwizzle with the default
// interleaving (scales interleave the M/N and K unrolls, data and
// accumulators do not). docs/guides/ukernels.md walks through this file.
//
// Parameters. mx-gfx950-specialize-ukernels specializes the function in two
// steps, both MLIR transformations of this source:
//  1. Types (`mx.ukernel.type_parameters`, given by the call's attribute of
//     the same name): the body is written for the reference instance
//     A = f8E4M3FN, B = f4E2M1FN on 16x16x128. Binding replaces the
//     operand vectors of the reference element types by those of the
//     requested ones, the 4-value accumulators by the intrinsic's (4 or 16
//     per lane), the MFMA's shape, and implements the operand hooks
//     (@mx_uk_copy_lhs/_rhs, @mx_uk_read_lhs/_rhs) with the storage class
//     of that operand's type (@mx_uk_copy_f4/_f6/_f8, @mx_uk_read_f4/_f6/_f8
//     below, with their element type replaced: the f6 ones serve E2M3 and
//     E3M2, the f8 ones E4M3 and E5M2).
//  2. Tile sizes (intrinsics_m/n/k, and the subgroup counts, the static
//     sizes of dimension 1 of lhs / rhs) and the accumulator's start (the
//     last argument, zero_acc: 1 starts the accumulators at +0.0, 0
//     starts them with the values the caller put in accs), the last four
//     arguments: the
//     body is cloned into the caller, the constants folded and the loops
//     marked mx.unroll fully unrolled, so the private arrays indexed by the
//     unroll indices (accumulators, fragments, scale groups) become
//     registers and each lane reads its scale bytes in 4-byte groups
//     selected per MFMA with scalesIdx. That needs intrinsics_m *
//     intrinsics_k and intrinsics_n * intrinsics_k to be multiples of 4.
//
// It computes one wave's part of one workgroup tile over all K tiles; the
// caller passes byte views of the tiles, the lane dimensions (g, r) merged
// into one of 64 lanes, W being the bytes of one lane's 32 values (16 for
// fp4, 24 for fp6, 32 for fp8; see getUKernelTileShape), and the lane's
// accumulators `accs`, a private array of V f32 values per intrinsic (4 for
// 16x16x128, 16 for 32x32x64), read and written as vectors, that the
// caller owns: it loads them before the call unless zero_acc, and stores
// them, in whatever layout and type its result has, after it
// (mx-gfx950-lower-tiled-mma). After inlining and unrolling the array is
// registers. Every MFMA takes B's fragment (and scale) as its first operand
// and A's as its second: it computes the transposed tile D^T = B A^T, so
// that each lane's accumulator values are consecutive columns of one row of
// D (mx::gfx950::getSwizzle's result layout), which a row-major result
// stores as one vector per lane and row.
//
//   lhs        [Ko, subgroups_m, intrinsics_m, intrinsics_k, 64, W_A B]
//   rhs        [Ko, subgroups_n, intrinsics_n, intrinsics_k, 64, W_B B]
//   lhs_scales [Ko, subgroups_m, 64, intrinsics_m * intrinsics_k B]
//   rhs_scales [Ko, subgroups_n, 64, intrinsics_n * intrinsics_k B]
//   accs       [intrinsics_m, intrinsics_n, V x f32], private
//
// One data movement scheme serves every type: a lane's W bytes are copied
// as one or two 16-byte chunks (fp4: one; fp6: two that overlap, its bytes
// 0-15 and 8-23; fp8: two, its two K/2-apart halves), chunks = ceil(W / 16).
// In LDS a fragment (one intrinsic's operand, 64 lanes) is stored chunk by
// chunk, each chunk 64 lanes x 16 B = 1 KiB, so that every copy is one
// global_load_lds_dwordx4 and every LDS read a ds_read_b128 (or, for fp6's
// last 8 bytes, a ds_read_b64) at a 16-byte lane stride. The workgroup's
// LDS staging buffer `lds` holds two stages, each one K step of the
// workgroup's A fragments, then its B fragments, in the tiles' order:
//
//   lds        [2, [subgroups_m * intrinsics_m * intrinsics_k, chunks_A, 64, 16 B],
//                  [subgroups_n * intrinsics_n * intrinsics_k, chunks_B, 64, 16 B]]
//
// K step k lives in stage k mod 2 (the pipelined schedule with private B
// stages A only, four or three of its smaller stages where they fit: stage
// k mod 4 or 3). The waves of the workgroup copy each K step
// cooperatively (fragment f of A, then of B, goes to wave f mod waves) with
// amdgpu.gather_to_lds (lane l's chunk lands at the chunk's base + 16 l)
// from a buffer resource of that step (memref.subview of the step +
// amdgpu.fat_raw_buffer_cast resetOffset: the step's base advances in scalar
// registers, each lane keeps a fixed 32-bit offset). The accumulators and
// the current scales stay in registers for the whole K loop; each step's
// scales are loaded (global, wide) one step ahead, except that the pipelined
// schedule copies A's once per workgroup into a two-slot LDS ring when
// several waves share them (`a_scales_lds`, below). Two schedules, chosen by
// the operand widths (the choice folds away at specialization):
//
// Pipelined (A fp4, any B; the seed's MXFP4; and fp6 or fp8 A with private
// B, its A read `lookahead` rows ahead: see `a_wide` below). The copies
// run two or
// three steps ahead, the fragment reads one step ahead. Iteration k waits
// for its copies of step k + 1 and meets the other waves at a barrier, then
// runs step k's MFMAs row by row (row i: the MFMAs of A fragment i) from
// registers. After each row i of the first half (h = ceil(intrinsics_m /
// 2) rows) it reads into registers freed by then row i's A fragments of
// step k + 1 and row h + i's of step k (used in the second half). The
// second half reads no LDS: it loads step k + 1's scales (first) and
// issues the copies of a later step (with three or four stages spread over
// its rows, one or more after each; with two, one row into it, behind a
// barrier). amdgpu.sched_barrier after each row keeps this order. When
// one wave per M (subgroups_m = 1) makes each wave's B fragments its own,
// B goes from global memory straight to registers one
// step ahead (one fragment after each row of the first half; for fp4 or fp6
// B on 16x16x128, the seed's, half of them in row 0 and half in row 1 with step
// k + 1's scales, each load between two of the row's MFMAs, so that they
// are issued about a whole step before their use) and only A is staged: with four stages in the LDS
// the launch gives, the copies of step k + 3 go into step k - 1's stage,
// which nobody reads after the barrier at the top of iteration k, and the
// wait at the top of iteration k leaves the copies of iteration k - 1 (step
// k + 2) in flight (mx_gfx950.wait_loads: their number depends on the tile
// sizes); with three, the copies of step k + 2 go there and the wait is
// for all of them. That barrier is rocdl.s.barrier after a wait for the
// wave's LDS reads (mx_gfx950.wait_lds: all of them, or with wide A all
// but the next step's rows read ahead, or with fp4 A's late reads all but
// those after the A scales' ring read): the fence of amdgpu.lds_barrier
// would make LLVM wait for every copy in flight. LLVM
// adds no wait of its own for the copies before an LDS read either
// (mx-gfx950-lds-copy-alias-scopes). Otherwise B's fragments of step k + 1
// are read after the last row, and with two stages the copies go into step
// k's stage once the waves meet at a second barrier (nobody reads it any
// more). Each step computes its stages (k mod 4, 3 or 2) after the barrier,
// and rocdl.sched.group.barrier places that scalar arithmetic between row
// 0's MFMAs instead of in front of them. The K loop is marked
// mx.unroll_k: the register schedule of the configuration
// (mx.ukernel.register_schedules below) may unroll it; and its
// llvm.loop_annotation tells LLVM not to unroll it any further
// (mx-attach-loop-annotations carries it to LLVM): LLVM unrolled K loops
// of a few static steps fully, and the 32x32x64 8 x 2 x 2 wide-A kernels
// spilled at 7 K steps (fp8 x fp8, 1024^2: 46 VGPRs).
//
// Simple (the other pairs: wide A with B staged, i.e. two or more waves
// along M, or where three stages of A do not fit the LDS). Iteration k reads its fragments from stage k
// mod 2, loads step k + 1's scales and issues the copies of step k + 1 into
// the other stage, then runs its MFMAs; the copies complete behind them.
// Reading before issuing the copies keeps LLVM from waiting for the copies
// before the LDS reads, and loading the scales before the copies keeps the
// scales' wait from waiting for the copies. At the end of each iteration
// each wave waits for its copies (amdgpu.memory_counter_wait load(0)) and
// the workgroup meets at amdgpu.lds_barrier.
//
// Both run the last step after the loop, without copies (the loop body has
// no branch).
//
// wave (wave_m, wave_n) is wave wave_m * subgroups_n + wave_n of the
// workgroup.

// Selection data: the layouts this ukernel serves (see
// mx::gfx950::selectUKernel): any listed intrinsic and element types, this
// interleaving, and `scale_bytes_multiple_of` dividing intrinsics_m *
// intrinsics_k and intrinsics_n * intrinsics_k.

// The type-independent shape of the body: the choice of schedule, then the
// pipelined one (prologue copies of the steps ahead; a K loop whose rows
// read the next step's fragments, with the copies of a later step in the
// middle, behind a barrier when there are two stages; the last step), then
// the simple one (prologue copies; a K loop reading LDS, copying the next
// step and running the MFMAs).
// CHECK-LABEL: func.func private @mx_uk_scaled_mma(
//  CHECK-SAME:   %{{.+}}: memref<?xi8, #gpu.address_space<workgroup>>
//  CHECK-SAME:   mx.ukernel.match = {interleave_k = ["lhs_scales", "rhs_scales"], interleave_m = ["lhs_scales"], interleave_n = ["rhs_scales"], intrinsic = ["mfma_scale_16x16x128", "mfma_scale_32x32x64"], lhs_type = [f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2], rhs_type = [f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2], scale_bytes_multiple_of = 4 : i64}
//  CHECK-SAME:   mx.ukernel.num_parameters = 4 : i64
//  CHECK-SAME:   mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f4E2M1FN}
//       CHECK:   %[[PIPELINED:.+]] = arith.ori
//       CHECK:   %[[B_PRIVATE:.+]] = arith.andi %[[PIPELINED]],
//       CHECK:   %[[COPIES:.+]] = arith.addi %{{.+}}, %{{.+}} : index
//       CHECK:   %[[IN_FLIGHT:.+]] = arith.muli %{{.+}}, %[[COPIES]] : index
//       CHECK:   scf.if %[[PIPELINED]] {
//       CHECK:     scf.if %[[B_PRIVATE]] {
//       CHECK:     call @mx_uk_load_rhs
//       CHECK:     call @mx_uk_copy_lhs
//       CHECK:     call @mx_uk_copy_rhs
//       CHECK:     mx_gfx950.wait_loads %[[IN_FLIGHT]]
//  CHECK-NEXT:     amdgpu.memory_counter_wait ds(0)
//  CHECK-NEXT:     rocdl.s.barrier
//       CHECK:     call @mx_uk_read_lhs
//       CHECK:     %[[LATE_LEFT:.+]] = arith.select %{{.+}}, %{{.+}}, %c0 : index
//  CHECK-NEXT:     %[[READS_LEFT:.+]] = arith.select %{{.+}}, %{{.+}}, %[[LATE_LEFT]] : index
//       CHECK:     scf.for
//       CHECK:       mx_gfx950.wait_loads %[[IN_FLIGHT]]
//  CHECK-NEXT:       mx_gfx950.wait_lds %[[READS_LEFT]]
//  CHECK-NEXT:       rocdl.s.barrier
//       CHECK:       amdgpu.scaled_mfma 16x16x128
//       CHECK:       call @mx_uk_read_lhs
//       CHECK:       amdgpu.lds_barrier
//       CHECK:       call @mx_uk_copy_lhs
//       CHECK:       amdgpu.sched_barrier allow = <none>
//       CHECK:       call @mx_uk_read_rhs
//       CHECK:     amdgpu.scaled_mfma 16x16x128
//       CHECK:     amdgpu.memory_counter_wait load(0)
//       CHECK:   } else {
//       CHECK:     call @mx_uk_copy_lhs
//       CHECK:     call @mx_uk_copy_rhs
//       CHECK:     amdgpu.memory_counter_wait load(0)
//  CHECK-NEXT:     amdgpu.lds_barrier
//       CHECK:     scf.for
//       CHECK:       call @mx_uk_read_lhs
//       CHECK:       call @mx_uk_read_rhs
//       CHECK:       call @mx_uk_copy_lhs
//       CHECK:       amdgpu.scaled_mfma 16x16x128
//       CHECK:       amdgpu.sched_barrier allow = <none>
//  CHECK-NEXT:       amdgpu.memory_counter_wait load(0)
//  CHECK-NEXT:       amdgpu.lds_barrier
func.func private @mx_uk_scaled_mma(
    %lhs: memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>,
    %rhs: memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>,
    %lhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>,
    %rhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>,
    %accs: memref<?x?x?xf32, 5>,
    %lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %wave_m: index, %wave_n: index, %lane: index,
    %intrinsics_m: index, %intrinsics_n: index, %intrinsics_k: index,
    %zero_acc: index)
    attributes {mx.ukernel.num_parameters = 4 : i64,
                mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128",
                                              lhs_type = f8E4M3FN,
                                              rhs_type = f4E2M1FN},
                mx.ukernel.match = {intrinsic = ["mfma_scale_16x16x128",
                                                 "mfma_scale_32x32x64"],
                                    lhs_type = [f4E2M1FN, f6E2M3FN, f6E3M2FN,
                                                f8E4M3FN, f8E5M2],
                                    rhs_type = [f4E2M1FN, f6E2M3FN, f6E3M2FN,
                                                f8E4M3FN, f8E5M2],
                                    interleave_m = ["lhs_scales"],
                                    interleave_n = ["rhs_scales"],
                                    interleave_k = ["lhs_scales", "rhs_scales"],
                                    scale_bytes_multiple_of = 4 : i64},
                // Register schedules (mx::gfx950::getRegisterSchedule), each
                // measured with the static model on every pair of element
                // types (bench/README.md, "Register schedules"): with
                // accumulators from memory (C += A x B) on 16x16x128, the
                // accumulators in AGPRs (no spills, fewer moves), and for
                // the software-pipelined pairs (fp4 A, any B) the K
                // loop unrolled by 2 as well (fp4 x fp6, seed, C += A x B:
                // 1699 cycles per step -> 3242 per two, 3.52 -> 3.68 PFLOP/s;
                // bench/README.md, "fp6 B in the pipelined schedule"). The same pairs from
                // zero-filled accumulators take the same schedule with the
                // K loop's first step peeled (peel_first_k): its MFMAs
                // take the +0.0 start as a constant, so no loop-carried
                // accumulator starts as a copy of one shared zero register,
                // which made LLVM spill ~400 VGPRs. Seed tile, fp4 x fp4,
                // bf16 result: 4353 cycles per 512 K on the static model
                // (2416 per 256 K before), 4368 on the timing model (2424
                // per 256 K), 0 spills; fp4 x fp8: 4262 per 256 K (2315 per
                // 128 K). Only from 16 K steps on (min_k_steps): with
                // fewer (the split-K parts of decode GEMMs: 2 to 8) the
                // peel, the unroll and the AGPRs cost more than they gain
                // (bench/decode_metrics.py: M=64 N=K=8192, 4 steps, 5.9 ->
                // 6.4 us; M=64 N=K=16384, 16 steps, 18.8 -> 18.4). Not
                // listed, because LLVM then spills hundreds of VGPRs: AGPRs
                // for zero-filled accumulators without the peel, and AGPRs
                // on 32x32x64. fp6 and fp8 A (pipelined, A read rows ahead)
                // from zero take the AGPRs and the peel too: fp8 x fp4,
                // bf16, 16384^3, 4843 -> 3516 cycles per 128 K, 0 spills.
                // With fp6 or fp8 B as well, the unroll by 2 on top (from
                // memory and from zero; 16384^3, static model, PF/s C += A
                // x B / from zero): fp8 x fp8 2.61 -> 2.77 / 2.66 -> 2.83,
                // fp6 x fp8 2.62 -> 2.79 / 2.67 -> 2.86, fp8 x fp6 2.71 ->
                // 2.80 / 2.78 -> 2.86, fp6 x fp6 4.50 -> 4.55 / 4.70 ->
                // 4.74; with fp4 B (the 8 x 8 wave tile of the tuned table)
                // it lost: fp6 x fp4 4.51 -> 4.22 (bench/README.md, "Wide
                // A: fragments as 32-bit words"). On 32x32x64 fp6 and fp8 A
                // from memory are read a whole K step ahead (lookahead_rows
                // 8, the resolver's 8 rows; the ukernel caps it at the
                // tile's rows): 16384^3, static model, fp6 x fp6 2.59 ->
                // 3.36 PF/s, fp8 x fp8 2.56 -> 2.76, 0 spills at every K
                // step count tried (1 to 64) since the K loop tells LLVM not
                // to unroll it (bench/README.md, "32x32x64 wide A a step
                // ahead"). From zero fp6 A too, since its fragments' halves
                // are read unmerged (@mx_uk_read_f6): fp6 x fp6, bf16,
                // 2.87 -> 4.18 PF/s (one row ahead before; 8 rows spilled
                // with the merged reads), 0 spills at 1 to 64 K steps on
                // grids of 256 to 4096; fp8 A keeps the rule's one row (8
                // rows spilled 16 VGPRs at 3 or 4 K steps; bench/README.md,
                // "32x32x64 fp6 A: no merged reads").
                // With 3 or 4 static K steps fp4 A from memory keeps one
                // step per iteration: unrolled, the seed tile spilled (fp4 x
                // fp4, 16 x 4 x 2: 4 VGPRs at 3 steps on 4096^2, 70 at 4 on
                // 256^2 and 4096^2; none at 1, 2 or 5 and more; without the
                // unroll none at any; bench/README.md, "The seed tile
                // unrolled at 3 and 4 K steps").
                // fp4 x fp4 on 32x32x64 (8 x 2 x 4, 494 to 512 registers)
                // spilled at a few short K loops (from memory 16 VGPRs at 2
                // steps and 64 at 5 on 4096^2; from zero 2 at 4): at up to
                // 8 steps it reads the next step's first-half rows of A in
                // the second half (late_next_rows; 428 to 492 registers,
                // none spilled at 1 to 40 steps on 256^2 to 4096^2), but
                // not at 4 from memory (no spill there, and the timing model
                // ran the 256 x 256 tile 19% slower: 20925 -> 24813 cycles;
                // at 2 steps 16204 -> 15288, at 5 28046 -> 23306, at 8 the
                // same; bench/README.md, "fp4 x fp4 on 32x32x64 without
                // spills").
                // From zero the seed tile (fp4 x fp4) unrolls only an even
                // trip count (unroll_remainder = false): with an odd one its
                // remainder iteration ran as straight-line code after the
                // loop, where LLVM gave the accumulators other registers and
                // spilled 56 VGPRs (17, 21, 25, ... K steps of 256; at 19,
                // 23, ... none). Not unrolled there, none at 15 to 35, 41,
                // 63 and 65 K steps; the 256 x 256 tile ran 5.8% slower at
                // 19 K steps (46986 -> 49732 cycles, timing model;
                // bench/README.md, "The seed tile from zero at odd K step
                // counts").
                // fp4 x fp6 on 16x16x128 with 16 x 4 x 2 intrinsics a wave
                // (the tile they were measured on; with 1 x 4 waves only A
                // is staged, B is private) reads late at every
                // K step count: with all of A live it spilled 22 VGPRs
                // (4096^2, C += A x B); late, 456 to 496 registers, none
                // spilled at 1 to 9, 16, 17, 33 and 64 K steps on 256^2 and
                // 4096^2, from memory and from zero. From memory not
                // unrolled at up to 5 K steps (at 4 and 5 it spilled 60 and
                // 9); from zero not unrolled (unrolled by 2, LLVM moved
                // accumulators between AGPRs and VGPRs in the loop: 4818
                // cycles per two K steps against 4776 on the static model,
                // though the timing model ran it 1.3% faster, 5.45 against
                // 5.38 PF/s). 16384^3, C += A x B, static / timing model:
                // 5.52 / 5.68 PF/s, against 4.95 / 5.14 for the resolver's
                // 16 x 4 x 1 (bench/README.md, "fp4 x fp6 on 16 x 4 x 2:
                // only A staged").
                mx.ukernel.register_schedules = [
                  {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
                   rhs_type = [f6E2M3FN, f6E3M2FN], intrinsics_m = 16 : i64,
                   intrinsics_n = 4 : i64, intrinsics_k = 2 : i64,
                   accumulators = "memory", max_k_steps = 5 : i64,
                   accumulator_agprs = true,
                   late_next_rows = true},
                  {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
                   rhs_type = [f6E2M3FN, f6E3M2FN], intrinsics_m = 16 : i64,
                   intrinsics_n = 4 : i64, intrinsics_k = 2 : i64,
                   accumulators = "memory", unroll_k = 2 : i64,
                   accumulator_agprs = true, late_next_rows = true},
                  {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
                   rhs_type = [f6E2M3FN, f6E3M2FN], intrinsics_m = 16 : i64,
                   intrinsics_n = 4 : i64, intrinsics_k = 2 : i64,
                   accumulators = "zero", accumulator_agprs = true,
                   peel_first_k = true, late_next_rows = true},
                  {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
                   accumulators = "memory", max_k_steps = 4 : i64,
                   accumulator_agprs = true},
                  {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
                   accumulators = "memory", unroll_k = 2 : i64,
                   accumulator_agprs = true},
                  {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
                   rhs_type = f4E2M1FN, accumulators = "zero",
                   min_k_steps = 16 : i64, unroll_k = 2 : i64,
                   accumulator_agprs = true, peel_first_k = true,
                   unroll_remainder = false},
                  {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN,
                   accumulators = "zero", min_k_steps = 16 : i64,
                   unroll_k = 2 : i64, accumulator_agprs = true,
                   peel_first_k = true},
                  {intrinsic = "mfma_scale_16x16x128",
                   lhs_type = [f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2],
                   rhs_type = [f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2],
                   accumulators = "memory", unroll_k = 2 : i64,
                   accumulator_agprs = true},
                  {intrinsic = "mfma_scale_16x16x128",
                   lhs_type = [f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2],
                   rhs_type = [f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2],
                   accumulators = "zero", min_k_steps = 16 : i64,
                   unroll_k = 2 : i64, accumulator_agprs = true,
                   peel_first_k = true},
                  {intrinsic = "mfma_scale_16x16x128",
                   lhs_type = [f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2],
                   accumulators = "zero", min_k_steps = 16 : i64,
                   accumulator_agprs = true, peel_first_k = true},
                  {intrinsic = "mfma_scale_16x16x128", accumulators = "memory",
                   accumulator_agprs = true},
                  {intrinsic = "mfma_scale_32x32x64", lhs_type = f4E2M1FN,
                   rhs_type = f4E2M1FN, accumulators = "memory",
                   min_k_steps = 4 : i64, max_k_steps = 4 : i64},
                  {intrinsic = "mfma_scale_32x32x64", lhs_type = f4E2M1FN,
                   rhs_type = f4E2M1FN, max_k_steps = 8 : i64,
                   late_next_rows = true},
                  {intrinsic = "mfma_scale_32x32x64",
                   lhs_type = [f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2],
                   accumulators = "memory", lookahead_rows = 8 : i64},
                  {intrinsic = "mfma_scale_32x32x64",
                   lhs_type = [f6E2M3FN, f6E3M2FN], accumulators = "zero",
                   lookahead_rows = 8 : i64}]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %k_tiles = memref.dim %lhs, %c0 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  %subgroups_m = memref.dim %lhs, %c1 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  %subgroups_n = memref.dim %rhs, %c1 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  %waves = arith.muli %subgroups_m, %subgroups_n : index
  // Bytes of a lane's 32 values and the 1 KiB LDS chunks of one fragment.
  %lane_bytes_a = memref.dim %lhs, %c5 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  %lane_bytes_b = memref.dim %rhs, %c5 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  %frag_lds_a = affine.apply affine_map<()[w] -> ((w ceildiv 16) * 1024)>()[%lane_bytes_a]
  %frag_lds_b = affine.apply affine_map<()[w] -> ((w ceildiv 16) * 1024)>()[%lane_bytes_b]
  // The wave's indices as wave-uniform values for the LDS addresses (scalar
  // registers); the global accumulator and scale addresses keep the plain
  // ones (LLVM then folds their constant offsets into the instructions).
  %wave_m_u = gpu.subgroup_broadcast %wave_m, first_active_lane : index
  %wave_n_u = gpu.subgroup_broadcast %wave_n, first_active_lane : index
  // The tiles as one row of bytes per K step, the copies' sources.
  %lhs_rows = memref.collapse_shape %lhs [[0], [1, 2, 3, 4, 5]]
      : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1> into memref<?x?xi8, strided<[?, ?], offset: ?>, 1>
  %lhs_flat = memref.cast %lhs_rows : memref<?x?xi8, strided<[?, ?], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %rhs_rows = memref.collapse_shape %rhs [[0], [1, 2, 3, 4, 5]]
      : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1> into memref<?x?xi8, strided<[?, ?], offset: ?>, 1>
  %rhs_flat = memref.cast %rhs_rows : memref<?x?xi8, strided<[?, ?], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  // The copies read one K step of them at a time through a buffer resource
  // whose base is that step (a scalar advance per step), each lane at a
  // fixed 32-bit offset.
  %row_a = memref.dim %lhs_flat, %c1 : memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %row_b = memref.dim %rhs_flat, %c1 : memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %wave = affine.apply affine_map<(m, n)[s] -> (m * s + n)>(%wave_m_u, %wave_n_u)[%subgroups_n]
  // Fragments of one K step and the stage size (bytes); the waves share the
  // copies: `rounds` fragments each, then one more for waves < `rest`.
  %per_sg_a = arith.muli %intrinsics_m, %intrinsics_k : index
  %per_sg_b = arith.muli %intrinsics_n, %intrinsics_k : index
  %frags_a = arith.muli %subgroups_m, %per_sg_a : index
  %frags_b = arith.muli %subgroups_n, %per_sg_b : index
  %stage_a = arith.muli %frags_a, %frag_lds_a : index
  // The software-pipelined schedule for fp4 A (any B), and for fp6 or fp8 A
  // (any B) where B is private and three stages of A fit the LDS
  // (`a_wide`); the other pairs keep the simple one. Wide A fragments are
  // read `lookahead` rows ahead of their MFMAs instead of a step ahead.
  // The LDS reads (@mx_uk_read_f6, @mx_uk_read_f8) join their halves as
  // 32-bit words: joined as bytes, a fragment carried across the loop's back
  // edge stayed a <24 x i8> / <32 x i8> value that LLVM legalizes byte by
  // byte, which made every wide-A tiling beyond one row ahead spill (two
  // rows ahead 104 to 148 VGPRs, a step ahead 274 to 382, 32x32x64 352 to
  // 448) and the decode tiles with two intrinsics along K run slower
  // pipelined (fp8 M=64, 64x128x256 on 2 waves: 10.9 -> 18.4 us); so
  // `a_wide` was limited to 16x16x128 with one intrinsic along K and one
  // row ahead (bench/README.md, "Wide A: fragments as 32-bit words").
  %a_narrow = arith.cmpi eq, %lane_bytes_a, %c16 : index
  %a_wider = arith.cmpi ugt, %lane_bytes_a, %c16 : index
  %acc_width = memref.dim %accs, %c2 : memref<?x?x?xf32, 5>
  %acc_16 = arith.cmpi eq, %acc_width, %c4 : index
  %lds_bytes = memref.dim %lds, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
  %three_a = arith.muli %stage_a, %c3 : index
  %three_a_fit = arith.cmpi ule, %three_a, %lds_bytes : index
  %one_wave_m_a = arith.cmpi eq, %subgroups_m, %c1 : index
  %wide_private = arith.andi %one_wave_m_a, %three_a_fit : i1
  %a_wide = arith.andi %a_wider, %wide_private : i1
  %pipelined = arith.ori %a_narrow, %a_wide : i1
  // In the pipelined schedule a B fragment that only one wave uses
  // (subgroups_m = 1) goes from global memory straight to that wave's
  // registers, one step ahead, without LDS.
  %one_wave_m = arith.cmpi eq, %subgroups_m, %c1 : index
  %b_private = arith.andi %pipelined, %one_wave_m : i1
  %frags_b_lds = arith.select %b_private, %c0, %frags_b : index
  %lhs_0_v = memref.subview %lhs_flat[%c0, 0] [%c1, %row_a] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %lhs_0 = amdgpu.fat_raw_buffer_cast %lhs_0_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
  %rhs_0_v = memref.subview %rhs_flat[%c0, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %rhs_0 = amdgpu.fat_raw_buffer_cast %rhs_0_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
  %stage = affine.apply affine_map<()[a, fa, b, fb] -> (a * fa + b * fb)>()[%frags_a, %frag_lds_a, %frags_b_lds, %frag_lds_b]
  %rounds_a = arith.divui %frags_a, %waves : index
  %rest_a = arith.remui %frags_a, %waves : index
  %rounds_b = arith.divui %frags_b_lds, %waves : index
  %rest_b = arith.remui %frags_b_lds, %waves : index
  %has_rest_a = arith.cmpi ult, %wave, %rest_a : index
  %has_rest_b = arith.cmpi ult, %wave, %rest_b : index
  %intrinsics_m_1 = arith.subi %intrinsics_m, %c1 : index
  // Scale bytes of one lane and K step, in 4-byte groups.
  %groups_a = affine.apply affine_map<()[i, k] -> ((i * k) floordiv 4)>()[%intrinsics_m, %intrinsics_k]
  %groups_b = affine.apply affine_map<()[i, k] -> ((i * k) floordiv 4)>()[%intrinsics_n, %intrinsics_k]

  %frag_a = memref.alloca(%intrinsics_m, %intrinsics_k) : memref<?x?xvector<32xf8E4M3FN>, 5>
  %frag_b = memref.alloca(%intrinsics_n, %intrinsics_k) : memref<?x?xvector<32xf4E2M1FN>, 5>
  %scales_a = memref.alloca(%groups_a) : memref<?xvector<1xi32>, 5>
  %scales_b = memref.alloca(%groups_b) : memref<?xvector<1xi32>, 5>
  %next_scales_a = memref.alloca(%groups_a) : memref<?xvector<1xi32>, 5>
  %next_scales_b = memref.alloca(%groups_b) : memref<?xvector<1xi32>, 5>
  %next_frag_b = memref.alloca(%intrinsics_n, %intrinsics_k) : memref<?x?xvector<32xf4E2M1FN>, 5>
  // The accumulators start at +0.0, or with the caller's values.
  %from_zero = arith.cmpi ne, %zero_acc, %c0 : index
  %from_memory = arith.cmpi eq, %zero_acc, %c0 : index
  scf.if %from_zero {
    %f0 = arith.constant 0.0 : f32
    %zeros = vector.broadcast %f0 : f32 to vector<4xf32>
    scf.for %i = %c0 to %intrinsics_m step %c1 {
      scf.for %j = %c0 to %intrinsics_n step %c1 {
        vector.store %zeros, %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
      } {mx.unroll}
    } {mx.unroll}
  }

  %any = arith.cmpi ugt, %k_tiles, %c0 : index
  %k_last = arith.subi %k_tiles, %c1 : index
  // The LDS stages (see the header): four where they fit, else three, else
  // two; the copies run `ahead` steps ahead (three with four stages, else
  // two), and the waits leave the copies of the last `ahead - 2` steps in
  // flight: `in_flight` loads, the fewest copies of any wave per step.
  %lds_size = memref.dim %lds, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
  %three_size = arith.muli %stage, %c3 : index
  %four_size = arith.muli %stage, %c4 : index
  %three = arith.cmpi ule, %three_size, %lds_size : index
  %four = arith.cmpi ule, %four_size, %lds_size : index
  %two_stages = arith.cmpi ugt, %three_size, %lds_size : index
  %stages_23 = arith.select %three, %c3, %c2 : index
  %stages = arith.select %four, %c4, %stages_23 : index
  %ahead = arith.select %four, %c3, %c2 : index
  %true = arith.constant true
  %b_lds = arith.xori %b_private, %true : i1
  %copies = arith.addi %rounds_a, %rounds_b : index
  %ahead_2 = arith.subi %ahead, %c2 : index
  %in_flight = arith.muli %ahead_2, %copies : index
  // A's scales through LDS (pipelined schedule; `a_scales_lds`). When
  // several waves along N share a wave_m's A scales (subgroups_n > 1), each
  // wave loading them from global memory moves them subgroups_n times over
  // the L2 path (the seed tile: 12 of its 148 KiB per two K steps). Instead
  // the workgroup copies each K step's A scales once (LDS DMA, 4 bytes per
  // lane, the copies shared by the waves) into a ring of two slots at the
  // end of the LDS (the launch makes room for it where it fits,
  // getUKernelLDSBytes), laid out [wave_m, groups_a / 4, 64 lanes, 16 B],
  // and each wave reads its 4-byte groups
  // with 16-byte LDS reads at a 16-byte lane stride (no bank conflict).
  // Iteration k reads step k + 1's (slot (k + 1) mod 2, copied in iteration
  // k - 1 or the prologue, before the copies the wait at the top leaves in
  // flight) and copies step k + 2's into slot k mod 2 (read in iteration
  // k - 1, before the barrier at the top). Only where the ring leaves the
  // number of stages unchanged, groups_a is a multiple of 4, intrinsics_m
  // >= 4, and on 16x16x128.
  %sa_step = affine.apply affine_map<()[s, i, k] -> (s * i * k * 64)>()[%subgroups_m, %intrinsics_m, %intrinsics_k]
  %sa_ring = arith.muli %sa_step, %c2 : index
  %ring_fits = arith.cmpi ule, %sa_ring, %lds_size : index
  %lds_left = arith.subi %lds_size, %sa_ring : index
  %lds_rest = arith.select %ring_fits, %lds_left, %c0 : index
  %two_size = arith.muli %stage, %c2 : index
  %two_r = arith.cmpi ule, %two_size, %lds_rest : index
  %three_r = arith.cmpi ule, %three_size, %lds_rest : index
  %four_r = arith.cmpi ule, %four_size, %lds_rest : index
  %same_3 = arith.cmpi eq, %three_r, %three : i1
  %same_4 = arith.cmpi eq, %four_r, %four : i1
  %same_34 = arith.andi %same_3, %same_4 : i1
  %same = arith.andi %same_34, %two_r : i1
  %shared_a = arith.cmpi ugt, %subgroups_n, %c1 : index
  %groups_a_4 = affine.apply affine_map<()[g] -> (g mod 4)>()[%groups_a]
  %whole_4 = arith.cmpi eq, %groups_a_4, %c0 : index
  %sa_fits = arith.andi %ring_fits, %same : i1
  %sa_shared = arith.andi %shared_a, %whole_4 : i1
  %sa_ok = arith.andi %sa_fits, %sa_shared : i1
  // 16x16x128 only: on 32x32x64 (fp4 x fp4 at 8 x 2 x 4 intrinsics per
  // wave, 1 x 4 waves) the ring's addresses made LLVM spill 3 VGPRs. And
  // intrinsics_m >= 4: the small-M tiles of decode GEMMs have few A scale
  // bytes per step, and the ring's copies and reads cost more than they
  // save (bench/decode_metrics.py, M=64 N=K=8192, 2 x 8 intrinsics: 6.1 ->
  // 6.2 us with the ring).
  %acc_values_sa = memref.dim %accs, %c2 : memref<?x?x?xf32, 5>
  %acc_4_sa = arith.cmpi eq, %acc_values_sa, %c4 : index
  %rows_4 = arith.cmpi uge, %intrinsics_m, %c4 : index
  %sa_rows = arith.andi %sa_ok, %rows_4 : i1
  %sa_16 = arith.andi %sa_rows, %acc_4_sa : i1
  // fp4 A only: with fp6/fp8 A read a row ahead the ring cost 2% (fp8 x
  // fp8 at the seed tile: 2780 -> 2844 cycles per step).
  %a_scales_lds = arith.andi %a_narrow, %sa_16 : i1
  // Copies of 64 lanes x 4 bytes per step, shared by the waves.
  %sa_copies = arith.muli %subgroups_m, %groups_a : index
  %sa_rounds = arith.divui %sa_copies, %waves : index
  %sa_rest = arith.remui %sa_copies, %waves : index
  %has_sa_rest = arith.cmpi ult, %wave, %sa_rest : index
  %sa_chunks = affine.apply affine_map<()[g] -> (g floordiv 4)>()[%groups_a]
  %lhs_scales_rows = memref.collapse_shape %lhs_scales [[0], [1, 2, 3]]
      : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1> into memref<?x?xi8, strided<[?, ?], offset: ?>, 1>
  %lhs_scales_flat = memref.cast %lhs_scales_rows : memref<?x?xi8, strided<[?, ?], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  scf.if %pipelined {
    // Prologue: K steps 0 and 1 into stages 0 and 1, step 0's scales into
    // registers, then step 0's fragments into registers.
    scf.if %any {
      // Step 1's A scales into slot 1 of their ring (step 0's go to
      // registers below).
      %sa_first = affine.min affine_map<()[n] -> (1, n - 1)>()[%k_tiles]
      scf.if %a_scales_lds {
        %sa_src_v = memref.subview %lhs_scales_flat[%sa_first, 0] [%c1, %sa_step] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
        %sa_src = amdgpu.fat_raw_buffer_cast %sa_src_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
        scf.for %r = %c0 to %sa_rounds step %c1 {
          %c = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
          %o = affine.apply affine_map<(c, t)[g, g4] -> ((((c floordiv g) * 64 + (c * 16 + t floordiv 4) mod 64) * g + ((c floordiv 4) mod g4) * 4 + t mod 4) * 4)>
              (%c, %lane)[%groups_a, %sa_chunks]
          %d = affine.apply affine_map<(c)[b, s, z] -> (b + s * z + c * 256)>(%c)[%lds_rest, %c1, %sa_step]
          amdgpu.gather_to_lds %sa_src[%c0, %o], %lds[%d]
              : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<?xi8, #gpu.address_space<workgroup>>
        } {mx.unroll}
        scf.if %has_sa_rest {
          %c = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%sa_rounds, %waves]
          %o = affine.apply affine_map<(c, t)[g, g4] -> ((((c floordiv g) * 64 + (c * 16 + t floordiv 4) mod 64) * g + ((c floordiv 4) mod g4) * 4 + t mod 4) * 4)>
              (%c, %lane)[%groups_a, %sa_chunks]
          %d = affine.apply affine_map<(c)[b, s, z] -> (b + s * z + c * 256)>(%c)[%lds_rest, %c1, %sa_step]
          amdgpu.gather_to_lds %sa_src[%c0, %o], %lds[%d]
              : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<?xi8, #gpu.address_space<workgroup>>
        }
      }
      scf.for %g = %c0 to %groups_a step %c1 {
        %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
        %v = vector.load %lhs_scales[%c0, %wave_m, %lane, %o]
            : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
        %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
        memref.store %w, %scales_a[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.for %g = %c0 to %groups_b step %c1 {
        %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
        %v = vector.load %rhs_scales[%c0, %wave_n, %lane, %o]
            : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
        %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
        memref.store %w, %scales_b[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.if %b_private {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %o = affine.apply affine_map<(u, q, l)[w, n, k, wb] -> ((((w * n + u) * k + q) * 64 + l) * wb)>
                (%j, %q, %lane)[%wave_n, %intrinsics_n, %intrinsics_k, %lane_bytes_b]
            %v = func.call @mx_uk_load_rhs(%rhs_0, %o)
                : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index) -> vector<32xf4E2M1FN>
            memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
          } {mx.unroll}
        } {mx.unroll}
      }
      // With A's scales' ring, the scales and B's loads before the copies:
      // the waits of the K loop leave the last copies in flight, which must
      // come after them (without the barrier LLVM put step 0's scale loads
      // among step 2's copies on the seed tile: vmcnt(7) at the top of the
      // loop).
      scf.if %a_scales_lds {
        amdgpu.sched_barrier allow = <none>
      }
      scf.for %s = %c0 to %ahead step %c1 {
        // Fewer K steps than stages ahead: the last one again, so that every
        // wave has issued the same copies when it waits for all but the
        // last step's (harmless: into a stage nobody reads).
        %src = affine.min affine_map<(s)[n] -> (s, n - 1)>(%s)[%k_tiles]
        %base = arith.muli %s, %stage : index
        %lhs_s_v = memref.subview %lhs_flat[%src, 0] [%c1, %row_a] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
        %lhs_s = amdgpu.fat_raw_buffer_cast %lhs_s_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
        %rhs_s_v = memref.subview %rhs_flat[%src, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
        %rhs_s = amdgpu.fat_raw_buffer_cast %rhs_s_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
        scf.for %r = %c0 to %rounds_a step %c1 {
          %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
          %d = affine.apply affine_map<(f)[b, fa] -> (b + f * fa)>(%f)[%base, %frag_lds_a]
          func.call @mx_uk_copy_lhs(%lhs_s, %c0, %f, %lds, %d, %lane)
              : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
        } {mx.unroll}
        scf.for %r = %c0 to %rounds_b step %c1 {
          %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
          %d = affine.apply affine_map<(f)[b, a, fb] -> (b + a + f * fb)>(%f)[%base, %stage_a, %frag_lds_b]
          func.call @mx_uk_copy_rhs(%rhs_s, %c0, %f, %lds, %d, %lane)
              : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
        } {mx.unroll}
        scf.if %has_rest_a {
          %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_a, %waves]
          %d = affine.apply affine_map<(f)[b, fa] -> (b + f * fa)>(%f)[%base, %frag_lds_a]
          func.call @mx_uk_copy_lhs(%lhs_s, %c0, %f, %lds, %d, %lane)
              : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
        }
        scf.if %has_rest_b {
          %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_b, %waves]
          %d = affine.apply affine_map<(f)[b, a, fb] -> (b + a + f * fb)>(%f)[%base, %stage_a, %frag_lds_b]
          func.call @mx_uk_copy_rhs(%rhs_s, %c0, %f, %lds, %d, %lane)
              : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
        }
      } {mx.unroll}
    }
    mx_gfx950.wait_loads %in_flight
    amdgpu.memory_counter_wait ds(0)
    rocdl.s.barrier
    // The first half of the rows (see the K loop).
    %h = affine.apply affine_map<()[m] -> ((m + 1) floordiv 2)>()[%intrinsics_m]
    // fp4 A: where the next step's first-half rows are read. By default row
    // i of the first half reads row i of step k + 1 and row h + i of step k,
    // so at its end all of A's rows are in registers (32x32x64 8 x 2 x 4:
    // 128 of the 512). With `late` (a register schedule's `late_next_rows`:
    // the op marked mx.late_next_rows) the first half reads only step k's
    // rows h + i, and row h + i of the second half reads row i of step
    // k + 1, into the registers row i freed: about half of A's rows are
    // live at any time. Even row counts only (each first-half row has a
    // second-half partner).
    %late_rule = arith.constant {mx.late_next_rows} false
    %m_odd = arith.remui %intrinsics_m, %c2 : index
    %m_even = arith.cmpi eq, %m_odd, %c0 : index
    %late_even = arith.andi %late_rule, %m_even : i1
    %late = arith.andi %late_even, %a_narrow : i1
    %not_late = arith.xori %late, %true : i1
    %a_first_half = arith.andi %a_narrow, %not_late : i1
    // With `a_wide`, how many rows ahead of its MFMAs a row of A is read
    // (at most the tile's rows): the rule below, which a register schedule's
    // `lookahead_rows` replaces (the op marked mx.lookahead_rows). On
    // 16x16x128 enough rows that at least 20 MFMA slots of 16 cycles (320
    // cycles; an MFMA with an fp8 operand takes two) separate the read from
    // its first use; on 32x32x64 one row. Static model, C += A x B,
    // 16384^3, cycles per K step of 128 (bench/README.md, "Wide A:
    // fragments as 32-bit words"): 16x16x128 fp6 x fp6 (4 MFMAs a row) 1
    // row ahead 2200, 2 1622, 3 1440, 4 1376, 5 and more 1345, and fp8 x
    // fp8 2780, 2380, 2376, then 2372. On 32x32x64 (8 x 2 x 2) fp6 x fp6 1
    // row ahead 2398, 4 2512, 6 2170, 8 (a whole step) 1828: the register
    // schedules read a step ahead from memory (bench/README.md, "32x32x64
    // wide A a step ahead"), from zero for fp6 A (fp8 A spilled).
    %c20 = arith.constant 20 : index
    %wide_a_row = arith.muli %intrinsics_n, %intrinsics_k : index
    %fp8_a = arith.cmpi eq, %lane_bytes_a, %c32 : index
    %fp8_b = arith.cmpi eq, %lane_bytes_b, %c32 : index
    %fp8_ab = arith.ori %fp8_a, %fp8_b : i1
    %slot_cycles = arith.select %fp8_ab, %c2, %c1 : index
    %row_slots = arith.muli %wide_a_row, %slot_cycles : index
    %rows_ahead = arith.ceildivui %c20, %row_slots : index
    %lookahead_rule = arith.select %acc_16, %rows_ahead, %c1 {mx.lookahead_rows} : index
    %lookahead = arith.minui %lookahead_rule, %intrinsics_m : index
    // The A rows held in registers at the top of an iteration: the first
    // half, or with `a_wide` the `lookahead` rows read ahead.
    %held = arith.select %a_wide, %lookahead, %h : index
    scf.if %any {
      scf.for %i = %c0 to %held step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %o = affine.apply affine_map<(u, q)[w, n, k, fa] -> (((w * n + u) * k + q) * fa)>
              (%i, %q)[%wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
          %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
              : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
          memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
        } {mx.unroll}
      } {mx.unroll}
      scf.if %b_lds {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %o = affine.apply affine_map<(u, q)[a, w, n, k, fb] -> (a + ((w * n + u) * k + q) * fb)>
                (%j, %q)[%stage_a, %wave_n_u, %intrinsics_n, %intrinsics_k, %frag_lds_b]
            %v = func.call @mx_uk_read_rhs(%lds, %o, %lane)
                : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf4E2M1FN>
            memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
          } {mx.unroll}
        } {mx.unroll}
      }
    }

    // All K steps but the last, software-pipelined. Step k's MFMAs run from
    // registers, one row (intrinsic i of the M unroll) at a time, in two
    // halves. After each row i of the first half (rows 0 .. h - 1, h =
    // ceil(intrinsics_m / 2)) the wave reads from LDS, into registers free at
    // that point, row i's A fragments of step k + 1 (into the registers row i
    // just used) and row h + i's of step k (used in the second half; their
    // registers were freed at the end of the previous iteration); after row 0
    // also B's fragments of step k + 1 (into a second set). The second half
    // reads nothing (but with `late`, above, step k + 1's rows 0 .. h - 1,
    // one per row): one row into it step k + 1's scales are loaded (with
    // private B: in row 1, with B's loads), then the copies of step
    // k + `ahead` issued. Scheduling barriers keep this
    // order (LLVM would otherwise hoist every LDS read to the top of the
    // iteration). With four stages (or three) the copies go into step
    // k - 1's stage, which nobody reads after the barrier at the top of
    // iteration k, spread over the rows of the second half, so that their
    // LDS writes and M0 writes interleave with MFMAs; with two, they go into
    // step k's stage behind a barrier one row into the second half.
    %mid = arith.minui %h, %intrinsics_m_1 : index
    %rest_rows = arith.subi %intrinsics_m, %mid : index
    %span = arith.select %three, %rest_rows, %c1 : index
    // Wide A reads LDS in every row: its copies (three stages or more) start
    // in row 0, spread over all rows, a whole step before the wait for them.
    %copy_mid = arith.select %a_wide, %c0, %mid : index
    %copy_span = arith.select %a_wide, %intrinsics_m, %span : index
    // The LDS reads the wait before the barrier at the top of an iteration
    // may leave in flight. After that barrier the copies go into step k -
    // 1's stage (k + ahead mod stages, three stages or more), whose every
    // fragment an MFMA of iteration k - 1 used. With wide A the last rows
    // of iteration k - 1 read step k's rows 0 .. lookahead - 1 (lookahead x
    // intrinsics_k fragments) after its last read of step k - 1's stage, so
    // the wait leaves those in flight: one per fragment, a lower bound on
    // their LDS instructions (two per fragment, LLVM may merge two 8-byte
    // halves into one), at most the counter's 15. Otherwise it waits for
    // every read (the fp4 A scales' ring, read in row mid, is overwritten
    // after the barrier). Static model, C += A x B, 16384^3, per two K
    // steps on 16x16x128 (bench/README.md, "Wide A: the next step's reads
    // left in flight at the barrier"): fp6 x fp6 2656 -> 2553 cycles, fp8
    // x fp8 4464 -> 4360, fp6 x fp8 4430 -> 4362, fp8 x fp6 4417 -> 4339.
    // (Every read of step k - 1's stage fed an MFMA before the barrier, so
    // LLVM's own waits retired it already; the count keeps the protocol
    // explicit, and the emulators check it.)
    %wide_reads = arith.muli %lookahead, %intrinsics_k : index
    %c15 = arith.constant 15 : index
    %wide_reads_15 = arith.minui %wide_reads, %c15 : index
    %more_stages = arith.xori %two_stages, %true : i1
    %wide_staged = arith.andi %a_wide, %more_stages : i1
    // With `late` (three stages or more), the late reads after row mid's
    // read of the A scales' ring: rows h + 1 .. m - 1 read step k + 1's
    // rows 1 .. h - 1 (intrinsics_k fragments each, at least one LDS
    // instruction per fragment), from step k + 1's stage, which the copies
    // after the barrier do not write (they go into step k - 1's). The wait
    // leaves them in flight: fp4 x fp6, 16 x 4 x 2, static model, C += A x
    // B, 16384^3, 4517 -> 4329 cycles per two K steps of 256 (the barrier
    // waited 189 cycles for them); fp4 x fp4 on 32x32x64 8 x 2 x 4 (up to 8
    // K steps), timing model, one 256 x 256 tile from memory at 2 K steps
    // 15288 -> 14962 cycles, at 5 23306 -> 23087, no slower at 3 to 8, and
    // from zero at 2 9484 -> 9217, the same at 3 to 8 (bench/README.md,
    // "fp4 x fp6 on 16 x 4 x 2: only A staged").
    %late_rows = arith.subi %h, %c1 : index
    %late_reads = arith.muli %late_rows, %intrinsics_k : index
    %late_reads_15 = arith.minui %late_reads, %c15 : index
    %late_staged = arith.andi %late, %more_stages : i1
    %late_left = arith.select %late_staged, %late_reads_15, %c0 : index
    %reads_left = arith.select %wide_staged, %wide_reads_15, %late_left : index
    // Private B on 16x16x128 with fp4 or fp6 B (the seed's pair; fp4 x fp6
    // at the seed layout: 3242 -> 2407 cycles per two K steps on the static
    // model, 3.68 -> 4.88 PFLOP/s, 0 spills): B's loads after
    // the first two rows (b_rows; one if h = 1), and the scales' after row 1
    // (at most mid, before the copies), interleaved with the rows' MFMAs
    // (`early`). Elsewhere (fp8 B, 32x32x64) that placement measured slower
    // on the static model (seed shape, zero-filled accumulators, bf16:
    // fp4 x fp8 4262 -> 4295 cycles per iteration, 32x32x64 fp4 x fp4
    // 2365 -> 2848), so they keep B's loads spread over the first half
    // (after row f mod h) and the scales in row mid. With four rows or
    // fewer (a 64-row tile: the sorted MoE form's 64 x 512, where a step is
    // 1,024 MFMA cycles, half the seed's) all of B's loads go in row 0, one
    // per MFMA, a row earlier: static model 2942 -> 2701 cycles per two K
    // steps from zero (bf16), 2936 -> 2701 from memory, timing model 2955
    // -> 2706 and 2936 -> 2701, never slower at any assumed constant x0.5 or
    // x2 on either model (bench/README.md, "moe_metrics.py"). So do wide A
    // (fp6, fp8) with fp4 B on up to eight rows (the 8 x 8 tile of the
    // configuration table's fp6/fp8 x fp4 entries): static model, C += A x
    // B, per K step of 128, fp6 x fp4 1476 -> 1438 cycles, fp8 x fp4 2285
    // -> 2277, no slower under the whole sweep on either model
    // (bench/ab_sweep.py). Not elsewhere on eight rows: fp4 x fp4 ran 1.4%
    // slower, fp4 x fp6 2.6% slower at GlobalLatency x0.5, fp8 x fp6 0.08%
    // slower at LDSLatency x2. On 32x32x64, fp6 A (wide, at the fp4/fp6
    // rate) with fp4 or fp6 B takes `early` too: its step is 1,024 MFMA
    // cycles, and B's loads spread over the first half waited for global
    // latency (timing model: the MFMA pipe 51% busy, 31,853 cycles of vmcnt
    // waits per wave of the timed tile). 8 x 2 x 2, 16384^3, C += A x B:
    // fp6 x fp6 1828 -> 1587 cycles per K step of 128 static, 3.47 -> 3.99
    // PF/s timing; from zero (bf16) 2380 -> 2209 (bench/README.md,
    // "32x32x64 fp6 A: B's loads early"). Not fp8 A (2,048 cycles a step):
    // from memory it changed nothing, from zero fp8 x fp6 ran slower (2304
    // -> 2427 cycles). Nor fp4 A on 32x32x64 with four intrinsics along K
    // (2,048 cycles a step: fp4 x fp4 above), but with two (1,024 cycles,
    // the resolver's 8 x 2 x 2 for fp4 x fp6): 16384^3, C += A x B, fp4 x
    // fp6 1720 -> 1405 cycles per K step of 128 static, from zero (bf16)
    // 1733 -> 1493; from memory faster at every assumed constant x0.5 and
    // x2 on both models, from zero at all but GlobalLatency x0.5 (0.5%
    // slower, static) (bench/README.md, "32x32x64 fp4 A with fp6 or fp8
    // B").
    %acc_values = memref.dim %accs, %c2 : memref<?x?x?xf32, 5>
    %b_not_fp8 = arith.cmpi ult, %lane_bytes_b, %c32 : index
    %acc_4 = arith.cmpi eq, %acc_values, %c4 : index
    %a_fp6 = arith.cmpi eq, %lane_bytes_a, %c24 : index
    %wide_fp6 = arith.andi %a_wide, %a_fp6 : i1
    %two_k = arith.cmpi eq, %intrinsics_k, %c2 : index
    %fp4_two_k = arith.andi %a_narrow, %two_k : i1
    %step_1024 = arith.ori %wide_fp6, %fp4_two_k : i1
    %acc_4_or_short = arith.ori %acc_4, %step_1024 : i1
    %early_pair = arith.andi %b_not_fp8, %acc_4_or_short : i1
    %early = arith.andi %b_private, %early_pair : i1
    %c8_rows = arith.constant 8 : index
    %rows_le_4 = arith.cmpi ule, %intrinsics_m, %c4 : index
    %rows_le_8 = arith.cmpi ule, %intrinsics_m, %c8_rows : index
    %b_fp4 = arith.cmpi eq, %lane_bytes_b, %c16 : index
    %wide_fp4_b = arith.andi %a_wide, %b_fp4 : i1
    %wide_rows_8 = arith.andi %wide_fp4_b, %rows_le_8 : i1
    %few_rows = arith.ori %rows_le_4, %wide_rows_8 : i1
    %b_rows_2 = arith.minui %h, %c2 : index
    %b_rows_early = arith.select %few_rows, %c1, %b_rows_2 : index
    %b_rows = arith.select %early, %b_rows_early, %h : index
    %mid_1 = arith.minui %mid, %c1 : index
    %scale_row = arith.select %early, %mid_1, %mid : index
    %ahead_32 = arith.index_castui %ahead : index to i32
    %k_last_32 = arith.index_castui %k_last : index to i32
    scf.for %k = %c0 to %k_last step %c1 {
      %k1 = arith.addi %k, %c1 : index
      // The last iterations copy the last step again (harmless: into the
      // stage of a step no longer read) instead of branching. From zero the
      // clamp is in 32 bits (one s_min_u32; in 64 bits it is a VALU compare
      // and a select at the loop's head). From memory it stays in 64: in 32
      // LLVM chained the seed kernel's accumulators (4288 -> 4465 cycles per
      // iteration on the static model).
      %k2_wide = affine.min affine_map<(k)[a, n] -> (k + a, n - 1)>(%k)[%ahead, %k_tiles]
      %k_32 = arith.index_castui %k : index to i32
      %k2_sum_32 = arith.addi %k_32, %ahead_32 : i32
      %k2_min_32 = arith.minui %k2_sum_32, %k_last_32 : i32
      %k2_32 = arith.index_castui %k2_min_32 : i32 to index
      %k2 = arith.select %from_memory, %k2_wide, %k2_32 : index
      %rhs_k1_v = memref.subview %rhs_flat[%k1, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
      %rhs_k1 = amdgpu.fat_raw_buffer_cast %rhs_k1_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
      %lhs_k2_v = memref.subview %lhs_flat[%k2, 0] [%c1, %row_a] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
      %lhs_k2 = amdgpu.fat_raw_buffer_cast %lhs_k2_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
      %rhs_k2_v = memref.subview %rhs_flat[%k2, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
      %rhs_k2 = amdgpu.fat_raw_buffer_cast %rhs_k2_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
      // Step k + 1 is in LDS for every wave (its copies were issued
      // `ahead - 1` iterations earlier; those of the last `ahead - 2` may
      // still be in flight). The barrier has no fence: with one, LLVM would
      // wait for every copy in flight.
      mx_gfx950.wait_loads %in_flight
      mx_gfx950.wait_lds %reads_left
      rocdl.s.barrier
      // The stages of steps k, k + 1 and k + `ahead`.
      %slot_k = arith.remui %k, %stages : index
      %slot_next = arith.remui %k1, %stages : index
      %k2_slot = arith.addi %k, %ahead : index
      %slot_copy = arith.remui %k2_slot, %stages : index
      %stage_k = arith.muli %slot_k, %stage : index
      %stage_next = arith.muli %slot_next, %stage : index
      %stage_copy = arith.muli %slot_copy, %stage : index
      scf.for %i = %c0 to %intrinsics_m step %c1 {
        // Row 0, which its group barriers (below) keep in program order,
        // runs K-half by K-half (q outer), so that the two MFMAs of an
        // accumulator are intrinsics_n MFMAs apart (otherwise back to back).
        // From memory: 4351 -> 4335 cycles per iteration on the timing
        // model, 4334 -> 4327 on the static model. From zero, the seed tile
        // with a bf16 result, together with the 32-bit clamp of `k2` above:
        // 4372 -> 4328 on the timing model, 4363 -> 4323 on the static
        // model; but not on 32x32x64, where from zero it made LLVM spill 66
        // registers. The other rows run j outer. With `early`, row 1 is kept
        // in program order too (B's loads), so from memory it runs q outer
        // as well (j outer: 4 back-to-back pairs per step, 4315 cycles per
        // iteration on the timing model; q outer: none, 4308). From zero it
        // keeps its accumulators' MFMAs back to back: q outer there (or
        // pairs of j, or staggered) made LLVM move one accumulator out of
        // the AGPRs and chain every pair of the loop through its registers
        // (static model, lds_latency 64: 4351 -> 4493 to 4565).
        %is_row_0 = arith.cmpi eq, %i, %c0 : index
        %is_row_1 = arith.cmpi eq, %i, %c1 : index
        %row_1_early = arith.andi %is_row_1, %early : i1
        %row_1_q = arith.andi %row_1_early, %from_memory : i1
        %row_0_from = arith.ori %from_memory, %acc_4 : i1
        %row_0_q = arith.andi %is_row_0, %row_0_from : i1
        %q_outer = arith.ori %row_0_q, %row_1_q : i1
        %per_row = arith.muli %intrinsics_n, %intrinsics_k : index
        scf.for %t = %c0 to %per_row step %c1 {
            %j_q = affine.apply affine_map<(t)[n] -> (t mod n)>(%t)[%intrinsics_n]
            %q_q = affine.apply affine_map<(t)[n] -> (t floordiv n)>(%t)[%intrinsics_n]
            %j_j = affine.apply affine_map<(t)[k] -> (t floordiv k)>(%t)[%intrinsics_k]
            %q_j = affine.apply affine_map<(t)[k] -> (t mod k)>(%t)[%intrinsics_k]
            %j = arith.select %q_outer, %j_q, %j_j : index
            %q = arith.select %q_outer, %q_q, %q_j : index
            %a = memref.load %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
            %b = memref.load %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
            // Scale byte (i, q) of this lane, read as part of its 4-byte group.
            %sai = affine.apply affine_map<(i, q)[n] -> (i * n + q)>(%i, %q)[%intrinsics_k]
            %sbi = affine.apply affine_map<(j, q)[n] -> (j * n + q)>(%j, %q)[%intrinsics_k]
            %sag = affine.apply affine_map<(x) -> (x floordiv 4)>(%sai)
            %sbg = affine.apply affine_map<(x) -> (x floordiv 4)>(%sbi)
            %sap = affine.apply affine_map<(x) -> (x mod 4)>(%sai)
            %sbp = affine.apply affine_map<(x) -> (x mod 4)>(%sbi)
            %sa32 = memref.load %scales_a[%sag] : memref<?xvector<1xi32>, 5>
            %sb32 = memref.load %scales_b[%sbg] : memref<?xvector<1xi32>, 5>
            %sa8 = vector.bitcast %sa32 : vector<1xi32> to vector<4xi8>
            %sb8 = vector.bitcast %sb32 : vector<1xi32> to vector<4xi8>
            %sav = arith.bitcast %sa8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sbv = arith.bitcast %sb8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sa = vector.extract %sav[%sap] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %sb = vector.extract %sbv[%sbp] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %x = vector.load %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
            %y = amdgpu.scaled_mfma 16x16x128 (%sb[0] * %b) * (%sa[0] * %a) + %x
                : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf8E4M3FN>, vector<4xf32>
            vector.store %y, %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
        } {mx.unroll}
        %upper = arith.cmpi ult, %i, %h : index
        scf.if %upper {
          // Step k + 1's private B fragments, straight into registers:
          // fragment f after row f mod b_rows. With `early` (b_rows = 2,
          // the first two rows) group barriers (below) issue them between
          // the row's MFMAs, each 14 rows or more (about 1,900 cycles) ahead
          // of its use; spread over the whole first half (b_rows = h, the
          // other pairs), the last ones are 8 rows ahead, and on the seed
          // tile the wait at the top of the iteration stalled past ~1,000
          // cycles of global latency (GlobalLatency=2000: 6254 -> 4591
          // cycles per iteration on the timing model with `early`).
          scf.if %b_private {
            scf.for %j = %c0 to %intrinsics_n step %c1 {
              scf.for %q = %c0 to %intrinsics_k step %c1 {
                %row_f = affine.apply affine_map<(j, q)[k, h] -> ((j * k + q) mod h)>(%j, %q)[%intrinsics_k, %b_rows]
                %mine = arith.cmpi eq, %row_f, %i : index
                scf.if %mine {
                  %o = affine.apply affine_map<(u, q, l)[w, n, k, wb] -> ((((w * n + u) * k + q) * 64 + l) * wb)>
                      (%j, %q, %lane)[%wave_n, %intrinsics_n, %intrinsics_k, %lane_bytes_b]
                  %v = func.call @mx_uk_load_rhs(%rhs_k1, %o)
                      : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index) -> vector<32xf4E2M1FN>
                  memref.store %v, %next_frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
                }
              } {mx.unroll}
            } {mx.unroll}
          }
          scf.if %a_first_half {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %o = affine.apply affine_map<(u, q)[b, w, n, k, fa] -> (b + ((w * n + u) * k + q) * fa)>
                (%i, %q)[%stage_next, %wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
            %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
                : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
            memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
          } {mx.unroll}
          }
          %i2 = arith.addi %i, %h : index
          %has_i2_m = arith.cmpi ult, %i2, %intrinsics_m : index
          %has_i2 = arith.andi %has_i2_m, %a_narrow : i1
          scf.if %has_i2 {
            scf.for %q = %c0 to %intrinsics_k step %c1 {
              %o = affine.apply affine_map<(u, q)[b, w, n, k, fa] -> (b + ((w * n + u) * k + q) * fa)>
                  (%i2, %q)[%stage_k, %wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
              %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
                  : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
              memref.store %v, %frag_a[%i2, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
            } {mx.unroll}
          }
        }
        // With `late`, row h + i of the second half: row i of step k + 1
        // (in LDS since the barrier at the top).
        %lower = arith.cmpi uge, %i, %h : index
        %late_row = arith.andi %lower, %late : i1
        scf.if %late_row {
          %i_next = arith.subi %i, %h : index
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %o = affine.apply affine_map<(u, q)[b, w, n, k, fa] -> (b + ((w * n + u) * k + q) * fa)>
                (%i_next, %q)[%stage_next, %wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
            %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
                : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
            memref.store %v, %frag_a[%i_next, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
          } {mx.unroll}
        }
        // Wide A: row i + lookahead's fragments (issued before row i's
        // MFMAs, see the group barriers below): of step k while there is
        // such a row, else of step k + 1 (in LDS since the barrier at the
        // top), for the next iteration's first rows.
        scf.if %a_wide {
          %t = arith.addi %i, %lookahead : index
          %in_step = arith.cmpi ult, %t, %intrinsics_m : index
          %t_next = arith.subi %t, %intrinsics_m : index
          %row = arith.select %in_step, %t, %t_next : index
          %row_stage = arith.select %in_step, %stage_k, %stage_next : index
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %o = affine.apply affine_map<(u, q)[b, w, n, k, fa] -> (b + ((w * n + u) * k + q) * fa)>
                (%row, %q)[%row_stage, %wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
            %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
                : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
            memref.store %v, %frag_a[%row, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
          } {mx.unroll}
        }
        %at_copy = arith.cmpi eq, %i, %mid : index
        scf.if %at_copy {
          // Nobody reads the stage of step k + `ahead` any more (two stages:
          // once the waves meet here); the copies of that step follow.
          scf.if %two_stages {
            amdgpu.lds_barrier
          }
        }
        %at_scales = arith.cmpi eq, %i, %scale_row : index
        scf.if %at_scales {
          // Step k + 1's scales into registers (issued before the copies, so
          // that the wait at the top of the next iteration covers them).
          // With private B, after row 1 with B's second half (between its
          // MFMAs), a whole step ahead like B; otherwise late (row mid), so
          // that their registers are free for half the step.
          // A's: step k + 2's copied into their LDS ring (step k + 1's are
          // read from it in row mid, below), or step k + 1's loaded from
          // global memory.
          scf.if %a_scales_lds {
            %k2_sa = affine.min affine_map<(k)[n] -> (k + 2, n - 1)>(%k)[%k_tiles]
            %slot_copy_sa = arith.remui %k, %c2 : index
            %sa_src_v = memref.subview %lhs_scales_flat[%k2_sa, 0] [%c1, %sa_step] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
            %sa_src = amdgpu.fat_raw_buffer_cast %sa_src_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
            scf.for %r = %c0 to %sa_rounds step %c1 {
              %c = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
              %o = affine.apply affine_map<(c, t)[g, g4] -> ((((c floordiv g) * 64 + (c * 16 + t floordiv 4) mod 64) * g + ((c floordiv 4) mod g4) * 4 + t mod 4) * 4)>
                  (%c, %lane)[%groups_a, %sa_chunks]
              %d = affine.apply affine_map<(c)[b, s, z] -> (b + s * z + c * 256)>(%c)[%lds_rest, %slot_copy_sa, %sa_step]
              amdgpu.gather_to_lds %sa_src[%c0, %o], %lds[%d]
                  : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<?xi8, #gpu.address_space<workgroup>>
            } {mx.unroll}
            scf.if %has_sa_rest {
              %c = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%sa_rounds, %waves]
              %o = affine.apply affine_map<(c, t)[g, g4] -> ((((c floordiv g) * 64 + (c * 16 + t floordiv 4) mod 64) * g + ((c floordiv 4) mod g4) * 4 + t mod 4) * 4)>
                  (%c, %lane)[%groups_a, %sa_chunks]
              %d = affine.apply affine_map<(c)[b, s, z] -> (b + s * z + c * 256)>(%c)[%lds_rest, %slot_copy_sa, %sa_step]
              amdgpu.gather_to_lds %sa_src[%c0, %o], %lds[%d]
                  : vector<4xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<?xi8, #gpu.address_space<workgroup>>
            }
          } else {
            scf.for %g = %c0 to %groups_a step %c1 {
              %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
              %v = vector.load %lhs_scales[%k1, %wave_m, %lane, %o]
                  : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
              %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
              memref.store %w, %next_scales_a[%g] : memref<?xvector<1xi32>, 5>
            } {mx.unroll}
          }
          scf.for %g = %c0 to %groups_b step %c1 {
            %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
            %v = vector.load %rhs_scales[%k1, %wave_n, %lane, %o]
                : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
            %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
            memref.store %w, %next_scales_b[%g] : memref<?xvector<1xi32>, 5>
          } {mx.unroll}
        }
        // Step k + 1's A scales from their LDS ring, in row mid (the second
        // half reads no other LDS: these reads do not hold up the lgkmcnt
        // waits of the first half's fragment reads).
        %at_mid = arith.cmpi eq, %i, %mid : index
        %sa_read = arith.andi %at_mid, %a_scales_lds : i1
        scf.if %sa_read {
          %slot_sa = arith.remui %k1, %c2 : index
          scf.for %t = %c0 to %sa_chunks step %c1 {
            %o = affine.apply affine_map<(t, l)[b, s, z, w, g4] -> (b + s * z + ((w * g4 + t) * 64 + l) * 16)>
                (%t, %lane)[%lds_rest, %slot_sa, %sa_step, %wave_m_u, %sa_chunks]
            %v = vector.load %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
            %v4 = vector.bitcast %v : vector<16xi8> to vector<4xi32>
            scf.for %u = %c0 to %c4 step %c1 {
              %e = vector.extract %v4[%u] : i32 from vector<4xi32>
              %w = vector.broadcast %e : i32 to vector<1xi32>
              %g = affine.apply affine_map<(t, u) -> (t * 4 + u)>(%t, %u)
              memref.store %w, %next_scales_a[%g] : memref<?xvector<1xi32>, 5>
            } {mx.unroll}
          } {mx.unroll}
        }
        // A's copies of step k + `ahead`, from the middle on: copy r after
        // row mid + r mod span. With three or four stages they go into a
        // stage nobody reads in this iteration and spread over the rows of
        // the second half (span = m - mid), which read no LDS: their LDS
        // writes do not meet the reads, and their M0 writes fall between
        // MFMAs. With two, all after row mid (span = 1), behind its barrier.
        %second = arith.cmpi uge, %i, %copy_mid : index
        scf.if %second {
          scf.for %r = %c0 to %rounds_a step %c1 {
            %row_r = affine.apply affine_map<(r)[h, s] -> (h + r mod s)>(%r)[%copy_mid, %copy_span]
            %mine_r = arith.cmpi eq, %row_r, %i : index
            scf.if %mine_r {
              %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
              %d = affine.apply affine_map<(f)[b, fa] -> (b + f * fa)>(%f)[%stage_copy, %frag_lds_a]
              func.call @mx_uk_copy_lhs(%lhs_k2, %c0, %f, %lds, %d, %lane)
                  : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
            }
          } {mx.unroll}
          %rest_row = affine.apply affine_map<()[r, h, s] -> (h + r mod s)>()[%rounds_a, %copy_mid, %copy_span]
          %at_rest_row = arith.cmpi eq, %rest_row, %i : index
          %mine_rest = arith.andi %at_rest_row, %has_rest_a : i1
          scf.if %mine_rest {
            %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_a, %waves]
            %d = affine.apply affine_map<(f)[b, fa] -> (b + f * fa)>(%f)[%stage_copy, %frag_lds_a]
            func.call @mx_uk_copy_lhs(%lhs_k2, %c0, %f, %lds, %d, %lane)
                : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
          }
        }
        // B's copies (staged only with two stages), after A's.
        scf.if %at_copy {
          scf.for %r = %c0 to %rounds_b step %c1 {
            %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
            %d = affine.apply affine_map<(f)[b, a, fb] -> (b + a + f * fb)>(%f)[%stage_copy, %stage_a, %frag_lds_b]
            func.call @mx_uk_copy_rhs(%rhs_k2, %c0, %f, %lds, %d, %lane)
                : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
          } {mx.unroll}
          scf.if %has_rest_b {
            %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_b, %waves]
            %d = affine.apply affine_map<(f)[b, a, fb] -> (b + a + f * fb)>(%f)[%stage_copy, %stage_a, %frag_lds_b]
            func.call @mx_uk_copy_rhs(%rhs_k2, %c0, %f, %lds, %d, %lane)
                : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
          }
        }
        // Row 0: the step's scalar and vector address arithmetic between its
        // MFMAs, not in front of them.
        // With `early` (private fp4 or fp6 B on 16x16x128), rows 0 and 1 also
        // interleave B's loads (and the scales') with their MFMAs, one per
        // MFMA (the seed tile: 4335 -> 4315 cycles per iteration at the
        // baseline constants, where all of them after row 0 without the
        // interleave cost 4375).
        %first_row = arith.cmpi eq, %i, %c0 : index
        %second_row = arith.cmpi eq, %i, %c1 : index
        %b_loads_row = arith.andi %second_row, %early : i1
        // Wide A: the row's LDS reads (of the next row, 2 per fragment)
        // before its first MFMA, so that they have the whole row to land
        // (after the first MFMA: fp8 x fp4, 16384^3, 3516 cycles per
        // step; before it: 2684).
        %grouped = arith.ori %first_row, %b_loads_row : i1
        %plain_row = arith.xori %grouped, %true : i1
        %wide_plain = arith.andi %a_wide, %plain_row : i1
        scf.for %t = %c0 to %per_row step %c1 {
          %lead = arith.cmpi eq, %t, %c0 : index
          %reads_here = arith.andi %lead, %a_wide : i1
          scf.if %reads_here {
            %reads = arith.muli %intrinsics_k, %c2 : index
            scf.for %r = %c0 to %reads step %c1 {
              rocdl.sched.group.barrier 256, 1, 0
            } {mx.unroll}
          }
          scf.if %first_row {
            rocdl.sched.group.barrier 6, 3, 0
            scf.if %early {
              rocdl.sched.group.barrier 32, 1, 0
            }
          }
          scf.if %b_loads_row {
            rocdl.sched.group.barrier 32, 1, 0
          }
          %wide_or_grouped = arith.ori %grouped, %wide_plain : i1
          scf.if %wide_or_grouped {
            rocdl.sched.group.barrier 8, 1, 0
          }
        } {mx.unroll}
        amdgpu.sched_barrier allow = <none>
      } {mx.unroll}
      // Step k + 1's B fragments become the current ones: loaded at the
      // top, or read from LDS once the last row is done (the wait LLVM puts
      // before them for the copies above falls half an iteration after the
      // copies).
      scf.if %b_private {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %v = memref.load %next_frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
            memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
          } {mx.unroll}
        } {mx.unroll}
      } else {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %o = affine.apply affine_map<(u, q)[b, a, w, n, k, fb] -> (b + a + ((w * n + u) * k + q) * fb)>
                (%j, %q)[%stage_next, %stage_a, %wave_n_u, %intrinsics_n, %intrinsics_k, %frag_lds_b]
            %v = func.call @mx_uk_read_rhs(%lds, %o, %lane)
                : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf4E2M1FN>
            memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
          } {mx.unroll}
        } {mx.unroll}
      }
      scf.for %g = %c0 to %groups_a step %c1 {
        %v = memref.load %next_scales_a[%g] : memref<?xvector<1xi32>, 5>
        memref.store %v, %scales_a[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.for %g = %c0 to %groups_b step %c1 {
        %v = memref.load %next_scales_b[%g] : memref<?xvector<1xi32>, 5>
        memref.store %v, %scales_b[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
    } {mx.unroll_k, llvm.loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
    // The last K step: its second half's A fragments, then its MFMAs; then
    // no copy may still be writing LDS when the workgroup ends.
    scf.if %any {
      %slot_last = arith.remui %k_last, %stages : index
      %stage_last = arith.muli %slot_last, %stage : index
      scf.for %i = %held to %intrinsics_m step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %o = affine.apply affine_map<(u, q)[b, w, n, k, fa] -> (b + ((w * n + u) * k + q) * fa)>
              (%i, %q)[%stage_last, %wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
          %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
              : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
          memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
        } {mx.unroll}
      } {mx.unroll}
      scf.for %i = %c0 to %intrinsics_m step %c1 {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %a = memref.load %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
            %b = memref.load %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
            // Scale byte (i, q) of this lane, read as part of its 4-byte group.
            %sai = affine.apply affine_map<(i, q)[n] -> (i * n + q)>(%i, %q)[%intrinsics_k]
            %sbi = affine.apply affine_map<(j, q)[n] -> (j * n + q)>(%j, %q)[%intrinsics_k]
            %sag = affine.apply affine_map<(x) -> (x floordiv 4)>(%sai)
            %sbg = affine.apply affine_map<(x) -> (x floordiv 4)>(%sbi)
            %sap = affine.apply affine_map<(x) -> (x mod 4)>(%sai)
            %sbp = affine.apply affine_map<(x) -> (x mod 4)>(%sbi)
            %sa32 = memref.load %scales_a[%sag] : memref<?xvector<1xi32>, 5>
            %sb32 = memref.load %scales_b[%sbg] : memref<?xvector<1xi32>, 5>
            %sa8 = vector.bitcast %sa32 : vector<1xi32> to vector<4xi8>
            %sb8 = vector.bitcast %sb32 : vector<1xi32> to vector<4xi8>
            %sav = arith.bitcast %sa8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sbv = arith.bitcast %sb8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sa = vector.extract %sav[%sap] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %sb = vector.extract %sbv[%sbp] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %x = vector.load %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
            %y = amdgpu.scaled_mfma 16x16x128 (%sb[0] * %b) * (%sa[0] * %a) + %x
                : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf8E4M3FN>, vector<4xf32>
            vector.store %y, %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
          } {mx.unroll}
        } {mx.unroll}
      } {mx.unroll}
    }
    amdgpu.memory_counter_wait load(0)
  } else {
    // Prologue: K step 0 into stage 0, its scales into registers.
    scf.if %any {
      scf.for %g = %c0 to %groups_a step %c1 {
        %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
        %v = vector.load %lhs_scales[%c0, %wave_m, %lane, %o]
            : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
        %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
        memref.store %w, %scales_a[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.for %g = %c0 to %groups_b step %c1 {
        %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
        %v = vector.load %rhs_scales[%c0, %wave_n, %lane, %o]
            : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
        %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
        memref.store %w, %scales_b[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.for %r = %c0 to %rounds_a step %c1 {
        %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
        %d = arith.muli %f, %frag_lds_a : index
        func.call @mx_uk_copy_lhs(%lhs_0, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      } {mx.unroll}
      scf.if %has_rest_a {
        %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_a, %waves]
        %d = arith.muli %f, %frag_lds_a : index
        func.call @mx_uk_copy_lhs(%lhs_0, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      }
      scf.for %r = %c0 to %rounds_b step %c1 {
        %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
        %d = affine.apply affine_map<(f)[a, fb] -> (a + f * fb)>(%f)[%stage_a, %frag_lds_b]
        func.call @mx_uk_copy_rhs(%rhs_0, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      } {mx.unroll}
      scf.if %has_rest_b {
        %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_b, %waves]
        %d = affine.apply affine_map<(f)[a, fb] -> (a + f * fb)>(%f)[%stage_a, %frag_lds_b]
        func.call @mx_uk_copy_rhs(%rhs_0, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      }
    }
    amdgpu.memory_counter_wait load(0)
    amdgpu.lds_barrier

    // All K steps but the last: each also copies the next one.
    scf.for %k = %c0 to %k_last step %c1 {
      %stage_k = affine.apply affine_map<(k)[s] -> ((k mod 2) * s)>(%k)[%stage]
      %stage_next = affine.apply affine_map<(k)[s] -> (((k + 1) mod 2) * s)>(%k)[%stage]
      // This wave's fragments of step k, from LDS.
      scf.for %i = %c0 to %intrinsics_m step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %o = affine.apply affine_map<(u, q)[b, w, n, k, fa] -> (b + ((w * n + u) * k + q) * fa)>
              (%i, %q)[%stage_k, %wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
          %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
              : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
          memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
        } {mx.unroll}
      } {mx.unroll}
      scf.for %j = %c0 to %intrinsics_n step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %o = affine.apply affine_map<(u, q)[b, a, w, n, k, fb] -> (b + a + ((w * n + u) * k + q) * fb)>
              (%j, %q)[%stage_k, %stage_a, %wave_n_u, %intrinsics_n, %intrinsics_k, %frag_lds_b]
          %v = func.call @mx_uk_read_rhs(%lds, %o, %lane)
              : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf4E2M1FN>
          memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
        } {mx.unroll}
      } {mx.unroll}

      // Step k + 1 (no LDS reads after this point): scales into registers,
      // fragments into the other stage.
      %k1 = arith.addi %k, %c1 : index
      %lhs_k1_v = memref.subview %lhs_flat[%k1, 0] [%c1, %row_a] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
      %lhs_k1 = amdgpu.fat_raw_buffer_cast %lhs_k1_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
      %rhs_k1_v = memref.subview %rhs_flat[%k1, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
      %rhs_k1 = amdgpu.fat_raw_buffer_cast %rhs_k1_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
      scf.for %g = %c0 to %groups_a step %c1 {
        %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
        %v = vector.load %lhs_scales[%k1, %wave_m, %lane, %o]
            : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
        %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
        memref.store %w, %next_scales_a[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.for %g = %c0 to %groups_b step %c1 {
        %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
        %v = vector.load %rhs_scales[%k1, %wave_n, %lane, %o]
            : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
        %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
        memref.store %w, %next_scales_b[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.for %r = %c0 to %rounds_a step %c1 {
        %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
        %d = affine.apply affine_map<(f)[b, fa] -> (b + f * fa)>(%f)[%stage_next, %frag_lds_a]
        func.call @mx_uk_copy_lhs(%lhs_k1, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      } {mx.unroll}
      scf.if %has_rest_a {
        %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_a, %waves]
        %d = affine.apply affine_map<(f)[b, fa] -> (b + f * fa)>(%f)[%stage_next, %frag_lds_a]
        func.call @mx_uk_copy_lhs(%lhs_k1, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      }
      scf.for %r = %c0 to %rounds_b step %c1 {
        %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
        %d = affine.apply affine_map<(f)[b, a, fb] -> (b + a + f * fb)>(%f)[%stage_next, %stage_a, %frag_lds_b]
        func.call @mx_uk_copy_rhs(%rhs_k1, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      } {mx.unroll}
      scf.if %has_rest_b {
        %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_b, %waves]
        %d = affine.apply affine_map<(f)[b, a, fb] -> (b + a + f * fb)>(%f)[%stage_next, %stage_a, %frag_lds_b]
        func.call @mx_uk_copy_rhs(%rhs_k1, %c0, %f, %lds, %d, %lane)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> ()
      }

      // The MFMAs of step k.
      scf.for %i = %c0 to %intrinsics_m step %c1 {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %a = memref.load %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
            %b = memref.load %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
            // Scale byte (i, q) of this lane, read as part of its 4-byte group.
            %sai = affine.apply affine_map<(i, q)[n] -> (i * n + q)>(%i, %q)[%intrinsics_k]
            %sbi = affine.apply affine_map<(j, q)[n] -> (j * n + q)>(%j, %q)[%intrinsics_k]
            %sag = affine.apply affine_map<(x) -> (x floordiv 4)>(%sai)
            %sbg = affine.apply affine_map<(x) -> (x floordiv 4)>(%sbi)
            %sap = affine.apply affine_map<(x) -> (x mod 4)>(%sai)
            %sbp = affine.apply affine_map<(x) -> (x mod 4)>(%sbi)
            %sa32 = memref.load %scales_a[%sag] : memref<?xvector<1xi32>, 5>
            %sb32 = memref.load %scales_b[%sbg] : memref<?xvector<1xi32>, 5>
            %sa8 = vector.bitcast %sa32 : vector<1xi32> to vector<4xi8>
            %sb8 = vector.bitcast %sb32 : vector<1xi32> to vector<4xi8>
            %sav = arith.bitcast %sa8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sbv = arith.bitcast %sb8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sa = vector.extract %sav[%sap] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %sb = vector.extract %sbv[%sbp] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %x = vector.load %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
            %y = amdgpu.scaled_mfma 16x16x128 (%sb[0] * %b) * (%sa[0] * %a) + %x
                : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf8E4M3FN>, vector<4xf32>
            vector.store %y, %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
          } {mx.unroll}
        } {mx.unroll}
      } {mx.unroll}

      // Step k + 1's scales become the current ones.
      scf.for %g = %c0 to %groups_a step %c1 {
        %v = memref.load %next_scales_a[%g] : memref<?xvector<1xi32>, 5>
        memref.store %v, %scales_a[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      scf.for %g = %c0 to %groups_b step %c1 {
        %v = memref.load %next_scales_b[%g] : memref<?xvector<1xi32>, 5>
        memref.store %v, %scales_b[%g] : memref<?xvector<1xi32>, 5>
      } {mx.unroll}
      // This wave's copies are done; after the barrier everybody's are, and
      // stage k mod 2 is free. The scheduling barrier keeps the wait behind
      // the MFMAs, which hide the copies' latency.
      amdgpu.sched_barrier allow = <none>
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
    }
    // The last K step: no more copies.
    scf.if %any {
      %stage_k = affine.apply affine_map<(k)[s] -> ((k mod 2) * s)>(%k_last)[%stage]
      scf.for %i = %c0 to %intrinsics_m step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %o = affine.apply affine_map<(u, q)[b, w, n, k, fa] -> (b + ((w * n + u) * k + q) * fa)>
              (%i, %q)[%stage_k, %wave_m_u, %intrinsics_m, %intrinsics_k, %frag_lds_a]
          %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
              : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
          memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
        } {mx.unroll}
      } {mx.unroll}
      scf.for %j = %c0 to %intrinsics_n step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %o = affine.apply affine_map<(u, q)[b, a, w, n, k, fb] -> (b + a + ((w * n + u) * k + q) * fb)>
              (%j, %q)[%stage_k, %stage_a, %wave_n_u, %intrinsics_n, %intrinsics_k, %frag_lds_b]
          %v = func.call @mx_uk_read_rhs(%lds, %o, %lane)
              : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf4E2M1FN>
          memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
        } {mx.unroll}
      } {mx.unroll}
      scf.for %i = %c0 to %intrinsics_m step %c1 {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %a = memref.load %frag_a[%i, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
            %b = memref.load %frag_b[%j, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
            // Scale byte (i, q) of this lane, read as part of its 4-byte group.
            %sai = affine.apply affine_map<(i, q)[n] -> (i * n + q)>(%i, %q)[%intrinsics_k]
            %sbi = affine.apply affine_map<(j, q)[n] -> (j * n + q)>(%j, %q)[%intrinsics_k]
            %sag = affine.apply affine_map<(x) -> (x floordiv 4)>(%sai)
            %sbg = affine.apply affine_map<(x) -> (x floordiv 4)>(%sbi)
            %sap = affine.apply affine_map<(x) -> (x mod 4)>(%sai)
            %sbp = affine.apply affine_map<(x) -> (x mod 4)>(%sbi)
            %sa32 = memref.load %scales_a[%sag] : memref<?xvector<1xi32>, 5>
            %sb32 = memref.load %scales_b[%sbg] : memref<?xvector<1xi32>, 5>
            %sa8 = vector.bitcast %sa32 : vector<1xi32> to vector<4xi8>
            %sb8 = vector.bitcast %sb32 : vector<1xi32> to vector<4xi8>
            %sav = arith.bitcast %sa8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sbv = arith.bitcast %sb8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sa = vector.extract %sav[%sap] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %sb = vector.extract %sbv[%sbp] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %x = vector.load %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
            %y = amdgpu.scaled_mfma 16x16x128 (%sb[0] * %b) * (%sa[0] * %a) + %x
                : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf8E4M3FN>, vector<4xf32>
            vector.store %y, %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
          } {mx.unroll}
        } {mx.unroll}
      } {mx.unroll}
    }
  }
  return
}

// Operand hooks, with the reference instance's types. Binding the types
// implements each with the storage class of its operand's element type.
//   copy: fragment `f` of K step `k` of the tile (one row of bytes per K
//         step) into LDS at byte `dst`, chunk by chunk;
//   read: this lane's 32 values of the fragment at LDS byte `base`, as the
//         MFMA operand.
func.func private @mx_uk_copy_lhs(memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index)
func.func private @mx_uk_copy_rhs(memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index, index, memref<?xi8, #gpu.address_space<workgroup>>, index, index)
func.func private @mx_uk_read_lhs(memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf8E4M3FN>
func.func private @mx_uk_read_rhs(memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf4E2M1FN>
func.func private @mx_uk_load_rhs(memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index) -> vector<32xf4E2M1FN>

// fp4: one 16-byte chunk per lane (values k = 32 g + t, two per byte, the
// lower K in the low nibble).
// CHECK-LABEL: func.func private @mx_uk_copy_f4
//       CHECK:   amdgpu.gather_to_lds {{.+}} : vector<16xi8>
func.func private @mx_uk_copy_f4(%src: memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>,
    %k: index, %f: index, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %dst: index, %lane: index) {
  %o = affine.apply affine_map<(f, l) -> (f * 1024 + l * 16)>(%f, %lane)
  amdgpu.gather_to_lds %src[%k, %o], %lds[%dst]
      : vector<16xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<?xi8, #gpu.address_space<workgroup>>
  return
}
// CHECK-LABEL: func.func private @mx_uk_read_f4
func.func private @mx_uk_read_f4(%lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %base: index, %lane: index) -> vector<32xf4E2M1FN> {
  %o = affine.apply affine_map<(l)[b] -> (b + l * 16)>(%lane)[%base]
  %v = vector.load %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
  %n = vector.bitcast %v : vector<16xi8> to vector<32xi4>
  %x = arith.bitcast %n : vector<32xi4> to vector<32xf4E2M1FN>
  return %x : vector<32xf4E2M1FN>
}

// CHECK-LABEL: func.func private @mx_uk_load_f4
func.func private @mx_uk_load_f4(%src: memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>,
    %o: index) -> vector<32xf4E2M1FN> {
  %c0 = arith.constant 0 : index
  %v = vector.load %src[%c0, %o] {alignment = 16 : i64} : memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
  %n = vector.bitcast %v : vector<16xi8> to vector<32xi4>
  %x = arith.bitcast %n : vector<32xi4> to vector<32xf4E2M1FN>
  return %x : vector<32xf4E2M1FN>
}

// fp6: 24 bytes per lane (values k = 32 g + t densely packed, value t in
// bits 6t..6t+5), copied as two 16-byte chunks that overlap: the lane's
// bytes 0-15 and 8-23. The read takes bytes 0-15 from the first and 16-23
// from the second (ds_read_b128 + ds_read_b64, both aligned), so the six
// registers of the operand come out contiguous and even-aligned, as the MFMA
// needs them (two 12-byte reads would put the second half at an odd
// register and cost copies). The halves are joined as 32-bit words (here
// and for fp8): a fragment joined as bytes that lives across the K loop's
// back edge stays a byte vector in LLVM, legalized byte by byte.
// A sched_barrier that lets every instruction cross (so it does not bind the
// scheduler) ends each read: LLVM's load/store optimizer, which runs before
// the scheduler, does not merge across it, and it merged the 8-byte halves
// of two fragments into one ds_read2st64_b64 whose four registers hold parts
// of two operands. A fragment carried across the K loop's back edge then
// cost two register copies at the end of each iteration, after a wait for
// the reads just issued: on the 32x32x64 8 x 2 x 2 tile, read a step ahead,
// 16 copies and 368 idle MFMA cycles per step (fp6 x fp6, C += A x B: 1583
// -> 1495 cycles per K step of 128 on the static model; bench/README.md,
// "32x32x64 fp6 A: no merged reads").
// CHECK-LABEL: func.func private @mx_uk_copy_f6
//       CHECK:   amdgpu.gather_to_lds {{.+}} : vector<16xi8>
func.func private @mx_uk_copy_f6(%src: memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>,
    %k: index, %f: index, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %dst: index, %lane: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %h = %c0 to %c2 step %c1 {
    %o = affine.apply affine_map<(f, l, h) -> (f * 1536 + l * 24 + h * 8)>(%f, %lane, %h)
    %d = affine.apply affine_map<(h)[b] -> (b + h * 1024)>(%h)[%dst]
    amdgpu.gather_to_lds %src[%k, %o], %lds[%d]
        : vector<16xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<?xi8, #gpu.address_space<workgroup>>
  } {mx.unroll}
  return
}
// CHECK-LABEL: func.func private @mx_uk_read_f6
func.func private @mx_uk_read_f6(%lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %base: index, %lane: index) -> vector<32xf6E2M3FN> {
  %o0 = affine.apply affine_map<(l)[b] -> (b + l * 16)>(%lane)[%base]
  %o1 = affine.apply affine_map<(l)[b] -> (b + 1024 + l * 16 + 8)>(%lane)[%base]
  %lo8 = vector.load %lds[%o0] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
  %hi8 = vector.load %lds[%o1] {alignment = 8 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<8xi8>
  amdgpu.sched_barrier allow = <non_mem_non_sideffect|valu|salu|mfma_wmma|all_vmem|vmem_read|vmem_write|all_ds|ds_read|ds_write|transcendental>
  %lo = vector.bitcast %lo8 : vector<16xi8> to vector<4xi32>
  %hi = vector.bitcast %hi8 : vector<8xi8> to vector<2xi32>
  %v = vector.shuffle %lo, %hi [0, 1, 2, 3, 4, 5] : vector<4xi32>, vector<2xi32>
  %n = vector.bitcast %v : vector<6xi32> to vector<32xi6>
  %x = arith.bitcast %n : vector<32xi6> to vector<32xf6E2M3FN>
  return %x : vector<32xf6E2M3FN>
}

// CHECK-LABEL: func.func private @mx_uk_load_f6
func.func private @mx_uk_load_f6(%src: memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>,
    %o: index) -> vector<32xf6E2M3FN> {
  %c0 = arith.constant 0 : index
  %v = vector.load %src[%c0, %o] {alignment = 8 : i64} : memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<24xi8>
  %n = vector.bitcast %v : vector<24xi8> to vector<32xi6>
  %x = arith.bitcast %n : vector<32xi6> to vector<32xf6E2M3FN>
  return %x : vector<32xf6E2M3FN>
}

// fp8: 32 bytes per lane, its two 16-value K chunks (lane group g holds
// k = 16 g + u, then k = K/2 + 16 g + u, of each intrinsic's K), copied and
// read as two 16-byte chunks.
// CHECK-LABEL: func.func private @mx_uk_copy_f8
//       CHECK:   amdgpu.gather_to_lds {{.+}} : vector<16xi8>
func.func private @mx_uk_copy_f8(%src: memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>,
    %k: index, %f: index, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %dst: index, %lane: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %h = %c0 to %c2 step %c1 {
    %o = affine.apply affine_map<(f, l, h) -> (f * 2048 + l * 32 + h * 16)>(%f, %lane, %h)
    %d = affine.apply affine_map<(h)[b] -> (b + h * 1024)>(%h)[%dst]
    amdgpu.gather_to_lds %src[%k, %o], %lds[%d]
        : vector<16xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<?xi8, #gpu.address_space<workgroup>>
  } {mx.unroll}
  return
}
// CHECK-LABEL: func.func private @mx_uk_read_f8
func.func private @mx_uk_read_f8(%lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %base: index, %lane: index) -> vector<32xf8E4M3FN> {
  %o0 = affine.apply affine_map<(l)[b] -> (b + l * 16)>(%lane)[%base]
  %o1 = affine.apply affine_map<(l)[b] -> (b + 1024 + l * 16)>(%lane)[%base]
  %lo8 = vector.load %lds[%o0] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
  %hi8 = vector.load %lds[%o1] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
  %lo = vector.bitcast %lo8 : vector<16xi8> to vector<4xi32>
  %hi = vector.bitcast %hi8 : vector<16xi8> to vector<4xi32>
  %w = vector.shuffle %lo, %hi [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi32>, vector<4xi32>
  %v = vector.bitcast %w : vector<8xi32> to vector<32xi8>
  %x = arith.bitcast %v : vector<32xi8> to vector<32xf8E4M3FN>
  return %x : vector<32xf8E4M3FN>
}
// CHECK-LABEL: func.func private @mx_uk_load_f8
func.func private @mx_uk_load_f8(%src: memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>,
    %o: index) -> vector<32xf8E4M3FN> {
  %c0 = arith.constant 0 : index
  %v = vector.load %src[%c0, %o] {alignment = 16 : i64} : memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<32xi8>
  %x = arith.bitcast %v : vector<32xi8> to vector<32xf8E4M3FN>
  return %x : vector<32xf8E4M3FN>
}
