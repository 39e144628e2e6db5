//===- Version.h - C API of mx's version --------------------------*- C -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The version of the mx library a client runs against (the C API is
// versioned with mx: fields appended to an options struct come with a new
// version).
//
//===----------------------------------------------------------------------===//

#ifndef MX_C_VERSION_H
#define MX_C_VERSION_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mx's version, "MAJOR.MINOR.PATCH" (e.g. "0.1.0"); the string is static.
MLIR_CAPI_EXPORTED MlirStringRef mxGetVersion(void);

/// The git commit mx was built from (a short hash, or "unknown"); static.
MLIR_CAPI_EXPORTED MlirStringRef mxGetCommit(void);

#ifdef __cplusplus
}
#endif

#endif // MX_C_VERSION_H
