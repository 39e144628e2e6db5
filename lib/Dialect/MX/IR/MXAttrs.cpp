//===- MXAttrs.cpp - mx dialect attributes --------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mx;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// Parses `4, ?, 32` (possibly empty) into sizes with ShapedType::kDynamic
/// for `?`.
static ParseResult parseDynamicSizes(AsmParser &parser,
                                     SmallVector<int64_t> &sizes) {
  if (succeeded(parser.parseOptionalRSquare())) {
    // Empty list: leave the `]` for the caller's format.
    return parser.emitError(parser.getCurrentLocation(),
                            "expected at least one iteration size");
  }
  return parser.parseCommaSeparatedList([&]() -> ParseResult {
    if (succeeded(parser.parseOptionalQuestion())) {
      sizes.push_back(ShapedType::kDynamic);
      return success();
    }
    int64_t size;
    if (parser.parseInteger(size))
      return failure();
    sizes.push_back(size);
    return success();
  });
}

static void printDynamicSizes(AsmPrinter &printer, ArrayRef<int64_t> sizes) {
  llvm::interleaveComma(sizes, printer, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      printer << "?";
    else
      printer << size;
  });
}

#define GET_ATTRDEF_CLASSES
#include "mx/Dialect/MX/IR/MXAttrs.cpp.inc"

void MXDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mx/Dialect/MX/IR/MXAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// EncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult EncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   OperandRole role,
                                   ArrayRef<Type> elementTypes,
                                   ArrayAttr indexingMaps,
                                   ArrayRef<int64_t> iterationSizes,
                                   Attribute layout) {
  if (elementTypes.size() != 5)
    return emitError() << "expected 5 element types (lhs, rhs, lhs_scales, "
                          "rhs_scales, result), got "
                       << elementTypes.size();
  for (unsigned i = 0; i < 2; ++i)
    if (!isMXElementType(elementTypes[i]))
      return emitError() << "element type #" << i
                         << " must be an MX element type, got "
                         << elementTypes[i];
  for (unsigned i = 2; i < 4; ++i)
    if (!isa<Float8E8M0FNUType>(elementTypes[i]))
      return emitError() << "element type #" << i
                         << " (scales) must be f8E8M0FNU, got "
                         << elementTypes[i];
  if (!elementTypes[4].isF32())
    return emitError() << "element type #4 (result) must be f32, got "
                       << elementTypes[4];
  if (indexingMaps.size() != 3 ||
      !llvm::all_of(indexingMaps, llvm::IsaPred<AffineMapAttr>))
    return emitError() << "expected 3 affine maps (lhs, rhs, acc) in "
                          "indexing_maps";
  unsigned numDims =
      cast<AffineMapAttr>(indexingMaps[0]).getValue().getNumDims();
  if (iterationSizes.size() != numDims)
    return emitError() << "expected " << numDims
                       << " iteration sizes (one per map dimension), got "
                       << iterationSizes.size();
  if (llvm::any_of(iterationSizes, [](int64_t size) {
        return ShapedType::isStatic(size) && size < 0;
      }))
    return emitError() << "iteration sizes must be non-negative or '?'";
  if (layout && !isa<TiledLayoutAttrInterface>(layout))
    return emitError() << "layout " << layout
                       << " does not implement TiledLayoutAttrInterface (is "
                          "its target registered?)";
  return success();
}

AffineMap EncodingAttr::getRoleMap() const {
  unsigned index = 0;
  switch (getRole()) {
  case OperandRole::lhs:
  case OperandRole::lhs_scales:
    index = 0;
    break;
  case OperandRole::rhs:
  case OperandRole::rhs_scales:
    index = 1;
    break;
  case OperandRole::result:
    index = 2;
    break;
  }
  return cast<AffineMapAttr>(getIndexingMaps()[index]).getValue();
}

//===----------------------------------------------------------------------===//
// DataTiledLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
mlir::mx::verifyTileCounts(function_ref<InFlightDiagnostic()> emitError,
                           int64_t intrinsicsM, int64_t intrinsicsN,
                           int64_t intrinsicsK, int64_t subgroupsM,
                           int64_t subgroupsN, bool zeroIsUnpinned) {
  std::pair<StringRef, int64_t> counts[] = {{"intrinsics_m", intrinsicsM},
                                            {"intrinsics_n", intrinsicsN},
                                            {"intrinsics_k", intrinsicsK},
                                            {"subgroups_m", subgroupsM},
                                            {"subgroups_n", subgroupsN}};
  for (auto [i, count] : llvm::enumerate(counts)) {
    auto [name, value] = count;
    if (zeroIsUnpinned && value < 0)
      return emitError() << name
                         << " must be non-negative (0: the resolver's "
                            "choice), got "
                         << value;
    if (!zeroIsUnpinned && value < 1)
      return emitError() << name << " must be at least 1, got " << value;
    int64_t limit = i < 3 ? kMaxIntrinsicUnroll : kMaxSubgroups;
    if (value > limit)
      return emitError() << name << " = " << value << " exceeds " << limit
                         << (i < 3 ? " (intrinsics a wave unrolls along one "
                                     "dimension)"
                                   : " (waves per workgroup)");
  }
  // Both at most 16 here: no overflow.
  int64_t waves =
      std::max<int64_t>(1, subgroupsM) * std::max<int64_t>(1, subgroupsN);
  if (waves > kMaxSubgroups)
    return emitError() << "subgroups_m * subgroups_n = " << waves
                       << " exceeds 16 waves (1024 threads) per workgroup";
  return success();
}

LogicalResult DataTiledLayoutAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ScaledMMAIntrinsicAttrInterface intrinsic, Type lhsType, Type rhsType,
    int64_t intrinsicsM, int64_t intrinsicsN, int64_t intrinsicsK,
    int64_t subgroupsM, int64_t subgroupsN, ArrayRef<OperandRole> interleaveM,
    ArrayRef<OperandRole> interleaveN, ArrayRef<OperandRole> interleaveK) {
  if (!intrinsic)
    return emitError() << "expected an intrinsic attribute implementing "
                          "ScaledMMAIntrinsicAttrInterface";
  if (!isMXElementType(lhsType))
    return emitError() << "lhs_type must be an MX element type, got "
                       << lhsType;
  if (!isMXElementType(rhsType))
    return emitError() << "rhs_type must be an MX element type, got "
                       << rhsType;
  if (failed(verifyTileCounts(emitError, intrinsicsM, intrinsicsN, intrinsicsK,
                              subgroupsM, subgroupsN,
                              /*zeroIsUnpinned=*/false)))
    return failure();
  auto checkInterleave = [&](StringRef name, ArrayRef<OperandRole> roles,
                             ArrayRef<OperandRole> allowed) -> LogicalResult {
    llvm::SmallSet<OperandRole, 4> seen;
    for (OperandRole role : roles) {
      if (!llvm::is_contained(allowed, role))
        return emitError() << name << " cannot contain "
                           << stringifyOperandRole(role)
                           << ": that operand has no such unroll dimension";
      if (!seen.insert(role).second)
        return emitError() << name << " lists " << stringifyOperandRole(role)
                           << " twice";
    }
    return success();
  };
  if (failed(checkInterleave(
          "interleave_m", interleaveM,
          {OperandRole::lhs, OperandRole::lhs_scales, OperandRole::result})) ||
      failed(checkInterleave(
          "interleave_n", interleaveN,
          {OperandRole::rhs, OperandRole::rhs_scales, OperandRole::result})) ||
      failed(
          checkInterleave("interleave_k", interleaveK,
                          {OperandRole::lhs, OperandRole::rhs,
                           OperandRole::lhs_scales, OperandRole::rhs_scales})))
    return failure();
  return verifyScaledMMAIntrinsic(emitError, intrinsic, lhsType, rhsType);
}

/// `key = value` pairs in any order; the unroll counts default to 1 and the
/// interleave lists to empty. Printing omits the defaults.
Attribute DataTiledLayoutAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  ScaledMMAIntrinsicAttrInterface intrinsic;
  Type lhsType, rhsType;
  llvm::StringMap<int64_t> counts = {{"intrinsics_m", 1},
                                     {"intrinsics_n", 1},
                                     {"intrinsics_k", 1},
                                     {"subgroups_m", 1},
                                     {"subgroups_n", 1}};
  llvm::StringMap<SmallVector<OperandRole>> interleave = {
      {"interleave_m", {}}, {"interleave_n", {}}, {"interleave_k", {}}};
  llvm::StringSet<> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc) << "duplicate '" << key << "'";
    if (key == "intrinsic") {
      // A bare word is no attribute: say what is expected.
      StringRef name;
      if (succeeded(parser.parseOptionalKeyword(&name)))
        return parser.emitError(loc)
               << "unknown intrinsic '" << name
               << "' (expected a target's intrinsic attribute, implementing "
                  "ScaledMMAIntrinsicAttrInterface)";
      Attribute attr;
      if (parser.parseAttribute(attr))
        return failure();
      intrinsic = dyn_cast<ScaledMMAIntrinsicAttrInterface>(attr);
      if (!intrinsic)
        return parser.emitError(loc)
               << "intrinsic " << attr
               << " does not implement ScaledMMAIntrinsicAttrInterface";
      return success();
    }
    if (key == "lhs_type")
      return parser.parseType(lhsType);
    if (key == "rhs_type")
      return parser.parseType(rhsType);
    if (counts.count(key))
      return parser.parseInteger(counts[key]);
    if (interleave.count(key))
      return parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc roleLoc = parser.getCurrentLocation();
            StringRef name;
            if (parser.parseKeyword(&name))
              return failure();
            std::optional<OperandRole> role = symbolizeOperandRole(name);
            if (!role)
              return parser.emitError(roleLoc)
                     << "unknown operand role '" << name << "'";
            interleave[key].push_back(*role);
            return success();
          });
    return parser.emitError(loc)
           << "unknown data_tiled_layout parameter '" << key << "'";
  };
  if (parser.parseLess() || parser.parseCommaSeparatedList(parseEntry) ||
      parser.parseGreater())
    return {};
  if (!intrinsic || !lhsType || !rhsType) {
    parser.emitError(start)
        << "data_tiled_layout needs intrinsic, lhs_type and rhs_type";
    return {};
  }
  return getChecked([&]() { return parser.emitError(start); },
                    parser.getContext(), intrinsic, lhsType, rhsType,
                    counts["intrinsics_m"], counts["intrinsics_n"],
                    counts["intrinsics_k"], counts["subgroups_m"],
                    counts["subgroups_n"], interleave["interleave_m"],
                    interleave["interleave_n"], interleave["interleave_k"]);
}

void DataTiledLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<intrinsic = " << Attribute(getIntrinsic())
          << ", lhs_type = " << getLhsType() << ", rhs_type = " << getRhsType();
  for (auto [name, value] : {std::make_pair("intrinsics_m", getIntrinsicsM()),
                             std::make_pair("intrinsics_n", getIntrinsicsN()),
                             std::make_pair("intrinsics_k", getIntrinsicsK()),
                             std::make_pair("subgroups_m", getSubgroupsM()),
                             std::make_pair("subgroups_n", getSubgroupsN())})
    if (value != 1)
      printer << ", " << name << " = " << value;
  for (auto [name, roles] : {std::make_pair("interleave_m", getInterleaveM()),
                             std::make_pair("interleave_n", getInterleaveN()),
                             std::make_pair("interleave_k", getInterleaveK())})
    if (!roles.empty()) {
      printer << ", " << name << " = [";
      llvm::interleaveComma(roles, printer, [&](OperandRole role) {
        printer << stringifyOperandRole(role);
      });
      printer << "]";
    }
  printer << ">";
}

int64_t DataTiledLayoutAttr::getNumSubgroups() const {
  return getSubgroupsM() * getSubgroupsN();
}

bool DataTiledLayoutAttr::isInterleaved(OperandRole role, unsigned dim) const {
  ArrayRef<OperandRole> roles = dim == 0   ? getInterleaveM()
                                : dim == 1 ? getInterleaveN()
                                           : getInterleaveK();
  return llvm::is_contained(roles, role);
}
