//===- TestTarget.cpp - a target-independent test target ------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestTarget.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::test;

#include "TestTargetDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "TestTargetAttrs.cpp.inc"

void MXTestDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TestTargetAttrs.cpp.inc"
      >();
}

void mlir::mx::test::registerTestTarget(DialectRegistry &registry) {
  registry.insert<MXTestDialect>();
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t m, int64_t n, int64_t k, Type lhsType,
                                 Type rhsType) {
  if (m < 2 || m % 2 || n < 4 || n % 4 || k < 32 || k % 32)
    return emitError() << "expected an even m, n a multiple of 4 and k a "
                          "multiple of 32, got "
                       << m << ", " << n << ", " << k;
  if (!isMXElementType(lhsType) || !isMXElementType(rhsType))
    return emitError() << "expected MX element types";
  return success();
}

SmallVector<int64_t> LayoutAttr::getInnerTileSizes(OperandRole role) const {
  switch (role) {
  case OperandRole::lhs:
    return {getM(), getK()};
  case OperandRole::rhs:
    return {getN(), getK()};
  case OperandRole::lhs_scales:
    return {getM(), getK() / 32};
  case OperandRole::rhs_scales:
    return {getN(), getK() / 32};
  case OperandRole::result:
    return {getM(), getN()};
  }
  llvm_unreachable("unknown operand role");
}

TileSwizzle LayoutAttr::getSwizzle(OperandRole role) const {
  using Kind = TileSwizzle::Kind;
  SmallVector<int64_t> tile = getInnerTileSizes(role);
  TileSwizzle swizzle;
  switch (role) {
  case OperandRole::lhs:
  case OperandRole::rhs:
    // [R, K] -> [K/32, R, 32].
    swizzle.expandShape = {
        {{Kind::Lane, tile[0]}},
        {{Kind::Intrinsic, tile[1] / 32}, {Kind::Internal, 32}}};
    swizzle.permutation = {1, 0, 2};
    return swizzle;
  case OperandRole::lhs_scales:
  case OperandRole::rhs_scales:
    // [R, K/32] -> [R/2, K/32, 2].
    swizzle.expandShape = {{{Kind::Lane, tile[0] / 2}, {Kind::Internal, 2}},
                           {{Kind::Intrinsic, tile[1]}}};
    swizzle.permutation = {0, 2, 1};
    return swizzle;
  case OperandRole::result:
    // [M, N] -> [N/4, M, 4].
    swizzle.expandShape = {
        {{Kind::Lane, tile[0]}},
        {{Kind::Intrinsic, tile[1] / 4}, {Kind::Internal, 4}}};
    swizzle.permutation = {1, 0, 2};
    return swizzle;
  }
  llvm_unreachable("unknown operand role");
}

Type LayoutAttr::getElementType(OperandRole role) const {
  switch (role) {
  case OperandRole::lhs:
    return getLhsType();
  case OperandRole::rhs:
    return getRhsType();
  case OperandRole::lhs_scales:
  case OperandRole::rhs_scales:
    return Float8E8M0FNUType::get(getContext());
  case OperandRole::result:
    return Float32Type::get(getContext());
  }
  llvm_unreachable("unknown operand role");
}

//===----------------------------------------------------------------------===//
// ResolverAttr
//===----------------------------------------------------------------------===//

FailureOr<TiledLayoutAttrInterface>
ResolverAttr::resolveLayout(Operation *op, EncodingAttr encoding,
                            const ScaledContractionDims &dims) const {
  ArrayRef<Type> types = encoding.getElementTypes();
  auto layout =
      LayoutAttr::getChecked([&] { return op->emitOpError(); }, getContext(),
                             getM(), getN(), getK(), types[0], types[1]);
  if (!layout)
    return failure();
  return cast<TiledLayoutAttrInterface>(layout);
}

FailureOr<std::string>
ResolverAttr::selectUKernel(Attribute layout, raw_ostream &rejections) const {
  if (!getUkernel()) {
    rejections << "the test resolver has no ukernels\n";
    return failure();
  }
  return getUkernel().str();
}
