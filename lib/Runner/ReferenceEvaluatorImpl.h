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
//   ReferenceMXOps.cpp       mx.quantize(_into), mx.dequantize and the scaled
//                            contractions (plain, grouped, routed) on the
//                            row-major entry points of mx::ref;
//   ReferenceElementwise.cpp linalg.generic and elementwise arith/math ops,
//                            element by element;
//   ReferenceScalar.cpp      the semantics of each scalar op.
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

/// One scalar of a linalg.generic body, or one element of an elementwise
/// op: its type and bit pattern (ReferenceScalar.cpp).
struct Scalar {
  Type type;
  uint64_t bits = 0;
};

/// The exact value of the float scalar \p s (f8E8M0FNU: 2^(bits - 127), NaN
/// for 0xFF); an error at \p op unless \p s is a float.
FailureOr<double> getFloatValue(Operation *op, Scalar s);

/// Evaluates the scalar op \p op (see ReferenceScalar.cpp for the ops and
/// their semantics) given the values of its operands.
FailureOr<Scalar> evaluateScalar(Operation *op, ArrayRef<Scalar> args);

/// Returns "file:line:col" of \p loc where it has one, else its printed
/// form.
std::string formatLocation(Location loc);

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
  /// Reshapes: the row-major data unchanged, with the result's sizes (from
  /// the source's, or the expansion's known output sizes).
  LogicalResult evaluate(tensor::CollapseShapeOp op);
  LogicalResult evaluate(tensor::ExpandShapeOp op);
  /// \p result is \p source (an operand of \p op) with shape \p shape,
  /// with its abs sums, bounds and note.
  LogicalResult reshape(Operation *op, Value source, Value result,
                        ArrayRef<int64_t> shape);

  // mx ops (ReferenceMXOps.cpp).
  LogicalResult evaluate(QuantizeOp op);
  /// mx.quantize_into on tensors: ref::quantize, then every point of each
  /// destination's padded domain written through its map (padding outside
  /// the input), MX-typed or i8 (fp4/fp6 packed); every destination element
  /// written exactly once.
  LogicalResult evaluate(QuantizeIntoOp op);
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
  /// In per-instruction mode, notes how the result \p result of the
  /// contraction \p op of reduction size \p k is compared: in the kernel's
  /// \p order, or within the bound of an unknown order.
  void noteOrder(Operation *op, Value result,
                 const std::optional<::mx::ref::InstructionOrder> &order,
                 int64_t k);

  // linalg.generic and elementwise ops (ReferenceElementwise.cpp).
  LogicalResult evaluate(linalg::GenericOp op);
  /// A linalg.generic that mx-raise-scaled-matmul raises, whose body adds
  /// \p product to its init at every point: per output element, the exact
  /// sum of the init and the products (evaluated in f32 as the body says)
  /// rounded once, with its abs sum, the error bound of an unknown order
  /// over its \p ranges' K, and a note.
  LogicalResult evaluateReassociated(linalg::GenericOp op, Value product,
                                     ArrayRef<const HostTensor *> operands,
                                     ArrayRef<int64_t> ranges);
  /// An elementwise arith or math op on tensors of one shape: the scalar
  /// op (as in a linalg.generic body) at every element.
  LogicalResult evaluateElementwise(Operation *op);

  /// Gives \p to (a value with the data of \p from) the abs sums, bounds
  /// and note of \p from.
  void forwardBounds(Value from, Value to);
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
  /// Per value compared within a bound because the compiled program sums it
  /// in another order, why (see ReferenceResults::notes).
  DenseMap<Value, std::string> notes;
  /// Scalar float and integer constants (the values of fills).
  DenseMap<Value, double> scalars;
  ReferenceResults results;
  bool returned = false;
};

} // namespace mlir::mx::detail

#endif // MX_LIB_RUNNER_REFERENCEEVALUATORIMPL_H
