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

namespace {
/// Reads every operand, writes acc in place; the result is acc's buffer.
struct TiledScaledMMAOpInterface
    : public DstBufferizableOpInterfaceExternalModel<TiledScaledMMAOpInterface,
                                                     TiledScaledMMAOp> {
  /// A zero-started accumulator is only written.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &state) const {
    auto mma = cast<TiledScaledMMAOp>(op);
    return !(&opOperand == &mma.getAccMutable() && mma.getZeroAcc());
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto mma = cast<TiledScaledMMAOp>(op);
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    auto bufferized = TiledScaledMMAOp::create(
        rewriter, op->getLoc(), TypeRange{}, buffers[0], buffers[1], buffers[2],
        buffers[3], buffers[4], mma.getLayout(), mma.getZeroAcc(),
        ValueRange(buffers).drop_front(5), mma.getEpilogueMapsAttr(),
        mma.getEpilogue().size());
    for (auto [from, to] :
         llvm::zip_equal(mma.getEpilogue(), bufferized.getEpilogue()))
      rewriter.inlineRegionBefore(from, to, to.end());
    replaceOpWithBufferizedValues(rewriter, op, buffers[4]);
    return success();
  }
};
} // namespace

void mx::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, MXDialect *dialect) {
    TiledScaledMMAOp::attachInterface<TiledScaledMMAOpInterface>(*ctx);
  });
}
