//===- UKernels.cpp - the gfx950 ukernel library --------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/UKernels.h"
#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

// Generated from ukernels/gfx950/*.mlir by lib/Target/GFX950/CMakeLists.txt.
static const UKernelSource kSources[] = {
#include "UKernelSources.inc"
};

ArrayRef<UKernelSource> mlir::mx::gfx950::getUKernelSources() {
  return kSources;
}

std::optional<StringRef> mlir::mx::gfx950::getUKernelSource(StringRef name) {
  auto it = llvm::find_if(kSources, [&](const UKernelSource &source) {
    return source.name == name;
  });
  if (it == std::end(kSources))
    return std::nullopt;
  return it->text;
}

/// Checks one ukernel's match data against `layout`; returns an empty string
/// on a match, else the reason.
static std::string matchUKernel(DictionaryAttr match,
                                DataTiledLayoutAttr layout) {
  if (!match)
    return "no mx.ukernel.match data";
  auto intrinsic = match.getAs<StringAttr>("intrinsic");
  if (!intrinsic || intrinsic.getValue() !=
                        stringifyScaledMMAIntrinsic(layout.getIntrinsic()))
    return "intrinsic differs";
  auto lhsType = match.getAs<TypeAttr>("lhs_type");
  auto rhsType = match.getAs<TypeAttr>("rhs_type");
  if (!lhsType || lhsType.getValue() != layout.getLhsType() || !rhsType ||
      rhsType.getValue() != layout.getRhsType())
    return "element types differ";
  for (auto [key, roles] :
       {std::make_pair("interleave_m", layout.getInterleaveM()),
        std::make_pair("interleave_n", layout.getInterleaveN()),
        std::make_pair("interleave_k", layout.getInterleaveK())}) {
    auto wanted = match.getAs<ArrayAttr>(key);
    SmallVector<StringRef> names;
    for (Attribute attr : wanted ? wanted : ArrayAttr())
      if (auto name = dyn_cast<StringAttr>(attr))
        names.push_back(name.getValue());
    SmallVector<StringRef> actual = llvm::map_to_vector(
        roles, [](OperandRole role) { return stringifyOperandRole(role); });
    if (names != actual)
      return std::string(key) + " differs";
  }
  if (auto multiple = match.getAs<IntegerAttr>("scale_bytes_multiple_of")) {
    int64_t m = multiple.getInt();
    int64_t k = layout.getIntrinsicsK();
    if (m <= 0 || (layout.getIntrinsicsM() * k) % m != 0 ||
        (layout.getIntrinsicsN() * k) % m != 0)
      return "intrinsics_m/n * intrinsics_k must be multiples of " +
             std::to_string(m);
  }
  return "";
}

/// The ukernel library of `ctx`, parsed once per context by the gfx950
/// target dialect.
static ArrayRef<UKernelInfo> getLibrary(MLIRContext *ctx) {
  return ctx->getOrLoadDialect<GFX950Dialect>()->getUKernelLibrary();
}

UKernelSelection mlir::mx::gfx950::selectUKernel(DataTiledLayoutAttr layout) {
  UKernelSelection selection;
  llvm::raw_string_ostream os(selection.rejections);
  for (const UKernelInfo &ukernel : getLibrary(layout.getContext())) {
    std::string reason =
        ukernel.match ? matchUKernel(ukernel.match, layout) : ukernel.problem;
    if (reason.empty()) {
      selection.name = ukernel.name.str();
      return selection;
    }
    os << ukernel.name << ": " << reason << "\n";
  }
  return selection;
}

SmallVector<int64_t>
mlir::mx::gfx950::getUKernelTileShape(DataTiledLayoutAttr layout,
                                      OperandRole role) {
  IntrinsicInfo info = getIntrinsicInfo(layout.getIntrinsic());
  int64_t im = layout.getIntrinsicsM(), in = layout.getIntrinsicsN();
  int64_t ik = layout.getIntrinsicsK();
  int64_t sm = layout.getSubgroupsM(), sn = layout.getSubgroupsN();
  auto laneBytes = [&](Type type) {
    return info.m * info.k / kWaveSize * type.getIntOrFloatBitWidth() / 8;
  };
  switch (role) {
  case OperandRole::lhs:
    return {sm, im, ik, kWaveSize, laneBytes(layout.getLhsType())};
  case OperandRole::rhs:
    return {sn, in, ik, kWaveSize, laneBytes(layout.getRhsType())};
  case OperandRole::lhs_scales:
    return {sm, kWaveSize, im * ik};
  case OperandRole::rhs_scales:
    return {sn, kWaveSize, in * ik};
  case OperandRole::result:
    return {sm, sn, im, in, kWaveSize, info.accPerLane};
  }
  llvm_unreachable("unknown operand role");
}

FailureOr<FunctionType>
mlir::mx::gfx950::getUKernelFunctionType(MLIRContext *context, StringRef name) {
  for (const UKernelInfo &ukernel : getLibrary(context))
    if (ukernel.name == name && ukernel.functionType)
      return ukernel.functionType;
  return failure();
}
