//===- KernelReportPass.cpp - mx-gfx950-kernel-report ---------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/Codegen/KernelReport.h"
#include "mx/Target/GFX950/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950KERNELREPORT
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;

FailureOr<int64_t> mx::gfx950::analyzeGPUBinaries(
    Operation *root,
    function_ref<void(gpu::BinaryOp, ArrayRef<KernelStats>)> fn) {
  int64_t analyzed = 0;
  WalkResult result = root->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != gpu::CompilationTarget::Assembly) {
        // Without the op attached: a remark on the op would print it, and a
        // binary's object is the whole code object.
        emitRemark(binary.getLoc())
            << "kernel report of @" << binary.getName()
            << " skipped: it needs assembly (mx-gfx950-pipeline output=isa, "
               "or gpu-module-to-binary{format=isa}), this object is "
            << gpu::stringifyCompilationTarget(object.getFormat());
        continue;
      }
      llvm::Expected<SmallVector<KernelStats, 1>> kernels =
          analyzeAssembly(object.getObject().getValue());
      if (!kernels) {
        binary.emitError() << "cannot analyze the kernels of @"
                           << binary.getName() << ": "
                           << llvm::toString(kernels.takeError());
        return WalkResult::interrupt();
      }
      fn(binary, *kernels);
      ++analyzed;
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return analyzed;
}

LogicalResult mx::gfx950::printGPUBinariesReport(Operation *root,
                                                 llvm::raw_ostream &os) {
  FailureOr<int64_t> analyzed = analyzeGPUBinaries(
      root, [&](gpu::BinaryOp binary, ArrayRef<KernelStats> kernels) {
        os << "gpu.binary @" << binary.getName() << "\n";
        printReport(os, kernels);
      });
  if (failed(analyzed))
    return failure();
  if (*analyzed == 0)
    emitRemark(root->getLoc(), "no gpu.binary with gfx950 assembly to report");
  return success();
}

namespace {
struct KernelReportPass
    : public mx::gfx950::impl::MXGFX950KernelReportBase<KernelReportPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> output =
        openOutputFile(outputFile, &error);
    if (!output) {
      emitError(getOperation().getLoc()) << error;
      return signalPassFailure();
    }
    if (failed(
            mx::gfx950::printGPUBinariesReport(getOperation(), output->os())))
      return signalPassFailure();
    output->keep();
  }
};
} // namespace
