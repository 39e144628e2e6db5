//===- ErrorTracker.cpp - whether a tool has emitted an error -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Support/ErrorTracker.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::mx;

void ErrorTracker::watch(MLIRContext *context) {
  // Handlers run newest first; failing passes the diagnostic on to the ones
  // registered before (the tool's printer), unchanged.
  context->getDiagEngine().registerHandler([this](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
      sawError = true;
    return failure();
  });
}
