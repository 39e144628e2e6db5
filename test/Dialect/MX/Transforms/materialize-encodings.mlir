// RUN: mx-opt %s --split-input-file --mx-set-encodings --mx-materialize-encodings | FileCheck %s
// RUN: mx-opt %s --split-input-file --mx-set-encodings --mx-materialize-encodings="target=#mx_test.resolver<16,16,64>" | FileCheck %s --check-prefix=OPTION

// Materialization with a made-up target (mx_test, test/lib/TestTarget): the
// pass takes the layout from whatever LayoutResolverAttrInterface it finds,
// here the module's mx.target, and relays every operand out by that layout's
// inner tiles and swizzle (lhs [16, 64] -> [2, 16, 32]; scales [16, 2] ->
// [8, 2, 2]; result [16, 16] -> [4, 16, 4]).

// CHECK-LABEL: func.func @module_target
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<40x128xf4E2M1FN>
// CHECK-SAME:    %[[SA:[a-z0-9]+]]: tensor<40x4xf8E8M0FNU>
// CHECK:         %[[PACK:.+]] = linalg.pack %[[A]]
// CHECK-SAME:      inner_dims_pos = [0, 1] inner_tiles = [16, 64]
// CHECK-SAME:      -> tensor<3x2x16x64xf4E2M1FN>
// CHECK:         %[[EXP:.+]] = tensor.expand_shape %[[PACK]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [3, 2, 16, 2, 32]
// CHECK:         %[[LHS:.+]] = linalg.transpose ins(%[[EXP]] : tensor<3x2x16x2x32xf4E2M1FN>)
// CHECK-SAME:      permutation = [0, 1, 3, 2, 4]
// CHECK:         %[[SPACK:.+]] = linalg.pack %[[SA]]
// CHECK-SAME:      inner_tiles = [16, 2]
// CHECK:         tensor.expand_shape %[[SPACK]] {{\[\[}}0], [1], [2, 3], [4]] output_shape [3, 2, 8, 2, 2]
// CHECK:         permutation = [0, 1, 2, 4, 3]
// CHECK:         mx.tiled_scaled_mma ins(%[[LHS]],
// CHECK-SAME:      layout = #mx_test.layout<16, 16, 64, f4E2M1FN, f8E4M3FN>
// CHECK:         linalg.unpack
// OPTION-LABEL: func.func @module_target
// OPTION:         mx.tiled_scaled_mma
// OPTION-SAME:      layout = #mx_test.layout<16, 16, 64, f4E2M1FN, f8E4M3FN>
module attributes {mx.target = #mx_test.resolver<16, 16, 64>} {
  func.func @module_target(%a: tensor<40x128xf4E2M1FN>, %b: tensor<24x128xf8E4M3FN>,
                           %sa: tensor<40x4xf8E8M0FNU>, %sb: tensor<24x4xf8E8M0FNU>,
                           %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
    %r = mx.scaled_contraction
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                         affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b, %sa, %sb : tensor<40x128xf4E2M1FN>, tensor<24x128xf8E4M3FN>,
                              tensor<40x4xf8E8M0FNU>, tensor<24x4xf8E8M0FNU>)
        outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
    return %r : tensor<40x24xf32>
  }
}

// -----

// The nearest mx.target wins: the function's over the module's, and both
// over the pass option.

// CHECK-LABEL: func.func @function_target
// CHECK:         mx.tiled_scaled_mma
// CHECK-SAME:      layout = #mx_test.layout<32, 8, 32, f4E2M1FN, f4E2M1FN>
// CHECK-LABEL: func.func @module_target_again
// CHECK:         mx.tiled_scaled_mma
// CHECK-SAME:      layout = #mx_test.layout<16, 16, 64, f4E2M1FN, f4E2M1FN>
// OPTION-LABEL: func.func @function_target
// OPTION-SAME:    mx.target = #mx_test.resolver<32, 8, 32>
// OPTION:         layout = #mx_test.layout<32, 8, 32, f4E2M1FN, f4E2M1FN>
module attributes {mx.target = #mx_test.resolver<16, 16, 64>} {
  func.func @function_target(%a: tensor<32x64xf4E2M1FN>, %b: tensor<8x64xf4E2M1FN>,
                             %sa: tensor<32x2xf8E8M0FNU>, %sb: tensor<8x2xf8E8M0FNU>,
                             %c: tensor<32x8xf32>) -> tensor<32x8xf32>
      attributes {mx.target = #mx_test.resolver<32, 8, 32>} {
    %r = mx.scaled_contraction
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                         affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b, %sa, %sb : tensor<32x64xf4E2M1FN>, tensor<8x64xf4E2M1FN>,
                              tensor<32x2xf8E8M0FNU>, tensor<8x2xf8E8M0FNU>)
        outs(%c : tensor<32x8xf32>) -> tensor<32x8xf32>
    return %r : tensor<32x8xf32>
  }
  func.func @module_target_again(%a: tensor<32x64xf4E2M1FN>, %b: tensor<8x64xf4E2M1FN>,
                                 %sa: tensor<32x2xf8E8M0FNU>, %sb: tensor<8x2xf8E8M0FNU>,
                                 %c: tensor<32x8xf32>) -> tensor<32x8xf32> {
    %r = mx.scaled_contraction
        indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                         affine_map<(m, n, k) -> (n, k)>,
                         affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %b, %sa, %sb : tensor<32x64xf4E2M1FN>, tensor<8x64xf4E2M1FN>,
                              tensor<32x2xf8E8M0FNU>, tensor<8x2xf8E8M0FNU>)
        outs(%c : tensor<32x8xf32>) -> tensor<32x8xf32>
    return %r : tensor<32x8xf32>
  }
}
