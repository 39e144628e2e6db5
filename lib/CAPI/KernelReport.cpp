//===- KernelReport.cpp - C API of the gfx950 kernel report ---------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx-c/KernelReport.h"

#include "mx/Target/GFX950/Codegen/KernelReport.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

MlirLogicalResult mxGFX950ForEachKernel(MlirOperation root,
                                        MxGFX950KernelStatsCallback callback,
                                        void *userData) {
  if (mlirOperationIsNull(root) || !callback)
    return mlirLogicalResultFailure();
  FailureOr<int64_t> analyzed = mx::gfx950::analyzeGPUBinaries(
      unwrap(root),
      [&](gpu::BinaryOp binary, ArrayRef<mx::gfx950::KernelStats> kernels) {
        for (const mx::gfx950::KernelStats &kernel : kernels) {
          MxGFX950KernelStats stats;
          stats.binary = wrap(binary.getName());
          stats.name = wrap(StringRef(kernel.name));
          stats.vgprs = kernel.vgprs;
          stats.agprs = kernel.agprs;
          stats.sgprs = kernel.sgprs;
          stats.ldsBytes = kernel.ldsBytes;
          stats.scratchBytes = kernel.scratchBytes;
          stats.vgprSpills = kernel.vgprSpills;
          stats.sgprSpills = kernel.sgprSpills;
          stats.maxWorkgroupSize = kernel.maxWorkgroupSize;
          stats.codeBytes = kernel.codeBytes;
          stats.wavesPerSIMD = kernel.wavesPerSIMD;
          stats.mfmas = kernel.total.getNumMFMAs();
          stats.mainLoopMFMAs = kernel.mainLoop.getNumMFMAs();
          stats.hasLoop = kernel.hasLoop;
          callback(&stats, userData);
        }
      });
  return wrap(LogicalResult(analyzed));
}

MlirLogicalResult mxGFX950PrintKernelReport(MlirOperation root,
                                            MlirStringCallback callback,
                                            void *userData) {
  if (mlirOperationIsNull(root) || !callback)
    return mlirLogicalResultFailure();
  detail::CallbackOstream stream(callback, userData);
  return wrap(mx::gfx950::printGPUBinariesReport(unwrap(root), stream));
}
