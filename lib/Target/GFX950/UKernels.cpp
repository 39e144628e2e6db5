//===- UKernels.cpp - the gfx950 ukernel library --------------------------===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/UKernels.h"
#include "mx/Target/GFX950/GFX950.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
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

UKernelSelection mlir::mx::gfx950::selectUKernel(DataTiledLayoutAttr layout) {
  UKernelSelection selection;
  llvm::raw_string_ostream os(selection.rejections);
  for (const UKernelSource &source : kSources) {
    ParserConfig config(layout.getContext());
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source.text, config, source.name);
    auto func = module ? module->lookupSymbol<func::FuncOp>(source.name)
                       : func::FuncOp();
    std::string reason =
        func ? matchUKernel(
                   func->getAttrOfType<DictionaryAttr>("mx.ukernel.match"),
                   layout)
             : std::string("cannot be parsed");
    if (reason.empty()) {
      selection.name = source.name.str();
      return selection;
    }
    os << source.name << ": " << reason << "\n";
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
  std::optional<StringRef> source = getUKernelSource(name);
  if (!source)
    return failure();
  ParserConfig config(context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(*source, config, name);
  if (!module)
    return failure();
  auto func = module->lookupSymbol<func::FuncOp>(name);
  if (!func)
    return failure();
  return func.getFunctionType();
}
