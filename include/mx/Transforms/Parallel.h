//===- Parallel.h - parallel work with ordered diagnostics ------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_TRANSFORMS_PARALLEL_H
#define MX_TRANSFORMS_PARALLEL_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

namespace mlir::mx {

/// Runs `fn(i)` for every i in [0, n) on the context's thread pool (one
/// after the other with threading disabled) and returns failure when any
/// call failed. Every call runs, whichever fails, and the diagnostics they
/// emit come in the order of i: the result and the messages do not depend
/// on the threads. `fn` must not change the IR that other calls read.
LogicalResult parallelForEachOrdered(MLIRContext *context, size_t n,
                                     function_ref<LogicalResult(size_t)> fn);

} // namespace mlir::mx

#endif // MX_TRANSFORMS_PARALLEL_H
