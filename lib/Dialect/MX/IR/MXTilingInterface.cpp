//===- MXTilingInterface.cpp - TilingInterface for mx ops -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tiling `mx.scaled_contraction` slices every operand along the tiled
// iteration dimensions. The scale operands are indexed by the 32-block of the
// reduction dimension, so a tile along `k` must start and end on a block
// boundary: offset and size along `k` are divided by 32 for the scales.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::mx;

SmallVector<utils::IteratorType> ScaledContractionOp::getLoopIteratorTypes() {
  SmallVector<utils::IteratorType> types(getNumLoops(),
                                         utils::IteratorType::parallel);
  types[getContractionDims().k] = utils::IteratorType::reduction;
  return types;
}

SmallVector<Range> ScaledContractionOp::getIterationDomain(OpBuilder &b) {
  Location loc = getLoc();
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<Range> domain(getNumLoops(), Range{zero, zero, one});
  SmallVector<bool> found(getNumLoops(), false);
  SmallVector<AffineMap> maps = {getLhsMap(), getRhsMap(), getAccMap()};
  SmallVector<Value> operands = {getLhs(), getRhs(), getAcc()};
  for (auto [map, operand] : llvm::zip_equal(maps, operands)) {
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      unsigned d = cast<AffineDimExpr>(expr).getPosition();
      if (found[d])
        continue;
      domain[d].size = tensor::getMixedSize(b, loc, operand, pos);
      found[d] = true;
    }
  }
  return domain;
}

static std::optional<int64_t> getKnownDivisor(OpFoldResult ofr);

/// Returns a number that provably divides `expr` evaluated on `operands`
/// (0 when it is provably 0), or nullopt when nothing can be derived.
static std::optional<int64_t>
getKnownDivisor(AffineExpr expr, ValueRange operands, unsigned numDims) {
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return std::abs(cst.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return getKnownDivisor(OpFoldResult(operands[dim.getPosition()]));
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return getKnownDivisor(OpFoldResult(operands[numDims + sym.getPosition()]));
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = getKnownDivisor(bin.getLHS(), operands, numDims);
  std::optional<int64_t> rhs = getKnownDivisor(bin.getRHS(), operands, numDims);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return std::gcd(*lhs, *rhs);
  case AffineExprKind::Mul:
    return llvm::checkedMul(*lhs, *rhs);
  default:
    return std::nullopt;
  }
}

/// Returns a number that provably divides the value of `ofr` (0 when it is
/// provably 0), or nullopt when its divisibility cannot be derived (function
/// arguments, `tensor.dim`, ...). Looks through constants, `scf.for`
/// induction variables and `affine.apply/min/max`, the forms tiling drivers
/// produce.
static std::optional<int64_t> getKnownDivisor(OpFoldResult ofr) {
  if (std::optional<int64_t> cst = getConstantIntValue(ofr))
    return std::abs(*cst);
  auto value = cast<Value>(ofr);
  if (auto forOp = scf::getForInductionVarOwner(value)) {
    std::optional<int64_t> lb = getKnownDivisor(forOp.getLowerBound());
    std::optional<int64_t> step = getKnownDivisor(forOp.getStep());
    if (!lb || !step)
      return std::nullopt;
    return std::gcd(*lb, *step);
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  auto fromMap = [](AffineMap map,
                    ValueRange operands) -> std::optional<int64_t> {
    std::optional<int64_t> result = 0;
    for (AffineExpr expr : map.getResults()) {
      std::optional<int64_t> div =
          getKnownDivisor(expr, operands, map.getNumDims());
      if (!div)
        return std::nullopt;
      result = std::gcd(*result, *div);
    }
    return result;
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case<affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp>(
          [&](auto op) { return fromMap(op.getAffineMap(), op.getOperands()); })
      .Default([](Operation *) { return std::nullopt; });
}

/// Returns the offsets and sizes of the slice of an operand indexed by `map`
/// for the iteration-space tile (`offsets`, `sizes`). If `kBlocked`, the
/// operand is a scale operand: its reduction dimension `k` counts 32-blocks.
static void getOperandSlice(OpBuilder &b, Location loc, AffineMap map,
                            unsigned k, bool kBlocked,
                            ArrayRef<OpFoldResult> offsets,
                            ArrayRef<OpFoldResult> sizes,
                            SmallVectorImpl<OpFoldResult> &sliceOffsets,
                            SmallVectorImpl<OpFoldResult> &sliceSizes) {
  AffineExpr d0 = b.getAffineDimExpr(0);
  AffineMap perBlock = AffineMap::get(1, 0, d0.floorDiv(kBlockSize));
  for (AffineExpr expr : map.getResults()) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    if (kBlocked && d == k) {
      sliceOffsets.push_back(affine::makeComposedFoldedAffineApply(
          b, loc, perBlock, {offsets[d]}));
      sliceSizes.push_back(
          affine::makeComposedFoldedAffineApply(b, loc, perBlock, {sizes[d]}));
      continue;
    }
    sliceOffsets.push_back(offsets[d]);
    sliceSizes.push_back(sizes[d]);
  }
}

FailureOr<TilingResult>
ScaledContractionOp::getTiledImplementation(OpBuilder &b,
                                            ArrayRef<OpFoldResult> offsets,
                                            ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  unsigned k = getContractionDims().k;
  // The scales of a tile along k are only addressable if the tile is made of
  // whole 32-blocks. Offsets and sizes whose divisibility cannot be derived
  // (e.g. a dynamic K) are assumed to be block multiples, as the op requires
  // of K itself.
  for (auto [what, ofr] : {std::make_pair("offset", offsets[k]),
                           std::make_pair("size", sizes[k])}) {
    std::optional<int64_t> divisor = getKnownDivisor(ofr);
    if (divisor && *divisor % kBlockSize != 0)
      return emitOpError() << "cannot tile the reduction dimension: the tile "
                           << what << " is only known to be a multiple of "
                           << *divisor << ", it must be a multiple of "
                           << kBlockSize << " so that the scales stay aligned";
  }

  SmallVector<AffineMap> maps = {getLhsMap(), getRhsMap(), getLhsMap(),
                                 getRhsMap(), getAccMap()};
  SmallVector<Value> operands = {getLhs(), getRhs(), getLhsScales(),
                                 getRhsScales(), getAcc()};
  SmallVector<Value> slices;
  SmallVector<Operation *> generatedSlices;
  for (auto [i, map, operand] : llvm::enumerate(maps, operands)) {
    bool isScale = i == 2 || i == 3;
    SmallVector<OpFoldResult> sliceOffsets, sliceSizes;
    getOperandSlice(b, loc, map, k, isScale, offsets, sizes, sliceOffsets,
                    sliceSizes);
    SmallVector<OpFoldResult> strides(sliceOffsets.size(), b.getIndexAttr(1));
    auto slice = tensor::ExtractSliceOp::create(b, loc, operand, sliceOffsets,
                                                sliceSizes, strides);
    slices.push_back(slice);
    generatedSlices.push_back(slice);
  }
  Type resultType = slices.back().getType();
  auto tiled = ScaledContractionOp::create(b, loc, resultType, slices[0],
                                           slices[1], slices[2], slices[3],
                                           slices[4], getIndexingMaps());
  return TilingResult{{tiled}, {tiled.getResult()}, generatedSlices};
}

LogicalResult ScaledContractionOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  if (resultNumber != 0)
    return failure();
  getOperandSlice(b, getLoc(), getAccMap(), getContractionDims().k,
                  /*kBlocked=*/false, offsets, sizes, resultOffsets,
                  resultSizes);
  return success();
}
