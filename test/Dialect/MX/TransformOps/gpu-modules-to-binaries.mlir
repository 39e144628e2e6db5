// RUN: mx-opt %s --transform-preload-library="transform-library-paths=%p/Inputs/gpu-modules-to-binaries-schedule.mlir" --transform-interpreter > %t.transform
// RUN: mx-opt %s --mx-gpu-modules-to-binaries > %t.passes
// RUN: diff %t.passes %t.transform
// RUN: FileCheck %s < %t.transform

// transform.mx.gpu_modules_to_binaries serializes like its pass (the pass's
// own test input has error cases, which a script reports once more as its
// definite failure): both gpu.modules become gfx950 assembly.

// CHECK-NOT: gpu.module
// CHECK: gpu.binary @first [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}s_endpgm
// CHECK: gpu.binary @second [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}s_endpgm
module attributes {gpu.container_module} {
  gpu.module @first [#rocdl.target<chip = "gfx950">] {
    llvm.func @kernel() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
  gpu.module @second [#rocdl.target<chip = "gfx950">] {
    llvm.func @kernel() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
}
