//===- Passes.h - generic transformation passes -----------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TRANSFORMS_PASSES_H
#define MX_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mx {

#define GEN_PASS_DECL
#include "mx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mx/Transforms/Passes.h.inc"

} // namespace mlir::mx

#endif // MX_TRANSFORMS_PASSES_H
