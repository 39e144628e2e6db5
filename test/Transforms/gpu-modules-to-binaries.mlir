// RUN: mx-opt %s -split-input-file -verify-diagnostics --mx-gpu-modules-to-binaries | FileCheck %s
// RUN: mx-opt %s -split-input-file -verify-diagnostics --mx-gpu-modules-to-binaries --mlir-disable-threading | FileCheck %s
// RUN: not mx-opt %s -split-input-file --mx-gpu-modules-to-binaries=format=elf 2>&1 | FileCheck %s --check-prefix=FORMAT

// Every gpu.module becomes a gpu.binary of the same name, in its place and
// in order, with one object per target (the modules are serialized in
// parallel, the binaries created in order).
// CHECK-LABEL: module attributes {gpu.container_module}
//       CHECK:   gpu.binary @first [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}.amdgcn_target \22amdgcn-amd-amdhsa--gfx950\22{{.*}}first_kernel:{{.*}}">]
//  CHECK-NEXT:   func.func @between()
//       CHECK:   gpu.binary @second [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}second_kernel:{{.*}}">, #gpu.object<#rocdl.target<chip = "gfx942">, assembly = "{{.*}}amdgcn-amd-amdhsa--gfx942{{.*}}second_kernel:{{.*}}">]
//   CHECK-NOT:   gpu.module
// FORMAT: mx-gpu-modules-to-binaries: format must be isa, bin, llvm or fatbin, got 'elf'
module attributes {gpu.container_module} {
  gpu.module @first [#rocdl.target<chip = "gfx950">] {
    llvm.func @first_kernel() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
  func.func @between() {
    return
  }
  gpu.module @second [#rocdl.target<chip = "gfx950">, #rocdl.target<chip = "gfx942">] {
    llvm.func @second_kernel() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
}

// -----

// A module without targets cannot be serialized: an error at the module,
// and nothing replaced.
module attributes {gpu.container_module} {
  // expected-error @below {{cannot serialize a gpu.module without target attributes}}
  gpu.module @no_target {
    llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
}

// -----

// The errors of several modules come in the modules' order.
module attributes {gpu.container_module} {
  // expected-error @below {{cannot serialize a gpu.module without target attributes}}
  gpu.module @a {
  }
  gpu.module @ok [#rocdl.target<chip = "gfx950">] {
  }
  // expected-error @below {{cannot serialize a gpu.module without target attributes}}
  gpu.module @b {
  }
}
