// RUN: mx-opt %s --split-input-file --mx-raise-quantize --verify-diagnostics --mlir-print-local-scope | FileCheck %s
//
// The upstream forms of MX quantization (block amax, scale = amax * 2^-emax
// converted to f8E8M0FNU, arith.scaling_truncf) and dequantization
// (arith.scaling_extf per block), in the shapes downstream compilers write:
// IREE's MXFP4 quantizer (dynamic rows of one block, the scale bytes as i8),
// the scales as an E8M0 tensor, a division by 2^emax, fp8 with its emax,
// ties-away rounding; and forms that are not raised (with a remark).

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#blk2 = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>

// IREE's quantizer: the elements' generic scales by the amax * 0.25 itself;
// the scale bytes come from a second generic of the same amax.
// CHECK-LABEL: func.func @iree_fp4(
//  CHECK-SAME:     %[[X:.+]]: tensor<?x32xf32>)
//       CHECK:   %[[E:.+]], %[[S:.+]] = mx.quantize %[[X]] axis(1) scale(floor) rounding(nearest_even) : tensor<?x32xf32> -> tensor<?x32xf4E2M1FN>, tensor<?x1xf8E8M0FNU>
//       CHECK:   %[[S1:.+]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1]] : tensor<?x1xf8E8M0FNU> into tensor<?xf8E8M0FNU>
//       CHECK:   %[[B:.+]] = arith.bitcast %[[S1]] : tensor<?xf8E8M0FNU> to tensor<?xi8>
//   CHECK-NOT:   arith.scaling_truncf
//       CHECK:   return %[[E]], %[[B]]
func.func @iree_fp4(%x: tensor<?x32xf32>) -> (tensor<?x32xf4E2M1FN>, tensor<?xi8>) {
  %c0 = arith.constant 0 : index
  %quarter = arith.constant 2.500000e-01 : f32
  %neg_inf = arith.constant 0xff800000 : f32
  %n = tensor.dim %x, %c0 : tensor<?x32xf32>
  %e0 = tensor.empty(%n) : tensor<?xf32>
  %init = linalg.fill ins(%neg_inf : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
  %amax = linalg.generic {indexing_maps = [#id2, #blk2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x32xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %a, %out : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %e1 = tensor.empty(%n) : tensor<?xi8>
  // expected-remark @below {{raised to the scales of the mx.quantize}}
  %bytes = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%amax : tensor<?xf32>) outs(%e1 : tensor<?xi8>) {
  ^bb0(%in: f32, %out: i8):
    %s = arith.mulf %in, %quarter : f32
    %t = arith.truncf %s : f32 to f8E8M0FNU
    %b = arith.bitcast %t : f8E8M0FNU to i8
    linalg.yield %b : i8
  } -> tensor<?xi8>
  %e2 = tensor.empty(%n) : tensor<?x32xf4E2M1FN>
  // expected-remark @below {{raised to mx.quantize (scale floor, rounding nearest_even): arith.scaling_truncf by the block amax times 2^-2}}
  %q = linalg.generic {indexing_maps = [#id2, #blk2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %amax : tensor<?x32xf32>, tensor<?xf32>) outs(%e2 : tensor<?x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f32, %out: f4E2M1FN):
    %s = arith.mulf %sc, %quarter : f32
    %t = arith.scaling_truncf %in, %s : f32, f32 to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<?x32xf4E2M1FN>
  return %q, %bytes : tensor<?x32xf4E2M1FN>, tensor<?xi8>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#blk3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Rows of K = 4 x 32 in bf16, fp8 E4M3 (emax 8): the scales as an E8M0
// tensor that the elements' generic takes, the amax divided by 2^8, from
// +0.0 (maximumf's operands swapped), rounding ties away.
// CHECK-LABEL: func.func @e8m0_tensor_fp8(
//  CHECK-SAME:     %[[X:.+]]: tensor<16x4x32xbf16>)
//       CHECK:   %[[E:.+]], %[[S:.+]] = mx.quantize %[[X]] axis(2) scale(floor) rounding(ties_away) : tensor<16x4x32xbf16> -> tensor<16x4x32xf8E4M3FN>, tensor<16x4x1xf8E8M0FNU>
//       CHECK:   %[[S2:.+]] = tensor.collapse_shape %[[S]] {{\[}}[0], [1, 2]] : tensor<16x4x1xf8E8M0FNU> into tensor<16x4xf8E8M0FNU>
//       CHECK:   return %[[E]], %[[S2]]
func.func @e8m0_tensor_fp8(%x: tensor<16x4x32xbf16>) -> (tensor<16x4x32xf8E4M3FN>, tensor<16x4xf8E8M0FNU>) {
  %zero = arith.constant 0.0 : bf16
  %c256 = arith.constant 256.0 : bf16
  %e0 = tensor.empty() : tensor<16x4xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e0 : tensor<16x4xbf16>) -> tensor<16x4xbf16>
  %amax = linalg.generic {indexing_maps = [#id3, #blk3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<16x4x32xbf16>) outs(%init : tensor<16x4xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %a = math.absf %in : bf16
    %m = arith.maximumf %out, %a : bf16
    linalg.yield %m : bf16
  } -> tensor<16x4xbf16>
  %e1 = tensor.empty() : tensor<16x4xf8E8M0FNU>
  // expected-remark @below {{raised to the scales of the mx.quantize}}
  %scales = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x4xbf16>) outs(%e1 : tensor<16x4xf8E8M0FNU>) {
  ^bb0(%in: bf16, %out: f8E8M0FNU):
    %s = arith.divf %in, %c256 : bf16
    %t = arith.truncf %s : bf16 to f8E8M0FNU
    linalg.yield %t : f8E8M0FNU
  } -> tensor<16x4xf8E8M0FNU>
  %e2 = tensor.empty() : tensor<16x4x32xf8E4M3FN>
  // expected-remark @below {{raised to mx.quantize (scale floor, rounding ties_away): arith.scaling_truncf by the block amax times 2^-8}}
  %q = linalg.generic {indexing_maps = [#id3, #blk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %scales : tensor<16x4x32xbf16>, tensor<16x4xf8E8M0FNU>) outs(%e2 : tensor<16x4x32xf8E4M3FN>) {
  ^bb0(%in: bf16, %sc: f8E8M0FNU, %out: f8E4M3FN):
    %t = arith.scaling_truncf %in, %sc to_nearest_away : bf16, f8E8M0FNU to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x4x32xf8E4M3FN>
  return %q, %scales : tensor<16x4x32xf8E4M3FN>, tensor<16x4xf8E8M0FNU>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#blk2 = affine_map<(d0, d1) -> (d0)>

// Not raised: the scale is amax * 0.5, not amax * 2^-2 for fp4 (another
// scale rule than floor).
func.func @wrong_emax(%x: tensor<8x32xf32>) -> tensor<8x32xf4E2M1FN> {
  %half = arith.constant 5.000000e-01 : f32
  %neg_inf = arith.constant 0xff800000 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%neg_inf : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %amax = linalg.generic {indexing_maps = [#id2, #blk2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %a, %out : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x32xf4E2M1FN>
  // expected-remark @below {{not raised to mx.quantize: the scale is not the block amax of the data times 2^-2 converted to f8E8M0FNU (scale rule floor)}}
  %q = linalg.generic {indexing_maps = [#id2, #blk2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %amax : tensor<8x32xf32>, tensor<8xf32>) outs(%e2 : tensor<8x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f32, %out: f4E2M1FN):
    %s = arith.mulf %sc, %half : f32
    %t = arith.scaling_truncf %in, %s : f32, f32 to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<8x32xf4E2M1FN>
  return %q : tensor<8x32xf4E2M1FN>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#blk2 = affine_map<(d0, d1) -> (d0)>

// Not raised: a rounding mode mx.quantize does not have.
func.func @upward(%x: tensor<8x32xf32>, %s: tensor<8xf8E8M0FNU>) -> tensor<8x32xf4E2M1FN> {
  %e2 = tensor.empty() : tensor<8x32xf4E2M1FN>
  // expected-remark @below {{not raised to mx.quantize: rounding mode upward has no mx.quantize equivalent}}
  %q = linalg.generic {indexing_maps = [#id2, #blk2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x32xf32>, tensor<8xf8E8M0FNU>) outs(%e2 : tensor<8x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f8E8M0FNU, %out: f4E2M1FN):
    %t = arith.scaling_truncf %in, %sc upward : f32, f8E8M0FNU to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<8x32xf4E2M1FN>
  return %q : tensor<8x32xf4E2M1FN>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#blk2 = affine_map<(d0, d1) -> (d0)>

// Not raised: scales given by the caller (no amax to derive the rule from).
func.func @given_scales(%x: tensor<8x32xf32>, %s: tensor<8xf8E8M0FNU>) -> tensor<8x32xf4E2M1FN> {
  %e2 = tensor.empty() : tensor<8x32xf4E2M1FN>
  // expected-remark @below {{not raised to mx.quantize: the scale is not the block amax of the data}}
  %q = linalg.generic {indexing_maps = [#id2, #blk2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x32xf32>, tensor<8xf8E8M0FNU>) outs(%e2 : tensor<8x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f8E8M0FNU, %out: f4E2M1FN):
    %t = arith.scaling_truncf %in, %sc : f32, f8E8M0FNU to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<8x32xf4E2M1FN>
  return %q : tensor<8x32xf4E2M1FN>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#blk3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#flat = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>

// Dequantization: expanded blocks (the scales get a block dimension of 1)
// and flat K (scales at k floordiv 32).
// CHECK-LABEL: func.func @dequantize(
//  CHECK-SAME:     %[[X:.+]]: tensor<8x4x32xf4E2M1FN>, %[[S:.+]]: tensor<8x4xf8E8M0FNU>, %[[Y:.+]]: tensor<8x128xf6E2M3FN>, %[[T:.+]]: tensor<8x4xf8E8M0FNU>)
//       CHECK:   %[[S3:.+]] = tensor.expand_shape %[[S]] {{\[}}[0], [1, 2]] output_shape [8, 4, 1] : tensor<8x4xf8E8M0FNU> into tensor<8x4x1xf8E8M0FNU>
//       CHECK:   %[[D:.+]] = mx.dequantize %[[X]], %[[S3]] axis(2) : tensor<8x4x32xf4E2M1FN>, tensor<8x4x1xf8E8M0FNU> -> tensor<8x4x32xf32>
//       CHECK:   %[[F:.+]] = mx.dequantize %[[Y]], %[[T]] axis(1) : tensor<8x128xf6E2M3FN>, tensor<8x4xf8E8M0FNU> -> tensor<8x128xbf16>
//       CHECK:   return %[[D]], %[[F]]
func.func @dequantize(%x: tensor<8x4x32xf4E2M1FN>, %s: tensor<8x4xf8E8M0FNU>, %y: tensor<8x128xf6E2M3FN>, %t: tensor<8x4xf8E8M0FNU>) -> (tensor<8x4x32xf32>, tensor<8x128xbf16>) {
  %e0 = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @below {{raised to mx.dequantize}}
  %d = linalg.generic {indexing_maps = [#id3, #blk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<8x4x32xf4E2M1FN>, tensor<8x4xf8E8M0FNU>) outs(%e0 : tensor<8x4x32xf32>) {
  ^bb0(%in: f4E2M1FN, %sc: f8E8M0FNU, %out: f32):
    %v = arith.scaling_extf %in, %sc : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %v : f32
  } -> tensor<8x4x32xf32>
  %e1 = tensor.empty() : tensor<8x128xbf16>
  // expected-remark @below {{raised to mx.dequantize}}
  %f = linalg.generic {indexing_maps = [#id2, #flat, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y, %t : tensor<8x128xf6E2M3FN>, tensor<8x4xf8E8M0FNU>) outs(%e1 : tensor<8x128xbf16>) {
  ^bb0(%in: f6E2M3FN, %sc: f8E8M0FNU, %out: bf16):
    %v = arith.scaling_extf %in, %sc : f6E2M3FN, f8E8M0FNU to bf16
    linalg.yield %v : bf16
  } -> tensor<8x128xbf16>
  return %d, %f : tensor<8x4x32xf32>, tensor<8x128xbf16>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Not raised: one scale per element (not per block of 32).
func.func @per_element(%x: tensor<8x32xf4E2M1FN>, %s: tensor<8x32xf8E8M0FNU>) -> tensor<8x32xf32> {
  %e0 = tensor.empty() : tensor<8x32xf32>
  // expected-remark @below {{not raised to mx.dequantize: the scales are not indexed per block of 32 of the last dimension}}
  %d = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x32xf4E2M1FN>, tensor<8x32xf8E8M0FNU>) outs(%e0 : tensor<8x32xf32>) {
  ^bb0(%in: f4E2M1FN, %sc: f8E8M0FNU, %out: f32):
    %v = arith.scaling_extf %in, %sc : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  return %d : tensor<8x32xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#blk2 = affine_map<(d0, d1) -> (d0)>

// Not raised: an amax with maxnumf, which drops NaNs (mx.quantize gives a
// block with a NaN the NaN scale).
func.func @maxnumf_amax(%x: tensor<8x32xf32>) -> tensor<8x32xf4E2M1FN> {
  %quarter = arith.constant 2.500000e-01 : f32
  %neg_inf = arith.constant 0xff800000 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%neg_inf : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %amax = linalg.generic {indexing_maps = [#id2, #blk2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %m = arith.maxnumf %a, %out : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x32xf4E2M1FN>
  // expected-remark @below {{not raised to mx.quantize: the scale is not the block amax of the data}}
  %q = linalg.generic {indexing_maps = [#id2, #blk2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %amax : tensor<8x32xf32>, tensor<8xf32>) outs(%e2 : tensor<8x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f32, %out: f4E2M1FN):
    %s = arith.mulf %sc, %quarter : f32
    %t = arith.scaling_truncf %in, %s : f32, f32 to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<8x32xf4E2M1FN>
  return %q : tensor<8x32xf4E2M1FN>
}
