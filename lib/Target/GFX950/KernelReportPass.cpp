//===- KernelReportPass.cpp - mx-gfx950-kernel-report ---------------------===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/KernelReport.h"
#include "mx/Target/GFX950/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950KERNELREPORT
#include "mx/Target/GFX950/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;

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
    bool found = false;
    WalkResult result = getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        if (object.getFormat() != gpu::CompilationTarget::Assembly) {
          binary.emitRemark()
              << "kernel report needs assembly "
                 "(gpu-module-to-binary{format=isa}); "
                 "skipping a "
              << gpu::stringifyCompilationTarget(object.getFormat())
              << " object";
          continue;
        }
        llvm::Expected<SmallVector<mx::gfx950::KernelStats>> kernels =
            mx::gfx950::analyzeAssembly(object.getObject().getValue());
        if (!kernels) {
          binary.emitError()
              << "cannot analyze the kernels of @" << binary.getName() << ": "
              << llvm::toString(kernels.takeError());
          return WalkResult::interrupt();
        }
        output->os() << "gpu.binary @" << binary.getName() << "\n";
        mx::gfx950::printReport(output->os(), *kernels);
        found = true;
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (!found)
      getOperation().emitRemark("no gpu.binary with gfx950 assembly to report");
    output->keep();
  }
};
} // namespace
