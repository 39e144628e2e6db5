// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings="target=#mx_test.resolver<16,16,64> user-layout-results" | FileCheck %s

// With user-layout-results, an accumulator laid out [M, N] stays as it is:
// the data-tiled GEMM reads and writes it in place.
// CHECK-LABEL: func.func @result_mn
//  CHECK-SAME:     %[[C:[a-zA-Z0-9_]+]]: tensor<33x47xf32>
//   CHECK-NOT:   linalg.pack %[[C]]
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma
//  CHECK-SAME:     outs(%[[C]] : tensor<33x47xf32>)
//   CHECK-NOT:   linalg.unpack
//       CHECK:   return %[[R]] : tensor<33x47xf32>
func.func @result_mn(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>,
    %c: tensor<33x47xf32>) -> tensor<33x47xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  return %r : tensor<33x47xf32>
}

// A transposed result ([N, M]) is not the GEMM's [M, N]: it is packed into
// the data-tiled layout and unpacked afterwards, as without the option.
// CHECK-LABEL: func.func @result_nm
//  CHECK-SAME:     %[[C:[a-zA-Z0-9_]+]]: tensor<47x33xf32>
//       CHECK:   linalg.pack %[[C]]
//  CHECK-SAME:     outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]
//       CHECK:   mx.tiled_scaled_mma
//       CHECK:   %[[U:.+]] = linalg.unpack
//  CHECK-SAME:     -> tensor<47x33xf32>
//       CHECK:   return %[[U]]
func.func @result_nm(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>,
    %c: tensor<47x33xf32>) -> tensor<47x33xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (n, m)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<47x33xf32>) -> tensor<47x33xf32>
  return %r : tensor<47x33xf32>
}
