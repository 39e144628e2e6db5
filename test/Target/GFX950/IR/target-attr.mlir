// RUN: mx-opt %s | FileCheck %s
// RUN: mx-opt %s | mx-opt | FileCheck %s

// #mx_gfx950.target round-trips; defaults (0 = the resolver's choice, no
// ukernel requirement) are not printed, keys may come in any order.

// CHECK-LABEL: func.func @defaults
// CHECK-SAME:    mx.target = #mx_gfx950.target
// CHECK-NOT:     #mx_gfx950.target<
func.func @defaults() attributes {mx.target = #mx_gfx950.target} {
  return
}

// CHECK-LABEL: func.func @pins
// CHECK-SAME:    mx.target = #mx_gfx950.target<intrinsic = mfma_scale_32x32x64, intrinsics_m = 2, intrinsics_k = 4, subgroups_n = 2, require_ukernel = true>
func.func @pins() attributes {mx.target = #mx_gfx950.target<require_ukernel = true, subgroups_n = 2, intrinsics_k = 4, intrinsics_m = 2, intrinsic = mfma_scale_32x32x64>} {
  return
}

// CHECK-LABEL: func.func @explicit_defaults
// CHECK-SAME:    mx.target = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128>
func.func @explicit_defaults() attributes {mx.target = #mx_gfx950.target<intrinsic = mfma_scale_16x16x128, intrinsics_n = 0, require_ukernel = false>} {
  return
}

// Split-K and a configuration table (the string is escaped when printed).
// CHECK-LABEL: func.func @split_and_table
// CHECK-SAME:    mx.target = #mx_gfx950.target<split_k = 4, config_table = "tables/a \22b\22.mlir">
func.func @split_and_table() attributes {mx.target = #mx_gfx950.target<config_table = "tables/a \"b\".mlir", split_k = 4>} {
  return
}
