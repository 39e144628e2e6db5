//===- BufferizableOpInterfaceImpl.cpp - mx bufferization -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/BufferizableOpInterfaceImpl.h"

#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::mx;

/// The buffers of all operands of `op`.
static FailureOr<SmallVector<Value>>
getOperandBuffers(Operation *op, RewriterBase &rewriter,
                  const BufferizationOptions &options,
                  BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  return buffers;
}

namespace {
/// Reads every operand, writes acc in place; the result is acc's buffer.
struct TiledScaledMMAOpInterface
    : public DstBufferizableOpInterfaceExternalModel<TiledScaledMMAOpInterface,
                                                     TiledScaledMMAOp> {
  /// A zero-started accumulator is only written (but for a grouped GEMM's,
  /// whose rows that no tile names keep their values).
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &state) const {
    auto mma = cast<TiledScaledMMAOp>(op);
    return !(&opOperand == &mma.getAccMutable() && mma.getZeroAcc() &&
             !mma.isGrouped());
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto mma = cast<TiledScaledMMAOp>(op);
    FailureOr<SmallVector<Value>> operandBuffers =
        getOperandBuffers(op, rewriter, options, state);
    if (failed(operandBuffers))
      return failure();
    SmallVector<Value> &buffers = *operandBuffers;
    rewriter.setInsertionPoint(op);
    auto buffer = [&](Value operand) -> Value {
      for (OpOperand &use : op->getOpOperands())
        if (use.get() == operand)
          return buffers[use.getOperandNumber()];
      return {};
    };
    SmallVector<Value> epilogueInputs =
        llvm::map_to_vector(mma.getEpilogueInputs(), buffer);
    Value tileGroups = mma.isGrouped() ? buffer(mma.getTileGroups()) : Value();
    Value rowIds = mma.getRowIds() ? buffer(mma.getRowIds()) : Value();
    auto bufferized = TiledScaledMMAOp::create(
        rewriter, op->getLoc(), TypeRange{}, buffers[0], buffers[1], buffers[2],
        buffers[3], buffers[4], tileGroups, rowIds, mma.getLayout(),
        mma.getZeroAcc(), mma.getZeroEmptyTiles(), epilogueInputs,
        mma.getEpilogueMapsAttr(), mma.getEpilogue().size());
    for (auto [from, to] :
         llvm::zip_equal(mma.getEpilogue(), bufferized.getEpilogue()))
      rewriter.inlineRegionBefore(from, to, to.end());
    replaceOpWithBufferizedValues(rewriter, op, buffers[4]);
    return success();
  }
};

/// Reads the input (and the ids), only writes the destinations; the results are
/// their buffers.
struct QuantizeIntoOpInterface
    : public DstBufferizableOpInterfaceExternalModel<QuantizeIntoOpInterface,
                                                     QuantizeIntoOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &state) const {
    auto quantize = cast<QuantizeIntoOp>(op);
    return &opOperand == &quantize.getInputMutable() ||
           opOperand.get() == quantize.getIds();
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto quantize = cast<QuantizeIntoOp>(op);
    FailureOr<SmallVector<Value>> operandBuffers =
        getOperandBuffers(op, rewriter, options, state);
    if (failed(operandBuffers))
      return failure();
    SmallVector<Value> &buffers = *operandBuffers;
    unsigned numElements = quantize.getElements().size();
    unsigned first = quantize.getIds() ? 2 : 1;
    ArrayRef<Value> all(buffers);
    ArrayRef<Value> dests = all.drop_front(first);
    ArrayRef<Value> elements = dests.take_front(numElements);
    ArrayRef<Value> scales = dests.drop_front(numElements);
    rewriter.setInsertionPoint(op);
    QuantizeIntoOp::create(
        rewriter, op->getLoc(), TypeRange{}, buffers[0],
        quantize.getIds() ? buffers[1] : Value(), elements, scales,
        quantize.getAxisAttr(), quantize.getScaleAttr(),
        quantize.getRoundingAttr(), quantize.getElementTypeAttr(),
        quantize.getElementMaps(), quantize.getScaleMaps(),
        quantize.getScalePaddingAttr(), quantize.getInConsumerAttr(),
        quantize.getDivisorAttr());
    replaceOpWithBufferizedValues(rewriter, op, dests);
    return success();
  }
};
} // namespace

void mx::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, MXDialect *dialect) {
    TiledScaledMMAOp::attachInterface<TiledScaledMMAOpInterface>(*ctx);
    QuantizeIntoOp::attachInterface<QuantizeIntoOpInterface>(*ctx);
  });
}
