//===- SplitEmptyTensors.cpp - mx-split-empty-tensors ---------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Transforms/Passes.h"
#include "mx/Transforms/Transforms.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXSPLITEMPTYTENSORS
#include "mx/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

void mx::splitEmptyTensors(Operation *root) {
  SmallVector<tensor::EmptyOp> empties;
  root->walk([&](tensor::EmptyOp op) { empties.push_back(op); });
  OpBuilder b(root->getContext());
  for (tensor::EmptyOp op : empties) {
    // The uses by ops of the empty's own block, in program order: every
    // one but the first gets a clone, next to the original (where its
    // dynamic sizes are defined). Uses in nested regions keep it (e.g. the
    // exclusive branches of a scf.if, which may share one buffer).
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getUses())
      if (use.getOwner()->getBlock() == op->getBlock())
        uses.push_back(&use);
    if (uses.size() < 2)
      continue;
    llvm::sort(uses, [](OpOperand *x, OpOperand *y) {
      return x->getOwner()->isBeforeInBlock(y->getOwner());
    });
    for (OpOperand *use : llvm::drop_begin(uses)) {
      b.setInsertionPointAfter(op);
      use->set(b.clone(*op)->getResult(0));
    }
  }
}

namespace {
struct SplitEmptyTensorsPass
    : public mx::impl::MXSplitEmptyTensorsBase<SplitEmptyTensorsPass> {
  void runOnOperation() override { mx::splitEmptyTensors(getOperation()); }
};
} // namespace
