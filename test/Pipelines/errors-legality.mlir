// Every mx pipeline starts and ends with a legality check (mx-check-legality):
// an input it cannot compile is an error naming the op, the pipeline and the
// stage, never an exit 0 with the op left in the output (issue 35).

// RUN: not mx-opt %s -split-input-file --mx-cpu-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not mx-opt %s -split-input-file --mx-gfx950-pipeline=output=gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not mx-opt %s -split-input-file --mx-gfx950-pipeline=output=isa -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU

// A function that already holds a gfx950 matrix instruction: refused by both
// pipelines (they take tensor-level programs), with the reason.
// CPU: error: mx-cpu-pipeline (input): 'amdgpu.scaled_mfma' belongs to the 'amdgpu' dialect, which mx-cpu-pipeline does not take here
// CPU: note: the mx pipelines take tensor-level programs in func.func
// GPU: error: mx-gfx950-pipeline (input): 'amdgpu.scaled_mfma' belongs to the 'amdgpu' dialect, which mx-gfx950-pipeline does not take here
// GPU: note: the mx pipelines take tensor-level programs in func.func
func.func @pre_lowered(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %c: vector<4xf32>) -> vector<4xf32> {
  %y = amdgpu.scaled_mfma 16x16x128 (%sa[0] * %a) * (%sb[0] * %b) + %c : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// A kernel already written for a GPU, in a gpu.module.
// CPU: error: mx-cpu-pipeline (input): 'gpu.module' belongs to the 'gpu' dialect
// GPU: error: mx-gfx950-pipeline (input): 'gpu.module' belongs to the 'gpu' dialect
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// An f32 matmul: the CPU pipeline runs it; the gfx950 pipeline compiles MX
// contractions only and says so instead of leaving it on the host.
// CPU-NOT: error: {{.*}}linalg.matmul
// GPU: error: mx-gfx950-pipeline (output): 'linalg.matmul' was not lowered by mx-gfx950-pipeline
// GPU: note: mx-gfx950-pipeline compiles MX contractions and quantizations
func.func @f32_matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// A quantization with scales that are not computed from the block amax (here
// a function argument): no raise applies, so both pipelines refuse the
// arith.scaling_truncf instead of leaving it in the output.
// CPU: error: mx-cpu-pipeline (input): 'arith.scaling_truncf' cannot be lowered by mx-cpu-pipeline
// GPU: error: mx-gfx950-pipeline (input): 'arith.scaling_truncf' cannot be lowered by mx-gfx950-pipeline
func.func @given_scales(%x: tensor<64x32xf32>, %s: tensor<64xf32>) -> tensor<64x32xf4E2M1FN> {
  %e = tensor.empty() : tensor<64x32xf4E2M1FN>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x32xf32>, tensor<64xf32>) outs(%e : tensor<64x32xf4E2M1FN>) {
  ^bb0(%in: f32, %sc: f32, %out: f4E2M1FN):
    %t = arith.scaling_truncf %in, %sc : f32, f32 to f4E2M1FN
    linalg.yield %t : f4E2M1FN
  } -> tensor<64x32xf4E2M1FN>
  return %q : tensor<64x32xf4E2M1FN>
}

// -----

// A plain conversion of f32 values to fp8 (no block scales).
// CPU: error: mx-cpu-pipeline (input): 'arith.truncf' computes on f8E4M3FN values outside mx ops, which mx-cpu-pipeline cannot lower
// GPU: error: mx-gfx950-pipeline (input): 'arith.truncf' computes on f8E4M3FN values outside mx ops, which mx-gfx950-pipeline cannot lower
func.func @plain_fp8(%x: tensor<64x32xf32>) -> tensor<64x32xf8E4M3FN> {
  %r = arith.truncf %x : tensor<64x32xf32> to tensor<64x32xf8E4M3FN>
  return %r : tensor<64x32xf8E4M3FN>
}
