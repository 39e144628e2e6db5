// RUN: mx-opt %s | mx-opt | FileCheck %s

// The scaled MMA ukernel of gfx950 that quantizes its A tiles itself: A
// comes unquantized (bf16; the instantiation also takes f16 and f32) and
// the workgroup turns each K step's A blocks into fp4 codes and E8M0 scales
// in registers, so that a small-M GEMM from an activation needs no quantize
// dispatch and the quantized activation never reaches memory (the contest
// kernels of seed 000 do the same). mx-gfx950-lower-tiled-mma calls it for
// an mx.tiled_scaled_mma whose A and A scales an `mx.quantize_into ...
// in_consumer` writes (chosen by mx-gfx950-quantize-in-gemm).
//
// Why a second source: the data movement differs from @mx_uk_scaled_mma's.
// A is read unquantized from global memory into registers, quantized once
// per workgroup and shared through LDS; each wave loads its own B fragments
// from global memory straight into registers (no B staging).
//
// A fp4 A fragment gives each lane 32 consecutive K values of one row, one
// whole scale block (the CDNA4 lane layouts of both intrinsics), so a lane
// quantizes its own block without talking to other lanes
// (@mx_uk_quantize_lhs, implemented at instantiation by the code of the
// quantize kernels, mx::gfx950::quantizeBlock, from the type parameters
// lhs_source, lhs_scale and lhs_rounding). The workgroup's A fragments of a
// K step are shared out over its waves (fragment f to wave f mod waves);
// each writes its fragments' codes and scales into the LDS stage of that
// step, and after a barrier every wave reads the fragments of its rows.
// A routed tile of one fragment of rows (decode's 16 rows, of which a token
// or two are routed to the expert) shares out only the blocks of its rows
// up to the last that holds a token, rounded up to a power of two
// (active_rows_log2): 64 / those rows columns of blocks per wave and
// round, interleaved over the waves, each lane the blocks of row lane mod
// the active rows (mx_uk_share_block); the other rows' codes and scales
// stay zeros, written once. With one token that is one block per lane for
// 32 lanes of 256, not 2 per lane for all of them (a 16 x 128 tile over K
// = 3072 on the timing model: 12,023 -> 9,668 cycles with one token;
// 10,726 with 16):
//
//   lds  [2, [subgroups_m * intrinsics_m * intrinsics_k, 64, 16 B] codes,
//            [subgroups_m, 64, intrinsics_m * intrinsics_k B] scales]
//
// (each lane's scale bytes of a step together, read as 4-byte groups and
// selected per MFMA with scalesIdx, as in @mx_uk_scaled_mma).
//
// Operands (B, its scales and the accumulators as for @mx_uk_scaled_mma):
//
//   src        [Ko, subgroups_m, intrinsics_m, intrinsics_k, G, R, 32]
//              the unquantized A values of the workgroup's tile through a
//              bounds-checked buffer (rows past M read 0): the swizzled
//              lhs tile with the lane dimension split in its K group G and
//              its row R (lane = g * R + r), every dimension a stride of
//              the source, computed by the caller from the quantize's map.
//              Rows gathered by id (a routed GEMM's A, `mx.quantize_into
//              ... gather`): the M dimensions have stride 0 and R stride 1,
//              and each lane indexes R with the element offset of its input
//              row in the fragment of rows (row_offsets)
//   row_offsets [subgroups_m * intrinsics_m], private: with rows gathered
//              by id, the element offset of the lane's input row in each
//              fragment of rows (ids[row] / divisor; a padding id: past the
//              input, read as 0); empty otherwise
//   rhs        [Ko, subgroups_n, intrinsics_n, intrinsics_k, 64, W_B B]
//   rhs_scales [Ko, subgroups_n, 64, intrinsics_n * intrinsics_k B]
//   accs       [intrinsics_m, intrinsics_n, V x f32], private
//   k_blocks   when K is padded to the K tile (K a multiple of 32): how
//              many blocks of 32 values of a row, from the view's first,
//              the input holds (>= 0; a split of K past the input's: 0).
//              Block (k * intrinsics_k + q) * G + g of the view's row, and
//              those past it, are K's padding, quantized from zeros (what
//              the quantize kernel writes there: code 0) rather than from
//              the next row's values that the view reads there. -1 when K
//              is not padded (no select in the kernel)
//   active_rows_log2 with rows gathered into one fragment of rows per
//              tile (subgroups_m = intrinsics_m = 1): log2 of the rows of
//              it that may hold input rows, a power of two (those past it
//              are padding: their blocks are neither read nor quantized,
//              and read as +0.0 codes from LDS); each lane then quantizes
//              blocks of row lane mod 2^active_rows_log2 (row_offsets
//              holds that row's offset), so a decode tile of one token
//              quantizes one row, not 16. -1 otherwise (ignored: the
//              lanes' rows and blocks are those of the fragment-per-wave
//              share)
//
// Iteration k (but the last) loads step k + 1's share of A values, B
// fragments and B scales, runs step k's MFMAs, then quantizes its share of
// step k + 1 into stage (k + 1) mod 2, meets the other waves at a barrier
// and reads step k + 1's A fragments and scales: the loads complete behind
// the MFMAs. One barrier per step suffices: the stage written in iteration
// k was last read before the barrier of iteration k - 1.

// Selection data (see mx::gfx950::selectUKernel): fp4 A only, and only for
// an A quantized in the kernel (`quantized_lhs`).
// CHECK-LABEL: func.func private @mx_uk_scaled_mma_quantized_lhs(
//  CHECK-SAME:   mx.ukernel.match = {{{.*}}lhs_type = [f4E2M1FN]{{.*}}quantized_lhs = true
//       CHECK:   call @mx_uk_load_lhs_share
//       CHECK:   call @mx_uk_load_rhs
//       CHECK:   call @mx_uk_quantize_lhs_share
//  CHECK-NEXT:   amdgpu.lds_barrier
//  CHECK-NEXT:   call @mx_uk_read_lhs_step
//       CHECK:   scf.for
//       CHECK:     scf.if
//       CHECK:       call @mx_uk_load_lhs_share
//       CHECK:       call @mx_uk_load_rhs
//       CHECK:     amdgpu.scaled_mfma 16x16x128
//       CHECK:     scf.if
//       CHECK:       call @mx_uk_quantize_lhs_share
//  CHECK-NEXT:       amdgpu.lds_barrier
//  CHECK-NEXT:       call @mx_uk_read_lhs_step
// The helpers: a lane's block loaded whole, quantized by the hook, its codes
// and scale stored to LDS.
// CHECK-LABEL: func.func private @mx_uk_load_lhs_share(
//       CHECK:   vector.load {{.*}} vector<32xbf16>
// CHECK-LABEL: func.func private @mx_uk_quantize_lhs_share(
//       CHECK:   call @mx_uk_quantize_lhs
//       CHECK:   vector.store {{.*}} vector<16xi8>
// CHECK-LABEL: func.func private @mx_uk_read_lhs_step(
//       CHECK:   call @mx_uk_read_lhs
func.func private @mx_uk_scaled_mma_quantized_lhs(
    %src: memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>,
    %rhs: memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>,
    %rhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>,
    %accs: memref<?x?x?xf32, 5>,
    %lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %row_offsets: memref<?xindex, 5>,
    %wave_m: index, %wave_n: index, %lane: index, %k_blocks: index,
    %active_rows_log2: index,
    %intrinsics_m: index, %intrinsics_n: index, %intrinsics_k: index,
    %zero_acc: index)
    attributes {mx.ukernel.num_parameters = 4 : i64,
                mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128",
                                              lhs_type = f4E2M1FN,
                                              rhs_type = f8E4M3FN,
                                              lhs_source = bf16,
                                              lhs_scale = "even",
                                              lhs_rounding = "ties_away"},
                mx.ukernel.match = {intrinsic = ["mfma_scale_16x16x128",
                                                 "mfma_scale_32x32x64"],
                                    lhs_type = [f4E2M1FN],
                                    rhs_type = [f4E2M1FN, f6E2M3FN, f6E3M2FN,
                                                f8E4M3FN, f8E5M2],
                                    interleave_m = ["lhs_scales"],
                                    interleave_n = ["rhs_scales"],
                                    interleave_k = ["lhs_scales", "rhs_scales"],
                                    scale_bytes_multiple_of = 4 : i64,
                                    quantized_lhs = true}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %c2 = arith.constant 2 : index
  %k_tiles = memref.dim %src, %c0 : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
  %subgroups_m = memref.dim %src, %c1 : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
  %subgroups_n = memref.dim %rhs, %c1 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  %waves = arith.muli %subgroups_m, %subgroups_n : index
  // The K groups and rows of an A fragment (G x R = 64 lanes; R from G,
  // since gathered rows index the R dimension by offsets).
  %groups_g = memref.dim %src, %c4 : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
  %rows = arith.divui %c64, %groups_g : index
  %lane_bytes_b = memref.dim %rhs, %c5 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  // The wave's indices as wave-uniform values for the LDS addresses.
  %wave_m_u = gpu.subgroup_broadcast %wave_m, first_active_lane : index
  %wave_n_u = gpu.subgroup_broadcast %wave_n, first_active_lane : index
  %wave = affine.apply affine_map<(m, n)[s] -> (m * s + n)>(%wave_m_u, %wave_n_u)[%subgroups_n]
  // Rows gathered into one fragment of rows per tile: the lanes share the
  // blocks of the active rows (mx_uk_share_block); their log2 as a
  // wave-uniform value (the same in every lane). Otherwise each lane
  // quantizes blocks of its own row.
  %gathered_frs = memref.dim %row_offsets, %c0 : memref<?xindex, 5>
  %one_gathered = arith.cmpi eq, %gathered_frs, %c1 : index
  %frs = arith.muli %subgroups_m, %intrinsics_m : index
  %one_fr = arith.cmpi eq, %frs, %c1 : index
  %by_rows = arith.andi %one_gathered, %one_fr : i1
  %active_u = gpu.subgroup_broadcast %active_rows_log2, first_active_lane : index
  %active_log2 = arith.maxsi %active_u, %c0 : index
  %active_rows = arith.shli %c1, %active_log2 : index
  // The workgroup's A fragments of one K step, shared out over the waves
  // (`rounds` each at most), and the LDS stage of a step.
  %per_sg_a = arith.muli %intrinsics_m, %intrinsics_k : index
  %frags_a = arith.muli %subgroups_m, %per_sg_a : index
  %rounds = affine.apply affine_map<()[f, w] -> (f ceildiv w)>()[%frags_a, %waves]
  %codes_bytes = affine.apply affine_map<()[f] -> (f * 1024)>()[%frags_a]
  %stage = affine.apply affine_map<()[f] -> (f * 1088)>()[%frags_a]
  // B as one row of bytes per K step, read through a buffer resource per
  // step (a scalar advance), each lane at a fixed 32-bit offset.
  %rhs_rows = memref.collapse_shape %rhs [[0], [1, 2, 3, 4, 5]]
      : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1> into memref<?x?xi8, strided<[?, ?], offset: ?>, 1>
  %rhs_flat = memref.cast %rhs_rows : memref<?x?xi8, strided<[?, ?], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %row_b = memref.dim %rhs_flat, %c1 : memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %groups_a = affine.apply affine_map<()[i, k] -> ((i * k) floordiv 4)>()[%intrinsics_m, %intrinsics_k]
  %groups_b = affine.apply affine_map<()[i, k] -> ((i * k) floordiv 4)>()[%intrinsics_n, %intrinsics_k]

  %raw_a = memref.alloca(%rounds) : memref<?xvector<32xbf16>, 5>
  %frag_a = memref.alloca(%intrinsics_m, %intrinsics_k) : memref<?x?xvector<32xf4E2M1FN>, 5>
  %scales_a = memref.alloca(%groups_a) : memref<?xvector<1xi32>, 5>
  %frag_b = memref.alloca(%intrinsics_n, %intrinsics_k) : memref<?x?xvector<32xf8E4M3FN>, 5>
  %next_frag_b = memref.alloca(%intrinsics_n, %intrinsics_k) : memref<?x?xvector<32xf8E4M3FN>, 5>
  %scales_b = memref.alloca(%groups_b) : memref<?xvector<1xi32>, 5>
  %next_scales_b = memref.alloca(%groups_b) : memref<?xvector<1xi32>, 5>
  // The accumulators start at +0.0, or with the caller's values.
  %from_zero = arith.cmpi ne, %zero_acc, %c0 : index
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
  scf.if %any {
    // With rows past active_rows, their codes and scales are zeros in both
    // stages (no share writes them), written once before the first share.
    %short = arith.cmpi ult, %active_rows, %rows : index
    %zero_rows = arith.andi %by_rows, %short : i1
    scf.if %zero_rows {
      %both = arith.muli %stage, %c2 : index
      %per_round = arith.muli %waves, %c1024 : index
      %zero_rounds = arith.ceildivui %both, %per_round : index
      %zero_i8 = arith.constant 0 : i8
      %zeros16 = vector.broadcast %zero_i8 : i8 to vector<16xi8>
      scf.for %t = %c0 to %zero_rounds step %c1 {
        %o = affine.apply affine_map<(t, w, l)[n] -> (((t * n + w) * 64 + l) * 16)>(%t, %wave, %lane)[%waves]
        %inside = arith.cmpi ult, %o, %both : index
        scf.if %inside {
          vector.store %zeros16, %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        }
      }
      amdgpu.lds_barrier
    }
    // Prologue: step 0's share of A values, its B fragments and scales; A
    // quantized into stage 0, then read.
    func.call @mx_uk_load_lhs_share(%src, %c0, %raw_a, %wave, %waves, %frags_a, %rounds, %subgroups_m, %intrinsics_m, %intrinsics_k, %lane, %k_blocks, %row_offsets, %active_log2, %by_rows)
        : (memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, index, memref<?xvector<32xbf16>, 5>, index, index, index, index, index, index, index, index, index, memref<?xindex, 5>, index, i1) -> ()
    %rhs_0_v = memref.subview %rhs_flat[%c0, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
    %rhs_0 = amdgpu.fat_raw_buffer_cast %rhs_0_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
    scf.for %j = %c0 to %intrinsics_n step %c1 {
      scf.for %q = %c0 to %intrinsics_k step %c1 {
        %o = affine.apply affine_map<(u, q, l)[w, n, k, wb] -> ((((w * n + u) * k + q) * 64 + l) * wb)>
            (%j, %q, %lane)[%wave_n, %intrinsics_n, %intrinsics_k, %lane_bytes_b]
        %v = func.call @mx_uk_load_rhs(%rhs_0, %o)
            : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index) -> vector<32xf8E4M3FN>
        memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
      } {mx.unroll}
    } {mx.unroll}
    scf.for %g = %c0 to %groups_b step %c1 {
      %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
      %v = vector.load %rhs_scales[%c0, %wave_n, %lane, %o]
          : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
      %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
      memref.store %w, %scales_b[%g] : memref<?xvector<1xi32>, 5>
    } {mx.unroll}
    func.call @mx_uk_quantize_lhs_share(%raw_a, %lds, %c0, %codes_bytes, %wave, %waves, %frags_a, %rounds, %subgroups_m, %intrinsics_m, %intrinsics_k, %lane, %active_log2, %groups_g, %by_rows)
        : (memref<?xvector<32xbf16>, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index, index, index, index, index, index, i1) -> ()
    amdgpu.lds_barrier
    func.call @mx_uk_read_lhs_step(%lds, %c0, %codes_bytes, %frag_a, %scales_a, %wave_m_u, %intrinsics_m, %intrinsics_k, %groups_a, %lane)
        : (memref<?xi8, #gpu.address_space<workgroup>>, index, index, memref<?x?xvector<32xf4E2M1FN>, 5>, memref<?xvector<1xi32>, 5>, index, index, index, index, index) -> ()

    scf.for %k = %c0 to %k_tiles step %c1 {
      %k1 = arith.addi %k, %c1 : index
      %has_next = arith.cmpi ult, %k, %k_last : index
      %stage_next = affine.apply affine_map<(k)[s] -> (((k + 1) mod 2) * s)>(%k)[%stage]
      // Step k + 1's operands, into registers.
      scf.if %has_next {
        func.call @mx_uk_load_lhs_share(%src, %k1, %raw_a, %wave, %waves, %frags_a, %rounds, %subgroups_m, %intrinsics_m, %intrinsics_k, %lane, %k_blocks, %row_offsets, %active_log2, %by_rows)
            : (memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, index, memref<?xvector<32xbf16>, 5>, index, index, index, index, index, index, index, index, index, memref<?xindex, 5>, index, i1) -> ()
        %rhs_k1_v = memref.subview %rhs_flat[%k1, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
        %rhs_k1 = amdgpu.fat_raw_buffer_cast %rhs_k1_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %o = affine.apply affine_map<(u, q, l)[w, n, k, wb] -> ((((w * n + u) * k + q) * 64 + l) * wb)>
                (%j, %q, %lane)[%wave_n, %intrinsics_n, %intrinsics_k, %lane_bytes_b]
            %v = func.call @mx_uk_load_rhs(%rhs_k1, %o)
                : (memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index) -> vector<32xf8E4M3FN>
            memref.store %v, %next_frag_b[%j, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
          } {mx.unroll}
        } {mx.unroll}
        scf.for %g = %c0 to %groups_b step %c1 {
          %o = affine.apply affine_map<(g) -> (g * 4)>(%g)
          %v = vector.load %rhs_scales[%k1, %wave_n, %lane, %o]
              : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
          %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
          memref.store %w, %next_scales_b[%g] : memref<?xvector<1xi32>, 5>
        } {mx.unroll}
      }
      // Step k's MFMAs.
      scf.for %i = %c0 to %intrinsics_m step %c1 {
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %a = memref.load %frag_a[%i, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
            %b = memref.load %frag_b[%j, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
            // Scale bytes (i, q) and (j, q) of this lane, read as parts of
            // their 4-byte groups.
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
                : f8E8M0FNU, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
            vector.store %y, %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
          } {mx.unroll}
        } {mx.unroll}
      } {mx.unroll}
      // Step k + 1's A quantized into its stage and read back; its B
      // fragments and scales current.
      scf.if %has_next {
        func.call @mx_uk_quantize_lhs_share(%raw_a, %lds, %stage_next, %codes_bytes, %wave, %waves, %frags_a, %rounds, %subgroups_m, %intrinsics_m, %intrinsics_k, %lane, %active_log2, %groups_g, %by_rows)
            : (memref<?xvector<32xbf16>, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index, index, index, index, index, index, i1) -> ()
        amdgpu.lds_barrier
        func.call @mx_uk_read_lhs_step(%lds, %stage_next, %codes_bytes, %frag_a, %scales_a, %wave_m_u, %intrinsics_m, %intrinsics_k, %groups_a, %lane)
            : (memref<?xi8, #gpu.address_space<workgroup>>, index, index, memref<?x?xvector<32xf4E2M1FN>, 5>, memref<?xvector<1xi32>, 5>, index, index, index, index, index) -> ()
        scf.for %j = %c0 to %intrinsics_n step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %v = memref.load %next_frag_b[%j, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
            memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<32xf8E4M3FN>, 5>
          } {mx.unroll}
        } {mx.unroll}
        scf.for %g = %c0 to %groups_b step %c1 {
          %v = memref.load %next_scales_b[%g] : memref<?xvector<1xi32>, 5>
          memref.store %v, %scales_b[%g] : memref<?xvector<1xi32>, 5>
        } {mx.unroll}
      }
    }
  }
  return
}

// Helpers, inlined where they are called when the ukernel is instantiated.

// The block of the wave's share that a lane takes in round r: fragment f =
// r * waves + wave of the step, the lane's K group and row in it (f <
// frags_a), or with `by_rows` (rows gathered into one fragment of rows)
// columns of blocks of the rows below 2^active_log2 (active_log2 >= 0): 64
// / 2^active_log2 columns of blocks per wave and round, interleaved over
// the waves, the lane's row lane mod 2^active_log2. Returns whether the
// lane has a block, its fragment (M subgroup, intrinsic, K
// intrinsic), its K group and row, and the fragment's lane that holds it
// (K group * rows + row).
func.func private @mx_uk_share_block(%r: index, %wave: index, %waves: index,
    %frags_a: index, %subgroups_m: index, %intrinsics_m: index,
    %intrinsics_k: index, %lane: index, %active_log2: index, %groups: index,
    %by_rows: i1) -> (i1, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %rows = arith.divui %c64, %groups : index
  %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
  // Columns of blocks of the active rows (shifts: they are a power of two).
  %active_rows = arith.shli %c1, %active_log2 : index
  %per_wave = arith.shrui %c64, %active_log2 : index
  %lane_col = arith.shrui %lane, %active_log2 : index
  %row_mask = arith.subi %active_rows, %c1 : index
  %lane_row = arith.andi %lane, %row_mask : index
  // (Column c of round r: (r * per_wave + the lane's) * waves + wave, so
  // that a few active rows still spread over every wave.)
  %col = affine.apply affine_map<(r, c, w)[p, n] -> ((r * p + c) * n + w)>(%r, %lane_col, %wave)[%per_wave, %waves]
  %row_blocks = arith.muli %intrinsics_k, %groups : index
  %col_in = arith.cmpi ult, %col, %row_blocks : index
  %q_c = arith.divui %col, %groups : index
  %g_c = arith.remui %col, %groups : index
  %lane_in_c = affine.apply affine_map<(g, r)[n] -> (g * n + r)>(%g_c, %lane_row)[%rows]
  // Fragments.
  %mine_f = arith.cmpi ult, %f, %frags_a : index
  %sg_f, %i_f, %q_f = affine.delinearize_index %f into (%subgroups_m, %intrinsics_m, %intrinsics_k) : index, index, index
  %g_f = arith.divui %lane, %rows : index
  %r_f = arith.remui %lane, %rows : index
  %mine = arith.select %by_rows, %col_in, %mine_f : i1
  %sg = arith.select %by_rows, %c0, %sg_f : index
  %i = arith.select %by_rows, %c0, %i_f : index
  %q = arith.select %by_rows, %q_c, %q_f : index
  %g = arith.select %by_rows, %g_c, %g_f : index
  %row = arith.select %by_rows, %lane_row, %r_f : index
  %lane_in = arith.select %by_rows, %lane_in_c, %lane : index
  return %mine, %sg, %i, %q, %g, %row, %lane_in : i1, index, index, index, index, index, index
}

// Loads the wave's share of step k's A values (mx_uk_share_block) into
// raw_a[r] (gathered rows through row_offsets), zeros for a block in K's
// padding.
func.func private @mx_uk_load_lhs_share(
    %src: memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>,
    %k: index, %raw_a: memref<?xvector<32xbf16>, 5>, %wave: index, %waves: index,
    %frags_a: index, %rounds: index, %subgroups_m: index, %intrinsics_m: index,
    %intrinsics_k: index, %lane: index, %k_blocks: index,
    %row_offsets: memref<?xindex, 5>, %active_log2: index, %by_rows: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %groups = memref.dim %src, %c4 : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
  %padded = arith.cmpi sge, %k_blocks, %c0 : index
  %gathered_rows = memref.dim %row_offsets, %c0 : memref<?xindex, 5>
  %gathered = arith.cmpi ugt, %gathered_rows, %c0 : index
  scf.for %r = %c0 to %rounds step %c1 {
    %mine, %sg, %i, %q, %g, %lane_row, %lane_in = func.call @mx_uk_share_block(%r, %wave, %waves, %frags_a, %subgroups_m, %intrinsics_m, %intrinsics_k, %lane, %active_log2, %groups, %by_rows)
        : (index, index, index, index, index, index, index, index, index, index, i1) -> (i1, index, index, index, index, index, index)
    scf.if %mine {
      // The lane's row: its index, or with rows gathered by id the element
      // offset of its input row in this fragment of rows.
      %row = scf.if %gathered -> index {
        %fr = affine.apply affine_map<(s, i)[m] -> (s * m + i)>(%sg, %i)[%intrinsics_m]
        %o = memref.load %row_offsets[%fr] : memref<?xindex, 5>
        scf.yield %o : index
      } else {
        scf.yield %lane_row : index
      }
      %x = vector.load %src[%k, %sg, %i, %q, %g, %row, %c0]
          : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<32xbf16>
      // A block in K's padding (past the row: the next row's values) is
      // zeros.
      %y = scf.if %padded -> vector<32xbf16> {
        %block = affine.apply affine_map<(k, q, g)[n, G] -> ((k * n + q) * G + g)>
            (%k, %q, %g)[%intrinsics_k, %groups]
        %inside = arith.cmpi ult, %block, %k_blocks : index
        // (+0.0 as the conversion of integer 0: no constant of the source
        // type, which the instantiation replaces.)
        %c0_i32 = arith.constant 0 : i32
        %zero = arith.sitofp %c0_i32 : i32 to bf16
        %zeros = vector.broadcast %zero : bf16 to vector<32xbf16>
        %z = arith.select %inside, %x, %zeros : vector<32xbf16>
        scf.yield %z : vector<32xbf16>
      } else {
        scf.yield %x : vector<32xbf16>
      }
      memref.store %y, %raw_a[%r] : memref<?xvector<32xbf16>, 5>
    }
  } {mx.unroll}
  return
}

// Quantizes the wave's share (raw_a) into the LDS stage at `base`: the
// codes of fragment f at f * 1 KiB + 16 lane, its scale byte among the
// lane's scale bytes of the step ([subgroups_m, 64, intrinsics_m *
// intrinsics_k] after the codes).
func.func private @mx_uk_quantize_lhs_share(
    %raw_a: memref<?xvector<32xbf16>, 5>, %lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %base: index, %codes_bytes: index, %wave: index, %waves: index,
    %frags_a: index, %rounds: index, %subgroups_m: index, %intrinsics_m: index,
    %intrinsics_k: index, %lane: index, %active_log2: index, %groups: index,
    %by_rows: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %r = %c0 to %rounds step %c1 {
    %mine, %sg, %i, %q, %g, %lane_row, %lane_in = func.call @mx_uk_share_block(%r, %wave, %waves, %frags_a, %subgroups_m, %intrinsics_m, %intrinsics_k, %lane, %active_log2, %groups, %by_rows)
        : (index, index, index, index, index, index, index, index, index, index, i1) -> (i1, index, index, index, index, index, index)
    scf.if %mine {
      %f = affine.apply affine_map<(s, i, q)[m, k] -> ((s * m + i) * k + q)>(%sg, %i, %q)[%intrinsics_m, %intrinsics_k]
      %x = memref.load %raw_a[%r] : memref<?xvector<32xbf16>, 5>
      %a, %s = func.call @mx_uk_quantize_lhs(%x) : (vector<32xbf16>) -> (vector<32xf4E2M1FN>, i8)
      %n = arith.bitcast %a : vector<32xf4E2M1FN> to vector<32xi4>
      %bytes = vector.bitcast %n : vector<32xi4> to vector<16xi8>
      %o = affine.apply affine_map<(f, l)[b] -> (b + f * 1024 + l * 16)>(%f, %lane_in)[%base]
      vector.store %bytes, %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
      %so = affine.apply affine_map<(f, l)[b, c, m, k] -> (b + c + ((f floordiv (m * k)) * 64 + l) * (m * k) + f mod (m * k))>
          (%f, %lane_in)[%base, %codes_bytes, %intrinsics_m, %intrinsics_k]
      memref.store %s, %lds[%so] : memref<?xi8, #gpu.address_space<workgroup>>
    }
  } {mx.unroll}
  return
}

// Reads the A fragments and scale bytes of the wave's rows of the step in
// the LDS stage at `base`.
func.func private @mx_uk_read_lhs_step(
    %lds: memref<?xi8, #gpu.address_space<workgroup>>, %base: index,
    %codes_bytes: index, %frag_a: memref<?x?xvector<32xf4E2M1FN>, 5>,
    %scales_a: memref<?xvector<1xi32>, 5>, %wave_m: index, %intrinsics_m: index,
    %intrinsics_k: index, %groups_a: index, %lane: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %intrinsics_m step %c1 {
    scf.for %q = %c0 to %intrinsics_k step %c1 {
      %o = affine.apply affine_map<(i, q)[b, w, m, k] -> (b + ((w * m + i) * k + q) * 1024)>
          (%i, %q)[%base, %wave_m, %intrinsics_m, %intrinsics_k]
      %v = func.call @mx_uk_read_lhs(%lds, %o, %lane)
          : (memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf4E2M1FN>
      memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
    } {mx.unroll}
  } {mx.unroll}
  scf.for %g = %c0 to %groups_a step %c1 {
    %o = affine.apply affine_map<(g, l)[b, c, w, m, k] -> (b + c + (w * 64 + l) * (m * k) + g * 4)>
        (%g, %lane)[%base, %codes_bytes, %wave_m, %intrinsics_m, %intrinsics_k]
    %v = vector.load %lds[%o] {alignment = 4 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<4xi8>
    %w = vector.bitcast %v : vector<4xi8> to vector<1xi32>
    memref.store %w, %scales_a[%g] : memref<?xvector<1xi32>, 5>
  } {mx.unroll}
  return
}

// The hooks this ukernel calls; @mx_uk_read_lhs and @mx_uk_load_rhs are
// implemented by @mx_uk_scaled_mma's @mx_uk_read_f4 and @mx_uk_load_f4/_f6/_f8,
// @mx_uk_quantize_lhs by the quantize code of mx::gfx950::quantizeBlock for
// the type parameters.
func.func private @mx_uk_read_lhs(memref<?xi8, #gpu.address_space<workgroup>>, index, index) -> vector<32xf4E2M1FN>
func.func private @mx_uk_load_rhs(memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index) -> vector<32xf8E4M3FN>
func.func private @mx_uk_quantize_lhs(vector<32xbf16>) -> (vector<32xf4E2M1FN>, i8)
