//===- Version.h - mx's version and commit ----------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_SUPPORT_VERSION_H
#define MX_SUPPORT_VERSION_H

#include "llvm/Support/raw_ostream.h"

namespace mlir::mx {

/// mx's version, e.g. "0.1.0" (the CMake project's).
const char *getVersion();

/// The git commit mx was configured from (short hash), or "unknown".
const char *getCommit();

/// Prints "<tool> (mx <version>, commit <hash>)" and the LLVM/MLIR release
/// mx was built with: what every mx tool's `--version` prints.
void printVersion(llvm::raw_ostream &os, llvm::StringRef tool);

/// Makes `--version` of the calling tool print printVersion (call before
/// parsing the command line).
void setVersionPrinter(llvm::StringRef tool);

} // namespace mlir::mx

#endif // MX_SUPPORT_VERSION_H
