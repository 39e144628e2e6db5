// RUN: mx-opt %s | FileCheck %s
// CHECK: mx_gfx950.configs

// Tuned gfx950 configurations, consulted by the resolver before its
// heuristic (#mx_gfx950.target's config_table; docs/guides/tuning.md).
// Written by bench/mx_tune.py; each entry pins the layout and split-K of the
// contractions of its element types with M in [m[0], m[1]] and exactly N
// and K.
module attributes {mx_gfx950.configs = [
  {lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, m = array<i64: 1, 16>, n = 8192, k = 8192,
   pins = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 4, subgroups_m = 1, subgroups_n = 2, split_k = 1>}
]} {
}
