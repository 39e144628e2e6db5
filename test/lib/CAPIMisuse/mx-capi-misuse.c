/*===- mx-capi-misuse.c - detectable misuse of the mx C API -------------===*\
|*                                                                          *|
|* Part of the mx project.                                                  *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                  *|
|*                                                                          *|
|* Calls each C API entry point the way a client can get wrong and the     *|
|* library can detect, and prints "<case>: success" or "<case>: failure"   *|
|* per call (test/CAPI/misuse.mlir checks them). A call that aborts ends   *|
|* the output early. The well-formed calls come first, as the control.     *|
|* It also calls every function the mx C headers export at least once     *|
|* (test/CAPI/coverage.mlir checks that it does), running small programs  *|
|* through mxRun on the cpu and gfx950-emu backends.                       *|
\*===----------------------------------------------------------------------===*/

#include "mx-c/CodeObjects.h"
#include "mx-c/Dialects.h"
#include "mx-c/KernelReport.h"
#include "mx-c/Pipelines.h"
#include "mx-c/Runner.h"
#include "mx-c/Version.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void report(const char *name, MlirLogicalResult result) {
  printf("%s: %s\n", name,
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  fflush(stdout);
}

static void onKernel(const MxGFX950KernelStats *stats, void *userData) {
  (void)stats;
  (void)userData;
}

static void onCodeObject(const MxGFX950CodeObject *object, void *userData) {
  (void)object;
  (void)userData;
}

/// Tries `options` on an op-agnostic pass manager.
static void tryOptions(MlirContext context, const char *name,
                       MxGFX950PipelineOptions options) {
  MlirPassManager pm = mlirPassManagerCreate(context);
  report(name, mxBuildGFX950Pipeline(mlirPassManagerGetAsOpPassManager(pm),
                                     &options));
  mlirPassManagerDestroy(pm);
}

/// Appends a diagnostic's text to the buffer `userData` (diagnostics captured
/// as strings with MLIR's C API, which libMXCAPI holds).
static void appendText(MlirStringRef text, void *userData) {
  char *buffer = (char *)userData;
  size_t used = strlen(buffer), room = 1023 - used;
  size_t n = text.length < room ? text.length : room;
  memcpy(buffer + used, text.data, n);
  buffer[used + n] = '\0';
}

static MlirLogicalResult captureDiagnostic(MlirDiagnostic diagnostic,
                                           void *userData) {
  if (mlirDiagnosticGetSeverity(diagnostic) == MlirDiagnosticError &&
      !*(char *)userData)
    mlirDiagnosticPrint(diagnostic, appendText, userData);
  return mlirLogicalResultSuccess();
}

static void onText(MlirStringRef text, void *userData) {
  (void)text;
  (void)userData;
}

/// A GEMM small enough for the emulator: 16x16 output, K = 128 (4 blocks).
static const char *kGEMM =
    "func.func @gemm(%a: tensor<16x128xf4E2M1FN>, %b: tensor<16x128xf4E2M1FN>,"
    "    %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<16x4xf8E8M0FNU>,"
    "    %c: tensor<16x16xf32>) -> tensor<16x16xf32> {\n"
    "  %r = mx.scaled_contraction indexing_maps = ["
    "    affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,"
    "    affine_map<(m, n, k) -> (m, n)>]"
    "    ins(%a, %b, %sa, %sb : tensor<16x128xf4E2M1FN>,"
    "        tensor<16x128xf4E2M1FN>, tensor<16x4xf8E8M0FNU>,"
    "        tensor<16x4xf8E8M0FNU>)"
    "    outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>\n"
    "  return %r : tensor<16x16xf32>\n}\n"
    "func.func @tanh(%x: tensor<64xf32>) -> tensor<64xf32> {\n"
    "  %e = tensor.empty() : tensor<64xf32>\n"
    "  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,"
    "    affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]}"
    "    ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {\n"
    "  ^bb0(%v: f32, %o: f32):\n"
    "    %y = math.tanh %v : f32\n"
    "    linalg.yield %y : f32\n"
    "  } -> tensor<64xf32>\n"
    "  return %r : tensor<64xf32>\n}\n";

static void printType(bool isResult, intptr_t index, const MxTensorType *type,
                      void *userData) {
  (void)userData;
  printf("%s #%d: %.*s, %.*s of %" PRId64 " bits, rank %d, %" PRId64 " bytes\n",
         isResult ? "result" : "argument", (int)index, (int)type->type.length,
         type->type.data, (int)type->elementType.length, type->elementType.data,
         type->elementBits, (int)type->rank, type->numBytes);
}

static void printResult(intptr_t index, const MxTensor *tensor,
                        void *userData) {
  (void)userData;
  double sum = 0;
  const float *values = (const float *)tensor->data.data;
  for (size_t i = 0; i < tensor->data.length / sizeof(float); ++i)
    sum += values[i];
  printf("result #%d: %.*s, %d bytes, sum %g\n", (int)index,
         (int)tensor->type.type.length, tensor->type.type.data,
         (int)tensor->data.length, sum);
}

/// Prints the last line of a report or plan (its verdict) and its length.
static void printLastLine(MlirStringRef text, void *userData) {
  const char *name = (const char *)userData;
  size_t end = text.length;
  while (end > 0 && text.data[end - 1] == '\n')
    --end;
  size_t begin = end;
  while (begin > 0 && text.data[begin - 1] != '\n')
    --begin;
  printf("%s: %.*s\n", name, (int)(end - begin), text.data + begin);
}

static void printFirstLine(MlirStringRef text, void *userData) {
  const char *name = (const char *)userData;
  size_t end = 0;
  while (end < text.length && text.data[end] != '\n')
    ++end;
  printf("%s: %.*s\n", name, (int)end, text.data);
}

/// mxForEachEntryType, mxRun and mxGFX950PrintLaunchPlan on a GEMM (on the
/// gfx950 emulator, bit-exact against the reference) and on tanh (the CPU
/// path's approximation differs from the reference: passed is false, not a
/// failure), then their misuse.
static void runPrograms(MlirContext context) {
  static char gemmReport[] = "gemm report", gemmPlan[] = "gemm plan",
              tanhReport[] = "tanh report";
  static char captured[1024];
  MlirDiagnosticHandlerID handler = mlirContextAttachDiagnosticHandler(
      context, captureDiagnostic, captured, NULL);
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kGEMM));
  MlirStringRef gemm = mlirStringRefCreateFromCString("gemm");
  report("gemm: mxForEachEntryType",
         mxForEachEntryType(module, gemm, printType, NULL));

  // Bytes in the buffer convention: fp4 two per byte, scales one byte per
  // block (different per block), the accumulator as f32.
  static uint8_t a[16 * 64], b[16 * 64], sa[16 * 4], sb[16 * 4];
  static float c[16 * 16];
  for (int i = 0; i < 16 * 64; ++i) {
    a[i] = (uint8_t)(i * 37 + 11);
    b[i] = (uint8_t)(i * 53 + 5);
  }
  for (int i = 0; i < 16 * 4; ++i) {
    sa[i] = (uint8_t)(124 + i % 5);
    sb[i] = (uint8_t)(125 + i % 3);
  }
  MxTensorBuffer inputs[5] = {{a, sizeof(a)},
                              {b, sizeof(b)},
                              {sa, sizeof(sa)},
                              {sb, sizeof(sb)},
                              {c, sizeof(c)}};
  MxGFX950PipelineOptions pipeline = mxGFX950PipelineOptionsGetDefault();
  pipeline.intrinsic = MxScaledMMAIntrinsic16x16x128;
  MxRunOptions options = mxRunOptionsGetDefault();
  options.entry = gemm;
  options.backend = mlirStringRefCreateFromCString("gfx950-emu");
  options.gfx950 = &pipeline;
  options.compareReference = true;
  bool passed = false;
  report("gemm on gfx950-emu: mxRun",
         mxRun(module, &options, inputs, 5, printResult, printLastLine,
               gemmReport, &passed));
  printf("gemm passed: %d\n", passed);
  report("gemm: mxGFX950PrintLaunchPlan",
         mxGFX950PrintLaunchPlan(module, gemm, &pipeline, printFirstLine,
                                 gemmPlan));

  static float x[64];
  for (int i = 0; i < 64; ++i)
    x[i] = (float)(i - 32) / 7.0f;
  MxTensorBuffer input = {x, sizeof(x)};
  options = mxRunOptionsGetDefault();
  options.entry = mlirStringRefCreateFromCString("tanh");
  options.compareReference = true;
  passed = true;
  report("tanh on cpu: mxRun", mxRun(module, &options, &input, 1, printResult,
                                     printLastLine, tanhReport, &passed));
  printf("tanh passed: %d\n", passed);

  // Misuse: each a failure with a diagnostic, or at once without one.
  MlirModule nullModule = {NULL};
  report("null module: mxForEachEntryType",
         mxForEachEntryType(nullModule, gemm, printType, NULL));
  report("null callback: mxForEachEntryType",
         mxForEachEntryType(module, gemm, NULL, NULL));
  captured[0] = '\0';
  report("unknown entry: mxForEachEntryType",
         mxForEachEntryType(module, mlirStringRefCreateFromCString("nope"),
                            printType, NULL));
  printf("captured: %s\n", captured);
  report("null options: mxRun",
         mxRun(module, NULL, &input, 1, printResult, NULL, NULL, NULL));
  report("null inputs: mxRun",
         mxRun(module, &options, NULL, 1, printResult, NULL, NULL, NULL));
  captured[0] = '\0';
  MxTensorBuffer shortInput = {x, 7};
  report(
      "7 bytes for tensor<64xf32>: mxRun",
      mxRun(module, &options, &shortInput, 1, printResult, NULL, NULL, NULL));
  printf("captured: %s\n", captured);
  captured[0] = '\0';
  options.backend = mlirStringRefCreateFromCString("tpu");
  report("unknown backend: mxRun",
         mxRun(module, &options, &input, 1, printResult, NULL, NULL, NULL));
  printf("captured: %s\n", captured);
  captured[0] = '\0';
  options = mxRunOptionsGetDefault();
  options.entry = gemm;
  options.backend = mlirStringRefCreateFromCString("gfx950-emu");
  pipeline.unrollK = 9;
  options.gfx950 = &pipeline;
  report("unroll-k 9: mxRun",
         mxRun(module, &options, inputs, 5, printResult, NULL, NULL, NULL));
  printf("captured: %s\n", captured);
  report(
      "unroll-k 9: mxGFX950PrintLaunchPlan",
      mxGFX950PrintLaunchPlan(module, gemm, &pipeline, printFirstLine, NULL));
  report("null callback: mxGFX950PrintLaunchPlan",
         mxGFX950PrintLaunchPlan(module, gemm, NULL, NULL, NULL));
  mlirModuleDestroy(module);
  mlirContextDetachDiagnosticHandler(context, handler);
}

/// Builds both pipelines into a fresh pass manager anchored on `anchor`
/// (then, when `nested` is set, nested under it on func.func).
static void buildOn(MlirContext context, const char *anchor, int nested,
                    const char *name) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString(anchor));
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (nested)
    opm = mlirPassManagerGetNestedUnder(
        pm, mlirStringRefCreateFromCString("func.func"));
  MxGFX950PipelineOptions options = mxGFX950PipelineOptionsGetDefault();
  printf("%s: ", name);
  report("mxBuildGFX950Pipeline", mxBuildGFX950Pipeline(opm, &options));
  printf("%s: ", name);
  report("mxBuildCPUPipeline", mxBuildCPUPipeline(opm, false));
  mlirPassManagerDestroy(pm);
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mxRegisterDialects(registry);
  mxRegisterPipelineDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);

  buildOn(context, "builtin.module", 0, "builtin.module");
  buildOn(context, "builtin.module", 1, "nested under func.func");
  buildOn(context, "func.func", 0, "anchored on func.func");
  buildOn(context, "any", 0, "op-agnostic");

  MlirOpPassManager nullPassManager = {NULL};
  MxGFX950PipelineOptions options = mxGFX950PipelineOptionsGetDefault();
  report("null pass manager: mxBuildGFX950Pipeline",
         mxBuildGFX950Pipeline(nullPassManager, &options));
  report("null pass manager: mxBuildCPUPipeline",
         mxBuildCPUPipeline(nullPassManager, true));

  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  report("null options: mxBuildGFX950Pipeline",
         mxBuildGFX950Pipeline(opm, NULL));
  options.lld.data = NULL;
  options.lld.length = 5;
  report("lld of length 5 without characters: mxBuildGFX950Pipeline",
         mxBuildGFX950Pipeline(opm, &options));
  mlirPassManagerDestroy(pm);

  // Every option in range is accepted; each out-of-range one is refused.
  options = mxGFX950PipelineOptionsGetDefault();
  options.splitK = 4;
  options.configTable = mlirStringRefCreateFromCString("none");
  options.quantizeInGEMM = MxQuantizeInGEMMNever;
  options.unrollK = 2;
  options.reserveAccumulatorAGPRs = MxAccumulatorAGPRsNever;
  options.columnConsumerElements = 0;
  tryOptions(context, "every option set: mxBuildGFX950Pipeline", options);
  options = mxGFX950PipelineOptionsGetDefault();
  options.splitK = -1;
  tryOptions(context, "split-k -1: mxBuildGFX950Pipeline", options);
  options = mxGFX950PipelineOptionsGetDefault();
  options.unrollK = 9;
  tryOptions(context, "unroll-k 9: mxBuildGFX950Pipeline", options);
  options = mxGFX950PipelineOptionsGetDefault();
  options.quantizeInGEMM = (MxQuantizeInGEMM)7;
  tryOptions(context, "quantize-in-gemm 7: mxBuildGFX950Pipeline", options);
  options = mxGFX950PipelineOptionsGetDefault();
  options.reserveAccumulatorAGPRs = (MxAccumulatorAGPRs)-1;
  tryOptions(context, "reserve-accumulator-agprs -1: mxBuildGFX950Pipeline",
             options);
  options = mxGFX950PipelineOptionsGetDefault();
  options.columnConsumerElements = -1;
  tryOptions(context, "column-consumer-elements -1: mxBuildGFX950Pipeline",
             options);
  options = mxGFX950PipelineOptionsGetDefault();
  options.configTable.data = NULL;
  options.configTable.length = 3;
  tryOptions(context,
             "config-table of length 3 without characters: "
             "mxBuildGFX950Pipeline",
             options);

  // A pipeline's errors reach a C client as strings: an input the CPU
  // pipeline refuses, the first error captured.
  static char captured[1024];
  MlirDiagnosticHandlerID handler = mlirContextAttachDiagnosticHandler(
      context, captureDiagnostic, captured, NULL);
  MlirModule refused = mlirModuleCreateParse(
      context, mlirStringRefCreateFromCString(
                   "func.func @f(%x: f32, %s: f8E8M0FNU) -> f4E2M1FN {\n"
                   "  %q = arith.scaling_truncf %x, %s : f32, f8E8M0FNU to "
                   "f4E2M1FN\n"
                   "  return %q : f4E2M1FN\n}\n"));
  MlirPassManager cpu = mlirPassManagerCreate(context);
  mxBuildCPUPipeline(mlirPassManagerGetAsOpPassManager(cpu), true);
  report("refused input: mlirPassManagerRunOnOp",
         mlirPassManagerRunOnOp(cpu, mlirModuleGetOperation(refused)));
  printf("captured: %s\n", captured);
  mlirPassManagerDestroy(cpu);
  mlirModuleDestroy(refused);
  mlirContextDetachDiagnosticHandler(context, handler);

  MlirStringRef version = mxGetVersion(), commit = mxGetCommit();
  printf("mxGetVersion: %.*s, mxGetCommit: %.*s\n", (int)version.length,
         version.data, (int)commit.length, commit.data);

  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(context));
  MlirOperation root = mlirModuleGetOperation(module);
  MlirOperation nullOperation = {NULL};
  report("empty module: mxGFX950ForEachKernel",
         mxGFX950ForEachKernel(root, onKernel, NULL));
  report("null root: mxGFX950ForEachKernel",
         mxGFX950ForEachKernel(nullOperation, onKernel, NULL));
  report("null callback: mxGFX950ForEachKernel",
         mxGFX950ForEachKernel(root, NULL, NULL));
  report("empty module: mxGFX950PrintKernelReport",
         mxGFX950PrintKernelReport(root, onText, NULL));
  report("null root: mxGFX950PrintKernelReport",
         mxGFX950PrintKernelReport(nullOperation, onText, NULL));
  report("null callback: mxGFX950PrintKernelReport",
         mxGFX950PrintKernelReport(root, NULL, NULL));
  report("empty module: mxGFX950ForEachCodeObject",
         mxGFX950ForEachCodeObject(root, onCodeObject, NULL));
  report("null root: mxGFX950ForEachCodeObject",
         mxGFX950ForEachCodeObject(nullOperation, onCodeObject, NULL));
  report("null callback: mxGFX950ForEachCodeObject",
         mxGFX950ForEachCodeObject(root, NULL, NULL));
  mlirModuleDestroy(module);

  runPrograms(context);

  // Registration: the passes for textual pipelines, the dialect handle.
  mxRegisterPasses();
  MlirDialectHandle handle = mlirGetDialectHandle__mx__();
  MlirStringRef dialect = mlirDialectHandleGetNamespace(handle);
  printf("mlirGetDialectHandle__mx__: %.*s\n", (int)dialect.length,
         dialect.data);
  mlirContextDestroy(context);
  printf("done\n");
  return 0;
}
