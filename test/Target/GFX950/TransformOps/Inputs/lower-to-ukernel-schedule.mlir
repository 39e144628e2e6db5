// The gfx950 ukernel stages as a transform script (read by
// lower-to-ukernel.mlir): each mx.tiled_scaled_mma becomes a launch of
// ukernel calls, each mx.quantize_into a quantize launch, then the ukernel
// calls are specialized.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mma = transform.structured.match ops{["mx.tiled_scaled_mma"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %launch = transform.mx.gfx950.lower_tiled_mma %mma
        : (!transform.any_op) -> !transform.any_op
    %quantize = transform.structured.match ops{["mx.quantize_into"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %qlaunch = transform.mx.gfx950.lower_quantize %quantize {workgroup_size = 128}
        : (!transform.any_op) -> !transform.any_op
    transform.mx.gfx950.specialize_ukernels %root : !transform.any_op
    transform.yield
  }
}
