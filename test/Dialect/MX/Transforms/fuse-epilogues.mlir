// RUN: mx-opt %s -split-input-file --mx-fuse-epilogues -verify-diagnostics | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-fuse-epilogues -verify-diagnostics | mx-opt -split-input-file | FileCheck %s

// mx-fuse-epilogues: a bias along N, a ReLU and the conversion to bf16 of a
// zero-started GEMM in the user's layout become its epilogue; the GEMM
// writes the generic's output.
#l = #mx.data_tiled_layout<intrinsic = mfma_scale_16x16x128, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @bias_relu_bf16
//  CHECK-SAME:   %[[BIAS:[^:]+]]: tensor<40xf32>, %[[OUT:[^:]+]]: tensor<64x40xbf16>
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma ins({{.*}}) outs(%[[OUT]] : tensor<64x40xbf16>) layout = #{{.+}} zero_acc
//  CHECK-SAME:     epilogue ins(%[[BIAS]] : tensor<40xf32>) maps [#{{.+}}] {
//  CHECK-NEXT:   ^bb0(%[[S:.+]]: f32, %[[X:.+]]: f32, %{{.+}}: bf16):
//       CHECK:     %[[ADD:.+]] = arith.addf %[[S]], %[[X]] : f32
//  CHECK-NEXT:     %[[MAX:.+]] = arith.maximumf %[[ADD]], %{{.+}} : f32
//  CHECK-NEXT:     %[[T:.+]] = arith.truncf %[[MAX]] : f32 to bf16
//  CHECK-NEXT:     mx.yield %[[T]] : bf16
//  CHECK-NEXT:   } -> tensor<64x40xbf16>
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[R]]
func.func @bias_relu_bf16(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                          %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                          %bias: tensor<40xf32>, %out: tensor<64x40xbf16>) -> tensor<64x40xbf16> {
  %e = tensor.empty() : tensor<64x40xf32>
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x40xf32>) layout = #l zero_acc -> tensor<64x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<64x40xf32>, tensor<40xf32>) outs(%out : tensor<64x40xbf16>) {
  ^bb0(%x: f32, %y: f32, %o: bf16):
    %zero = arith.constant 0.0 : f32
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x40xbf16>
  return %g : tensor<64x40xbf16>
}

// -----

// C + A B: the sums are rounded to f32 before the conversion, so the
// conversion stays a separate op (with a remark).
#l = #mx.data_tiled_layout<intrinsic = mfma_scale_16x16x128, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @real_c
//       CHECK:   mx.tiled_scaled_mma
//   CHECK-NOT:     epilogue
//       CHECK:   linalg.generic
func.func @real_c(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                  %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                  %c: tensor<64x40xf32>, %out: tensor<64x40xbf16>) -> tensor<64x40xbf16> {
  // expected-remark @+1 {{the elementwise consumer of the result stays a separate dispatch: the accumulator does not start at zero}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<64x40xf32>) layout = #l -> tensor<64x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x40xf32>) outs(%out : tensor<64x40xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x40xbf16>
  return %g : tensor<64x40xbf16>
}

// -----

// A consumer that reads the result transposed is not elementwise on it.
#l = #mx.data_tiled_layout<intrinsic = mfma_scale_16x16x128, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @transposed
//       CHECK:   linalg.generic
func.func @transposed(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<4x2x4x16x32xf4E2M1FN>,
                      %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<4x2x4x16xf8E8M0FNU>,
                      %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{the elementwise consumer of the result stays a separate dispatch: the consumer does not read the result elementwise (identity map)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<4x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x64xf32>) layout = #l zero_acc -> tensor<64x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (n, m)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.negf %x : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %g : tensor<64x64xf32>
}
