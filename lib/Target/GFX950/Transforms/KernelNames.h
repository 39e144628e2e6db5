//===- KernelNames.h - Names of the gfx950 lowerings' kernels ---*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Target/GFX950/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_TARGET_GFX950_TRANSFORMS_KERNELNAMES_H
#define MX_LIB_TARGET_GFX950_TRANSFORMS_KERNELNAMES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace mlir::mx::gfx950::detail {

/// The name of the kernel of a gpu.launch that replaces `op` when the caller
/// names none: `<function>_<kind><n>` (`mx` outside a function), with the
/// first n that no launch of the enclosing function uses. The passes number
/// their launches the same way, in order.
inline std::string getUnusedKernelName(Operation *op, StringRef kind) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  StringRef funcName = func ? func.getName() : StringRef("mx");
  llvm::StringSet<> used;
  if (func)
    func->walk([&](gpu::LaunchOp launch) {
      if (std::optional<StringRef> name = launch.getFunction())
        used.insert(*name);
    });
  for (unsigned n = 0;; ++n) {
    std::string name = (funcName + "_" + kind + Twine(n)).str();
    if (!used.contains(name))
      return name;
  }
}

} // namespace mlir::mx::gfx950::detail

#endif // MX_LIB_TARGET_GFX950_TRANSFORMS_KERNELNAMES_H
