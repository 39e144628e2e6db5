//===- client.c - an mx C API client --------------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Usage: mx-embed-c GEMM.mlir
//
// Parses a tensor-level mx program, compiles it with mx-gfx950-pipeline
// (output=isa, typed options) and prints one line per kernel from the kernel
// report. Exits 1 when anything fails or a GEMM kernel has no MFMA, spills or
// uses scratch.
//
//===----------------------------------------------------------------------===//

#include "mx-c/CodeObjects.h"
#include "mx-c/Dialects.h"
#include "mx-c/KernelReport.h"
#include "mx-c/Pipelines.h"
#include "mx-c/Version.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Totals {
  int kernels;
  int64_t mfmas;
  int bad;
} Totals;

static void printKernel(const MxGFX950KernelStats *stats, void *userData) {
  Totals *totals = (Totals *)userData;
  printf("kernel %.*s: vgprs %" PRId64 ", agprs %" PRId64 ", lds %" PRId64
         " B, scratch %" PRId64 " B, spills %" PRId64 ", code %" PRId64
         " B, mfma %" PRId64 " (main loop %" PRId64 ")\n",
         (int)stats->name.length, stats->name.data, stats->vgprs, stats->agprs,
         stats->ldsBytes, stats->scratchBytes,
         stats->vgprSpills + stats->sgprSpills, stats->codeBytes, stats->mfmas,
         stats->mainLoopMFMAs);
  ++totals->kernels;
  totals->mfmas += stats->mfmas;
  if (stats->scratchBytes != 0 || stats->vgprSpills + stats->sgprSpills != 0)
    totals->bad = 1;
}

typedef struct CodeObjects {
  int count, notELF;
  int64_t bytes;
} CodeObjects;

/// Counts the code objects a runtime would load (hipModuleLoadData takes
/// exactly these bytes) and checks that each is an ELF file.
static void countCodeObject(const MxGFX950CodeObject *object, void *userData) {
  CodeObjects *objects = (CodeObjects *)userData;
  ++objects->count;
  objects->bytes += (int64_t)object->bytes.length;
  if (!object->isCodeObject || object->bytes.length < 4 ||
      memcmp(object->bytes.data, "\177ELF", 4) != 0)
    ++objects->notELF;
}

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (text && fread(text, 1, size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(file);
  return text;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s GEMM.mlir\n", argv[0]);
    return 1;
  }
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mxRegisterDialects(registry);
  mxRegisterPipelineDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);

  int status = 1;
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "cannot parse %s\n", argv[1]);
    goto done;
  }

  // Bad options are refused, not crashed on.
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MxGFX950PipelineOptions options = mxGFX950PipelineOptionsGetDefault();
  options.relayoutWorkgroupSize = -1;
  if (mlirLogicalResultIsSuccess(mxBuildGFX950Pipeline(opm, &options))) {
    fprintf(stderr, "a negative workgroup size was accepted\n");
    goto destroyPassManager;
  }

  options = mxGFX950PipelineOptionsGetDefault();
  options.intrinsic = MxScaledMMAIntrinsic16x16x128;
  options.output = MxGFX950OutputISA;
  if (mlirLogicalResultIsFailure(mxBuildGFX950Pipeline(opm, &options))) {
    fprintf(stderr, "cannot build mx-gfx950-pipeline\n");
    goto destroyPassManager;
  }
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "mx-gfx950-pipeline failed\n");
    goto destroyPassManager;
  }

  Totals totals = {0, 0, 0};
  if (mlirLogicalResultIsFailure(mxGFX950ForEachKernel(
          mlirModuleGetOperation(module), printKernel, &totals))) {
    fprintf(stderr, "cannot read the kernel report\n");
    goto destroyPassManager;
  }
  printf("%d kernels, %" PRId64 " MFMAs\n", totals.kernels, totals.mfmas);
  if (totals.kernels == 0 || totals.mfmas == 0 || totals.bad)
    goto destroyPassManager;

  // The same program to code objects, every option given: the bytes a
  // runtime loads.
  MlirModule objects =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(source));
  MlirPassManager pmObjects = mlirPassManagerCreate(context);
  options = mxGFX950PipelineOptionsGetDefault();
  options.output = MxGFX950OutputHSACO;
  options.splitK = 1;
  options.configTable = mlirStringRefCreateFromCString("");
  options.quantizeInGEMM = MxQuantizeInGEMMAuto;
  options.unrollK = 0;
  options.reserveAccumulatorAGPRs = MxAccumulatorAGPRsAuto;
  options.columnConsumerElements = 4096;
  CodeObjects counted = {0, 0, 0};
  if (mlirLogicalResultIsSuccess(mxBuildGFX950Pipeline(
          mlirPassManagerGetAsOpPassManager(pmObjects), &options)) &&
      mlirLogicalResultIsSuccess(
          mlirPassManagerRunOnOp(pmObjects, mlirModuleGetOperation(objects))) &&
      mlirLogicalResultIsSuccess(mxGFX950ForEachCodeObject(
          mlirModuleGetOperation(objects), countCodeObject, &counted))) {
    MlirStringRef version = mxGetVersion();
    printf("%d code objects (%" PRId64 " bytes, %d not ELF), mx %.*s\n",
           counted.count, counted.bytes, counted.notELF, (int)version.length,
           version.data);
    status = (counted.count > 0 && counted.notELF == 0) ? 0 : 1;
  } else {
    fprintf(stderr, "cannot compile the program to code objects\n");
  }
  mlirPassManagerDestroy(pmObjects);
  mlirModuleDestroy(objects);

destroyPassManager:
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
done:
  mlirContextDestroy(context);
  free(source);
  return status;
}
