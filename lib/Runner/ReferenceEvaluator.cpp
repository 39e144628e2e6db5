//===- ReferenceEvaluator.cpp - op-by-op reference execution --------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The evaluator's driver: the function body op by op, the dispatch to the
// files of each op family (see ReferenceEvaluatorImpl.h), and the tensor and
// constant ops (constants, fills, tensor.empty/dim/cast/extract_slice/
// collapse_shape/expand_shape, float casts) that move or convert data without
// arithmetic.
//
//===----------------------------------------------------------------------===//

#include "ReferenceEvaluatorImpl.h"

#include "mx/Runner/ExecutionBackend.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::detail;
namespace ref = ::mx::ref;

std::string mlir::mx::detail::formatLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().strref() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return text;
}

FailureOr<const HostTensor *> ReferenceEvaluator::lookup(Operation *user,
                                                         Value value) {
  auto it = values.find(value);
  if (it == values.end())
    return user->emitError()
           << "reference evaluator: an operand of '" << user->getName()
           << "' is not defined in the entry block";
  return &it->second;
}

FailureOr<SmallVector<const HostTensor *>>
ReferenceEvaluator::lookupOperands(Operation *op) {
  SmallVector<const HostTensor *> operands;
  for (Value operand : op->getOperands()) {
    FailureOr<const HostTensor *> value = lookup(op, operand);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  return operands;
}

FailureOr<ElementKind> ReferenceEvaluator::getKind(Operation *op, Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  std::optional<ElementKind> kind =
      type ? getElementKind(type.getElementType()) : std::nullopt;
  if (!kind)
    return op->emitError() << "reference evaluator does not support the type "
                           << value.getType();
  return *kind;
}

LogicalResult ReferenceEvaluator::evaluate(arith::ConstantOp op) {
  if (auto scalar = dyn_cast<FloatAttr>(op.getValue())) {
    scalars[op.getResult()] = scalar.getValueAsDouble();
    return success();
  }
  if (auto scalar = dyn_cast<IntegerAttr>(op.getValue());
      scalar &&
      (scalar.getType().isSignlessInteger() || scalar.getType().isIndex())) {
    scalars[op.getResult()] = double(scalar.getValue().getSExtValue());
    return success();
  }
  auto attr = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!attr || !isa<RankedTensorType>(attr.getType()))
    return op.emitError() << "reference evaluator supports only dense tensor "
                             "constants";
  FailureOr<ElementKind> kind = getKind(op, op.getResult());
  if (failed(kind))
    return failure();
  HostTensor tensor(HostTensorType(*kind, attr.getType().getShape()));
  int64_t i = 0;
  if (isInteger(*kind)) {
    for (const APInt &value : attr.getValues<APInt>())
      tensor.setBits(i++, value.getZExtValue());
  } else {
    for (const APFloat &value : attr.getValues<APFloat>())
      tensor.setBits(i++, value.bitcastToAPInt().getZExtValue());
  }
  values[op.getResult()] = std::move(tensor);
  return success();
}

LogicalResult ReferenceEvaluator::evaluate(linalg::FillOp op) {
  if (op.getNumResults() != 1)
    return op.emitError() << "reference evaluator supports only linalg.fill "
                             "on tensors";
  auto it = scalars.find(op.value());
  if (it == scalars.end())
    return op.emitError() << "reference evaluator supports only fills with a "
                             "constant";
  FailureOr<const HostTensor *> init = lookup(op, op.output());
  FailureOr<ElementKind> kind = getKind(op, op.getResult(0));
  if (failed(init) || failed(kind))
    return failure();
  std::optional<uint64_t> bits = encodeElement(*kind, it->second);
  if (!bits)
    return op.emitError() << "reference evaluator: the fill value "
                          << it->second << " does not fit "
                          << getElementKindName(*kind);
  HostTensor tensor((*init)->type);
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
    tensor.setBits(i, *bits);
  values[op.getResult(0)] = std::move(tensor);
  return success();
}

LogicalResult ReferenceEvaluator::evaluateFloatCast(Operation *op) {
  FailureOr<const HostTensor *> in = lookup(op, op->getOperand(0));
  FailureOr<ElementKind> kind = getKind(op, op->getResult(0));
  if (failed(in) || failed(kind))
    return failure();
  // Casts to MX element types and f8E8M0FNU: as in a linalg.generic body.
  if (!isIEEEFloat(*kind) || !isIEEEFloat((*in)->getElementKind()))
    return evaluateElementwise(op);
  HostTensor tensor(HostTensorType(*kind, (*in)->type.shape));
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    std::optional<uint64_t> bits = encodeElement(*kind, (*in)->getValue(i));
    if (!bits)
      return op->emitError()
             << "reference evaluator cannot convert element " << i;
    tensor.setBits(i, *bits);
  }
  values[op->getResult(0)] = std::move(tensor);
  return success();
}

LogicalResult ReferenceEvaluator::evaluate(tensor::EmptyOp op) {
  RankedTensorType type = op.getType();
  // Dynamic sizes are index values the evaluator computed (constants,
  // tensor.dim).
  SmallVector<int64_t> shape(type.getShape());
  auto dynamicSize = op.getDynamicSizes().begin();
  for (int64_t &size : shape) {
    if (!ShapedType::isDynamic(size))
      continue;
    auto it = scalars.find(*dynamicSize++);
    if (it == scalars.end() || it->second < 0)
      return op.emitError() << "reference evaluator: a size of tensor.empty "
                               "is not a known non-negative index";
    size = static_cast<int64_t>(it->second);
  }
  FailureOr<ElementKind> kind = getKind(op, op.getResult());
  if (failed(kind))
    return failure();
  values[op.getResult()] = HostTensor(HostTensorType(*kind, shape));
  return success();
}

LogicalResult ReferenceEvaluator::evaluate(tensor::ExtractSliceOp op) {
  FailureOr<const HostTensor *> source = lookup(op, op.getSource());
  if (failed(source))
    return failure();
  if (op.getSourceType().getRank() != op.getResultType().getRank() ||
      !op.getResultType().hasStaticShape() ||
      ShapedType::isDynamicShape(op.getStaticOffsets()) ||
      ShapedType::isDynamicShape(op.getStaticStrides()))
    return op.emitError() << "reference evaluator supports only static, "
                             "rank-preserving tensor.extract_slice";
  ArrayRef<int64_t> offsets = op.getStaticOffsets();
  ArrayRef<int64_t> steps = op.getStaticStrides();
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  SmallVector<int64_t> sourceStrides =
      getRowMajorStrides((*source)->type.shape);
  SmallVector<int64_t> strides = getRowMajorStrides(shape);
  HostTensor result(HostTensorType((*source)->type.elementKind, shape));
  for (int64_t i = 0, e = result.getNumElements(); i < e; ++i) {
    int64_t from = 0;
    for (auto [d, stride] : llvm::enumerate(strides))
      from +=
          (offsets[d] + (i / stride) % shape[d] * steps[d]) * sourceStrides[d];
    result.setBits(i, (*source)->getBits(from));
  }
  values[op.getResult()] = std::move(result);
  return success();
}

LogicalResult ReferenceEvaluator::evaluate(tensor::CollapseShapeOp op) {
  FailureOr<const HostTensor *> source = lookup(op, op.getSrc());
  if (failed(source))
    return failure();
  // Each result size is the product of its group's source sizes.
  SmallVector<int64_t> shape;
  for (const ReassociationIndices &group : op.getReassociationIndices()) {
    int64_t size = 1;
    for (int64_t d : group)
      size *= (*source)->type.shape[d];
    shape.push_back(size);
  }
  return reshape(op, op.getSrc(), op.getResult(), shape);
}

LogicalResult ReferenceEvaluator::evaluate(tensor::ExpandShapeOp op) {
  // Sizes are static or index values the evaluator computed.
  SmallVector<int64_t> shape;
  for (OpFoldResult size : op.getMixedOutputShape()) {
    std::optional<int64_t> known = getConstantIntValue(size);
    if (!known) {
      auto it = scalars.find(cast<Value>(size));
      if (it != scalars.end() && it->second >= 0)
        known = static_cast<int64_t>(it->second);
    }
    if (!known)
      return op.emitError() << "reference evaluator: a size of "
                               "tensor.expand_shape is not a known "
                               "non-negative index";
    shape.push_back(*known);
  }
  return reshape(op, op.getSrc(), op.getResult(), shape);
}

LogicalResult ReferenceEvaluator::reshape(Operation *op, Value source,
                                          Value result,
                                          ArrayRef<int64_t> shape) {
  FailureOr<const HostTensor *> value = lookup(op, source);
  if (failed(value))
    return failure();
  HostTensor reshaped = **value;
  reshaped.type.shape.assign(shape.begin(), shape.end());
  if (reshaped.getNumElements() != (*value)->getNumElements())
    return op->emitError() << "reference evaluator: the reshape of "
                           << (*value)->type.str() << " to "
                           << reshaped.type.str()
                           << " changes the number of elements";
  values[result] = std::move(reshaped);
  forwardBounds(source, result);
  return success();
}

void ReferenceEvaluator::forwardBounds(Value from, Value to) {
  for (auto *map : {&absSums, &bounds})
    if (map->count(from))
      (*map)[to] = map->lookup(from);
  if (notes.count(from))
    notes[to] = notes.lookup(from);
}

LogicalResult ReferenceEvaluator::evaluate(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp, tensor::EmptyOp, QuantizeOp, QuantizeIntoOp,
            DequantizeOp, ScaledContractionOp, GroupedScaledContractionOp,
            RoutedScaledContractionOp, linalg::FillOp, linalg::GenericOp,
            tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
          [&](auto concrete) { return evaluate(concrete); })
      .Case<arith::TruncFOp, arith::ExtFOp>(
          [&](Operation *cast) -> LogicalResult {
            if (!isa<RankedTensorType>(cast->getResult(0).getType()))
              return cast->emitError()
                     << "reference evaluator supports float casts on tensors "
                        "only";
            return evaluateFloatCast(cast);
          })
      .Case<tensor::ExtractSliceOp>(
          [&](tensor::ExtractSliceOp slice) { return evaluate(slice); })
      .Case<tensor::DimOp>([&](tensor::DimOp dim) -> LogicalResult {
        FailureOr<const HostTensor *> source = lookup(dim, dim.getSource());
        if (failed(source))
          return failure();
        auto index = scalars.find(dim.getIndex());
        int64_t rank = (*source)->type.shape.size();
        if (index == scalars.end() || index->second < 0 ||
            index->second >= rank)
          return dim.emitError() << "reference evaluator: the dimension of "
                                    "tensor.dim is not a known index below "
                                 << rank;
        scalars[dim.getResult()] =
            double((*source)->type.shape[static_cast<int64_t>(index->second)]);
        return success();
      })
      .Case<tensor::CastOp>([&](tensor::CastOp cast) -> LogicalResult {
        // A shape cast changes only static knowledge; the data is the same.
        FailureOr<const HostTensor *> value = lookup(cast, cast.getSource());
        if (failed(value))
          return failure();
        values[cast.getResult()] = **value;
        forwardBounds(cast.getSource(), cast.getResult());
        return success();
      })
      .Case<func::ReturnOp>([&](func::ReturnOp ret) -> LogicalResult {
        for (Value operand : ret.getOperands()) {
          FailureOr<const HostTensor *> value = lookup(ret, operand);
          if (failed(value))
            return failure();
          results.values.push_back(**value);
          results.absSums.push_back(absSums.lookup(operand));
          results.bounds.push_back(bounds.lookup(operand));
          results.notes.push_back(notes.lookup(operand));
        }
        returned = true;
        return success();
      })
      .Default([&](Operation *op) -> LogicalResult {
        if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
            isa<RankedTensorType>(op->getResult(0).getType()))
          return evaluateElementwise(op);
        return op->emitError() << "reference evaluator does not support '"
                               << op->getName() << "'";
      });
}

FailureOr<ReferenceResults>
ReferenceEvaluator::run(func::FuncOp func, ArrayRef<HostTensor> inputs) {
  if (!func.getBody().hasOneBlock())
    return func.emitError()
           << "reference evaluator supports only single-block functions";
  Block &block = func.getBody().front();
  for (auto [arg, input] : llvm::zip_equal(block.getArguments(), inputs))
    values[arg] = input;
  for (Operation &op : block)
    if (failed(evaluate(&op)))
      return failure();
  if (!returned)
    return func.emitError() << "reference evaluator: no func.return";
  return std::move(results);
}

FailureOr<ReferenceResults>
mlir::mx::evaluateReference(ModuleOp module, StringRef entry,
                            ArrayRef<HostTensor> inputs,
                            const ReferenceOptions &options) {
  FailureOr<EntrySignature> signature = getEntrySignature(module, entry);
  if (failed(signature) || failed(verifyInputs(*signature, inputs)))
    return failure();
  // Weights packed once (mx.prepacked_by): the packing functions first.
  SmallVector<HostTensor> entryInputs(inputs.begin(), inputs.end());
  for (const PrepackedArgument &prepacked : signature->prepacked) {
    auto prepack = module.lookupSymbol<func::FuncOp>(prepacked.function);
    FailureOr<ReferenceResults> packed =
        ReferenceEvaluator(ReferenceOptions())
            .run(prepack, inputs[prepacked.argument]);
    if (failed(packed))
      return failure();
    entryInputs[prepacked.argument] = std::move(packed->values.front());
  }
  return ReferenceEvaluator(options).run(signature->func, entryInputs);
}

FailureOr<SmallVector<HostTensor>>
mlir::mx::evaluateReference(ModuleOp module, StringRef entry,
                            ArrayRef<HostTensor> inputs) {
  FailureOr<ReferenceResults> results =
      evaluateReference(module, entry, inputs, ReferenceOptions());
  if (failed(results))
    return failure();
  return std::move(results->values);
}

FailureOr<SmallVector<HostTensor>>
ReferenceBackend::run(ModuleOp module, StringRef entry,
                      ArrayRef<HostTensor> inputs) {
  if (failed(checkMemoryBudget(module, memoryBudget)))
    return failure();
  return evaluateReference(module, entry, inputs);
}

double mlir::mx::getUnorderedErrorBound(ref::InstructionArithmetic arithmetic,
                                        int64_t k) {
  // u: the unit roundoff of f32 round-to-nearest.
  constexpr double u = 0x1p-24;
  double perAbsSum;
  if (arithmetic == ref::InstructionArithmetic::Exact) {
    // At most one rounding per K-block plus one combining partial sums:
    // n = K/32 + 1 roundings of partial sums, each below the sum of the
    // magnitudes, so |error| <= gamma_n * absSum (gamma_n = n u / (1 - n u),
    // Higham, Accuracy and Stability, Lemma 3.1 and 4.2).
    double n = double(k / kBlockSize + 1);
    perAbsSum = n * u / (1 - n * u);
  } else {
    // Per group of 16: 8 truncations per half below 2^(E_h - 24) each, two
    // floors of the halves and one of s (below 2^(E - 24) and 2^(T - 31)),
    // acc floored or dropped (below 2^(T - 24)) and the final rounding (u
    // times the result): with 2^E_h, 2^E <= the largest product and 2^T <=
    // max(|acc|, largest product), at most 2^-20 (|acc| + sum |p|) per
    // group; over G = K / 16 groups, with acc growing by at most the errors
    // made so far: gamma-like G 2^-20 / (1 - G 2^-20).
    double g = double(k / 16) * 0x1p-20;
    perAbsSum = g / (1 - g);
  }
  // Plus the reference's own single rounding.
  return perAbsSum + u;
}
