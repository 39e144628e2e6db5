//===- mx-opt.cpp - mx optimizer driver -----------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Behaves like mlir-opt, with the mx dialect, its passes and pipelines, and
// the upstream dialects and passes the mx pipelines are made of.
//
//===----------------------------------------------------------------------===//

#include "mx/InitMX.h"

#include "mlir/IR/DialectRegistry.h"
#ifdef MX_INCLUDE_TESTS
#include "TestTarget.h"
#endif
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::mx::registerMXDialects(registry);
  mlir::mx::registerPipelineDialects(registry);
#ifdef MX_INCLUDE_TESTS
  mlir::mx::test::registerTestTarget(registry);
#endif
  mlir::mx::registerMXPasses();
  mlir::mx::registerPipelineUpstreamPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mx optimizer driver\n", registry));
}
