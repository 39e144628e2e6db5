//===- Parallel.cpp - parallel work with ordered diagnostics --------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Transforms/Parallel.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"

#include <vector>

using namespace mlir;

LogicalResult
mx::parallelForEachOrdered(MLIRContext *context, size_t n,
                           function_ref<LogicalResult(size_t)> fn) {
  ParallelDiagnosticHandler diagnostics(context);
  std::vector<char> failures(n, false);
  parallelFor(context, 0, n, [&](size_t i) {
    diagnostics.setOrderIDForThread(i);
    failures[i] = failed(fn(i));
    diagnostics.eraseOrderIDForThread();
  });
  return failure(llvm::is_contained(failures, true));
}
