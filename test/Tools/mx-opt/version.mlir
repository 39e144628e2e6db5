// Every mx tool's --version names mx's version (the CMake project's) and the
// commit the build was configured from, then the LLVM/MLIR release.
// RUN: mx-opt --version | FileCheck %s --check-prefix=OPT
// RUN: mx-run --version | FileCheck %s --check-prefix=RUNX
// RUN: mx-isa --version | FileCheck %s --check-prefix=ISA
// RUN: mx-layout --version | FileCheck %s --check-prefix=LAYOUT
// The version printed is CMakeLists.txt's.
// RUN: mx-opt --version | sed -n 's/.*(mx \([0-9.]*\),.*/project(mx VERSION \1 /p' > %t
// RUN: grep -qF -f %t %mx_src_root/CMakeLists.txt
// OPT: {{^}}mx-opt (mx {{[0-9]+\.[0-9]+\.[0-9]+}}, commit {{([0-9a-f]+|unknown)}})
// OPT-NEXT: built with LLVM/MLIR {{[0-9]+\.[0-9]+}}
// RUNX: {{^}}mx-run (mx
// ISA: {{^}}mx-isa (mx
// LAYOUT: {{^}}mx-layout (mx
