// RUN: mx-opt %s | FileCheck %s
// CHECK: mx_gfx950.configs

// Tuned gfx950 configurations, consulted by the resolver before its
// heuristic (#mx_gfx950.target's config_table; docs/guides/tuning.md).
// Each entry pins the layout and split-K of the contractions of its element
// types with M in [m[0], m[1]] and exactly N and K; the comment gives the
// predicted time of the tuned and of the heuristic's configuration (decode:
// bench/decode_metrics.py's model; large GEMMs: both models, the static
// and the ISA executor's timing model; bench/README.md).
// Written by `bench/mx_tune.py --jobs 2`
// Written by `bench/mx_tune.py --shapes '' --gemm all --update --jobs 1`
// Written by `bench/mx_tune.py --shapes '' --gemm f6E2M3FN:f4E2M1FN,f6E3M2FN:f4E2M1FN,f8E4M3FN:f4E2M1FN,f8E5M2:f4E2M1FN --update --jobs 2`
// Written by `bench/mx_tune.py --shapes '' --gemm f6E2M3FN:f4E2M1FN,f6E2M3FN:f6E2M3FN,f6E2M3FN:f6E3M2FN,f6E2M3FN:f8E4M3FN,f6E2M3FN:f8E5M2,f6E3M2FN:f4E2M1FN,f6E3M2FN:f6E2M3FN,f6E3M2FN:f6E3M2FN,f6E3M2FN:f8E4M3FN,f6E3M2FN:f8E5M2,f8E4M3FN:f4E2M1FN,f8E4M3FN:f6E2M3FN,f8E4M3FN:f6E3M2FN,f8E4M3FN:f8E4M3FN,f8E4M3FN:f8E5M2,f8E5M2:f4E2M1FN,f8E5M2:f6E2M3FN,f8E5M2:f6E3M2FN,f8E5M2:f8E4M3FN,f8E5M2:f8E5M2 --update --jobs 2`
// Written by `bench/mx_tune.py --shapes decode --update --jobs 2`
// Written by `bench/mx_tune.py --shapes '' --gemm all --update --jobs 2`
module attributes {mx_gfx950.configs = [
  // 64x8192x8192: 6.69 us (heuristic: 13.01 us)
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 33, 64>, n = 8192, k = 8192,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 8, subgroups_m = 1, subgroups_n = 4, split_k = 2>},
  // 64x16384x16384: 18.16 us (heuristic: 26.55 us)
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 33, 64>, n = 16384, k = 16384,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 8, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 64x8192x8192: 10.32 us (heuristic: 17.24 us)
  {lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, m = array<i64: 33, 64>, n = 8192, k = 8192,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 4, subgroups_m = 1, subgroups_n = 4, split_k = 2>},
  // 64x16384x16384: 35.00 us (heuristic: 43.39 us)
  {lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, m = array<i64: 33, 64>, n = 16384, k = 16384,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 2, intrinsics_n = 2, intrinsics_k = 4, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 4x2880x512: 2.67 us (heuristic: 3.01 us)
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 1, 16>, n = 2880, k = 512,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 4, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 32x4096x512: 2.45 us (heuristic: 3.05 us)
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 17, 32>, n = 4096, k = 512,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 4, subgroups_m = 2, subgroups_n = 1, split_k = 1>},
  // 64x7168x2048: 3.68 us (heuristic: 6.95 us)
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 33, 64>, n = 7168, k = 2048,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 8, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 256x3072x1536: 4.54 us (heuristic: 12.18 us)
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 256, 256>, n = 3072, k = 1536,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 1, intrinsics_n = 2, intrinsics_k = 4, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 16384x16384x16384: 4.51 / 4.69 PF/s static / timing (heuristic: 4.32 / 4.48), faster under the whole sweep
  {lhs_type = f6E2M3FN, rhs_type = f4E2M1FN, m = array<i64: 16384, 16384>, n = 16384, k = 16384,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 8, intrinsics_n = 8, intrinsics_k = 1, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 10000x16384x16384: 4.40 / 4.58 PF/s static / timing (heuristic: 4.22 / 4.38), faster under the whole sweep
  {lhs_type = f6E2M3FN, rhs_type = f4E2M1FN, m = array<i64: 10000, 10000>, n = 16384, k = 16384,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 8, intrinsics_n = 8, intrinsics_k = 1, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 16384x16384x16384: 4.51 / 4.69 PF/s static / timing (heuristic: 4.32 / 4.48), faster under the whole sweep
  {lhs_type = f6E3M2FN, rhs_type = f4E2M1FN, m = array<i64: 16384, 16384>, n = 16384, k = 16384,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 8, intrinsics_n = 8, intrinsics_k = 1, subgroups_m = 1, subgroups_n = 4, split_k = 1>},
  // 10000x16384x16384: 4.40 / 4.58 PF/s static / timing (heuristic: 4.22 / 4.38), faster under the whole sweep
  {lhs_type = f6E3M2FN, rhs_type = f4E2M1FN, m = array<i64: 10000, 10000>, n = 16384, k = 16384,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 8, intrinsics_n = 8, intrinsics_k = 1, subgroups_m = 1, subgroups_n = 4, split_k = 1>}
]} {
}
