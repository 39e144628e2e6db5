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

//===----------------------------------------------------------------------===//
// MMAAttr
//===----------------------------------------------------------------------===//

std::tuple<int64_t, int64_t, int64_t> MMAAttr::getMNKShape() const {
  return {8, 16, 64};
}

int64_t MMAAttr::getSubgroupSize() const { return 32; }

TileSwizzle MMAAttr::getIntrinsicSwizzle(OperandRole role, Type) const {
  using Kind = TileSwizzle::Kind;
  TileSwizzle swizzle;
  switch (role) {
  case OperandRole::lhs:
    // [8, 64] -> [r = 8, g = 4, t = 16]: lane 4 r + g.
    swizzle.expandShape = {{{Kind::Lane, 8}},
                           {{Kind::Lane, 4}, {Kind::Internal, 16}}};
    swizzle.permutation = {0, 1, 2};
    return swizzle;
  case OperandRole::rhs:
    // [16, 64] -> [g = 2, r = 16, t = 32]: lane 16 g + r.
    swizzle.expandShape = {{{Kind::Lane, 16}},
                           {{Kind::Lane, 2}, {Kind::Internal, 32}}};
    swizzle.permutation = {1, 0, 2};
    return swizzle;
  case OperandRole::lhs_scales:
    // [8, 2] -> [r = 8, b = 2]: lane r, both blocks.
    swizzle.expandShape = {{{Kind::Lane, 8}}, {{Kind::Internal, 2}}};
    swizzle.permutation = {0, 1};
    return swizzle;
  case OperandRole::rhs_scales:
    // [16, 2] -> [g = 2, r = 16]: lane 16 g + r.
    swizzle.expandShape = {{{Kind::Lane, 16}}, {{Kind::Lane, 2}}};
    swizzle.permutation = {1, 0};
    return swizzle;
  case OperandRole::result:
    // [8, 16] = [(h = 2, q = 4), (c = 8, v = 2)] -> [q, c, h, v]: lane
    // 8 q + c, value 2 h + v.
    swizzle.expandShape = {{{Kind::Internal, 2}, {Kind::Lane, 4}},
                           {{Kind::Lane, 8}, {Kind::Internal, 2}}};
    swizzle.permutation = {1, 2, 0, 3};
    return swizzle;
  }
  llvm_unreachable("unknown operand role");
}

//===----------------------------------------------------------------------===//
// DataTiledResolverAttr
//===----------------------------------------------------------------------===//

FailureOr<TiledLayoutAttrInterface>
DataTiledResolverAttr::resolveLayout(Operation *op, EncodingAttr encoding,
                                     const ScaledContractionDims &dims) const {
  ArrayRef<Type> types = encoding.getElementTypes();
  DataTiledLayoutAttr pattern = getLayout();
  auto layout = DataTiledLayoutAttr::getChecked(
      [&] { return op->emitOpError(); }, getContext(), pattern.getIntrinsic(),
      types[0], types[1], pattern.getIntrinsicsM(), pattern.getIntrinsicsN(),
      pattern.getIntrinsicsK(), pattern.getSubgroupsM(),
      pattern.getSubgroupsN(), pattern.getInterleaveM(),
      pattern.getInterleaveN(), pattern.getInterleaveK());
  if (!layout)
    return failure();
  return cast<TiledLayoutAttrInterface>(layout);
}

FailureOr<std::string>
DataTiledResolverAttr::selectUKernel(Attribute layout,
                                     raw_ostream &rejections) const {
  rejections << "the test resolver has no ukernels\n";
  return failure();
}
