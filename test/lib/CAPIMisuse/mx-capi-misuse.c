/*===- mx-capi-misuse.c - detectable misuse of the mx C API -------------===*\
|*                                                                          *|
|* Part of the mx project.                                                  *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                  *|
|*                                                                          *|
|* Calls each C API entry point the way a client can get wrong and the     *|
|* library can detect, and prints "<case>: success" or "<case>: failure"   *|
|* per call (test/CAPI/misuse.mlir checks them). A call that aborts ends   *|
|* the output early. The well-formed calls come first, as the control.     *|
\*===----------------------------------------------------------------------===*/

#include "mx-c/CodeObjects.h"
#include "mx-c/Dialects.h"
#include "mx-c/KernelReport.h"
#include "mx-c/Pipelines.h"
#include "mx-c/Version.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

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
  mlirContextDestroy(context);
  printf("done\n");
  return 0;
}
