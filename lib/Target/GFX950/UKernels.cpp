//===- UKernels.cpp - the gfx950 ukernel library --------------------------===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/UKernels.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
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
