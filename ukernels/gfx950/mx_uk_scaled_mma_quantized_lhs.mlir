// RUN: mx-opt %s | mx-opt | FileCheck %s

// The scaled MMA ukernel of gfx950 that quantizes its A tiles itself: A
// comes unquantized (bf16, f16 or f32) and each wave turns the blocks it
// multiplies into fp4 codes and E8M0 scales in registers, so that a small-M
// GEMM from an activation needs no quantize dispatch and the quantized
// activation never reaches memory (the contest kernels of seed 000 do the
// same). mx-gfx950-lower-tiled-mma calls it for an mx.tiled_scaled_mma whose
// A and A scales an `mx.quantize_into ... in_consumer` writes (chosen by
// mx-gfx950-quantize-in-gemm).
//
// Why a second source: the data movement differs from @mx_uk_scaled_mma's.
// Nothing goes through LDS: each wave loads its own A blocks and its own B
// fragments from global memory straight into registers, one K step ahead.
// Waves that share rows (subgroups_n > 1) quantize them each; that costs
// vector instructions and cache reads, never HBM bytes, and is what the
// resolver weighs when it picks this kernel (small M).
//
// A fp4 A fragment gives each lane 32 consecutive K values of one row, one
// whole scale block (the CDNA4 lane layouts of both intrinsics), so a lane
// quantizes its own blocks without talking to other lanes: it computes the
// block's scale and codes (@mx_uk_quantize_lhs, implemented at
// instantiation by the same code as the quantize kernels, from the type
// parameters lhs_source, lhs_scale and lhs_rounding) and feeds the scale to
// the MFMA directly.
//
// Operands (B, its scales and the accumulators as for @mx_uk_scaled_mma):
//
//   src        [Ko, subgroups_m, intrinsics_m, intrinsics_k, G, R, 32]
//              the unquantized A values of the workgroup's tile through a
//              bounds-checked buffer (rows past M read 0): the swizzled
//              lhs tile with the lane dimension split in its K group G and
//              its row R (lane = g * R + r), every dimension a stride of
//              the source, computed by the caller from the quantize's map
//   rhs        [Ko, subgroups_n, intrinsics_n, intrinsics_k, 64, W_B B]
//   rhs_scales [Ko, subgroups_n, 64, intrinsics_n * intrinsics_k B]
//   accs       [intrinsics_m, intrinsics_n, V x f32], private
//
// Iteration k loads step k + 1's A values, B fragments and B scales (but
// in the last one), runs step k's MFMAs, then quantizes step k + 1's A
// values: the loads complete behind the MFMAs, and the quantize of one step
// overlaps the MFMA pipe of the previous one.

// Selection data (see mx::gfx950::selectUKernel): fp4 A only, and only for
// an A quantized in the kernel (`quantized_lhs`).
// CHECK-LABEL: func.func private @mx_uk_scaled_mma_quantized_lhs(
//  CHECK-SAME:   mx.ukernel.match = {{{.*}}lhs_type = [f4E2M1FN]{{.*}}quantized_lhs = true
//       CHECK:   call @mx_uk_load_rhs
//       CHECK:   %[[A0:.+]] = vector.load %{{.+}} : memref<?x?x?x?x?x?x32xbf16
//       CHECK:   call @mx_uk_quantize_lhs(%[[A0]])
//       CHECK:   scf.for
//       CHECK:     scf.if
//       CHECK:       %[[A1:.+]] = vector.load
//       CHECK:       memref.store %[[A1]], %[[RAW:.+]][
//       CHECK:       call @mx_uk_load_rhs
//       CHECK:     amdgpu.scaled_mfma 16x16x128
//       CHECK:     scf.if
//       CHECK:       %[[A2:.+]] = memref.load %[[RAW]]
//       CHECK:       call @mx_uk_quantize_lhs(%[[A2]])
func.func private @mx_uk_scaled_mma_quantized_lhs(
    %src: memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>,
    %rhs: memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>,
    %rhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>,
    %accs: memref<?x?x?xf32, 5>,
    %wave_m: index, %wave_n: index, %lane: index,
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
  %c5 = arith.constant 5 : index
  %k_tiles = memref.dim %src, %c0 : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
  // The lane's K group and row in its A fragments.
  %rows = memref.dim %src, %c5 : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>
  %lane_g = arith.divui %lane, %rows : index
  %lane_r = arith.remui %lane, %rows : index
  %lane_bytes_b = memref.dim %rhs, %c5 : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1>
  // B as one row of bytes per K step, read through a buffer resource per
  // step (a scalar advance), each lane at a fixed 32-bit offset.
  %rhs_rows = memref.collapse_shape %rhs [[0], [1, 2, 3, 4, 5]]
      : memref<?x?x?x?x64x?xi8, strided<[?, ?, ?, ?, ?, 1], offset: ?>, 1> into memref<?x?xi8, strided<[?, ?], offset: ?>, 1>
  %rhs_flat = memref.cast %rhs_rows : memref<?x?xi8, strided<[?, ?], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %row_b = memref.dim %rhs_flat, %c1 : memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
  %groups_b = affine.apply affine_map<()[i, k] -> ((i * k) floordiv 4)>()[%intrinsics_n, %intrinsics_k]

  %raw_a = memref.alloca(%intrinsics_m, %intrinsics_k) : memref<?x?xvector<32xbf16>, 5>
  %frag_a = memref.alloca(%intrinsics_m, %intrinsics_k) : memref<?x?xvector<32xf4E2M1FN>, 5>
  %scale_a = memref.alloca(%intrinsics_m, %intrinsics_k) : memref<?x?xi8, 5>
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
    // Prologue: step 0's B fragments and scales, and its A blocks quantized.
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
    scf.for %i = %c0 to %intrinsics_m step %c1 {
      scf.for %q = %c0 to %intrinsics_k step %c1 {
        %x = vector.load %src[%c0, %wave_m, %i, %q, %lane_g, %lane_r, %c0]
            : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<32xbf16>
        %a, %s = func.call @mx_uk_quantize_lhs(%x) : (vector<32xbf16>) -> (vector<32xf4E2M1FN>, i8)
        memref.store %a, %frag_a[%i, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
        memref.store %s, %scale_a[%i, %q] : memref<?x?xi8, 5>
      } {mx.unroll}
    } {mx.unroll}

    scf.for %k = %c0 to %k_tiles step %c1 {
      %k1 = arith.addi %k, %c1 : index
      %has_next = arith.cmpi ult, %k, %k_last : index
      // Step k + 1's operands, into registers.
      scf.if %has_next {
        %rhs_k1_v = memref.subview %rhs_flat[%k1, 0] [%c1, %row_b] [1, 1] : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1], offset: ?>, 1>
        %rhs_k1 = amdgpu.fat_raw_buffer_cast %rhs_k1_v resetOffset boundsCheck(false) : memref<?x?xi8, strided<[?, 1], offset: ?>, 1> to memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
        scf.for %i = %c0 to %intrinsics_m step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %x = vector.load %src[%k1, %wave_m, %i, %q, %lane_g, %lane_r, %c0]
                : memref<?x?x?x?x?x?x32xbf16, strided<[?, ?, ?, ?, ?, ?, 1], offset: ?>, #amdgpu.address_space<fat_raw_buffer>>, vector<32xbf16>
            memref.store %x, %raw_a[%i, %q] : memref<?x?xvector<32xbf16>, 5>
          } {mx.unroll}
        } {mx.unroll}
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
            %sa8 = memref.load %scale_a[%i, %q] : memref<?x?xi8, 5>
            %sa = arith.bitcast %sa8 : i8 to f8E8M0FNU
            // Scale byte (j, q) of this lane, read as part of its 4-byte group.
            %sbi = affine.apply affine_map<(j, q)[n] -> (j * n + q)>(%j, %q)[%intrinsics_k]
            %sbg = affine.apply affine_map<(x) -> (x floordiv 4)>(%sbi)
            %sbp = affine.apply affine_map<(x) -> (x mod 4)>(%sbi)
            %sb32 = memref.load %scales_b[%sbg] : memref<?xvector<1xi32>, 5>
            %sb8 = vector.bitcast %sb32 : vector<1xi32> to vector<4xi8>
            %sbv = arith.bitcast %sb8 : vector<4xi8> to vector<4xf8E8M0FNU>
            %sb = vector.extract %sbv[%sbp] : f8E8M0FNU from vector<4xf8E8M0FNU>
            %x = vector.load %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
            %y = amdgpu.scaled_mfma 16x16x128 (%sb[0] * %b) * (%sa[0] * %a) + %x
                : f8E8M0FNU, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
            vector.store %y, %accs[%i, %j, %c0] : memref<?x?x?xf32, 5>, vector<4xf32>
          } {mx.unroll}
        } {mx.unroll}
      } {mx.unroll}
      // Step k + 1's A blocks quantized, its B fragments and scales current.
      scf.if %has_next {
        scf.for %i = %c0 to %intrinsics_m step %c1 {
          scf.for %q = %c0 to %intrinsics_k step %c1 {
            %x = memref.load %raw_a[%i, %q] : memref<?x?xvector<32xbf16>, 5>
            %a, %s = func.call @mx_uk_quantize_lhs(%x) : (vector<32xbf16>) -> (vector<32xf4E2M1FN>, i8)
            memref.store %a, %frag_a[%i, %q] : memref<?x?xvector<32xf4E2M1FN>, 5>
            memref.store %s, %scale_a[%i, %q] : memref<?x?xi8, 5>
          } {mx.unroll}
        } {mx.unroll}
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

// The hooks this ukernel calls; @mx_uk_load_rhs is implemented by
// @mx_uk_scaled_mma's @mx_uk_load_f4/_f6/_f8, @mx_uk_quantize_lhs by the
// quantize code of mx::gfx950::quantizeBlock for the type parameters.
func.func private @mx_uk_load_rhs(memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, index) -> vector<32xf8E4M3FN>
func.func private @mx_uk_quantize_lhs(vector<32xbf16>) -> (vector<32xf4E2M1FN>, i8)
