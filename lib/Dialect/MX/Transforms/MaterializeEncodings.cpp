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
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXMATERIALIZEENCODINGS
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

FailureOr<TiledLayoutAttrInterface>
mx::resolveEncodingLayout(Operation *op, EncodingAttr encoding,
                          LayoutResolverAttrInterface target) {
  if (Attribute pinned = encoding.getLayout())
    return cast<TiledLayoutAttrInterface>(pinned);
  SmallVector<AffineMap> maps = llvm::to_vector(
      encoding.getIndexingMaps().getAsValueRange<AffineMapAttr>());
  FailureOr<ScaledContractionDims> dims = inferScaledContractionDims(op, maps);
  if (failed(dims))
    return failure();
  if (dims->m.size() != 1 || dims->n.size() != 1)
    return op->emitOpError()
           << "data tiling needs exactly one M and one N dimension, got "
           << dims->m.size() << " and " << dims->n.size();
  if (!target)
    return op->emitOpError()
           << "no target to resolve its encoding: give "
              "mx-materialize-encodings a target option (e.g. target="
           << op->getContext()
                  ->getOrLoadDialect<MXDialect>()
                  ->getTargetExample()
           << ") or put an '" << MXDialect::kTargetAttrName
           << "' attribute on an enclosing op";
  return target.resolveLayout(op, encoding, *dims);
}

/// The encoding of a ranked tensor type, if any.
static std::optional<EncodingAttr> getEncoding(Type type) {
  if (auto encoding = dyn_cast_or_null<EncodingAttr>(
          cast<RankedTensorType>(type).getEncoding()))
    return encoding;
  return std::nullopt;
}

namespace {
/// Materializes the encodings under one op: the data-tiled value of every
/// encoded value is recorded as the ops that use it are rewritten, in IR
/// order; the rewritten ops are erased at the end.
class EncodingMaterializer {
public:
  EncodingMaterializer(RewriterBase &rewriter,
                       LayoutResolverAttrInterface defaultTarget,
                       const MaterializeEncodingsOptions &options)
      : rewriter(rewriter), defaultTarget(defaultTarget), options(options) {}

  LogicalResult run(Operation *root);

private:
  LayoutResolverAttrInterface getTarget(Operation *op) const {
    return getEnclosingTarget(op, defaultTarget);
  }
  FailureOr<RelayoutInfo> getInfo(Operation *op, EncodingAttr encoding) {
    FailureOr<TiledLayoutAttrInterface> layout =
        resolveEncodingLayout(op, encoding, getTarget(op));
    if (failed(layout))
      return failure();
    return getRelayoutInfo(encoding, *layout);
  }
  /// Whether the accumulator `set` encodes stays in the user's layout.
  bool keepsUserLayout(SetEncodingOp set, const RelayoutInfo &info) const;
  LogicalResult materialize(SetEncodingOp set);
  LogicalResult materialize(UnsetEncodingOp unset);
  LogicalResult materialize(ScaledContractionOp contraction);
  /// Replaces `op` by `replacement` (a grouped or routed contraction's).
  LogicalResult replaceWith(Operation *op, FailureOr<Value> replacement);

  RewriterBase &rewriter;
  LayoutResolverAttrInterface defaultTarget;
  const MaterializeEncodingsOptions &options;
  /// Encoded value -> its data-tiled value.
  IRMapping mapping;
  /// Accumulators and results kept in the user's layout.
  llvm::SmallPtrSet<Value, 4> userLayout;
  /// The rewritten ops, erased (last first) at the end.
  SmallVector<Operation *> toErase;
};
} // namespace

bool EncodingMaterializer::keepsUserLayout(SetEncodingOp set,
                                           const RelayoutInfo &info) const {
  // An accumulator already in the tiled order [batch.., m, n] (the order
  // mx.tiled_scaled_mma reads and writes; not, e.g., a transposed result)
  // that only contractions use stays as it is.
  return options.userLayoutResults &&
         set.getEncoding().getRole() == OperandRole::result &&
         isIdentityPermutation(info.outerDimsPerm) &&
         llvm::all_of(set->getUses(), [](OpOperand &use) {
           auto contraction = dyn_cast<ScaledContractionOp>(use.getOwner());
           return contraction &&
                  use.getOperandNumber() ==
                      contraction.getAccMutable().getOperandNumber();
         });
}

LogicalResult EncodingMaterializer::materialize(SetEncodingOp set) {
  FailureOr<RelayoutInfo> info = getInfo(set, set.getEncoding());
  if (failed(info))
    return failure();
  toErase.push_back(set);
  if (keepsUserLayout(set, *info)) {
    mapping.map(set.getResult(), set.getSource());
    userLayout.insert(set.getSource());
    return success();
  }
  mapping.map(set.getResult(),
              packAndSwizzle(rewriter, set.getLoc(), set.getSource(), *info));
  return success();
}

LogicalResult EncodingMaterializer::materialize(UnsetEncodingOp unset) {
  Value tiled = mapping.lookupOrNull(unset.getSource());
  if (!tiled)
    return unset->emitOpError(
        "source is not produced by a materialized encoding");
  if (userLayout.contains(tiled)) {
    Value result = tiled;
    if (result.getType() != unset.getResult().getType())
      result = tensor::CastOp::create(rewriter, unset.getLoc(),
                                      unset.getResult().getType(), tiled);
    rewriter.replaceAllUsesWith(unset.getResult(), result);
    toErase.push_back(unset);
    return success();
  }
  FailureOr<RelayoutInfo> info = getInfo(unset, unset.getEncoding());
  if (failed(info))
    return failure();
  rewriter.replaceAllUsesWith(
      unset.getResult(),
      unswizzleAndUnpack(rewriter, unset.getLoc(), tiled, *info,
                         unset.getResult().getType(), unset.getResultDims()));
  toErase.push_back(unset);
  return success();
}

LogicalResult
EncodingMaterializer::materialize(ScaledContractionOp contraction) {
  std::optional<EncodingAttr> encoding =
      getEncoding(contraction.getResult().getType());
  if (!encoding)
    return success();
  auto tiled = [&](Value operand) { return mapping.lookupOrNull(operand); };
  Value lhs = tiled(contraction.getLhs()), rhs = tiled(contraction.getRhs());
  Value lhsScales = tiled(contraction.getLhsScales());
  Value rhsScales = tiled(contraction.getRhsScales());
  Value acc = tiled(contraction.getAcc());
  if (!lhs || !rhs || !lhsScales || !rhsScales || !acc)
    return contraction->emitOpError(
        "data tiling needs all five operands encoded by mx.set_encoding");
  FailureOr<TiledLayoutAttrInterface> layout =
      resolveEncodingLayout(contraction, *encoding, getTarget(contraction));
  if (failed(layout))
    return failure();
  auto tiledOp =
      TiledScaledMMAOp::create(rewriter, contraction.getLoc(), acc.getType(),
                               lhs, rhs, lhsScales, rhsScales, acc, *layout);
  if (Attribute bound = contraction->getAttr(MXDialect::kMBoundAttrName))
    tiledOp->setAttr(MXDialect::kMBoundAttrName, bound);
  mapping.map(contraction.getResult(), tiledOp.getResult());
  if (userLayout.contains(acc))
    userLayout.insert(tiledOp.getResult());
  toErase.push_back(contraction);
  return success();
}

LogicalResult EncodingMaterializer::replaceWith(Operation *op,
                                                FailureOr<Value> replacement) {
  if (failed(replacement))
    return failure();
  rewriter.replaceAllUsesWith(op->getResult(0), *replacement);
  toErase.push_back(op);
  return success();
}

LogicalResult EncodingMaterializer::run(Operation *root) {
  OpBuilder::InsertionGuard guard(rewriter);
  WalkResult result = root->walk([&](Operation *op) {
    rewriter.setInsertionPoint(op);
    LogicalResult done =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case<SetEncodingOp, UnsetEncodingOp, ScaledContractionOp>(
                [&](auto typed) { return materialize(typed); })
            .Case([&](RoutedScaledContractionOp routed) {
              return replaceWith(
                  routed, materializeRoutedContraction(rewriter, routed,
                                                       getTarget(routed)));
            })
            .Case([&](GroupedScaledContractionOp grouped) {
              return replaceWith(
                  grouped, materializeGroupedContraction(rewriter, grouped,
                                                         getTarget(grouped)));
            })
            .Default([](Operation *) { return success(); });
    return failed(done) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  for (Operation *op : llvm::reverse(toErase)) {
    if (!op->use_empty())
      return op->emitOpError("encoded result is used by an op that cannot be "
                             "data tiled");
    rewriter.eraseOp(op);
  }
  return success();
}

LogicalResult
mx::materializeEncodings(RewriterBase &rewriter, Operation *root,
                         LayoutResolverAttrInterface defaultTarget,
                         const MaterializeEncodingsOptions &options) {
  return EncodingMaterializer(rewriter, defaultTarget, options).run(root);
}

namespace {
struct MaterializeEncodingsPass
    : public TargetOptionPass<
          mx::impl::MXMaterializeEncodingsBase<MaterializeEncodingsPass>> {
  using TargetOptionPass::TargetOptionPass;

  void runOnOperation() override {
    MaterializeEncodingsOptions options;
    options.userLayoutResults = userLayoutResults;
    IRRewriter rewriter(&getContext());
    // The `target` option; each op under the root finds its own target
    // (its nearest enclosing `mx.target`, else this one).
    if (failed(materializeEncodings(rewriter, getOperation(),
                                    getTarget(nullptr), options)))
      return signalPassFailure();
  }
};
} // namespace
