//===- QuantizeInto.cpp - mx.quantize_into to mx.quantize + loops ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lowers mx.quantize_into for the host CPU path: the quantization is an
// mx.quantize of the input (lowered by QuantizeLowering like any other), and
// each destination is filled by a loop nest over its padded logical domain
// that extracts the code or scale at every point (element code 0 or the
// destination's scale padding outside the input) and inserts it at the map's
// position. An i8 destination is filled in values first and then packed into
// its bytes (packCodes, the packing of mx-pack-to-bytes). A gathered op reads
// each logical row at input row ids[i] / divisor (padding where that is no
// input row). Memref operands are read through bufferization.to_tensor and
// written with bufferization.materialize_in_destination, so that one-shot
// bufferization turns the tensors into the given buffers. Dynamic sizes are
// read from the operands at run time.
//
//===----------------------------------------------------------------------===//

#include "MoEContractions.h"

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/QuantizeArith.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mx;

namespace {

/// The sizes of \p shaped (a tensor or memref): attributes where static.
static SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc,
                                          Value shaped) {
  if (isa<MemRefType>(shaped.getType()))
    return memref::getMixedSizes(b, loc, shaped);
  return tensor::getMixedSizes(b, loc, shaped);
}

namespace {
/// The rows of a gathered mx.quantize_into: logical row i is source row
/// `ids[i] / divisor` (`ids` a tensor).
struct RowGather {
  Value ids;
  int64_t divisor = 1;
};
} // namespace

/// Fills \p dest with \p source (a code or scale tensor in the input's index
/// space, read at the rows of \p gather if it has ids) over the padded
/// domain of sizes \p domain through \p map, \p padding outside \p source
/// (and at the rows of ids outside it).
static Value scatter(OpBuilder &b, Location loc, Value source, Value dest,
                     ArrayRef<OpFoldResult> domain, AffineMap map,
                     Value padding, RowGather gather) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(domain.size(), zero), steps(domain.size(), one);
  SmallVector<Value> sourceSizes =
      getValueOrCreateConstantIndexOp(b, loc, getSizes(b, loc, source));
  Value sourceRows = sourceSizes.empty() ? Value() : sourceSizes[0];
  if (gather.ids)
    sourceSizes[0] = tensor::DimOp::create(b, loc, gather.ids, 0);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, getValueOrCreateConstantIndexOp(b, loc, domain), steps,
      ValueRange{dest},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        // Inside the input: every index below the logical size; outside,
        // the index 0 is read and the padding taken instead.
        Value inside;
        SmallVector<Value> indices;
        for (auto [iv, size] : llvm::zip_equal(ivs, sourceSizes)) {
          Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              iv, size);
          inside =
              inside ? arith::AndIOp::create(b, loc, inside, below) : below;
          indices.push_back(iv);
        }
        if (gather.ids) {
          // The id is read at an in-bounds row; its source row is clamped.
          Value row = arith::SelectOp::create(b, loc, inside, ivs[0], zero);
          Value id = tensor::ExtractOp::create(b, loc, gather.ids, row);
          auto [sourceRow, valid] =
              buildGatheredSourceRow(b, loc, id, gather.divisor, sourceRows);
          inside = arith::AndIOp::create(b, loc, inside, valid);
          indices[0] = sourceRow;
        }
        for (Value &index : indices)
          index = arith::SelectOp::create(b, loc, inside, index, zero);
        Value value = tensor::ExtractOp::create(b, loc, source, indices);
        value = arith::SelectOp::create(b, loc, inside, value, padding);
        SmallVector<Value> position;
        for (AffineExpr expr : map.getResults())
          position.push_back(affine::AffineApplyOp::create(
              b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
        return {tensor::InsertOp::create(b, loc, value, args[0], position)};
      });
  return nest.results[0];
}

/// Packs \p values (`bits`-bit MX codes or E8M0 scales whose innermost
/// dimension counts values) into \p bytes (i8, the same shape with the
/// innermost dimension counting bytes), one packCodes group at a time.
static Value packToBytes(OpBuilder &b, Location loc, Value values, Value bytes,
                         int64_t bits) {
  int64_t groupCodes = getGroupCodes(bits);
  int64_t groupBytes = groupCodes * bits / 8;
  Type codeType = b.getIntegerType(bits);
  Type i8 = b.getI8Type();
  SmallVector<Value> ubs =
      getValueOrCreateConstantIndexOp(b, loc, getSizes(b, loc, bytes));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(ubs.size(), zero), steps(ubs.size(), one);
  steps.back() = arith::ConstantIndexOp::create(b, loc, groupBytes);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{bytes},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        SmallVector<Value> at(ivs);
        Value byte = ivs.back();
        // The group's first code: byte / groupBytes * groupCodes.
        Value first = affine::AffineApplyOp::create(
            b, loc,
            AffineMap::get(
                1, 0, b.getAffineDimExpr(0).floorDiv(groupBytes) * groupCodes),
            byte);
        SmallVector<Value> codes;
        for (int64_t j = 0; j < groupCodes; ++j) {
          at.back() = arith::AddIOp::create(
              b, loc, first, arith::ConstantIndexOp::create(b, loc, j));
          Value code = tensor::ExtractOp::create(b, loc, values, at);
          code = arith::BitcastOp::create(b, loc, codeType, code);
          if (bits < 8)
            code = arith::ExtUIOp::create(b, loc, i8, code);
          codes.push_back(code);
        }
        Value result = args[0];
        for (auto [j, packed] :
             llvm::enumerate(packCodes(b, loc, codes, bits))) {
          at.back() = arith::AddIOp::create(
              b, loc, byte, arith::ConstantIndexOp::create(b, loc, j));
          result = tensor::InsertOp::create(b, loc, packed, result, at);
        }
        return {result};
      });
  return nest.results[0];
}

struct QuantizeIntoLowering : public OpRewritePattern<QuantizeIntoOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeIntoOp op,
                                PatternRewriter &rewriter) const override {
    unsigned numElements = op.getElements().size();
    unsigned numDests = op.getDpsInits().size();
    SmallVector<SmallVector<QuantizeIntoOp::DomainCover>> covers;
    for (unsigned index = 0; index < numDests; ++index) {
      FailureOr<SmallVector<QuantizeIntoOp::DomainCover>> cover =
          op.getDomainCovers(index);
      if (failed(cover))
        return rewriter.notifyMatchFailure(op, "invalid destination map");
      covers.push_back(std::move(*cover));
    }
    Location loc = op.getLoc();
    Value input = op.getInput();
    if (auto memref = dyn_cast<MemRefType>(input.getType()))
      input = bufferization::ToTensorOp::create(
          rewriter, loc,
          RankedTensorType::get(memref.getShape(), memref.getElementType()),
          input, /*restrict=*/true);
    auto inputType = cast<RankedTensorType>(input.getType());
    auto elementType = cast<FloatType>(op.getElementType());
    auto scaleType = Float8E8M0FNUType::get(op.getContext());
    int64_t axis = op.getAxis();
    SmallVector<int64_t> scaleShape(inputType.getShape());
    if (ShapedType::isStatic(scaleShape[axis]))
      scaleShape[axis] /= kBlockSize;
    RowGather gather;
    if (Value ids = op.getIds()) {
      if (auto memref = dyn_cast<MemRefType>(ids.getType()))
        ids = bufferization::ToTensorOp::create(
            rewriter, loc,
            RankedTensorType::get(memref.getShape(), memref.getElementType()),
            ids, /*restrict=*/true);
      gather = {ids, int64_t(*op.getDivisor())};
    }
    auto quantize = QuantizeOp::create(
        rewriter, loc, RankedTensorType::get(inputType.getShape(), elementType),
        RankedTensorType::get(scaleShape, scaleType), input,
        rewriter.getI64IntegerAttr(axis), op.getScaleAttr(),
        op.getRoundingAttr());
    Value codeZero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(elementType, 0.0));

    SmallVector<Value> results;
    for (auto [index, dest] : llvm::enumerate(op.getDpsInits())) {
      bool isElements = index < numElements;
      auto valueType =
          cast<FloatType>(isElements ? Type(elementType) : Type(scaleType));
      Value padding = codeZero;
      if (!isElements) {
        APInt byte(8, uint64_t(op.getScalePadding()[index - numElements]));
        padding = arith::ConstantOp::create(
            rewriter, loc,
            FloatAttr::get(scaleType,
                           APFloat(scaleType.getFloatSemantics(), byte)));
      }
      // The destination in values: i8 bytes count `8 / bits` values each
      // along the innermost dimension.
      auto destType = cast<ShapedType>(dest.getType());
      bool isBytes = destType.getElementType().isInteger(8);
      bool isTensor = isa<RankedTensorType>(destType);
      SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, dest);
      int64_t bits = valueType.getWidth();
      AffineExpr size = rewriter.getAffineDimExpr(0);
      if (isBytes && bits < 8)
        sizes.back() = affine::makeComposedFoldedAffineApply(
            rewriter, loc, (size * 8).floorDiv(bits), {sizes.back()});
      Value values =
          isTensor && !isBytes
              ? dest
              : tensor::EmptyOp::create(rewriter, loc, sizes, valueType)
                    .getResult();
      SmallVector<OpFoldResult> domain;
      for (QuantizeIntoOp::DomainCover cover : covers[index])
        domain.push_back(affine::makeComposedFoldedAffineApply(
            rewriter, loc, size * cover.tile, {sizes[cover.result]}));
      Value filled =
          scatter(rewriter, loc,
                  isElements ? quantize.getElements() : quantize.getScales(),
                  values, domain, op.getDestinationMap(index), padding, gather);
      if (isBytes) {
        Value bytes =
            isTensor ? dest
                     : tensor::EmptyOp::create(rewriter, loc,
                                               getSizes(rewriter, loc, dest),
                                               rewriter.getI8Type())
                           .getResult();
        filled = packToBytes(rewriter, loc, filled, bytes, bits);
      }
      if (isTensor) {
        results.push_back(filled);
        continue;
      }
      bufferization::MaterializeInDestinationOp::create(
          rewriter, loc, TypeRange(), filled, dest, /*restrict=*/true,
          /*writable=*/true);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::mx::detail::populateQuantizeIntoLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<QuantizeIntoLowering>(patterns.getContext());
}
