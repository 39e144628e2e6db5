// RUN: mx-opt %s --mx-materialize-encodings="target=#mx_test.resolver<16,16,64>" -verify-diagnostics

// Data tiling needs all five tensors of the contraction encoded.
#maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
#lhs = #mx.encoding<role = lhs, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [16, 16, 64]>
#res = #mx.encoding<role = result, element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], indexing_maps = #maps, iteration_sizes = [16, 16, 64]>
func.func @partial(%a: tensor<16x64xf4E2M1FN>, %b: tensor<16x64xf4E2M1FN>,
                   %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<16x2xf8E8M0FNU>,
                   %c: tensor<16x16xf32, #res>) -> tensor<16x16xf32, #res> {
  %ea = mx.set_encoding %a : tensor<16x64xf4E2M1FN> -> tensor<16x64xf4E2M1FN, #lhs>
  // expected-error @+1 {{data tiling needs all five operands encoded by mx.set_encoding}}
  %r = mx.scaled_contraction
      indexing_maps = #maps
      ins(%ea, %b, %sa, %sb : tensor<16x64xf4E2M1FN, #lhs>, tensor<16x64xf4E2M1FN>,
                            tensor<16x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32, #res>) -> tensor<16x16xf32, #res>
  return %r : tensor<16x16xf32, #res>
}
