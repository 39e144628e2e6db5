// A configuration table for config-table.mlir: 2 waves along N of 2
// intrinsics each, and K in 4 parts, for fp4 with M in [1, 16], N = 512,
// K = 4096; an entry that no ukernel serves (fp8 tiles of one intrinsic
// with a K step of one: the lane's scale bytes are no 4-byte group) for
// N = 256.
module attributes {mx_gfx950.configs = [
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 1, 16>, n = 512, k = 4096,
   pins = #mx_gfx950.target<intrinsics_m = 1, intrinsics_n = 2, intrinsics_k = 4, subgroups_m = 1, subgroups_n = 2, split_k = 4>},
  {lhs_type = f8E4M3FN, rhs_type = f8E4M3FN, m = array<i64: 1, 64>, n = 256, k = 2048,
   pins = #mx_gfx950.target<intrinsics_m = 1, intrinsics_n = 1, intrinsics_k = 1>}
]} {
}
