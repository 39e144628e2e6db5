//===- CodeObjects.cpp - C API of compiled kernels
//-------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx-c/CodeObjects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

MlirLogicalResult mxGFX950ForEachCodeObject(MlirOperation root,
                                            MxGFX950CodeObjectCallback callback,
                                            void *userData) {
  if (mlirOperationIsNull(root) || !callback)
    return mlirLogicalResultFailure();
  bool any = false;
  unwrap(root)->walk([&](gpu::BinaryOp binary) {
    any = true;
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      MxGFX950CodeObject result;
      result.binary = wrap(binary.getName());
      result.bytes = wrap(object.getObject().getValue());
      result.isCodeObject =
          object.getFormat() == gpu::CompilationTarget::Binary;
      callback(&result, userData);
    }
  });
  return any ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
