//===- UKernels.h - the gfx950 ukernel library ------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The MLIR sources of ukernels/gfx950/*.mlir, embedded in the binaries at
// build time so that installed tools work without the source tree.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_UKERNELS_UKERNELS_H
#define MX_TARGET_GFX950_UKERNELS_UKERNELS_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::mx::gfx950 {

/// One embedded ukernel source file.
struct UKernelSource {
  /// The file name without extension; also the name of the function it
  /// defines.
  StringRef name;
  StringRef text;
};

/// The name of the scaled MMA ukernel the library ships
/// (`ukernels/gfx950/<name>.mlir`), for code that asks for it by name (tests,
/// tools). Selection does not use it: it reads each ukernel's
/// `mx.ukernel.match` data.
constexpr llvm::StringLiteral kScaledMMAUKernel = "mx_uk_scaled_mma";

/// How a ukernel that quantizes A in registers quantizes it
/// (`ukernels/gfx950/mx_uk_scaled_mma_quantized_lhs.mlir`): the type of the
/// unquantized values, the scale rule and the element rounding.
struct LhsQuantization {
  Type sourceType;
  ScaleRule scale;
  Rounding rounding;
};

/// The attribute of a ukernel function that names its type parameters with
/// the values its body is written for, and of a call to it, with the values
/// it wants: `{intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN,
/// rhs_type = f4E2M1FN}`.
/// Marks an scf.for of a ukernel, or of the code around a ukernel call,
/// that mx-gfx950-specialize-ukernels fully unrolls once its bounds are
/// constants.
constexpr llvm::StringLiteral kUnroll = "mx.unroll";
/// Marks the K loop of a ukernel that mx-gfx950-specialize-ukernels unrolls:
/// by its unroll-k option when set, else by the factor the call asks for
/// (kUKernelUnrollK).
constexpr llvm::StringLiteral kUnrollK = "mx.unroll_k";
/// The unroll factor of the ukernel's K loop (kUnrollK) that a ukernel call
/// asks for, from the ukernel's register schedules (getRegisterSchedule).
constexpr llvm::StringLiteral kUKernelUnrollK = "mx.ukernel.unroll_k";
/// Marks a ukernel call whose K loops (kUnrollK) run their first iteration
/// peeled, before they are unrolled: its register schedule's
/// `peel_first_k` (getRegisterSchedule).
constexpr llvm::StringLiteral kUKernelPeelFirstK = "mx.ukernel.peel_first_k";
/// Marks a ukernel call whose K loops are unrolled (kUKernelUnrollK) only
/// where the factor divides their static trip count (after the peel): its
/// register schedule's `unroll_remainder = false` (getRegisterSchedule).
constexpr llvm::StringLiteral kUKernelUnrollWholeK =
    "mx.ukernel.unroll_whole_k";
/// Marks the op of a ukernel whose index result is how many rows of A the
/// ukernel reads ahead of their MFMAs by its own rule; a call that asks for
/// another count (kUKernelLookaheadRows) gets that constant in its place
/// (mx-gfx950-specialize-ukernels). The ukernel caps it at its tile's rows.
constexpr llvm::StringLiteral kLookaheadRows = "mx.lookahead_rows";
/// The rows of A a ukernel call asks its ukernel to read ahead
/// (kLookaheadRows), from the ukernel's register schedules
/// (getRegisterSchedule).
constexpr llvm::StringLiteral kUKernelLookaheadRows =
    "mx.ukernel.lookahead_rows";
/// Marks the op of a ukernel whose i1 result says whether fp4 A reads the
/// next K step's first rows late, in the second half of the step (fewer
/// live registers), by its own rule (false); a call that asks for it
/// (kUKernelLateNextRows) gets `true` in its place
/// (mx-gfx950-specialize-ukernels).
constexpr llvm::StringLiteral kLateNextRows = "mx.late_next_rows";
/// Marks a ukernel call that asks its ukernel to read the next K step's
/// first rows of A late (kLateNextRows): its register schedule's
/// `late_next_rows` (getRegisterSchedule).
constexpr llvm::StringLiteral kUKernelLateNextRows =
    "mx.ukernel.late_next_rows";
/// The largest unroll factor of a ukernel's K loop (kUnrollK: the unroll-k
/// option of mx-gfx950-specialize-ukernels, a call's kUKernelUnrollK, a
/// register schedule's `unroll_k`): each copy of the pipelined K step holds
/// its MFMAs, so more would not fit the instruction cache.
constexpr int64_t kMaxUKernelUnrollK = 8;
/// Marks a kernel's private accumulator array whose values the register
/// schedule pins in AGPRs (mx-gfx950-reserve-accumulator-agprs).
constexpr llvm::StringLiteral kAccumulatorAGPRs = "mx.accumulator_agprs";
/// The attribute of a ukernel function listing its register schedules (see
/// getRegisterSchedule).
constexpr llvm::StringLiteral kUKernelRegisterSchedules =
    "mx.ukernel.register_schedules";
constexpr llvm::StringLiteral kUKernelTypeParameters =
    "mx.ukernel.type_parameters";

/// All embedded ukernel sources.
ArrayRef<UKernelSource> getUKernelSources();

/// The source defining the ukernel function `name`, if any.
std::optional<StringRef> getUKernelSource(StringRef name);

/// The result of matching a layout against the ukernel library.
struct UKernelSelection {
  /// The selected ukernel, if one serves the layout.
  std::optional<std::string> name;
  /// Why each ukernel was rejected, one line per ukernel (for remarks).
  std::string rejections;
};

/// Picks the ukernel whose `mx.ukernel.match` data (next to the ukernel, in
/// its source) accepts `layout`: same intrinsic and element types, the same
/// interleaving, `intrinsics_{m,n} * intrinsics_k` multiples of
/// `scale_bytes_multiple_of`, and `quantized_lhs` (a ukernel that quantizes
/// A itself) only when `quantizedLhs`. The first match in library order
/// wins. The match data is parsed once per context
/// (GFX950Dialect::getUKernelLibrary).
UKernelSelection selectUKernel(DataTiledLayoutAttr layout,
                               bool quantizedLhs = false);

/// How the K loop of a ukernel uses the registers for one configuration:
/// the factor by which its K loop (kUnrollK) is unrolled, and whether the
/// kernel's accumulators are pinned in AGPRs
/// (mx-gfx950-reserve-accumulator-agprs).
struct RegisterSchedule {
  int64_t unrollK = 1;
  bool accumulatorAGPRs = false;
  /// The K loop's first iteration peeled off (before the unroll): with
  /// accumulators that start at zero, its MFMAs then take +0.0 as a
  /// constant and the loop's accumulators are their results, not copies
  /// of one shared zero register (which makes LLVM spill them).
  bool peelFirstK = false;
  /// The rows of A read ahead of their MFMAs (kUKernelLookaheadRows), or 0
  /// for the ukernel's own rule.
  int64_t lookaheadRows = 0;
  /// fp4 A reads the next K step's first rows in the second half of the
  /// step (kUKernelLateNextRows).
  bool lateNextRows = false;
  /// The unroll also where unrollK does not divide the K loop's static trip
  /// count, its remainder after the loop (else the loop is not unrolled
  /// there: kUKernelUnrollWholeK).
  bool unrollRemainder = true;
};

/// The register schedule of ukernel `name` for `layout` with accumulators
/// that come from memory or start at zero (`zeroAccumulators`): the first
/// entry of its `mx.ukernel.register_schedules` data (next to the ukernel,
/// in its source) whose `intrinsic`, `lhs_type`, `rhs_type`,
/// `intrinsics_m`, `intrinsics_n`, `intrinsics_k` (the layout's intrinsics a
/// wave) and `accumulators` ("memory" or "zero") accept the configuration
/// (a missing key accepts any; a list accepts its elements) and whose
/// `min_k_steps`, if any, `kSteps` (the K steps of the kernel's K loop, when
/// static) reaches and whose `max_k_steps`, if any, it does not exceed (both
/// need a static `kSteps`), else the default: no unroll, LLVM's choice of
/// registers. Each entry is a measured choice: the kernels it covers compile
/// without spills and faster by the static model (bench/README.md).
RegisterSchedule getRegisterSchedule(MLIRContext *context, StringRef name,
                                     DataTiledLayoutAttr layout,
                                     bool zeroAccumulators,
                                     std::optional<int64_t> kSteps = {});

/// Checks a ukernel's `mx.ukernel.register_schedules` data: a list of
/// dictionaries whose keys are `intrinsic` (a scaled MFMA intrinsic's name,
/// or a list of them), `lhs_type` and `rhs_type` (a type or a list of
/// types), `accumulators` ("memory" or "zero", or a list), `min_k_steps` and
/// `max_k_steps` (positive integers), `unroll_k` (an integer in [1,
/// kMaxUKernelUnrollK]), `accumulator_agprs`, `peel_first_k`,
/// `late_next_rows` and `unroll_remainder` (bools), `lookahead_rows` (a
/// positive integer). Returns an empty string when it is
/// well formed, else what is wrong. The library
/// (GFX950Dialect::getUKernelLibrary) does not select a ukernel whose data is
/// malformed, and says why.
std::string checkRegisterSchedules(ArrayAttr schedules);

/// The shape in which the ukernels of `layout` view one K step of the
/// workgroup tile of `role` (the byte or f32 array the swizzled tile is in
/// memory, lanes g and r merged into 64):
///
///   lhs        [subgroups_m, intrinsics_m, intrinsics_k, 64, bytes per lane]
///   rhs        [subgroups_n, intrinsics_n, intrinsics_k, 64, bytes per lane]
///   lhs_scales [subgroups_m, 64, intrinsics_m * intrinsics_k]
///   rhs_scales [subgroups_n, 64, intrinsics_n * intrinsics_k]
///   result     [subgroups_m, subgroups_n, intrinsics_m, intrinsics_n, 64,
///               f32 values per lane]
///
/// Operands pass `Ko` (the K tile count) in front of the first four.
SmallVector<int64_t> getUKernelTileShape(DataTiledLayoutAttr layout,
                                         OperandRole role);

/// The type parameters a call needs to run the ukernels on `layout`: its
/// intrinsic and element types, in the form of kUKernelTypeParameters, and
/// with `quantization` how the ukernel quantizes A (`lhs_source`,
/// `lhs_scale`, `lhs_rounding`).
DictionaryAttr getUKernelTypeParameters(
    DataTiledLayoutAttr layout,
    std::optional<LhsQuantization> quantization = std::nullopt);

/// Whether the library's ukernel `name` takes type parameters (calls to it
/// then carry kUKernelTypeParameters).
bool hasUKernelTypeParameters(MLIRContext *context, StringRef name);

/// The ukernel `name` of the embedded library with its type parameters bound
/// to `typeParameters` (see ukernels/gfx950/mx_uk_scaled_mma.mlir): a module
/// holding one function `name` whose body uses the requested element types,
/// accumulator vectors and intrinsic, its operand hooks implemented; its tile
/// parameters are still arguments. A ukernel without type parameters is
/// returned as its source defines it. Diagnostics go to `emitError`.
FailureOr<OwningOpRef<ModuleOp>>
instantiateUKernel(MLIRContext *context, StringRef name,
                   DictionaryAttr typeParameters,
                   function_ref<InFlightDiagnostic()> emitError);

/// instantiateUKernel on the ukernel source text `source` (e.g. an edited
/// copy of a library ukernel, in tests).
FailureOr<OwningOpRef<ModuleOp>>
instantiateUKernelSource(MLIRContext *context, StringRef name, StringRef source,
                         DictionaryAttr typeParameters,
                         function_ref<InFlightDiagnostic()> emitError);

/// Bytes of LDS through which the ukernels stage one K step of the
/// workgroup's A and B tiles: each fragment (one intrinsic's operand, 64
/// lanes) as ceil(lane bytes / 16) chunks of 64 lanes x 16 bytes (fp4: 1
/// KiB, fp6 and fp8: 2 KiB; see ukernels/gfx950/mx_uk_scaled_mma.mlir).
/// The staging buffer holds two K steps.
int64_t getUKernelStageBytes(DataTiledLayoutAttr layout);

/// Bytes of LDS a launch of the ukernels gets: two K steps of staging
/// (getUKernelStageBytes), or, where those do not fit but B is private (one
/// wave along M: fp4 A, or wider A with three stages of A), four stages of
/// A only where they fit, else three; and after them a ring of two K steps
/// of A's scales (which the pipelined schedule copies once per workgroup
/// when several waves share them) where the ring fits the LDS of a
/// workgroup and leaves as many workgroups per CU as the staging alone.
int64_t getUKernelLDSBytes(DataTiledLayoutAttr layout);

/// Bytes of LDS through which the ukernel that quantizes A
/// (mx_uk_scaled_mma_quantized_lhs) shares one K step of the workgroup's
/// quantized A tile between its waves: each fragment's codes (64 lanes x 16
/// bytes) and scale bytes (64). The staging buffer holds two K steps.
int64_t getQuantizedLhsStageBytes(DataTiledLayoutAttr layout);

/// The function type the source of ukernel `name` declares (from the
/// library parsed once per context); fails if there is no such ukernel.
FailureOr<FunctionType> getUKernelFunctionType(MLIRContext *context,
                                               StringRef name);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_UKERNELS_UKERNELS_H
