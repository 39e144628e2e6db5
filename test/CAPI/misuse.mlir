// The C API returns a failure for each misuse it can detect, instead of
// aborting (issue 37): a pass manager anchored on another op than
// builtin.module (nested under func.func, created on func.func), null
// handles, options and callbacks. The well-formed calls succeed (on
// builtin.module and on an op-agnostic pass manager, mlirPassManagerCreate's
// kind), so the checks are not satisfied by a library that refuses
// everything. The program
// (test/lib/CAPIMisuse) prints one line per call; an abort ends it early and
// "done" is missing.

// RUN: %mx_capi_misuse | FileCheck %s

// CHECK-LABEL: builtin.module: mxBuildGFX950Pipeline: success
// CHECK-NEXT: builtin.module: mxBuildCPUPipeline: success
// CHECK-NEXT: nested under func.func: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: nested under func.func: mxBuildCPUPipeline: failure
// CHECK-NEXT: anchored on func.func: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: anchored on func.func: mxBuildCPUPipeline: failure
// CHECK-NEXT: op-agnostic: mxBuildGFX950Pipeline: success
// CHECK-NEXT: op-agnostic: mxBuildCPUPipeline: success
// CHECK-NEXT: null pass manager: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: null pass manager: mxBuildCPUPipeline: failure
// CHECK-NEXT: null options: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: lld of length 5 without characters: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: every option set: mxBuildGFX950Pipeline: success
// CHECK-NEXT: split-k -1: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: unroll-k 9: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: quantize-in-gemm 7: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: reserve-accumulator-agprs -1: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: config-table of length 3 without characters: mxBuildGFX950Pipeline: failure
// CHECK-NEXT: refused input: mlirPassManagerRunOnOp: failure
// CHECK-NEXT: captured: mx-cpu-pipeline (input): 'arith.scaling_truncf' cannot be lowered by mx-cpu-pipeline
// CHECK-NEXT: mxGetVersion: {{[0-9]+\.[0-9]+\.[0-9]+}}, mxGetCommit: {{([0-9a-f]+|unknown)}}
// CHECK-LABEL: empty module: mxGFX950ForEachKernel: success
// CHECK-NEXT: null root: mxGFX950ForEachKernel: failure
// CHECK-NEXT: null callback: mxGFX950ForEachKernel: failure
// CHECK-NEXT: empty module: mxGFX950PrintKernelReport: success
// CHECK-NEXT: null root: mxGFX950PrintKernelReport: failure
// CHECK-NEXT: null callback: mxGFX950PrintKernelReport: failure
// CHECK-NEXT: empty module: mxGFX950ForEachCodeObject: failure
// CHECK-NEXT: null root: mxGFX950ForEachCodeObject: failure
// CHECK-NEXT: null callback: mxGFX950ForEachCodeObject: failure
// CHECK-NEXT: done
