// RUN: mx-opt %s -split-input-file --mx-fuse-epilogues -verify-diagnostics | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-fuse-epilogues -verify-diagnostics | mx-opt -split-input-file | FileCheck %s
// RUN: not mx-opt %s -split-input-file --mx-fuse-epilogues=target=gfx942 2>&1 | FileCheck %s --check-prefix=BAD-TARGET
// BAD-TARGET: mx-fuse-epilogues: invalid target 'gfx942' (expected a target attribute such as #mx_gfx950.target)

// mx-fuse-epilogues: a bias along N, a ReLU and the conversion to bf16 of a
// zero-started GEMM in the user's layout become its epilogue; the GEMM
// writes the generic's output.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
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
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
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
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
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

// -----

// SiLU x / (1 + exp(-x)) to bf16, without a target (every op is accepted):
// the whole body, math.exp included, becomes the epilogue.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @silu_bf16
//  CHECK-SAME:   %[[OUT:[^:]+]]: tensor<64x32xbf16>
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma ins({{.*}}) outs(%[[OUT]] : tensor<64x32xbf16>) layout = #{{.+}} zero_acc
//  CHECK-SAME:     epilogue ins() maps [] {
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: f32, %{{.+}}: bf16):
//       CHECK:     %[[NEG:.+]] = arith.negf %[[X]] : f32
//  CHECK-NEXT:     %[[EXP:.+]] = math.exp %[[NEG]] : f32
//  CHECK-NEXT:     %[[DEN:.+]] = arith.addf %[[EXP]], %{{.+}} : f32
//  CHECK-NEXT:     %[[SILU:.+]] = arith.divf %[[X]], %[[DEN]] : f32
//  CHECK-NEXT:     %[[T:.+]] = arith.truncf %[[SILU]] : f32 to bf16
//  CHECK-NEXT:     mx.yield %[[T]] : bf16
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[R]]
func.func @silu_bf16(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf4E2M1FN>,
           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<2x2x4x16xf8E8M0FNU>,
                     %out: tensor<64x32xbf16>) -> tensor<64x32xbf16> {
  %e = tensor.empty() : tensor<64x32xf32>
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x32xf32>) layout = #l zero_acc -> tensor<64x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x32xf32>) outs(%out : tensor<64x32xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %x : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %silu = arith.divf %x, %den : f32
    %t = arith.truncf %silu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x32xbf16>
  return %g : tensor<64x32xbf16>
}

// -----

// GELU-tanh with gfx950 as the target (mx.target): its kernels compute
// math.tanh (expanded through exp before ROCDL), so it fuses.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @gelu_gfx950
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma
//  CHECK-SAME:     epilogue ins() maps [] {
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
//       CHECK:     %[[TH:.+]] = math.tanh %{{.+}} : f32
//  CHECK-NEXT:     %[[P:.+]] = arith.addf %{{.+}}, %[[TH]] : f32
//  CHECK-NEXT:     %[[HX:.+]] = arith.mulf %{{.+}}, %[[X]] : f32
//  CHECK-NEXT:     %[[G:.+]] = arith.mulf %[[HX]], %[[P]] : f32
//  CHECK-NEXT:     mx.yield %[[G]] : f32
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[R]]
module attributes {mx.target = #mx_gfx950.target} {
func.func @gelu_gfx950(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf4E2M1FN>,
           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<2x2x4x16xf8E8M0FNU>,
                       %out: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x32xf32>) layout = #l zero_acc -> tensor<64x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x32xf32>) outs(%out : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %cx3 = arith.mulf %k1, %x3 : f32
    %inner = arith.addf %x, %cx3 : f32
    %u = arith.mulf %k0, %inner : f32
    %th = math.tanh %u : f32
    %p = arith.addf %one, %th : f32
    %hx = arith.mulf %half, %x : f32
    %gelu = arith.mulf %hx, %p : f32
    linalg.yield %gelu : f32
  } -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}
}

// -----

// GELU-erf: gfx950 kernels cannot compute math.erf without ROCm's device
// library, so the activation stays a separate dispatch (with a remark).
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @gelu_erf_gfx950
//       CHECK:   mx.tiled_scaled_mma
//   CHECK-NOT:     epilogue
//       CHECK:   linalg.generic
//       CHECK:     math.erf
module attributes {mx.target = #mx_gfx950.target} {
func.func @gelu_erf_gfx950(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf4E2M1FN>,
           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<2x2x4x16xf8E8M0FNU>,
                           %out: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  // expected-remark @+1 {{the elementwise consumer of the result stays a separate dispatch: the target's kernels cannot compute an op of its body: 'math.erf' would be a call into ROCm's device library in a gfx950 kernel, which mx does not link}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x32xf32>) layout = #l zero_acc -> tensor<64x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x32xf32>) outs(%out : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %s = arith.mulf %x, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %one, %erf : f32
    %hx = arith.mulf %half, %x : f32
    %gelu = arith.mulf %hx, %p : f32
    linalg.yield %gelu : f32
  } -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}
}

// -----

// math ops on f16 are not computed by gfx950 epilogues (they would be
// device-library calls too).
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @exp_f16_gfx950
//       CHECK:   linalg.generic
module attributes {mx.target = #mx_gfx950.target} {
func.func @exp_f16_gfx950(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf4E2M1FN>,
           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<2x2x4x16xf8E8M0FNU>,
                          %out: tensor<64x32xf16>) -> tensor<64x32xf16> {
  %e = tensor.empty() : tensor<64x32xf32>
  // expected-remark @+1 {{the target's kernels cannot compute an op of its body: 'math.exp' is computed in f32 only in a gfx950 epilogue}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x32xf32>) layout = #l zero_acc -> tensor<64x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x32xf32>) outs(%out : tensor<64x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    %exp = math.exp %t : f16
    linalg.yield %exp : f16
  } -> tensor<64x32xf16>
  return %g : tensor<64x32xf16>
}
}

// -----

// SwiGLU silu(gate) * up over the two halves of N (slices of the result):
// one epilogue invocation sees one sum, and the gate and up sums of an
// output element lie in different tiles, so it stays a separate dispatch.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @swiglu_slices
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma
//   CHECK-NOT:     epilogue
//       CHECK:   %[[GATE:.+]] = tensor.extract_slice %[[R]][0, 0] [64, 32] [1, 1]
//       CHECK:   %[[UP:.+]] = tensor.extract_slice %[[R]][0, 32] [64, 32] [1, 1]
//       CHECK:   linalg.generic {{.+}} ins(%[[GATE]], %[[UP]] :
func.func @swiglu_slices(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<4x2x4x16x32xf4E2M1FN>,
           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<4x2x4x16xf8E8M0FNU>,
                         %out: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{the elementwise consumer of the result stays a separate dispatch: the result has other uses than the consumer (e.g. slices of the two halves of N of a gated pair such as SwiGLU): an epilogue sees one sum at a time, and the two sums of a pair lie in different tiles of the GEMM}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<4x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x64xf32>) layout = #l zero_acc -> tensor<64x64xf32>
  %gate = tensor.extract_slice %r[0, 0] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
  %up = tensor.extract_slice %r[0, 32] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<64x32xf32>, tensor<64x32xf32>) outs(%out : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %x : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %silu = arith.divf %x, %den : f32
    %glu = arith.mulf %silu, %y : f32
    linalg.yield %glu : f32
  } -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}

// -----

// A consumer that reads the result twice (here x * x) sees two sums per
// output element in general; it is not fused.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @reads_twice
//       CHECK:   linalg.generic
func.func @reads_twice(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf4E2M1FN>,
           %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<2x2x4x16xf8E8M0FNU>,
                       %out: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  // expected-remark @+1 {{the elementwise consumer of the result stays a separate dispatch: the consumer reads the result more than once (e.g. a gated pair such as SwiGLU over two halves of N)}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x32xf32>) layout = #l zero_acc -> tensor<64x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %r : tensor<64x32xf32>, tensor<64x32xf32>) outs(%out : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %sq = arith.mulf %x, %y : f32
    linalg.yield %sq : f32
  } -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}

// -----

// A round trip through f8 has no lowering in a gfx950 kernel.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @f8_round_trip_gfx950
//       CHECK:   linalg.generic
module attributes {mx.target = #mx_gfx950.target} {
func.func @f8_round_trip_gfx950(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf4E2M1FN>,
                                %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<2x2x4x16xf8E8M0FNU>,
                                %out: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  // expected-remark @+1 {{the target's kernels cannot compute an op of its body: 'arith.truncf' on f8E4M3FN is not computed in a gfx950 epilogue}}
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<64x32xf32>) layout = #l zero_acc -> tensor<64x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<64x32xf32>) outs(%out : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.truncf %x : f32 to f8E4M3FN
    %y = arith.extf %t : f8E4M3FN to f32
    linalg.yield %y : f32
  } -> tensor<64x32xf32>
  return %g : tensor<64x32xf32>
}
}

// -----

// A grouped GEMM from a +0.0 fill: the rows that no tile names keep the
// output it starts from, which must hold what the consumer makes of +0.0.
// The bf16 rounding of +0.0 folds to a constant, so the output starts as a
// fill with it, and the f32 fill goes.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @grouped_bf16
//  CHECK-SAME:   %[[TILES:[^:]+]]: tensor<8x3xi32>
//   CHECK-NOT:   linalg.fill ins(%{{.+}} : f32)
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<40x48xbf16>
//       CHECK:   %[[C:.+]] = arith.constant 0.000000e+00 : bf16
//       CHECK:   %[[FILL:.+]] = linalg.fill ins(%[[C]] : bf16) outs(%[[E]] : tensor<40x48xbf16>)
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} tile_groups(%[[TILES]] : tensor<8x3xi32>) outs(%[[FILL]] : tensor<40x48xbf16>) layout = #{{.+}} zero_acc
//  CHECK-SAME:     epilogue ins() maps [] {
//       CHECK:     arith.truncf
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[R]]
func.func @grouped_bf16(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                        %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                        %tiles: tensor<8x3xi32>) -> tensor<40x48xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x48xf32>) -> tensor<40x48xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%tiles : tensor<8x3xi32>) outs(%c : tensor<40x48xf32>) layout = #l zero_acc
      -> tensor<40x48xf32>
  %o = tensor.empty() : tensor<40x48xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<40x48xf32>) outs(%o : tensor<40x48xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<40x48xbf16>
  return %g : tensor<40x48xbf16>
}

// -----

// With another input (a bias along N) the consumer's value at +0.0 is no
// constant: the output starts as a copy of the consumer that takes the
// fill's +0.0 for the sum (the f32 fill goes), and the GEMM writes the rows
// its tiles name through the epilogue.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @grouped_bias
//  CHECK-SAME:   %[[TILES:[^:]+]]: tensor<8x3xi32>, %[[BIAS:[^:]+]]: tensor<48xf32>
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<48xf32>) outs(%{{.+}} : tensor<40x48xbf16>)
//  CHECK-NEXT:   ^bb0(%[[Y:.+]]: f32, %{{.+}}: bf16):
//  CHECK-NEXT:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//  CHECK-NEXT:     %[[ADD:.+]] = arith.addf %[[ZERO]], %[[Y]] : f32
//  CHECK-NEXT:     %[[T:.+]] = arith.truncf %[[ADD]] : f32 to bf16
//  CHECK-NEXT:     linalg.yield %[[T]] : bf16
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} tile_groups(%[[TILES]] : tensor<8x3xi32>) outs(%[[INIT]] : tensor<40x48xbf16>) layout = #{{.+}} zero_acc
//  CHECK-SAME:     epilogue ins(%[[BIAS]] : tensor<48xf32>)
//       CHECK:   return %[[R]]
func.func @grouped_bias(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                        %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                        %tiles: tensor<8x3xi32>, %bias: tensor<48xf32>) -> tensor<40x48xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x48xf32>) -> tensor<40x48xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%tiles : tensor<8x3xi32>) outs(%c : tensor<40x48xf32>) layout = #l zero_acc
      -> tensor<40x48xf32>
  %o = tensor.empty() : tensor<40x48xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<40x48xf32>, tensor<48xf32>) outs(%o : tensor<40x48xbf16>) {
  ^bb0(%x: f32, %y: f32, %z: bf16):
    %s = arith.addf %x, %y : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<40x48xbf16>
  return %g : tensor<40x48xbf16>
}

// -----

// A routed GEMM whose tiles without rows write every row the ids name
// (zero_empty_tiles: its other rows are never read) starts from the
// consumer's own output.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @routed_empty_tiles
//  CHECK-SAME:   %[[IDS:[^:]+]]: tensor<128xi32>, %[[OUT:[^:]+]]: tensor<40x64xbf16>
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} row_ids(%[[IDS]] : tensor<128xi32>) outs(%[[OUT]] : tensor<40x64xbf16>) layout = #{{.+}} zero_acc zero_empty_tiles
//  CHECK-SAME:     epilogue ins() maps [] {
//       CHECK:   return %[[R]]
func.func @routed_empty_tiles(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x4x2x4x16x32xf4E2M1FN>,
                              %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x4x2x4x16xf8E8M0FNU>,
                              %experts: tensor<4xi32>, %ids: tensor<128xi32>,
                              %out: tensor<40x64xbf16>) -> tensor<40x64xbf16> {
  %e = tensor.empty() : tensor<40x64xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x4x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x4x2x4x16xf8E8M0FNU>)
      tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%e : tensor<40x64xf32>) layout = #l zero_acc zero_empty_tiles -> tensor<40x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<40x64xf32>) outs(%out : tensor<40x64xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<40x64xbf16>
  return %g : tensor<40x64xbf16>
}

// -----

// A grouped GEMM from zero whose kept rows come from an argument: the
// output starts as a copy of the consumer reading that argument.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @grouped_acc_argument
//  CHECK-SAME:   %[[TILES:[^:]+]]: tensor<8x3xi32>, %[[ACC:[^:]+]]: tensor<40x48xf32>
//       CHECK:   %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<40x48xf32>) outs(%{{.+}} : tensor<40x48xbf16>)
//       CHECK:     arith.truncf
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma {{.*}} tile_groups(%[[TILES]] : tensor<8x3xi32>) outs(%[[INIT]] : tensor<40x48xbf16>) layout = #{{.+}} zero_acc
//       CHECK:   return %[[R]]
func.func @grouped_acc_argument(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x3x2x4x16x32xf4E2M1FN>,
                                %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x3x2x4x16xf8E8M0FNU>,
                                %tiles: tensor<8x3xi32>, %acc: tensor<40x48xf32>) -> tensor<40x48xbf16> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x3x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x3x2x4x16xf8E8M0FNU>)
      tile_groups(%tiles : tensor<8x3xi32>) outs(%acc : tensor<40x48xf32>) layout = #l zero_acc
      -> tensor<40x48xf32>
  %o = tensor.empty() : tensor<40x48xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<40x48xf32>) outs(%o : tensor<40x48xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<40x48xbf16>
  return %g : tensor<40x48xbf16>
}
