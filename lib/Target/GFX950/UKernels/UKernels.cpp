//===- UKernels.cpp - the gfx950 ukernel library --------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/UKernels/UKernels.h"
#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"
#include "mx/Target/GFX950/Layout/Layout.h"
#include "mx/Target/GFX950/UKernels/QuantizeBlock.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
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

/// Whether `value` is the entry `key` of `match` or one of its elements when
/// the entry is an array (a ukernel serving several values).
static bool matchesEntry(DictionaryAttr match, StringRef key, Attribute value) {
  Attribute entry = match.get(key);
  if (auto array = dyn_cast_or_null<ArrayAttr>(entry))
    return llvm::is_contained(array.getValue(), value);
  return entry && entry == value;
}

/// Checks one ukernel's match data against `layout`; returns an empty string
/// on a match, else the reason.
static std::string matchUKernel(DictionaryAttr match,
                                DataTiledLayoutAttr layout, bool quantizedLhs) {
  if (!match)
    return "no mx.ukernel.match data";
  auto quantizes = match.getAs<BoolAttr>("quantized_lhs");
  if (quantizedLhs != (quantizes && quantizes.getValue()))
    return quantizedLhs ? "does not quantize A" : "quantizes A itself";
  MLIRContext *ctx = layout.getContext();
  if (!matchesEntry(match, "intrinsic",
                    StringAttr::get(ctx, stringifyScaledMMAIntrinsic(
                                             getIntrinsic(layout)))))
    return "intrinsic differs";
  if (!matchesEntry(match, "lhs_type", TypeAttr::get(layout.getLhsType())) ||
      !matchesEntry(match, "rhs_type", TypeAttr::get(layout.getRhsType())))
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

/// The library's entry for the ukernel `name`, if any.
static const UKernelInfo *lookupUKernel(MLIRContext *ctx, StringRef name) {
  for (const UKernelInfo &ukernel : getLibrary(ctx))
    if (ukernel.name == name)
      return &ukernel;
  return nullptr;
}

UKernelSelection mlir::mx::gfx950::selectUKernel(DataTiledLayoutAttr layout,
                                                 bool quantizedLhs) {
  UKernelSelection selection;
  llvm::raw_string_ostream os(selection.rejections);
  for (const UKernelInfo &ukernel : getLibrary(layout.getContext())) {
    std::string reason = ukernel.match
                             ? matchUKernel(ukernel.match, layout, quantizedLhs)
                             : ukernel.problem;
    if (reason.empty()) {
      selection.name = ukernel.name.str();
      return selection;
    }
    os << ukernel.name << ": " << reason << "\n";
  }
  return selection;
}

RegisterSchedule mlir::mx::gfx950::getRegisterSchedule(
    MLIRContext *context, StringRef name, DataTiledLayoutAttr layout,
    bool zeroAccumulators, std::optional<int64_t> kSteps) {
  RegisterSchedule schedule;
  const UKernelInfo *ukernel = lookupUKernel(context, name);
  if (!ukernel || !ukernel->registerSchedules)
    return schedule;
  auto accepts = [](DictionaryAttr entry, StringRef key, Attribute value) {
    return !entry.get(key) || matchesEntry(entry, key, value);
  };
  auto count = [&](int64_t value) {
    return IntegerAttr::get(IntegerType::get(context, 64), value);
  };
  // The library checked the data (checkRegisterSchedules).
  for (Attribute attr : ukernel->registerSchedules) {
    auto entry = cast<DictionaryAttr>(attr);
    if (!accepts(entry, "intrinsic",
                 StringAttr::get(context, stringifyScaledMMAIntrinsic(
                                              getIntrinsic(layout)))) ||
        !accepts(entry, "lhs_type", TypeAttr::get(layout.getLhsType())) ||
        !accepts(entry, "rhs_type", TypeAttr::get(layout.getRhsType())) ||
        !accepts(entry, "intrinsics_m", count(layout.getIntrinsicsM())) ||
        !accepts(entry, "intrinsics_n", count(layout.getIntrinsicsN())) ||
        !accepts(entry, "intrinsics_k", count(layout.getIntrinsicsK())) ||
        !accepts(
            entry, "accumulators",
            StringAttr::get(context, zeroAccumulators ? "zero" : "memory")))
      continue;
    if (auto least = entry.getAs<IntegerAttr>("min_k_steps"))
      if (!kSteps || *kSteps < least.getInt())
        continue;
    if (auto most = entry.getAs<IntegerAttr>("max_k_steps"))
      if (!kSteps || *kSteps > most.getInt())
        continue;
    if (auto unroll = entry.getAs<IntegerAttr>("unroll_k"))
      schedule.unrollK = unroll.getInt();
    if (auto agprs = entry.getAs<BoolAttr>("accumulator_agprs"))
      schedule.accumulatorAGPRs = agprs.getValue();
    if (auto peel = entry.getAs<BoolAttr>("peel_first_k"))
      schedule.peelFirstK = peel.getValue();
    if (auto rows = entry.getAs<IntegerAttr>("lookahead_rows"))
      schedule.lookaheadRows = rows.getInt();
    if (auto late = entry.getAs<BoolAttr>("late_next_rows"))
      schedule.lateNextRows = late.getValue();
    if (auto remainder = entry.getAs<BoolAttr>("unroll_remainder"))
      schedule.unrollRemainder = remainder.getValue();
    break;
  }
  return schedule;
}

std::string mlir::mx::gfx950::checkRegisterSchedules(ArrayAttr schedules) {
  // `value`, or each element of it when it is a list, satisfies `accepts`.
  auto each = [](Attribute value, function_ref<bool(Attribute)> accepts) {
    if (auto list = dyn_cast<ArrayAttr>(value))
      return !list.empty() && llvm::all_of(list.getValue(), accepts);
    return accepts(value);
  };
  auto isIntrinsic = [](Attribute value) {
    auto name = dyn_cast<StringAttr>(value);
    return name && symbolizeScaledMMAIntrinsic(name.getValue()).has_value();
  };
  auto isType = [](Attribute value) { return isa<TypeAttr>(value); };
  auto isSource = [](Attribute value) {
    auto name = dyn_cast<StringAttr>(value);
    return name && (name.getValue() == "memory" || name.getValue() == "zero");
  };
  auto isPositive = [](Attribute value) {
    auto count = dyn_cast<IntegerAttr>(value);
    return count && count.getType().isInteger(64) && count.getInt() >= 1;
  };
  for (auto [index, attr] : llvm::enumerate(schedules)) {
    std::string where = "entry " + std::to_string(index) + ": ";
    auto entry = dyn_cast<DictionaryAttr>(attr);
    if (!entry)
      return where + "not a dictionary";
    for (NamedAttribute key : entry) {
      StringRef name = key.getName().getValue();
      Attribute value = key.getValue();
      bool valid = false;
      if (name == "intrinsic") {
        valid = each(value, isIntrinsic);
      } else if (name == "lhs_type" || name == "rhs_type") {
        valid = each(value, isType);
      } else if (name == "accumulators") {
        valid = each(value, isSource);
      } else if (name == "intrinsics_m" || name == "intrinsics_n" ||
                 name == "intrinsics_k") {
        valid = each(value, isPositive);
      } else if (name == "min_k_steps" || name == "max_k_steps" ||
                 name == "lookahead_rows") {
        auto least = dyn_cast<IntegerAttr>(value);
        valid = least && least.getInt() >= 1;
      } else if (name == "unroll_k") {
        auto factor = dyn_cast<IntegerAttr>(value);
        valid = factor && factor.getInt() >= 1 &&
                factor.getInt() <= kMaxUKernelUnrollK;
      } else if (name == "accumulator_agprs" || name == "peel_first_k" ||
                 name == "late_next_rows" || name == "unroll_remainder") {
        valid = isa<BoolAttr>(value);
      } else {
        return where + "unknown key '" + name.str() + "'";
      }
      if (!valid) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << where << "'" << name << "' cannot be " << value;
        return text;
      }
    }
  }
  return "";
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

/// Bytes of LDS of one K step of the workgroup's `role` tile (lhs or rhs).
static int64_t getOperandStageBytes(DataTiledLayoutAttr layout,
                                    OperandRole role) {
  // [subgroups, unroll, intrinsics_k, 64 lanes, bytes per lane]
  SmallVector<int64_t> shape = getUKernelTileShape(layout, role);
  int64_t fragments = shape[0] * shape[1] * shape[2];
  return fragments * llvm::divideCeil(shape[4], 16) * kWaveSize * 16;
}

int64_t mlir::mx::gfx950::getUKernelStageBytes(DataTiledLayoutAttr layout) {
  return getOperandStageBytes(layout, OperandRole::lhs) +
         getOperandStageBytes(layout, OperandRole::rhs);
}

int64_t mlir::mx::gfx950::getUKernelLDSBytes(DataTiledLayoutAttr layout) {
  int64_t staging = 2 * getUKernelStageBytes(layout);
  // Where two stages of A and B do not fit but B is private (one wave along
  // M, the pipelined schedule: fp4 A, or wider A with three stages of A),
  // the ukernel stages A only: four stages where they fit, else three.
  int64_t stageA = getOperandStageBytes(layout, OperandRole::lhs);
  if (staging > kLDSBytes && layout.getSubgroupsM() == 1 &&
      3 * stageA <= kLDSBytes)
    staging = 4 * stageA <= kLDSBytes ? 4 * stageA : 3 * stageA;
  // Two K steps of A's scales ([subgroups, 64 lanes, bytes per lane]), the
  // ring the pipelined schedule copies them into once per workgroup when
  // several waves share them: only where it fits and leaves as many
  // workgroups per CU as the staging alone.
  SmallVector<int64_t> scales =
      getUKernelTileShape(layout, OperandRole::lhs_scales);
  int64_t withRing = staging + 2 * scales[0] * scales[1] * scales[2];
  if (staging <= 0 || withRing > kLDSBytes ||
      kLDSBytes / withRing != kLDSBytes / staging)
    return staging;
  return withRing;
}

int64_t
mlir::mx::gfx950::getQuantizedLhsStageBytes(DataTiledLayoutAttr layout) {
  SmallVector<int64_t> shape = getUKernelTileShape(layout, OperandRole::lhs);
  return shape[0] * shape[1] * shape[2] * kWaveSize * (16 + 1);
}

FailureOr<FunctionType>
mlir::mx::gfx950::getUKernelFunctionType(MLIRContext *context, StringRef name) {
  const UKernelInfo *ukernel = lookupUKernel(context, name);
  if (!ukernel || !ukernel->functionType)
    return failure();
  return ukernel->functionType;
}

bool mlir::mx::gfx950::hasUKernelTypeParameters(MLIRContext *context,
                                                StringRef name) {
  const UKernelInfo *ukernel = lookupUKernel(context, name);
  return ukernel && ukernel->typeParameters;
}

DictionaryAttr mlir::mx::gfx950::getUKernelTypeParameters(
    DataTiledLayoutAttr layout, std::optional<LhsQuantization> quantization) {
  MLIRContext *ctx = layout.getContext();
  Builder b(ctx);
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("intrinsic", b.getStringAttr(stringifyScaledMMAIntrinsic(
                                      getIntrinsic(layout)))),
      b.getNamedAttr("lhs_type", TypeAttr::get(layout.getLhsType())),
      b.getNamedAttr("rhs_type", TypeAttr::get(layout.getRhsType()))};
  if (quantization) {
    entries.push_back(
        b.getNamedAttr("lhs_source", TypeAttr::get(quantization->sourceType)));
    entries.push_back(b.getNamedAttr(
        "lhs_scale", b.getStringAttr(stringifyScaleRule(quantization->scale))));
    entries.push_back(b.getNamedAttr(
        "lhs_rounding",
        b.getStringAttr(stringifyRounding(quantization->rounding))));
  }
  return b.getDictionaryAttr(entries);
}

namespace {
/// The values of the type parameters of the scaled MMA ukernels.
struct TypeParameters {
  ScaledMMAIntrinsic intrinsic;
  Type lhsType, rhsType;
  /// For a ukernel that quantizes A itself.
  std::optional<LhsQuantization> quantization;

  /// Reads `dict`; `what` names it in diagnostics.
  static FailureOr<TypeParameters>
  read(DictionaryAttr dict, StringRef what,
       function_ref<InFlightDiagnostic()> emitError) {
    auto intrinsic = dict.getAs<StringAttr>("intrinsic");
    auto lhs = dict.getAs<TypeAttr>("lhs_type");
    auto rhs = dict.getAs<TypeAttr>("rhs_type");
    std::optional<ScaledMMAIntrinsic> value =
        intrinsic ? symbolizeScaledMMAIntrinsic(intrinsic.getValue())
                  : std::nullopt;
    // Optionally how A is quantized: all three or none.
    auto source = dict.getAs<TypeAttr>("lhs_source");
    auto scale = dict.getAs<StringAttr>("lhs_scale");
    auto rounding = dict.getAs<StringAttr>("lhs_rounding");
    std::optional<ScaleRule> scaleRule =
        scale ? symbolizeScaleRule(scale.getValue()) : std::nullopt;
    std::optional<Rounding> roundingMode =
        rounding ? symbolizeRounding(rounding.getValue()) : std::nullopt;
    bool quantized = source || scale || rounding;
    bool quantizationValid =
        !quantized ||
        (source && scaleRule && roundingMode &&
         (source.getValue().isBF16() || source.getValue().isF16() ||
          source.getValue().isF32()) &&
         isa<Float4E2M1FNType>(lhs ? lhs.getValue() : Type()));
    if (!value || !lhs || !rhs || !isMXElementType(lhs.getValue()) ||
        !isMXElementType(rhs.getValue()) || !quantizationValid ||
        dict.size() != (quantized ? 6u : 3u)) {
      emitError() << what
                  << " must be {intrinsic = \"mfma_scale_16x16x128\" or "
                     "\"mfma_scale_32x32x64\", lhs_type = <MX element type>, "
                     "rhs_type = <MX element type>}, plus for a ukernel that "
                     "quantizes A (f4E2M1FN) lhs_source = bf16, f16 or f32, "
                     "lhs_scale = <scale rule> and lhs_rounding = <rounding>, "
                     "got "
                  << dict;
      return failure();
    }
    TypeParameters result{*value, lhs.getValue(), rhs.getValue(), {}};
    if (quantized)
      result.quantization =
          LhsQuantization{source.getValue(), *scaleRule, *roundingMode};
    return result;
  }
};
} // namespace

/// The prefix of the operand hooks a ukernel calls, `<hook>_lhs` and
/// `<hook>_rhs`, implemented by `<hook>_f<bits>` for the operand's element
/// type.
static constexpr StringLiteral kHookPrefix = "mx_uk_";

/// Replaces, in `op` and everything nested in it, the rank-1 vectors whose
/// element type `elementMap` maps, and the accumulator vectors of
/// `fromAcc` f32 values by `toAcc` ones.
static void replaceVectorTypes(Operation *op,
                               const DenseMap<Type, Type> &elementMap,
                               int64_t fromAcc = 0, int64_t toAcc = 0) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](VectorType type) -> std::optional<Type> {
    if (type.getRank() != 1 || type.isScalable())
      return std::nullopt;
    Type element = type.getElementType();
    if (auto it = elementMap.find(element); it != elementMap.end())
      return VectorType::get(type.getShape(), it->second);
    if (fromAcc && fromAcc != toAcc && element.isF32() &&
        type.getNumElements() == fromAcc)
      return VectorType::get({toAcc}, element);
    return std::nullopt;
  });
  replacer.recursivelyReplaceElementsIn(op, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

/// Clones the single-block body of `callee` before `call`, its arguments
/// bound to the call's operands (`onClone` sees each clone), and returns the
/// values it returns; the caller replaces the call's results with them.
static SmallVector<Value>
cloneBodyBefore(func::CallOp call, func::FuncOp callee,
                function_ref<void(Operation *)> onClone = nullptr) {
  OpBuilder builder(call);
  IRMapping mapping;
  mapping.map(callee.getArguments(), call.getOperands());
  Block &body = callee.getBody().front();
  for (Operation &op : body.without_terminator()) {
    Operation *clone = builder.clone(op, mapping);
    if (onClone)
      onClone(clone);
  }
  return llvm::map_to_vector(
      cast<func::ReturnOp>(body.getTerminator()).getOperands(),
      [&](Value value) { return mapping.lookupOrDefault(value); });
}

/// Replaces `call` (to an operand hook `<hook>_<role>`) by the body of the
/// hook's implementation for `type`, `<hook>_f<bits>` in `library` (or, if
/// it has none, in `shared`: the source of @mx_uk_scaled_mma, home of the
/// operand hooks), its element type replaced by `type`.
static LogicalResult
implementHook(ModuleOp library, ModuleOp shared, func::CallOp call,
              StringRef hook, Type type,
              function_ref<InFlightDiagnostic()> emitError) {
  std::string name = (hook + "_f" + Twine(type.getIntOrFloatBitWidth())).str();
  auto impl = library.lookupSymbol<func::FuncOp>(name);
  if ((!impl || impl.isExternal()) && shared)
    impl = shared.lookupSymbol<func::FuncOp>(name);
  if (!impl || impl.isExternal() || !impl.getBody().hasOneBlock() ||
      !llvm::equal(impl.getArgumentTypes(), call.getOperandTypes()) ||
      impl.getNumResults() != call.getNumResults()) {
    emitError() << "ukernel hook '" << call.getCallee()
                << "' needs an implementation '" << name
                << "' with a single-block body and the hook's operands";
    return failure();
  }
  // The implementation is written for one element type of the storage
  // class; it serves the others of the same width.
  DenseMap<Type, Type> elementMap;
  for (Type result : impl.getResultTypes())
    if (auto vector = dyn_cast<VectorType>(result))
      if (vector.getElementType() != type)
        elementMap[vector.getElementType()] = type;
  SmallVector<Value> replacements =
      cloneBodyBefore(call, impl, [&](Operation *clone) {
        replaceVectorTypes(clone, elementMap);
      });
  for (auto [result, replacement] :
       llvm::zip_equal(call.getResults(), replacements)) {
    if (result.getType() != replacement.getType()) {
      emitError() << "ukernel hook '" << call.getCallee() << "' returns "
                  << result.getType() << ", its implementation '" << name
                  << "' " << replacement.getType();
      return failure();
    }
    result.replaceAllUsesWith(replacement);
  }
  call.erase();
  return success();
}

/// The name of the hook of a ukernel that quantizes A: one block of 32
/// unquantized values of a lane to its fp4 element vector and scale byte.
static constexpr StringLiteral kQuantizeLhsHook = "mx_uk_quantize_lhs";

/// Replaces `call` (to kQuantizeLhsHook) by the quantize code of
/// `quantization` (mx::gfx950::quantizeBlock, packed conversions where they
/// give the rounding exactly).
static LogicalResult
implementQuantizeHook(func::CallOp call, Type elementType,
                      const LhsQuantization &quantization,
                      function_ref<InFlightDiagnostic()> emitError) {
  auto fp4 = dyn_cast<Float4E2M1FNType>(elementType);
  auto blockType = VectorType::get({kBlockSize}, quantization.sourceType);
  auto resultType = VectorType::get({kBlockSize}, elementType);
  OpBuilder b(call);
  if (!fp4 || call.getNumOperands() != 1 ||
      call.getOperand(0).getType() != blockType ||
      call.getResultTypes() != TypeRange{resultType, b.getI8Type()}) {
    emitError() << "ukernel hook '" << kQuantizeLhsHook << "' must take a "
                << blockType << " and return " << resultType << " (fp4) and i8";
    return failure();
  }
  Location loc = call.getLoc();
  QuantizedBlock block =
      quantizeBlock(b, loc, call.getOperand(0), quantization.scale,
                    quantization.rounding, fp4,
                    canUsePackedConversions(fp4, quantization.rounding,
                                            quantization.sourceType));
  SmallVector<Value> bytes = getBlockBytes(b, loc, block, fp4);
  Value vector = vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(bytes.size())}, b.getI8Type()), bytes);
  Value codes = vector::BitCastOp::create(
      b, loc, VectorType::get({kBlockSize}, b.getIntegerType(4)), vector);
  Value elements = arith::BitcastOp::create(b, loc, resultType, codes);
  call.replaceAllUsesWith(ValueRange{elements, block.scaleByte});
  call.erase();
  return success();
}

FailureOr<OwningOpRef<ModuleOp>> mlir::mx::gfx950::instantiateUKernel(
    MLIRContext *context, StringRef name, DictionaryAttr typeParameters,
    function_ref<InFlightDiagnostic()> emitError) {
  std::optional<StringRef> source = getUKernelSource(name);
  if (!source) {
    emitError() << "no gfx950 ukernel named '" << name
                << "' in the ukernel library";
    return failure();
  }
  return instantiateUKernelSource(context, name, *source, typeParameters,
                                  emitError);
}

/// Inlines into `instance` the calls to helper functions that the ukernel
/// `ukernel`'s source `library` defines (not hooks, which are declarations
/// there): a helper may call hooks and other helpers.
static LogicalResult
inlineHelpers(ModuleOp library, func::FuncOp ukernel, func::FuncOp instance,
              StringRef name, function_ref<InFlightDiagnostic()> emitError) {
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<func::CallOp> calls;
    instance.walk([&](func::CallOp call) { calls.push_back(call); });
    for (func::CallOp call : calls) {
      auto helper = library.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!helper || helper.isExternal() || helper == ukernel)
        continue;
      if (!helper.getBody().hasOneBlock() ||
          helper.getFunctionType() != call.getCalleeType()) {
        emitError() << "ukernel '" << name << "': helper '" << call.getCallee()
                    << "' must have a single-block body and the call's type";
        return failure();
      }
      call.replaceAllUsesWith(cloneBodyBefore(call, helper));
      call.erase();
      changed = true;
    }
  }
  return success();
}

/// Binds the type parameters `to` of `instance`, written for `from`: the
/// unquantized A values' type, the operand vectors, the accumulators and the
/// MFMA's shape.
static void bindTypes(func::FuncOp instance, const TypeParameters &from,
                      const TypeParameters &to) {
  // The unquantized A values' type, everywhere (the source view and the
  // blocks of the quantize hook).
  if (from.quantization &&
      from.quantization->sourceType != to.quantization->sourceType) {
    Type fromSource = from.quantization->sourceType;
    Type toSource = to.quantization->sourceType;
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](Type type) -> std::optional<Type> {
      if (type == fromSource)
        return toSource;
      return std::nullopt;
    });
    replacer.recursivelyReplaceElementsIn(instance, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }

  // The body: operand vectors, accumulators and the MFMA's shape.
  DenseMap<Type, Type> elementMap = {{from.lhsType, to.lhsType},
                                     {from.rhsType, to.rhsType}};
  IntrinsicInfo fromInfo = getIntrinsicInfo(from.intrinsic);
  IntrinsicInfo toInfo = getIntrinsicInfo(to.intrinsic);
  replaceVectorTypes(instance, elementMap, fromInfo.accPerLane,
                     toInfo.accPerLane);
  instance.walk([&](amdgpu::ScaledMFMAOp mfma) {
    mfma.setM(toInfo.m);
    mfma.setN(toInfo.n);
    mfma.setK(toInfo.k);
  });
}

/// Implements the operand hooks `instance` calls (ukernel `name`, parsed
/// from `library`) for the type parameters `to`, in the ukernel's source or
/// in that of @mx_uk_scaled_mma (parsed with `config`).
static LogicalResult
implementHooks(func::FuncOp instance, ModuleOp library, StringRef name,
               const TypeParameters &to, ParserConfig &config,
               function_ref<InFlightDiagnostic()> emitError) {
  OwningOpRef<ModuleOp> shared;
  if (name != kScaledMMAUKernel)
    if (std::optional<StringRef> text = getUKernelSource(kScaledMMAUKernel))
      shared = parseSourceString<ModuleOp>(*text, config, kScaledMMAUKernel);
  SmallVector<func::CallOp> hooks;
  instance.walk([&](func::CallOp call) {
    if (call.getCallee().starts_with(kHookPrefix))
      hooks.push_back(call);
  });
  for (func::CallOp call : hooks) {
    StringRef callee = call.getCallee();
    if (callee == kQuantizeLhsHook) {
      if (!to.quantization) {
        emitError() << "ukernel '" << name << "' calls '" << callee
                    << "' but does not quantize A";
        return failure();
      }
      if (failed(implementQuantizeHook(call, to.lhsType, *to.quantization,
                                       emitError)))
        return failure();
      continue;
    }
    Type type;
    StringRef hook;
    if (callee.ends_with("_lhs")) {
      type = to.lhsType;
      hook = callee.drop_back(4);
    } else if (callee.ends_with("_rhs")) {
      type = to.rhsType;
      hook = callee.drop_back(4);
    } else {
      emitError() << "ukernel '" << name << "' calls '" << callee
                  << "', which is not an operand hook (<name>_lhs or "
                     "<name>_rhs)";
      return failure();
    }
    if (failed(implementHook(library, shared ? *shared : ModuleOp(), call, hook,
                             type, emitError)))
      return failure();
  }
  return success();
}

FailureOr<OwningOpRef<ModuleOp>> mlir::mx::gfx950::instantiateUKernelSource(
    MLIRContext *context, StringRef name, StringRef source,
    DictionaryAttr typeParameters,
    function_ref<InFlightDiagnostic()> emitError) {
  ParserConfig config(context);
  OwningOpRef<ModuleOp> library =
      parseSourceString<ModuleOp>(source, config, name);
  if (!library) {
    emitError() << "cannot parse the embedded ukernel '" << name << "'";
    return failure();
  }
  auto ukernel = library->lookupSymbol<func::FuncOp>(name);
  if (!ukernel || ukernel.isExternal() || !ukernel.getBody().hasOneBlock()) {
    emitError() << "ukernel '" << name
                << "' must define a function with a single-block body";
    return failure();
  }
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> result = ModuleOp::create(ukernel.getLoc());
  builder.setInsertionPointToEnd(result->getBody());
  auto instance = cast<func::FuncOp>(builder.clone(*ukernel));
  auto reference =
      ukernel->getAttrOfType<DictionaryAttr>(kUKernelTypeParameters);
  if (!reference) {
    if (typeParameters && !typeParameters.empty()) {
      emitError() << "ukernel '" << name << "' takes no type parameters";
      return failure();
    }
    return result;
  }
  if (!typeParameters) {
    emitError() << "ukernel '" << name << "' needs its type parameters ("
                << kUKernelTypeParameters << ", e.g. " << reference << ")";
    return failure();
  }
  FailureOr<TypeParameters> from = TypeParameters::read(
      reference,
      ("the " + kUKernelTypeParameters + " of ukernel '" + name + "'").str(),
      emitError);
  FailureOr<TypeParameters> to =
      TypeParameters::read(typeParameters, kUKernelTypeParameters, emitError);
  if (failed(from) || failed(to))
    return failure();
  if (from->lhsType == from->rhsType) {
    emitError() << "ukernel '" << name
                << "' must be written for two different element types to "
                   "tell its operands apart";
    return failure();
  }
  if (failed(inlineHelpers(*library, ukernel, instance, name, emitError)))
    return failure();
  if (from->quantization.has_value() != to->quantization.has_value()) {
    emitError() << "ukernel '" << name << "' "
                << (from->quantization ? "quantizes A and needs"
                                       : "does not quantize A and takes no")
                << " lhs_source, lhs_scale and lhs_rounding type parameters, "
                   "got "
                << typeParameters;
    return failure();
  }
  instance->setAttr(kUKernelTypeParameters, typeParameters);
  bindTypes(instance, *from, *to);
  if (failed(implementHooks(instance, *library, name, *to, config, emitError)))
    return failure();
  if (failed(verify(*result))) {
    emitError() << "ukernel '" << name << "' does not verify with "
                << typeParameters;
    return failure();
  }
  return result;
}
