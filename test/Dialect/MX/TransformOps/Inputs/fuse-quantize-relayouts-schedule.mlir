// The fuse-quantize-relayouts stage as a transform script (read by stages.mlir).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %contraction = transform.structured.match ops{["mx.scaled_contraction"]} in %root : (!transform.any_op) -> !transform.any_op
    %unset = transform.mx.set_encodings %contraction : (!transform.any_op) -> !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.mx.materialize_encodings %func {layout_target = #mx_gfx950.target<require_ukernel = true>} : !transform.any_op
    %quantize = transform.structured.match ops{["mx.quantize"]} in %root : (!transform.any_op) -> !transform.any_op
    %into = transform.mx.fuse_quantize_relayouts %quantize : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
