// Foreign-input corpus (issue 35): MX dequantization in upstream MLIR's
// vocabulary, a linalg.generic yielding arith.scaling_extf with one E8M0
// scale per block of 32 (expanded [.., K/32, 32] as IREE writes it, or flat
// K with the scales at k floordiv 32). Both pipelines raise it to
// mx.dequantize; the reference evaluator runs the generic as written
// (decode(x) * 2^(s - 127), one rounding to the result type), so results
// must be bit-identical. The CPU path runs it; mx-gfx950-pipeline has no
// standalone dequantization kernel and refuses it, naming the op.

// RUN: mx-run %s --entry=expanded_fp4 --seed=21 --arg=random:codes --arg=random:scales,lo=100,hi=150 --compare=reference 2>&1 | FileCheck %s --check-prefixes=CHECK,RAISED
// RUN: mx-run %s --entry=flat_fp8 --seed=22 --arg=random:codes --arg=random:scales --compare=reference 2>&1 | FileCheck %s
// RUN: not mx-run %s --entry=flat_fp8 --seed=22 --arg=random:codes --arg=random:scales --compare=reference --backend=gfx950-emu 2>&1 | FileCheck %s --check-prefix=GFX950
// RUN: not mx-opt %s --mx-gfx950-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX950
// GFX950: error: mx-gfx950-pipeline (input): 'mx.dequantize' cannot be lowered by mx-gfx950-pipeline

// RAISED: remark: raised to mx.dequantize
// CHECK: result #0 tensor<{{.+}}>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// CHECK: PASS

func.func @expanded_fp4(%x: tensor<24x4x32xf4E2M1FN>, %s: tensor<24x4xf8E8M0FNU>) -> tensor<24x4x32xf32> {
  %e = tensor.empty() : tensor<24x4x32xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<24x4x32xf4E2M1FN>, tensor<24x4xf8E8M0FNU>) outs(%e : tensor<24x4x32xf32>) {
  ^bb0(%in: f4E2M1FN, %sc: f8E8M0FNU, %out: f32):
    %v = arith.scaling_extf %in, %sc : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %v : f32
  } -> tensor<24x4x32xf32>
  return %d : tensor<24x4x32xf32>
}

func.func @flat_fp8(%x: tensor<16x256xf8E4M3FN>, %s: tensor<16x8xf8E8M0FNU>) -> tensor<16x256xf32> {
  %e = tensor.empty() : tensor<16x256xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x256xf8E4M3FN>, tensor<16x8xf8E8M0FNU>) outs(%e : tensor<16x256xf32>) {
  ^bb0(%in: f8E4M3FN, %sc: f8E8M0FNU, %out: f32):
    %v = arith.scaling_extf %in, %sc : f8E4M3FN, f8E8M0FNU to f32
    linalg.yield %v : f32
  } -> tensor<16x256xf32>
  return %d : tensor<16x256xf32>
}
