// Foreign-input corpus (issue 35): inputs below the tensor level and
// computations mx does not compile for gfx950 are refused with a diagnostic
// naming the op, the pipeline and the stage: never an exit 0 with the op
// left in the output (the gfx950 pipeline used to pass both through).

// RUN: not mx-opt %s -split-input-file --mx-cpu-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not mx-opt %s -split-input-file --mx-gfx950-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX

// A function that already holds a gfx950 matrix instruction.
// CPU: error: mx-cpu-pipeline (input): 'amdgpu.scaled_mfma' belongs to the 'amdgpu' dialect, which mx-cpu-pipeline does not take here
// GFX: error: mx-gfx950-pipeline (input): 'amdgpu.scaled_mfma' belongs to the 'amdgpu' dialect, which mx-gfx950-pipeline does not take here
func.func @pre_lowered(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %c: vector<4xf32>) -> vector<4xf32> {
  %y = amdgpu.scaled_mfma 16x16x128 (%sa[0] * %a) * (%sb[0] * %b) + %c : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// An f32 matmul: the CPU pipeline lowers it; mx-gfx950-pipeline compiles MX
// contractions only.
// CPU-NOT: linalg.matmul
// GFX: error: mx-gfx950-pipeline (output): 'linalg.matmul' was not lowered by mx-gfx950-pipeline
// GFX: note: mx-gfx950-pipeline compiles MX contractions and quantizations
func.func @f32_matmul(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
