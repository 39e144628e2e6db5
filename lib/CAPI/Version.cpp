//===- Version.cpp - C API of mx's version
//---------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx-c/Version.h"

#include "mx/Support/Version.h"

MlirStringRef mxGetVersion(void) {
  return mlirStringRefCreateFromCString(mlir::mx::getVersion());
}

MlirStringRef mxGetCommit(void) {
  return mlirStringRefCreateFromCString(mlir::mx::getCommit());
}
