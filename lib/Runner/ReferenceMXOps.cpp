//===- ReferenceMXOps.cpp - reference execution of mx ops -----------------===//
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
//===----------------------------------------------------------------------===//

#include "ReferenceEvaluatorImpl.h"

#include "mlir/IR/AffineMap.h"
#include "llvm/Support/Format.h"

#include <cstring>

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::detail;
namespace ref = ::mx::ref;

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

/// Quantizes the bf16/f16/f32 tensor \p input along \p axis to \p kind
/// with mx::ref into the row-major \p elements (the input's shape) and
/// \p scales (the input's shape with \p axis divided by \p blockSize).
static LogicalResult quantizeRowMajor(Operation *op, const HostTensor &input,
                                      ElementKind kind, int64_t axis,
                                      int64_t blockSize, ScaleRule scaleRule,
                                      Rounding elementRounding,
                                      HostTensor &elements,
                                      HostTensor &scales) {
  std::optional<ref::ElemFormat> format = getRefFormat(kind);
  if (!format || !isIEEEFloat(input.getElementKind()))
    return op->emitError() << "reference evaluator: unsupported types";
  ArrayRef<int64_t> shape = input.type.shape;
  auto [outer, size, inner] = splitAtAxis(shape, axis);
  if (size % blockSize != 0)
    return op->emitError() << "reference evaluator: size " << size
                           << " along axis " << axis
                           << " is not a multiple of the block size "
                           << blockSize;
  SmallVector<int64_t> scaleShape(shape);
  scaleShape[axis] /= blockSize;
  elements = HostTensor(HostTensorType(kind, shape));
  scales = HostTensor(HostTensorType(ElementKind::F8E8M0FNU, scaleShape));

  std::vector<float> x = toFloats(input);
  ref::ScaleRule rule = convertScaleRule(scaleRule);
  ref::ElemRounding rounding = convertRounding(elementRounding);
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
  return success();
}

LogicalResult ReferenceEvaluator::evaluate(QuantizeOp op) {
  FailureOr<const HostTensor *> input = lookup(op, op.getInput());
  FailureOr<ElementKind> elementKind = getKind(op, op.getElements());
  if (failed(input) || failed(elementKind))
    return failure();
  HostTensor elements, scales;
  if (failed(quantizeRowMajor(op, **input, *elementKind, op.getAxis(),
                              op.getBlockSize(), op.getScale(),
                              op.getRounding(), elements, scales)))
    return failure();
  values[op.getElements()] = std::move(elements);
  values[op.getScales()] = std::move(scales);
  return success();
}

/// The value of the affine expression \p expr at the dimension values
/// \p dims (no symbols).
static int64_t evaluateAffine(AffineExpr expr, ArrayRef<int64_t> dims) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = evaluateAffine(binary.getLHS(), dims);
  int64_t rhs = evaluateAffine(binary.getRHS(), dims);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return llvm::divideFloorSigned(lhs, rhs);
  case AffineExprKind::CeilDiv:
    return llvm::divideCeilSigned(lhs, rhs);
  case AffineExprKind::Mod:
    return lhs - rhs * llvm::divideFloorSigned(lhs, rhs);
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

/// Writes the row-major \p codes of \p bitWidth bits, padded with \p padding
/// to the logical \p domain, through \p map into \p dest (elements, or
/// bytes holding fp4/fp6 elements packed along the innermost dimension when
/// \p packed): element i of a row in bits [w*i, w*i + w). Every destination
/// element must be written exactly once (destination #\p index of \p op).
static LogicalResult scatterThroughMap(Operation *op, unsigned index,
                                       const HostTensor &codes,
                                       ArrayRef<int64_t> domain, AffineMap map,
                                       uint64_t padding, unsigned bitWidth,
                                       bool packed, HostTensor &dest) {
  ArrayRef<int64_t> logical = codes.type.shape;
  SmallVector<int64_t> shape(dest.type.shape);
  int64_t rowBytes = shape.empty() ? 1 : shape.back();
  if (packed) {
    if ((rowBytes * 8) % bitWidth != 0)
      return op->emitError()
             << "reference evaluator: destination #" << index << " rows of "
             << rowBytes << " bytes do not hold whole " << bitWidth
             << "-bit elements";
    shape.back() = rowBytes * 8 / bitWidth;
  }
  SmallVector<int64_t> strides = getRowMajorStrides(shape);
  SmallVector<int64_t> logicalStrides = getRowMajorStrides(logical);
  int64_t numPositions = 1, numPoints = 1;
  for (int64_t size : shape)
    numPositions *= size;
  for (int64_t size : domain)
    numPoints *= size;
  std::vector<uint8_t> written(numPositions, 0);
  SmallVector<int64_t> point(domain.size(), 0);
  for (int64_t p = 0; p < numPoints; ++p) {
    bool inside = true;
    int64_t source = 0, position = 0;
    for (auto [d, value] : llvm::enumerate(point)) {
      inside &= value < logical[d];
      source += value * logicalStrides[d];
    }
    uint64_t code = inside ? codes.getBits(source) : padding;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      int64_t value = evaluateAffine(expr, point);
      if (value < 0 || value >= shape[r])
        return op->emitError()
               << "reference evaluator: the map of destination #" << index
               << " sends " << formatIndex(domain, p)
               << " outside the destination (dimension " << r << " = " << value
               << ")";
      position += value * strides[r];
    }
    if (written[position]++)
      return op->emitError()
             << "reference evaluator: the map of destination #" << index
             << " writes " << formatIndex(shape, position) << " twice";
    if (!packed) {
      dest.setBits(position, code);
    } else {
      int64_t row = position / shape.back();
      int64_t bit = (position % shape.back()) * bitWidth;
      for (unsigned b = 0; b < bitWidth; ++b, ++bit)
        if ((code >> b) & 1)
          dest.data[row * rowBytes + bit / 8] |= uint8_t(1u << (bit % 8));
    }
    // The next point of the domain, row-major.
    for (int64_t d = domain.size() - 1; d >= 0 && ++point[d] == domain[d]; --d)
      point[d] = 0;
  }
  for (auto [position, count] : llvm::enumerate(written))
    if (!count)
      return op->emitError()
             << "reference evaluator: destination #" << index << " position "
             << formatIndex(shape, position) << " is not written by its map";
  return success();
}

/// The rows of `rows` (row-major, 2-d) gathered by `ids`: row i is row
/// ids[i] / divisor, or all `padding` where that names no row (the logical
/// rows of a gathered mx.quantize_into).
static HostTensor gatherRows(const HostTensor &rows, ArrayRef<int32_t> ids,
                             int64_t divisor, uint64_t padding) {
  int64_t numRows = rows.type.shape[0], width = rows.type.shape[1];
  HostTensor result(
      HostTensorType(rows.type.elementKind, {int64_t(ids.size()), width}));
  for (auto [i, id] : llvm::enumerate(ids)) {
    int64_t row = id < 0 ? -1 : int64_t(id) / divisor;
    for (int64_t c = 0; c < width; ++c)
      result.setBits(int64_t(i) * width + c, row >= 0 && row < numRows
                                                 ? rows.getBits(row * width + c)
                                                 : padding);
  }
  return result;
}

LogicalResult ReferenceEvaluator::evaluate(QuantizeIntoOp op) {
  if (!op.hasPureTensorSemantics())
    return op.emitError() << "reference evaluator supports mx.quantize_into "
                             "on tensors only";
  FailureOr<const HostTensor *> input = lookup(op, op.getInput());
  if (failed(input))
    return failure();
  std::optional<ElementKind> kind = getElementKind(op.getElementType());
  HostTensor codes, scales;
  if (!kind || failed(quantizeRowMajor(op, **input, *kind, op.getAxis(),
                                       /*blockSize=*/32, op.getScale(),
                                       op.getRounding(), codes, scales)))
    return failure();
  // A gathered op quantizes the input's rows, then reads logical row i at
  // input row ids[i] / divisor.
  std::vector<int32_t> ids;
  if (Value idsValue = op.getIds()) {
    FailureOr<const HostTensor *> idsTensor = lookup(op, idsValue);
    if (failed(idsTensor))
      return failure();
    if (codes.type.shape.size() != 2 || !op.getDivisor() ||
        *op.getDivisor() <= 0)
      return op.emitError() << "reference evaluator: a gathered "
                               "mx.quantize_into needs a 2-d input and a "
                               "positive divisor";
    for (int64_t i = 0, e = (*idsTensor)->getNumElements(); i < e; ++i)
      ids.push_back(int32_t((*idsTensor)->getBits(i)));
  }
  unsigned numElements = op.getElements().size();
  for (auto [index, init] : llvm::enumerate(op.getDpsInits())) {
    FailureOr<const HostTensor *> initValue = lookup(op, init);
    FailureOr<ElementKind> destKind = getKind(op, init);
    if (failed(initValue) || failed(destKind))
      return failure();
    FailureOr<SmallVector<QuantizeIntoOp::DomainCover>> covers =
        op.getDomainCovers(index);
    if (failed(covers))
      return op.emitError() << "reference evaluator: the padded domain of "
                               "destination #"
                            << index << " is not known";
    bool isElements = index < numElements;
    unsigned bitWidth =
        getBitWidth(isElements ? *kind : ElementKind::F8E8M0FNU);
    bool packed = isElements && *destKind == ElementKind::I8 && bitWidth < 8;
    // The padded domain from the destination's run-time sizes, in elements
    // (a packed i8 destination counts bytes innermost).
    SmallVector<int64_t> destShape((*initValue)->type.shape);
    if (packed && !destShape.empty())
      destShape.back() = destShape.back() * 8 / bitWidth;
    SmallVector<int64_t> domain;
    for (QuantizeIntoOp::DomainCover cover : *covers)
      domain.push_back(destShape[cover.result] * cover.tile);
    uint64_t padding =
        isElements ? 0 : uint8_t(op.getScalePadding()[index - numElements]);
    HostTensor dest(HostTensorType(*destKind, (*initValue)->type.shape));
    const HostTensor *source = isElements ? &codes : &scales;
    HostTensor gathered;
    if (op.getIds()) {
      gathered = gatherRows(*source, ids, int64_t(*op.getDivisor()), padding);
      source = &gathered;
    }
    if (failed(scatterThroughMap(op, index, *source, domain,
                                 op.getDestinationMap(index), padding, bitWidth,
                                 packed, dest)))
      return failure();
    values[op.getResult(index)] = std::move(dest);
  }
  return success();
}

LogicalResult ReferenceEvaluator::evaluate(DequantizeOp op) {
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

std::optional<ref::InstructionOrder>
ReferenceEvaluator::getInstructionOrder(Operation *op, int64_t k) {
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

void ReferenceEvaluator::noteOrder(
    Operation *op, Value result,
    const std::optional<ref::InstructionOrder> &order, int64_t k) {
  if (!options.perInstruction)
    return;
  std::string note;
  llvm::raw_string_ostream os(note);
  os << op->getName() << " at " << formatLocation(op->getLoc());
  if (!order) {
    os << ": the kernel's K order is not known: compared with its exact sum "
          "within "
       << llvm::format("%.3g", getUnorderedErrorBound(options.arithmetic, k))
       << " x (|acc| + sum|a*b|)";
  } else {
    os << " is rounded to f32 after every matrix instruction (K step "
       << order->kStep << ") in the kernel's K order";
    if (order->parts > 1)
      os << ", K split in " << order->parts
         << " parts added to acc in K order (split-K)";
  }
  notes[result] = std::move(note);
}

LogicalResult ReferenceEvaluator::evaluate(GroupedScaledContractionOp op) {
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
  std::optional<ref::InstructionOrder> order = getInstructionOrder(op, K);
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

LogicalResult ReferenceEvaluator::evaluate(RoutedScaledContractionOp op) {
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
  std::optional<ref::InstructionOrder> order = getInstructionOrder(op, K);
  std::optional<std::vector<float>> out = ref::routedScaledMatmul(
      lhs.data.data(), lhsScales.data.data(), *lhsFormat, rhs.data.data(),
      rhsScales.data.data(), *rhsFormat, ids.data(), P, experts.data(), NB,
      topK, E, T, N, K, reinterpret_cast<const float *>(acc.data.data()),
      order ? &*order : nullptr);
  if (!out)
    return op.emitError() << "sorted_ids name a routed row more than once";
  if (op.getAllRowsNamed()) {
    // Every routed row named by a position (of any block).
    std::vector<bool> named(T * topK, false);
    for (int32_t id : ids)
      if (id >= 0 && id < T * topK)
        named[id] = true;
    auto unnamed = llvm::find(named, false);
    if (unnamed != named.end())
      return op.emitError()
             << "all_rows_named: sorted_ids name no position for routed row "
             << (unnamed - named.begin());
  }
  HostTensor result = acc;
  std::memcpy(result.data.data(), out->data(), out->size() * sizeof(float));
  values[op.getResult()] = std::move(result);
  return success();
}

namespace {
/// Where the elements of one operand of a scaled contraction lie, as
/// offsets into its row-major storage: one per batch index, one per row
/// (the operand's M or N positions), and the stride of K.
struct OperandRows {
  SmallVector<int64_t> batch, rows;
  int64_t kStride;
};

/// A scaled contraction as a batch of row-major matmuls: the rows of its
/// data operands and of their scales, and the accumulator's offsets per
/// batch, M and N position.
struct ContractionLayout {
  OperandRows lhs, rhs, lhsScales, rhsScales;
  SmallVector<int64_t> accBatch, accM, accN;
};

/// The operands of one batch of a scaled contraction gathered row-major:
/// A [M, K] and its scales [M, K / 32], B transposed [N, K] and its scales
/// [N, K / 32], and C [M, N].
struct BatchOperands {
  BatchOperands(int64_t m, int64_t n, int64_t k)
      : a(m * k), sa(m * (k / kBlockSize)), b(n * k), sb(n * (k / kBlockSize)),
        c(m * n) {}
  std::vector<uint8_t> a, sa, b, sb;
  std::vector<float> c;
};
} // namespace

/// Returns the range of every iteration dimension of \p op from the shapes
/// of its data operands and accumulator; fails on inconsistent sizes.
static FailureOr<SmallVector<int64_t>> getLoopRanges(ScaledContractionOp op,
                                                     const HostTensor &lhs,
                                                     const HostTensor &rhs,
                                                     const HostTensor &acc) {
  SmallVector<int64_t> ranges(op.getNumLoops(), -1);
  std::pair<AffineMap, const HostTensor *> operands[] = {
      {op.getLhsMap(), &lhs}, {op.getRhsMap(), &rhs}, {op.getAccMap(), &acc}};
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
  return ranges;
}

/// Checks that K (the range of \p dims.k in \p ranges) is a multiple of the
/// block size and that the scales of \p op have the shapes of its data
/// operands with K / 32 in place of K.
static LogicalResult verifyScaleShapes(ScaledContractionOp op,
                                       const ScaledContractionDims &dims,
                                       ArrayRef<int64_t> ranges,
                                       const HostTensor &lhsScales,
                                       const HostTensor &rhsScales) {
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
  if (expectedScaleShape(op.getLhsMap()) != lhsScales.type.shape ||
      expectedScaleShape(op.getRhsMap()) != rhsScales.type.shape)
    return op.emitError() << "reference evaluator: scale shapes "
                          << lhsScales.type.str() << ", "
                          << rhsScales.type.str()
                          << " do not match the data operands";
  return success();
}

/// The rows of the operand \p tensor indexed by \p map, whose rows are the
/// iteration dimensions \p rowDims.
static OperandRows getOperandRows(AffineMap map, const HostTensor &tensor,
                                  const ScaledContractionDims &dims,
                                  ArrayRef<unsigned> rowDims,
                                  ArrayRef<int64_t> ranges) {
  SmallVector<int64_t> strides = getIterationStrides(map, tensor.type.shape);
  return {enumerateOffsets(dims.batch, ranges, strides),
          enumerateOffsets(rowDims, ranges, strides), strides[dims.k]};
}

/// Copies the rows of batch \p batch of an operand (\p data) and of its
/// scales (\p scaleData) into row-major [rows, K] \p codes and
/// [rows, K / 32] \p scales.
static void gatherRows(const uint8_t *data, const OperandRows &rows,
                       const uint8_t *scaleData, const OperandRows &scaleRows,
                       size_t batch, int64_t K, std::vector<uint8_t> &codes,
                       std::vector<uint8_t> &scales) {
  int64_t KB = K / kBlockSize;
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    for (int64_t k = 0; k < K; ++k)
      codes[r * K + k] =
          data[rows.batch[batch] + rows.rows[r] + k * rows.kStride];
    for (int64_t kb = 0; kb < KB; ++kb)
      scales[r * KB + kb] =
          scaleData[scaleRows.batch[batch] + scaleRows.rows[r] +
                    kb * scaleRows.kStride];
  }
}

/// Multiplies one batch: with ref::scaledMatmulPerInstruction in \p order
/// where it is given, else with ref::scaledMatmul rounded once. Returns the
/// [M, N] result and |acc| + sum |a*b| per element.
static std::pair<std::vector<float>, std::vector<double>>
multiplyBatch(const BatchOperands &in, ref::ElemFormat lhsFormat,
              ref::ElemFormat rhsFormat, int64_t M, int64_t N, int64_t K,
              const std::optional<ref::InstructionOrder> &order) {
  std::vector<double> sums;
  std::vector<float> out;
  if (order) {
    out = ref::scaledMatmulPerInstruction(
        in.a.data(), in.sa.data(), lhsFormat, in.b.data(), in.sb.data(),
        rhsFormat, M, N, K, /*bTransposed=*/true, in.c.data(), *order, &sums);
  } else {
    out = ref::scaledMatmul(in.a.data(), in.sa.data(), lhsFormat, in.b.data(),
                            in.sb.data(), rhsFormat, M, N, K,
                            /*bTransposed=*/true, in.c.data());
    sums = ref::scaledMatmulAbsSum(in.a.data(), in.sa.data(), lhsFormat,
                                   in.b.data(), in.sb.data(), rhsFormat, M, N,
                                   K, /*bTransposed=*/true, in.c.data());
  }
  return {std::move(out), std::move(sums)};
}

LogicalResult ReferenceEvaluator::evaluate(ScaledContractionOp op) {
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

  ScaledContractionDims dims = op.getContractionDims();
  FailureOr<SmallVector<int64_t>> ranges =
      getLoopRanges(op, **lhs, **rhs, **acc);
  if (failed(ranges) ||
      failed(verifyScaleShapes(op, dims, *ranges, **lhsScales, **rhsScales)))
    return failure();
  ContractionLayout layout;
  layout.lhs = getOperandRows(op.getLhsMap(), **lhs, dims, dims.m, *ranges);
  layout.rhs = getOperandRows(op.getRhsMap(), **rhs, dims, dims.n, *ranges);
  layout.lhsScales =
      getOperandRows(op.getLhsMap(), **lhsScales, dims, dims.m, *ranges);
  layout.rhsScales =
      getOperandRows(op.getRhsMap(), **rhsScales, dims, dims.n, *ranges);
  SmallVector<int64_t> accStrides =
      getIterationStrides(op.getAccMap(), (*acc)->type.shape);
  layout.accBatch = enumerateOffsets(dims.batch, *ranges, accStrides);
  layout.accM = enumerateOffsets(dims.m, *ranges, accStrides);
  layout.accN = enumerateOffsets(dims.n, *ranges, accStrides);

  int64_t M = layout.lhs.rows.size(), N = layout.rhs.rows.size(),
          K = (*ranges)[dims.k];
  HostTensor result = **acc;
  int64_t numElements = result.getNumElements();
  std::vector<double> absSum(numElements, 0.0), bound;
  // Per instruction in the kernel's K order where it is known; otherwise the
  // exact result rounded once, within a bound of any order's rounding.
  std::optional<ref::InstructionOrder> order = getInstructionOrder(op, K);
  if (options.perInstruction && !order)
    bound.assign(numElements, 0.0);
  double boundPerAbsSum = getUnorderedErrorBound(options.arithmetic, K);
  const float *accData = reinterpret_cast<const float *>((*acc)->data.data());
  float *resultData = reinterpret_cast<float *>(result.data.data());

  if (M > 0 && N > 0 && K > 0) {
    BatchOperands in(M, N, K);
    for (size_t batch = 0; batch < layout.accBatch.size(); ++batch) {
      int64_t accBase = layout.accBatch[batch];
      gatherRows((*lhs)->data.data(), layout.lhs, (*lhsScales)->data.data(),
                 layout.lhsScales, batch, K, in.a, in.sa);
      gatherRows((*rhs)->data.data(), layout.rhs, (*rhsScales)->data.data(),
                 layout.rhsScales, batch, K, in.b, in.sb);
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n)
          in.c[m * N + n] = accData[accBase + layout.accM[m] + layout.accN[n]];
      auto [out, sums] =
          multiplyBatch(in, *lhsFormat, *rhsFormat, M, N, K, order);
      for (int64_t m = 0; m < M; ++m) {
        for (int64_t n = 0; n < N; ++n) {
          int64_t index = accBase + layout.accM[m] + layout.accN[n];
          resultData[index] = out[m * N + n];
          absSum[index] = sums[m * N + n];
          if (!bound.empty())
            bound[index] = boundPerAbsSum * sums[m * N + n];
        }
      }
    }
  }
  values[op.getResult()] = std::move(result);
  noteOrder(op, op.getResult(), order, K);
  absSums[op.getResult()] = std::move(absSum);
  if (!bound.empty())
    bounds[op.getResult()] = std::move(bound);
  return success();
}
