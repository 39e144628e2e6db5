//===- UKernels.h - the gfx950 ukernel library ------------------*- C++ -*-===//
//
// Part of the mx project.
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
/// `scale_bytes_multiple_of`. The first match in library order wins.
UKernelSelection selectUKernel(DataTiledLayoutAttr layout);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_UKERNELS_H
