//===- Pipelines.h - C API of the mx passes and pipelines ---------*- C -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Pass registration and typed construction of the mx pipelines into an
// MlirOpPassManager (mlir-c/Pass.h). The option fields mirror the C++
// mlir::mx::GFX950PipelineOptions (mx/Pipelines/Pipelines.h), which holds
// their documentation and defaults; mxGFX950PipelineOptionsGetDefault reads
// the defaults from it.
//
//===----------------------------------------------------------------------===//

#ifndef MX_C_PIPELINES_H
#define MX_C_PIPELINES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Registers the mx passes and the pipelines `mx-cpu-pipeline` and
/// `mx-gfx950-pipeline` in MLIR's global registry, for textual pipelines
/// (mlirOpPassManagerAddPipeline, mlirParsePassPipeline).
MLIR_CAPI_EXPORTED void mxRegisterPasses(void);

/// The scaled MFMA `mx-gfx950-pipeline` pins (option `intrinsic`).
typedef enum MxScaledMMAIntrinsic {
  /// The resolver's choice.
  MxScaledMMAIntrinsicDefault = 0,
  MxScaledMMAIntrinsic16x16x128 = 1,
  MxScaledMMAIntrinsic32x32x64 = 2,
} MxScaledMMAIntrinsic;

/// Where `mx-gfx950-pipeline` stops (option `output`).
typedef enum MxGFX950Output {
  MxGFX950OutputGPU = 0,
  MxGFX950OutputROCDL = 1,
  MxGFX950OutputISA = 2,
  MxGFX950OutputHSACO = 3,
} MxGFX950Output;

/// Where a quantized activation's A tiles are quantized (option
/// `quantize-in-gemm`).
typedef enum MxQuantizeInGEMM {
  MxQuantizeInGEMMAuto = 0,
  MxQuantizeInGEMMAlways = 1,
  MxQuantizeInGEMMNever = 2,
} MxQuantizeInGEMM;

/// Which GEMM kernels keep their accumulators in AGPRs (option
/// `reserve-accumulator-agprs`).
typedef enum MxAccumulatorAGPRs {
  MxAccumulatorAGPRsAuto = 0,
  MxAccumulatorAGPRsAlways = 1,
  MxAccumulatorAGPRsNever = 2,
} MxAccumulatorAGPRs;

/// Typed options of `mx-gfx950-pipeline`: every option of the pipeline; each
/// field is the option of the same name (intrinsicsM is `intrinsics-m`,
/// ...). Fields were appended in version 0.1.0 after `lld`, and
/// `columnConsumerElements` after them: a client built against an older
/// header must take the struct from mxGFX950PipelineOptionsGetDefault of the
/// library it runs with.
typedef struct MxGFX950PipelineOptions {
  MxScaledMMAIntrinsic intrinsic;
  int64_t intrinsicsM;
  int64_t intrinsicsN;
  int64_t intrinsicsK;
  int64_t subgroupsM;
  int64_t subgroupsN;
  int64_t relayoutWorkgroupSize;
  MxGFX950Output output;
  /// Option `lld`: the linker for output=hsaco; empty: looked up at run time.
  MlirStringRef lld;
  /// Option `split-k`: parts of each GEMM's K loop (0: the resolver's
  /// choice, 1: never split).
  int64_t splitK;
  /// Option `config-table`: empty for the embedded table, "none", or a
  /// table file's path.
  MlirStringRef configTable;
  MxQuantizeInGEMM quantizeInGEMM;
  /// Option `unroll-k`: 0 for the ukernel's register schedule, else 1 to 8.
  int64_t unrollK;
  MxAccumulatorAGPRs reserveAccumulatorAGPRs;
  /// Option `column-consumer-elements`: the most outputs per strip of N
  /// tiles of a consumer that reads a GEMM's result by columns for the
  /// GEMM's kernel to compute (0: none).
  int64_t columnConsumerElements;
} MxGFX950PipelineOptions;

/// The pipeline's default options.
MLIR_CAPI_EXPORTED MxGFX950PipelineOptions
mxGFX950PipelineOptionsGetDefault(void);

/// Appends `mx-gfx950-pipeline` with `options` to `passManager`, which must
/// be anchored on builtin.module or on any op (mlirPassManagerCreate's).
/// Fails, adding nothing, when `passManager` is null or anchored on another
/// op (e.g. nested under func.func),
/// `options` is null, or an option is out of range (an unknown enumerator, a
/// negative size or split-k, an unroll-k outside [0, 8], a string with a
/// length and no characters).
MLIR_CAPI_EXPORTED MlirLogicalResult mxBuildGFX950Pipeline(
    MlirOpPassManager passManager, const MxGFX950PipelineOptions *options);

/// Appends `mx-cpu-pipeline` to `passManager`, which must be anchored on
/// builtin.module or on any op; `lowerToLLVM` is its option `lower-to-llvm`.
/// Fails, adding nothing, when `passManager` is null or anchored on another
/// op.
MLIR_CAPI_EXPORTED MlirLogicalResult
mxBuildCPUPipeline(MlirOpPassManager passManager, bool lowerToLLVM);

#ifdef __cplusplus
}
#endif

#endif // MX_C_PIPELINES_H
