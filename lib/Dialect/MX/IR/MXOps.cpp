//===- MXOps.cpp - mx dialect operations ----------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Support/CheckedArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mx;

#include "mx/Dialect/MX/IR/MXEnums.cpp.inc"
#include "mx/Dialect/MX/IR/MXInterfaces.cpp.inc"
#include "mx/Dialect/MX/IR/MXTargetInterfaces.cpp.inc"

bool mlir::mx::isMXElementType(Type type) {
  return isa<Float4E2M1FNType, Float6E2M3FNType, Float6E3M2FNType,
             Float8E4M3FNType, Float8E5M2Type>(type);
}

bool mlir::mx::isSubByteType(Type type) {
  return isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 8;
}

FailureOr<int64_t> mlir::mx::getPackedByteCount(Type type, int64_t count) {
  std::optional<int64_t> bits =
      ShapedType::isDynamic(count)
          ? std::nullopt
          : llvm::checkedMul(count, int64_t(type.getIntOrFloatBitWidth()));
  if (!bits || *bits % 8 != 0)
    return failure();
  return *bits / 8;
}

/// Prints a shape as `[64, ?, 8]`.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  os << "]";
  return result;
}

static constexpr StringLiteral kMXElementTypeList =
    "f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN or f8E5M2";

/// Checks the relation between a data tensor and its block-scale tensor: same
/// rank, the same sizes except along `axis`, where the scale size is the data
/// size divided by 32, and the data size is a multiple of 32.
static LogicalResult verifyBlockScales(Operation *op, ShapedType data,
                                       StringRef dataName, ShapedType scales,
                                       StringRef scalesName, int64_t axis) {
  if (scales.getRank() != data.getRank())
    return op->emitOpError()
           << scalesName << " must have the rank of " << dataName << " ("
           << data.getRank() << "), got rank " << scales.getRank();
  int64_t dataSize = data.getDimSize(axis);
  if (ShapedType::isStatic(dataSize) && dataSize % kBlockSize != 0)
    return op->emitOpError()
           << dataName << " size " << dataSize << " along axis " << axis
           << " is not a multiple of the block size " << kBlockSize;
  SmallVector<int64_t> expected(data.getShape());
  if (ShapedType::isStatic(dataSize))
    expected[axis] = dataSize / kBlockSize;
  for (auto [want, got] : llvm::zip_equal(expected, scales.getShape())) {
    if (ShapedType::isDynamic(want) || ShapedType::isDynamic(got) ||
        want == got)
      continue;
    return op->emitOpError()
           << scalesName << " shape " << formatShape(scales.getShape())
           << " does not match " << dataName << " shape "
           << formatShape(data.getShape()) << ": expected "
           << formatShape(expected) << " (axis " << axis << " divided by "
           << kBlockSize << ")";
  }
  return success();
}

/// Verifies the attributes and types shared by quantize and dequantize.
static LogicalResult verifyQuantizeLike(Operation *op, ShapedType floatType,
                                        StringRef floatName,
                                        ShapedType elementsType,
                                        ShapedType scalesType, int64_t axis,
                                        int64_t blockSize) {
  if (blockSize != kBlockSize)
    return op->emitOpError()
           << "block_size must be " << kBlockSize << ", got " << blockSize;
  Type floatElem = floatType.getElementType();
  if (!isa<BFloat16Type, Float16Type, Float32Type>(floatElem))
    return op->emitOpError()
           << floatName << " element type must be bf16, f16 or f32, got "
           << floatElem;
  if (!isMXElementType(elementsType.getElementType()))
    return op->emitOpError()
           << "elements must have an MX element type (" << kMXElementTypeList
           << "), got " << elementsType.getElementType();
  if (!isa<Float8E8M0FNUType>(scalesType.getElementType()))
    return op->emitOpError() << "scales must have element type f8E8M0FNU, got "
                             << scalesType.getElementType();
  if (floatType.getRank() == 0)
    return op->emitOpError() << floatName << " must have rank at least 1";
  if (axis < 0 || axis >= floatType.getRank())
    return op->emitOpError() << "axis " << axis << " is out of range for "
                             << floatName << " of rank " << floatType.getRank();
  if (failed(
          verifyCompatibleShape(floatType.getShape(), elementsType.getShape())))
    return op->emitOpError()
           << "elements shape " << formatShape(elementsType.getShape())
           << " does not match " << floatName << " shape "
           << formatShape(floatType.getShape());
  return verifyBlockScales(op, floatType, floatName, scalesType, "scales",
                           axis);
}

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  return verifyQuantizeLike(*this, getInput().getType(), "input",
                            getElements().getType(), getScales().getType(),
                            getAxis(), getBlockSize());
}

//===----------------------------------------------------------------------===//
// QuantizeIntoOp
//===----------------------------------------------------------------------===//

AffineMap QuantizeIntoOp::getDestinationMap(unsigned index) {
  unsigned numElements = getElements().size();
  ArrayAttr maps = index < numElements ? getElementMaps() : getScaleMaps();
  return cast<AffineMapAttr>(
             maps[index < numElements ? index : index - numElements])
      .getValue();
}

/// The shape of destination \p index of \p op in elements (an i8 destination
/// of sub-byte elements counts bytes innermost; dynamic if that overflows).
static SmallVector<int64_t> getShapeInElements(QuantizeIntoOp op, unsigned i) {
  Value dest = op.getDpsInits()[i];
  SmallVector<int64_t> shape(cast<ShapedType>(dest.getType()).getShape());
  Type elementType = op.getElementType();
  if (i < op.getElements().size() && isSubByteType(elementType) &&
      !shape.empty() && ShapedType::isStatic(shape.back()) &&
      getElementTypeOrSelf(dest.getType()).isInteger(8)) {
    std::optional<int64_t> bits = llvm::checkedMul(shape.back(), int64_t(8));
    shape.back() = bits ? *bits / elementType.getIntOrFloatBitWidth()
                        : ShapedType::kDynamic;
  }
  return shape;
}

FailureOr<SmallVector<QuantizeIntoOp::DomainCover>>
QuantizeIntoOp::getDomainCovers(unsigned index) {
  AffineMap map = getDestinationMap(index);
  SmallVector<DomainCover> covers;
  for (unsigned d = 0; d < map.getNumDims(); ++d) {
    std::optional<DomainCover> cover;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && dim.getPosition() == d) {
        cover = DomainCover{unsigned(r), 1};
        break;
      }
      auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
      if (!binary || binary.getKind() != AffineExprKind::FloorDiv)
        continue;
      auto dim = dyn_cast<AffineDimExpr>(binary.getLHS());
      auto tile = dyn_cast<AffineConstantExpr>(binary.getRHS());
      if (dim && tile && dim.getPosition() == d && tile.getValue() > 0) {
        cover = DomainCover{unsigned(r), tile.getValue()};
        break;
      }
    }
    if (!cover)
      return failure();
    covers.push_back(*cover);
  }
  return covers;
}

FailureOr<SmallVector<int64_t>>
QuantizeIntoOp::getPaddedDomain(unsigned index) {
  FailureOr<SmallVector<DomainCover>> covers = getDomainCovers(index);
  if (failed(covers))
    return failure();
  SmallVector<int64_t> shape = getShapeInElements(*this, index);
  SmallVector<int64_t> domain;
  for (DomainCover cover : *covers) {
    // An extent that does not fit in int64 is treated as unknown (the
    // verifier then rejects the map), never overflowed.
    int64_t size = shape[cover.result], product;
    domain.push_back(ShapedType::isDynamic(size) ||
                             llvm::MulOverflow(size, cover.tile, product)
                         ? ShapedType::kDynamic
                         : product);
  }
  return domain;
}

MutableOperandRange QuantizeIntoOp::getDpsInitsMutable() {
  return MutableOperandRange(getOperation(),
                             getODSOperandIndexAndLength(2).first,
                             getElements().size() + getScales().size());
}

SmallVector<int64_t> QuantizeIntoOp::getLogicalShape() {
  SmallVector<int64_t> shape(cast<ShapedType>(getInput().getType()).getShape());
  if (Value ids = getIds(); ids && !shape.empty())
    shape[0] = cast<ShapedType>(ids.getType()).getDimSize(0);
  return shape;
}

/// Verifies the `gather(%ids divisor = D)` form of \p op.
static LogicalResult verifyGather(QuantizeIntoOp op) {
  Value ids = op.getIds();
  if (!ids)
    return op.getDivisor()
               ? op.emitOpError() << "has a divisor but no ids to gather by"
               : success();
  auto idsType = cast<ShapedType>(ids.getType());
  if (idsType.getRank() != 1 || !idsType.getElementType().isInteger(32))
    return op.emitOpError()
           << "ids must be a 1-d tensor or memref of i32, got " << idsType;
  if (!op.getDivisor())
    return op.emitOpError() << "gathers rows but has no divisor";
  auto inputType = cast<ShapedType>(op.getInput().getType());
  if (inputType.getRank() != 2 || op.getAxis() != 1)
    return op.emitOpError() << "gathers rows: the input must have rank 2 "
                               "(rows, columns) and axis 1, got "
                            << inputType << " and axis " << op.getAxis();
  return success();
}

void QuantizeIntoOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (operand.getOperandNumber() == 0 || operand.get() == getIds())
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

LogicalResult QuantizeIntoOp::verify() {
  auto inputType = cast<ShapedType>(getInput().getType());
  bool onTensors = isa<RankedTensorType>(inputType);
  for (Value dest : getDpsInits())
    if (isa<RankedTensorType>(dest.getType()) != onTensors)
      return emitOpError()
             << "expects the input and all destinations to be tensors, or all "
                "memrefs";
  if (getIds() && isa<RankedTensorType>(getIds().getType()) != onTensors)
    return emitOpError() << "expects ids to be a tensor exactly when the "
                            "input is";
  if (onTensors) {
    if (getResults().getTypes() != getDpsInits().getTypes())
      return emitOpError()
             << "on tensors, expected one result per destination, of its type";
  } else if (!getResults().empty()) {
    return emitOpError() << "on memrefs, expected no results";
  }
  if (getDpsInits().empty())
    return emitOpError() << "expects at least one destination";
  Type floatElem = inputType.getElementType();
  if (!isa<BFloat16Type, Float16Type, Float32Type>(floatElem))
    return emitOpError() << "input element type must be bf16, f16 or f32, got "
                         << floatElem;
  Type elementType = getElementType();
  if (!isMXElementType(elementType))
    return emitOpError() << "element_type must be an MX element type ("
                         << kMXElementTypeList << "), got " << elementType;
  int64_t rank = inputType.getRank();
  int64_t axis = getAxis();
  if (rank == 0)
    return emitOpError() << "input must have rank at least 1";
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis
                         << " is out of range for input of rank " << rank;
  int64_t axisSize = inputType.getDimSize(axis);
  if (ShapedType::isStatic(axisSize) && axisSize % kBlockSize != 0)
    return emitOpError() << "input size " << axisSize << " along axis " << axis
                         << " is not a multiple of the block size "
                         << kBlockSize;
  if (getElementMaps().size() != getElements().size() ||
      getScaleMaps().size() != getScales().size() ||
      getScalePadding().size() != getScales().size())
    return emitOpError() << "expects one map per destination and one padding "
                            "byte per scales destination";
  for (int64_t byte : getScalePadding())
    if (byte < 0 || byte > 255)
      return emitOpError() << "scale padding " << byte << " is not a byte";
  if (failed(verifyGather(*this)))
    return failure();
  SmallVector<int64_t> logicalShape = getLogicalShape();
  SmallVector<int64_t> blocked(logicalShape);
  if (ShapedType::isStatic(axisSize))
    blocked[axis] = axisSize / kBlockSize;
  for (auto [index, dest] : llvm::enumerate(getDpsInits())) {
    bool isElements = index < getElements().size();
    StringRef name = isElements ? "elements" : "scales";
    auto type = cast<ShapedType>(dest.getType());
    Type destElem = type.getElementType();
    Type expected =
        isElements ? elementType : Type(Float8E8M0FNUType::get(getContext()));
    if (destElem != expected && !destElem.isInteger(8))
      return emitOpError() << name << " destination #" << index
                           << " must have element type " << expected
                           << " or i8 (bytes), got " << destElem;
    // Sub-byte codes packed in bytes: the innermost byte count must hold a
    // whole number of codes (fp6: a multiple of 3 bytes), so it must be
    // known unless every byte count does (fp4).
    if (isElements && destElem.isInteger(8) && isSubByteType(elementType) &&
        type.getRank() > 0) {
      int64_t bytes = type.getShape().back();
      int64_t bits = elementType.getIntOrFloatBitWidth();
      if (ShapedType::isDynamic(bytes) && 8 % bits != 0)
        return emitOpError()
               << "elements destination #" << index << " packs " << elementType
               << " codes into bytes: its innermost size must be static";
      if (ShapedType::isStatic(bytes) && (bytes * 8) % bits != 0)
        return emitOpError() << "elements destination #" << index << " packs "
                             << elementType << " codes into bytes: " << bytes
                             << " bytes hold no whole number of codes";
    }
    AffineMap map = getDestinationMap(index);
    if (map.getNumDims() != rank || map.getNumSymbols() != 0 ||
        map.getNumResults() != type.getRank())
      return emitOpError() << "map of " << name << " destination #" << index
                           << " must have " << rank
                           << " dimensions, no symbols and " << type.getRank()
                           << " results, got " << AffineMapAttr::get(map);
    FailureOr<SmallVector<int64_t>> domain = getPaddedDomain(index);
    if (failed(domain))
      return emitOpError()
             << "map of " << name << " destination #" << index
             << " must use every dimension as `d` or `d floordiv T`: "
             << AffineMapAttr::get(map);
    ArrayRef<int64_t> logical = isElements ? ArrayRef<int64_t>(logicalShape)
                                           : ArrayRef<int64_t>(blocked);
    for (auto [padded, size] : llvm::zip_equal(*domain, logical))
      if (ShapedType::isStatic(padded) && ShapedType::isStatic(size) &&
          padded < size)
        return emitOpError()
               << name << " destination #" << index << " covers "
               << formatShape(*domain) << ", less than the logical shape "
               << formatShape(logical);
    // Each padded point (a launch covers all) needs an element of its own:
    // `d floordiv T` with T far beyond d's size covers too many (or overflows).
    SmallVector<int64_t> elements = getShapeInElements(*this, index);
    std::optional<int64_t> points = getCheckedProduct(*domain);
    std::optional<int64_t> size = getCheckedProduct(elements);
    if (size && (!points || *points > *size))
      return emitOpError() << name << " destination #" << index << " has "
                           << *size << " elements but its map covers "
                           << formatShape(*domain) << " points";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult DequantizeOp::verify() {
  return verifyQuantizeLike(*this, getResult().getType(), "result",
                            getElements().getType(), getScales().getType(),
                            getAxis(), getBlockSize());
}

//===----------------------------------------------------------------------===//
// ScaledContractionOp
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kOperandNames[] = {"lhs", "rhs", "acc"};

unsigned ScaledContractionOp::getNumLoops() { return getLhsMap().getNumDims(); }

AffineMap ScaledContractionOp::getLhsMap() {
  return cast<AffineMapAttr>(getIndexingMaps()[0]).getValue();
}
AffineMap ScaledContractionOp::getRhsMap() {
  return cast<AffineMapAttr>(getIndexingMaps()[1]).getValue();
}
AffineMap ScaledContractionOp::getAccMap() {
  return cast<AffineMapAttr>(getIndexingMaps()[2]).getValue();
}

/// Classifies the iteration dimensions of the three maps. Returns the
/// dimensions, or fails, emitting an error on `op` unless it is null.
FailureOr<ScaledContractionDims>
mx::inferScaledContractionDims(Operation *op, ArrayRef<AffineMap> maps) {
  auto emitError = [&]() -> InFlightDiagnostic {
    if (op)
      return op->emitOpError();
    return InFlightDiagnostic();
  };
  ScaledContractionDims dims;
  unsigned numDims = maps[0].getNumDims();
  SmallVector<unsigned> reductions;
  for (unsigned d = 0; d < numDims; ++d) {
    bool used[3];
    for (unsigned i = 0; i < 3; ++i)
      used[i] = maps[i].isFunctionOfDim(d);
    bool inLhs = used[0], inRhs = used[1], inAcc = used[2];
    if (inLhs && inRhs && inAcc)
      dims.batch.push_back(d);
    else if (inLhs && !inRhs && inAcc)
      dims.m.push_back(d);
    else if (!inLhs && inRhs && inAcc)
      dims.n.push_back(d);
    else if (inLhs && inRhs && !inAcc)
      reductions.push_back(d);
    else if (!inLhs && !inRhs && !inAcc)
      return emitError() << "iteration dimension d" << d
                         << " is not used by any indexing map";
    else {
      unsigned only = inLhs ? 0 : inRhs ? 1 : 2;
      return emitError()
             << "iteration dimension d" << d << " is used only by "
             << kOperandNames[only]
             << "; every dimension must be a batch (lhs, rhs, acc), M (lhs, "
                "acc), N (rhs, acc) or reduction (lhs, rhs) dimension";
    }
  }
  if (reductions.size() != 1)
    return emitError()
           << "expected exactly one reduction dimension (used by lhs and rhs, "
              "not by acc), found "
           << reductions.size();
  dims.k = reductions.front();
  return dims;
}

ScaledContractionDims ScaledContractionOp::getContractionDims() {
  SmallVector<AffineMap> maps = {getLhsMap(), getRhsMap(), getAccMap()};
  FailureOr<ScaledContractionDims> dims =
      inferScaledContractionDims(nullptr, maps);
  assert(succeeded(dims) && "expected a verified op");
  return *dims;
}

SmallVector<Type> ScaledContractionOp::getElementTypes() {
  return llvm::map_to_vector(getOperandTypes(), [](Type type) {
    return cast<ShapedType>(type).getElementType();
  });
}

bool ScaledContractionOp::hasEncodedOperands() {
  return llvm::any_of(getOperandTypes(), [](Type type) {
    return cast<RankedTensorType>(type).getEncoding() != nullptr;
  });
}

SmallVector<int64_t> ScaledContractionOp::getStaticLoopRanges() {
  SmallVector<int64_t> ranges(getNumLoops(), ShapedType::kDynamic);
  SmallVector<AffineMap> maps = {getLhsMap(), getRhsMap(), getAccMap()};
  SmallVector<ShapedType> types = {getLhs().getType(), getRhs().getType(),
                                   getAcc().getType()};
  for (auto [map, type] : llvm::zip_equal(maps, types))
    for (auto [pos, expr] : llvm::enumerate(map.getResults()))
      if (ShapedType::isStatic(type.getDimSize(pos)))
        ranges[cast<AffineDimExpr>(expr).getPosition()] = type.getDimSize(pos);
  return ranges;
}

MutableOperandRange ScaledContractionOp::getDpsInitsMutable() {
  return getAccMutable();
}

LogicalResult ScaledContractionOp::verify() {
  ArrayAttr mapsAttr = getIndexingMaps();
  if (mapsAttr.size() != 3)
    return emitOpError() << "expected 3 indexing maps (lhs, rhs, acc), got "
                         << mapsAttr.size();
  SmallVector<AffineMap> maps =
      llvm::to_vector(mapsAttr.getAsValueRange<AffineMapAttr>());
  SmallVector<ShapedType> types = {getLhs().getType(), getRhs().getType(),
                                   getAcc().getType()};
  unsigned numDims = maps[0].getNumDims();
  for (auto [i, map] : llvm::enumerate(maps)) {
    StringRef name = kOperandNames[i];
    if (map.getNumSymbols() != 0)
      return emitOpError() << "indexing map of " << name
                           << " must not have symbols";
    if (map.getNumDims() != numDims)
      return emitOpError() << "indexing map of " << name << " has "
                           << map.getNumDims() << " dimensions, expected "
                           << numDims << " (as the lhs map)";
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return emitOpError() << "indexing map of " << name
                           << " must be a projected permutation, got "
                           << AffineMapAttr::get(map);
    if (map.getNumResults() != types[i].getRank())
      return emitOpError() << name << " has rank " << types[i].getRank()
                           << " but its indexing map has "
                           << map.getNumResults() << " results";
  }

  FailureOr<ScaledContractionDims> dims =
      inferScaledContractionDims(*this, maps);
  if (failed(dims))
    return failure();

  // Element types.
  for (unsigned i = 0; i < 2; ++i)
    if (!isMXElementType(types[i].getElementType()))
      return emitOpError() << kOperandNames[i]
                           << " must have an MX element type ("
                           << kMXElementTypeList << "), got "
                           << types[i].getElementType();
  for (auto [name, value] : {std::make_pair("lhs_scales", getLhsScales()),
                             std::make_pair("rhs_scales", getRhsScales())})
    if (!isa<Float8E8M0FNUType>(value.getType().getElementType()))
      return emitOpError() << name << " must have element type f8E8M0FNU, got "
                           << value.getType().getElementType();
  if (!getAcc().getType().getElementType().isF32())
    return emitOpError() << "acc must have element type f32, got "
                         << getAcc().getType().getElementType();
  if (getResult().getType() != getAcc().getType())
    return emitOpError() << "result type " << getResult().getType()
                         << " must match the acc type " << getAcc().getType();

  // Every iteration dimension must have one size.
  SmallVector<int64_t> sizes(numDims, ShapedType::kDynamic);
  SmallVector<int> sizeSource(numDims, -1);
  for (auto [i, map] : llvm::enumerate(maps)) {
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      unsigned d = cast<AffineDimExpr>(expr).getPosition();
      int64_t size = types[i].getDimSize(pos);
      if (ShapedType::isDynamic(size))
        continue;
      if (sizeSource[d] >= 0 && sizes[d] != size)
        return emitOpError()
               << "iteration dimension d" << d << " has size " << sizes[d]
               << " in " << kOperandNames[sizeSource[d]] << " but " << size
               << " in " << kOperandNames[i];
      sizes[d] = size;
      sizeSource[d] = i;
    }
  }
  int64_t kSize = sizes[dims->k];
  if (ShapedType::isStatic(kSize) && kSize % kBlockSize != 0)
    return emitOpError() << "reduction dimension size " << kSize
                         << " is not a multiple of the block size "
                         << kBlockSize;

  // Scales: indexed like their data operand with the reduction dim / 32.
  for (unsigned i = 0; i < 2; ++i) {
    auto scalesType =
        cast<ShapedType>((i == 0 ? getLhsScales() : getRhsScales()).getType());
    std::string scalesName = (Twine(kOperandNames[i]) + "_scales").str();
    unsigned kPos =
        *maps[i].getResultPosition(getAffineDimExpr(dims->k, getContext()));
    if (failed(verifyBlockScales(*this, types[i], kOperandNames[i], scalesType,
                                 scalesName, kPos)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GroupedScaledContractionOp
//===----------------------------------------------------------------------===//

MutableOperandRange GroupedScaledContractionOp::getDpsInitsMutable() {
  return getAccMutable();
}

namespace {
/// An operand's required rank, with its shape for the message.
struct RankRule {
  StringRef name;
  ShapedType type;
  int64_t rank;
  StringRef shape;
};
} // namespace

/// The checks mx.grouped_scaled_contraction and mx.routed_scaled_contraction
/// share: the ranks (lhs [T, K], rhs [E, N, K], acc with shape `accShape`,
/// and the routing operands'), the element types, the result's type, K and
/// N, and the block scales.
static LogicalResult verifyExpertContraction(Operation *op, Value lhsValue,
                                             Value rhsValue, Value lhsScales,
                                             Value rhsScales, Value accValue,
                                             StringRef accShape,
                                             ArrayRef<RankRule> routing) {
  auto lhs = cast<ShapedType>(lhsValue.getType());
  auto rhs = cast<ShapedType>(rhsValue.getType());
  auto acc = cast<ShapedType>(accValue.getType());
  SmallVector<RankRule> rules = {{"lhs", lhs, 2, "[T, K]"},
                                 {"rhs", rhs, 3, "[E, N, K]"},
                                 {"acc", acc, 2, accShape}};
  rules.append(routing.begin(), routing.end());
  for (const RankRule &rule : rules)
    if (rule.type.getRank() != rule.rank)
      return op->emitOpError()
             << rule.name << " must have rank " << rule.rank << " ("
             << rule.shape << "), got rank " << rule.type.getRank();
  for (auto [name, type] :
       {std::make_pair("lhs", lhs), std::make_pair("rhs", rhs)})
    if (!isMXElementType(type.getElementType()))
      return op->emitOpError()
             << name << " must have an MX element type (" << kMXElementTypeList
             << "), got " << type.getElementType();
  for (auto [name, value] : {std::make_pair("lhs_scales", lhsScales),
                             std::make_pair("rhs_scales", rhsScales)})
    if (!isa<Float8E8M0FNUType>(getElementTypeOrSelf(value.getType())))
      return op->emitOpError()
             << name << " must have element type f8E8M0FNU, got "
             << getElementTypeOrSelf(value.getType());
  if (!acc.getElementType().isF32())
    return op->emitOpError()
           << "acc must have element type f32, got " << acc.getElementType();
  if (op->getResult(0).getType() != acc)
    return op->emitOpError() << "result type " << op->getResult(0).getType()
                             << " must match the acc type " << acc;
  auto mismatch = [](int64_t a, int64_t b) {
    return ShapedType::isStatic(a) && ShapedType::isStatic(b) && a != b;
  };
  if (mismatch(lhs.getDimSize(1), rhs.getDimSize(2)))
    return op->emitOpError()
           << "reduction size " << lhs.getDimSize(1) << " of lhs differs from "
           << rhs.getDimSize(2) << " of rhs";
  if (mismatch(rhs.getDimSize(1), acc.getDimSize(1)))
    return op->emitOpError()
           << "rhs has N = " << rhs.getDimSize(1) << " but acc has "
           << acc.getDimSize(1) << " columns";
  return failure(failed(verifyBlockScales(op, lhs, "lhs",
                                          cast<ShapedType>(lhsScales.getType()),
                                          "lhs_scales", 1)) ||
                 failed(verifyBlockScales(op, rhs, "rhs",
                                          cast<ShapedType>(rhsScales.getType()),
                                          "rhs_scales", 2)));
}

LogicalResult GroupedScaledContractionOp::verify() {
  ShapedType lhs = getLhs().getType(), rhs = getRhs().getType(),
             acc = getAcc().getType(), offsets = getOffsets().getType();
  if (failed(verifyExpertContraction(
          *this, getLhs(), getRhs(), getLhsScales(), getRhsScales(), getAcc(),
          "[T, N]", {RankRule{"offsets", offsets, 1, "[E + 1]"}})))
    return failure();
  Type offsetType = offsets.getElementType();
  if (!offsetType.isIndex() && !offsetType.isSignlessInteger(32) &&
      !offsetType.isSignlessInteger(64))
    return emitOpError() << "offsets must have element type i32, i64 or "
                            "index, got "
                         << offsetType;
  // T (lhs, acc), E + 1.
  auto mismatch = [](int64_t a, int64_t b) {
    return ShapedType::isStatic(a) && ShapedType::isStatic(b) && a != b;
  };
  if (mismatch(lhs.getDimSize(0), acc.getDimSize(0)))
    return emitOpError() << "lhs has " << lhs.getDimSize(0)
                         << " rows but acc has " << acc.getDimSize(0);
  int64_t numExperts = rhs.getDimSize(0);
  if (ShapedType::isStatic(numExperts) &&
      mismatch(numExperts + 1, offsets.getDimSize(0)))
    return emitOpError() << "offsets must have E + 1 = " << numExperts + 1
                         << " elements for " << numExperts << " experts, got "
                         << offsets.getDimSize(0);

  // Constant offsets are checked here; others at run time.
  DenseIntElementsAttr values;
  if (matchPattern(getOffsets(), m_Constant(&values))) {
    int64_t rows = lhs.getDimSize(0);
    int64_t previous = 0;
    for (auto [e, value] : llvm::enumerate(values.getValues<APInt>())) {
      int64_t offset = value.getSExtValue();
      if (offset < previous || (ShapedType::isStatic(rows) && offset > rows))
        return emitOpError()
               << "offsets must be non-decreasing within [0, T]: offset #" << e
               << " is " << offset << " after " << previous
               << (ShapedType::isStatic(rows)
                       ? (" with T = " + Twine(rows)).str()
                       : std::string());
      previous = offset;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// RoutedScaledContractionOp
//===----------------------------------------------------------------------===//

MutableOperandRange RoutedScaledContractionOp::getDpsInitsMutable() {
  return getAccMutable();
}

LogicalResult RoutedScaledContractionOp::verify() {
  ShapedType lhs = getLhs().getType(), acc = getAcc().getType(),
             ids = getSortedIds().getType(), experts = getExpertIds().getType();
  if (failed(verifyExpertContraction(
          *this, getLhs(), getRhs(), getLhsScales(), getRhsScales(), getAcc(),
          "[T * top_k, N]",
          {RankRule{"sorted_ids", ids, 1, "[P]"},
           RankRule{"expert_ids", experts, 1, "[NB]"}})))
    return failure();
  for (auto [name, type] : {std::make_pair("sorted_ids", ids),
                            std::make_pair("expert_ids", experts)})
    if (!type.getElementType().isSignlessInteger(32))
      return emitOpError() << name << " must have element type i32, got "
                           << type.getElementType();
  int64_t topK = getTopK();
  int64_t tokens = lhs.getDimSize(0), rows = acc.getDimSize(0);
  if (ShapedType::isStatic(tokens) && ShapedType::isStatic(rows)) {
    std::optional<int64_t> routed = llvm::checkedMul(tokens, topK);
    if (!routed)
      return emitOpError() << "T * top_k (" << tokens << " * " << topK
                           << ") overflows int64";
    if (*routed != rows)
      return emitOpError() << "acc must have T * top_k = " << *routed
                           << " rows (one per routed row), got " << rows;
  }
  int64_t positions = ids.getDimSize(0), blocks = experts.getDimSize(0);
  if (ShapedType::isStatic(positions) && ShapedType::isStatic(blocks) &&
      (blocks == 0 ? positions != 0 : positions % blocks != 0))
    return emitOpError() << "expert_ids must divide sorted_ids into blocks of "
                            "equal size: "
                         << positions << " positions in " << blocks
                         << " blocks";
  if (getAllRowsNamed() && ShapedType::isStatic(positions) &&
      ShapedType::isStatic(rows) && positions < rows)
    return emitOpError() << "all_rows_named needs a position for each of the "
                         << rows << " routed rows, but sorted_ids has "
                         << positions;
  return success();
}

//===----------------------------------------------------------------------===//
// TiledScaledMMAOp epilogue syntax
//===----------------------------------------------------------------------===//

/// `epilogue ins(%x, %y : T, U) maps [#map0, #map1] { ^bb0(...): ... }`, or
/// nothing when the op has no epilogue.
static ParseResult
parseEpilogue(OpAsmParser &parser,
              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &inputs,
              SmallVectorImpl<Type> &types, ArrayAttr &maps,
              SmallVectorImpl<std::unique_ptr<Region>> &regions) {
  if (failed(parser.parseOptionalKeyword("epilogue")))
    return success();
  if (parser.parseKeyword("ins") || parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen())) {
    if (parser.parseOperandList(inputs) || parser.parseColonTypeList(types) ||
        parser.parseRParen())
      return failure();
  }
  Attribute mapsAttr;
  if (parser.parseKeyword("maps") || parser.parseAttribute(mapsAttr))
    return failure();
  maps = dyn_cast<ArrayAttr>(mapsAttr);
  if (!maps)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected an array of affine maps");
  regions.push_back(std::make_unique<Region>());
  return parser.parseRegion(*regions.back(), /*arguments=*/{});
}

static void printEpilogue(OpAsmPrinter &printer, Operation *op,
                          OperandRange inputs, TypeRange types, ArrayAttr maps,
                          MutableArrayRef<Region> regions) {
  if (regions.empty())
    return;
  printer << " epilogue ins(";
  if (!inputs.empty())
    printer << inputs << " : " << types;
  printer << ") maps "
          << (maps ? Attribute(maps)
                   : Attribute(ArrayAttr::get(op->getContext(), {})))
          << " ";
  printer.printRegion(regions.front(), /*printEntryBlockArgs=*/true);
}

#define GET_OP_CLASSES
#include "mx/Dialect/MX/IR/MXOps.cpp.inc"
