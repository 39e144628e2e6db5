//===- MXGatherOps.cpp - mx row gather operations -------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mx.gather_row_tiles and mx.gather_rows: verification, result shapes and the
// guarded source-row arithmetic their lowerings share.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::mx;

//===----------------------------------------------------------------------===//
// GatherRowTilesOp
//===----------------------------------------------------------------------===//

LogicalResult GatherRowTilesOp::verify() {
  ShapedType source = getSource().getType(), result = getResult().getType();
  auto tiles = cast<ShapedType>(getTileGroups().getType());
  if (source.getRank() != 2)
    return emitOpError() << "source must have rank 2 (rows, columns), got "
                         << source;
  if (tiles.getRank() != 2 || tiles.getDimSize(1) != 3 ||
      !tiles.getElementType().isInteger(32))
    return emitOpError() << "tile_groups must be [Mo, 3] of i32 (group, "
                            "first row, row count per tile), got "
                         << tiles;
  if (result.getRank() != 2 ||
      result.getElementType() != source.getElementType())
    return emitOpError() << "result must be a rank-2 tensor of "
                         << source.getElementType() << ", got " << result;
  int64_t tileRows = getTileRows();
  auto mismatch = [](int64_t a, int64_t b) {
    return ShapedType::isStatic(a) && ShapedType::isStatic(b) && a != b;
  };
  int64_t mo = tiles.getDimSize(0);
  std::optional<int64_t> rows = ShapedType::isStatic(mo)
                                    ? llvm::checkedMul(mo, tileRows)
                                    : std::optional<int64_t>(mo);
  if (!rows)
    return emitOpError() << "tile_rows (" << tileRows << ") times the " << mo
                         << " rows of tile_groups overflows int64";
  if (mismatch(*rows, result.getDimSize(0)))
    return emitOpError() << "result must have " << tileRows
                         << " rows per row of tile_groups ("
                         << (ShapedType::isStatic(mo) ? std::to_string(mo)
                                                      : std::string("?"))
                         << "), got " << result.getDimSize(0);
  if (mismatch(source.getDimSize(1), result.getDimSize(1)))
    return emitOpError() << "result must have the " << source.getDimSize(1)
                         << " columns of source, got " << result.getDimSize(1);
  return success();
}

LogicalResult GatherRowTilesOp::reifyResultShapes(
    OpBuilder &b, ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  Location loc = getLoc();
  RankedTensorType type = getResult().getType();
  OpFoldResult rows = b.getIndexAttr(type.getDimSize(0));
  if (type.isDynamicDim(0))
    rows = arith::MulIOp::create(
               b, loc, tensor::DimOp::create(b, loc, getTileGroups(), 0),
               arith::ConstantIndexOp::create(b, loc, getTileRows()))
               .getResult();
  OpFoldResult cols = b.getIndexAttr(type.getDimSize(1));
  if (type.isDynamicDim(1))
    cols = tensor::DimOp::create(b, loc, getSource(), 1).getResult();
  reifiedReturnShapes.push_back({rows, cols});
  return success();
}

/// Row `row` of a source of `sourceRows` rows, read where `valid` and `row`
/// lies in the source: the row clamped into the source (so that the read is
/// always in bounds) and whether it is read.
static std::pair<Value, Value> guardSourceRow(OpBuilder &b, Location loc,
                                              Value row, Value valid,
                                              Value sourceRows) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // Signed compares: a negative row is outside the source too.
  Value aboveZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, row, zero);
  Value belowEnd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row, sourceRows);
  Value inBounds = arith::AndIOp::create(
      b, loc, valid, arith::AndIOp::create(b, loc, aboveZero, belowEnd));
  Value last = arith::SubIOp::create(b, loc, sourceRows, one);
  Value clamped = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, row, last), zero);
  return {clamped, inBounds};
}

/// Field `field` (0 group, 1 first row, 2 row count) of the table entry of
/// `tile`, as an index.
static Value loadTileField(OpBuilder &b, Location loc, Value tileGroups,
                           Value tile, int64_t field) {
  Value v = tensor::ExtractOp::create(
      b, loc, tileGroups,
      ValueRange{tile, arith::ConstantIndexOp::create(b, loc, field)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// Row `row` of the result of a gather into tiles of `tileRows` rows as
/// (tile, row in the tile). When `row` is a disjoint affine.linearize_index
/// whose last basis is the tile (a packing relayout's row, fused), its
/// leading indices are the tile: no division, and the tile is the same
/// value for every row of it (one table read, one condition).
static std::pair<Value, Value> splitTileRow(OpBuilder &b, Location loc,
                                            Value row, int64_t tileRows) {
  auto linearize = row.getDefiningOp<affine::AffineLinearizeIndexOp>();
  if (linearize && linearize.getDisjoint() &&
      linearize.getMultiIndex().size() >= 2) {
    SmallVector<OpFoldResult> basis = linearize.getMixedBasis();
    if (isConstantIntValue(basis.back(), tileRows)) {
      ValueRange indices = linearize.getMultiIndex();
      Value tile = indices.front();
      if (indices.size() > 2)
        tile = affine::AffineLinearizeIndexOp::create(
            b, loc, indices.drop_back(), ArrayRef(basis).drop_back(),
            /*disjoint=*/true);
      return {tile, indices.back()};
    }
  }
  Value size = arith::ConstantIndexOp::create(b, loc, tileRows);
  return {arith::DivUIOp::create(b, loc, row, size),
          arith::RemUIOp::create(b, loc, row, size)};
}

std::pair<Value, Value> GatherRowTilesOp::buildSourceRow(OpBuilder &b,
                                                         Location loc,
                                                         Value sourceRows,
                                                         Value row) {
  auto [tile, r] = splitTileRow(b, loc, row, getTileRows());
  Value first = loadTileField(b, loc, getTileGroups(), tile, 1);
  Value count = loadTileField(b, loc, getTileGroups(), tile, 2);
  Value source = arith::AddIOp::create(b, loc, first, r);
  Value inTile =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, count);
  return guardSourceRow(b, loc, source, inTile, sourceRows);
}

Value GatherRowTilesOp::buildRowDefined(OpBuilder &b, Location loc, Value row) {
  if (!getUndefinedEmptyTiles())
    return {};
  Value tile = splitTileRow(b, loc, row, getTileRows()).first;
  Value count = loadTileField(b, loc, getTileGroups(), tile, 2);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, count,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

//===----------------------------------------------------------------------===//
// GatherRowsOp
//===----------------------------------------------------------------------===//

LogicalResult GatherRowsOp::verify() {
  ShapedType source = getSource().getType(), result = getResult().getType();
  auto ids = cast<ShapedType>(getIds().getType());
  if (source.getRank() != 2)
    return emitOpError() << "source must have rank 2 (rows, columns), got "
                         << source;
  if (ids.getRank() != 1 || !ids.getElementType().isInteger(32))
    return emitOpError() << "ids must be a 1-d tensor of i32, got " << ids;
  if (result.getRank() != 2 ||
      result.getElementType() != source.getElementType())
    return emitOpError() << "result must be a rank-2 tensor of "
                         << source.getElementType() << ", got " << result;
  auto mismatch = [](int64_t a, int64_t b) {
    return ShapedType::isStatic(a) && ShapedType::isStatic(b) && a != b;
  };
  if (mismatch(ids.getDimSize(0), result.getDimSize(0)))
    return emitOpError() << "result must have one row per id ("
                         << ids.getDimSize(0) << "), got "
                         << result.getDimSize(0);
  if (mismatch(source.getDimSize(1), result.getDimSize(1)))
    return emitOpError() << "result must have the " << source.getDimSize(1)
                         << " columns of source, got " << result.getDimSize(1);
  return success();
}

LogicalResult GatherRowsOp::reifyResultShapes(
    OpBuilder &b, ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  Location loc = getLoc();
  RankedTensorType type = getResult().getType();
  OpFoldResult rows = b.getIndexAttr(type.getDimSize(0));
  if (type.isDynamicDim(0))
    rows = tensor::DimOp::create(b, loc, getIds(), 0).getResult();
  OpFoldResult cols = b.getIndexAttr(type.getDimSize(1));
  if (type.isDynamicDim(1))
    cols = tensor::DimOp::create(b, loc, getSource(), 1).getResult();
  reifiedReturnShapes.push_back({rows, cols});
  return success();
}

std::pair<Value, Value> GatherRowsOp::buildSourceRow(OpBuilder &b, Location loc,
                                                     Value sourceRows,
                                                     Value row) {
  return buildGatheredSourceRow(
      b, loc, tensor::ExtractOp::create(b, loc, getIds(), row), getDivisor(),
      sourceRows);
}

std::pair<Value, Value> mlir::mx::buildGatheredSourceRow(OpBuilder &b,
                                                         Location loc, Value id,
                                                         int64_t divisor,
                                                         Value sourceRows) {
  id = arith::IndexCastOp::create(b, loc, b.getIndexType(), id);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value nonNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, id, zero);
  // (A negative id is rejected before the division rounds it to 0.)
  Value source = arith::DivSIOp::create(
      b, loc, id, arith::ConstantIndexOp::create(b, loc, divisor));
  return guardSourceRow(b, loc, source, nonNegative, sourceRows);
}
