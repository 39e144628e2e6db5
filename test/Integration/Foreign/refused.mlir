// Foreign-input corpus (issue 35): inputs mx does not compile are refused
// with a diagnostic naming the op, the pipeline and the stage (and, for an
// upstream MX form, a remark saying why it was not raised), on both
// backends: never an exit 0 with the op left in the output.

// A quantization whose scale is computed the way torchao's Python writes
// it (floor(log2(amax)) - emax through math.log2/floor/exp2): mx-raise-
// quantize recognises only the E8M0-conversion form, so it stays.
// RUN: not mx-run %s --entry=log2_scale --arg=random:normal 2>&1 | FileCheck %s --check-prefix=LOG2-CPU
// RUN: not mx-run %s --entry=log2_scale --arg=random:normal --backend=gfx950-emu 2>&1 | FileCheck %s --check-prefix=LOG2-GFX
// LOG2-CPU: remark: not raised to mx.quantize: the scale is not the block amax of the data times 2^-2 converted to f8E8M0FNU (scale rule floor)
// LOG2-CPU: error: mx-cpu-pipeline (input): 'arith.scaling_truncf' cannot be lowered by mx-cpu-pipeline
// LOG2-CPU: note: the mx pipelines take tensor-level programs
// LOG2-GFX: remark: not raised to mx.quantize
// LOG2-GFX: error: mx-gfx950-pipeline (input): 'arith.scaling_truncf' cannot be lowered by mx-gfx950-pipeline

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#blk2 = affine_map<(d0, d1) -> (d0)>
func.func @log2_scale(%x: tensor<8x32xf32>) -> tensor<8x32xf4E2M1FN> {
  %two = arith.constant 2.0 : f32
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
  %q = linalg.generic {indexing_maps = [#id2, #blk2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %amax : tensor<8x32xf32>, tensor<8xf32>) outs(%e2 : tensor<8x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f32, %out: f4E2M1FN):
    %l = math.log2 %sc : f32
    %f = math.floor %l : f32
    %s = arith.subf %f, %two : f32
    %p = math.exp2 %s : f32
    %t = arith.scaling_truncf %in, %p : f32, f32 to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<8x32xf4E2M1FN>
  return %q : tensor<8x32xf4E2M1FN>
}
