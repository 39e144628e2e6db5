//===- SpecializeDynamicM.cpp - mx-specialize-dynamic-m -------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A contraction with a dynamic M becomes one version per M bucket of its
// target (LayoutResolverAttrInterface::getDynamicMBuckets), each with the
// layout resolved for the bucket's bound, selected at run time by scf.if.
// The pass never names a target.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/TargetOptionPass.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXSPECIALIZEDYNAMICM
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

/// The layout of each bucket of `buckets` for `op` (of loop sizes `sizes`,
/// M the loop `mDim`): `target`'s for M equal to the bucket's bound.
static FailureOr<SmallVector<TiledLayoutAttrInterface>>
resolveBucketLayouts(ScaledContractionOp op, LayoutResolverAttrInterface target,
                     const ScaledContractionDims &dims, ArrayRef<int64_t> sizes,
                     ArrayRef<int64_t> buckets) {
  unsigned mDim = dims.m[0];
  SmallVector<Type> elementTypes = op.getElementTypes();
  SmallVector<TiledLayoutAttrInterface> layouts;
  for (int64_t bound : buckets) {
    SmallVector<int64_t> bucketSizes(sizes);
    bucketSizes[mDim] = bound;
    auto encoding =
        EncodingAttr::get(op.getContext(), OperandRole::lhs, elementTypes,
                          op.getIndexingMaps(), bucketSizes, nullptr);
    FailureOr<TiledLayoutAttrInterface> layout =
        target.resolveLayout(op, encoding, dims);
    if (failed(layout))
      return failure();
    layouts.push_back(*layout);
  }
  return layouts;
}

/// Makes the tensor.dim users of `result` read the sizes of `destination`
/// (those of a DPS op's result) instead.
static void forwardDims(RewriterBase &rewriter, Value result,
                        Value destination) {
  for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
    if (auto dim = dyn_cast<tensor::DimOp>(use.getOwner())) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(dim);
      rewriter.replaceOpWithNewOp<tensor::DimOp>(dim, destination,
                                                 dim.getIndex());
    }
}

/// `op` and the chain of elementwise linalg.generic consumers of its result
/// (a bias, an activation, a bf16 conversion) that a version takes along,
/// so that each version's GEMM can fuse them into its epilogue
/// (mx-fuse-epilogues). The tensor.dim users of the chain's results read
/// their destinations instead.
static SmallVector<Operation *> collectVersionedChain(RewriterBase &rewriter,
                                                      ScaledContractionOp op) {
  forwardDims(rewriter, op.getResult(), op.getAcc());
  SmallVector<Operation *> chain = {op};
  while (chain.back()->getResult(0).hasOneUse()) {
    auto generic = dyn_cast<linalg::GenericOp>(
        *chain.back()->getResult(0).getUsers().begin());
    if (!generic || generic.getNumResults() != 1 ||
        generic.getNumParallelLoops() != generic.getNumLoops())
      break;
    chain.push_back(generic);
    forwardDims(rewriter, generic.getResult(0), generic.getDpsInits()[0]);
  }
  return chain;
}

/// Builds `if (M <= bound0) {version 0} else if (M <= bound1) {...} else
/// {chain}` at the rewriter's insertion point, each version a copy of
/// `chain` whose contraction pins the layout of its bucket. Returns the
/// value of the chain's last result.
static Value buildVersions(RewriterBase &rewriter, Location loc,
                           ArrayRef<Operation *> chain, Value m,
                           ArrayRef<int64_t> buckets,
                           ArrayRef<TiledLayoutAttrInterface> layouts) {
  Value contraction = chain.front()->getResult(0);
  Value last = chain.back()->getResult(0);
  auto cloneChain = [&](OpBuilder &builder) {
    IRMapping mapping;
    for (Operation *link : chain)
      builder.clone(*link, mapping);
    return std::make_pair(mapping.lookup(contraction), mapping.lookup(last));
  };
  std::function<Value(OpBuilder &, unsigned)> build = [&](OpBuilder &builder,
                                                          unsigned i) -> Value {
    if (i == buckets.size())
      return cloneChain(builder).second;
    Value bound = arith::ConstantIndexOp::create(builder, loc, buckets[i]);
    Value inBucket = arith::CmpIOp::create(builder, loc,
                                           arith::CmpIPredicate::ule, m, bound);
    auto ifOp = scf::IfOp::create(
        builder, loc, inBucket,
        [&](OpBuilder &thenBuilder, Location thenLoc) {
          auto [version, versionLast] = cloneChain(thenBuilder);
          Operation *versionOp = version.getDefiningOp();
          versionOp->setAttr(MXDialect::kLayoutAttrName, layouts[i]);
          versionOp->setAttr(MXDialect::kMBoundAttrName,
                             thenBuilder.getI64IntegerAttr(buckets[i]));
          scf::YieldOp::create(thenBuilder, thenLoc, versionLast);
        },
        [&](OpBuilder &elseBuilder, Location elseLoc) {
          scf::YieldOp::create(elseBuilder, elseLoc, build(elseBuilder, i + 1));
        });
    assert(ifOp.getResult(0).getType() == last.getType() &&
           "every version has the contraction's type");
    return ifOp.getResult(0);
  };
  return build(rewriter, 0);
}

FailureOr<Value> mx::specializeDynamicM(RewriterBase &rewriter,
                                        ScaledContractionOp op,
                                        LayoutResolverAttrInterface target) {
  if (!target)
    return Value();
  SmallVector<int64_t> buckets = target.getDynamicMBuckets();
  if (buckets.empty())
    return Value();
  SmallVector<AffineMap> maps =
      llvm::to_vector(op.getIndexingMaps().getAsValueRange<AffineMapAttr>());
  FailureOr<ScaledContractionDims> dims = inferScaledContractionDims(op, maps);
  if (failed(dims))
    return failure();
  if (dims->m.size() != 1 || dims->n.size() != 1)
    return Value();
  unsigned mDim = dims->m[0];
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  for (auto [d, size] : llvm::enumerate(sizes))
    if (ShapedType::isDynamic(size) != (d == mDim))
      return Value();
  // M at run time: the accumulator's dimension that M indexes.
  std::optional<unsigned> accDim =
      maps[2].getResultPosition(getAffineDimExpr(mDim, op.getContext()));
  if (!accDim)
    return Value();

  FailureOr<SmallVector<TiledLayoutAttrInterface>> layouts =
      resolveBucketLayouts(op, target, *dims, sizes, buckets);
  if (failed(layouts))
    return failure();

  SmallVector<Operation *> chain = collectVersionedChain(rewriter, op);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(chain.back());
  Location loc = op.getLoc();
  Value m = tensor::DimOp::create(rewriter, loc, op.getAcc(), *accDim);
  Value result = buildVersions(rewriter, loc, chain, m, buckets, *layouts);
  rewriter.replaceAllUsesWith(chain.back()->getResult(0), result);
  for (Operation *link : llvm::reverse(chain))
    rewriter.eraseOp(link);
  return result;
}

namespace {
struct SpecializeDynamicMPass
    : public TargetOptionPass<
          mx::impl::MXSpecializeDynamicMBase<SpecializeDynamicMPass>> {
  using TargetOptionPass::TargetOptionPass;

  void runOnOperation() override {
    SmallVector<ScaledContractionOp> ops;
    getOperation()->walk([&](ScaledContractionOp op) {
      if (!op.hasEncodedOperands() &&
          !op->hasAttr(MXDialect::kLayoutAttrName) &&
          !op->hasAttr(MXDialect::kMBoundAttrName))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (ScaledContractionOp op : ops)
      if (failed(specializeDynamicM(rewriter, op, getTarget(op))))
        return signalPassFailure();
  }
};
} // namespace
