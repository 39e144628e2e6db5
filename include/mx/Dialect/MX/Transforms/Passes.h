//===- Passes.h - mx dialect transformation passes --------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_PASSES_H
#define MX_DIALECT_MX_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::mx {

#define GEN_PASS_DECL
#include "mx/Dialect/MX/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mx/Dialect/MX/Transforms/Passes.h.inc"

} // namespace mlir::mx

#endif // MX_DIALECT_MX_TRANSFORMS_PASSES_H
