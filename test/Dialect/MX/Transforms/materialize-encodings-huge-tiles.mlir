// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings="target=#mx_test.resolver<1000000,1000000,1000064>" | FileCheck %s

// A constant operand is relaid out at compile time only while the padded
// result stays small (at most 2^22 elements); tiles that pad a 16 x 64
// constant to 10^6 x 1000064 values leave it to a run-time linalg.pack
// (issue 20: folding it tried to build 10^12 attributes and aborted).

// CHECK-LABEL: func.func @constant_weights
//       CHECK:   %[[B:.+]] = arith.constant dense<1.000000e+00> : tensor<16x64xf4E2M1FN>
//       CHECK:   linalg.pack %[[B]] padding_value(%{{.+}} : f4E2M1FN) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [1000000, 1000064]{{.*}} -> tensor<1x1x1000000x1000064xf4E2M1FN>
func.func @constant_weights(%a: tensor<24x64xf8E5M2>, %sa: tensor<24x2xf8E8M0FNU>,
    %c: tensor<24x16xf32>) -> tensor<24x16xf32> {
  %b = arith.constant dense<1.0> : tensor<16x64xf4E2M1FN>
  %sb = arith.constant dense<1.0> : tensor<16x2xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<24x64xf8E5M2>, tensor<16x64xf4E2M1FN>,
                            tensor<24x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<24x16xf32>) -> tensor<24x16xf32>
  return %r : tensor<24x16xf32>
}
