//===- MaterializeEncodings.cpp - mx-materialize-encodings ----------------===//
//
// Part of the mx project.
//
// Every encoded tensor gets the layout its encoding resolves to (the pinned
// layout, or the target resolver's choice), independently of the other ops,
// so producers and consumers of the same encoding always agree.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Relayout.h"

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/UKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXMATERIALIZEENCODINGS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
struct MaterializeEncodingsPass
    : public mx::impl::MXMaterializeEncodingsBase<MaterializeEncodingsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (target != "gfx950")
      return emitError(UnknownLoc::get(ctx))
             << "mx-materialize-encodings: unknown target '" << target
             << "' (available: gfx950)";
    if (!intrinsic.empty()) {
      if (intrinsic == "16x16x128")
        options.intrinsic = ScaledMMAIntrinsic::mfma_scale_16x16x128;
      else if (intrinsic == "32x32x64")
        options.intrinsic = ScaledMMAIntrinsic::mfma_scale_32x32x64;
      else
        return emitError(UnknownLoc::get(ctx))
               << "mx-materialize-encodings: unknown intrinsic '" << intrinsic
               << "' (available: 16x16x128, 32x32x64)";
    }
    for (auto [name, value] : {std::make_pair("intrinsics-m", &intrinsicsM),
                               std::make_pair("intrinsics-n", &intrinsicsN),
                               std::make_pair("intrinsics-k", &intrinsicsK),
                               std::make_pair("subgroups-m", &subgroupsM),
                               std::make_pair("subgroups-n", &subgroupsN)})
      if (*value < 0)
        return emitError(UnknownLoc::get(ctx))
               << "mx-materialize-encodings: " << name
               << " must be non-negative, got " << value->getValue();
    options.intrinsicsM = intrinsicsM;
    options.intrinsicsN = intrinsicsN;
    options.intrinsicsK = intrinsicsK;
    options.subgroupsM = subgroupsM;
    options.subgroupsN = subgroupsN;
    options.requireUKernel = requireUKernel;
    return success();
  }

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
    ArrayRef<int64_t> sizes = encoding.getIterationSizes();
    ArrayRef<Type> types = encoding.getElementTypes();
    DataTiledLayoutAttr layout =
        gfx950::resolveLayout(op->getContext(), types[0], types[1],
                              sizes[dims->m[0]], sizes[dims->n[0]], options);
    if (options.requireUKernel) {
      gfx950::UKernelSelection selection = gfx950::selectUKernel(layout);
      if (!selection.name) {
        InFlightDiagnostic diag =
            op->emitOpError()
            << "no gfx950 ukernel serves " << types[0] << " x " << types[1]
            << " with these options (require-ukernel); the closest layout is "
            << layout;
        diag.attachNote() << "ukernels rejected it:\n" << selection.rejections;
        return diag;
      }
    }
    return cast<TiledLayoutAttrInterface>(layout);
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
        mapping.map(contraction.getResult(), tiled.getResult());
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

  gfx950::ResolverOptions options;
};
} // namespace
