// RUN: mx-opt %s | mx-opt | FileCheck %s

// Mixed MXFP8 (E4M3, lhs) x MXFP4 (E2M1, rhs) scaled MMA ukernel on
// v_mfma_scale_f32_16x16x128_f8f6f4, for the data-tiled layouts of
// mx::gfx950::getSwizzle with the default interleaving (scales interleave the
// M/N and K unrolls, data and accumulators do not). It computes one wave's
// part of one workgroup tile over all K tiles; the caller passes byte views
// of the tiles, the lane dimensions (g, r) merged into one of 64 lanes. Each
// lane's 32 lhs bytes are its two 16-value fp8 K chunks, chunk 0 then chunk 1
// (lane group g holds k = 16 g + u, then k = 64 + 16 g + u, of each 128-wide
// K step); its 16 rhs bytes are 32 contiguous fp4 K values (k = 32 g + t,
// value 2j / 2j+1 in the low / high nibble of byte j). The MFMA takes each
// operand in its own lane layout, so the two orders combine correctly:
//
//   lhs        [Ko, subgroups_m, intrinsics_m, intrinsics_k, 64, 32 B]
//   rhs        [Ko, subgroups_n, intrinsics_n, intrinsics_k, 64, 16 B]
//   lhs_scales [Ko, subgroups_m, 64, intrinsics_m * intrinsics_k B]
//   rhs_scales [Ko, subgroups_n, 64, intrinsics_n * intrinsics_k B]
//   acc        [subgroups_m, subgroups_n, intrinsics_m, intrinsics_n, 64, 4 x f32]
//
// and the workgroup's LDS staging buffer `lds`: two stages, each one K step
// of the workgroup's A fragments, then its B fragments, in the tiles' order.
// A 32-byte fragment is stored as its two 16-byte halves, each 64 lanes x
// 16 B = 1 KiB (a lane's chunk 0, then its chunk 1), so that every LDS read
// is 16 bytes at a 16-byte lane stride (no bank conflicts):
//
//   lds        [2, [subgroups_m * intrinsics_m * intrinsics_k, 2, 64, 16 B],
//                  [subgroups_n * intrinsics_n * intrinsics_k, 64, 16 B]]
//
// K step k lives in stage k mod 2. The waves of the workgroup copy each K step
// cooperatively (fragment f of A, then of B, goes to wave f mod waves) with
// amdgpu.gather_to_lds (global_load_lds_dwordx4: lane l's 16 bytes land at the
// half's base + 16 l; two per 32-byte fragment), one step ahead of the MFMAs:
// iteration k reads its fragments from stage k mod 2 (ds_read_b128), then loads
// step k + 1's scales (global, wide, into registers) and issues the copies of
// step k + 1 into the other stage, then runs its MFMAs; the copies complete
// behind them. The last step runs after the loop, without copies (the loop body
// has no branch). Reading before issuing the copies keeps LLVM from waiting for
// the copies before the LDS reads (it cannot tell the two stages apart), and
// loading the scales before the copies keeps the scales' wait from waiting for
// the copies. At the end of each iteration each wave waits for its copies
// (amdgpu.memory_counter_wait load(0)) and the workgroup meets at
// amdgpu.lds_barrier: step k + 1 is then in LDS for every wave, and nobody
// reads stage k mod 2 any more, so the next iteration may refill it. The
// accumulators and the current scales stay in registers for the whole K loop.
//
// subgroups_m / subgroups_n are the (static) sizes of dimension 1 of lhs / rhs;
// wave (wave_m, wave_n) is wave wave_m * subgroups_n + wave_n of the workgroup.
// The last three arguments (intrinsics_m, intrinsics_n, intrinsics_k) are the
// tile-size parameters: mx-gfx950-specialize-ukernels requires them (and the
// subgroup sizes) to be constants at the call, clones the body into the caller
// and fully unrolls the loops marked mx.unroll, so the private arrays indexed
// by the unroll indices (accumulators, fragments, scale groups) become
// registers and each lane reads its scale bytes in 4-byte groups selected per
// MFMA with scalesIdx. It therefore needs intrinsics_m * intrinsics_k and
// intrinsics_n * intrinsics_k to be multiples of 4.

// Selection data: the layouts this ukernel serves (see
// mx::gfx950::selectUKernel). `scale_bytes_multiple_of` constrains
// intrinsics_m * intrinsics_k and intrinsics_n * intrinsics_k.

// The specialization-independent shape of the body: the prologue's copies,
// then the K loop reading LDS, copying the next step and running the MFMAs.
// CHECK-LABEL: func.func private @mx_uk_scaled_mma_16x16x128_f8E4M3FN_f4E2M1FN
//  CHECK-SAME:   %{{.+}}: memref<?xi8, #gpu.address_space<workgroup>>
//  CHECK-SAME:   mx.ukernel.match = {interleave_k = ["lhs_scales", "rhs_scales"], interleave_m = ["lhs_scales"], interleave_n = ["rhs_scales"], intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, scale_bytes_multiple_of = 4 : i64}
//  CHECK-SAME:   mx.ukernel.num_parameters = 3 : i64
//       CHECK:   amdgpu.gather_to_lds
//       CHECK:   amdgpu.memory_counter_wait load(0)
//  CHECK-NEXT:   amdgpu.lds_barrier
//       CHECK:   scf.for
//       CHECK:     vector.load %{{.+}} {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//       CHECK:     amdgpu.gather_to_lds
//       CHECK:     amdgpu.scaled_mfma 16x16x128
//       CHECK:     amdgpu.sched_barrier allow = <none>
//  CHECK-NEXT:     amdgpu.memory_counter_wait load(0)
//  CHECK-NEXT:     amdgpu.lds_barrier
func.func private @mx_uk_scaled_mma_16x16x128_f8E4M3FN_f4E2M1FN(
    %lhs: memref<?x?x?x?x64x32xi8, strided<[?, ?, ?, ?, 32, 1], offset: ?>, 1>, %rhs: memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1>,
    %lhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, %rhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>,
    %acc: memref<?x?x?x?x64x4xf32, strided<[?, ?, ?, ?, 4, 1], offset: ?>, 1>,
    %lds: memref<?xi8, #gpu.address_space<workgroup>>,
    %wave_m: index, %wave_n: index, %lane: index,
    %intrinsics_m: index, %intrinsics_n: index, %intrinsics_k: index)
    attributes {mx.ukernel.num_parameters = 3 : i64,
                mx.ukernel.match = {intrinsic = "mfma_scale_16x16x128",
                                    lhs_type = f8E4M3FN, rhs_type = f4E2M1FN,
                                    interleave_m = ["lhs_scales"],
                                    interleave_n = ["rhs_scales"],
                                    interleave_k = ["lhs_scales", "rhs_scales"],
                                    scale_bytes_multiple_of = 4 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k_tiles = memref.dim %lhs, %c0 : memref<?x?x?x?x64x32xi8, strided<[?, ?, ?, ?, 32, 1], offset: ?>, 1>
  %subgroups_m = memref.dim %lhs, %c1 : memref<?x?x?x?x64x32xi8, strided<[?, ?, ?, ?, 32, 1], offset: ?>, 1>
  %subgroups_n = memref.dim %rhs, %c1 : memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1>
  %waves = arith.muli %subgroups_m, %subgroups_n : index
  // The wave's indices as wave-uniform values for the LDS addresses (scalar
  // registers); the global accumulator and scale addresses keep the plain
  // ones (LLVM then folds their constant offsets into the instructions).
  %wave_m_u = gpu.subgroup_broadcast %wave_m, first_active_lane : index
  %wave_n_u = gpu.subgroup_broadcast %wave_n, first_active_lane : index
  // The tiles as one 1 KiB (fp4) or 2 KiB (fp8) fragment per row, the
  // copies' sources.
  %lhs_flat = memref.collapse_shape %lhs [[0], [1, 2, 3], [4, 5]]
      : memref<?x?x?x?x64x32xi8, strided<[?, ?, ?, ?, 32, 1], offset: ?>, 1> into memref<?x?x2048xi8, strided<[?, ?, 1], offset: ?>, 1>
  %rhs_flat = memref.collapse_shape %rhs [[0], [1, 2, 3], [4, 5]]
      : memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1> into memref<?x?x1024xi8, strided<[?, ?, 1], offset: ?>, 1>
  %lane16 = affine.apply affine_map<(l) -> (l * 16)>(%lane)
  %wave = affine.apply affine_map<(m, n)[s] -> (m * s + n)>(%wave_m_u, %wave_n_u)[%subgroups_n]
  // Fragments of one K step and the stage size (bytes); the waves share the
  // copies: `rounds` fragments each, then one more for waves < `rest`.
  %per_sg_a = arith.muli %intrinsics_m, %intrinsics_k : index
  %per_sg_b = arith.muli %intrinsics_n, %intrinsics_k : index
  %frags_a = arith.muli %subgroups_m, %per_sg_a : index
  %frags_b = arith.muli %subgroups_n, %per_sg_b : index
  %stage = affine.apply affine_map<()[a, b] -> (a * 2048 + b * 1024)>()[%frags_a, %frags_b]
  %rounds_a = arith.divui %frags_a, %waves : index
  %rest_a = arith.remui %frags_a, %waves : index
  %rounds_b = arith.divui %frags_b, %waves : index
  %rest_b = arith.remui %frags_b, %waves : index
  %has_rest_a = arith.cmpi ult, %wave, %rest_a : index
  %has_rest_b = arith.cmpi ult, %wave, %rest_b : index
  // Scale bytes of one lane and K step, in 4-byte groups.
  %groups_a = affine.apply affine_map<()[i, k] -> ((i * k) floordiv 4)>()[%intrinsics_m, %intrinsics_k]
  %groups_b = affine.apply affine_map<()[i, k] -> ((i * k) floordiv 4)>()[%intrinsics_n, %intrinsics_k]

  %accs = memref.alloca(%intrinsics_m, %intrinsics_n) : memref<?x?xvector<4xf32>, 5>
  %frag_a = memref.alloca(%intrinsics_m, %intrinsics_k) : memref<?x?xvector<32xi8>, 5>
  %frag_b = memref.alloca(%intrinsics_n, %intrinsics_k) : memref<?x?xvector<16xi8>, 5>
  %scales_a = memref.alloca(%groups_a) : memref<?xvector<1xi32>, 5>
  %scales_b = memref.alloca(%groups_b) : memref<?xvector<1xi32>, 5>
  %next_scales_a = memref.alloca(%groups_a) : memref<?xvector<1xi32>, 5>
  %next_scales_b = memref.alloca(%groups_b) : memref<?xvector<1xi32>, 5>
  scf.for %i = %c0 to %intrinsics_m step %c1 {
    scf.for %j = %c0 to %intrinsics_n step %c1 {
      %v = vector.load %acc[%wave_m, %wave_n, %i, %j, %lane, %c0]
          : memref<?x?x?x?x64x4xf32, strided<[?, ?, ?, ?, 4, 1], offset: ?>, 1>, vector<4xf32>
      memref.store %v, %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
    } {mx.unroll}
  } {mx.unroll}

  // Prologue: K step 0 into stage 0, its scales into registers.
  %any = arith.cmpi ugt, %k_tiles, %c0 : index
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
      // Two copies: the lanes' first 16 bytes, then their last 16.
      scf.for %h = %c0 to %c2 step %c1 {
        %d = affine.apply affine_map<(f, h) -> (f * 2048 + h * 1024)>(%f, %h)
        %o = affine.apply affine_map<(h, l) -> (l * 32 + h * 16)>(%h, %lane)
        amdgpu.gather_to_lds %lhs_flat[%c0, %f, %o], %lds[%d]
            : vector<16xi8>, memref<?x?x2048xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
      } {mx.unroll}
    } {mx.unroll}
    scf.if %has_rest_a {
      %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_a, %waves]
      // Two copies: the lanes' first 16 bytes, then their last 16.
      scf.for %h = %c0 to %c2 step %c1 {
        %d = affine.apply affine_map<(f, h) -> (f * 2048 + h * 1024)>(%f, %h)
        %o = affine.apply affine_map<(h, l) -> (l * 32 + h * 16)>(%h, %lane)
        amdgpu.gather_to_lds %lhs_flat[%c0, %f, %o], %lds[%d]
            : vector<16xi8>, memref<?x?x2048xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
      } {mx.unroll}
    }
    scf.for %r = %c0 to %rounds_b step %c1 {
      %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
      %d = affine.apply affine_map<(f)[a] -> (f * 1024 + a * 2048)>(%f)[%frags_a]
      amdgpu.gather_to_lds %rhs_flat[%c0, %f, %lane16], %lds[%d]
          : vector<16xi8>, memref<?x?x1024xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
    } {mx.unroll}
    scf.if %has_rest_b {
      %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_b, %waves]
      %d = affine.apply affine_map<(f)[a] -> (f * 1024 + a * 2048)>(%f)[%frags_a]
      amdgpu.gather_to_lds %rhs_flat[%c0, %f, %lane16], %lds[%d]
          : vector<16xi8>, memref<?x?x1024xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
    }
  }
  amdgpu.memory_counter_wait load(0)
  amdgpu.lds_barrier

  // All K steps but the last: each also copies the next one.
  %k_last = arith.subi %k_tiles, %c1 : index
  scf.for %k = %c0 to %k_last step %c1 {
    %stage_k = affine.apply affine_map<(k)[s] -> ((k mod 2) * s)>(%k)[%stage]
    %stage_next = affine.apply affine_map<(k)[s] -> (((k + 1) mod 2) * s)>(%k)[%stage]
    // This wave's fragments of step k, from LDS.
    scf.for %i = %c0 to %intrinsics_m step %c1 {
      scf.for %q = %c0 to %intrinsics_k step %c1 {
        %o = affine.apply affine_map<(u, q, l)[b, w, n, k] -> (b + ((w * n + u) * k + q) * 2048 + l * 16)>
            (%i, %q, %lane)[%stage_k, %wave_m_u, %intrinsics_m, %intrinsics_k]
        %o1 = affine.apply affine_map<(o) -> (o + 1024)>(%o)
        %lo = vector.load %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        %hi = vector.load %lds[%o1] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        %v = vector.shuffle %lo, %hi [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
        memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xi8>, 5>
      } {mx.unroll}
    } {mx.unroll}
    scf.for %j = %c0 to %intrinsics_n step %c1 {
      scf.for %q = %c0 to %intrinsics_k step %c1 {
        %o = affine.apply affine_map<(u, q, l)[b, a, w, n, k] -> (b + a * 2048 + ((w * n + u) * k + q) * 1024 + l * 16)>
            (%j, %q, %lane)[%stage_k, %frags_a, %wave_n_u, %intrinsics_n, %intrinsics_k]
        %v = vector.load %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<16xi8>, 5>
      } {mx.unroll}
    } {mx.unroll}

    // Step k + 1 (no LDS reads after this point): scales into registers,
    // fragments into the other stage.
    %k1 = arith.addi %k, %c1 : index
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
      // Two copies: the lanes' first 16 bytes, then their last 16.
      scf.for %h = %c0 to %c2 step %c1 {
        %d = affine.apply affine_map<(f, h)[b] -> (b + f * 2048 + h * 1024)>(%f, %h)[%stage_next]
        %o = affine.apply affine_map<(h, l) -> (l * 32 + h * 16)>(%h, %lane)
        amdgpu.gather_to_lds %lhs_flat[%k1, %f, %o], %lds[%d]
            : vector<16xi8>, memref<?x?x2048xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
      } {mx.unroll}
    } {mx.unroll}
    scf.if %has_rest_a {
      %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_a, %waves]
      // Two copies: the lanes' first 16 bytes, then their last 16.
      scf.for %h = %c0 to %c2 step %c1 {
        %d = affine.apply affine_map<(f, h)[b] -> (b + f * 2048 + h * 1024)>(%f, %h)[%stage_next]
        %o = affine.apply affine_map<(h, l) -> (l * 32 + h * 16)>(%h, %lane)
        amdgpu.gather_to_lds %lhs_flat[%k1, %f, %o], %lds[%d]
            : vector<16xi8>, memref<?x?x2048xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
      } {mx.unroll}
    }
    scf.for %r = %c0 to %rounds_b step %c1 {
      %f = affine.apply affine_map<(r, w)[n] -> (r * n + w)>(%r, %wave)[%waves]
      %d = affine.apply affine_map<(f)[b, a] -> (b + f * 1024 + a * 2048)>(%f)[%stage_next, %frags_a]
      amdgpu.gather_to_lds %rhs_flat[%k1, %f, %lane16], %lds[%d]
          : vector<16xi8>, memref<?x?x1024xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
    } {mx.unroll}
    scf.if %has_rest_b {
      %f = affine.apply affine_map<(w)[r, n] -> (r * n + w)>(%wave)[%rounds_b, %waves]
      %d = affine.apply affine_map<(f)[b, a] -> (b + f * 1024 + a * 2048)>(%f)[%stage_next, %frags_a]
      amdgpu.gather_to_lds %rhs_flat[%k1, %f, %lane16], %lds[%d]
          : vector<16xi8>, memref<?x?x1024xi8, strided<[?, ?, 1], offset: ?>, 1>, memref<?xi8, #gpu.address_space<workgroup>>
    }

    // The MFMAs of step k.
    scf.for %i = %c0 to %intrinsics_m step %c1 {
      scf.for %j = %c0 to %intrinsics_n step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %a8 = memref.load %frag_a[%i, %q] : memref<?x?xvector<32xi8>, 5>
          %b8 = memref.load %frag_b[%j, %q] : memref<?x?xvector<16xi8>, 5>
          %a = arith.bitcast %a8 : vector<32xi8> to vector<32xf8E4M3FN>
          %b4 = vector.bitcast %b8 : vector<16xi8> to vector<32xi4>
          %b = arith.bitcast %b4 : vector<32xi4> to vector<32xf4E2M1FN>
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
          %x = memref.load %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
          %y = amdgpu.scaled_mfma 16x16x128 (%sa[0] * %a) * (%sb[0] * %b) + %x
              : f8E8M0FNU, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
          memref.store %y, %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
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
        %o = affine.apply affine_map<(u, q, l)[b, w, n, k] -> (b + ((w * n + u) * k + q) * 2048 + l * 16)>
            (%i, %q, %lane)[%stage_k, %wave_m_u, %intrinsics_m, %intrinsics_k]
        %o1 = affine.apply affine_map<(o) -> (o + 1024)>(%o)
        %lo = vector.load %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        %hi = vector.load %lds[%o1] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        %v = vector.shuffle %lo, %hi [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
        memref.store %v, %frag_a[%i, %q] : memref<?x?xvector<32xi8>, 5>
      } {mx.unroll}
    } {mx.unroll}
    scf.for %j = %c0 to %intrinsics_n step %c1 {
      scf.for %q = %c0 to %intrinsics_k step %c1 {
        %o = affine.apply affine_map<(u, q, l)[b, a, w, n, k] -> (b + a * 2048 + ((w * n + u) * k + q) * 1024 + l * 16)>
            (%j, %q, %lane)[%stage_k, %frags_a, %wave_n_u, %intrinsics_n, %intrinsics_k]
        %v = vector.load %lds[%o] {alignment = 16 : i64} : memref<?xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        memref.store %v, %frag_b[%j, %q] : memref<?x?xvector<16xi8>, 5>
      } {mx.unroll}
    } {mx.unroll}
    scf.for %i = %c0 to %intrinsics_m step %c1 {
      scf.for %j = %c0 to %intrinsics_n step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          %a8 = memref.load %frag_a[%i, %q] : memref<?x?xvector<32xi8>, 5>
          %b8 = memref.load %frag_b[%j, %q] : memref<?x?xvector<16xi8>, 5>
          %a = arith.bitcast %a8 : vector<32xi8> to vector<32xf8E4M3FN>
          %b4 = vector.bitcast %b8 : vector<16xi8> to vector<32xi4>
          %b = arith.bitcast %b4 : vector<32xi4> to vector<32xf4E2M1FN>
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
          %x = memref.load %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
          %y = amdgpu.scaled_mfma 16x16x128 (%sa[0] * %a) * (%sb[0] * %b) + %x
              : f8E8M0FNU, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
          memref.store %y, %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
        } {mx.unroll}
      } {mx.unroll}
    } {mx.unroll}
  }
  // The accumulators out, addressed with the lane index recomputed
  // (gpu.lane_id): sharing the prologue's addresses would keep one register
  // pair per accumulator group alive through the K loop.
  %lane_out = gpu.lane_id
  scf.for %i = %c0 to %intrinsics_m step %c1 {
    scf.for %j = %c0 to %intrinsics_n step %c1 {
      %v = memref.load %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
      vector.store %v, %acc[%wave_m, %wave_n, %i, %j, %lane_out, %c0]
          : memref<?x?x?x?x64x4xf32, strided<[?, ?, ?, ?, 4, 1], offset: ?>, 1>, vector<4xf32>
    } {mx.unroll}
  } {mx.unroll}
  return
}
