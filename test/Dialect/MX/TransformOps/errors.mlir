// RUN: mx-opt %s --split-input-file --transform-interpreter -verify-diagnostics

// A payload op of the wrong kind is a silenceable failure naming both.
func.func @not_a_contraction(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{payload op}}
  %y = arith.negf %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %neg = transform.structured.match ops{["arith.negf"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected 'mx.scaled_contraction' payload, got 'arith.negf'}}
    %unset = transform.mx.set_encodings %neg
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A layout target must be a target attribute.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'layout_target' must be a target attribute implementing LayoutResolverAttrInterface}}
    transform.mx.materialize_encodings %root {layout_target = 5 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

// A rewrite that reports an error is a definite failure: here an encoding
// with no target to resolve it (no layout_target, no enclosing mx.target).
#enc = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iteration_sizes = [16, 16, 64]>
func.func @no_target(%a: tensor<16x64xf4E2M1FN>) -> tensor<16x64xf4E2M1FN> {
  // expected-error @below {{'mx.set_encoding' op no target to resolve its encoding}}
  %e = mx.set_encoding %a : tensor<16x64xf4E2M1FN> -> tensor<16x64xf4E2M1FN, #enc>
  %r = mx.unset_encoding %e : tensor<16x64xf4E2M1FN, #enc> -> tensor<16x64xf4E2M1FN>
  return %r : tensor<16x64xf4E2M1FN>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{materializing the encodings failed (see the errors above)}}
    transform.mx.materialize_encodings %func : !transform.any_op
    transform.yield
  }
}

// -----

// A serialization format mx-gpu-modules-to-binaries does not know.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'format' must be isa, bin, llvm or fatbin, got 'elf'}}
    transform.mx.gpu_modules_to_binaries %root {format = "elf"} : !transform.any_op
    transform.yield
  }
}
