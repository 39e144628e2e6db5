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
// indexing maps) and its grouped and routed forms, linalg.generic on tensors
// and elementwise arith/math ops (lib/Runner/ReferenceScalar.cpp lists the
// scalar ops and their semantics), linalg.fill, float casts,
// arith.constant (dense tensors), tensor.empty (static),
// tensor.cast, tensor.collapse_shape and tensor.expand_shape (identity on the
// row-major data; dynamic sizes where the evaluator knows them) and
// func.return. Anything else is an error naming the op, at its location.
//
// A linalg.generic that mx-raise-scaled-matmul raises (mx::matchScaledMatmul)
// is still evaluated from its own body, but its reduction is summed exactly
// and rounded once, as the raised contraction does in an order of its own:
// its result is compared within getUnorderedErrorBound of the exact sum
// (ReferenceResults::bounds), with a note saying so.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_REFERENCEEVALUATOR_H
#define MX_RUNNER_REFERENCEEVALUATOR_H

#include "mx/Reference/Reference.h"
#include "mx/Runner/ExecutionBackend.h"
#include "mx/Runner/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::mx {

/// How evaluateReference rounds the f32 accumulation of mx.scaled_contraction.
struct ReferenceOptions {
  /// False: the exact result rounded once to f32 (ref::scaledMatmul). True:
  /// as the backend's kernel does, one rounding per matrix instruction in its
  /// K order, with `arithmetic` (ref::scaledMatmulPerInstruction), for the
  /// contractions in `orders`; any other contraction is rounded once and
  /// gets an error bound (getUnorderedErrorBound).
  bool perInstruction = false;
  ::mx::ref::InstructionArithmetic arithmetic =
      ::mx::ref::InstructionArithmetic::Exact;
  /// The kernel's K order of contractions of the evaluated function.
  DenseMap<Operation *, ContractionOrder> orders;
};

/// The results of evaluateReference, with what error bounds need. absSums
/// and bounds have one entry per result: empty, or one value per element.
struct ReferenceResults {
  SmallVector<HostTensor> values;
  /// For a result that is a contraction's (or a tensor.cast of it): |acc| +
  /// sum over K of |scaled product|, per element.
  SmallVector<std::vector<double>> absSums;
  /// For a result of a contraction whose kernel order is not known (in
  /// per-instruction mode): the largest |backend - reference| that any
  /// order of rounding allows, per element.
  SmallVector<std::vector<double>> bounds;
  /// Per result: empty, or why it is compared with the exact result within
  /// its bounds although the evaluated program fixes an order (e.g. "the
  /// reduction of linalg.generic at f.mlir:3:8 is reassociated by
  /// mx-raise-scaled-matmul: ..."), for mx-run to print.
  SmallVector<std::string> notes;
};

/// Evaluates \p entry of \p module (see getEntrySignature for the entry
/// rules) on \p inputs, as \p options say. Emits an error and fails on
/// unsupported ops or types.
FailureOr<ReferenceResults> evaluateReference(ModuleOp module, StringRef entry,
                                              ArrayRef<HostTensor> inputs,
                                              const ReferenceOptions &options);

/// evaluateReference rounding once, without the bounds.
FailureOr<SmallVector<HostTensor>>
evaluateReference(ModuleOp module, StringRef entry,
                  ArrayRef<HostTensor> inputs);

/// Returns c such that c * (|acc| + sum |a*b|) bounds the difference between
/// the exact result rounded once and a kernel's result with \p arithmetic
/// over \p k values of K in any order of instructions and partial sums.
double getUnorderedErrorBound(::mx::ref::InstructionArithmetic arithmetic,
                              int64_t k);

} // namespace mlir::mx

#endif // MX_RUNNER_REFERENCEEVALUATOR_H
