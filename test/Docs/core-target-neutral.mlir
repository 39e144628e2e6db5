// The core (include/mx/Dialect, lib/Dialect) names no target: a second
// target is a new folder, with no edit to the dialect (DESIGN.md, "Targets
// are attributes"). gfx950 may appear in comments and as an example only.
//
// RUN: python3 %S/check_target_neutral.py %mx_src_root | FileCheck %s
// CHECK: the core names no target
//
// The check fails on a core file that names the target in code, or outside
// an example:
// RUN: rm -rf %t && mkdir -p %t/lib/Dialect/MX/IR %t/include/mx/Dialect
// RUN: echo '#include "mx/Target/GFX950/GFX950.h"' > %t/lib/Dialect/MX/IR/Bad.cpp
// RUN: echo '  return gfx950::getSwizzle(layout, role); // e.g.' >> %t/lib/Dialect/MX/IR/Bad.cpp
// RUN: echo '// A comment may name gfx950.' >> %t/lib/Dialect/MX/IR/Bad.cpp
// RUN: echo 'def X : I32EnumAttrCase<"mfma_scale_16x16x128", 0>;' > %t/include/mx/Dialect/Bad.td
// RUN: echo '    the layout of a gfx950 scaled MFMA' >> %t/include/mx/Dialect/Bad.td
// RUN: echo '    of a target (e.g. gfx950)' >> %t/include/mx/Dialect/Bad.td
// RUN: not python3 %S/check_target_neutral.py %t | FileCheck %s --check-prefix=BAD
// BAD-DAG: include/mx/Dialect/Bad.td:1: names a target: def X
// BAD-DAG: include/mx/Dialect/Bad.td:2: names a target: the layout of a gfx950
// BAD-DAG: lib/Dialect/MX/IR/Bad.cpp:1: names a target: #include "mx/Target
// BAD-DAG: lib/Dialect/MX/IR/Bad.cpp:2: names a target: return gfx950::getSwizzle
// BAD-NOT: Bad.td:3
// BAD-NOT: Bad.cpp:3
// BAD-NOT: the core names no target
