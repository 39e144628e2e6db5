// The C test of the C API (test/lib/CAPIMisuse/mx-capi-misuse.c, run by
// misuse.mlir) calls every function the mx C headers export: a function
// added to include/mx-c without a call there fails this test.
// RUN: python3 %S/check_capi_coverage.py %mx_src_root %mx_src_root/test/lib/CAPIMisuse/mx-capi-misuse.c | FileCheck %s
// CHECK-DAG: called: mxRun (Runner.h)
// CHECK-DAG: called: mxGFX950PrintLaunchPlan (Runner.h)
// CHECK-DAG: called: mlirGetDialectHandle__mx__ (Dialects.h)
// CHECK-DAG: called: mxBuildGFX950Pipeline (Pipelines.h)
// CHECK-NOT: error:
// CHECK: [[N:[0-9]+]] of [[N]] exported functions called

// The check bites: a C file that calls nothing misses every function.
// RUN: echo "int main(void) { return 0; }" > %t.c
// RUN: not python3 %S/check_capi_coverage.py %mx_src_root %t.c | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: {{.*}}.c does not call mxGetVersion (Version.h)
// EMPTY: 0 of {{[0-9]+}} exported functions called
