// docs/design/targets.md names every method of the interfaces a target
// implements (the resolver, the tiled layout, the intrinsic), as their ODS
// declares them; a doc that misses one is reported.
//
// RUN: python3 %mx_src_root/docs/check_interfaces.py %mx_src_root/docs/design/targets.md %mx_src_root/include/mx/Dialect/MX/IR/MXTargetInterfaces.td %mx_src_root/include/mx/Dialect/MX/IR/MXInterfaces.td | FileCheck %s
// RUN: echo 'Only `resolveLayout(op, encoding, dims)` here.' > %t.md
// RUN: not python3 %mx_src_root/docs/check_interfaces.py %t.md %mx_src_root/include/mx/Dialect/MX/IR/MXTargetInterfaces.td | FileCheck %s --check-prefix=MISSING
//
// CHECK: every interface method is named (11 methods)
// MISSING-NOT: not named in {{.*}}: resolveLayout
// MISSING: not named in {{.*}}: selectUKernel
// MISSING: not named in {{.*}}: getDynamicMBuckets
