// A malformed configuration table: 'm' is not a range.
module attributes {mx_gfx950.configs = [
  {lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, m = array<i64: 16, 1>, n = 512, k = 4096,
   pins = #mx_gfx950.target<split_k = 4>}
]} {
}
