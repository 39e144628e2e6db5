//===- Runner.h - C API of running mx programs on the host --------*- C -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs one function of a tensor-level module on an execution backend of
// `mx-run` (cpu, gfx950-emu, gfx950-isa, hip, reference), optionally compares
// the results with the independent reference evaluator, and prints the
// launch plan of a gfx950 program (`mx-run --backend=hip --dry-run`).
//
// Tensors cross the API as bytes in the *buffer convention*, `mx-run`'s raw
// file format (mx/Runner/TensorIO.h): row-major, little-endian; f4E2M1FN
// packed two per byte, element 2i in the low nibble (so a row of K elements
// is K/2 bytes when K is even); f6E2M3FN and f6E3M2FN a dense 6-bit stream
// (4 elements per 3 bytes); f8 elements and f8E8M0FNU scales one byte each;
// bf16 and f16 their 16-bit patterns; i1 one byte (0 or 1).
//
// Errors are emitted as diagnostics on the module's context (attach a
// handler with mlirContextAttachDiagnosticHandler to capture them) and the
// call returns a failure.
//
//===----------------------------------------------------------------------===//

#ifndef MX_C_RUNNER_H
#define MX_C_RUNNER_H

#include "mx-c/Pipelines.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The size MxTensorType::shape holds for a dynamic size.
#define MX_DYNAMIC_SIZE INT64_MIN

/// The type of an argument or result of a function. Strings and the shape
/// are valid during the callback that receives the type only.
typedef struct MxTensorType {
  /// The MLIR type, e.g. "tensor<128x512xf4E2M1FN>".
  MlirStringRef type;
  /// The element type's MLIR spelling, e.g. "f4E2M1FN", "bf16", "f32".
  MlirStringRef elementType;
  /// Bits of one element: 4 or 6 for the packed MX types, else 8 times its
  /// bytes (1 for i1, stored as one byte).
  int64_t elementBits;
  intptr_t rank;
  /// `rank` sizes, MX_DYNAMIC_SIZE where a result's size is not static.
  const int64_t *shape;
  /// Bytes of the data in the buffer convention; -1 for a dynamic shape.
  int64_t numBytes;
} MxTensorType;

/// Receives the type of argument (`isResult` false) or result `index`.
typedef void (*MxTensorTypeCallback)(bool isResult, intptr_t index,
                                     const MxTensorType *type, void *userData);

/// Calls `callback` with the type of every argument, then of every result,
/// of the function `entry` of `module` (empty: the module's only function
/// definition), which must take ranked tensors of static shape of the
/// element types mx-run supports. Fails (with a diagnostic, e.g. listing the
/// functions when `entry` is unknown) otherwise, and at once when `module`
/// or `callback` is null.
MLIR_CAPI_EXPORTED MlirLogicalResult
mxForEachEntryType(MlirModule module, MlirStringRef entry,
                   MxTensorTypeCallback callback, void *userData);

/// One input of mxRun: the argument's bytes in the buffer convention,
/// exactly MxTensorType::numBytes of them.
typedef struct MxTensorBuffer {
  const void *data;
  int64_t numBytes;
} MxTensorBuffer;

/// One result of mxRun, valid during the callback only.
typedef struct MxTensor {
  MxTensorType type;
  /// The bytes in the buffer convention.
  MlirStringRef data;
} MxTensor;

typedef void (*MxTensorCallback)(intptr_t index, const MxTensor *tensor,
                                 void *userData);

/// How mxRun runs a function (the options of `mx-run` of the same names).
typedef struct MxRunOptions {
  /// The function to run; empty: the module's only function definition.
  MlirStringRef entry;
  /// The execution backend (`--backend`): "cpu" (also when empty),
  /// "gfx950-emu", "gfx950-isa", "hip" or "reference".
  MlirStringRef backend;
  /// Options of mx-gfx950-pipeline for the gfx950-emu, gfx950-isa and hip
  /// backends (`--gfx950-options`); null: the defaults. `output` is the
  /// backend's own (ignored).
  const MxGFX950PipelineOptions *gfx950;
  /// Compare every result with the reference evaluator (`--compare=
  /// reference`), which rounds as the backend's kernels do on gfx950-emu,
  /// gfx950-isa and hip (bit-exact on any data).
  bool compareReference;
  /// Tolerances of the comparison of float results (`--rtol`, `--atol`,
  /// `--sum-tol`); 0: bit-exact.
  double rtol, atol, sumTol;
  /// Host threads of the gfx950-emu and gfx950-isa backends (`--threads`);
  /// 0: one per hardware thread; at most 4096.
  int64_t threads;
  /// The launch budget (`--max-workgroups`); 0: the default (2^24).
  int64_t maxWorkgroups;
  /// The memory budget of one buffer in bytes (`--max-memory`); 0: the
  /// default (16 GiB).
  int64_t maxMemory;
  /// LLVM optimization level of the cpu backend (`--opt-level`, 0-3).
  int64_t optLevel;
} MxRunOptions;

/// The defaults: the only function, the cpu backend, no comparison,
/// bit-exact tolerances, one emulator thread, the default budgets, opt
/// level 2.
MLIR_CAPI_EXPORTED MxRunOptions mxRunOptionsGetDefault(void);

/// Runs the function `options->entry` of `module` (left unchanged) on
/// `numInputs` inputs, one per argument, and calls `resultCallback` once per
/// result in order. With `options->compareReference`, the comparison report
/// (`mx-run --compare=reference`'s lines, ending in "PASS" or "FAIL") goes to
/// `reportCallback` (may be null) and `*passed` (may be null) says whether
/// every result matched; without it, `*passed` is true. A mismatch is not a
/// failure: the call fails only when the run or the reference evaluation
/// cannot be done (a diagnostic on the module's context says why: an unknown
/// backend or entry, an input of the wrong size, invalid pipeline options,
/// a program a backend cannot compile, a budget exceeded), and at once
/// without one when `module`, `options` or `resultCallback` is null, or
/// `inputs` is null with `numInputs` > 0.
MLIR_CAPI_EXPORTED MlirLogicalResult mxRun(MlirModule module,
                                           const MxRunOptions *options,
                                           const MxTensorBuffer *inputs,
                                           intptr_t numInputs,
                                           MxTensorCallback resultCallback,
                                           MlirStringCallback reportCallback,
                                           void *userData, bool *passed);

/// Prints the launch plan of the function `entry` of `module` (empty: the
/// only function definition) compiled by mx-gfx950-pipeline with `options`
/// (null: the defaults; `output` ignored): the kernels, grids, blocks, LDS,
/// registers, kernel argument layouts and buffers of every launch, the text
/// of `mx-run --backend=hip --dry-run` (mx/Runner/LaunchPlan.h), through
/// `callback`. Nothing runs; the arguments are zeros. Fails with a
/// diagnostic when the program cannot be compiled, at once when `module` or
/// `callback` is null.
MLIR_CAPI_EXPORTED MlirLogicalResult
mxGFX950PrintLaunchPlan(MlirModule module, MlirStringRef entry,
                        const MxGFX950PipelineOptions *options,
                        MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // MX_C_RUNNER_H
