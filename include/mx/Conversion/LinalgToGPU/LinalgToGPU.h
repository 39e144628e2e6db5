//===- LinalgToGPU.h - linalg ops as GPU dispatches -------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_CONVERSION_LINALGTOGPU_LINALGTOGPU_H
#define MX_CONVERSION_LINALGTOGPU_LINALGTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class OpBuilder;
namespace func {
class FuncOp;
} // namespace func
namespace linalg {
class LinalgOp;
} // namespace linalg

namespace mx {

#define GEN_PASS_DECL_CONVERTLINALGTOGPUDISPATCHES
#include "mx/Conversion/Passes.h.inc"

/// Replaces `op` (on memrefs, all iterators parallel) by a `gpu.launch` with
/// one thread per iteration point in workgroups of `workgroupSize` threads.
/// `kernelName`, if not empty, names the kernel (and its module) that
/// `gpu-kernel-outlining` creates. Fails with a diagnostic if the op does not
/// qualify.
LogicalResult convertLinalgOpToGPUDispatch(OpBuilder &builder,
                                           linalg::LinalgOp op,
                                           int64_t workgroupSize,
                                           StringRef kernelName = "");

/// Emits, at `b`, the body of `op` (on memrefs) for the iteration point
/// `ivs`: the elements its payload reads loaded from their memrefs at their
/// indexing maps, then a clone of the payload (`linalg.index` is the point's
/// index). Returns the values it yields, one per output, unstored.
SmallVector<Value> emitLinalgBodyAt(OpBuilder &b, Location loc,
                                    linalg::LinalgOp op, ArrayRef<Value> ivs);

} // namespace mx
} // namespace mlir

#endif // MX_CONVERSION_LINALGTOGPU_LINALGTOGPU_H
