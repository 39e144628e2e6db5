// RUN: mx-opt %s --pass-pipeline='builtin.module(gpu.module(mx-gfx950-reserve-accumulator-agprs))' | FileCheck %s
// RUN: mx-opt %s --pass-pipeline='builtin.module(gpu.module(mx-gfx950-reserve-accumulator-agprs{all=true}))' | FileCheck %s --check-prefix=ALL

// A GEMM kernel (scaled MFMAs) whose accumulator array (a private f32
// array) is marked mx.accumulator_agprs asks LLVM for one AGPR per
// accumulator value; other passthrough entries stay, an earlier AGPR request
// is replaced. A GEMM kernel with an unmarked accumulator array is left
// alone, unless `all` is set. A kernel without MFMAs is left alone either
// way.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @gemm
    //  CHECK-SAME:   passthrough = [{{\[}}"amdgpu-flat-work-group-size", "256,256"], {{\[}}"amdgpu-agpr-alloc", "64"]]
    //   ALL-LABEL: gpu.func @gemm
    //    ALL-SAME:   passthrough = [{{\[}}"amdgpu-flat-work-group-size", "256,256"], {{\[}}"amdgpu-agpr-alloc", "64"]]
    gpu.func @gemm(%a: vector<32xf4E2M1FN>, %s: f8E8M0FNU) kernel
        attributes {passthrough = [["amdgpu-flat-work-group-size", "256,256"], ["amdgpu-agpr-alloc", "8"]]} {
      %c0 = arith.constant 0 : index
      %accs = memref.alloca() {mx.accumulator_agprs} : memref<4x4x4xf32, 5>
      %x = vector.load %accs[%c0, %c0, %c0] : memref<4x4x4xf32, 5>, vector<4xf32>
      %y = amdgpu.scaled_mfma 16x16x128 (%s[0] * %a) * (%s[0] * %a) + %x
          : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
      vector.store %y, %accs[%c0, %c0, %c0] : memref<4x4x4xf32, 5>, vector<4xf32>
      gpu.return
    }
    // CHECK-LABEL: gpu.func @unmarked_gemm
    //   CHECK-NOT:   passthrough
    //       CHECK:   gpu.return
    //   ALL-LABEL: gpu.func @unmarked_gemm
    //    ALL-SAME:   passthrough = [{{\[}}"amdgpu-agpr-alloc", "32"]]
    gpu.func @unmarked_gemm(%a: vector<32xf4E2M1FN>, %s: f8E8M0FNU) kernel {
      %c0 = arith.constant 0 : index
      %accs = memref.alloca() : memref<2x4x4xf32, 5>
      %x = vector.load %accs[%c0, %c0, %c0] : memref<2x4x4xf32, 5>, vector<4xf32>
      %y = amdgpu.scaled_mfma 16x16x128 (%s[0] * %a) * (%s[0] * %a) + %x
          : f8E8M0FNU, vector<32xf4E2M1FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
      vector.store %y, %accs[%c0, %c0, %c0] : memref<2x4x4xf32, 5>, vector<4xf32>
      gpu.return
    }
    // CHECK-LABEL: gpu.func @relayout
    //   CHECK-NOT:   passthrough
    //   ALL-LABEL: gpu.func @relayout
    //     ALL-NOT:   passthrough
    gpu.func @relayout(%x: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tmp = memref.alloca() {mx.accumulator_agprs} : memref<4xf32, 5>
      gpu.return
    }
  }
}
