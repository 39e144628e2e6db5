//===- FuseColumnConsumers.cpp - mx-fuse-column-consumers -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A small elementwise linalg.generic that reads a GEMM's result only by
// columns (any rows of its own column) is marked to run in the GEMM's
// kernel, and given the GEMM's counters, one per N tile.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/TargetOptionPass.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXFUSECOLUMNCONSUMERS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
/// The generic that reads `result` directly or through expand_shape ops of
/// its rows (the column dimension kept last and alone), if every use is
/// such; the expand_shape ops are added to `views`.
linalg::GenericOp getColumnConsumer(Value result,
                                    SmallVectorImpl<Value> &views) {
  linalg::GenericOp consumer;
  auto take = [&](linalg::GenericOp generic) {
    if (consumer && consumer != generic)
      return false;
    consumer = generic;
    return true;
  };
  views.push_back(result);
  for (Operation *user : result.getUsers()) {
    if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
      if (!take(generic))
        return {};
      continue;
    }
    auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
    if (!expand || expand.getReassociationIndices().back().size() != 1)
      return {};
    views.push_back(expand.getResult());
    for (Operation *viewUser : expand.getResult().getUsers()) {
      auto generic = dyn_cast<linalg::GenericOp>(viewUser);
      if (!generic || !take(generic))
        return {};
    }
  }
  return consumer;
}

/// Whether `generic` reads the result (`views[0]`) other than elementwise:
/// through a view or at another map than the identity. An elementwise
/// consumer is an epilogue's (mx-fuse-epilogues) or stays a dispatch.
bool readsAcrossRows(linalg::GenericOp generic, ArrayRef<Value> views) {
  return llvm::any_of(generic.getDpsInputOperands(), [&](OpOperand *input) {
    if (input->get() == views.front())
      return !generic.getMatchingIndexingMap(input).isIdentity();
    return llvm::is_contained(views, input->get());
  });
}

/// The rows of the result each output row of `generic` reads, k, when they
/// are k consecutive rows: output row t reads rows t * k + j (j < k) and no
/// other, through one expand_shape of the rows into [T, k, N] at maps
/// (t, j, n) -> (t, c, n) with constant c, and nothing reads the result
/// directly; 0 otherwise. A routed GEMM then counts each output row's rows
/// and combines a row as soon as its k rows are stored.
int64_t getRowGroup(linalg::GenericOp generic, ArrayRef<Value> views) {
  if (views.size() != 2 || generic.getNumLoops() != 2)
    return 0;
  auto type = cast<RankedTensorType>(views[1].getType());
  if (type.getRank() != 3 || ShapedType::isDynamic(type.getDimSize(1)))
    return 0;
  MLIRContext *ctx = generic.getContext();
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (input->get() == views[0])
      return 0;
    if (input->get() != views[1])
      continue;
    AffineMap map = generic.getMatchingIndexingMap(input);
    auto c = dyn_cast<AffineConstantExpr>(map.getResult(1));
    if (map.getResult(0) != getAffineDimExpr(0, ctx) || !c ||
        map.getResult(2) != getAffineDimExpr(1, ctx))
      return 0;
  }
  return type.getDimSize(1);
}

/// The strip's output elements (the output's rows times the N tile's
/// columns) of `generic`, the consumer of `op`.
int64_t getStripElements(TiledScaledMMAOp op, linalg::GenericOp generic) {
  auto outType = cast<ShapedType>(generic.getDpsInits()[0].getType());
  int64_t tileN = op.getLayout().getInnerTileSizes(OperandRole::result)[1];
  return outType.getNumElements() / outType.getShape().back() *
         std::min<int64_t>(tileN, outType.getShape().back());
}

/// Whether the consumer is computed row by row (its routed GEMM's waves
/// count each output row's k rows; the wave completing a row computes it):
/// with a row group, when a strip has more than `maxStripElements`
/// outputs. Smaller strips are the strip's last wave's: one count and one
/// round of loads, fewer latencies.
bool useRowGroups(TiledScaledMMAOp op, linalg::GenericOp generic,
                  ArrayRef<Value> views, int64_t maxStripElements) {
  return op.getRowIds() && getRowGroup(generic, views) > 0 &&
         getStripElements(op, generic) > maxStripElements;
}

/// Why `generic` cannot run in `op`'s kernel as the column consumer of its
/// result (read through `views`), or "" if it can.
std::string whyNotFusable(TiledScaledMMAOp op, linalg::GenericOp generic,
                          ArrayRef<Value> views,
                          LayoutResolverAttrInterface target,
                          int64_t maxStripElements, DominanceInfo &dominance) {
  if (generic->hasAttr(MXDialect::kColumnConsumerAttrName))
    return "it is marked already";
  if (generic.getNumDpsInits() != 1 || generic.getNumResults() != 1)
    return "the consumer has more than one output";
  if (generic.getNumParallelLoops() != generic.getNumLoops())
    return "the consumer is not elementwise (it has reduction loops)";
  OpOperand &init = generic.getDpsInitsMutable()[0];
  if (!generic.getMatchingIndexingMap(&init).isIdentity())
    return "the consumer's output map is not the identity";
  if (!generic.getMatchingBlockArgument(&init).use_empty())
    return "the consumer reads its output's old values";
  // The kernel writes the output where the GEMM runs, before the ops
  // between the GEMM and the consumer: they must not see its buffer.
  if (!init.get().getDefiningOp<tensor::EmptyOp>() || !init.get().hasOneUse())
    return "the consumer's output is not a tensor.empty of its own";
  bool usesIndex = false;
  generic.getBody()->walk([&](linalg::IndexOp) { usesIndex = true; });
  if (usesIndex)
    return "the consumer uses linalg.index";
  auto outType = cast<RankedTensorType>(init.get().getType());
  auto accType = cast<ShapedType>(op.getAcc().getType());
  if (!outType.hasStaticShape() || !accType.hasStaticShape())
    return "the shapes are not static";
  if (outType.getShape().back() != accType.getShape().back())
    return "the consumer's columns are not the result's";
  unsigned last = generic.getNumLoops() - 1;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (!llvm::is_contained(views, input->get())) {
      if (!dominance.properlyDominates(input->get(), op))
        return "an input of the consumer is computed after the GEMM";
      continue;
    }
    // The result's column is the consumer's last loop; its rows do not
    // depend on that loop.
    if (map.getResult(map.getNumResults() - 1) !=
        getAffineDimExpr(last, generic.getContext()))
      return "the consumer reads the result at another column than its own";
    for (AffineExpr expr : map.getResults().drop_back())
      if (expr.isFunctionOfDim(last))
        return "the consumer's row of the result depends on its column";
  }
  int64_t stripElements = getStripElements(op, generic);
  // A routed GEMM whose output rows each read a group of k rows can combine
  // each output row by itself: no strip is one wave's (useRowGroups).
  bool byRow = useRowGroups(op, generic, views, maxStripElements);
  if (!byRow && stripElements > maxStripElements)
    return "a strip of N tiles has " + std::to_string(stripElements) +
           " output elements, more than max-strip-elements (" +
           std::to_string(maxStripElements) + ") for one wave";
  return whyTargetCannotCompute(target, *generic.getBody());
}

/// Replaces `generic` by a copy marked as the column consumer of `op`, with
/// `op`'s +0 counters as its last input.
void markColumnConsumer(RewriterBase &b, TiledScaledMMAOp op,
                        linalg::GenericOp generic, ArrayRef<Value> views,
                        int64_t maxStripElements) {
  OpBuilder::InsertionGuard guard(b);
  int64_t tileN = op.getLayout().getInnerTileSizes(OperandRole::result)[1];
  int64_t n = cast<ShapedType>(op.getAcc().getType()).getShape().back();
  int64_t tilesN = llvm::divideCeil(n, tileN);
  // Per strip, and with row groups, per output row and strip too.
  int64_t rowGroup = useRowGroups(op, generic, views, maxStripElements)
                         ? getRowGroup(generic, views)
                         : 0;
  int64_t rows =
      cast<ShapedType>(generic.getDpsInits()[0].getType()).getDimSize(0);
  int64_t numCounters = rowGroup ? tilesN * (1 + rows) : tilesN;
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{numCounters},
                                        b.getI32Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value counters = linalg::FillOp::create(b, loc, zero, empty).getResult(0);

  b.setInsertionPoint(generic);
  SmallVector<Value> inputs = generic.getDpsInputs();
  inputs.push_back(counters);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  MLIRContext *ctx = b.getContext();
  maps.insert(
      maps.begin() + generic.getNumDpsInputs(),
      AffineMap::get(generic.getNumLoops(), 0, getAffineConstantExpr(0, ctx)));
  auto marked = linalg::GenericOp::create(
      b, generic.getLoc(), generic.getResultTypes(), inputs,
      generic.getDpsInits(), maps, generic.getIteratorTypesArray());
  marked.getRegion().takeBody(generic.getRegion());
  marked.getBody()->insertArgument(generic.getNumDpsInputs(), b.getI32Type(),
                                   loc);
  marked->setAttr(MXDialect::kColumnConsumerAttrName,
                  rowGroup ? Attribute(b.getI64IntegerAttr(rowGroup))
                           : Attribute(b.getUnitAttr()));
  b.replaceOp(generic, marked.getResults());
}

struct FuseColumnConsumersPass
    : public TargetOptionPass<
          mx::impl::MXFuseColumnConsumersBase<FuseColumnConsumersPass>> {
  using TargetOptionPass::TargetOptionPass;

  void runOnOperation() override {
    SmallVector<TiledScaledMMAOp> ops;
    getOperation()->walk([&](TiledScaledMMAOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(getOperation());
    for (TiledScaledMMAOp op : ops) {
      if (op.getResults().size() != 1 || op.hasEpilogue() ||
          op->hasAttr(MXDialect::kSplitKAttrName) || !op.hasUserLayoutAcc() ||
          op.getNumBatchDims() != 0)
        continue;
      SmallVector<Value> views;
      linalg::GenericOp generic = getColumnConsumer(op.getResult(), views);
      if (!generic || !readsAcrossRows(generic, views))
        continue;
      std::string reason = whyNotFusable(op, generic, views, getTarget(op),
                                         maxStripElements, dominance);
      if (!reason.empty()) {
        op.emitRemark() << "the column consumer of the result stays a "
                           "separate dispatch: "
                        << reason;
        continue;
      }
      markColumnConsumer(rewriter, op, generic, views, maxStripElements);
    }
  }
};
} // namespace
