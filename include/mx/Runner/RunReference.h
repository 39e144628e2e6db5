//===- RunReference.h - the reference a run is compared with ---*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What `mx-run --compare=reference` and the C API's mxRun share: the K order
// a backend's kernels give each scaled contraction, and the reference
// evaluation that rounds as those kernels do.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_RUNREFERENCE_H
#define MX_RUNNER_RUNREFERENCE_H

#include "mx/Runner/Compare.h"
#include "mx/Runner/ExecutionBackend.h"
#include "mx/Runner/ReferenceEvaluator.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::mx {

/// Fills \p orders with the K order that \p backend's kernels give the
/// mx.scaled_contraction ops (and their grouped and routed forms) of
/// \p entry in \p module, found by compiling a copy whose contractions carry
/// their index in a location name (through \p preprocess first, when given).
/// A contraction compiled twice with different orders gets none.
LogicalResult getKernelOrders(ExecutionBackend &backend, ModuleOp module,
                              StringRef entry, ArrayRef<HostTensor> inputs,
                              function_ref<LogicalResult(ModuleOp)> preprocess,
                              DenseMap<Operation *, ContractionOrder> &orders);

/// Whether a reference for \p backendName rounds scaled contractions after
/// every matrix instruction by default (`--reference-rounding=auto`): the
/// backends that run gfx950 kernels (gfx950-emu, gfx950-isa, hip) do.
bool roundsPerInstructionByDefault(StringRef backendName);

/// Evaluates \p entry of \p module on \p inputs with the reference evaluator
/// as \p options say; with options.perInstruction, the K orders of
/// \p backend's kernels are looked up first (getKernelOrders, after
/// \p preprocess) and added to options.orders. Emits an error and fails on
/// a problem.
FailureOr<ReferenceResults>
evaluateReferenceFor(ExecutionBackend &backend, ModuleOp module,
                     StringRef entry, ArrayRef<HostTensor> inputs,
                     ReferenceOptions options,
                     function_ref<LogicalResult(ModuleOp)> preprocess = {});

/// Prints "comparing @<entry> on <backend> with the reference evaluator:"
/// and the report of every result of \p results against \p reference
/// (compareAll); returns whether all matched.
bool printReferenceComparison(llvm::raw_ostream &os, StringRef entry,
                              StringRef backend, ArrayRef<HostTensor> results,
                              const ReferenceResults &reference,
                              const CompareOptions &options);

} // namespace mlir::mx

#endif // MX_RUNNER_RUNREFERENCE_H
