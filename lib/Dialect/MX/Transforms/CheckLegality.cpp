//===- CheckLegality.cpp - mx-check-legality
//-------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The legality check that starts and ends every mx pipeline: an op the
// pipeline cannot lower is an error naming the op, the pipeline and the stage.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXCHECKLEGALITY
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

/// Returns the first MX element type among the types of \p op's operands
/// and results (scalars, vectors or shaped types), if any.
static Type getMXElementValueType(Operation *op) {
  auto find = [](TypeRange types) -> Type {
    for (Type type : types) {
      Type element = getElementTypeOrSelf(type);
      if (isMXElementType(element) || isa<Float8E8M0FNUType>(element))
        return element;
    }
    return nullptr;
  };
  if (Type type = find(op->getOperandTypes()))
    return type;
  return find(op->getResultTypes());
}

namespace {
struct CheckLegalityPass
    : public mx::impl::MXCheckLegalityBase<CheckLegalityPass> {
  using Base::Base;

  /// Why \p op is illegal, or an empty string.
  std::string getViolation(Operation *op) const {
    StringRef name = op->getName().getStringRef();
    StringRef dialect = op->getName().getDialectNamespace();
    if (llvm::is_contained(illegalOps, name))
      return "cannot be lowered by " + pipeline;
    if (llvm::is_contained(illegalDialects, dialect))
      return "belongs to the '" + dialect.str() + "' dialect, which " +
             pipeline + " does not take here";
    if (!legalDialects.empty() && dialect != "builtin" &&
        !llvm::is_contained(legalDialects, dialect))
      return "was not lowered by " + pipeline;
    if (mxElementComputations &&
        isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
        !isa<arith::ConstantOp, arith::SelectOp, arith::BitcastOp>(op)) {
      if (Type type = getMXElementValueType(op)) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "computes on " << type << " values outside mx ops, which "
           << pipeline << " cannot lower";
        return text;
      }
    }
    return "";
  }

  void runOnOperation() override {
    llvm::StringSet<> reported;
    bool failed = false;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == getOperation().getOperation())
        return WalkResult::advance();
      std::string why = getViolation(op);
      if (!why.empty() &&
          reported.insert(op->getName().getStringRef()).second) {
        InFlightDiagnostic diag = op->emitError()
                                  << pipeline << " (" << stage << "): '"
                                  << op->getName() << "' " << why;
        if (!hint.empty())
          diag.attachNote() << hint;
        failed = true;
      }
      // The ops inside an illegal op (e.g. a linalg body) follow it.
      if (!why.empty() ||
          llvm::is_contained(skip, op->getName().getStringRef()))
        return WalkResult::skip();
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
