//===- Passes.h - gfx950 target passes --------------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_TRANSFORMS_PASSES_H
#define MX_TARGET_GFX950_TRANSFORMS_PASSES_H

#include "mx/Target/GFX950/IR/GFX950Dialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::mx::gfx950 {

#define GEN_PASS_DECL
#include "mx/Target/GFX950/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mx/Target/GFX950/Transforms/Passes.h.inc"

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_TRANSFORMS_PASSES_H
