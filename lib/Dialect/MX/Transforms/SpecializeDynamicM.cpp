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
    for (ScaledContractionOp op : ops)
      if (failed(specialize(op)))
        return signalPassFailure();
  }

  LogicalResult specialize(ScaledContractionOp op) {
    LayoutResolverAttrInterface resolver = getTarget(op);
    if (!resolver)
      return success();
    SmallVector<int64_t> buckets = resolver.getDynamicMBuckets();
    if (buckets.empty())
      return success();
    SmallVector<AffineMap> maps =
        llvm::to_vector(op.getIndexingMaps().getAsValueRange<AffineMapAttr>());
    FailureOr<ScaledContractionDims> dims =
        inferScaledContractionDims(op, maps);
    if (failed(dims))
      return failure();
    if (dims->m.size() != 1 || dims->n.size() != 1)
      return success();
    unsigned mDim = dims->m[0];
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    for (auto [d, size] : llvm::enumerate(sizes))
      if (ShapedType::isDynamic(size) != (d == mDim))
        return success();
    // M at run time: the accumulator's dimension that M indexes.
    std::optional<unsigned> accDim =
        maps[2].getResultPosition(getAffineDimExpr(mDim, op.getContext()));
    if (!accDim)
      return success();

    // The layout of each bucket: the target's for M equal to its bound.
    SmallVector<Type> elementTypes = op.getElementTypes();
    SmallVector<TiledLayoutAttrInterface> layouts;
    for (int64_t bound : buckets) {
      SmallVector<int64_t> bucketSizes(sizes);
      bucketSizes[mDim] = bound;
      auto encoding =
          EncodingAttr::get(op.getContext(), OperandRole::lhs, elementTypes,
                            op.getIndexingMaps(), bucketSizes, nullptr);
      FailureOr<TiledLayoutAttrInterface> layout =
          resolver.resolveLayout(op, encoding, *dims);
      if (failed(layout))
        return failure();
      layouts.push_back(*layout);
    }

    // The versions take the chain of elementwise consumers of the result
    // along (a bias, an activation, a bf16 conversion): each version's
    // GEMM can then fuse them into its epilogue (mx-fuse-epilogues).
    // (The sizes of a result are those of its destination: tensor.dim users,
    // e.g. the shape of a consumer's init, read it from there instead.)
    auto forwardDims = [](Value result, Value destination) {
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
        if (auto dim = dyn_cast<tensor::DimOp>(use.getOwner())) {
          OpBuilder builder(dim);
          dim.replaceAllUsesWith(tensor::DimOp::create(builder, dim.getLoc(),
                                                       destination,
                                                       dim.getIndex())
                                     .getResult());
          dim.erase();
        }
    };
    forwardDims(op.getResult(), op.getAcc());
    SmallVector<Operation *> chain = {op};
    while (chain.back()->getResult(0).hasOneUse()) {
      auto generic = dyn_cast<linalg::GenericOp>(
          *chain.back()->getResult(0).getUsers().begin());
      if (!generic || generic.getNumResults() != 1 ||
          generic.getNumParallelLoops() != generic.getNumLoops())
        break;
      chain.push_back(generic);
      forwardDims(generic.getResult(0), generic.getDpsInits()[0]);
    }
    auto cloneChain = [&](OpBuilder &builder) {
      IRMapping mapping;
      for (Operation *link : chain)
        builder.clone(*link, mapping);
      return std::make_pair(mapping.lookup(op.getResult()),
                            mapping.lookup(chain.back()->getResult(0)));
    };

    OpBuilder b(chain.back());
    Location loc = op.getLoc();
    Value m = tensor::DimOp::create(b, loc, op.getAcc(), *accDim);
    Type resultType = chain.back()->getResult(0).getType();
    // if (M <= bound0) {version 0} else if (M <= bound1) {...} else {op}.
    std::function<Value(OpBuilder &, unsigned)> build =
        [&](OpBuilder &builder, unsigned i) -> Value {
      if (i == buckets.size())
        return cloneChain(builder).second;
      Value bound = arith::ConstantIndexOp::create(builder, loc, buckets[i]);
      Value inBucket = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ule, m, bound);
      auto ifOp = scf::IfOp::create(
          builder, loc, inBucket,
          [&](OpBuilder &thenBuilder, Location thenLoc) {
            auto [version, last] = cloneChain(thenBuilder);
            Operation *versionOp = version.getDefiningOp();
            versionOp->setAttr(MXDialect::kLayoutAttrName, layouts[i]);
            versionOp->setAttr(MXDialect::kMBoundAttrName,
                               thenBuilder.getI64IntegerAttr(buckets[i]));
            scf::YieldOp::create(thenBuilder, thenLoc, last);
          },
          [&](OpBuilder &elseBuilder, Location elseLoc) {
            scf::YieldOp::create(elseBuilder, elseLoc,
                                 build(elseBuilder, i + 1));
          });
      assert(ifOp.getResult(0).getType() == resultType &&
             "every version has the contraction's type");
      (void)resultType;
      return ifOp.getResult(0);
    };
    Value result = build(b, 0);
    chain.back()->getResult(0).replaceAllUsesWith(result);
    for (Operation *link : llvm::reverse(chain))
      link->erase();
    return success();
  }
};
} // namespace
