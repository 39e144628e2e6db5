// Foreign-input corpus (issue 35): a whole MXFP4 linear layer as IREE writes
// it: the f32 activation [M, K/32, 32] quantized with arith.scaling_truncf
// (its MXFP4 quantizer, scale = block amax * 0.25 as E8M0), then the NT
// scaled matmul as a linalg.generic with arith.scaling_extf against fp4
// weights [N, K/32, 32] and their scales. Both pipelines raise the
// quantization to mx.quantize and the matmul to mx.scaled_contraction.
//
// The reference evaluator runs the original generics; the matmul's
// reduction is reassociated by the raise (the kernel sums exactly per
// instruction, the generic in loop order), so the reference compares it with
// its exact sum within the bound it prints, relative to |acc| + sum |a*b|.

// RUN: mx-run %s --seed=11 --arg=random:normal --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:normal --compare=reference 2>&1 | FileCheck %s
// RUN: mx-run %s --seed=11 --arg=random:normal --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:normal --compare=reference --backend=gfx950-emu 2>&1 | FileCheck %s

// CHECK: remark: raised to mx.scaled_contraction (K expanded in blocks)
// CHECK: remark: raised to mx.quantize (scale floor, rounding nearest_even)
// CHECK: note: {{.*}}reassociated by mx-raise-scaled-matmul
// CHECK: result #0 tensor<32x48xf32>: {{.*}}mismatches=0/1536
// CHECK: PASS

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#blk3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = affine_map<(m, n, ko, kb) -> (m, ko, kb)>
#rhs = affine_map<(m, n, ko, kb) -> (n, ko, kb)>
#lhs_s = affine_map<(m, n, ko, kb) -> (m, ko)>
#rhs_s = affine_map<(m, n, ko, kb) -> (n, ko)>
#out = affine_map<(m, n, ko, kb) -> (m, n)>
func.func @linear(%x: tensor<32x8x32xf32>, %w: tensor<48x8x32xf4E2M1FN>,
                  %ws: tensor<48x8xf8E8M0FNU>, %c: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %quarter = arith.constant 2.500000e-01 : f32
  %neg_inf = arith.constant 0xff800000 : f32
  %e0 = tensor.empty() : tensor<32x8xf32>
  %init = linalg.fill ins(%neg_inf : f32) outs(%e0 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %amax = linalg.generic {indexing_maps = [#id3, #blk3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<32x8x32xf32>) outs(%init : tensor<32x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %a, %out : f32
    linalg.yield %m : f32
  } -> tensor<32x8xf32>
  %e1 = tensor.empty() : tensor<32x8xf8E8M0FNU>
  %xs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<32x8xf32>) outs(%e1 : tensor<32x8xf8E8M0FNU>) {
  ^bb0(%in: f32, %out: f8E8M0FNU):
    %s = arith.mulf %in, %quarter : f32
    %t = arith.truncf %s : f32 to f8E8M0FNU
    linalg.yield %t : f8E8M0FNU
  } -> tensor<32x8xf8E8M0FNU>
  %e2 = tensor.empty() : tensor<32x8x32xf4E2M1FN>
  %xq = linalg.generic {indexing_maps = [#id3, #blk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %xs : tensor<32x8x32xf32>, tensor<32x8xf8E8M0FNU>) outs(%e2 : tensor<32x8x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f8E8M0FNU, %out: f4E2M1FN):
    %t = arith.scaling_truncf %in, %sc : f32, f8E8M0FNU to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<32x8x32xf4E2M1FN>
  %r = linalg.generic {indexing_maps = [#lhs, #rhs, #lhs_s, #rhs_s, #out],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%xq, %w, %xs, %ws : tensor<32x8x32xf4E2M1FN>, tensor<48x8x32xf4E2M1FN>, tensor<32x8xf8E8M0FNU>, tensor<48x8xf8E8M0FNU>)
      outs(%c : tensor<32x48xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %acc: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %acc, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}
