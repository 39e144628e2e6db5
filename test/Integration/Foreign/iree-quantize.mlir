// Foreign-input corpus (issue 35): MX quantizations written the way IREE
// writes them (its gfx950 MXFP4 quantizer test: the block amax as a
// linalg.generic reduction from -inf, the scale as amax * 0.25 converted to
// f8E8M0FNU and returned as bytes, arith.scaling_truncf by amax * 0.25), and
// an fp8 variant (bf16 input, the scales as an E8M0 tensor, amax / 2^8,
// ties away). Both pipelines raise them to mx.quantize (mx-raise-quantize);
// the reference evaluator interprets the original generics as upstream's
// ops define them. Quantization is exact given the scale, so results must
// be bit-identical on both backends.

// RUN: mx-run %s --entry=iree_fp4 --seed=5 --arg=random:normal,std=3 --compare=reference 2>&1 | FileCheck %s --check-prefixes=CHECK,RAISED
// RUN: mx-run %s --entry=iree_fp4 --seed=5 --arg=random:normal,std=3 --compare=reference --backend=gfx950-emu 2>&1 | FileCheck %s --check-prefixes=CHECK,RAISED
// Tiny (f32 subnormal) and huge magnitudes with NaN and Inf in some blocks:
// the NaN scale and zero codes (fp4 has no NaN) on both sides.
// RUN: mx-run %s --entry=iree_fp4 --seed=6 --arg=random:uniform,lo=-1e-39,hi=1e-39 --compare=reference 2>&1 | FileCheck %s
// RUN: mx-run %s --entry=iree_fp4 --seed=7 --arg=random:normal,std=1e30,specials=0.05 --compare=reference --backend=gfx950-emu 2>&1 | FileCheck %s
// fp8 (no NaN/Inf inputs: upstream converts NaN to E4M3's NaN code where
// mx.quantize writes zeros, see docs/guides/foreign-inputs.md).
// RUN: mx-run %s --entry=fp8_e8m0_tensor --seed=8 --arg=random:normal,std=100 --compare=reference 2>&1 | FileCheck %s --check-prefixes=CHECK,RAISED8
// RUN: mx-run %s --entry=fp8_e8m0_tensor --seed=8 --arg=random:normal,std=100 --compare=reference --backend=gfx950-emu 2>&1 | FileCheck %s --check-prefixes=CHECK,RAISED8

// RAISED: remark: raised to mx.quantize (scale floor, rounding nearest_even): arith.scaling_truncf by the block amax times 2^-2
// RAISED: remark: raised to the scales of the mx.quantize
// RAISED8: remark: raised to mx.quantize (scale floor, rounding ties_away): arith.scaling_truncf by the block amax times 2^-8
// RAISED8: remark: raised to the scales of the mx.quantize
// CHECK: result #0 tensor<{{.+}}>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (exact): bit-exact
// CHECK: result #1 tensor<{{.+}}>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (exact): bit-exact
// CHECK: PASS

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#blk2 = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @iree_fp4(%input: tensor<96x32xf32>) -> (tensor<96x32xf4E2M1FN>, tensor<96xi8>) {
  %cst_0.25 = arith.constant 2.500000e-01 : f32
  %cst_neg_inf = arith.constant 0xff800000 : f32
  %abs.max.empty = tensor.empty() : tensor<96xf32>
  %abs.max.init = linalg.fill ins(%cst_neg_inf : f32) outs(%abs.max.empty : tensor<96xf32>) -> tensor<96xf32>
  %abs.max = linalg.generic {indexing_maps = [#id2, #blk2], iterator_types = ["parallel", "reduction"]}
      ins(%input : tensor<96x32xf32>) outs(%abs.max.init : tensor<96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %abs = math.absf %in : f32
    %max = arith.maximumf %abs, %out : f32
    linalg.yield %max : f32
  } -> tensor<96xf32>
  %scales.init = tensor.empty() : tensor<96xi8>
  %scales = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%abs.max : tensor<96xf32>) outs(%scales.init : tensor<96xi8>) {
  ^bb0(%in0: f32, %out: i8):
    %normalized = arith.mulf %in0, %cst_0.25 : f32
    %only.exp = arith.truncf %normalized : f32 to f8E8M0FNU
    %scale.byte = arith.bitcast %only.exp : f8E8M0FNU to i8
    linalg.yield %scale.byte : i8
  } -> tensor<96xi8>
  %trunc.empty = tensor.empty() : tensor<96x32xf4E2M1FN>
  %trunc = linalg.generic {indexing_maps = [#id2, #blk2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%input, %abs.max : tensor<96x32xf32>, tensor<96xf32>) outs(%trunc.empty : tensor<96x32xf4E2M1FN>) {
  ^bb0(%in1: f32, %scale: f32, %out: f4E2M1FN):
    %normalized2 = arith.mulf %scale, %cst_0.25 : f32
    %scaling.trunc = arith.scaling_truncf %in1, %normalized2 : f32, f32 to f4E2M1FN
    linalg.yield %scaling.trunc : f4E2M1FN
  } -> tensor<96x32xf4E2M1FN>
  return %trunc, %scales : tensor<96x32xf4E2M1FN>, tensor<96xi8>
}

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#blk3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @fp8_e8m0_tensor(%x: tensor<16x4x32xf32>) -> (tensor<16x4x32xf8E4M3FN>, tensor<16x4xf8E8M0FNU>) {
  %zero = arith.constant 0.0 : f32
  %c256 = arith.constant 256.0 : f32
  %e0 = tensor.empty() : tensor<16x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %amax = linalg.generic {indexing_maps = [#id3, #blk3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<16x4x32xf32>) outs(%init : tensor<16x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %m = arith.maximumf %out, %a : f32
    linalg.yield %m : f32
  } -> tensor<16x4xf32>
  %e1 = tensor.empty() : tensor<16x4xf8E8M0FNU>
  %scales = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<16x4xf32>) outs(%e1 : tensor<16x4xf8E8M0FNU>) {
  ^bb0(%in: f32, %out: f8E8M0FNU):
    %s = arith.divf %in, %c256 : f32
    %t = arith.truncf %s : f32 to f8E8M0FNU
    linalg.yield %t : f8E8M0FNU
  } -> tensor<16x4xf8E8M0FNU>
  %e2 = tensor.empty() : tensor<16x4x32xf8E4M3FN>
  %q = linalg.generic {indexing_maps = [#id3, #blk3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %scales : tensor<16x4x32xf32>, tensor<16x4xf8E8M0FNU>) outs(%e2 : tensor<16x4x32xf8E4M3FN>) {
  ^bb0(%in: f32, %sc: f8E8M0FNU, %out: f8E4M3FN):
    %t = arith.scaling_truncf %in, %sc to_nearest_away : f32, f8E8M0FNU to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<16x4x32xf8E4M3FN>
  return %q, %scales : tensor<16x4x32xf8E4M3FN>, tensor<16x4xf8E8M0FNU>
}
