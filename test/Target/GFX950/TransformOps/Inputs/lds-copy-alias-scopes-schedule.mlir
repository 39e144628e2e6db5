// The lds-copy-alias-scopes stage as a transform script (read by stages.mlir).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %module = transform.structured.match ops{["gpu.module"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.mx.gfx950.lds_copy_alias_scopes %module : !transform.any_op
    transform.yield
  }
}
