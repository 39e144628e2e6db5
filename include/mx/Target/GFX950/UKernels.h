//===- UKernels.h - the gfx950 ukernel library ------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The MLIR sources of ukernels/gfx950/*.mlir, embedded in the binaries at
// build time so that installed tools work without the source tree.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_UKERNELS_H
#define MX_TARGET_GFX950_UKERNELS_H

#include "mx/Dialect/MX/IR/MXOps.h"

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

/// Names of the ukernels the library ships (`ukernels/gfx950/<name>.mlir`),
/// for code that asks for one by name (tests, tools). Selection does not use
/// them: it reads each ukernel's `mx.ukernel.match` data.
constexpr llvm::StringLiteral kFp4UKernel =
    "mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN";
constexpr llvm::StringLiteral kFp8UKernel =
    "mx_uk_scaled_mma_16x16x128_f8E4M3FN_f8E4M3FN";
constexpr llvm::StringLiteral kMixedUKernel =
    "mx_uk_scaled_mma_16x16x128_f8E4M3FN_f4E2M1FN";
constexpr llvm::StringLiteral kFp4x32UKernel =
    "mx_uk_scaled_mma_32x32x64_f4E2M1FN_f4E2M1FN";

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
/// interleaving, and `intrinsics_{m,n} * intrinsics_k` multiples of
/// `scale_bytes_multiple_of`. The first match in library order wins. The
/// match data is parsed once per context (GFX950Dialect::getUKernelLibrary).
UKernelSelection selectUKernel(DataTiledLayoutAttr layout);

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

/// The function type the source of ukernel `name` declares (from the
/// library parsed once per context); fails if there is no such ukernel.
FailureOr<FunctionType> getUKernelFunctionType(MLIRContext *context,
                                               StringRef name);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_UKERNELS_H
