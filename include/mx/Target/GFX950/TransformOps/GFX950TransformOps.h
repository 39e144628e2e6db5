//===- GFX950TransformOps.h - transform.mx.gfx950.* ops ---------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_TRANSFORMOPS_GFX950TRANSFORMOPS_H
#define MX_TARGET_GFX950_TRANSFORMOPS_GFX950TRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "mx/Target/GFX950/TransformOps/GFX950TransformOps.h.inc"

namespace mlir {
class DialectRegistry;

namespace mx::gfx950 {
/// Registers the `transform.mx.gfx950.*` ops (an extension of the transform
/// dialect).
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace mx::gfx950
} // namespace mlir

#endif // MX_TARGET_GFX950_TRANSFORMOPS_GFX950TRANSFORMOPS_H
