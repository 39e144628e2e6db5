// The embedded configuration table (ukernels/gfx950/configs/table.mlir)
// carries bench/mx_tune.py's large-GEMM entries: fp6 A times fp4 B at the
// seed shape (10000x16384x16384) and 16384^3 take the 8 x 8 wave tile (128
// x 512 outputs on 1 x 4 waves), a win on both performance models under the
// whole sweep of assumed constants (bench/README.md); pairs and shapes
// without an entry keep the resolver's 16 x 4 tile, and so does the entry's
// shape with the table switched off.

// RUN: mx-opt %s --pass-pipeline="builtin.module(mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target})" --mlir-print-local-scope | FileCheck %s
// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings='target=#mx_gfx950.target<config_table="none">' --mlir-print-local-scope | FileCheck %s --check-prefix=NONE
// RUN: mx-opt %s --pass-pipeline="builtin.module(mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64>})" --mlir-print-local-scope | FileCheck %s --check-prefix=K32

// The entries are for 16x16x128: with 32x32x64 pinned they do not apply
// (their 8 x 8 intrinsics would be a 256 x 1024 wave tile of 32x32x64 that
// spills), and the resolver's 8 x 2 tile of that intrinsic stays.
// K32-LABEL: func.func @fp6_fp4_seed
//       K32:   mx.tiled_scaled_mma {{.*}}intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f6E2M3FN, rhs_type = f4E2M1FN, intrinsics_m = 8, intrinsics_n = 2, intrinsics_k = 2, subgroups_n = 4,
// K32-LABEL: func.func @fp6_fp4_cube
//       K32:   mx.tiled_scaled_mma {{.*}}intrinsic = #mx_gfx950.scaled_mfma<32x32x64>, lhs_type = f6E3M2FN, rhs_type = f4E2M1FN, intrinsics_m = 8, intrinsics_n = 2, intrinsics_k = 2, subgroups_n = 4,

// CHECK-LABEL: func.func @fp6_fp4_seed
//       CHECK:   mx.tiled_scaled_mma {{.*}}lhs_type = f6E2M3FN, rhs_type = f4E2M1FN, intrinsics_m = 8, intrinsics_n = 8, subgroups_n = 4,
// NONE-LABEL: func.func @fp6_fp4_seed
//       NONE:   mx.tiled_scaled_mma {{.*}}lhs_type = f6E2M3FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, subgroups_n = 4,
func.func @fp6_fp4_seed(%a: tensor<10000x16384xf6E2M3FN>, %b: tensor<16384x16384xf4E2M1FN>,
                        %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
                        %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf6E2M3FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}

// CHECK-LABEL: func.func @fp6_fp4_cube
//       CHECK:   mx.tiled_scaled_mma {{.*}}lhs_type = f6E3M2FN, rhs_type = f4E2M1FN, intrinsics_m = 8, intrinsics_n = 8, subgroups_n = 4,
func.func @fp6_fp4_cube(%a: tensor<16384x16384xf6E3M2FN>, %b: tensor<16384x16384xf4E2M1FN>,
                        %sa: tensor<16384x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
                        %c: tensor<16384x16384xf32>) -> tensor<16384x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16384x16384xf6E3M2FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<16384x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<16384x16384xf32>) -> tensor<16384x16384xf32>
  return %r : tensor<16384x16384xf32>
}

// fp8 x fp4 and fp8 x fp8 have no entry: the 8 x 8 tile is within 2% of the
// 16 x 4 one at the baseline settings (fp8 x fp4 had an entry until A's
// fragments were read several rows ahead, which sped up the 16 x 4 tile).
// CHECK-LABEL: func.func @fp8_fp4_seed
//       CHECK:   mx.tiled_scaled_mma {{.*}}lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, subgroups_n = 4,
// NONE-LABEL: func.func @fp8_fp4_seed
//       NONE:   mx.tiled_scaled_mma {{.*}}lhs_type = f8E4M3FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, subgroups_n = 4,
func.func @fp8_fp4_seed(%a: tensor<10000x16384xf8E4M3FN>, %b: tensor<16384x16384xf4E2M1FN>,
                        %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
                        %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E4M3FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}


// CHECK-LABEL: func.func @fp8_fp8_seed
//       CHECK:   mx.tiled_scaled_mma {{.*}}lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, intrinsics_m = 16, intrinsics_n = 4, subgroups_n = 4,
func.func @fp8_fp8_seed(%a: tensor<10000x16384xf8E4M3FN>, %b: tensor<16384x16384xf8E4M3FN>,
                        %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
                        %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf8E4M3FN>, tensor<16384x16384xf8E4M3FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}
