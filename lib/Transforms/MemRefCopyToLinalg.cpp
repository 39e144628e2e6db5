//===- MemRefCopyToLinalg.cpp - mx-memref-copy-to-linalg ------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Transforms/Passes.h"
#include "mx/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXMEMREFCOPYTOLINALG
#include "mx/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

namespace {
/// memref.copy -> linalg.copy.
struct CopyToLinalg : public OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

} // namespace

void mx::populateMemRefCopyToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<CopyToLinalg>(patterns.getContext());
}

namespace {
struct MemRefCopyToLinalgPass
    : public mx::impl::MXMemRefCopyToLinalgBase<MemRefCopyToLinalgPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mx::populateMemRefCopyToLinalgPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
