//===- Pipelines.cpp - mx pass pipelines ----------------------------------===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#include "mx/Pipelines/Pipelines.h"

#include "mx/Conversion/Passes.h"
#include "mx/Dialect/MX/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mx::buildCPUPipeline(OpPassManager &pm,
                          const CPUPipelineOptions &options) {
  pm.addPass(mx::createConvertMXToLinalg());
  pm.addPass(mx::createMXLowerRelayouts());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  bufferization::OneShotBufferizePassOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(mx::createMXMemRefCopyToLinalg());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (!options.lowerToLLVM)
    return;

  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mx::registerPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "mx-cpu-pipeline",
      "Lower a tensor-level mx program to the LLVM dialect for the host CPU "
      "(the executable reference path of mx-run)",
      buildCPUPipeline);
}
