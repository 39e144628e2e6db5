//===- GFX950Dialect.cpp - the gfx950 target dialect ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `#mx_gfx950.target`: its syntax, its verifier (the one validation of the
// layout pins) and its LayoutResolverAttrInterface implementation;
// `#mx_gfx950.scaled_mfma`, the intrinsic of gfx950's data-tiled layouts;
// and the per-context cache of the ukernel library's selection data.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/IR/GFX950Dialect.h"

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

#include "mx/Target/GFX950/IR/GFX950Dialect.cpp.inc"
#include "mx/Target/GFX950/IR/GFX950Enums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mx/Target/GFX950/IR/GFX950Attrs.cpp.inc"

#define GET_OP_CLASSES
#include "mx/Target/GFX950/IR/GFX950Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// WaitLoadsOp, WaitLDSOp
//===----------------------------------------------------------------------===//

namespace {
/// A wait op (`WaitOp`, with an index count) of a constant count in its
/// counter's range [0, `maxCount`] to amdgpu.memory_counter_wait of that
/// counter (`vmcnt`: load, else ds).
template <typename WaitOp, int64_t maxCount, bool vmcnt>
struct WaitOfConstantCount : OpRewritePattern<WaitOp> {
  using OpRewritePattern<WaitOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(WaitOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> count = getConstantIntValue(op.getCount());
    if (!count || *count < 0 || *count > maxCount)
      return rewriter.notifyMatchFailure(op, "no constant count in range");
    // Upstream MLIR 22's canonicalization of amdgpu.memory_counter_wait
    // crashes on one in a module's body (mlir-opt too): a wait outside any
    // function waits for nothing, so it stays as it is there.
    if (isa_and_nonnull<ModuleOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not inside a function");
    IntegerAttr n = rewriter.getI32IntegerAttr(*count);
    rewriter.replaceOpWithNewOp<amdgpu::MemoryCounterWaitOp>(
        op, /*load=*/vmcnt ? n : nullptr, /*store=*/nullptr,
        /*ds=*/vmcnt ? nullptr : n, /*exp=*/nullptr, /*tensor=*/nullptr);
    return success();
  }
};
} // namespace

void WaitLoadsOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<WaitOfConstantCount<WaitLoadsOp, kMaxLoadCount, true>>(context);
}

void WaitLDSOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<WaitOfConstantCount<WaitLDSOp, kMaxLDSCount, false>>(context);
}

void GFX950Dialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "mx/Target/GFX950/IR/GFX950Ops.cpp.inc"
      >();
}

void GFX950Dialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mx/Target/GFX950/IR/GFX950Attrs.cpp.inc"
      >();
}

ArrayRef<UKernelInfo> GFX950Dialect::getUKernelLibrary() {
  // Parsed on first use, once per context; passes running in parallel on
  // several functions may ask at the same time.
  std::call_once(ukernelLibraryOnce, [&] {
    MLIRContext *ctx = getContext();
    for (const UKernelSource &source : getUKernelSources()) {
      UKernelInfo info;
      info.name = source.name;
      ParserConfig config(ctx);
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(source.text, config, source.name);
      auto func = module ? module->lookupSymbol<func::FuncOp>(source.name)
                         : func::FuncOp();
      if (!func) {
        info.problem = "cannot be parsed";
      } else {
        info.functionType = func.getFunctionType();
        info.match = func->getAttrOfType<DictionaryAttr>("mx.ukernel.match");
        info.typeParameters =
            func->getAttrOfType<DictionaryAttr>(kUKernelTypeParameters);
        info.registerSchedules =
            func->getAttrOfType<ArrayAttr>(kUKernelRegisterSchedules);
        std::string schedules =
            info.registerSchedules
                ? checkRegisterSchedules(info.registerSchedules)
                : std::string();
        if (!info.match) {
          info.problem = "no mx.ukernel.match data";
        } else if (!schedules.empty()) {
          // Not selected: its configurations' registers are unknown.
          info.problem = ("malformed " + kUKernelRegisterSchedules + " (" +
                          schedules + ")")
                             .str();
          info.match = nullptr;
          info.registerSchedules = nullptr;
        }
      }
      ukernelLibrary.push_back(std::move(info));
    }
  });
  return ukernelLibrary;
}

//===----------------------------------------------------------------------===//
// ScaledMFMAAttr
//===----------------------------------------------------------------------===//

/// `<16x16x128>` or `<32x32x64>`: the instruction's M x N x K.
Attribute ScaledMFMAAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/false) ||
      parser.parseGreater())
    return {};
  for (uint32_t value = 0; value <= getMaxEnumValForScaledMMAIntrinsic();
       ++value) {
    IntrinsicInfo info = getIntrinsicInfo(ScaledMMAIntrinsic(value));
    if (ArrayRef<int64_t>(shape) == ArrayRef<int64_t>{info.m, info.n, info.k})
      return get(parser.getContext(), ScaledMMAIntrinsic(value));
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  parser.emitError(loc) << "no gfx950 scaled MFMA has the shape " << text
                        << " (available: 16x16x128, 32x32x64)";
  return {};
}

void ScaledMFMAAttr::print(AsmPrinter &printer) const {
  IntrinsicInfo info = getIntrinsicInfo(getIntrinsic());
  printer << "<" << info.m << "x" << info.n << "x" << info.k << ">";
}

std::tuple<int64_t, int64_t, int64_t> ScaledMFMAAttr::getMNKShape() const {
  IntrinsicInfo info = getIntrinsicInfo(getIntrinsic());
  return {info.m, info.n, info.k};
}

int64_t ScaledMFMAAttr::getSubgroupSize() const { return kWaveSize; }

TileSwizzle ScaledMFMAAttr::getIntrinsicSwizzle(OperandRole role,
                                                Type elementType) const {
  return gfx950::getIntrinsicSwizzle(getIntrinsic(), role, elementType);
}

//===----------------------------------------------------------------------===//
// TargetAttr syntax and verification
//===----------------------------------------------------------------------===//

namespace {
/// The parameters of a TargetAttr: what the parser fills and the printer
/// prints.
struct TargetParams {
  std::optional<ScaledMMAIntrinsic> intrinsic;
  int64_t intrinsicsM = 0, intrinsicsN = 0, intrinsicsK = 0;
  int64_t subgroupsM = 0, subgroupsN = 0;
  int64_t splitK = 0;
  std::string configTable;
  bool requireUKernel = false;

  /// The integer parameters with their keys, in printing order.
  std::array<std::pair<StringLiteral, int64_t *>, 6> counts() {
    return {{{"intrinsics_m", &intrinsicsM},
             {"intrinsics_n", &intrinsicsN},
             {"intrinsics_k", &intrinsicsK},
             {"subgroups_m", &subgroupsM},
             {"subgroups_n", &subgroupsN},
             {"split_k", &splitK}}};
  }

  /// Every key, in printing order.
  SmallVector<StringRef> keys() {
    SmallVector<StringRef> result = {"intrinsic"};
    for (auto [key, field] : counts())
      result.push_back(key);
    result.push_back("config_table");
    result.push_back("require_ukernel");
    return result;
  }

  /// `<key = value, ...>` with the non-default parameters, or empty.
  std::string format() {
    SmallVector<std::string> entries;
    if (intrinsic)
      entries.push_back(
          ("intrinsic = " + stringifyScaledMMAIntrinsic(*intrinsic)).str());
    for (auto [key, field] : counts())
      if (*field)
        entries.push_back(std::string(key) + " = " + std::to_string(*field));
    if (!configTable.empty()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "config_table = \"";
      llvm::printEscapedString(configTable, os);
      os << "\"";
      entries.push_back(text);
    }
    if (requireUKernel)
      entries.push_back("require_ukernel = true");
    if (entries.empty())
      return "";
    return "<" + llvm::join(entries, ", ") + ">";
  }
};
} // namespace

/// Parses an intrinsic name into `intrinsic`; an unknown one is an error
/// listing the known ones.
static ParseResult
parseIntrinsic(AsmParser &parser,
               std::optional<ScaledMMAIntrinsic> &intrinsic) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseKeywordOrString(&name))
    return failure();
  intrinsic = symbolizeScaledMMAIntrinsic(name);
  if (intrinsic)
    return success();
  SmallVector<StringRef> known;
  for (uint32_t value = 0; value <= getMaxEnumValForScaledMMAIntrinsic();
       ++value)
    known.push_back(stringifyScaledMMAIntrinsic(ScaledMMAIntrinsic(value)));
  return parser.emitError(loc)
         << "unknown intrinsic '" << name
         << "' (available: " << llvm::join(known, ", ") << ")";
}

/// `#mx_gfx950.target` or `#mx_gfx950.target<key = value, ...>`, each key at
/// most once, in any order.
Attribute TargetAttr::parse(AsmParser &parser, Type) {
  TargetParams params;
  SmallVector<StringRef> keys = params.keys();
  llvm::StringSet<> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    std::string key;
    if (parser.parseKeywordOrString(&key))
      return failure();
    if (!llvm::is_contained(keys, key))
      return parser.emitError(loc)
             << "unknown #mx_gfx950.target parameter '" << key
             << "' (expected one of " << llvm::join(keys, ", ") << ")";
    if (!seen.insert(key).second)
      return parser.emitError(loc) << "'" << key << "' is given twice";
    if (parser.parseEqual())
      return failure();
    if (key == "intrinsic")
      return parseIntrinsic(parser, params.intrinsic);
    if (key == "config_table")
      return parser.parseString(&params.configTable);
    if (key == "require_ukernel") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      if (value != "true" && value != "false")
        return parser.emitError(valueLoc)
               << "require_ukernel must be true or false, got '" << value
               << "'";
      params.requireUKernel = value == "true";
      return success();
    }
    for (auto [name, field] : params.counts())
      if (key == name)
        return parser.parseInteger(*field);
    llvm_unreachable("every key is handled");
  };
  if (succeeded(parser.parseOptionalLess())) {
    if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
      return {};
  }
  return parser.getChecked<TargetAttr>(
      parser.getContext(), params.intrinsic, params.intrinsicsM,
      params.intrinsicsN, params.intrinsicsK, params.subgroupsM,
      params.subgroupsN, params.splitK, params.configTable,
      params.requireUKernel);
}

void TargetAttr::print(AsmPrinter &printer) const {
  TargetParams params = {
      getIntrinsic(),   getIntrinsicsM(),       getIntrinsicsN(),
      getIntrinsicsK(), getSubgroupsM(),        getSubgroupsN(),
      getSplitK(),      getConfigTable().str(), getRequireUkernel()};
  printer << params.format();
}

std::string TargetAttr::getAsText(std::optional<ScaledMMAIntrinsic> intrinsic,
                                  int64_t intrinsicsM, int64_t intrinsicsN,
                                  int64_t intrinsicsK, int64_t subgroupsM,
                                  int64_t subgroupsN, int64_t splitK,
                                  StringRef configTable, bool requireUKernel) {
  TargetParams params = {intrinsic,   intrinsicsM,       intrinsicsN,
                         intrinsicsK, subgroupsM,        subgroupsN,
                         splitK,      configTable.str(), requireUKernel};
  return "#mx_gfx950.target" + params.format();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 std::optional<ScaledMMAIntrinsic> intrinsic,
                                 int64_t intrinsicsM, int64_t intrinsicsN,
                                 int64_t intrinsicsK, int64_t subgroupsM,
                                 int64_t subgroupsN, int64_t splitK,
                                 StringRef configTable, bool requireUKernel) {
  if (splitK < 0 || splitK > kMaxSplitK)
    return emitError() << "split_k must be in [0, " << kMaxSplitK
                       << "] (0: the heuristic's choice), got " << splitK;
  // The limits of #mx.data_tiled_layout, so that every pinned layout can be
  // built.
  return verifyTileCounts(emitError, intrinsicsM, intrinsicsN, intrinsicsK,
                          subgroupsM, subgroupsN, /*zeroIsUnpinned=*/true);
}

//===----------------------------------------------------------------------===//
// LayoutResolverAttrInterface
//===----------------------------------------------------------------------===//

FailureOr<TiledLayoutAttrInterface>
TargetAttr::resolveLayout(Operation *op, EncodingAttr encoding,
                          const ScaledContractionDims &dims) const {
  ArrayRef<int64_t> sizes = encoding.getIterationSizes();
  ArrayRef<Type> types = encoding.getElementTypes();
  // An empty contraction would become dispatches over empty grids.
  for (auto [name, dim] :
       {std::make_pair("M", dims.m[0]), std::make_pair("N", dims.n[0]),
        std::make_pair("K", dims.k)})
    if (sizes[dim] == 0)
      return op->emitOpError()
             << "has a zero-sized " << name
             << " dimension: gfx950 kernels need M, N and K of at least 1";
  for (unsigned dim : dims.batch)
    if (sizes[dim] == 0)
      return op->emitOpError() << "has a zero-sized batch dimension: gfx950 "
                                  "kernels need every size to be at least 1";
  int64_t m = sizes[dims.m[0]], n = sizes[dims.n[0]], k = sizes[dims.k];
  // GEMMs of the launch: the batch, or a grouped GEMM's experts (its
  // encoding's batch dimension), whose K loop mx-split-k never splits.
  int64_t groups = 1;
  for (unsigned dim : dims.batch)
    if (ShapedType::isStatic(sizes[dim]))
      groups *= sizes[dim];
  bool grouped = isa<GroupedScaledContractionOp, RoutedScaledContractionOp>(op);
  // A tuned configuration first (entries are tuned for plain GEMMs, split-K
  // included): its pins, under this attribute's own.
  std::string error;
  FailureOr<const ConfigEntry *> entry =
      grouped ? FailureOr<const ConfigEntry *>(nullptr)
              : lookupConfig(*this, types[0], types[1], m, n, k, error);
  if (failed(entry))
    return op->emitOpError() << error;
  // Remarks once per contraction (not again for each of its encodings).
  bool remark = isa<ScaledContractionOp, GroupedScaledContractionOp,
                    RoutedScaledContractionOp>(op);
  if (*entry) {
    TargetAttr tuned = applyConfig(*this, **entry);
    DataTiledLayoutAttr layout = gfx950::resolveLayout(
        op->getContext(), types[0], types[1], m, n, k, tuned);
    if (!getRequireUkernel() || gfx950::selectUKernel(layout).name)
      return cast<TiledLayoutAttrInterface>(layout);
    if (remark)
      op->emitRemark() << "the tuned configuration " << (*entry)->pins
                       << " for this shape has no gfx950 ukernel (" << layout
                       << "); using the resolver's heuristic";
  } else if (remark && !grouped && !getConfigTable().empty() &&
             getConfigTable() != "none") {
    op->emitRemark() << "no entry of the configuration table '"
                     << getConfigTable() << "' for " << types[0] << " x "
                     << types[1] << " with M = " << m << ", N = " << n
                     << ", K = " << k << "; using the resolver's heuristic";
  }
  DataTiledLayoutAttr layout =
      gfx950::resolveLayout(op->getContext(), types[0], types[1], m, n, k,
                            *this, groups, /*splitK=*/!grouped);
  if (getRequireUkernel()) {
    UKernelSelection selection = gfx950::selectUKernel(layout);
    if (!selection.name) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << "no gfx950 ukernel serves " << types[0] << " x " << types[1]
          << " with these options (require-ukernel); the closest layout is "
          << layout;
      diag.attachNote() << "ukernels rejected it:\n" << selection.rejections;
      return diag;
    }
  }
  return cast<TiledLayoutAttrInterface>(layout);
}

LogicalResult TargetAttr::checkEpilogueOp(Operation *op,
                                          raw_ostream &reason) const {
  return gfx950::checkEpilogueOp(op, reason);
}

SmallVector<int64_t> TargetAttr::getDynamicMBuckets() const {
  // Decode sizes get their small-M layouts (one 16-row tile; up to 64 rows);
  // larger M the generic layout of a dynamic M.
  return {16, kSmallM};
}

int64_t TargetAttr::resolveSplitK(Operation *op, raw_ostream &why) const {
  auto mma = dyn_cast<TiledScaledMMAOp>(op);
  if (!mma)
    return 1;
  unsigned numBatch = mma.getNumBatchDims();
  auto lhsType = cast<ShapedType>(mma.getLhs().getType());
  auto rhsType = cast<ShapedType>(mma.getRhs().getType());
  DataTiledLayoutAttr layout = getDataTiledLayout(mma.getLayout());
  // A dynamic M known to be small (mx-specialize-dynamic-m): its bound.
  auto mBound = mma->getAttrOfType<IntegerAttr>(MXDialect::kMBoundAttrName);
  // Workgroups: batch x M tiles x N tiles (dynamic if any is).
  int64_t workgroups = 1;
  for (unsigned d = 0; d <= numBatch; ++d) {
    int64_t size = lhsType.getDimSize(d);
    if (d == numBatch && ShapedType::isDynamic(size) && mBound && layout)
      size = llvm::divideCeil(mBound.getInt(), getTileSizes(layout).m);
    // (Saturated: a count past int64 is as many as there can be.)
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(workgroups))
      workgroups = ShapedType::kDynamic;
    else
      workgroups = llvm::checkedMul(workgroups, size).value_or(INT64_MAX);
  }
  int64_t nTiles = rhsType.getDimSize(numBatch);
  if (ShapedType::isDynamic(nTiles))
    workgroups = ShapedType::kDynamic;
  else if (!ShapedType::isDynamic(workgroups))
    workgroups = llvm::checkedMul(workgroups, nTiles).value_or(INT64_MAX);
  int64_t kTiles = lhsType.getDimSize(numBatch + 1);
  int64_t pinned = getSplitK();
  // A tuned configuration's split_k, for the contraction's sizes: M and N of
  // an accumulator in the user's layout, else the padded tiles (M: the
  // bound of a dynamic M); K padded to the K tile.
  if (!pinned && layout && !ShapedType::isDynamic(kTiles)) {
    TileSizes tile = getTileSizes(layout);
    auto accType = cast<ShapedType>(mma.getAcc().getType());
    // (A padded size past int64 is unknown: no configuration matches it.)
    auto padded = [](int64_t tiles, int64_t tile) {
      return ShapedType::isDynamic(tiles)
                 ? ShapedType::kDynamic
                 : llvm::checkedMul(tiles, tile).value_or(ShapedType::kDynamic);
    };
    int64_t m = mma.hasUserLayoutAcc()
                    ? accType.getDimSize(numBatch)
                    : padded(lhsType.getDimSize(numBatch), tile.m);
    if (ShapedType::isDynamic(m) && mBound)
      m = mBound.getInt();
    int64_t n = mma.hasUserLayoutAcc()
                    ? accType.getDimSize(numBatch + 1)
                    : padded(rhsType.getDimSize(numBatch), tile.n);
    std::string error;
    FailureOr<const ConfigEntry *> entry =
        lookupConfig(*this, layout.getLhsType(), layout.getRhsType(), m, n,
                     padded(kTiles, tile.k), error);
    if (succeeded(entry) && *entry) {
      pinned = cast<TargetAttr>((*entry)->pins).getSplitK();
      if (pinned)
        why << "tuned configuration: ";
    }
  }
  return gfx950::chooseSplitK(workgroups, kTiles, pinned, why);
}

FailureOr<std::string>
TargetAttr::selectUKernel(Attribute layout, raw_ostream &rejections) const {
  DataTiledLayoutAttr tiled = getDataTiledLayout(layout);
  if (!tiled) {
    rejections << "gfx950 ukernels take an #mx.data_tiled_layout of "
                  "#mx_gfx950.scaled_mfma, got "
               << layout << "\n";
    return failure();
  }
  UKernelSelection selection = gfx950::selectUKernel(tiled);
  rejections << selection.rejections;
  if (!selection.name)
    return failure();
  return *selection.name;
}
