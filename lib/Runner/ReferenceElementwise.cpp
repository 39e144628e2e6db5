//===- ReferenceElementwise.cpp - reference execution of elementwise ops --===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A linalg.generic on tensors (e.g. the upstream form of a scaled matmul,
// which mx-raise-scaled-matmul raises, or of a quantization) is interpreted
// as written, independently of any raise: its body is evaluated op by op
// (ReferenceScalar.cpp) at every point of the iteration space in row-major
// loop order; its inits may be of any element type mx-run holds (floats,
// integers, MX element types, f8E8M0FNU). Elementwise arith and math ops on
// tensors of one shape are evaluated alike, element by element.
//
// The one exception is a scaled matmul that mx-raise-scaled-matmul raises
// (mx::matchScaledMatmul): its products are still evaluated from the body,
// but its reduction is summed exactly (ref::ExactSum) and rounded once, with
// a bound for the order the compiled program chooses.
//
//===----------------------------------------------------------------------===//

#include "ReferenceEvaluatorImpl.h"

#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::detail;

/// The loop ranges of \p op from the dimensions of its \p operands that
/// its indexing \p maps index by a plain dimension; fails where a loop has
/// none.
static FailureOr<SmallVector<int64_t>>
getLoopRanges(linalg::GenericOp op, ArrayRef<AffineMap> maps,
              ArrayRef<const HostTensor *> operands) {
  SmallVector<int64_t> ranges(op.getNumLoops(), -1);
  for (auto [map, tensor] : llvm::zip_equal(maps, operands))
    for (auto [pos, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        ranges[dim.getPosition()] = tensor->type.shape[pos];
  if (llvm::is_contained(ranges, -1))
    return op.emitError() << "reference evaluator: a loop range of "
                             "linalg.generic is not an operand dimension";
  return ranges;
}

/// Evaluates every op of \p body except its terminator at one point, given
/// the values of its arguments in \p bodyValues, where it adds theirs.
static LogicalResult evaluateBody(Block *body,
                                  DenseMap<Value, Scalar> &bodyValues) {
  for (Operation &inner : body->without_terminator()) {
    if (inner.getNumResults() != 1)
      return inner.emitError()
             << "reference evaluator does not support '" << inner.getName()
             << "' in a linalg.generic body";
    SmallVector<Scalar> args;
    for (Value operand : inner.getOperands()) {
      auto it = bodyValues.find(operand);
      // A scalar constant defined outside the body (as IREE writes them).
      if (auto constant = operand.getDefiningOp<arith::ConstantOp>();
          it == bodyValues.end() && constant && constant->getBlock() != body) {
        FailureOr<Scalar> value = evaluateScalar(constant, {});
        if (failed(value))
          return failure();
        it = bodyValues.try_emplace(operand, *value).first;
      }
      if (it == bodyValues.end())
        return inner.emitError()
               << "reference evaluator: an operand of '" << inner.getName()
               << "' is not a value of the body";
      args.push_back(it->second);
    }
    FailureOr<Scalar> value = evaluateScalar(&inner, args);
    if (failed(value))
      return failure();
    bodyValues[inner.getResult(0)] = *value;
  }
  return success();
}

/// Calls \p visit with the linear offset into every operand of \p op at
/// every point of its iteration space, the loops nested in \p loopOrder
/// (outermost first); fails where an operand is indexed out of bounds or
/// \p visit fails.
static LogicalResult
forEachPoint(linalg::GenericOp op, ArrayRef<const HostTensor *> operands,
             ArrayRef<int64_t> ranges, ArrayRef<unsigned> loopOrder,
             function_ref<LogicalResult(ArrayRef<int64_t>)> visit) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<SmallVector<int64_t>> strides;
  for (const HostTensor *tensor : operands)
    strides.push_back(getRowMajorStrides(tensor->type.shape));
  SmallVector<int64_t> point(op.getNumLoops(), 0), linear(operands.size());
  bool done = llvm::is_contained(ranges, 0);
  while (!done) {
    for (auto [i, map] : llvm::enumerate(maps)) {
      SmallVector<int64_t, 4> index = map.compose(point);
      int64_t offset = 0;
      for (auto [pos, value] : llvm::enumerate(index)) {
        if (value < 0 || value >= operands[i]->type.shape[pos])
          return op.emitError()
                 << "reference evaluator: linalg.generic operand " << i
                 << " is indexed out of bounds";
        offset += value * strides[i][pos];
      }
      linear[i] = offset;
    }
    if (failed(visit(linear)))
      return failure();
    int position = static_cast<int>(loopOrder.size()) - 1;
    for (; position >= 0; --position) {
      unsigned d = loopOrder[position];
      if (++point[d] < ranges[d])
        break;
      point[d] = 0;
    }
    done = position < 0;
  }
  return success();
}

/// Sets the block arguments of \p body in \p bodyValues at one point:
/// inputs from \p operands, outputs from \p outputs, at the offsets
/// \p linear.
static void setBodyArguments(Block *body, unsigned numInputs,
                             ArrayRef<const HostTensor *> operands,
                             ArrayRef<const HostTensor *> outputs,
                             ArrayRef<int64_t> linear,
                             DenseMap<Value, Scalar> &bodyValues) {
  for (auto [i, arg] : llvm::enumerate(body->getArguments()))
    bodyValues[arg] = {arg.getType(),
                       i < numInputs
                           ? operands[i]->getBits(linear[i])
                           : outputs[i - numInputs]->getBits(linear[i])};
}

/// The value of the f32 scalar \p s.
static double getF32Value(Scalar s) {
  float value;
  uint32_t bits = static_cast<uint32_t>(s.bits);
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

LogicalResult
ReferenceEvaluator::evaluateReassociated(linalg::GenericOp op, Value product,
                                         ArrayRef<const HostTensor *> operands,
                                         ArrayRef<int64_t> ranges) {
  // The parallel loops outside, the reduction loops inside: one output
  // element's terms are consecutive points (its init map uses exactly the
  // parallel loops).
  SmallVector<unsigned> loopOrder, reductions;
  op.getParallelDims(loopOrder);
  op.getReductionDims(reductions);
  llvm::append_range(loopOrder, reductions);
  int64_t k = 1;
  for (unsigned d : reductions)
    k *= ranges[d];

  unsigned numInputs = op.getNumDpsInputs();
  SmallVector<HostTensor> result = {*operands[numInputs]};
  int64_t numElements = result[0].getNumElements();
  std::vector<double> absSum(numElements);
  for (int64_t i = 0; i < numElements; ++i)
    absSum[i] = std::fabs(result[0].getValue(i));
  Block *body = op.getBlock();
  DenseMap<Value, Scalar> bodyValues;
  ::mx::ref::ExactSum sum;
  int64_t step = 0;
  LogicalResult walked = forEachPoint(
      op, operands, ranges, loopOrder,
      [&](ArrayRef<int64_t> linear) -> LogicalResult {
        int64_t out = linear[numInputs];
        // The body sees the init (its own addf is not used).
        setBodyArguments(body, numInputs, operands,
                         operands.drop_front(numInputs), linear, bodyValues);
        if (failed(evaluateBody(body, bodyValues)))
          return failure();
        if (step == 0)
          sum.add(result[0].getValue(out));
        double term = getF32Value(bodyValues.lookup(product));
        sum.add(term);
        absSum[out] += std::fabs(term);
        if (++step == k) {
          float rounded = sum.round();
          uint32_t bits;
          std::memcpy(&bits, &rounded, sizeof(bits));
          result[0].setBits(out, bits);
          sum = ::mx::ref::ExactSum();
          step = 0;
        }
        return success();
      });
  if (failed(walked))
    return failure();

  double perAbsSum = getUnorderedErrorBound(options.arithmetic, k);
  std::vector<double> bound(numElements);
  for (int64_t i = 0; i < numElements; ++i)
    bound[i] = perAbsSum * absSum[i];
  Value value = op->getResult(0);
  values[value] = std::move(result[0]);
  absSums[value] = std::move(absSum);
  bounds[value] = std::move(bound);
  std::string note;
  llvm::raw_string_ostream os(note);
  os << "the reduction of linalg.generic at " << formatLocation(op.getLoc())
     << " is reassociated by mx-raise-scaled-matmul: compared with its exact "
        "sum within "
     << llvm::format("%.3g", perAbsSum) << " x (|acc| + sum|a*b|)";
  notes[value] = std::move(note);
  return success();
}

LogicalResult ReferenceEvaluator::evaluate(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics())
    return op.emitError() << "reference evaluator: linalg.generic must be "
                             "on tensors";
  FailureOr<SmallVector<const HostTensor *>> found = lookupOperands(op);
  if (failed(found))
    return failure();
  SmallVector<const HostTensor *> &operands = *found;
  for (Value init : op.getDpsInits())
    if (failed(getKind(op, init)))
      return failure();

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  FailureOr<SmallVector<int64_t>> ranges = getLoopRanges(op, maps, operands);
  if (failed(ranges))
    return failure();
  // A scaled matmul that the compiled program raises (and so sums in an
  // order of its own): the exact sum of the body's terms.
  if (FailureOr<ScaledMatmulMatch> match = matchScaledMatmul(op);
      succeeded(match))
    return evaluateReassociated(op, match->product, operands, *ranges);

  SmallVector<HostTensor> results;
  for (OpOperand &init : op.getDpsInitsMutable())
    results.push_back(*operands[init.getOperandNumber()]);
  SmallVector<const HostTensor *> outputs = llvm::to_vector(llvm::map_range(
      results, [](HostTensor &t) -> const HostTensor * { return &t; }));
  Block *body = op.getBlock();
  unsigned numInputs = op.getNumDpsInputs();
  /// The value of each body value at the current point.
  DenseMap<Value, Scalar> bodyValues;
  // Every point of the iteration space, the last loop innermost.
  SmallVector<unsigned> loopOrder =
      llvm::to_vector(llvm::seq<unsigned>(0, op.getNumLoops()));
  LogicalResult walked =
      forEachPoint(op, operands, *ranges, loopOrder,
                   [&](ArrayRef<int64_t> linear) -> LogicalResult {
                     setBodyArguments(body, numInputs, operands, outputs,
                                      linear, bodyValues);
                     if (failed(evaluateBody(body, bodyValues)))
                       return failure();
                     for (auto [i, yielded] :
                          llvm::enumerate(body->getTerminator()->getOperands()))
                       results[i].setBits(linear[numInputs + i],
                                          bodyValues.lookup(yielded).bits);
                     return success();
                   });
  if (failed(walked))
    return failure();
  for (auto [result, value] : llvm::zip_equal(op->getResults(), results))
    values[result] = std::move(value);
  return success();
}

LogicalResult ReferenceEvaluator::evaluateElementwise(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  FailureOr<ElementKind> kind = getKind(op, op->getResult(0));
  if (failed(kind))
    return failure();
  SmallVector<const HostTensor *> operands;
  for (Value operand : op->getOperands()) {
    if (operand.getType() !=
        RankedTensorType::get(type.getShape(),
                              getElementTypeOrSelf(operand.getType())))
      return op->emitError() << "reference evaluator: the operands of an "
                                "elementwise op must be tensors of the "
                                "result's shape";
    FailureOr<const HostTensor *> value = lookup(op, operand);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  HostTensor result(HostTensorType(*kind, type.getShape()));
  SmallVector<Scalar> args;
  for (Value operand : op->getOperands())
    args.push_back({getElementTypeOrSelf(operand.getType())});
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    for (auto [arg, operand] : llvm::zip_equal(args, operands))
      arg.bits = operand->getBits(i);
    FailureOr<Scalar> value = evaluateScalar(op, args);
    if (failed(value))
      return failure();
    result.setBits(i, value->bits);
  }
  values[op->getResult(0)] = std::move(result);
  return success();
}
