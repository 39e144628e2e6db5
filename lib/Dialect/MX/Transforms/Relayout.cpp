//===- Relayout.cpp - pack + swizzle of data-tiled operands ---------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Relayout.h"
#include "mx/Support/CheckedArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::mx;

static TypedAttr getPaddingValue(OpBuilder &b, OperandRole role,
                                 Type elementType) {
  if (role == OperandRole::lhs_scales || role == OperandRole::rhs_scales) {
    // 0x7F encodes 2^0; the padded data is zero, so the product is zero.
    // Packed scales (i8, mx-pack-to-bytes) pad with the same byte.
    auto type = dyn_cast<FloatType>(elementType);
    if (!type)
      return IntegerAttr::get(elementType, 0x7F);
    return FloatAttr::get(type,
                          APFloat(type.getFloatSemantics(), APInt(8, 0x7F)));
  }
  return b.getZeroAttr(elementType);
}

static RelayoutInfo makeInfo(OperandRole role, Type elementType,
                             TiledLayoutAttrInterface layout,
                             SmallVector<int64_t> outerDimsPerm,
                             SmallVector<int64_t> innerDimsPos) {
  OpBuilder b(layout.getContext());
  RelayoutInfo info;
  info.outerDimsPerm = std::move(outerDimsPerm);
  info.innerDimsPos = std::move(innerDimsPos);
  info.innerTiles = layout.getInnerTileSizes(role);
  info.swizzle = layout.getSwizzle(role);
  info.paddingValue = getPaddingValue(b, role, elementType);
  return info;
}

RelayoutInfo mx::getRelayoutInfo(EncodingAttr encoding,
                                 TiledLayoutAttrInterface layout) {
  OperandRole role = encoding.getRole();
  SmallVector<AffineMap> maps = llvm::to_vector(
      encoding.getIndexingMaps().getAsValueRange<AffineMapAttr>());
  FailureOr<ScaledContractionDims> dims =
      inferScaledContractionDims(nullptr, maps);
  assert(succeeded(dims) && "verified encodings have valid maps");
  AffineMap map = encoding.getRoleMap();
  auto pos = [&](unsigned d) {
    return int64_t(
        *map.getResultPosition(getAffineDimExpr(d, map.getContext())));
  };
  SmallVector<unsigned> canonical(dims->batch);
  switch (role) {
  case OperandRole::lhs:
  case OperandRole::lhs_scales:
    canonical.append({dims->m[0], dims->k});
    break;
  case OperandRole::rhs:
  case OperandRole::rhs_scales:
    canonical.append({dims->n[0], dims->k});
    break;
  case OperandRole::result:
    canonical.append({dims->m[0], dims->n[0]});
    break;
  }
  SmallVector<int64_t> outerDimsPerm =
      llvm::map_to_vector(canonical, [&](unsigned d) { return pos(d); });
  SmallVector<int64_t> innerDimsPos(outerDimsPerm.end() - 2,
                                    outerDimsPerm.end());
  Type elementType = encoding.getElementTypes()[static_cast<unsigned>(role)];
  return makeInfo(role, elementType, layout, outerDimsPerm, innerDimsPos);
}

RelayoutInfo mx::getCanonicalRelayoutInfo(unsigned rank, OperandRole role,
                                          Type elementType,
                                          TiledLayoutAttrInterface layout) {
  SmallVector<int64_t> identity = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  return makeInfo(role, elementType, layout, identity,
                  {int64_t(rank) - 2, int64_t(rank) - 1});
}

/// The transpose permutation of the full tiled tensor (outer dims kept).
static SmallVector<int64_t> getFullPermutation(const RelayoutInfo &info,
                                               unsigned rank) {
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  for (int64_t p : info.swizzle.permutation)
    perm.push_back(rank + p);
  return perm;
}

/// The most elements a constant relayout folded at compile time may have.
static constexpr int64_t kMaxFoldedRelayoutElements = int64_t(1) << 22;

/// Relayout of a static constant at compile time: every element of the
/// result is read from its source position (or is padding).
static DenseElementsAttr relayoutConstant(DenseElementsAttr source,
                                          const RelayoutInfo &info,
                                          RankedTensorType resultType) {
  ArrayRef<int64_t> srcShape = source.getType().getShape();
  unsigned rank = srcShape.size();
  SmallVector<int64_t> srcStrides = computeStrides(srcShape);
  SmallVector<int64_t> resultStrides = computeStrides(resultType.getShape());
  SmallVector<Attribute> srcValues =
      llvm::to_vector(source.getValues<Attribute>());
  Attribute padding = info.paddingValue;
  SmallVector<Attribute> values;
  values.reserve(resultType.getNumElements());
  for (int64_t linear = 0; linear < resultType.getNumElements(); ++linear) {
    SmallVector<int64_t> coords = delinearize(linear, resultStrides);
    SmallVector<int64_t> srcCoords(rank, 0);
    for (unsigned i = 0; i < rank; ++i)
      srcCoords[info.outerDimsPerm[i]] = coords[i];
    SmallVector<int64_t> inner =
        info.swizzle.getTileCoords(ArrayRef<int64_t>(coords).drop_front(rank));
    bool inBounds = true;
    for (auto [g, dim] : llvm::enumerate(info.innerDimsPos))
      srcCoords[dim] = srcCoords[dim] * info.innerTiles[g] + inner[g];
    for (unsigned d = 0; d < rank; ++d)
      inBounds &= srcCoords[d] < srcShape[d];
    values.push_back(inBounds ? srcValues[linearize(srcCoords, srcStrides)]
                              : padding);
  }
  return DenseElementsAttr::get(resultType, values);
}

Value mx::packAndSwizzle(OpBuilder &b, Location loc, Value source,
                         const RelayoutInfo &info) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  unsigned rank = sourceType.getRank();
  Type elementType = sourceType.getElementType();
  SmallVector<OpFoldResult> tiles =
      getAsIndexOpFoldResult(b.getContext(), info.innerTiles);

  // A static constant (e.g. weights) is relaid out now, not at run time.
  DenseElementsAttr constant;
  if (sourceType.hasStaticShape() &&
      matchPattern(source, m_Constant(&constant))) {
    SmallVector<int64_t> shape;
    for (int64_t d : info.outerDimsPerm) {
      int64_t size = sourceType.getDimSize(d);
      auto it = llvm::find(info.innerDimsPos, d);
      if (it != info.innerDimsPos.end())
        size = llvm::divideCeil(
            size, info.innerTiles[it - info.innerDimsPos.begin()]);
      shape.push_back(size);
    }
    llvm::append_range(shape, info.swizzle.getSwizzledShape());
    // Fold only what is reasonable to hold in the IR; a constant padded
    // beyond that (huge tiles) is relaid out at run time like any tensor.
    std::optional<int64_t> elements = getCheckedProduct(shape);
    if (elements && *elements <= kMaxFoldedRelayoutElements) {
      auto resultType = RankedTensorType::get(shape, elementType);
      return arith::ConstantOp::create(
          b, loc, resultType, relayoutConstant(constant, info, resultType));
    }
  }

  Value dest = linalg::PackOp::createDestinationTensor(
      b, loc, source, tiles, info.innerDimsPos, info.outerDimsPerm);
  Value padding = arith::ConstantOp::create(b, loc, info.paddingValue);
  Value packed = linalg::PackOp::create(b, loc, source, dest, info.innerDimsPos,
                                        tiles, padding, info.outerDimsPerm)
                     .getResult();

  // Expand the inner tile, then permute it.
  SmallVector<OpFoldResult> expandedSizes;
  for (unsigned d = 0; d < rank; ++d)
    expandedSizes.push_back(tensor::getMixedSize(b, loc, packed, d));
  for (int64_t size : info.swizzle.getExpandedShape())
    expandedSizes.push_back(b.getIndexAttr(size));
  SmallVector<int64_t> expandedShape;
  SmallVector<Value> dynamic;
  dispatchIndexOpFoldResults(expandedSizes, dynamic, expandedShape);
  auto expandedType = RankedTensorType::get(expandedShape, elementType);
  SmallVector<ReassociationIndices> reassociation;
  for (const auto &group : info.swizzle.getReassociation(rank))
    reassociation.push_back(ReassociationIndices(group.begin(), group.end()));
  Value expanded = tensor::ExpandShapeOp::create(b, loc, expandedType, packed,
                                                 reassociation, expandedSizes);

  SmallVector<int64_t> perm = getFullPermutation(info, rank);
  SmallVector<OpFoldResult> permutedSizes =
      applyPermutation(expandedSizes, perm);
  Value init = tensor::EmptyOp::create(b, loc, permutedSizes, elementType);
  Value result =
      linalg::TransposeOp::create(b, loc, expanded, init, perm).getResult()[0];

  return result;
}

Value mx::unswizzleAndUnpack(OpBuilder &b, Location loc, Value tiled,
                             const RelayoutInfo &info,
                             RankedTensorType resultType,
                             ValueRange dynamicDims) {
  unsigned rank = resultType.getRank();
  Type elementType = resultType.getElementType();
  SmallVector<int64_t> perm = getFullPermutation(info, rank);
  SmallVector<int64_t> inverse = invertPermutationVector(perm);

  SmallVector<OpFoldResult> tiledSizes = tensor::getMixedSizes(b, loc, tiled);
  SmallVector<OpFoldResult> expandedSizes =
      applyPermutation(tiledSizes, inverse);
  Value init = tensor::EmptyOp::create(b, loc, expandedSizes, elementType);
  Value expanded =
      linalg::TransposeOp::create(b, loc, tiled, init, inverse).getResult()[0];

  SmallVector<ReassociationIndices> reassociation;
  for (const auto &group : info.swizzle.getReassociation(rank))
    reassociation.push_back(ReassociationIndices(group.begin(), group.end()));
  Value packed =
      tensor::CollapseShapeOp::create(b, loc, expanded, reassociation);

  Value dest = tensor::EmptyOp::create(b, loc, resultType, dynamicDims);
  SmallVector<OpFoldResult> tiles =
      getAsIndexOpFoldResult(b.getContext(), info.innerTiles);
  return linalg::UnPackOp::create(b, loc, packed, dest, info.innerDimsPos,
                                  tiles, info.outerDimsPerm)
      .getResult();
}
