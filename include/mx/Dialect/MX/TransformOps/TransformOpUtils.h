//===- TransformOpUtils.h - helpers of the transform.mx.* ops ---*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What every transform.mx.* op (core and targets') does the same way: the
// silenceable failure for a payload op of the wrong kind, the effects of an
// op that rewrites what is under its payload ops, and applying a stage's
// function to each payload op with its errors as a definite failure.
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMOPS_TRANSFORMOPUTILS_H
#define MX_DIALECT_MX_TRANSFORMOPS_TRANSFORMOPUTILS_H

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace mlir::mx {

/// The silenceable failure of `transformOp` for a payload op that is not an
/// `OpTy`, naming both.
template <typename OpTy>
DiagnosedSilenceableFailure emitWrongPayload(Operation *transformOp,
                                             Operation *payload) {
  DiagnosedSilenceableFailure diag = emitSilenceableFailure(transformOp)
                                     << "expected '" << OpTy::getOperationName()
                                     << "' payload, got '" << payload->getName()
                                     << "'";
  diag.attachNote(payload->getLoc()) << "payload op";
  return diag;
}

/// The effects of an op that only reads its `target` handle and rewrites
/// what is under the payload ops.
inline void getRewriteUnderEffects(
    OpOperand &target,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(target, effects);
  transform::modifiesPayload(effects);
}

/// Calls `rewrite` (returning LogicalResult) on each payload op of
/// `handle`, which must be an `OpTy` (any op for `Operation *`): another op
/// is a silenceable failure, a failed rewrite (which emitted its errors) a
/// definite one saying "<what> failed (see the errors above)".
template <typename OpTy, typename Fn>
DiagnosedSilenceableFailure
applyToEachPayload(Operation *transformOp, transform::TransformState &state,
                   Value handle, StringRef what, Fn rewrite) {
  for (Operation *payload : state.getPayloadOps(handle)) {
    LogicalResult result = success();
    if constexpr (std::is_same_v<OpTy, Operation *>) {
      result = rewrite(payload);
    } else {
      auto op = dyn_cast<OpTy>(payload);
      if (!op)
        return emitWrongPayload<OpTy>(transformOp, payload);
      result = rewrite(op);
    }
    if (failed(result))
      return emitDefiniteFailure(transformOp,
                                 what + " failed (see the errors above)");
  }
  return DiagnosedSilenceableFailure::success();
}

/// The op that replaces a payload op: `replacement`'s defining op for a
/// value, the op itself for an op; null for a null one.
template <typename T> Operation *getReplacementOp(T replacement) {
  if constexpr (std::is_same_v<T, Value>)
    return replacement ? replacement.getDefiningOp() : nullptr;
  else
    return replacement ? replacement.getOperation() : nullptr;
}

/// Calls `rewrite` (returning FailureOr of the replacement: an op or a
/// value, null when the op is left unchanged) on `payload`, which must be
/// an `OpTy`, with the insertion point before it; pushes the replacement
/// (or, left unchanged, `payload` itself when `keepUnchanged`, else
/// nothing) to `results`. Another op is a silenceable failure, a failed
/// rewrite (which emitted its errors) a definite one saying "<what> failed
/// (see the errors above)".
template <typename OpTy, typename Fn>
DiagnosedSilenceableFailure
rewritePayload(Operation *transformOp, RewriterBase &rewriter,
               Operation *payload, transform::ApplyToEachResultList &results,
               bool keepUnchanged, StringRef what, Fn rewrite) {
  auto op = dyn_cast<OpTy>(payload);
  if (!op)
    return emitWrongPayload<OpTy>(transformOp, payload);
  rewriter.setInsertionPoint(op);
  auto result = rewrite(op);
  if (failed(result))
    return emitDefiniteFailure(transformOp,
                               what + " failed (see the errors above)");
  Operation *replacement = getReplacementOp(*result);
  results.push_back(replacement     ? replacement
                    : keepUnchanged ? payload
                                    : nullptr);
  return DiagnosedSilenceableFailure::success();
}

} // namespace mlir::mx

#endif // MX_DIALECT_MX_TRANSFORMOPS_TRANSFORMOPUTILS_H
