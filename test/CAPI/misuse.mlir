// The C API returns a failure for each misuse it can detect, instead of
// aborting (issue 37): a pass manager anchored on another op than
// builtin.module (nested under func.func, created on func.func), null
// handles, options and callbacks. The well-formed calls succeed (on
// builtin.module and on an op-agnostic pass manager, mlirPassManagerCreate's
// kind), so the checks are not satisfied by a library that refuses
// everything. The program
// (test/lib/CAPIMisuse) prints one line per call; an abort ends it early and
// "done" is missing. The program also calls every function the mx C headers
// export (test/CAPI/coverage.mlir): mxRun on the gfx950 emulator bit-exact
// against the reference, and a comparison that fails (passed false, not an
// error).

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
// CHECK-NEXT: column-consumer-elements -1: mxBuildGFX950Pipeline: failure
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
// CHECK-NEXT: argument #0: tensor<16x128xf4E2M1FN>, f4E2M1FN of 4 bits, rank 2, 1024 bytes
// CHECK-NEXT: argument #1: tensor<16x128xf4E2M1FN>, f4E2M1FN of 4 bits, rank 2, 1024 bytes
// CHECK-NEXT: argument #2: tensor<16x4xf8E8M0FNU>, f8E8M0FNU of 8 bits, rank 2, 64 bytes
// CHECK-NEXT: argument #3: tensor<16x4xf8E8M0FNU>, f8E8M0FNU of 8 bits, rank 2, 64 bytes
// CHECK-NEXT: argument #4: tensor<16x16xf32>, f32 of 32 bits, rank 2, 1024 bytes
// CHECK-NEXT: result #0: tensor<16x16xf32>, f32 of 32 bits, rank 2, 1024 bytes
// CHECK-NEXT: gemm: mxForEachEntryType: success
// CHECK-NEXT: gemm report: PASS
// CHECK-NEXT: result #0: tensor<16x16xf32>, 1024 bytes, sum
// CHECK-NEXT: gemm on gfx950-emu: mxRun: success
// CHECK-NEXT: gemm passed: 1
// CHECK-NEXT: gemm plan: launch #0 @gemm_{{.+}} grid {{.+}} block 256x1x1
// CHECK-NEXT: gemm: mxGFX950PrintLaunchPlan: success
// CHECK-NEXT: tanh report: FAIL
// CHECK-NEXT: result #0: tensor<64xf32>, 256 bytes, sum
// CHECK-NEXT: tanh on cpu: mxRun: success
// CHECK-NEXT: tanh passed: 0
// CHECK-NEXT: null module: mxForEachEntryType: failure
// CHECK-NEXT: null callback: mxForEachEntryType: failure
// CHECK-NEXT: unknown entry: mxForEachEntryType: failure
// CHECK-NEXT: captured: no function definition named 'nope' in the module (available: @gemm, @tanh)
// CHECK-NEXT: null options: mxRun: failure
// CHECK-NEXT: null inputs: mxRun: failure
// CHECK-NEXT: 7 bytes for tensor<64xf32>: mxRun: failure
// CHECK-NEXT: captured: input #0 for argument #0 of @tanh (tensor<64xf32>): has 7 bytes, expected 256
// CHECK-NEXT: unknown backend: mxRun: failure
// CHECK-NEXT: captured: unknown backend 'tpu' (available: cpu, gfx950-emu, gfx950-isa, hip, reference)
// CHECK-NEXT: unroll-k 9: mxRun: failure
// CHECK-NEXT: captured: invalid mx-gfx950-pipeline options
// CHECK-NEXT: unroll-k 9: mxGFX950PrintLaunchPlan: failure
// CHECK-NEXT: null callback: mxGFX950PrintLaunchPlan: failure
// CHECK-NEXT: mlirGetDialectHandle__mx__: mx
// CHECK-NEXT: done
