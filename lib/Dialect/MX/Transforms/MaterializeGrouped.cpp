//===- MaterializeGrouped.cpp - MoE contractions to tiled MMAs ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The mx-materialize-encodings rewrites of mx.grouped_scaled_contraction and
// mx.routed_scaled_contraction: each becomes one mx.tiled_scaled_mma over
// every expert, whose M tiles are gathered rows of one expert each, named by
// a tile table (`tile_groups`) built in IR, or for the routed form by the
// experts of the sorted blocks themselves.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Relayout.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mx;

/// A tile table (`mx.tiled_scaled_mma`'s `tile_groups`, `[tiles, 3]` of
/// i32) whose row `mo` is `fields(mo)`: (group, first row, row count), as
/// index values.
static Value buildTileTable(
    OpBuilder &b, Location loc, OpFoldResult tiles,
    function_ref<std::array<Value, 3>(OpBuilder &, Location, Value)> fields) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  auto type = RankedTensorType::get(
      {getConstantIntValue(tiles).value_or(ShapedType::kDynamic), 3}, i32);
  SmallVector<Value> dynamicSizes;
  if (type.isDynamicDim(0))
    dynamicSizes.push_back(cast<Value>(tiles));
  Value init = tensor::EmptyOp::create(b, loc, type, dynamicSizes);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{identity}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        Value mo = linalg::IndexOp::create(nb, nloc, 0);
        Value field = linalg::IndexOp::create(nb, nloc, 1);
        std::array<Value, 3> values = fields(nb, nloc, mo);
        Value zero = arith::ConstantIndexOp::create(nb, nloc, 0);
        Value one = arith::ConstantIndexOp::create(nb, nloc, 1);
        Value isGroup = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::eq, field, zero);
        Value isFirst = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::eq, field, one);
        Value value = arith::SelectOp::create(
            nb, nloc, isGroup, values[0],
            arith::SelectOp::create(nb, nloc, isFirst, values[1], values[2]));
        linalg::YieldOp::create(
            nb, nloc,
            arith::IndexCastOp::create(nb, nloc, i32, value).getResult());
      });
  return generic.getResult(0);
}

/// The tile table of a grouped contraction: tile `mo` of expert `e` holds
/// rows `f .. f + c - 1`. Experts get ceil(rows / tileRows) consecutive
/// tiles in expert order; the tiles past the last expert's hold no row, or
/// with `fillers` name the rows outside every expert (before the first
/// one's, then after the last one's) in tiles of the group E, so that every
/// row of the result is some tile's (mx.tiled_scaled_mma's
/// zero_empty_tiles). Offsets are clamped into [previous end, T] first, so
/// that inconsistent offsets can never make a tile name rows outside [0, T)
/// or rows of two experts.
static Value buildGroupedTileTable(OpBuilder &b, Location loc, Value offsets,
                                   Value rows, Value experts, Value tiles,
                                   int64_t tileRows, bool fillers) {
  OpFoldResult size = tiles;
  if (std::optional<int64_t> constant = getConstantIntValue(tiles))
    size = b.getIndexAttr(*constant);
  return buildTileTable(
      b, loc, size, [&](OpBuilder &nb, Location nloc, Value mo) {
        auto index = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, nloc, v);
        };
        Value zero = index(0), one = index(1), tm = index(tileRows);
        auto offset = [&](OpBuilder &lb, Value e) -> Value {
          Value v = tensor::ExtractOp::create(lb, nloc, offsets, e);
          if (!v.getType().isIndex())
            v = arith::IndexCastOp::create(lb, nloc, lb.getIndexType(), v);
          return v;
        };
        // Carried: tiles before expert e, rows before it (the previous end),
        // and the (group, first row, count) found so far.
        auto loop = scf::ForOp::create(
            nb, nloc, zero, experts, one,
            ValueRange{zero, zero, zero, zero, zero},
            [&](OpBuilder &lb, Location lloc, Value e, ValueRange carried) {
              Value cum = carried[0], prevEnd = carried[1];
              auto clamp = [&](Value v, Value lo) -> Value {
                return arith::MaxSIOp::create(
                    lb, lloc, arith::MinSIOp::create(lb, lloc, v, rows), lo);
              };
              Value start = clamp(offset(lb, e), prevEnd);
              Value end = clamp(
                  offset(lb, arith::AddIOp::create(lb, lloc, e, one)), start);
              Value count = arith::SubIOp::create(lb, lloc, end, start);
              Value expertTiles =
                  arith::CeilDivUIOp::create(lb, lloc, count, tm);
              Value next = arith::AddIOp::create(lb, lloc, cum, expertTiles);
              Value hit = arith::AndIOp::create(
                  lb, lloc,
                  arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::ule,
                                        cum, mo),
                  arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::ult, mo,
                                        next));
              // Clamped to this expert's tiles so that misses stay in range.
              Value local = arith::MulIOp::create(
                  lb, lloc,
                  arith::SubIOp::create(
                      lb, lloc, arith::MaxUIOp::create(lb, lloc, mo, cum), cum),
                  tm);
              Value first = arith::MinUIOp::create(
                  lb, lloc, arith::AddIOp::create(lb, lloc, start, local), end);
              Value rowsIn = arith::MinUIOp::create(
                  lb, lloc, tm, arith::SubIOp::create(lb, lloc, end, first));
              scf::YieldOp::create(
                  lb, lloc,
                  ValueRange{
                      next, end,
                      arith::SelectOp::create(lb, lloc, hit, e, carried[2]),
                      arith::SelectOp::create(lb, lloc, hit, first, carried[3]),
                      arith::SelectOp::create(lb, lloc, hit, rowsIn,
                                              carried[4])});
            });
        std::array<Value, 3> fields = {loop.getResult(2), loop.getResult(3),
                                       loop.getResult(4)};
        if (!fillers)
          return fields;
        // Past the experts' tiles: the rows before the first expert's
        // (clamped like the offsets), then the rows after the last one's.
        Value used = loop.getResult(0);
        Value named = nb.createOrFold<arith::MaxSIOp>(
            nloc,
            arith::MinSIOp::create(nb, nloc, offset(nb, zero), rows)
                .getResult(),
            zero);
        Value namedEnd =
            arith::MaxUIOp::create(nb, nloc, loop.getResult(1), named);
        Value before = arith::CeilDivUIOp::create(nb, nloc, named, tm);
        Value f = arith::SubIOp::create(
            nb, nloc, arith::MaxUIOp::create(nb, nloc, mo, used), used);
        Value inBefore = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::ult, f, before);
        Value g = arith::SubIOp::create(
            nb, nloc, arith::MaxUIOp::create(nb, nloc, f, before), before);
        Value first = arith::SelectOp::create(
            nb, nloc, inBefore, arith::MulIOp::create(nb, nloc, f, tm),
            arith::MinUIOp::create(
                nb, nloc,
                arith::AddIOp::create(nb, nloc, namedEnd,
                                      arith::MulIOp::create(nb, nloc, g, tm)),
                rows));
        Value end = arith::SelectOp::create(nb, nloc, inBefore, named, rows);
        Value count = arith::MinUIOp::create(
            nb, nloc, tm,
            arith::SubIOp::create(
                nb, nloc, arith::MaxUIOp::create(nb, nloc, end, first), first));
        Value filler = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::uge, mo, used);
        return std::array<Value, 3>{
            arith::SelectOp::create(nb, nloc, filler, experts, fields[0]),
            arith::SelectOp::create(nb, nloc, filler, first, fields[1]),
            arith::SelectOp::create(nb, nloc, filler, count, fields[2])};
      });
}

/// The layout of a grouped or routed contraction (`op`, whose `mx.layout`
/// pins it): `groups` contractions of `mHint` rows on average, the batch
/// of one launch, resolved by `target` unless pinned.
static FailureOr<TiledLayoutAttrInterface>
resolveGroupedLayout(Operation *op, Value lhs, Value rhs, Value lhsScales,
                     Value acc, int64_t groups, int64_t mHint,
                     LayoutResolverAttrInterface target) {
  MLIRContext *ctx = op->getContext();
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  Attribute pinned = op->getAttr(MXDialect::kLayoutAttrName);
  if (pinned && !isa<TiledLayoutAttrInterface>(pinned))
    return op->emitOpError()
           << "'" << MXDialect::kLayoutAttrName
           << "' must be a data-tiled layout (TiledLayoutAttrInterface), got "
           << pinned;
  AffineExpr g, m, n, k;
  bindDims(ctx, g, m, n, k);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {g, m, k}, ctx),
                                 AffineMap::get(4, 0, {g, n, k}, ctx),
                                 AffineMap::get(4, 0, {g, m, n}, ctx)};
  Type scaleType = getElementTypeOrSelf(lhsScales.getType());
  SmallVector<Type> elementTypes = {
      lhsType.getElementType(), rhsType.getElementType(), scaleType, scaleType,
      getElementTypeOrSelf(acc.getType())};
  auto encoding = EncodingAttr::get(
      ctx, OperandRole::lhs, elementTypes,
      OpBuilder(ctx).getAffineMapArrayAttr(maps),
      {groups, mHint, rhsType.getDimSize(1), lhsType.getDimSize(1)}, pinned);
  return resolveEncodingLayout(op, encoding, target);
}

/// The tiled contraction of a grouped or routed contraction: `lhs` and
/// `lhsScales` already gathered into the tiles' rows, the experts' weights
/// tiled with the experts as a leading dimension (at compile time when
/// constant), the accumulator in the user's layout.
static Value buildTiledGroups(OpBuilder &b, Location loc,
                              TiledLayoutAttrInterface layout, Value lhs,
                              Value rhs, Value lhsScales, Value rhsScales,
                              Value acc, Value table, Value rowIds,
                              bool zeroEmptyTiles = false) {
  auto tiled = [&](Value plain, unsigned rank, OperandRole role) {
    return packAndSwizzle(
        b, loc, plain,
        getCanonicalRelayoutInfo(
            rank, role, getElementTypeOrSelf(plain.getType()), layout));
  };
  // (One statement each: the IR's order does not depend on the order in
  // which a compiler evaluates arguments.)
  Value tiledLhs = tiled(lhs, 2, OperandRole::lhs);
  Value tiledLhsScales = tiled(lhsScales, 2, OperandRole::lhs_scales);
  Value tiledRhs = tiled(rhs, 3, OperandRole::rhs);
  Value tiledRhsScales = tiled(rhsScales, 3, OperandRole::rhs_scales);
  auto mma = TiledScaledMMAOp::create(
      b, loc, TypeRange{acc.getType()}, tiledLhs, tiledRhs, tiledLhsScales,
      tiledRhsScales, acc, table, rowIds, layout,
      /*zero_acc=*/zeroEmptyTiles, zeroEmptyTiles, ValueRange(), ArrayAttr(),
      /*epilogueCount=*/0);
  return mma.getResult();
}

FailureOr<Value>
mx::materializeGroupedContraction(OpBuilder &b, GroupedScaledContractionOp op,
                                  LayoutResolverAttrInterface target) {
  Location loc = op.getLoc();
  RankedTensorType lhsType = op.getLhs().getType();
  RankedTensorType rhsType = op.getRhs().getType();
  // The experts' contractions, of T / E rows on average.
  int64_t t = lhsType.getDimSize(0), e = rhsType.getDimSize(0);
  int64_t mHint = ShapedType::isStatic(t) && ShapedType::isStatic(e) && e > 0
                      ? std::max<int64_t>(1, llvm::divideCeil(t, e))
                      : ShapedType::kDynamic;
  FailureOr<TiledLayoutAttrInterface> layout =
      resolveGroupedLayout(op, op.getLhs(), op.getRhs(), op.getLhsScales(),
                           op.getAcc(), e, mHint, target);
  if (failed(layout))
    return failure();
  int64_t tileRows = layout->getInnerTileSizes(OperandRole::lhs)[0];

  // From a +0.0 fill, the tiles past the experts' name the rows outside
  // every expert, which the kernel writes +0.0 to (zero_empty_tiles): no
  // fill of the whole result first.
  Value zeroFilled = getPositiveZeroFillDestination(op.getAcc());
  // Tiles: sum over experts of ceil(rows_e / tileRows) is at most
  // (T + E (tileRows - 1)) / tileRows, and with the two ranges of rows
  // outside them, (T + (E + 2) (tileRows - 1)) / tileRows.
  auto size = [&](Value v, int64_t d) -> Value {
    return b.createOrFold<tensor::DimOp>(loc, v, d);
  };
  Value rows = size(op.getLhs(), 0), experts = size(op.getRhs(), 0);
  Value tm = arith::ConstantIndexOp::create(b, loc, tileRows);
  Value tmMinusOne = arith::ConstantIndexOp::create(b, loc, tileRows - 1);
  Value ranges =
      zeroFilled ? b.createOrFold<arith::AddIOp>(
                       loc, experts, arith::ConstantIndexOp::create(b, loc, 2))
                 : experts;
  Value tiles = b.createOrFold<arith::DivUIOp>(
      loc,
      b.createOrFold<arith::AddIOp>(
          loc, rows, b.createOrFold<arith::MulIOp>(loc, ranges, tmMinusOne)),
      tm);
  Value table = buildGroupedTileTable(b, loc, op.getOffsets(), rows, experts,
                                      tiles, tileRows, bool(zeroFilled));
  std::optional<int64_t> staticTiles = getConstantIntValue(tiles);
  auto gather = [&](Value source) -> Value {
    auto type = cast<RankedTensorType>(source.getType());
    auto gathered = RankedTensorType::get(
        {staticTiles ? *staticTiles * tileRows : ShapedType::kDynamic,
         type.getDimSize(1)},
        type.getElementType());
    // mx.tiled_scaled_mma reads no tile without rows: the relayout leaves
    // them unwritten.
    return GatherRowTilesOp::create(b, loc, gathered, source, table,
                                    b.getI64IntegerAttr(tileRows),
                                    b.getUnitAttr());
  };
  Value lhs = gather(op.getLhs());
  Value lhsScales = gather(op.getLhsScales());
  return buildTiledGroups(b, loc, *layout, lhs, op.getRhs(), lhsScales,
                          op.getRhsScales(),
                          zeroFilled ? zeroFilled : op.getAcc(), table,
                          /*rowIds=*/Value(), bool(zeroFilled));
}

FailureOr<Value>
mx::materializeRoutedContraction(OpBuilder &b, RoutedScaledContractionOp op,
                                 LayoutResolverAttrInterface target) {
  Location loc = op.getLoc();
  int64_t positions = op.getSortedIds().getType().getDimSize(0);
  int64_t blocks = op.getExpertIds().getType().getDimSize(0);
  if (ShapedType::isDynamic(positions) || ShapedType::isDynamic(blocks) ||
      blocks == 0) {
    op.emitOpError() << "data tiling needs static, non-empty sorted_ids and "
                        "expert_ids (the block size is their ratio)";
    return failure();
  }
  int64_t blockRows = positions / blocks;
  // The blocks that compute: every block with a routed row holds at least
  // one of the T * top_k rows (sorted_ids is sized for the worst case).
  int64_t routedRows = op.getAcc().getType().getDimSize(0);
  int64_t busyBlocks = ShapedType::isStatic(routedRows)
                           ? std::clamp<int64_t>(routedRows, 1, blocks)
                           : blocks;
  FailureOr<TiledLayoutAttrInterface> layout =
      resolveGroupedLayout(op, op.getLhs(), op.getRhs(), op.getLhsScales(),
                           op.getAcc(), busyBlocks, blockRows, target);
  if (failed(layout))
    return failure();
  int64_t tileRows = layout->getInnerTileSizes(OperandRole::lhs)[0];
  if (blockRows % tileRows != 0) {
    op.emitOpError() << "blocks of " << blockRows
                     << " sorted positions are not whole tiles of " << tileRows
                     << " rows of the layout; pin a layout whose M tile "
                        "divides the block size ('"
                     << MXDialect::kLayoutAttrName << "')";
    return failure();
  }
  // The kernel looks up each tile's expert in expert_ids (the block
  // experts form of tile_groups): no tile table to build.
  auto gather = [&](Value source) -> Value {
    auto type = cast<RankedTensorType>(source.getType());
    auto gathered = RankedTensorType::get({positions, type.getDimSize(1)},
                                          type.getElementType());
    return GatherRowsOp::create(b, loc, gathered, source, op.getSortedIds(),
                                op.getTopKAttr());
  };
  Value lhs = gather(op.getLhs());
  Value lhsScales = gather(op.getLhsScales());
  // With every row named, a +0.0 fill of acc is never seen: the kernel
  // starts from zero and writes every row the ids name (+0.0 in those of a
  // block of an expert outside [0, E): zero_empty_tiles), which is every
  // row; the fill's destination becomes the op's (the fill is dead).
  Value zeroFilled = op.getAllRowsNamed()
                         ? getPositiveZeroFillDestination(op.getAcc())
                         : Value();
  return buildTiledGroups(
      b, loc, *layout, lhs, op.getRhs(), lhsScales, op.getRhsScales(),
      zeroFilled ? zeroFilled : op.getAcc(), op.getExpertIds(),
      op.getSortedIds(), bool(zeroFilled));
}
