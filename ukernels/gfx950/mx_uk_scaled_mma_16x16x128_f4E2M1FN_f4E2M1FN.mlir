// RUN: mx-opt %s | mx-opt | FileCheck %s

// MXFP4 x MXFP4 scaled MMA ukernel on v_mfma_scale_f32_16x16x128_f8f6f4, for
// the data-tiled layouts of mx::gfx950::getSwizzle with the default
// interleaving (scales interleave the M/N and K unrolls, data and
// accumulators do not). It computes one wave's part of one workgroup tile
// over all K tiles; the caller passes byte views of the tiles, the lane
// dimensions (g, r) merged into one of 64 lanes:
//
//   lhs        [Ko, subgroups_m, intrinsics_m, intrinsics_k, 64, 16 B]
//   rhs        [Ko, subgroups_n, intrinsics_n, intrinsics_k, 64, 16 B]
//   lhs_scales [Ko, subgroups_m, 64, intrinsics_m * intrinsics_k B]
//   rhs_scales [Ko, subgroups_n, 64, intrinsics_n * intrinsics_k B]
//   acc        [subgroups_m, subgroups_n, intrinsics_m, intrinsics_n, 64, 4 x f32]
//
// The last three arguments (intrinsics_m, intrinsics_n, intrinsics_k) are
// the tile-size parameters: mx-gfx950-specialize-ukernels requires them to
// be constants at the call, clones the body into the caller and fully unrolls
// the loops marked mx.unroll, so the accumulators (a private array indexed
// by the unroll indices) become registers and each lane reads its scale
// bytes in 4-byte groups selected per MFMA with scalesIdx. It therefore
// needs intrinsics_m * intrinsics_k and intrinsics_n * intrinsics_k to be
// multiples of 4.

// Selection data: the layouts this ukernel serves (see
// mx::gfx950::selectUKernel). `scale_bytes_multiple_of` constrains
// intrinsics_m * intrinsics_k and intrinsics_n * intrinsics_k.

// CHECK-LABEL: func.func private @mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN
//  CHECK-SAME:   mx.ukernel.match = {interleave_k = ["lhs_scales", "rhs_scales"], interleave_m = ["lhs_scales"], interleave_n = ["rhs_scales"], intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, scale_bytes_multiple_of = 4 : i64}
//  CHECK-SAME:   mx.ukernel.num_parameters = 3 : i64
func.func private @mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN(
    %lhs: memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1>, %rhs: memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1>,
    %lhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, %rhs_scales: memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>,
    %acc: memref<?x?x?x?x64x4xf32, strided<[?, ?, ?, ?, 4, 1], offset: ?>, 1>,
    %wave_m: index, %wave_n: index, %lane: index,
    %intrinsics_m: index, %intrinsics_n: index, %intrinsics_k: index)
    attributes {mx.ukernel.num_parameters = 3 : i64,
                mx.ukernel.match = {intrinsic = "mfma_scale_16x16x128",
                                    lhs_type = f4E2M1FN, rhs_type = f4E2M1FN,
                                    interleave_m = ["lhs_scales"],
                                    interleave_n = ["rhs_scales"],
                                    interleave_k = ["lhs_scales", "rhs_scales"],
                                    scale_bytes_multiple_of = 4 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %k_tiles = memref.dim %lhs, %c0 : memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1>
  %accs = memref.alloca(%intrinsics_m, %intrinsics_n) : memref<?x?xvector<4xf32>, 5>
  scf.for %i = %c0 to %intrinsics_m step %c1 {
    scf.for %j = %c0 to %intrinsics_n step %c1 {
      %v = vector.load %acc[%wave_m, %wave_n, %i, %j, %lane, %c0]
          : memref<?x?x?x?x64x4xf32, strided<[?, ?, ?, ?, 4, 1], offset: ?>, 1>, vector<4xf32>
      memref.store %v, %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
    } {mx.unroll}
  } {mx.unroll}
  scf.for %k = %c0 to %k_tiles step %c1 {
    scf.for %i = %c0 to %intrinsics_m step %c1 {
      scf.for %j = %c0 to %intrinsics_n step %c1 {
        scf.for %q = %c0 to %intrinsics_k step %c1 {
          // 32 fp4 values per lane: 16 bytes, one 128-bit load.
          %a8 = vector.load %lhs[%k, %wave_m, %i, %q, %lane, %c0]
              : memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1>, vector<16xi8>
          %b8 = vector.load %rhs[%k, %wave_n, %j, %q, %lane, %c0]
              : memref<?x?x?x?x64x16xi8, strided<[?, ?, ?, ?, 16, 1], offset: ?>, 1>, vector<16xi8>
          %a4 = vector.bitcast %a8 : vector<16xi8> to vector<32xi4>
          %b4 = vector.bitcast %b8 : vector<16xi8> to vector<32xi4>
          %a = arith.bitcast %a4 : vector<32xi4> to vector<32xf4E2M1FN>
          %b = arith.bitcast %b4 : vector<32xi4> to vector<32xf4E2M1FN>
          // Scale byte (i, q) of this lane, read as part of its 4-byte group.
          %sai = affine.apply affine_map<(i, q)[n] -> (i * n + q)>(%i, %q)[%intrinsics_k]
          %sbi = affine.apply affine_map<(j, q)[n] -> (j * n + q)>(%j, %q)[%intrinsics_k]
          %sag = affine.apply affine_map<(x) -> ((x floordiv 4) * 4)>(%sai)
          %sbg = affine.apply affine_map<(x) -> ((x floordiv 4) * 4)>(%sbi)
          %sap = affine.apply affine_map<(x) -> (x mod 4)>(%sai)
          %sbp = affine.apply affine_map<(x) -> (x mod 4)>(%sbi)
          %sa8 = vector.load %lhs_scales[%k, %wave_m, %lane, %sag]
              : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
          %sb8 = vector.load %rhs_scales[%k, %wave_n, %lane, %sbg]
              : memref<?x?x64x?xi8, strided<[?, ?, ?, 1], offset: ?>, 1>, vector<4xi8>
          %sav = arith.bitcast %sa8 : vector<4xi8> to vector<4xf8E8M0FNU>
          %sbv = arith.bitcast %sb8 : vector<4xi8> to vector<4xf8E8M0FNU>
          %sa = vector.extract %sav[%sap] : f8E8M0FNU from vector<4xf8E8M0FNU>
          %sb = vector.extract %sbv[%sbp] : f8E8M0FNU from vector<4xf8E8M0FNU>
          %x = memref.load %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
          %y = amdgpu.scaled_mfma 16x16x128 (%sa[0] * %a) * (%sb[0] * %b) + %x
              : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
          memref.store %y, %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
        } {mx.unroll}
      } {mx.unroll}
    } {mx.unroll}
  }
  scf.for %i = %c0 to %intrinsics_m step %c1 {
    scf.for %j = %c0 to %intrinsics_n step %c1 {
      %v = memref.load %accs[%i, %j] : memref<?x?xvector<4xf32>, 5>
      vector.store %v, %acc[%wave_m, %wave_n, %i, %j, %lane, %c0]
          : memref<?x?x?x?x64x4xf32, strided<[?, ?, ?, ?, 4, 1], offset: ?>, 1>, vector<4xf32>
    } {mx.unroll}
  } {mx.unroll}
  return
}
