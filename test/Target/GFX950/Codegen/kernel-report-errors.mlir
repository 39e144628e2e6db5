// RUN: mx-opt %s --mx-gfx950-kernel-report -split-input-file -verify-diagnostics -o /dev/null

// With a code-object output the remark is one line per binary: neither the
// binary (the whole ELF) nor the module is printed with it.
// RUN: mx-opt %S/../../../../examples/seed_gemm_gfx950.mlir --mx-gfx950-pipeline=output=hsaco --mx-gfx950-kernel-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=HSACO
// HSACO: remark: kernel report of @seed_gemm_relayout0_generic skipped
// HSACO-NOT: ELF
// HSACO-NOT: see current operation

// A module without binaries has nothing to report.
// expected-remark @below {{no gpu.binary with gfx950 assembly to report}}
module {
  func.func @host() {
    return
  }
}

// -----

// expected-remark @below {{no gpu.binary with gfx950 assembly to report}}
module attributes {gpu.container_module} {
  // expected-remark @below {{kernel report of @k skipped: it needs assembly (mx-gfx950-pipeline output=isa, or gpu-module-to-binary{format=isa}), this object is bin}}
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx950">, bin = "\7FELF">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{cannot analyze the kernels of @k: no AMDHSA kernel metadata (.amdgpu_metadata) in the assembly}}
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "\09s_endpgm\0A">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{cannot analyze the kernels of @k: cannot assemble the kernel: gfx950.s:1:2: error: invalid instruction}}
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "\09v_frobnicate v0\0A.amdgpu_metadata\0A---\0Aamdhsa.kernels:\0A  - .name:           k\0Aamdhsa.target:   amdgcn-amd-amdhsa--gfx950\0Aamdhsa.version:\0A  - 1\0A  - 2\0A...\0A.end_amdgpu_metadata\0A">]
}

