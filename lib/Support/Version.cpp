//===- Version.cpp - mx's version and commit
//-------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Support/Version.h"

#include "mx/Support/VersionInfo.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

const char *mlir::mx::getVersion() { return MX_VERSION_STRING; }

const char *mlir::mx::getCommit() { return MX_GIT_COMMIT; }

void mlir::mx::printVersion(llvm::raw_ostream &os, llvm::StringRef tool) {
  os << tool << " (mx " << getVersion() << ", commit " << getCommit()
     << ")\n  built with LLVM/MLIR " << LLVM_VERSION_STRING << "\n";
}

void mlir::mx::setVersionPrinter(llvm::StringRef tool) {
  static std::string name;
  name = tool.str();
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { printVersion(os, name); });
}
