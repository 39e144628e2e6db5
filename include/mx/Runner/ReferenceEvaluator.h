//===- ReferenceEvaluator.h - op-by-op reference execution ------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Evaluates a tensor-level function op by op on HostTensors with the
// independent numeric reference (mx/Reference/Reference.h), without any
// lowering. This is the oracle `mx-run --compare=reference` checks the
// execution backends against.
//
// Supported ops: mx.quantize, mx.dequantize, mx.scaled_contraction (any valid
// indexing maps), arith.constant (dense tensors), tensor.empty (static),
// tensor.cast (identity on the data) and func.return. Anything else is an error
// naming the op, at its location.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_REFERENCEEVALUATOR_H
#define MX_RUNNER_REFERENCEEVALUATOR_H

#include "mx/Runner/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::mx {

/// Evaluates \p entry of \p module (see getEntrySignature for the entry
/// rules) on \p inputs. Emits an error and fails on unsupported ops or
/// types.
FailureOr<SmallVector<HostTensor>>
evaluateReference(ModuleOp module, StringRef entry,
                  ArrayRef<HostTensor> inputs);

} // namespace mlir::mx

#endif // MX_RUNNER_REFERENCEEVALUATOR_H
