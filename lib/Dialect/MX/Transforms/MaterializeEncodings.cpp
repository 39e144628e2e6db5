//===- MaterializeEncodings.cpp - mx-materialize-encodings ----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every encoded tensor gets the layout its encoding resolves to (the pinned
// layout, or the choice of the target's LayoutResolverAttrInterface),
// independently of the other ops, so producers and consumers of the same
// encoding always agree. The pass never names a target: the resolver is an
// attribute found on the IR or parsed from the `target` option.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Relayout.h"
#include "mx/Dialect/MX/Transforms/TargetOptionPass.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXMATERIALIZEENCODINGS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
struct MaterializeEncodingsPass
    : public TargetOptionPass<
          mx::impl::MXMaterializeEncodingsBase<MaterializeEncodingsPass>> {
  using TargetOptionPass::TargetOptionPass;

  /// The layout an encoding resolves to.
  FailureOr<TiledLayoutAttrInterface> resolve(Operation *op,
                                              EncodingAttr encoding) {
    if (Attribute pinned = encoding.getLayout())
      return cast<TiledLayoutAttrInterface>(pinned);
    SmallVector<AffineMap> maps = llvm::to_vector(
        encoding.getIndexingMaps().getAsValueRange<AffineMapAttr>());
    FailureOr<ScaledContractionDims> dims =
        inferScaledContractionDims(op, maps);
    if (failed(dims))
      return failure();
    if (dims->m.size() != 1 || dims->n.size() != 1)
      return op->emitOpError()
             << "data tiling needs exactly one M and one N dimension, got "
             << dims->m.size() << " and " << dims->n.size();
    LayoutResolverAttrInterface resolver = getTarget(op);
    if (!resolver)
      return op->emitOpError()
             << "no target to resolve its encoding: give "
                "mx-materialize-encodings a target option (e.g. "
                "target=#mx_gfx950.target) or put an '"
             << MXDialect::kTargetAttrName << "' attribute on an enclosing op";
    return resolver.resolveLayout(op, encoding, *dims);
  }

  FailureOr<RelayoutInfo> getInfo(Operation *op, EncodingAttr encoding) {
    FailureOr<TiledLayoutAttrInterface> layout = resolve(op, encoding);
    if (failed(layout))
      return failure();
    return getRelayoutInfo(encoding, *layout);
  }

  void runOnOperation() override {
    IRMapping mapping;
    SmallVector<Operation *> toErase;
    WalkResult result = getOperation()->walk([&](Operation *op) {
      OpBuilder b(op);
      if (auto set = dyn_cast<SetEncodingOp>(op)) {
        FailureOr<RelayoutInfo> info = getInfo(op, set.getEncoding());
        if (failed(info))
          return WalkResult::interrupt();
        // An accumulator already in the tiled order [batch.., m, n] (the
        // order mx.tiled_scaled_mma reads and writes; not, e.g., a
        // transposed result) that only contractions use stays as it is.
        if (userLayoutResults &&
            set.getEncoding().getRole() == OperandRole::result &&
            isIdentityPermutation(info->outerDimsPerm) &&
            llvm::all_of(set->getUses(), [](OpOperand &use) {
              auto contraction = dyn_cast<ScaledContractionOp>(use.getOwner());
              return contraction && use.getOperandNumber() == 4;
            })) {
          mapping.map(set.getResult(), set.getSource());
          userLayout.insert(set.getSource());
          toErase.push_back(op);
          return WalkResult::advance();
        }
        mapping.map(set.getResult(),
                    packAndSwizzle(b, op->getLoc(), set.getSource(), *info));
        toErase.push_back(op);
        return WalkResult::advance();
      }
      if (auto unset = dyn_cast<UnsetEncodingOp>(op)) {
        Value tiled = mapping.lookupOrNull(unset.getSource());
        if (!tiled) {
          op->emitOpError("source is not produced by a materialized encoding");
          return WalkResult::interrupt();
        }
        if (userLayout.contains(tiled)) {
          Value result = tiled;
          if (result.getType() != unset.getResult().getType())
            result = tensor::CastOp::create(b, op->getLoc(),
                                            unset.getResult().getType(), tiled);
          unset.replaceAllUsesWith(result);
          toErase.push_back(op);
          return WalkResult::advance();
        }
        FailureOr<RelayoutInfo> info = getInfo(op, unset.getEncoding());
        if (failed(info))
          return WalkResult::interrupt();
        unset.replaceAllUsesWith(unswizzleAndUnpack(
            b, op->getLoc(), tiled, *info, unset.getResult().getType(),
            unset.getResultDims()));
        toErase.push_back(op);
        return WalkResult::advance();
      }
      if (auto contraction = dyn_cast<ScaledContractionOp>(op)) {
        if (!getEncoding(contraction.getResult().getType()))
          return WalkResult::advance();
        SmallVector<Value> operands;
        for (Value operand : contraction->getOperands()) {
          Value tiled = mapping.lookupOrNull(operand);
          if (!tiled) {
            op->emitOpError("data tiling needs all five operands encoded by "
                            "mx.set_encoding");
            return WalkResult::interrupt();
          }
          operands.push_back(tiled);
        }
        auto encoding = *getEncoding(contraction.getResult().getType());
        FailureOr<TiledLayoutAttrInterface> layout = resolve(op, encoding);
        if (failed(layout))
          return WalkResult::interrupt();
        auto tiled = TiledScaledMMAOp::create(
            b, op->getLoc(), operands[4].getType(), operands[0], operands[1],
            operands[2], operands[3], operands[4], *layout);
        if (Attribute bound = op->getAttr(MXDialect::kMBoundAttrName))
          tiled->setAttr(MXDialect::kMBoundAttrName, bound);
        mapping.map(contraction.getResult(), tiled.getResult());
        if (userLayout.contains(operands[4]))
          userLayout.insert(tiled.getResult());
        toErase.push_back(op);
        return WalkResult::advance();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (Operation *op : llvm::reverse(toErase)) {
      if (!op->use_empty()) {
        op->emitOpError("encoded result is used by an op that cannot be data "
                        "tiled");
        return signalPassFailure();
      }
      op->erase();
    }
  }

  static std::optional<EncodingAttr> getEncoding(Type type) {
    if (auto encoding = dyn_cast_or_null<EncodingAttr>(
            cast<RankedTensorType>(type).getEncoding()))
      return encoding;
    return std::nullopt;
  }

  /// Accumulators and results kept in the user's layout.
  llvm::SmallPtrSet<Value, 4> userLayout;
};
} // namespace
