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

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

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

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_UKERNELS_H
