// Upstream mlir-opt runs the mx pipelines with MXPlugin.so as its dialect and
// pass plugin.
// RUN: mlir-opt %s --load-dialect-plugin=%mx_plugin | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mlir-opt %s --load-dialect-plugin=%mx_plugin --load-pass-plugin=%mx_plugin \
// RUN:   --pass-pipeline='builtin.module(mx-gfx950-pipeline{output=gpu})' | FileCheck %s --check-prefix=GPU
// RUN: mlir-opt %s --load-dialect-plugin=%mx_plugin --load-pass-plugin=%mx_plugin \
// RUN:   --pass-pipeline='builtin.module(mx-cpu-pipeline)' | FileCheck %s --check-prefix=CPU
// The plugin's passes are registered after mlir-opt parses its flags: they
// work inside --pass-pipeline only (README, "Upstream mlir-opt").
// RUN: not mlir-opt %s --load-dialect-plugin=%mx_plugin --load-pass-plugin=%mx_plugin \
// RUN:   --mx-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: Unknown command line argument '--mx-cpu-pipeline'
// Without the plugin, mlir-opt knows neither the dialect nor the pipeline.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NODIALECT
// RUN: not mlir-opt %s --load-dialect-plugin=%mx_plugin \
// RUN:   --pass-pipeline='builtin.module(mx-cpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=NOPASS

// ROUNDTRIP-LABEL: func.func @gemm
//       ROUNDTRIP:   mx.scaled_contraction

// GPU-LABEL: func.func @gemm
//       GPU:   gpu.launch_func @gemm_mma0::@gemm_mma0
//       GPU: gpu.module @gemm_mma0 [#rocdl.target<chip = "gfx950">]
//       GPU:   amdgpu.scaled_mfma

// CPU: llvm.func @gemm
// CPU-NOT: mx.

// NODIALECT: Dialect `mx' not found for custom op 'mx.scaled_contraction'
// NOPASS: 'mx-cpu-pipeline' does not refer to a registered pass or pass pipeline

func.func @gemm(%a: tensor<64x256xf4E2M1FN>, %b: tensor<64x256xf4E2M1FN>,
                %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<64x8xf8E8M0FNU>,
                %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<64x256xf4E2M1FN>,
                             tensor<64x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
      outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
