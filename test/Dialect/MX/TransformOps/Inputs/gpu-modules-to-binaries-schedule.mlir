// The gpu-modules-to-binaries stage as a transform script (read by
// gpu-modules-to-binaries.mlir).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.mx.gpu_modules_to_binaries %root {format = "isa"} : !transform.any_op
    transform.yield
  }
}
