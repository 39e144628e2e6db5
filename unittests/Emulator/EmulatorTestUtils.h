//===- EmulatorTestUtils.h - helpers shared by the emulator tests -*- C++
//-*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_UNITTESTS_EMULATOR_EMULATORTESTUTILS_H
#define MX_UNITTESTS_EMULATOR_EMULATORTESTUTILS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <string>

namespace mlir::mx::emu::test {

/// The message of `error`, or "" on success.
inline std::string message(llvm::Error error) {
  if (!error)
    return "";
  return llvm::toString(std::move(error));
}

/// Parses `text` in `context`; a parse failure fails the test.
inline OwningOpRef<ModuleOp> parseModule(MLIRContext &context, StringRef text) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  EXPECT_TRUE(module) << "cannot parse:\n" << text.str();
  return module;
}

/// The `gpu.func` named `name` in any `gpu.module` of `module`, or null.
inline gpu::GPUFuncOp findKernel(ModuleOp module, StringRef name) {
  gpu::GPUFuncOp kernel;
  module.walk([&](gpu::GPUFuncOp func) {
    if (func.getName() == name)
      kernel = func;
  });
  return kernel;
}

} // namespace mlir::mx::emu::test

#endif // MX_UNITTESTS_EMULATOR_EMULATORTESTUTILS_H
