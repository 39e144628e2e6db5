//===- TargetOptionPass.h - passes with a `target` option -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_TARGETOPTIONPASS_H
#define MX_DIALECT_MX_TRANSFORMS_TARGETOPTIONPASS_H

#include "mx/Dialect/MX/IR/MXOps.h"

namespace mlir::mx {

/// A pass (`PassBase`, its generated base class) with a `target` option:
/// the option is parsed once, in `initialize`, and `getTarget` finds an op's
/// target, the `mx.target` of its nearest enclosing op, else the option's.
template <typename PassBase> class TargetOptionPass : public PassBase {
public:
  using PassBase::PassBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    FailureOr<LayoutResolverAttrInterface> parsed =
        parseTargetOption(ctx, this->target, this->getArgument());
    optionTarget = succeeded(parsed) ? *parsed : nullptr;
    return failure(failed(parsed));
  }

protected:
  /// The target of `op` (null if it has none and the option is empty).
  LayoutResolverAttrInterface getTarget(Operation *op) const {
    return getEnclosingTarget(op, optionTarget);
  }

private:
  /// The target given by the `target` option, if any.
  LayoutResolverAttrInterface optionTarget;
};

} // namespace mlir::mx

#endif // MX_DIALECT_MX_TRANSFORMS_TARGETOPTIONPASS_H
