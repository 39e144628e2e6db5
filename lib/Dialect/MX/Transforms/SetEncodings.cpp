//===- SetEncodings.cpp - mx-set-encodings --------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXSETENCODINGS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

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
    for (ScaledContractionOp op : ops)
      if (failed(encode(op)))
        return signalPassFailure();
  }

  LogicalResult encode(ScaledContractionOp op) {
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    if (onlyStatic && llvm::any_of(sizes, ShapedType::isDynamic))
      return success();
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
    auto encodedType = [&](Value value, OperandRole role) {
      auto type = cast<RankedTensorType>(value.getType());
      return RankedTensorType::get(type.getShape(), type.getElementType(),
                                   encodingFor(role));
    };

    OpBuilder b(op);
    Location loc = op.getLoc();
    std::pair<OpOperand *, OperandRole> operands[] = {
        {&op.getLhsMutable(), OperandRole::lhs},
        {&op.getRhsMutable(), OperandRole::rhs},
        {&op.getLhsScalesMutable(), OperandRole::lhs_scales},
        {&op.getRhsScalesMutable(), OperandRole::rhs_scales},
        {&op.getAccMutable(), OperandRole::result}};
    for (auto [operand, role] : operands) {
      Value value = operand->get();
      operand->set(
          SetEncodingOp::create(b, loc, encodedType(value, role), value));
    }

    // Dynamic result sizes come from the plain accumulator.
    Value acc = cast<SetEncodingOp>(op.getAcc().getDefiningOp()).getSource();
    RankedTensorType plainType = cast<RankedTensorType>(acc.getType());
    SmallVector<Value> dynamicDims;
    for (int64_t d = 0; d < plainType.getRank(); ++d)
      if (plainType.isDynamicDim(d))
        dynamicDims.push_back(tensor::DimOp::create(b, loc, acc, d));

    Value result = op.getResult();
    Type plainResultType = result.getType();
    result.setType(encodedType(result, OperandRole::result));
    b.setInsertionPointAfter(op);
    auto unset =
        UnsetEncodingOp::create(b, loc, plainResultType, result, dynamicDims);
    result.replaceAllUsesExcept(unset.getResult(), unset);
    op->removeAttr(MXDialect::kLayoutAttrName);
    return success();
  }
};
} // namespace
