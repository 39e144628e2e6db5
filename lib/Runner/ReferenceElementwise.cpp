//===- ReferenceElementwise.cpp - reference execution of elementwise ops --===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A linalg.generic on tensors (the upstream form of a scaled matmul, which
// mx-raise-scaled-matmul raises) is interpreted as written, independently of
// that pass: its body is evaluated in f32 at every point of the iteration
// space in row-major loop order, with arith.scaling_extf as
// decode(element) * 2^(scale - 127) rounded to f32; math.exp, tanh, log and
// sqrt are the host libm's in double, rounded to f32. Elementwise arith and
// math ops on tensors of one shape are evaluated alike, element by element.
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

/// Rounds `value` to the float type `type` (nearest-even), as a float.
static float roundTo(Type type, float value) {
  std::optional<ElementKind> kind = getElementKind(type);
  if (!kind || *kind == ElementKind::F32)
    return value;
  std::optional<uint64_t> bits = encodeElement(*kind, value);
  return bits ? static_cast<float>(decodeElement(*kind, *bits)) : value;
}

/// Evaluates one f32 scalar op of a linalg.generic body, given the values of
/// its operands; fails for ops the evaluator does not model.
static FailureOr<float> evaluateScalar(Operation *op, ArrayRef<float> args) {
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  if (!type.isF32() && !type.isBF16() && !type.isF16())
    return op->emitError() << "reference evaluator: only f32, bf16 and f16 "
                              "results are supported in a linalg.generic body";
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto value = dyn_cast<FloatAttr>(constant.getValue()))
      return static_cast<float>(value.getValueAsDouble());
    return op->emitError() << "reference evaluator: unsupported constant";
  }
  // Values of bf16/f16 results are kept as the floats they round to.
  if (isa<arith::TruncFOp>(op))
    return roundTo(type, args[0]);
  if (!type.isF32())
    return op->emitError() << "reference evaluator: only arith.truncf may "
                              "produce bf16 or f16 in a linalg.generic body";
  if (isa<arith::ScalingExtFOp>(op))
    return args[0] * args[1];
  if (isa<arith::ExtFOp>(op))
    return args[0];
  if (isa<arith::MulFOp>(op))
    return args[0] * args[1];
  if (isa<arith::AddFOp>(op))
    return args[0] + args[1];
  if (isa<arith::SubFOp>(op))
    return args[0] - args[1];
  if (isa<arith::DivFOp>(op))
    return args[0] / args[1];
  if (isa<arith::NegFOp>(op))
    return -args[0];
  // Transcendentals (activations such as SiLU and GELU-tanh): the host libm
  // in double on the exact f32 operand, rounded once to f32.
  if (isa<math::ExpOp>(op))
    return static_cast<float>(std::exp(static_cast<double>(args[0])));
  if (isa<math::TanhOp>(op))
    return static_cast<float>(std::tanh(static_cast<double>(args[0])));
  if (isa<math::LogOp>(op))
    return static_cast<float>(std::log(static_cast<double>(args[0])));
  if (isa<math::SqrtOp>(op))
    return static_cast<float>(std::sqrt(static_cast<double>(args[0])));
  if (isa<math::AbsFOp>(op))
    return std::fabs(args[0]);
  // IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0.
  if (isa<arith::MaximumFOp, arith::MinimumFOp>(op)) {
    if (std::isnan(args[0]) || std::isnan(args[1]))
      return std::numeric_limits<float>::quiet_NaN();
    bool max = isa<arith::MaximumFOp>(op);
    if (args[0] == args[1])
      return (std::signbit(args[0]) == max) ? args[1] : args[0];
    return max ? std::max(args[0], args[1]) : std::min(args[0], args[1]);
  }
  return op->emitError() << "reference evaluator does not support '"
                         << op->getName()
                         << "' as an elementwise op (in a linalg.generic body "
                            "or on tensors)";
}

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
                                  DenseMap<Value, float> &bodyValues) {
  for (Operation &inner : body->without_terminator()) {
    if (inner.getNumResults() != 1)
      return inner.emitError()
             << "reference evaluator does not support '" << inner.getName()
             << "' in a linalg.generic body";
    SmallVector<float> args;
    for (Value operand : inner.getOperands()) {
      auto it = bodyValues.find(operand);
      if (it == bodyValues.end())
        return inner.emitError()
               << "reference evaluator: an operand of '" << inner.getName()
               << "' is not a value of the body";
      args.push_back(it->second);
    }
    FailureOr<float> value = evaluateScalar(&inner, args);
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
                             DenseMap<Value, float> &bodyValues) {
  for (auto [i, arg] : llvm::enumerate(body->getArguments()))
    bodyValues[arg] = static_cast<float>(
        i < numInputs ? operands[i]->getValue(linear[i])
                      : outputs[i - numInputs]->getValue(linear[i]));
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
  DenseMap<Value, float> bodyValues;
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
        double term = bodyValues.lookup(product);
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
  for (Value init : op.getDpsInits()) {
    Type type = getElementTypeOrSelf(init.getType());
    if (!type.isF32() && !type.isBF16() && !type.isF16())
      return op.emitError() << "reference evaluator: linalg.generic inits "
                               "must be f32, bf16 or f16 tensors";
  }

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
  DenseMap<Value, float> bodyValues;
  // Every point of the iteration space, the last loop innermost.
  SmallVector<unsigned> loopOrder =
      llvm::to_vector(llvm::seq<unsigned>(0, op.getNumLoops()));
  LogicalResult walked = forEachPoint(
      op, operands, *ranges, loopOrder,
      [&](ArrayRef<int64_t> linear) -> LogicalResult {
        setBodyArguments(body, numInputs, operands, outputs, linear,
                         bodyValues);
        if (failed(evaluateBody(body, bodyValues)))
          return failure();
        for (auto [i, yielded] :
             llvm::enumerate(body->getTerminator()->getOperands())) {
          std::optional<uint64_t> bits = encodeElement(
              results[i].getElementKind(), bodyValues.lookup(yielded));
          if (!bits)
            return op.emitError() << "reference evaluator: a yielded value "
                                     "does not fit the init's element type";
          results[i].setBits(linear[numInputs + i], *bits);
        }
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
  SmallVector<float> args(operands.size());
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    for (auto [arg, operand] : llvm::zip_equal(args, operands))
      arg = static_cast<float>(operand->getValue(i));
    FailureOr<float> value = evaluateScalar(op, args);
    if (failed(value))
      return failure();
    std::optional<uint64_t> bits = encodeElement(*kind, *value);
    if (!bits)
      return op->emitError()
             << "reference evaluator cannot convert element " << i;
    result.setBits(i, *bits);
  }
  values[op->getResult(0)] = std::move(result);
  return success();
}
