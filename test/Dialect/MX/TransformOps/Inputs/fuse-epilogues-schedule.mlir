// The fuse-epilogues stage as a transform script (read by stages.mlir).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mma = transform.structured.match ops{["mx.tiled_scaled_mma"]} in %root : (!transform.any_op) -> !transform.any_op
    %fused = transform.mx.fuse_epilogue %mma {layout_target = #mx_gfx950.target} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
