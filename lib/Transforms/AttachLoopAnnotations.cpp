//===- AttachLoopAnnotations.cpp - mx-attach-loop-annotations -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXATTACHLOOPANNOTATIONS
#include "mx/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

/// The discardable attribute scf-to-cf puts on a loop's back edge.
static constexpr StringLiteral kLoopAnnotation = "llvm.loop_annotation";

namespace {
struct AttachLoopAnnotationsPass
    : public mx::impl::MXAttachLoopAnnotationsBase<AttachLoopAnnotationsPass> {
  void runOnOperation() override {
    // Moves `branch`'s discardable annotation into its property (`set`),
    // unless it has one already.
    auto attach = [](Operation *branch, LLVM::LoopAnnotationAttr current,
                     auto set) -> LogicalResult {
      Attribute attr = branch->getDiscardableAttr(kLoopAnnotation);
      if (!attr)
        return success();
      auto annotation = dyn_cast<LLVM::LoopAnnotationAttr>(attr);
      if (!annotation)
        return branch->emitOpError()
               << "has an " << kLoopAnnotation
               << " attribute that is not a #llvm.loop_annotation: " << attr;
      branch->removeDiscardableAttr(kLoopAnnotation);
      if (!current)
        set(annotation);
      return success();
    };
    WalkResult result = getOperation()->walk([&](Operation *op) {
      LogicalResult attached = success();
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        attached = attach(
            op, br.getLoopAnnotationAttr(),
            [&](LLVM::LoopAnnotationAttr a) { br.setLoopAnnotationAttr(a); });
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        attached = attach(op, condBr.getLoopAnnotationAttr(),
                          [&](LLVM::LoopAnnotationAttr a) {
                            condBr.setLoopAnnotationAttr(a);
                          });
      return failed(attached) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
