//===- PackToBytes.cpp - mx-pack-to-bytes --------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites MX element and scale tensors into i8 tensors holding their bytes:
// fp8 and E8M0 one byte per element, fp4/fp6 packed with the innermost
// dimension counted in bytes. For sub-byte types every rewritten op must keep
// the innermost dimension innermost and split it only at byte boundaries, so
// that moving bytes moves whole groups of elements.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXPACKTOBYTES
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

/// Returns the MX element or scale type of `type` if it is such a tensor.
static Type getSubByteElementType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor && (isMXElementType(tensor.getElementType()) ||
                 isa<Float8E8M0FNUType>(tensor.getElementType())))
    return tensor.getElementType();
  return {};
}

/// Returns the source of \p op if it only reinterprets 8-bit MX values as
/// i8 (an elementwise linalg.generic whose body is one arith.bitcast, e.g.
/// E8M0 scales returned as bytes): on bytes it is the identity.
static Value getByteReinterpretationSource(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || !generic.hasPureTensorSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return nullptr;
  Block *body = generic.getBlock();
  auto cast = dyn_cast<arith::BitcastOp>(body->front());
  if (!cast || cast.getIn() != body->getArgument(0) ||
      body->getTerminator()->getOperand(0) != cast.getResult() ||
      !cast.getType().isInteger(8) ||
      cast.getIn().getType().getIntOrFloatBitWidth() != 8)
    return nullptr;
  return generic.getDpsInputs()[0];
}

namespace {
/// Packs the sub-byte tensors of one function.
class FunctionPacker {
public:
  explicit FunctionPacker(func::FuncOp func)
      : func(func), builder(func.getContext()),
        i8(IntegerType::get(func.getContext(), 8)) {}

  LogicalResult run();

private:
  /// The packed form of `type`, or a diagnostic at `op`.
  FailureOr<RankedTensorType> packType(Operation *op, RankedTensorType type);
  /// `size` elements of `elementType` along the innermost dimension, in
  /// bytes (a constant when `size` is one; a diagnostic at `op` if that
  /// constant is not whole bytes).
  FailureOr<OpFoldResult> toBytes(Operation *op, Type elementType,
                                  OpFoldResult size);
  /// Rewrites one op whose operands or results are (now) packed.
  LogicalResult rewrite(Operation *op, Type elementType);
  LogicalResult packConstant(arith::ConstantOp op, Type elementType);
  LogicalResult packSubByteTranspose(linalg::TransposeOp op, Type elementType);
  LogicalResult packPad(tensor::PadOp op, Type elementType);
  LogicalResult packEmpty(tensor::EmptyOp op, Type elementType);
  LogicalResult packExpandShape(tensor::ExpandShapeOp op, Type elementType);
  /// Rewrites a view or row gather whose innermost dimension is unchanged:
  /// the same op on bytes.
  LogicalResult packSameInnermost(Operation *op);
  /// The offsets, sizes and strides of `slice` in bytes: its innermost
  /// dimension must be kept (not rank-reduced, `dropsInnermost` false) with
  /// unit stride.
  LogicalResult getByteSliceParams(OffsetSizeAndStrideOpInterface slice,
                                   Type elementType, bool dropsInnermost,
                                   SmallVector<OpFoldResult> &offsets,
                                   SmallVector<OpFoldResult> &sizes,
                                   SmallVector<OpFoldResult> &strides);
  LogicalResult packExtractSlice(tensor::ExtractSliceOp op, Type elementType);
  LogicalResult packInsertSlice(tensor::InsertSliceOp op, Type elementType);
  LogicalResult packTranspose(linalg::TransposeOp op, Type elementType);
  LogicalResult packQuantizeInto(QuantizeIntoOp op);
  /// Rewrites the innermost size of a tensor.dim of packed data, which
  /// counts bytes now, back into elements.
  LogicalResult rewriteDim(tensor::DimOp dim);
  /// Packs the arguments of the function; sets `changedSignature`.
  LogicalResult packArguments(bool &changedSignature);

  /// Replaces `op` by `replacement`, whose MX results are now bytes.
  void replace(Operation *op, Operation *replacement) {
    for (auto [from, to] :
         llvm::zip_equal(op->getResults(), replacement->getResults()))
      if (Type type = getSubByteElementType(from.getType()))
        packed[to] = type;
    for (auto [from, to] :
         llvm::zip_equal(op->getResults(), replacement->getResults()))
      from.replaceAllUsesWith(to);
    op->erase();
  }

  func::FuncOp func;
  OpBuilder builder;
  Type i8;
  /// Values that hold bytes, with their logical element type.
  DenseMap<Value, Type> packed;
};
} // namespace

FailureOr<RankedTensorType> FunctionPacker::packType(Operation *op,
                                                     RankedTensorType type) {
  Type elementType = type.getElementType();
  if (type.getRank() == 0)
    return op->emitOpError()
           << "cannot store the 0-d tensor " << type << " packed";
  SmallVector<int64_t> shape(type.getShape());
  if (ShapedType::isStatic(shape.back())) {
    FailureOr<int64_t> bytes = getPackedByteCount(elementType, shape.back());
    if (failed(bytes))
      return op->emitOpError()
             << "cannot store " << type << " packed: its innermost dimension ("
             << shape.back() << " x " << elementType.getIntOrFloatBitWidth()
             << " bits) is not whole bytes";
    shape.back() = *bytes;
  }
  return RankedTensorType::get(shape, i8);
}

FailureOr<OpFoldResult> FunctionPacker::toBytes(Operation *op, Type elementType,
                                                OpFoldResult size) {
  int64_t bits = elementType.getIntOrFloatBitWidth();
  if (std::optional<int64_t> value = getConstantIntValue(size)) {
    FailureOr<int64_t> bytes = getPackedByteCount(elementType, *value);
    if (failed(bytes))
      return op->emitOpError()
             << "has an innermost size or offset of " << *value << " "
             << elementType << " elements (" << *value * bits
             << " bits), which is not a whole number of bytes";
    return OpFoldResult(builder.getIndexAttr(*bytes));
  }
  // Dynamic sizes along K are multiples of the block size (32 elements),
  // which are whole bytes for every sub-byte type.
  Location loc = op->getLoc();
  Value v = cast<Value>(size);
  Value bitsValue = arith::ConstantIndexOp::create(builder, loc, bits);
  Value eight = arith::ConstantIndexOp::create(builder, loc, 8);
  Value scaled = arith::MulIOp::create(builder, loc, v, bitsValue);
  return OpFoldResult(arith::DivUIOp::create(builder, loc, scaled, eight));
}

LogicalResult FunctionPacker::packConstant(arith::ConstantOp op,
                                           Type elementType) {
  auto type = cast<RankedTensorType>(op.getType());
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense || !type.hasStaticShape())
    return op.emitOpError()
           << "cannot pack a non-dense or dynamic " << type << " constant";
  FailureOr<RankedTensorType> packedType = packType(op, type);
  if (failed(packedType))
    return failure();
  int64_t bits = elementType.getIntOrFloatBitWidth();
  int64_t rowElements = type.getShape().back();
  int64_t rowBytes = packedType->getShape().back();
  int64_t rows = rowElements == 0 ? 0 : type.getNumElements() / rowElements;
  SmallVector<uint8_t> bytes(rows * rowBytes, 0);
  int64_t index = 0;
  for (APFloat value : dense.getValues<APFloat>()) {
    uint64_t code = value.bitcastToAPInt().getZExtValue();
    int64_t row = index / rowElements, bit = (index % rowElements) * bits;
    for (int64_t b = 0; b < bits; ++b, ++bit)
      if (code >> b & 1)
        bytes[row * rowBytes + bit / 8] |= uint8_t(1u << (bit % 8));
    ++index;
  }
  SmallVector<APInt> values;
  values.reserve(bytes.size());
  for (uint8_t byte : bytes)
    values.emplace_back(8, byte);
  builder.setInsertionPoint(op);
  auto replacement = arith::ConstantOp::create(
      builder, op.getLoc(), DenseElementsAttr::get(*packedType, values));
  replace(op, replacement);
  return success();
}

LogicalResult FunctionPacker::packPad(tensor::PadOp op, Type elementType) {
  FailureOr<RankedTensorType> type = packType(op, op.getResultType());
  if (failed(type))
    return failure();
  Value padValue = op.getConstantPaddingValue();
  FloatAttr padAttr;
  if (!padValue || !matchPattern(padValue, m_Constant(&padAttr)))
    return op.emitOpError()
           << "pads a packed " << elementType
           << " tensor with a non-constant value; only constants are "
              "supported";
  uint64_t code = padAttr.getValue().bitcastToAPInt().getZExtValue();
  int64_t bits = elementType.getIntOrFloatBitWidth();
  // A byte that repeats the code: possible for fp4 (and any code 0).
  uint64_t byte = 0;
  for (int64_t b = 0; b < 8; b += bits)
    byte |= code << b;
  if (8 % bits != 0 && code != 0)
    return op.emitOpError() << "pads a packed " << elementType
                            << " tensor with a nonzero value, which does not "
                               "repeat within a byte";
  builder.setInsertionPoint(op);
  SmallVector<OpFoldResult> low = op.getMixedLowPad();
  SmallVector<OpFoldResult> high = op.getMixedHighPad();
  FailureOr<OpFoldResult> lowBytes = toBytes(op, elementType, low.back());
  FailureOr<OpFoldResult> highBytes = toBytes(op, elementType, high.back());
  if (failed(lowBytes) || failed(highBytes))
    return failure();
  low.back() = *lowBytes;
  high.back() = *highBytes;
  Value byteValue = arith::ConstantOp::create(
      builder, op.getLoc(), builder.getIntegerAttr(i8, byte & 0xff));
  auto replacement =
      tensor::PadOp::create(builder, op.getLoc(), *type, op.getSource(), low,
                            high, byteValue, op.getNofold());
  replace(op, replacement);
  return success();
}

/// A transpose that moves the innermost dimension of packed sub-byte data
/// (e.g. an fp4 weight stored K x N, relaid out with K innermost) moves
/// values, not bytes: each output byte is assembled from the (at most two)
/// values whose bits it holds, each extracted from its source byte(s). The
/// result is a linalg.generic over the output bytes that gathers from the
/// source (tensor.extract), one byte per thread after the GPU lowering.
LogicalResult FunctionPacker::packSubByteTranspose(linalg::TransposeOp op,
                                                   Type elementType) {
  Location loc = op.getLoc();
  int64_t bits = elementType.getIntOrFloatBitWidth();
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = perm.size();
  Value source = op.getInput();
  Value init = op.getInit();
  auto initType = cast<RankedTensorType>(init.getType());
  // Packed values never straddle more than two bytes, and a byte holds
  // parts of at most two values, for 4- and 6-bit types.
  if (bits != 4 && bits != 6)
    return op.emitOpError() << "cannot move the innermost dimension of "
                            << elementType << " data stored as bytes";
  if (!initType.getElementType().isInteger(8))
    return op.emitOpError() << "expected a packed init";
  // Source dimension i is read at output index outputDim[i].
  SmallVector<int64_t> outputDim(rank);
  for (int64_t d = 0; d < rank; ++d)
    outputDim[perm[d]] = d;

  builder.setInsertionPoint(op);
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value lastByte = tensor::DimOp::create(builder, loc, source, rank - 1);
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{initType}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location loc, ValueRange) {
        Type i32 = b.getI32Type();
        auto cIndex = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, loc, v);
        };
        auto cI32 = [&](int64_t v) -> Value {
          return arith::ConstantIntOp::create(b, loc, i32, v);
        };
        auto toI32 = [&](Value v) -> Value {
          return arith::IndexCastOp::create(b, loc, i32, v);
        };
        SmallVector<Value> index;
        for (int64_t d = 0; d < rank; ++d)
          index.push_back(linalg::IndexOp::create(b, loc, d));
        Value outByte = index[rank - 1];
        Value bitsIndex = cIndex(bits);
        Value firstBit = arith::MulIOp::create(b, loc, outByte, cIndex(8));
        Value first = arith::DivUIOp::create(b, loc, firstBit, bitsIndex);
        Value lastIndex = arith::SubIOp::create(b, loc, lastByte, cIndex(1));
        Value result = cI32(0);
        for (int64_t i = 0; i < 2; ++i) {
          // Value `element` of the output row, read from the source.
          Value element = arith::AddIOp::create(b, loc, first, cIndex(i));
          SmallVector<Value> at(rank);
          for (int64_t s = 0; s < rank; ++s)
            at[s] = outputDim[s] == rank - 1 ? element : index[outputDim[s]];
          Value bitPos = arith::MulIOp::create(b, loc, at[rank - 1], bitsIndex);
          Value byte = arith::DivUIOp::create(b, loc, bitPos, cIndex(8));
          Value next = arith::MinUIOp::create(
              b, loc, arith::AddIOp::create(b, loc, byte, cIndex(1)),
              lastIndex);
          at[rank - 1] = byte;
          Value lo = tensor::ExtractOp::create(b, loc, source, at);
          at[rank - 1] = next;
          Value hi = tensor::ExtractOp::create(b, loc, source, at);
          Value word = arith::OrIOp::create(
              b, loc, arith::ExtUIOp::create(b, loc, i32, lo),
              arith::ShLIOp::create(
                  b, loc, arith::ExtUIOp::create(b, loc, i32, hi), cI32(8)));
          Value offset =
              toI32(arith::RemUIOp::create(b, loc, bitPos, cIndex(8)));
          Value code = arith::AndIOp::create(
              b, loc, arith::ShRUIOp::create(b, loc, word, offset),
              cI32((1 << bits) - 1));
          // Its bits in the output byte: shifted left by element * bits -
          // 8 * outByte when that is non-negative, else right.
          Value start =
              toI32(arith::MulIOp::create(b, loc, element, bitsIndex));
          Value shift = arith::SubIOp::create(b, loc, start, toI32(firstBit));
          Value negative = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, shift, cI32(0));
          Value left = arith::ShLIOp::create(
              b, loc, code, arith::MaxSIOp::create(b, loc, shift, cI32(0)));
          Value right = arith::ShRUIOp::create(
              b, loc, code,
              arith::SubIOp::create(
                  b, loc, cI32(0),
                  arith::MinSIOp::create(b, loc, shift, cI32(0))));
          Value part = arith::SelectOp::create(b, loc, negative, right, left);
          result = arith::OrIOp::create(b, loc, result, part);
        }
        Value out = arith::TruncIOp::create(b, loc, b.getI8Type(), result);
        linalg::YieldOp::create(b, loc, out);
      });
  replace(op, generic);
  return success();
}

LogicalResult FunctionPacker::packEmpty(tensor::EmptyOp op, Type elementType) {
  SmallVector<OpFoldResult> sizes = op.getMixedSizes();
  FailureOr<OpFoldResult> last = toBytes(op, elementType, sizes.back());
  if (failed(last))
    return failure();
  sizes.back() = *last;
  replace(op, tensor::EmptyOp::create(builder, op.getLoc(), sizes, i8));
  return success();
}

LogicalResult FunctionPacker::packExpandShape(tensor::ExpandShapeOp op,
                                              Type elementType) {
  FailureOr<RankedTensorType> type = packType(op, op.getResultType());
  if (failed(type))
    return failure();
  SmallVector<OpFoldResult> shape = op.getMixedOutputShape();
  FailureOr<OpFoldResult> last = toBytes(op, elementType, shape.back());
  if (failed(last))
    return failure();
  shape.back() = *last;
  replace(op, tensor::ExpandShapeOp::create(
                  builder, op.getLoc(), *type, op.getSrc(),
                  op.getReassociationIndices(), shape));
  return success();
}

LogicalResult FunctionPacker::packSameInnermost(Operation *op) {
  FailureOr<RankedTensorType> type =
      packType(op, cast<RankedTensorType>(op->getResult(0).getType()));
  if (failed(type))
    return failure();
  Location loc = op->getLoc();
  Operation *replacement =
      TypeSwitch<Operation *, Operation *>(op)
          .Case([&](tensor::CollapseShapeOp collapse) {
            return tensor::CollapseShapeOp::create(
                builder, loc, *type, collapse.getSrc(),
                collapse.getReassociationIndices());
          })
          .Case([&](GatherRowTilesOp gather) {
            // Whole rows move: the same gather of rows of bytes.
            return GatherRowTilesOp::create(
                builder, loc, *type, gather.getSource(), gather.getTileGroups(),
                gather.getTileRowsAttr(), gather.getUndefinedEmptyTilesAttr());
          })
          .Case([&](GatherRowsOp gather) {
            return GatherRowsOp::create(builder, loc, *type, gather.getSource(),
                                        gather.getIds(),
                                        gather.getDivisorAttr());
          })
          .Case([&](tensor::CastOp cast) {
            return tensor::CastOp::create(builder, loc, *type,
                                          cast.getSource());
          });
  replace(op, replacement);
  return success();
}

LogicalResult FunctionPacker::getByteSliceParams(
    OffsetSizeAndStrideOpInterface slice, Type elementType, bool dropsInnermost,
    SmallVector<OpFoldResult> &offsets, SmallVector<OpFoldResult> &sizes,
    SmallVector<OpFoldResult> &strides) {
  Operation *op = slice.getOperation();
  offsets = slice.getMixedOffsets();
  sizes = slice.getMixedSizes();
  strides = slice.getMixedStrides();
  // One byte per element: the slice is the same in bytes.
  if (elementType.getIntOrFloatBitWidth() == 8)
    return success();
  if (dropsInnermost || getConstantIntValue(strides.back()) != 1)
    return op->emitOpError()
           << "slices the innermost dimension of a packed " << elementType
           << " tensor with a non-unit stride or drops it (packed elements "
              "move in whole bytes)";
  FailureOr<OpFoldResult> offset = toBytes(op, elementType, offsets.back());
  FailureOr<OpFoldResult> size = toBytes(op, elementType, sizes.back());
  if (failed(offset) || failed(size))
    return failure();
  offsets.back() = *offset;
  sizes.back() = *size;
  return success();
}

LogicalResult FunctionPacker::packExtractSlice(tensor::ExtractSliceOp op,
                                               Type elementType) {
  FailureOr<RankedTensorType> type = packType(op, op.getResultType());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  if (failed(type) ||
      failed(getByteSliceParams(
          op, elementType,
          op.getDroppedDims().test(op.getSourceType().getRank() - 1), offsets,
          sizes, strides)))
    return failure();
  replace(op, tensor::ExtractSliceOp::create(builder, op.getLoc(), *type,
                                             op.getSource(), offsets, sizes,
                                             strides));
  return success();
}

LogicalResult FunctionPacker::packInsertSlice(tensor::InsertSliceOp op,
                                              Type elementType) {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  if (failed(packType(op, op.getResultType())) ||
      failed(getByteSliceParams(
          op, elementType,
          op.getDroppedDims().test(op.getDestType().getRank() - 1), offsets,
          sizes, strides)))
    return failure();
  replace(op,
          tensor::InsertSliceOp::create(builder, op.getLoc(), op.getSource(),
                                        op.getDest(), offsets, sizes, strides));
  return success();
}

LogicalResult FunctionPacker::packTranspose(linalg::TransposeOp op,
                                            Type elementType) {
  if (!isa<RankedTensorType>(op.getInit().getType()))
    return op->emitOpError() << "packing applies to tensors only";
  ArrayRef<int64_t> perm = op.getPermutation();
  if (isSubByteType(elementType) &&
      (perm.empty() || perm.back() != int64_t(perm.size()) - 1))
    return packSubByteTranspose(op, elementType);
  replace(op, linalg::TransposeOp::create(builder, op.getLoc(), op.getInput(),
                                          op.getInit(), perm));
  return success();
}

LogicalResult FunctionPacker::packQuantizeInto(QuantizeIntoOp op) {
  // The destinations (e.g. tensor.empty) are bytes now; the maps keep
  // counting elements.
  SmallVector<Type> types;
  for (Value init : op.getDpsInits())
    types.push_back(init.getType());
  auto replacement = QuantizeIntoOp::create(
      builder, op.getLoc(), types, op.getInput(), op.getIds(), op.getElements(),
      op.getScales(), op.getAxisAttr(), op.getScaleAttr(), op.getRoundingAttr(),
      op.getElementTypeAttr(), op.getElementMaps(), op.getScaleMaps(),
      op.getScalePaddingAttr(), op.getInConsumerAttr(), op.getDivisorAttr());
  replace(op, replacement);
  return success();
}

LogicalResult FunctionPacker::rewrite(Operation *op, Type elementType) {
  builder.setInsertionPoint(op);
  if (isa<tensor::CollapseShapeOp, GatherRowTilesOp, GatherRowsOp,
          tensor::CastOp>(op))
    return packSameInnermost(op);
  if (isa<linalg::PackOp, linalg::UnPackOp>(op))
    return op->emitOpError()
           << "on an MX tensor must be lowered (mx-lower-relayouts) before "
              "packing to bytes";
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp typed) {
        return packConstant(typed, elementType);
      })
      .Case([&](tensor::PadOp typed) { return packPad(typed, elementType); })
      .Case(
          [&](tensor::EmptyOp typed) { return packEmpty(typed, elementType); })
      .Case([&](tensor::ExpandShapeOp typed) {
        return packExpandShape(typed, elementType);
      })
      .Case([&](tensor::ExtractSliceOp typed) {
        return packExtractSlice(typed, elementType);
      })
      .Case([&](tensor::InsertSliceOp typed) {
        return packInsertSlice(typed, elementType);
      })
      .Case([&](linalg::TransposeOp typed) {
        return packTranspose(typed, elementType);
      })
      .Case([&](QuantizeIntoOp typed) { return packQuantizeInto(typed); })
      .Default([&](Operation *other) {
        return other->emitOpError()
               << "cannot operate on " << elementType
               << " data stored as bytes (mx-pack-to-bytes supports the "
                  "relayout ops, mx.gather_rows, mx.gather_row_tiles, "
                  "mx.tiled_scaled_mma and mx.quantize_into)";
      });
}

LogicalResult FunctionPacker::rewriteDim(tensor::DimOp dim) {
  // Sizes other than the innermost are unchanged; the innermost one counts
  // bytes now.
  Type logical = packed.lookup(dim.getSource());
  auto rank = cast<RankedTensorType>(dim.getSource().getType()).getRank();
  std::optional<int64_t> index = dim.getConstantIndex();
  if (!index)
    return dim->emitOpError()
           << "with a dynamic index on MX data stored as bytes";
  if (*index != rank - 1)
    return success();
  builder.setInsertionPointAfter(dim);
  Location loc = dim.getLoc();
  Value bits = arith::ConstantIndexOp::create(builder, loc,
                                              logical.getIntOrFloatBitWidth());
  Value eight = arith::ConstantIndexOp::create(builder, loc, 8);
  Value elements = arith::DivUIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, dim, eight), bits);
  dim.getResult().replaceAllUsesExcept(
      elements, elements.getDefiningOp()->getOperand(0).getDefiningOp());
  return success();
}

LogicalResult FunctionPacker::packArguments(bool &changedSignature) {
  for (BlockArgument arg : func.getBody().front().getArguments()) {
    Type elementType = getSubByteElementType(arg.getType());
    if (!elementType)
      continue;
    FailureOr<RankedTensorType> type =
        packType(func, cast<RankedTensorType>(arg.getType()));
    if (failed(type))
      return failure();
    func.setArgAttr(arg.getArgNumber(), kPackedTypeAttrName,
                    TypeAttr::get(arg.getType()));
    arg.setType(*type);
    packed[arg] = elementType;
    changedSignature = true;
  }
  return success();
}

LogicalResult FunctionPacker::run() {
  if (func.isExternal())
    return success();
  Block &entry = func.getBody().front();
  bool changedSignature = false;
  if (failed(packArguments(changedSignature)))
    return failure();

  SmallVector<Operation *> ops;
  func.getBody().walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    if (isa<TiledScaledMMAOp, func::ReturnOp>(op))
      continue;
    Type elementType;
    for (Value v : op->getResults())
      if (Type t = getSubByteElementType(v.getType()))
        elementType = t;
    bool usesPacked = llvm::any_of(op->getOperands(),
                                   [&](Value v) { return packed.contains(v); });
    if (!elementType && !usesPacked)
      continue;
    if (auto dim = dyn_cast<tensor::DimOp>(op)) {
      if (failed(rewriteDim(dim)))
        return failure();
      continue;
    }
    if (Value source = getByteReinterpretationSource(op);
        source && packed.contains(source)) {
      op->getResult(0).replaceAllUsesWith(source);
      op->erase();
      continue;
    }
    if (!elementType)
      return op->emitOpError() << "cannot consume MX data stored as bytes";
    if (failed(rewrite(op, elementType)))
      return failure();
  }

  // Results.
  auto returnOp = cast<func::ReturnOp>(entry.getTerminator());
  FunctionType oldType = func.getFunctionType();
  for (auto [index, value] : llvm::enumerate(returnOp.getOperands())) {
    if (!packed.contains(value))
      continue;
    func.setResultAttr(index, kPackedTypeAttrName,
                       TypeAttr::get(oldType.getResult(index)));
    changedSignature = true;
  }
  if (changedSignature)
    func.setFunctionType(FunctionType::get(func.getContext(),
                                           entry.getArgumentTypes(),
                                           returnOp.getOperandTypes()));
  return success();
}

LogicalResult mx::packToBytes(func::FuncOp func) {
  return FunctionPacker(func).run();
}

/// Whether an op of \p module other than a function refers to \p func (a
/// call): a function that names \p func in an argument attribute (e.g. its
/// packing function, `mx.prepacked_by`) does not call it.
static bool isCalled(func::FuncOp func, ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  return !uses || llvm::any_of(*uses, [](const SymbolTable::SymbolUse &use) {
    return !isa<func::FuncOp>(use.getUser());
  });
}

namespace {
struct PackToBytesPass : public mx::impl::MXPackToBytesBase<PackToBytesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>()) {
      bool hasSubByteArgs =
          llvm::any_of(func.getArgumentTypes(), getSubByteElementType) ||
          llvm::any_of(func.getResultTypes(), getSubByteElementType);
      if (hasSubByteArgs && isCalled(func, module)) {
        func.emitOpError()
            << "is called in the module and takes or returns MX tensors; "
               "storing them as bytes would change its signature under its "
               "callers";
        return signalPassFailure();
      }
      if (failed(packToBytes(func)))
        return signalPassFailure();
    }
  }
};
} // namespace
