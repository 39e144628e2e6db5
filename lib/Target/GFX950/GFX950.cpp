//===- GFX950.cpp - the gfx950 target: registration, epilogue ops ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

ArrayRef<EpilogueMathOp> gfx950::getEpilogueMathOps() {
  static constexpr EpilogueMathOp ops[] = {
      {"absf", false},      {"copysign", false}, {"exp", false},
      {"fma", false},       {"log", false},      {"round", false},
      {"roundeven", false}, {"sqrt", false},     {"trunc", false},
      {"tanh", true},
  };
  return ops;
}

SmallVector<std::string> gfx950::getExpandedMathOps() {
  SmallVector<std::string> names;
  for (const EpilogueMathOp &op : getEpilogueMathOps())
    if (op.expanded)
      names.push_back(op.name.str());
  return names;
}

LogicalResult gfx950::checkEpilogueOp(Operation *op, raw_ostream &reason) {
  Dialect *dialect = op->getDialect();
  if (isa_and_present<arith::ArithDialect>(dialect)) {
    if (isa<arith::ScalingExtFOp, arith::ScalingTruncFOp>(op)) {
      reason << "'" << op->getName()
             << "' has no scalar lowering in a gfx950 epilogue";
      return failure();
    }
    // Narrow floats (f8, f6, f4) have no LLVM type to lower to.
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    for (Type type : types) {
      auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
      if (floatType && floatType.getWidth() < 16) {
        reason << "'" << op->getName() << "' on " << floatType
               << " is not computed in a gfx950 epilogue";
        return failure();
      }
    }
    return success();
  }
  if (isa_and_present<math::MathDialect>(dialect)) {
    StringRef name = op->getName().stripDialect();
    if (!llvm::any_of(getEpilogueMathOps(), [&](const EpilogueMathOp &known) {
          return known.name == name;
        })) {
      reason << "'" << op->getName()
             << "' would be a call into ROCm's device library in a gfx950 "
                "kernel, which mx does not link";
      return failure();
    }
    if (!llvm::all_of(op->getOperandTypes(),
                      [](Type type) { return type.isF32(); })) {
      reason << "'" << op->getName()
             << "' is computed in f32 only in a gfx950 epilogue";
      return failure();
    }
    return success();
  }
  reason << "'" << op->getName()
         << "' is not an arith or math op, which a gfx950 epilogue computes";
  return failure();
}

void gfx950::registerTarget(DialectRegistry &registry) {
  registry.insert<GFX950Dialect>();
  // The example the core's diagnostics give when they ask for a target.
  registry.addExtension(+[](MLIRContext *ctx, MXDialect *dialect) {
    dialect->addTargetExample("#mx_gfx950.target");
  });
}
