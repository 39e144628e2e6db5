//===- MXTransformOps.h - transform.mx.* ops --------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMOPS_MXTRANSFORMOPS_H
#define MX_DIALECT_MX_TRANSFORMOPS_MXTRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "mx/Dialect/MX/TransformOps/MXTransformOps.h.inc"

namespace mlir {
class DialectRegistry;

namespace mx {
/// Registers the `transform.mx.*` ops (an extension of the transform
/// dialect).
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace mx
} // namespace mlir

#endif // MX_DIALECT_MX_TRANSFORMOPS_MXTRANSFORMOPS_H
