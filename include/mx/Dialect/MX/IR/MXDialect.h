//===- MXDialect.h - mx dialect ---------------------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXDIALECT_H
#define MX_DIALECT_MX_IR_MXDIALECT_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "mx/Dialect/MX/IR/MXOpsDialect.h.inc"

#endif // MX_DIALECT_MX_IR_MXDIALECT_H
