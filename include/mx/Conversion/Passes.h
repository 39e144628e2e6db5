//===- Passes.h - mx conversion passes --------------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_CONVERSION_PASSES_H
#define MX_CONVERSION_PASSES_H

#include "mx/Conversion/LinalgToGPU/LinalgToGPU.h"
#include "mx/Conversion/MXToLinalg/MXToLinalg.h"

namespace mlir::mx {

#define GEN_PASS_REGISTRATION
#include "mx/Conversion/Passes.h.inc"

} // namespace mlir::mx

#endif // MX_CONVERSION_PASSES_H
