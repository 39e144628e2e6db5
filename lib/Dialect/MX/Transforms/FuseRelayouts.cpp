//===- FuseRelayouts.cpp - mx-fuse-relayouts ------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces each chain of relayout ops by one linalg.generic that maps every
// output index back through the chain and gathers from the chain's source.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXFUSERELAYOUTS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

/// The tensor a relayout op reads, or null if `op` is not a relayout op this
/// pass fuses.
static Value getRelayoutSource(Operation *op) {
  if (!op || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return {};
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<tensor::PadOp>([](auto pad) { return pad.getSource(); })
      .Case<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
          [](auto reshape) { return reshape.getSrc(); })
      .Case<linalg::TransposeOp>([](auto t) { return t.getInput(); })
      .Case<tensor::ExtractSliceOp>([](auto slice) -> Value {
        // Rank-reducing slices are not handled.
        if (slice.getSourceType().getRank() != slice.getResultType().getRank())
          return {};
        return slice.getSource();
      })
      .Case<tensor::InsertSliceOp>([](auto insert) -> Value {
        // Only into an empty tensor (what lowerPack emits when nothing is
        // padded): the elements outside the slice are undefined.
        if (!insert.getDest().template getDefiningOp<tensor::EmptyOp>() ||
            !llvm::all_of(insert.getMixedStrides(), [](OpFoldResult s) {
              return isConstantIntValue(s, 1);
            }))
          return {};
        return insert.getSource();
      })
      .Case<tensor::CastOp>([](auto cast) { return cast.getSource(); })
      .Case<mx::GatherRowTilesOp, mx::GatherRowsOp>(
          [](auto gather) { return gather.getSource(); })
      .Case<linalg::CopyOp>([](auto copy) { return copy.getInputs()[0]; })
      .Default([](Operation *) { return Value(); });
}

namespace {
/// One pad met on the way back: where the index is in bounds, and the value
/// outside.
struct PadGuard {
  Value inBounds;
  TypedAttr value;
};

/// Rewrites one chain (`chain.front()` produces the result, `chain.back()`
/// reads `source`).
class ChainFusion {
public:
  ChainFusion(ArrayRef<Operation *> chain, Value source)
      : chain(chain), source(source) {}

  /// Fails (leaving the IR unchanged) if a pad has a non-constant value.
  LogicalResult run(OpBuilder &b);

private:
  /// Maps indices of `op`'s result to indices of its source.
  SmallVector<Value> mapBack(OpBuilder &b, Location loc, Operation *op,
                             ArrayRef<Value> idx);
  /// mapBack through a pad: the source index clamped into the source, and
  /// a guard (in bounds, else the padding value).
  SmallVector<Value> mapBackPad(OpBuilder &b, Location loc, tensor::PadOp pad,
                                ArrayRef<Value> idx);
  /// mapBack through an insert_slice into an undefined destination: the
  /// slice's index clamped into the source.
  SmallVector<Value> mapBackInsertSlice(OpBuilder &b, Location loc,
                                        tensor::InsertSliceOp insert,
                                        ArrayRef<Value> idx);

  ArrayRef<Operation *> chain;
  Value source;
  /// Sizes of each pad's and collapse_shape's source, computed before the
  /// generic (dynamic ones as tensor.dim of chain values, which
  /// canonicalization resolves through the ops' shapes afterwards).
  DenseMap<Operation *, SmallVector<OpFoldResult>> sourceSizes;
  SmallVector<PadGuard> guards;
  /// Where the result is defined (a gather's undefined_empty_tiles): the
  /// generic keeps its (undefined) destination elsewhere, which the GPU
  /// dispatch turns into a store only where defined.
  SmallVector<Value> defined;
};
} // namespace

SmallVector<Value> ChainFusion::mapBackPad(OpBuilder &b, Location loc,
                                           tensor::PadOp pad,
                                           ArrayRef<Value> idx) {
  auto value = [&](OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(b, loc, ofr);
  };
  // In bounds where low <= idx < low + size; the source index is clamped
  // into [0, size) so the gather never leaves the source.
  SmallVector<Value> in;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value inBounds;
  for (auto [i, low, size] :
       llvm::enumerate(pad.getMixedLowPad(), sourceSizes.lookup(pad))) {
    Value shifted =
        isConstantIntValue(low, 0)
            ? idx[i]
            : arith::SubIOp::create(b, loc, idx[i], value(low)).getResult();
    Value sizeValue = value(size);
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        shifted, sizeValue);
    Value above =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, shifted, zero);
    Value ok = arith::AndIOp::create(b, loc, below, above);
    inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, ok) : ok;
    Value last = arith::SubIOp::create(b, loc, sizeValue, one);
    Value clamped = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, shifted, last), zero);
    in.push_back(clamped);
  }
  TypedAttr padValue;
  matchPattern(pad.getConstantPaddingValue(), m_Constant(&padValue));
  guards.push_back({inBounds, padValue});
  return in;
}

SmallVector<Value> ChainFusion::mapBackInsertSlice(OpBuilder &b, Location loc,
                                                   tensor::InsertSliceOp insert,
                                                   ArrayRef<Value> idx) {
  auto value = [&](OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(b, loc, ofr);
  };
  // Inside the slice: the source element; outside it the destination is
  // undefined, so any in-bounds source element will do (clamped).
  SmallVector<Value> in;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  llvm::SmallBitVector dropped = insert.getDroppedDims();
  for (auto [i, offset, size] :
       llvm::enumerate(insert.getMixedOffsets(), insert.getMixedSizes())) {
    if (dropped.test(i))
      continue;
    Value shifted =
        isConstantIntValue(offset, 0)
            ? idx[i]
            : arith::SubIOp::create(b, loc, idx[i], value(offset)).getResult();
    Value last = arith::SubIOp::create(b, loc, value(size), one);
    in.push_back(arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, shifted, last), zero));
  }
  return in;
}

SmallVector<Value> ChainFusion::mapBack(OpBuilder &b, Location loc,
                                        Operation *op, ArrayRef<Value> idx) {
  auto value = [&](OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(b, loc, ofr);
  };
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<Value> in(idx.size());
    for (auto [i, p] : llvm::enumerate(perm))
      in[p] = idx[i];
    return in;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    SmallVector<OpFoldResult> shape = expand.getMixedOutputShape();
    SmallVector<Value> in;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      if (group.size() == 1) {
        in.push_back(idx[group.front()]);
        continue;
      }
      SmallVector<Value> parts;
      SmallVector<OpFoldResult> basis;
      for (int64_t d : group) {
        parts.push_back(idx[d]);
        basis.push_back(shape[d]);
      }
      in.push_back(affine::AffineLinearizeIndexOp::create(b, loc, parts, basis,
                                                          /*disjoint=*/true));
    }
    return in;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    ArrayRef<OpFoldResult> shape = sourceSizes[collapse];
    SmallVector<Value> in;
    for (auto [g, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      if (group.size() == 1) {
        in.push_back(idx[g]);
        continue;
      }
      SmallVector<OpFoldResult> basis;
      for (int64_t d : group)
        basis.push_back(shape[d]);
      auto delinearize =
          affine::AffineDelinearizeIndexOp::create(b, loc, idx[g], basis);
      in.append(delinearize.getResults().begin(),
                delinearize.getResults().end());
    }
    return in;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    SmallVector<Value> in;
    for (auto [i, offset, stride] :
         llvm::enumerate(slice.getMixedOffsets(), slice.getMixedStrides())) {
      Value scaled = isConstantIntValue(stride, 1)
                         ? idx[i]
                         : arith::MulIOp::create(b, loc, idx[i], value(stride))
                               .getResult();
      in.push_back(isConstantIntValue(offset, 0)
                       ? scaled
                       : arith::AddIOp::create(b, loc, scaled, value(offset))
                             .getResult());
    }
    return in;
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return mapBackPad(b, loc, pad, idx);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return mapBackInsertSlice(b, loc, insert, idx);
  if (isa<mx::GatherRowTilesOp, mx::GatherRowsOp>(op)) {
    // The row the result row copies, or zero bits where it copies none.
    Value rows = value(sourceSizes[op][0]);
    auto [row, inBounds] =
        llvm::TypeSwitch<Operation *, std::pair<Value, Value>>(op)
            .Case<mx::GatherRowTilesOp, mx::GatherRowsOp>([&](auto gather) {
              return gather.buildSourceRow(b, loc, rows, idx[0]);
            })
            .Default([](Operation *) { return std::pair<Value, Value>(); });
    guards.push_back(
        {inBounds, cast<TypedAttr>(b.getZeroAttr(
                       getElementTypeOrSelf(getRelayoutSource(op))))});
    if (auto tiles = dyn_cast<mx::GatherRowTilesOp>(op))
      if (Value rowDefined = tiles.buildRowDefined(b, loc, idx[0]))
        defined.push_back(rowDefined);
    return {row, idx[1]};
  }
  // tensor.cast, linalg.copy: same indices.
  return SmallVector<Value>(idx);
}

LogicalResult ChainFusion::run(OpBuilder &b) {
  Operation *last = chain.front();
  Location loc = last->getLoc();
  auto resultType = cast<RankedTensorType>(last->getResult(0).getType());
  b.setInsertionPoint(last);
  for (Operation *op : chain) {
    auto pad = dyn_cast<tensor::PadOp>(op);
    TypedAttr padValue;
    if (pad &&
        (!pad.getConstantPaddingValue() ||
         !matchPattern(pad.getConstantPaddingValue(), m_Constant(&padValue))))
      return failure();
  }
  // The result's dynamic sizes from the last op's own shape computation.
  SmallVector<Value> dynamicSizes;
  if (!resultType.hasStaticShape()) {
    ReifiedRankedShapedTypeDims reified;
    if (failed(reifyResultShapes(b, last, reified)))
      return failure();
    for (auto [size, ofr] : llvm::zip_equal(resultType.getShape(), reified[0]))
      if (ShapedType::isDynamic(size))
        dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, ofr));
  }
  for (Operation *op : chain) {
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      sourceSizes[op] = tensor::getMixedSizes(b, loc, collapse.getSrc());
    if (auto pad = dyn_cast<tensor::PadOp>(op))
      sourceSizes[op] = tensor::getMixedSizes(b, loc, pad.getSource());
    if (isa<mx::GatherRowTilesOp, mx::GatherRowsOp>(op))
      sourceSizes[op] = tensor::getMixedSizes(b, loc, getRelayoutSource(op));
  }
  Value init = tensor::EmptyOp::create(b, loc, resultType, dynamicSizes);
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d)
          idx.push_back(linalg::IndexOp::create(nb, nloc, d));
        for (Operation *op : chain)
          idx = mapBack(nb, nloc, op, idx);
        Value result = tensor::ExtractOp::create(nb, nloc, source, idx);
        // The pad nearest the source first: outer pads win.
        for (const PadGuard &guard : llvm::reverse(guards)) {
          Value padValue = arith::ConstantOp::create(nb, nloc, guard.value);
          result = arith::SelectOp::create(nb, nloc, guard.inBounds, result,
                                           padValue);
        }
        // Elsewhere the (undefined) destination: nothing is written there.
        if (!defined.empty()) {
          Value all = defined.front();
          for (Value rowDefined : ArrayRef<Value>(defined).drop_front())
            all = arith::AndIOp::create(nb, nloc, all, rowDefined);
          result = arith::SelectOp::create(nb, nloc, all, result, args[0]);
        }
        linalg::YieldOp::create(nb, nloc, result);
      });
  last->getResult(0).replaceAllUsesWith(generic.getResult(0));
  return success();
}

/// The chain of relayout ops that ends at `end`, last first, and its
/// source.
static std::pair<SmallVector<Operation *>, Value> collectChain(Operation *end) {
  SmallVector<Operation *> chain;
  Value source;
  for (Operation *op = end; op;) {
    chain.push_back(op);
    source = getRelayoutSource(op);
    Operation *producer = source.getDefiningOp();
    op = getRelayoutSource(producer) ? producer : nullptr;
  }
  return {std::move(chain), source};
}

LogicalResult mx::fuseRelayouts(RewriterBase &rewriter, Operation *root) {
  // Chain ends: relayout ops with a user that is not a relayout op. A
  // tensor.dim (a dynamic size) reads no data: it is resolved through the
  // ops' shapes below.
  SmallVector<Operation *> ends;
  root->walk([&](Operation *op) {
    if (!getRelayoutSource(op))
      return;
    if (llvm::any_of(op->getUsers(), [](Operation *user) {
          return !getRelayoutSource(user) && !isa<tensor::DimOp>(user);
        }))
      ends.push_back(op);
  });
  OpBuilder::InsertionGuard guard(rewriter);
  for (Operation *end : ends) {
    auto [chain, source] = collectChain(end);
    // (A gather alone is no view: it becomes a generic too.)
    if (chain.size() < 2 &&
        !isa<mx::GatherRowTilesOp, mx::GatherRowsOp>(chain.front()))
      continue;
    (void)ChainFusion(chain, source).run(rewriter);
  }
  // The sizes of dynamic intermediates in terms of the chains' sources,
  // so that the replaced chains die.
  RewritePatternSet patterns(root->getContext());
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  return applyPatternsGreedily(root, std::move(patterns));
}

namespace {
struct FuseRelayoutsPass
    : public mx::impl::MXFuseRelayoutsBase<FuseRelayoutsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(mx::fuseRelayouts(rewriter, getOperation())))
      return signalPassFailure();
  }
};
} // namespace
