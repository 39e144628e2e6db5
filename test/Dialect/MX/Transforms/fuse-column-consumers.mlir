// RUN: mx-opt %s -split-input-file --mx-fuse-column-consumers -verify-diagnostics | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-fuse-column-consumers -verify-diagnostics | mx-opt -split-input-file | FileCheck %s
// RUN: not mx-opt %s -split-input-file --mx-fuse-column-consumers=target=gfx942 2>&1 | FileCheck %s --check-prefix=BAD-TARGET
// BAD-TARGET: mx-fuse-column-consumers: invalid target 'gfx942' (expected a target attribute such as #mx_gfx950.target)

// A weighted combine of top-2 rows (out[t, n] = w[t, 0] y[2t, n] + w[t, 1]
// y[2t + 1, n]), read through an expand_shape of the rows, is marked to run
// in the GEMM's kernel, with the GEMM's +0 counters (40 columns in N tiles
// of 16: 3) as its last input.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @combine
//  CHECK-SAME:   %[[W:[^:]+]]: tensor<32x2xf32>)
//       CHECK:   %[[OUT:.+]] = tensor.empty() : tensor<32x40xbf16>
//       CHECK:   %[[EMPTY:.+]] = tensor.empty() : tensor<3xi32>
//       CHECK:   %[[ZERO:.+]] = arith.constant 0 : i32
//       CHECK:   %[[COUNTERS:.+]] = linalg.fill ins(%[[ZERO]] : i32) outs(%[[EMPTY]] : tensor<3xi32>) -> tensor<3xi32>
//       CHECK:   %[[Y:.+]] = mx.tiled_scaled_mma
//       CHECK:   %[[Y3:.+]] = tensor.expand_shape %[[Y]]
//       CHECK:   %[[G:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #[[ZEROMAP:.+]], #{{.+}}],
//  CHECK-SAME:       ins(%[[Y3]], %[[Y3]], %[[W]], %[[W]], %[[COUNTERS]] : {{.*}}, tensor<3xi32>) outs(%[[OUT]] : tensor<32x40xbf16>)
//  CHECK-SAME:       attrs = {mx.column_consumer} {
//  CHECK-NEXT:   ^bb0(%[[V0:.+]]: f32, %[[V1:.+]]: f32, %[[C0:.+]]: f32, %[[C1:.+]]: f32, %{{.+}}: i32, %{{.+}}: bf16):
//  CHECK-NEXT:     %[[P0:.+]] = arith.mulf %[[C0]], %[[V0]] : f32
//  CHECK-NEXT:     %[[P1:.+]] = arith.mulf %[[C1]], %[[V1]] : f32
//  CHECK-NEXT:     %[[S:.+]] = arith.addf %[[P0]], %[[P1]] : f32
//       CHECK:   return %[[G]]
func.func @combine(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                   %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                   %w: tensor<32x2xf32>) -> tensor<32x40xbf16> {
  %out = tensor.empty() : tensor<32x40xbf16>
  %e = tensor.empty() : tensor<64x40xf32>
  %y = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x40xf32>) layout = #l zero_acc -> tensor<64x40xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [32, 2, 40] : tensor<64x40xf32> into tensor<32x2x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 1, n)>,
                                        affine_map<(t, n) -> (t, 0)>, affine_map<(t, n) -> (t, 1)>, affine_map<(t, n) -> (t, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y3, %y3, %w, %w : tensor<32x2x40xf32>, tensor<32x2x40xf32>, tensor<32x2xf32>, tensor<32x2xf32>) outs(%out : tensor<32x40xbf16>) {
  ^bb0(%v0: f32, %v1: f32, %c0: f32, %c1: f32, %o: bf16):
    %p0 = arith.mulf %c0, %v0 : f32
    %p1 = arith.mulf %c1, %v1 : f32
    %s = arith.addf %p0, %p1 : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x40xbf16>
  return %g : tensor<32x40xbf16>
}

// -----

// The same combine over more rows than one wave takes per strip (1024 rows
// x 16 columns = 16384 elements > 4096): it stays a dispatch, with a remark.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @too_large
//   CHECK-NOT:   mx.column_consumer
//   CHECK-NOT:   linalg.fill
//       CHECK:   return
func.func @too_large(%a: tensor<128x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                     %sa: tensor<128x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>) -> tensor<1024x40xbf16> {
  %out = tensor.empty() : tensor<1024x40xbf16>
  %e = tensor.empty() : tensor<2048x40xf32>
  // expected-remark @+1 {{the column consumer of the result stays a separate dispatch: a strip of N tiles has 16384 output elements, more than max-strip-elements (4096) for one wave}}
  %y = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<128x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<128x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<2048x40xf32>) layout = #l zero_acc -> tensor<2048x40xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [1024, 2, 40] : tensor<2048x40xf32> into tensor<1024x2x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 1, n)>, affine_map<(t, n) -> (t, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y3, %y3 : tensor<1024x2x40xf32>, tensor<1024x2x40xf32>) outs(%out : tensor<1024x40xbf16>) {
  ^bb0(%v0: f32, %v1: f32, %o: bf16):
    %s = arith.addf %v0, %v1 : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1024x40xbf16>
  return %g : tensor<1024x40xbf16>
}

// -----

// A weight computed after the GEMM would not be there when the kernel reads
// it.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @computed_after
//   CHECK-NOT:   mx.column_consumer
func.func @computed_after(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                          %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                          %w: tensor<32x2xf32>) -> tensor<32x40xbf16> {
  %out = tensor.empty() : tensor<32x40xbf16>
  %e = tensor.empty() : tensor<64x40xf32>
  // expected-remark @+1 {{the column consumer of the result stays a separate dispatch: an input of the consumer is computed after the GEMM}}
  %y = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x40xf32>) layout = #l zero_acc -> tensor<64x40xf32>
  %w2 = arith.addf %w, %w : tensor<32x2xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [32, 2, 40] : tensor<64x40xf32> into tensor<32x2x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 0)>, affine_map<(t, n) -> (t, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y3, %w2 : tensor<32x2x40xf32>, tensor<32x2xf32>) outs(%out : tensor<32x40xbf16>) {
  ^bb0(%v0: f32, %c0: f32, %o: bf16):
    %s = arith.mulf %c0, %v0 : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x40xbf16>
  return %g : tensor<32x40xbf16>
}

// -----

// A consumer that reads another column of the result than its own (here
// transposed) needs other strips' sums.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @other_column
//   CHECK-NOT:   mx.column_consumer
func.func @other_column(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<4x2x4x16x32xf4E2M1FN>,
                        %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<4x2x4x16xf8E8M0FNU>) -> tensor<64x64xf32> {
  %out = tensor.empty() : tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{the column consumer of the result stays a separate dispatch: the consumer reads the result at another column than its own}}
  %y = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<4x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x64xf32>) layout = #l zero_acc -> tensor<64x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (n, m)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<64x64xf32>
  return %g : tensor<64x64xf32>
}

// -----

// The row read depends on the column: not a column consumer.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @row_from_column
//   CHECK-NOT:   mx.column_consumer
func.func @row_from_column(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<4x2x4x16x32xf4E2M1FN>,
                           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<4x2x4x16xf8E8M0FNU>) -> tensor<32x64xf32> {
  %out = tensor.empty() : tensor<32x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{the column consumer of the result stays a separate dispatch: the consumer's row of the result depends on its column}}
  %y = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<4x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x64xf32>) layout = #l zero_acc -> tensor<64x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m + n floordiv 32, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<64x64xf32>) outs(%out : tensor<32x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<32x64xf32>
  return %g : tensor<32x64xf32>
}

// -----

// An elementwise consumer (identity map) is mx-fuse-epilogues' business (or
// a dispatch): no remark, nothing marked.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @elementwise
//   CHECK-NOT:   mx.column_consumer
func.func @elementwise(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                       %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                       %c: tensor<64x40xf32>) -> tensor<64x40xbf16> {
  %out = tensor.empty() : tensor<64x40xbf16>
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

// The target cannot compute an op of the body (math.erf would be a device
// library call on gfx950).
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @erf
//   CHECK-NOT:   mx.column_consumer
func.func @erf(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
               %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>) -> tensor<32x40xf32> attributes {mx.target = #mx_gfx950.target} {
  %out = tensor.empty() : tensor<32x40xf32>
  %e = tensor.empty() : tensor<64x40xf32>
  // expected-remark @+1 {{the column consumer of the result stays a separate dispatch: the target's kernels cannot compute an op of its body: 'math.erf' would be a call into ROCm's device library in a gfx950 kernel, which mx does not link}}
  %y = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x40xf32>) layout = #l zero_acc -> tensor<64x40xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [32, 2, 40] : tensor<64x40xf32> into tensor<32x2x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 1, n)>, affine_map<(t, n) -> (t, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y3 : tensor<32x2x40xf32>) outs(%out : tensor<32x40xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.erf %v : f32
    linalg.yield %r : f32
  } -> tensor<32x40xf32>
  return %g : tensor<32x40xf32>
}

// -----

// The output is a function argument: the kernel would write it where the
// GEMM runs, before the ops between the GEMM and the consumer.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @output_argument
//   CHECK-NOT:   mx.column_consumer
func.func @output_argument(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                           %out: tensor<32x40xf32>) -> tensor<32x40xf32> {
  %e = tensor.empty() : tensor<64x40xf32>
  // expected-remark @+1 {{the column consumer of the result stays a separate dispatch: the consumer's output is not a tensor.empty of its own}}
  %y = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x40xf32>) layout = #l zero_acc -> tensor<64x40xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [32, 2, 40] : tensor<64x40xf32> into tensor<32x2x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 1, n)>, affine_map<(t, n) -> (t, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y3 : tensor<32x2x40xf32>) outs(%out : tensor<32x40xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<32x40xf32>
  return %g : tensor<32x40xf32>
}
