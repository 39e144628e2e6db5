//===- MXDialect.cpp - mx dialect -----------------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::mx;

#include "mx/Dialect/MX/IR/MXOpsDialect.cpp.inc"

namespace {
/// Short aliases for the long mx attributes in printed IR:
/// `#mx.encoding<role = lhs, ...>` prints as `#lhs_encoding` and a layout as
/// `#layout`.
struct MXOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (auto encoding = dyn_cast<EncodingAttr>(attr)) {
      os << stringifyOperandRole(encoding.getRole()) << "_encoding";
      return AliasResult::FinalAlias;
    }
    if (isa<DataTiledLayoutAttr>(attr)) {
      os << "layout";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void MXDialect::initialize() {
  addInterfaces<MXOpAsmInterface>();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "mx/Dialect/MX/IR/MXOps.cpp.inc"
      >();
}

LogicalResult MXDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == kMBoundAttrName) {
    auto bound = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<ScaledContractionOp, TiledScaledMMAOp>(op) || !bound ||
        bound.getInt() < 1)
      return op->emitError()
             << "'" << kMBoundAttrName
             << "' must be a positive integer on an 'mx.scaled_contraction' "
                "or 'mx.tiled_scaled_mma' (a bound of its dynamic M)";
    return success();
  }
  if (attr.getName() == kSplitKAttrName) {
    auto parts = dyn_cast<IntegerAttr>(attr.getValue());
    auto mma = dyn_cast<TiledScaledMMAOp>(op);
    if (!mma || !parts || parts.getInt() < 2)
      return op->emitError()
             << "'" << kSplitKAttrName
             << "' must be an integer of at least 2 on an "
                "'mx.tiled_scaled_mma' (the number of parts of its K loop)";
    // The parts are the leading batch dimension of every operand.
    auto lhsType = cast<ShapedType>(mma.getLhs().getType());
    int64_t inner =
        mma.getLayout().getSwizzle(OperandRole::lhs).getSwizzledShape().size();
    int64_t size = lhsType.getRank() > 0 ? lhsType.getDimSize(0) : 0;
    if (lhsType.getRank() < inner + 3 ||
        (!ShapedType::isDynamic(size) && size != parts.getInt()))
      return op->emitError()
             << "'" << kSplitKAttrName << "' = " << parts.getInt()
             << " must be the size of the op's leading batch dimension";
    return success();
  }
  if (attr.getName() != kTargetAttrName)
    return success();
  if (!isa<LayoutResolverAttrInterface>(attr.getValue()))
    return op->emitError() << "'" << kTargetAttrName
                           << "' must be a target attribute implementing "
                              "LayoutResolverAttrInterface (e.g. "
                           << getTargetExample() << "), got "
                           << attr.getValue();
  return success();
}

LayoutResolverAttrInterface
mlir::mx::getEnclosingTarget(Operation *op,
                             LayoutResolverAttrInterface fallback) {
  for (Operation *parent = op; parent; parent = parent->getParentOp())
    if (auto target = parent->getAttrOfType<LayoutResolverAttrInterface>(
            MXDialect::kTargetAttrName))
      return target;
  return fallback;
}

FailureOr<LayoutResolverAttrInterface>
mlir::mx::parseTargetOption(MLIRContext *ctx, StringRef text,
                            StringRef passName) {
  if (text.empty())
    return LayoutResolverAttrInterface();
  // The attribute's own parser and verifier report bad values.
  Attribute attr = parseAttribute(text, ctx);
  if (!attr)
    return emitError(UnknownLoc::get(ctx))
           << passName << ": invalid target '" << text
           << "' (expected a target attribute such as "
           << ctx->getOrLoadDialect<MXDialect>()->getTargetExample() << ")";
  auto target = dyn_cast<LayoutResolverAttrInterface>(attr);
  if (!target)
    return emitError(UnknownLoc::get(ctx))
           << passName << ": target " << attr
           << " is not a layout resolver (LayoutResolverAttrInterface)";
  return target;
}
