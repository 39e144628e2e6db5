// RUN: mx-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(mx-gfx950-reserve-accumulator-agprs{all=true}))' | FileCheck %s

// With `all` (the pipeline's reserve-accumulator-agprs=always) every GEMM
// kernel is asked for: one that cannot be served in full says why
// (reserve-accumulator-agprs.mlir: without it, such kernels are left alone).

// A GEMM kernel whose accumulators are SSA values, not a private array:
// nothing to reserve.
// CHECK-LABEL: gpu.func @no_array
//   CHECK-NOT:   passthrough
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-warning @+1 {{accumulators not reserved in AGPRs: the kernel has no private f32 array of static shape (its accumulators are values LLVM allocates)}}
    gpu.func @no_array(%a: vector<32xf4E2M1FN>, %s: f8E8M0FNU, %x: vector<4xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %y = amdgpu.scaled_mfma 16x16x128 (%s[0] * %a) * (%s[0] * %a) + %x
          : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
      vector.store %y, %out[%c0] : memref<4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// More accumulator values than the 256 AGPRs: all of them reserved, and a
// warning that the rest are not.
// CHECK-LABEL: gpu.func @too_many
//  CHECK-SAME:   passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-warning @+1 {{only 256 of the 512 values of its private f32 arrays reserved in AGPRs (the AGPR file's size)}}
    gpu.func @too_many(%a: vector<32xf4E2M1FN>, %s: f8E8M0FNU) kernel {
      %c0 = arith.constant 0 : index
      %accs = memref.alloca() : memref<32x4x4xf32, 5>
      %x = vector.load %accs[%c0, %c0, %c0] : memref<32x4x4xf32, 5>, vector<4xf32>
      %y = amdgpu.scaled_mfma 16x16x128 (%s[0] * %a) * (%s[0] * %a) + %x
          : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
      vector.store %y, %accs[%c0, %c0, %c0] : memref<32x4x4xf32, 5>, vector<4xf32>
      gpu.return
    }
  }
}
