// The merge-gpu-launches stage as a transform script (read by stages.mlir).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.mx.merge_gpu_launches %func : !transform.any_op
    transform.yield
  }
}
