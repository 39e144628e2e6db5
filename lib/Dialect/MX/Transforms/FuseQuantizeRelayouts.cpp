//===- FuseQuantizeRelayouts.cpp - mx-fuse-quantize-relayouts -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Turns mx.quantize into mx.quantize_into, writing each result directly in
// the layout of the relayout chain (linalg.pack, then any expand_shape and
// transpose ops) that consumes it. The destination maps are composed
// from the chain's ops, so the layout's swizzle is never restated.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXFUSEQUANTIZERELAYOUTS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
/// A relayout chain that consumes a quantize result, as a destination.
struct FusedChain {
  /// The chain's last value, replaced by the new op's result.
  Value result;
  /// Logical index -> destination index.
  AffineMap map;
  /// The pack's padding value as a bit pattern.
  uint64_t padding = 0;
  /// The ops to erase, last first.
  SmallVector<Operation *> ops;
};
} // namespace

/// The map of a linalg.pack: outer tile indices `d floordiv T` (or `d` for
/// untiled dimensions) in `outer_dims_perm` order, then `d mod T`.
static FailureOr<AffineMap> getPackMap(linalg::PackOp pack) {
  MLIRContext *ctx = pack.getContext();
  int64_t rank = pack.getSourceRank();
  SmallVector<int64_t> tiles = pack.getStaticTiles();
  if (llvm::any_of(tiles, ShapedType::isDynamic))
    return failure();
  ArrayRef<int64_t> innerDims = pack.getInnerDimsPos();
  ArrayRef<int64_t> outerPerm = pack.getOuterDimsPerm();
  SmallVector<AffineExpr> results;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d = outerPerm.empty() ? i : outerPerm[i];
    AffineExpr expr = getAffineDimExpr(d, ctx);
    const auto *it = llvm::find(innerDims, d);
    if (it != innerDims.end())
      expr = expr.floorDiv(tiles[it - innerDims.begin()]);
    results.push_back(expr);
  }
  for (auto [d, tile] : llvm::zip_equal(innerDims, tiles))
    results.push_back(getAffineDimExpr(d, ctx) % tile);
  return AffineMap::get(rank, 0, results, ctx);
}

/// The map of a tensor.expand_shape: source index -> expanded index.
static FailureOr<AffineMap> getExpandMap(tensor::ExpandShapeOp expand) {
  MLIRContext *ctx = expand.getContext();
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  SmallVector<AffineExpr> results;
  for (auto [d, group] : llvm::enumerate(expand.getReassociationIndices())) {
    AffineExpr source = getAffineDimExpr(d, ctx);
    for (auto [i, e] : llvm::enumerate(group)) {
      int64_t inner = 1;
      for (int64_t f : ArrayRef<int64_t>(group).drop_front(i + 1)) {
        if (ShapedType::isDynamic(shape[f]))
          return failure();
        inner *= shape[f];
      }
      AffineExpr expr = source.floorDiv(inner);
      if (i != 0) {
        if (ShapedType::isDynamic(shape[e]))
          return failure();
        expr = expr % shape[e];
      }
      results.push_back(expr);
    }
  }
  return AffineMap::get(expand.getSrcType().getRank(), 0, results, ctx);
}

/// The only user of `value`, if it has exactly one.
static Operation *getOnlyUser(Value value) {
  return value.hasOneUse() ? *value.getUsers().begin() : nullptr;
}

/// \p expr with every `(x floordiv a) floordiv b` (a, b > 0) as
/// `x floordiv (a * b)`, so that a tile index split again (split-K's split
/// of the outer K tiles) reads as one division of the dimension, the form
/// mx.quantize_into's maps use for a destination's extent.
static AffineExpr mergeFloorDivs(AffineExpr expr) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return expr;
  AffineExpr lhs = mergeFloorDivs(binary.getLHS());
  AffineExpr rhs = mergeFloorDivs(binary.getRHS());
  switch (binary.getKind()) {
  case AffineExprKind::FloorDiv: {
    auto inner = dyn_cast<AffineBinaryOpExpr>(lhs);
    auto outerTile = dyn_cast<AffineConstantExpr>(rhs);
    if (inner && inner.getKind() == AffineExprKind::FloorDiv && outerTile &&
        outerTile.getValue() > 0)
      if (auto innerTile = dyn_cast<AffineConstantExpr>(inner.getRHS());
          innerTile && innerTile.getValue() > 0)
        return inner.getLHS().floorDiv(innerTile.getValue() *
                                       outerTile.getValue());
    return lhs.floorDiv(rhs);
  }
  case AffineExprKind::CeilDiv:
    return lhs.ceilDiv(rhs);
  case AffineExprKind::Mod:
    return lhs % rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  default:
    return lhs + rhs;
  }
}

/// Matches a pack and the expand_shape and transpose ops that follow it, in
/// any order (the data-tiled layout's, then those of split-K's K split),
/// starting at `pack`.
static std::optional<FusedChain> matchChain(linalg::PackOp pack) {
  FailureOr<AffineMap> map = getPackMap(pack);
  Value padding = pack.getPaddingValue();
  FloatAttr padAttr;
  if (failed(map) ||
      (padding && !matchPattern(padding, m_Constant(&padAttr))) ||
      !pack.hasPureTensorSemantics())
    return std::nullopt;
  FusedChain chain;
  chain.padding =
      padAttr ? padAttr.getValue().bitcastToAPInt().getZExtValue() : 0;
  chain.map = *map;
  chain.result = pack.getResult();
  chain.ops.push_back(pack);
  while (Operation *user = getOnlyUser(chain.result)) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user)) {
      FailureOr<AffineMap> expandMap = getExpandMap(expand);
      if (failed(expandMap) || !expand.getResultType().hasStaticShape())
        break;
      chain.map = expandMap->compose(chain.map);
      chain.result = expand.getResult();
      chain.ops.push_back(expand);
      continue;
    }
    auto transpose = dyn_cast<linalg::TransposeOp>(user);
    if (!transpose || transpose.getInput() != chain.result)
      break;
    chain.map = AffineMap::getPermutationMap(transpose.getPermutation(),
                                             transpose.getContext())
                    .compose(chain.map);
    chain.result = transpose.getResult()[0];
    chain.ops.push_back(transpose);
  }
  chain.map = simplifyAffineMap(chain.map);
  SmallVector<AffineExpr> results;
  for (AffineExpr expr : chain.map.getResults())
    results.push_back(mergeFloorDivs(expr));
  chain.map = AffineMap::get(chain.map.getNumDims(), 0, results,
                             chain.map.getContext());
  return chain;
}

namespace {
/// Destinations of a quantize result: the chains that consume it, then the
/// plain layout if anything else uses it.
struct Destinations {
  SmallVector<FusedChain> chains;
  bool plain = false;
};
} // namespace

/// The destinations of `result`, the elements (or, with `isScales`, the
/// scales) of a quantize.
static Destinations collectDestinations(Value result, bool isScales) {
  Destinations dests;
  for (Operation *user : result.getUsers()) {
    auto pack = dyn_cast<linalg::PackOp>(user);
    std::optional<FusedChain> chain;
    if (pack && pack.getSource() == result)
      chain = matchChain(pack);
    // Element padding must be the zero code: padded points quantize 0.
    // Dynamic tiled shapes stay with the separate relayout.
    if (chain && (isScales || chain->padding == 0) &&
        cast<RankedTensorType>(chain->result.getType()).hasStaticShape())
      dests.chains.push_back(std::move(*chain));
    else
      dests.plain = true;
  }
  return dests;
}

/// Replaces the uses of `original` (a result of a quantize, whose
/// destinations are `dests`) with the results of `fused` from `next` on,
/// and erases the chains that die.
static void replaceDestinations(RewriterBase &rewriter, Destinations &dests,
                                Value original, QuantizeIntoOp fused,
                                unsigned &next) {
  for (FusedChain &chain : dests.chains) {
    rewriter.replaceAllUsesWith(chain.result, fused.getResult(next++));
    for (Operation *dead : llvm::reverse(chain.ops))
      if (dead->use_empty())
        rewriter.eraseOp(dead);
  }
  if (dests.plain)
    rewriter.replaceAllUsesWith(original, fused.getResult(next++));
}

/// The mx.gather_rows ops of the elements and the scales of \p op when each
/// result is used only by one, gathering by the same ids and divisor (the
/// same rows of both), with ids defined before \p op; else null.
static std::pair<GatherRowsOp, GatherRowsOp> getRowGathers(QuantizeOp op) {
  auto elements = dyn_cast_or_null<GatherRowsOp>(getOnlyUser(op.getElements()));
  auto scales = dyn_cast_or_null<GatherRowsOp>(getOnlyUser(op.getScales()));
  if (!elements || !scales || elements.getIds() != scales.getIds() ||
      elements.getDivisor() != scales.getDivisor() ||
      elements.getSource() != op.getElements() ||
      scales.getSource() != op.getScales() || op.getAxis() != 1)
    return {};
  // The fused op is created at `op`: the ids must be available there.
  Operation *def = elements.getIds().getDefiningOp();
  if (def && (def->getBlock() != op->getBlock() || !def->isBeforeInBlock(op)))
    return {};
  return {elements, scales};
}

FailureOr<QuantizeIntoOp> mx::fuseQuantizeRelayouts(RewriterBase &b,
                                                    QuantizeOp op) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned rank = op.getInput().getType().getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);

  // Quantizing is per row, so gathered quantized rows are the quantized
  // gathered rows: the gathers' relayouts are written from the input rows.
  auto [gatherElements, gatherScales] = getRowGathers(op);
  Value ids = gatherElements ? gatherElements.getIds() : Value();
  Value elementsResult =
      gatherElements ? gatherElements.getResult() : op.getElements();
  Value scalesResult = gatherScales ? gatherScales.getResult() : op.getScales();
  Destinations elements = collectDestinations(elementsResult, false);
  Destinations scales = collectDestinations(scalesResult, true);
  // The logical sizes (one row per id when gathered).
  SmallVector<OpFoldResult> logicalSizes =
      tensor::getMixedSizes(b, loc, op.getInput());
  if (ids)
    logicalSizes[0] = tensor::getMixedSize(b, loc, ids, 0);

  SmallVector<Value> elementInits, scaleInits;
  SmallVector<Attribute> elementMaps, scaleMaps;
  SmallVector<int64_t> scalePadding;
  // A fresh destination at the quantize (the chain's own init is defined
  // after it).
  auto destFor = [&](FusedChain &chain) {
    auto type = cast<RankedTensorType>(chain.result.getType());
    return Value(tensor::EmptyOp::create(b, loc, type.getShape(),
                                         type.getElementType()));
  };
  for (FusedChain &chain : elements.chains) {
    elementInits.push_back(destFor(chain));
    elementMaps.push_back(AffineMapAttr::get(chain.map));
  }
  if (elements.plain) {
    elementInits.push_back(tensor::EmptyOp::create(
        b, loc, logicalSizes, op.getElements().getType().getElementType()));
    elementMaps.push_back(AffineMapAttr::get(identity));
  }
  for (FusedChain &chain : scales.chains) {
    scaleInits.push_back(destFor(chain));
    scaleMaps.push_back(AffineMapAttr::get(chain.map));
    scalePadding.push_back(int64_t(chain.padding));
  }
  if (scales.plain) {
    SmallVector<OpFoldResult> sizes(logicalSizes);
    AffineExpr d0 = b.getAffineDimExpr(0);
    sizes[op.getAxis()] = affine::makeComposedFoldedAffineApply(
        b, loc, d0.floorDiv(kBlockSize), {sizes[op.getAxis()]});
    scaleInits.push_back(tensor::EmptyOp::create(
        b, loc, sizes, op.getScales().getType().getElementType()));
    scaleMaps.push_back(AffineMapAttr::get(identity));
    // The rows of padding ids are those of mx.gather_rows (scale byte 0).
    scalePadding.push_back(ids ? 0 : 0x7F);
  }
  if (elementInits.empty() && scaleInits.empty())
    return QuantizeIntoOp();

  SmallVector<Type> resultTypes;
  for (Value init : llvm::concat<Value>(elementInits, scaleInits))
    resultTypes.push_back(init.getType());
  auto fused = QuantizeIntoOp::create(
      b, loc, resultTypes, op.getInput(), ids, elementInits, scaleInits,
      op.getAxisAttr(), op.getScaleAttr(), op.getRoundingAttr(),
      TypeAttr::get(op.getElements().getType().getElementType()),
      b.getArrayAttr(elementMaps), b.getArrayAttr(scaleMaps),
      b.getDenseI64ArrayAttr(scalePadding), /*in_consumer=*/UnitAttr(),
      ids ? gatherElements.getDivisorAttr() : IntegerAttr());

  unsigned next = 0;
  replaceDestinations(b, elements, elementsResult, fused, next);
  replaceDestinations(b, scales, scalesResult, fused, next);
  if (ids) {
    b.eraseOp(gatherElements);
    b.eraseOp(gatherScales);
  }
  b.eraseOp(op);
  return fused;
}

namespace {
struct FuseQuantizeRelayoutsPass
    : public mx::impl::MXFuseQuantizeRelayoutsBase<FuseQuantizeRelayoutsPass> {
  void runOnOperation() override {
    SmallVector<QuantizeOp> ops;
    getOperation()->walk([&](QuantizeOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (QuantizeOp op : ops)
      (void)fuseQuantizeRelayouts(rewriter, op);
  }
};
} // namespace
