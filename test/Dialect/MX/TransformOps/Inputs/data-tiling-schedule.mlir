// The data-tiling stages as a transform script (read by data-tiling.mlir):
// raise the upstream-form matmul, put encodings on its operands, and
// materialize them with the made-up test target.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %generic = transform.structured.match ops{["linalg.generic"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %contraction = transform.mx.raise_scaled_matmul %generic
        : (!transform.any_op) -> !transform.any_op
    %unset = transform.mx.set_encodings %contraction
        : (!transform.any_op) -> !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.mx.materialize_encodings %func
        {layout_target = #mx_test.resolver<16, 16, 64>} : !transform.any_op
    transform.yield
  }
}
