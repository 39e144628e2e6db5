// RUN: mx-opt %s --mx-materialize-encodings -verify-diagnostics

// Without a target option, the target must be on the IR.
func.func @no_target(%a: tensor<16x64xf4E2M1FN>) -> tensor<16x64xf4E2M1FN> {
  // expected-error @+1 {{'mx.set_encoding' op no target to resolve its encoding: give mx-materialize-encodings a target option (e.g. target=#mx_gfx950.target) or put an 'mx.target' attribute on an enclosing op}}
  %e = mx.set_encoding %a : tensor<16x64xf4E2M1FN> -> tensor<16x64xf4E2M1FN, #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iteration_sizes = [16, 16, 64]>>
  %r = mx.unset_encoding %e : tensor<16x64xf4E2M1FN, #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iteration_sizes = [16, 16, 64]>> -> tensor<16x64xf4E2M1FN>
  return %r : tensor<16x64xf4E2M1FN>
}

