//===- ReferenceEvaluator.cpp - op-by-op reference execution --------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every mx op is mapped onto the row-major 2-D entry points of mx::ref:
//   - quantize/dequantize along `axis` of a tensor of shape [outer, A, inner]
//     are ref::quantize/dequantize of [outer, A] along axis 1 when inner == 1,
//     and of each [A, inner] slice along axis 0 otherwise;
//   - scaled_contraction gathers lhs into [batch, M, K] and rhs into
//     [batch, N, K] (M, N and batch each flattening their iteration
//     dimensions in iteration-space order), the scales likewise with K / 32,
//     calls ref::scaledMatmul (or, in per-instruction mode with the
//     kernel's order, ref::scaledMatmulPerInstruction) per batch with
//     bTransposed = true and scatters the [batch, M, N] result back through
//     the acc map, with ref::scaledMatmulAbsSum's |acc| + sum |a*b| per
//     element (and, in per-instruction mode without an order, the bound).
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

#include "mx/Runner/ReferenceEvaluator.h"

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Runner/ExecutionBackend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::mx;
namespace ref = ::mx::ref;

namespace {
/// Evaluates one function body.
class Evaluator {
public:
  explicit Evaluator(const ReferenceOptions &options) : options(options) {}
  FailureOr<ReferenceResults> run(func::FuncOp func,
                                  ArrayRef<HostTensor> inputs);

private:
  LogicalResult evaluate(Operation *op);
  LogicalResult evaluate(arith::ConstantOp op);
  LogicalResult evaluate(tensor::EmptyOp op);
  LogicalResult evaluate(QuantizeOp op);
  LogicalResult evaluate(DequantizeOp op);
  LogicalResult evaluate(ScaledContractionOp op);
  /// ref::groupedScaledMatmul of the row-major operands; inconsistent
  /// offsets are an error.
  LogicalResult evaluate(GroupedScaledContractionOp op);
  /// ref::routedScaledMatmul of the row-major operands.
  LogicalResult evaluate(RoutedScaledContractionOp op);
  std::optional<ref::InstructionOrder> getGroupedOrder(Operation *op,
                                                       int64_t k);
  LogicalResult evaluate(linalg::FillOp op);
  /// arith.truncf / arith.extf on tensors: every element converted exactly
  /// or rounded to nearest-even.
  LogicalResult evaluateFloatCast(Operation *op);
  LogicalResult evaluate(linalg::GenericOp op);
  /// A static slice (offsets, sizes and strides) of the same rank.
  LogicalResult evaluate(tensor::ExtractSliceOp op);
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
} // namespace

FailureOr<const HostTensor *> Evaluator::lookup(Operation *user, Value value) {
  auto it = values.find(value);
  if (it == values.end())
    return user->emitError()
           << "reference evaluator: an operand of '" << user->getName()
           << "' is not defined in the entry block";
  return &it->second;
}

FailureOr<SmallVector<const HostTensor *>>
Evaluator::lookupOperands(Operation *op) {
  SmallVector<const HostTensor *> operands;
  for (Value operand : op->getOperands()) {
    FailureOr<const HostTensor *> value = lookup(op, operand);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  return operands;
}

FailureOr<ElementKind> Evaluator::getKind(Operation *op, Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  std::optional<ElementKind> kind =
      type ? getElementKind(type.getElementType()) : std::nullopt;
  if (!kind)
    return op->emitError() << "reference evaluator does not support the type "
                           << value.getType();
  return *kind;
}

/// Returns the value of every element of a bf16/f16/f32 tensor as f32.
static std::vector<float> toFloats(const HostTensor &tensor) {
  std::vector<float> result(tensor.getNumElements());
  for (auto [i, value] : llvm::enumerate(result))
    value = static_cast<float>(tensor.getValue(i));
  return result;
}

/// Splits \p shape around \p axis into (outer, axis size, inner).
static std::tuple<int64_t, int64_t, int64_t>
splitAtAxis(ArrayRef<int64_t> shape, int64_t axis) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1, e = shape.size(); d < e; ++d)
    inner *= shape[d];
  return {outer, shape[axis], inner};
}

static ref::ScaleRule convertScaleRule(ScaleRule rule) {
  switch (rule) {
  case ScaleRule::floor:
    return ref::ScaleRule::Floor;
  case ScaleRule::ceil:
    return ref::ScaleRule::Ceil;
  case ScaleRule::even:
    return ref::ScaleRule::Even;
  case ScaleRule::rceil:
    return ref::ScaleRule::RCeil;
  }
  llvm_unreachable("unknown scale rule");
}

static ref::ElemRounding convertRounding(Rounding rounding) {
  switch (rounding) {
  case Rounding::nearest_even:
    return ref::ElemRounding::NearestEven;
  case Rounding::ties_away:
    return ref::ElemRounding::TiesAway;
  }
  llvm_unreachable("unknown rounding");
}

LogicalResult Evaluator::evaluate(arith::ConstantOp op) {
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

LogicalResult Evaluator::evaluate(linalg::FillOp op) {
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

LogicalResult Evaluator::evaluateFloatCast(Operation *op) {
  FailureOr<const HostTensor *> in = lookup(op, op->getOperand(0));
  FailureOr<ElementKind> kind = getKind(op, op->getResult(0));
  if (failed(in) || failed(kind))
    return failure();
  if (!isIEEEFloat(*kind))
    return op->emitError() << "reference evaluator supports float casts to "
                              "f16, bf16, f32 and f64 only";
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

LogicalResult Evaluator::evaluate(tensor::EmptyOp op) {
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

LogicalResult Evaluator::evaluate(QuantizeOp op) {
  FailureOr<const HostTensor *> input = lookup(op, op.getInput());
  FailureOr<ElementKind> elementKind = getKind(op, op.getElements());
  if (failed(input) || failed(elementKind))
    return failure();
  std::optional<ref::ElemFormat> format = getRefFormat(*elementKind);
  if (!format || !isIEEEFloat((*input)->getElementKind()))
    return op.emitError() << "reference evaluator: unsupported types";
  int64_t axis = op.getAxis();
  int64_t blockSize = op.getBlockSize();
  ArrayRef<int64_t> shape = (*input)->type.shape;
  auto [outer, size, inner] = splitAtAxis(shape, axis);
  if (size % blockSize != 0)
    return op.emitError() << "reference evaluator: size " << size
                          << " along axis " << axis
                          << " is not a multiple of the block size "
                          << blockSize;
  SmallVector<int64_t> scaleShape(shape);
  scaleShape[axis] /= blockSize;
  HostTensor elements(HostTensorType(*elementKind, shape));
  HostTensor scales(HostTensorType(ElementKind::F8E8M0FNU, scaleShape));

  std::vector<float> x = toFloats(**input);
  ref::ScaleRule rule = convertScaleRule(op.getScale());
  ref::ElemRounding rounding = convertRounding(op.getRounding());
  auto store = [](HostTensor &tensor, int64_t offset,
                  const std::vector<uint8_t> &bytes) {
    if (!bytes.empty())
      std::memcpy(tensor.data.data() + offset, bytes.data(), bytes.size());
  };
  if (x.empty()) {
    // Nothing to quantize.
  } else if (inner == 1) {
    ref::QuantizeResult q = ref::quantize(x.data(), outer, size, /*axis=*/1,
                                          *format, rule, rounding, blockSize);
    store(elements, 0, q.codes);
    store(scales, 0, q.scales);
  } else {
    for (int64_t o = 0; o < outer; ++o) {
      ref::QuantizeResult q =
          ref::quantize(x.data() + o * size * inner, size, inner, /*axis=*/0,
                        *format, rule, rounding, blockSize);
      store(elements, o * size * inner, q.codes);
      store(scales, o * (size / blockSize) * inner, q.scales);
    }
  }
  values[op.getElements()] = std::move(elements);
  values[op.getScales()] = std::move(scales);
  return success();
}

LogicalResult Evaluator::evaluate(DequantizeOp op) {
  FailureOr<const HostTensor *> elements = lookup(op, op.getElements());
  FailureOr<const HostTensor *> scales = lookup(op, op.getScales());
  FailureOr<ElementKind> resultKind = getKind(op, op.getResult());
  if (failed(elements) || failed(scales) || failed(resultKind))
    return failure();
  std::optional<ref::ElemFormat> format =
      getRefFormat((*elements)->getElementKind());
  if (!format || !isIEEEFloat(*resultKind))
    return op.emitError() << "reference evaluator: unsupported types";
  int64_t axis = op.getAxis();
  int64_t blockSize = op.getBlockSize();
  ArrayRef<int64_t> shape = (*elements)->type.shape;
  auto [outer, size, inner] = splitAtAxis(shape, axis);
  SmallVector<int64_t> scaleShape(shape);
  scaleShape[axis] /= blockSize;
  if (size % blockSize != 0 || scaleShape != (*scales)->type.shape)
    return op.emitError() << "reference evaluator: scales "
                          << (*scales)->type.str() << " do not match elements "
                          << (*elements)->type.str() << " along axis " << axis;

  HostTensor result(HostTensorType(*resultKind, shape));
  const uint8_t *codes = (*elements)->data.data();
  const uint8_t *scaleBytes = (*scales)->data.data();
  if (*resultKind == ElementKind::F32) {
    // ref::dequantize rounds the exact product once to f32.
    auto store = [&](int64_t offset, const std::vector<float> &values) {
      if (!values.empty())
        std::memcpy(result.data.data() + offset * sizeof(float), values.data(),
                    values.size() * sizeof(float));
    };
    if (result.getNumElements() == 0) {
      // Nothing to dequantize.
    } else if (inner == 1) {
      store(0, ref::dequantize(codes, scaleBytes, outer, size, /*axis=*/1,
                               *format, blockSize));
    } else {
      for (int64_t o = 0; o < outer; ++o)
        store(o * size * inner,
              ref::dequantize(codes + o * size * inner,
                              scaleBytes + o * (size / blockSize) * inner, size,
                              inner, /*axis=*/0, *format, blockSize));
    }
  } else {
    // bf16/f16: the exact product (a double: at most 16 significant bits
    // times a power of two in [2^-127, 2^127]) rounded once to nearest-even.
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t a = 0; a < size; ++a) {
        for (int64_t i = 0; i < inner; ++i) {
          int64_t index = (o * size + a) * inner + i;
          int64_t scaleIndex =
              (o * (size / blockSize) + a / blockSize) * inner + i;
          double value = ref::decode(*format, codes[index]) *
                         ref::decodeScale(scaleBytes[scaleIndex]);
          result.setBits(index, *encodeElement(*resultKind, value));
        }
      }
    }
  }
  values[op.getResult()] = std::move(result);
  return success();
}

/// Returns, for every iteration dimension, the element stride it contributes
/// to an operand of shape \p shape indexed by \p map.
static SmallVector<int64_t> getIterationStrides(AffineMap map,
                                                ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(map.getNumDims(), 0);
  SmallVector<int64_t> rowMajor = getRowMajorStrides(shape);
  for (auto [pos, expr] : llvm::enumerate(map.getResults()))
    strides[cast<AffineDimExpr>(expr).getPosition()] += rowMajor[pos];
  return strides;
}

/// Returns the offsets of all index combinations of the iteration dimensions
/// \p dims (the first one outermost) given per-dimension \p strides.
static SmallVector<int64_t> enumerateOffsets(ArrayRef<unsigned> dims,
                                             ArrayRef<int64_t> ranges,
                                             ArrayRef<int64_t> strides) {
  SmallVector<int64_t> offsets = {0};
  for (unsigned d : dims) {
    SmallVector<int64_t> next;
    next.reserve(offsets.size() * ranges[d]);
    for (int64_t base : offsets)
      for (int64_t i = 0; i < ranges[d]; ++i)
        next.push_back(base + i * strides[d]);
    offsets = std::move(next);
  }
  return offsets;
}

/// The per-instruction order of a grouped or routed contraction of
/// reduction size `k`, where the kernel's K order is known (the same for
/// every expert); otherwise none (the exact sums rounded once).
std::optional<ref::InstructionOrder> Evaluator::getGroupedOrder(Operation *op,
                                                                int64_t k) {
  if (!options.perInstruction)
    return std::nullopt;
  auto it = options.orders.find(op);
  if (it == options.orders.end())
    return std::nullopt;
  return ref::InstructionOrder{it->second.kStep,
                               llvm::divideCeilSigned(k, it->second.kTile) *
                                   it->second.kTile,
                               options.arithmetic, it->second.parts};
}

LogicalResult Evaluator::evaluate(GroupedScaledContractionOp op) {
  FailureOr<SmallVector<const HostTensor *>> found = lookupOperands(op);
  if (failed(found))
    return failure();
  SmallVector<const HostTensor *> &operands = *found;
  const HostTensor &lhs = *operands[0], &rhs = *operands[1],
                   &lhsScales = *operands[2], &rhsScales = *operands[3],
                   &offsets = *operands[4], &acc = *operands[5];
  std::optional<ref::ElemFormat> lhsFormat = getRefFormat(lhs.getElementKind());
  std::optional<ref::ElemFormat> rhsFormat = getRefFormat(rhs.getElementKind());
  ElementKind offsetKind = offsets.getElementKind();
  if (!lhsFormat || !rhsFormat || acc.getElementKind() != ElementKind::F32 ||
      (offsetKind != ElementKind::I32 && offsetKind != ElementKind::I64))
    return op.emitError() << "reference evaluator: unsupported types";
  int64_t T = lhs.type.shape[0], K = lhs.type.shape[1];
  int64_t E = rhs.type.shape[0], N = rhs.type.shape[1];
  if (K % kBlockSize != 0 || rhs.type.shape[2] != K ||
      acc.type.shape != ArrayRef<int64_t>{T, N} ||
      offsets.getNumElements() != E + 1 ||
      lhsScales.type.shape != ArrayRef<int64_t>{T, K / kBlockSize} ||
      rhsScales.type.shape != ArrayRef<int64_t>{E, N, K / kBlockSize})
    return op.emitError() << "reference evaluator: inconsistent shapes";
  std::vector<int64_t> bounds(E + 1);
  for (int64_t e = 0; e <= E; ++e)
    bounds[e] = offsetKind == ElementKind::I32
                    ? int64_t(int32_t(offsets.getBits(e)))
                    : int64_t(offsets.getBits(e));
  std::optional<ref::InstructionOrder> order = getGroupedOrder(op, K);
  std::optional<std::vector<float>> out = ref::groupedScaledMatmul(
      lhs.data.data(), lhsScales.data.data(), *lhsFormat, rhs.data.data(),
      rhsScales.data.data(), *rhsFormat, bounds.data(), E, T, N, K,
      reinterpret_cast<const float *>(acc.data.data()),
      order ? &*order : nullptr);
  if (!out) {
    std::string list;
    llvm::raw_string_ostream os(list);
    llvm::interleaveComma(bounds, os);
    return op.emitError() << "inconsistent expert offsets [" << list
                          << "]: they must be non-decreasing within [0, " << T
                          << "]";
  }
  HostTensor result = acc;
  std::memcpy(result.data.data(), out->data(), out->size() * sizeof(float));
  values[op.getResult()] = std::move(result);
  return success();
}

LogicalResult Evaluator::evaluate(RoutedScaledContractionOp op) {
  FailureOr<SmallVector<const HostTensor *>> found = lookupOperands(op);
  if (failed(found))
    return failure();
  SmallVector<const HostTensor *> &operands = *found;
  const HostTensor &lhs = *operands[0], &rhs = *operands[1],
                   &lhsScales = *operands[2], &rhsScales = *operands[3],
                   &sortedIds = *operands[4], &expertIds = *operands[5],
                   &acc = *operands[6];
  std::optional<ref::ElemFormat> lhsFormat = getRefFormat(lhs.getElementKind());
  std::optional<ref::ElemFormat> rhsFormat = getRefFormat(rhs.getElementKind());
  if (!lhsFormat || !rhsFormat || acc.getElementKind() != ElementKind::F32 ||
      sortedIds.getElementKind() != ElementKind::I32 ||
      expertIds.getElementKind() != ElementKind::I32)
    return op.emitError() << "reference evaluator: unsupported types";
  int64_t T = lhs.type.shape[0], K = lhs.type.shape[1];
  int64_t E = rhs.type.shape[0], N = rhs.type.shape[1];
  int64_t topK = op.getTopK();
  int64_t P = sortedIds.getNumElements(), NB = expertIds.getNumElements();
  if (K % kBlockSize != 0 || rhs.type.shape[2] != K ||
      acc.type.shape != ArrayRef<int64_t>{T * topK, N} ||
      lhsScales.type.shape != ArrayRef<int64_t>{T, K / kBlockSize} ||
      rhsScales.type.shape != ArrayRef<int64_t>{E, N, K / kBlockSize})
    return op.emitError() << "reference evaluator: inconsistent shapes";
  std::vector<int32_t> ids(P), experts(NB);
  for (int64_t i = 0; i < P; ++i)
    ids[i] = int32_t(sortedIds.getBits(i));
  for (int64_t i = 0; i < NB; ++i)
    experts[i] = int32_t(expertIds.getBits(i));
  if (NB == 0 ? P != 0 : P % NB != 0)
    return op.emitError() << "expert_ids (" << NB
                          << " blocks) must divide sorted_ids (" << P
                          << " positions) into blocks of equal size";
  std::optional<ref::InstructionOrder> order = getGroupedOrder(op, K);
  std::optional<std::vector<float>> out = ref::routedScaledMatmul(
      lhs.data.data(), lhsScales.data.data(), *lhsFormat, rhs.data.data(),
      rhsScales.data.data(), *rhsFormat, ids.data(), P, experts.data(), NB,
      topK, E, T, N, K, reinterpret_cast<const float *>(acc.data.data()),
      order ? &*order : nullptr);
  if (!out)
    return op.emitError() << "sorted_ids name a routed row more than once "
                             "(in blocks of valid experts)";
  HostTensor result = acc;
  std::memcpy(result.data.data(), out->data(), out->size() * sizeof(float));
  values[op.getResult()] = std::move(result);
  return success();
}

LogicalResult Evaluator::evaluate(ScaledContractionOp op) {
  FailureOr<const HostTensor *> lhs = lookup(op, op.getLhs());
  FailureOr<const HostTensor *> rhs = lookup(op, op.getRhs());
  FailureOr<const HostTensor *> lhsScales = lookup(op, op.getLhsScales());
  FailureOr<const HostTensor *> rhsScales = lookup(op, op.getRhsScales());
  FailureOr<const HostTensor *> acc = lookup(op, op.getAcc());
  if (failed(lhs) || failed(rhs) || failed(lhsScales) || failed(rhsScales) ||
      failed(acc))
    return failure();
  std::optional<ref::ElemFormat> lhsFormat =
      getRefFormat((*lhs)->getElementKind());
  std::optional<ref::ElemFormat> rhsFormat =
      getRefFormat((*rhs)->getElementKind());
  if (!lhsFormat || !rhsFormat || (*acc)->getElementKind() != ElementKind::F32)
    return op.emitError() << "reference evaluator: unsupported types";

  AffineMap lhsMap = op.getLhsMap(), rhsMap = op.getRhsMap(),
            accMap = op.getAccMap();
  ScaledContractionDims dims = op.getContractionDims();
  unsigned numLoops = op.getNumLoops();

  // Loop ranges from the actual operand shapes.
  SmallVector<int64_t> ranges(numLoops, -1);
  std::pair<AffineMap, const HostTensor *> operands[] = {
      {lhsMap, *lhs}, {rhsMap, *rhs}, {accMap, *acc}};
  for (auto [map, tensor] : operands) {
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      unsigned d = cast<AffineDimExpr>(expr).getPosition();
      int64_t size = tensor->type.shape[pos];
      if (ranges[d] >= 0 && ranges[d] != size)
        return op.emitError() << "reference evaluator: inconsistent sizes "
                                 "of iteration dimension d"
                              << d;
      ranges[d] = size;
    }
  }
  constexpr int64_t blockSize = kBlockSize;
  int64_t K = ranges[dims.k];
  if (K % blockSize != 0)
    return op.emitError() << "reference evaluator: K = " << K
                          << " is not a multiple of " << blockSize;
  SmallVector<int64_t> scaleRanges(ranges);
  scaleRanges[dims.k] = K / blockSize;
  auto expectedScaleShape = [&](AffineMap map) {
    SmallVector<int64_t> shape;
    for (AffineExpr expr : map.getResults())
      shape.push_back(scaleRanges[cast<AffineDimExpr>(expr).getPosition()]);
    return shape;
  };
  if (expectedScaleShape(lhsMap) != (*lhsScales)->type.shape ||
      expectedScaleShape(rhsMap) != (*rhsScales)->type.shape)
    return op.emitError() << "reference evaluator: scale shapes "
                          << (*lhsScales)->type.str() << ", "
                          << (*rhsScales)->type.str()
                          << " do not match the data operands";

  SmallVector<int64_t> lhsStrides =
      getIterationStrides(lhsMap, (*lhs)->type.shape);
  SmallVector<int64_t> rhsStrides =
      getIterationStrides(rhsMap, (*rhs)->type.shape);
  SmallVector<int64_t> lhsScaleStrides =
      getIterationStrides(lhsMap, (*lhsScales)->type.shape);
  SmallVector<int64_t> rhsScaleStrides =
      getIterationStrides(rhsMap, (*rhsScales)->type.shape);
  SmallVector<int64_t> accStrides =
      getIterationStrides(accMap, (*acc)->type.shape);

  SmallVector<int64_t> lhsBatch =
      enumerateOffsets(dims.batch, ranges, lhsStrides);
  SmallVector<int64_t> rhsBatch =
      enumerateOffsets(dims.batch, ranges, rhsStrides);
  SmallVector<int64_t> lhsScaleBatch =
      enumerateOffsets(dims.batch, ranges, lhsScaleStrides);
  SmallVector<int64_t> rhsScaleBatch =
      enumerateOffsets(dims.batch, ranges, rhsScaleStrides);
  SmallVector<int64_t> accBatch =
      enumerateOffsets(dims.batch, ranges, accStrides);
  SmallVector<int64_t> lhsM = enumerateOffsets(dims.m, ranges, lhsStrides);
  SmallVector<int64_t> lhsScaleM =
      enumerateOffsets(dims.m, ranges, lhsScaleStrides);
  SmallVector<int64_t> accM = enumerateOffsets(dims.m, ranges, accStrides);
  SmallVector<int64_t> rhsN = enumerateOffsets(dims.n, ranges, rhsStrides);
  SmallVector<int64_t> rhsScaleN =
      enumerateOffsets(dims.n, ranges, rhsScaleStrides);
  SmallVector<int64_t> accN = enumerateOffsets(dims.n, ranges, accStrides);

  int64_t M = lhsM.size(), N = rhsN.size(), KB = K / blockSize;
  HostTensor result = **acc;
  int64_t numElements = result.getNumElements();
  std::vector<double> absSum(numElements, 0.0), bound;
  // Per instruction in the kernel's K order where it is known; otherwise the
  // exact result rounded once, within a bound of any order's rounding.
  std::optional<ref::InstructionOrder> order;
  if (options.perInstruction) {
    auto it = options.orders.find(op);
    if (it != options.orders.end()) {
      order = ref::InstructionOrder{
          it->second.kStep,
          llvm::divideCeilSigned(K, it->second.kTile) * it->second.kTile,
          options.arithmetic, it->second.parts};
    } else {
      bound.assign(numElements, 0.0);
    }
  }
  double boundPerAbsSum = getUnorderedErrorBound(options.arithmetic, K);
  const uint8_t *lhsData = (*lhs)->data.data();
  const uint8_t *rhsData = (*rhs)->data.data();
  const uint8_t *lhsScaleData = (*lhsScales)->data.data();
  const uint8_t *rhsScaleData = (*rhsScales)->data.data();
  const float *accData = reinterpret_cast<const float *>((*acc)->data.data());
  float *resultData = reinterpret_cast<float *>(result.data.data());

  if (M > 0 && N > 0 && K > 0) {
    std::vector<uint8_t> a(M * K), sa(M * KB), b(N * K), sb(N * KB);
    std::vector<float> c(M * N);
    // Gathers one operand and its scales into row-major [rows, K] and
    // [rows, K/32] (rows = the operand's M or N positions).
    auto gather = [&](ArrayRef<int64_t> rows, int64_t dataBase,
                      int64_t scaleBase, ArrayRef<int64_t> scaleRows,
                      const uint8_t *data, ArrayRef<int64_t> strides,
                      const uint8_t *scaleData, ArrayRef<int64_t> scaleStrides,
                      std::vector<uint8_t> &codes,
                      std::vector<uint8_t> &scales) {
      for (size_t r = 0; r < rows.size(); ++r) {
        for (int64_t k = 0; k < K; ++k)
          codes[r * K + k] = data[dataBase + rows[r] + k * strides[dims.k]];
        for (int64_t kb = 0; kb < KB; ++kb)
          scales[r * KB + kb] =
              scaleData[scaleBase + scaleRows[r] + kb * scaleStrides[dims.k]];
      }
    };
    for (size_t batch = 0; batch < accBatch.size(); ++batch) {
      gather(lhsM, lhsBatch[batch], lhsScaleBatch[batch], lhsScaleM, lhsData,
             lhsStrides, lhsScaleData, lhsScaleStrides, a, sa);
      gather(rhsN, rhsBatch[batch], rhsScaleBatch[batch], rhsScaleN, rhsData,
             rhsStrides, rhsScaleData, rhsScaleStrides, b, sb);
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n)
          c[m * N + n] = accData[accBatch[batch] + accM[m] + accN[n]];
      std::vector<double> sums;
      std::vector<float> out;
      if (order) {
        out = ref::scaledMatmulPerInstruction(
            a.data(), sa.data(), *lhsFormat, b.data(), sb.data(), *rhsFormat, M,
            N, K, /*bTransposed=*/true, c.data(), *order, &sums);
      } else {
        out = ref::scaledMatmul(a.data(), sa.data(), *lhsFormat, b.data(),
                                sb.data(), *rhsFormat, M, N, K,
                                /*bTransposed=*/true, c.data());
        sums = ref::scaledMatmulAbsSum(a.data(), sa.data(), *lhsFormat,
                                       b.data(), sb.data(), *rhsFormat, M, N, K,
                                       /*bTransposed=*/true, c.data());
      }
      for (int64_t m = 0; m < M; ++m) {
        for (int64_t n = 0; n < N; ++n) {
          int64_t index = accBatch[batch] + accM[m] + accN[n];
          resultData[index] = out[m * N + n];
          absSum[index] = sums[m * N + n];
          if (!bound.empty())
            bound[index] = boundPerAbsSum * sums[m * N + n];
        }
      }
    }
  }
  values[op.getResult()] = std::move(result);
  absSums[op.getResult()] = std::move(absSum);
  if (!bound.empty())
    bounds[op.getResult()] = std::move(bound);
  return success();
}

/// Evaluates one f32 scalar op of a linalg.generic body, given the values of
/// its operands; fails for ops the evaluator does not model.
/// Rounds `value` to the float type `type` (nearest-even), as a float.
static float roundTo(Type type, float value) {
  std::optional<ElementKind> kind = getElementKind(type);
  if (!kind || *kind == ElementKind::F32)
    return value;
  std::optional<uint64_t> bits = encodeElement(*kind, value);
  return bits ? static_cast<float>(decodeElement(*kind, *bits)) : value;
}

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

LogicalResult Evaluator::evaluate(linalg::GenericOp op) {
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

  // Loop ranges from the operand dimensions indexed by a plain dimension.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> ranges(numLoops, -1);
  for (auto [map, tensor] : llvm::zip_equal(maps, operands))
    for (auto [pos, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        ranges[dim.getPosition()] = tensor->type.shape[pos];
  if (llvm::is_contained(ranges, -1))
    return op.emitError() << "reference evaluator: a loop range of "
                             "linalg.generic is not an operand dimension";

  SmallVector<HostTensor> results;
  for (OpOperand &init : op.getDpsInitsMutable())
    results.push_back(*operands[init.getOperandNumber()]);
  SmallVector<SmallVector<int64_t>> strides;
  for (const HostTensor *tensor : operands)
    strides.push_back(getRowMajorStrides(tensor->type.shape));

  Block *body = op.getBlock();
  unsigned numInputs = op.getNumDpsInputs();
  /// The value of each body value at the current point.
  DenseMap<Value, float> bodyValues;
  SmallVector<int64_t> point(numLoops, 0), linear(operands.size());
  // Every point of a non-empty iteration space, the last loop innermost.
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
    for (auto [i, arg] : llvm::enumerate(body->getArguments()))
      bodyValues[arg] =
          i < numInputs
              ? static_cast<float>(operands[i]->getValue(linear[i]))
              : static_cast<float>(results[i - numInputs].getValue(linear[i]));
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
    for (auto [i, yielded] :
         llvm::enumerate(body->getTerminator()->getOperands())) {
      std::optional<uint64_t> bits = encodeElement(results[i].getElementKind(),
                                                   bodyValues.lookup(yielded));
      if (!bits)
        return op.emitError() << "reference evaluator: a yielded value does "
                                 "not fit the init's element type";
      results[i].setBits(linear[numInputs + i], *bits);
    }
    int d = static_cast<int>(numLoops) - 1;
    for (; d >= 0; --d) {
      if (++point[d] < ranges[d])
        break;
      point[d] = 0;
    }
    done = d < 0;
  }
  for (auto [result, value] : llvm::zip_equal(op->getResults(), results))
    values[result] = std::move(value);
  return success();
}

LogicalResult Evaluator::evaluate(tensor::ExtractSliceOp op) {
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

LogicalResult Evaluator::evaluateElementwise(Operation *op) {
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

LogicalResult Evaluator::evaluate(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp, tensor::EmptyOp, QuantizeOp, DequantizeOp,
            ScaledContractionOp, GroupedScaledContractionOp,
            RoutedScaledContractionOp, linalg::FillOp, linalg::GenericOp>(
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
        for (auto *map : {&absSums, &bounds})
          if (map->count(cast.getSource()))
            (*map)[cast.getResult()] = map->lookup(cast.getSource());
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

FailureOr<ReferenceResults> Evaluator::run(func::FuncOp func,
                                           ArrayRef<HostTensor> inputs) {
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
  return Evaluator(options).run(signature->func, inputs);
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
