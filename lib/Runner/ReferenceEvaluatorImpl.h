//===- ReferenceEvaluatorImpl.h - the reference evaluator -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to MXRunner. The op-by-op reference execution of a function body
// (mx::evaluateReference), one file per family of ops:
//   ReferenceEvaluator.cpp   dispatch, the function body, tensor and
//                            constant ops, float casts;
//   ReferenceMXOps.cpp       mx.quantize, mx.dequantize and the scaled
//                            contractions (plain, grouped, routed) on the
//                            row-major entry points of mx::ref;
//   ReferenceElementwise.cpp linalg.generic and elementwise arith/math ops,
//                            evaluated in f32 element by element.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_RUNNER_REFERENCEEVALUATORIMPL_H
#define MX_LIB_RUNNER_REFERENCEEVALUATORIMPL_H

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Runner/ReferenceEvaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <vector>

namespace mlir::mx::detail {

/// Evaluates one function body.
class ReferenceEvaluator {
public:
  explicit ReferenceEvaluator(const ReferenceOptions &options)
      : options(options) {}
  FailureOr<ReferenceResults> run(func::FuncOp func,
                                  ArrayRef<HostTensor> inputs);

private:
  LogicalResult evaluate(Operation *op);

  // Tensor and constant ops (ReferenceEvaluator.cpp).
  LogicalResult evaluate(arith::ConstantOp op);
  LogicalResult evaluate(tensor::EmptyOp op);
  LogicalResult evaluate(linalg::FillOp op);
  /// arith.truncf / arith.extf on tensors: every element converted exactly
  /// or rounded to nearest-even.
  LogicalResult evaluateFloatCast(Operation *op);
  /// A static slice (offsets, sizes and strides) of the same rank.
  LogicalResult evaluate(tensor::ExtractSliceOp op);

  // mx ops (ReferenceMXOps.cpp).
  LogicalResult evaluate(QuantizeOp op);
  LogicalResult evaluate(DequantizeOp op);
  LogicalResult evaluate(ScaledContractionOp op);
  /// ref::groupedScaledMatmul of the row-major operands; inconsistent
  /// offsets are an error.
  LogicalResult evaluate(GroupedScaledContractionOp op);
  /// ref::routedScaledMatmul of the row-major operands.
  LogicalResult evaluate(RoutedScaledContractionOp op);
  /// The per-instruction order of the contraction \p op of reduction size
  /// \p k, where the kernel's K order is known (for a grouped or routed
  /// contraction, the same for every expert); otherwise none (the exact
  /// sums rounded once).
  std::optional<::mx::ref::InstructionOrder> getInstructionOrder(Operation *op,
                                                                 int64_t k);

  // linalg.generic and elementwise ops (ReferenceElementwise.cpp).
  LogicalResult evaluate(linalg::GenericOp op);
  /// An elementwise arith or math op on tensors of one shape: the scalar
  /// op (as in a linalg.generic body) at every element.
  LogicalResult evaluateElementwise(Operation *op);

  /// Returns the value of \p value (an operand of \p user).
  FailureOr<const HostTensor *> lookup(Operation *user, Value value);
  /// Returns the values of all operands of \p op.
  FailureOr<SmallVector<const HostTensor *>> lookupOperands(Operation *op);
  /// Returns the element kind of the tensor \p value.
  FailureOr<ElementKind> getKind(Operation *op, Value value);

  const ReferenceOptions &options;
  DenseMap<Value, HostTensor> values;
  /// Per element of a contraction's result (and of its tensor.casts):
  /// |acc| + sum |a*b|, and the error bound where the kernel's order is
  /// unknown (see ReferenceResults).
  DenseMap<Value, std::vector<double>> absSums, bounds;
  /// Scalar float and integer constants (the values of fills).
  DenseMap<Value, double> scalars;
  ReferenceResults results;
  bool returned = false;
};

} // namespace mlir::mx::detail

#endif // MX_LIB_RUNNER_REFERENCEEVALUATORIMPL_H
