//===- Dialects.cpp - C API of the mx dialects ----------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx-c/Dialects.h"

#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/InitMX.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MX, mx, mlir::mx::MXDialect)

void mxRegisterDialects(MlirDialectRegistry registry) {
  mlir::mx::registerMXDialects(*unwrap(registry));
}

void mxRegisterPipelineDialects(MlirDialectRegistry registry) {
  mlir::mx::registerPipelineDialects(*unwrap(registry));
}
