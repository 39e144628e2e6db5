//===- QuantizeInto.cpp - mx.quantize_into to mx.quantize + loops ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lowers mx.quantize_into on tensors with MX-typed destinations for the host
// CPU path: the quantization is an mx.quantize of the input (lowered by
// QuantizeLowering like any other), and each destination is filled by a loop
// nest over its padded logical domain that extracts the code or scale at
// every point (element code 0 or the destination's scale padding outside the
// input) and inserts it at the map's position. Destinations of i8 bytes and
// memrefs are left to the pipeline's legality check, which names the op.
//
//===----------------------------------------------------------------------===//

#include "MoEContractions.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mx;

namespace {

/// Fills \p dest with \p source (a code or scale tensor in the logical index
/// space) over the padded \p domain through \p map, \p padding outside
/// \p source.
static Value scatter(OpBuilder &b, Location loc, Value source, Value dest,
                     ArrayRef<int64_t> domain, AffineMap map, Value padding) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(domain.size(), zero), steps(domain.size(), one), ubs;
  for (int64_t size : domain)
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, size));
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{dest},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        // Inside the input: every index below the logical size; outside,
        // the index 0 is read and the padding taken instead.
        Value inside;
        SmallVector<Value> indices;
        for (auto [d, iv] : llvm::enumerate(ivs)) {
          Value size =
              arith::ConstantIndexOp::create(b, loc, sourceType.getDimSize(d));
          Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              iv, size);
          inside =
              inside ? arith::AndIOp::create(b, loc, inside, below) : below;
          indices.push_back(iv);
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

struct QuantizeIntoLowering : public OpRewritePattern<QuantizeIntoOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeIntoOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "memref destinations");
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    Type elementType = op.getElementType();
    Type scaleType = Float8E8M0FNUType::get(op.getContext());
    unsigned numElements = op.getElements().size();
    SmallVector<SmallVector<int64_t>> domains;
    for (auto [index, init] : llvm::enumerate(op.getDpsInits())) {
      auto type = cast<RankedTensorType>(init.getType());
      if (type.getElementType() !=
          (index < numElements ? elementType : scaleType))
        return rewriter.notifyMatchFailure(op, "byte destinations");
      FailureOr<SmallVector<int64_t>> domain = op.getPaddedDomain(index);
      if (!inputType.hasStaticShape() || !type.hasStaticShape() ||
          failed(domain))
        return rewriter.notifyMatchFailure(op, "dynamic shapes");
      domains.push_back(*domain);
    }
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    SmallVector<int64_t> scaleShape(inputType.getShape());
    scaleShape[axis] /= 32;
    auto quantize = QuantizeOp::create(
        rewriter, loc, RankedTensorType::get(inputType.getShape(), elementType),
        RankedTensorType::get(scaleShape, scaleType), op.getInput(),
        rewriter.getI64IntegerAttr(axis), op.getScaleAttr(),
        op.getRoundingAttr());
    auto floatType = cast<FloatType>(elementType);
    Value codeZero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(floatType, 0.0));
    SmallVector<Value> results;
    for (auto [index, init] : llvm::enumerate(op.getDpsInits())) {
      bool isElements = index < numElements;
      Value padding = codeZero;
      if (!isElements) {
        APInt byte(8, uint64_t(op.getScalePadding()[index - numElements]));
        padding = arith::ConstantOp::create(
            rewriter, loc,
            FloatAttr::get(
                scaleType,
                APFloat(cast<FloatType>(scaleType).getFloatSemantics(), byte)));
      }
      results.push_back(
          scatter(rewriter, loc,
                  isElements ? quantize.getElements() : quantize.getScales(),
                  init, domains[index], op.getDestinationMap(index), padding));
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
