// The specialize-dynamic-m stage as a transform script (read by stages.mlir).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %contraction = transform.structured.match ops{["mx.scaled_contraction"]} in %root : (!transform.any_op) -> !transform.any_op
    %versions = transform.mx.specialize_dynamic_m %contraction {layout_target = #mx_gfx950.target<require_ukernel = true>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
