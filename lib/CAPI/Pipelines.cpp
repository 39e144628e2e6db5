//===- Pipelines.cpp - C API of the mx passes and pipelines ---------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx-c/Pipelines.h"
#include "PipelineOptions.h"

#include "mx/InitMX.h"
#include "mx/Pipelines/Pipelines.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <cstring>

using namespace mlir;

void mxRegisterPasses(void) { mx::registerMXPasses(); }

MxGFX950PipelineOptions mxGFX950PipelineOptionsGetDefault(void) {
  // The defaults have one home: the C++ options.
  mx::GFX950PipelineOptions defaults;
  MxGFX950PipelineOptions options;
  options.intrinsic = MxScaledMMAIntrinsicDefault;
  options.intrinsicsM = defaults.intrinsicsM;
  options.intrinsicsN = defaults.intrinsicsN;
  options.intrinsicsK = defaults.intrinsicsK;
  options.subgroupsM = defaults.subgroupsM;
  options.subgroupsN = defaults.subgroupsN;
  options.relayoutWorkgroupSize = defaults.relayoutWorkgroupSize;
  options.output = static_cast<MxGFX950Output>(defaults.output.getValue());
  options.lld = mlirStringRefCreate(nullptr, 0);
  options.splitK = defaults.splitK;
  options.configTable = mlirStringRefCreate(nullptr, 0);
  options.quantizeInGEMM = MxQuantizeInGEMMAuto;
  options.unrollK = defaults.unrollK;
  options.reserveAccumulatorAGPRs = static_cast<MxAccumulatorAGPRs>(
      defaults.reserveAccumulatorAGPRs.getValue());
  options.columnConsumerElements = defaults.columnConsumerElements;
  return options;
}

// The C enumerators mirror the C++ ones.
static_assert(
    MxGFX950OutputGPU == static_cast<int>(mx::GFX950Output::GPU) &&
        MxGFX950OutputROCDL == static_cast<int>(mx::GFX950Output::ROCDL) &&
        MxGFX950OutputISA == static_cast<int>(mx::GFX950Output::ISA) &&
        MxGFX950OutputHSACO == static_cast<int>(mx::GFX950Output::HSACO),
    "MxGFX950Output must mirror mlir::mx::GFX950Output");
static_assert(MxAccumulatorAGPRsAuto ==
                      static_cast<int>(mx::AccumulatorAGPRs::Auto) &&
                  MxAccumulatorAGPRsAlways ==
                      static_cast<int>(mx::AccumulatorAGPRs::Always) &&
                  MxAccumulatorAGPRsNever ==
                      static_cast<int>(mx::AccumulatorAGPRs::Never),
              "MxAccumulatorAGPRs must mirror mlir::mx::AccumulatorAGPRs");

/// The integer a C client stored in the enum field \p field: C enums may
/// hold any int, and loading one outside the enumerators as the C++ enum
/// type is undefined, so the bits are read as an int.
template <typename Enum> static int getRawEnum(const Enum &field) {
  static_assert(sizeof(Enum) == sizeof(int), "C enums are ints here");
  int value;
  std::memcpy(&value, &field, sizeof(int));
  return value;
}

/// The `quantize-in-gemm` value of \p mode, or null for an unknown one.
static const char *getQuantizeInGEMMName(int mode) {
  switch (mode) {
  case MxQuantizeInGEMMAuto:
    return "auto";
  case MxQuantizeInGEMMAlways:
    return "always";
  case MxQuantizeInGEMMNever:
    return "never";
  default:
    return nullptr;
  }
}

/// Whether the pipelines may be added to \p passManager: one anchored on
/// builtin.module or on any op (mlirPassManagerCreate's). Their passes are
/// module passes and passes nested under builtin.module; OpPassManager
/// aborts when they are added under another op (e.g. nested on func.func).
static bool canHoldModulePasses(MlirOpPassManager passManager) {
  if (!passManager.ptr)
    return false;
  StringRef anchor = unwrap(passManager)->getOpAnchorName();
  return anchor == ModuleOp::getOperationName() ||
         anchor == OpPassManager::getAnyOpAnchorName();
}

bool mlir::mx::capi::convertGFX950PipelineOptions(
    const MxGFX950PipelineOptions &options, mx::GFX950PipelineOptions &cxx) {
  // A string with a length and no characters.
  if ((options.lld.length && !options.lld.data) ||
      (options.configTable.length && !options.configTable.data))
    return false;
  const char *quantizeInGEMM =
      getQuantizeInGEMMName(getRawEnum(options.quantizeInGEMM));
  int agprs = getRawEnum(options.reserveAccumulatorAGPRs);
  if (!quantizeInGEMM || agprs < MxAccumulatorAGPRsAuto ||
      agprs > MxAccumulatorAGPRsNever || options.splitK < 0 ||
      options.unrollK < 0 || options.unrollK > mx::gfx950::kMaxUKernelUnrollK ||
      options.columnConsumerElements < 0)
    return false;
  // C enums may hold any int: check, don't trust.
  switch (getRawEnum(options.intrinsic)) {
  case MxScaledMMAIntrinsicDefault:
    break;
  case MxScaledMMAIntrinsic16x16x128:
    cxx.intrinsic = mx::gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128;
    break;
  case MxScaledMMAIntrinsic32x32x64:
    cxx.intrinsic = mx::gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64;
    break;
  default:
    return false;
  }
  int output = getRawEnum(options.output);
  if (output < MxGFX950OutputGPU || output > MxGFX950OutputHSACO)
    return false;
  for (int64_t size :
       {options.intrinsicsM, options.intrinsicsN, options.intrinsicsK,
        options.subgroupsM, options.subgroupsN})
    if (size < 0)
      return false;
  if (options.relayoutWorkgroupSize <= 0)
    return false;
  cxx.intrinsicsM = options.intrinsicsM;
  cxx.intrinsicsN = options.intrinsicsN;
  cxx.intrinsicsK = options.intrinsicsK;
  cxx.subgroupsM = options.subgroupsM;
  cxx.subgroupsN = options.subgroupsN;
  cxx.relayoutWorkgroupSize = options.relayoutWorkgroupSize;
  cxx.output = static_cast<mx::GFX950Output>(output);
  cxx.lld = unwrap(options.lld).str();
  cxx.splitK = options.splitK;
  cxx.configTable = unwrap(options.configTable).str();
  cxx.quantizeInGEMM = quantizeInGEMM;
  cxx.unrollK = options.unrollK;
  cxx.reserveAccumulatorAGPRs = static_cast<mx::AccumulatorAGPRs>(agprs);
  cxx.columnConsumerElements = options.columnConsumerElements;
  return true;
}

MlirLogicalResult
mxBuildGFX950Pipeline(MlirOpPassManager passManager,
                      const MxGFX950PipelineOptions *options) {
  if (!options || !canHoldModulePasses(passManager))
    return mlirLogicalResultFailure();
  mx::GFX950PipelineOptions cxx;
  if (!mx::capi::convertGFX950PipelineOptions(*options, cxx))
    return mlirLogicalResultFailure();
  mx::buildGFX950Pipeline(*unwrap(passManager), cxx);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mxBuildCPUPipeline(MlirOpPassManager passManager,
                                     bool lowerToLLVM) {
  if (!canHoldModulePasses(passManager))
    return mlirLogicalResultFailure();
  mx::CPUPipelineOptions options;
  options.lowerToLLVM = lowerToLLVM;
  mx::buildCPUPipeline(*unwrap(passManager), options);
  return mlirLogicalResultSuccess();
}
