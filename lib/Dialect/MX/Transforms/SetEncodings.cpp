//===- SetEncodings.cpp - mx-set-encodings --------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXSETENCODINGS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

/// Wraps `value` in an mx.set_encoding of `encoding`.
static Value setEncoding(OpBuilder &b, Location loc, Value value,
                         EncodingAttr encoding) {
  auto type = cast<RankedTensorType>(value.getType());
  return SetEncodingOp::create(
      b, loc,
      RankedTensorType::get(type.getShape(), type.getElementType(), encoding),
      value);
}

FailureOr<UnsetEncodingOp> mx::setEncodings(RewriterBase &rewriter,
                                            ScaledContractionOp op,
                                            bool onlyStatic) {
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  if (onlyStatic && llvm::any_of(sizes, ShapedType::isDynamic))
    return UnsetEncodingOp();
  Attribute layout = op->getAttr(MXDialect::kLayoutAttrName);
  if (layout && !isa<TiledLayoutAttrInterface>(layout))
    return op.emitOpError()
           << "'" << MXDialect::kLayoutAttrName
           << "' must be a data-tiled layout (TiledLayoutAttrInterface), "
              "got "
           << layout;

  MLIRContext *ctx = op.getContext();
  SmallVector<Type> elementTypes = op.getElementTypes();
  auto encodingFor = [&](OperandRole role) {
    return EncodingAttr::get(ctx, role, elementTypes, op.getIndexingMaps(),
                             sizes, layout);
  };

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  std::pair<OpOperand *, OperandRole> operands[] = {
      {&op.getLhsMutable(), OperandRole::lhs},
      {&op.getRhsMutable(), OperandRole::rhs},
      {&op.getLhsScalesMutable(), OperandRole::lhs_scales},
      {&op.getRhsScalesMutable(), OperandRole::rhs_scales},
      {&op.getAccMutable(), OperandRole::result}};
  SmallVector<Value> encoded;
  for (auto [operand, role] : operands)
    encoded.push_back(
        setEncoding(rewriter, loc, operand->get(), encodingFor(role)));

  // Dynamic result sizes come from the plain accumulator.
  Value acc = op.getAcc();
  RankedTensorType plainType = cast<RankedTensorType>(acc.getType());
  SmallVector<Value> dynamicDims;
  for (int64_t d = 0; d < plainType.getRank(); ++d)
    if (plainType.isDynamicDim(d))
      dynamicDims.push_back(tensor::DimOp::create(rewriter, loc, acc, d));

  Value result = op.getResult();
  Type plainResultType = result.getType();
  rewriter.modifyOpInPlace(op, [&] {
    for (auto [operand, value] :
         llvm::zip_equal(llvm::make_first_range(operands), encoded))
      operand->set(value);
    auto type = cast<RankedTensorType>(result.getType());
    result.setType(RankedTensorType::get(type.getShape(), type.getElementType(),
                                         encodingFor(OperandRole::result)));
    op->removeAttr(MXDialect::kLayoutAttrName);
  });
  rewriter.setInsertionPointAfter(op);
  auto unset = UnsetEncodingOp::create(rewriter, loc, plainResultType, result,
                                       dynamicDims);
  rewriter.replaceAllUsesExcept(result, unset.getResult(), unset);
  return unset;
}

namespace {
struct SetEncodingsPass
    : public mx::impl::MXSetEncodingsBase<SetEncodingsPass> {
  using Base::Base;

  void runOnOperation() override {
    // mx.grouped_scaled_contraction needs no encodings: its rows are
    // gathered into tiles by mx-materialize-encodings directly.
    SmallVector<ScaledContractionOp> ops;
    getOperation()->walk([&](ScaledContractionOp op) {
      if (!op.hasEncodedOperands())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (ScaledContractionOp op : ops)
      if (failed(setEncodings(rewriter, op, onlyStatic)))
        return signalPassFailure();
  }
};
} // namespace
