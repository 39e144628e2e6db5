// The split-k stage as a transform script (read by stages.mlir).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mma = transform.structured.match ops{["mx.tiled_scaled_mma"]} in %root : (!transform.any_op) -> !transform.any_op
    %split = transform.mx.split_k %mma {layout_target = #mx_gfx950.target<split_k = 2>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
