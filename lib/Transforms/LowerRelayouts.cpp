//===- LowerRelayouts.cpp - mx-lower-relayouts ----------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Transforms/Passes.h"
#include "mx/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXLOWERRELAYOUTS
#include "mx/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

namespace {
/// Lowers a linalg.pack (linalg::lowerPack).
struct LowerPack : public OpRewritePattern<linalg::PackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::PackOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(linalg::lowerPack(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot lower this pack");
    return success();
  }
};

/// Lowers a linalg.unpack (linalg::lowerUnPack).
struct LowerUnPack : public OpRewritePattern<linalg::UnPackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::UnPackOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(linalg::lowerUnPack(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot lower this unpack");
    return success();
  }
};

} // namespace

void mx::populateLowerRelayoutsPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerPack, LowerUnPack>(patterns.getContext());
}

namespace {
struct LowerRelayoutsPass
    : public mx::impl::MXLowerRelayoutsBase<LowerRelayoutsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mx::populateLowerRelayoutsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation()->walk([](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op)) {
        op->emitOpError("could not be lowered by mx-lower-relayouts");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
