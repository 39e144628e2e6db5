//===- RaiseQuantize.cpp - mx-raise-quantize
//-------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Raises the upstream form of an MX quantization (block amax, scale from it,
// arith.scaling_truncf) to mx.quantize and of a dequantization
// (arith.scaling_extf per block) to mx.dequantize.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/QuantizeArith.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace mlir::mx {
#define GEN_PASS_DEF_MXRAISEQUANTIZE
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

/// The block size of every MX format.
static constexpr int64_t kBlock = 32;

namespace {
/// A value of a generic's body that is one of its inputs times 2^shift.
struct ScaledInput {
  OpOperand *operand;
  int shift;
};
} // namespace

/// Returns the input operand of \p op whose block argument is \p value.
static OpOperand *getInputOperand(linalg::GenericOp op, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op.getBlock() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return nullptr;
  return op.getDpsInputOperand(arg.getArgNumber());
}

/// Returns log2 of \p value if it is a constant power of two.
static std::optional<int> getPowerOfTwo(Value value) {
  FloatAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  double v = attr.getValueAsDouble();
  int exp;
  if (!(v > 0) || std::frexp(v, &exp) != 0.5)
    return std::nullopt;
  return exp - 1;
}

/// Matches \p value, in \p op's body, as an input times a power of two:
/// the input itself, `input * 2^k` (either order) or `input / 2^k`.
static std::optional<ScaledInput> matchScaledInput(linalg::GenericOp op,
                                                   Value value) {
  if (OpOperand *operand = getInputOperand(op, value))
    return ScaledInput{operand, 0};
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  Value lhs = def->getOperand(0), rhs = def->getOperand(1);
  if (isa<arith::MulFOp>(def)) {
    if (OpOperand *operand = getInputOperand(op, lhs))
      if (std::optional<int> k = getPowerOfTwo(rhs))
        return ScaledInput{operand, *k};
    if (OpOperand *operand = getInputOperand(op, rhs))
      if (std::optional<int> k = getPowerOfTwo(lhs))
        return ScaledInput{operand, *k};
  }
  if (isa<arith::DivFOp>(def))
    if (OpOperand *operand = getInputOperand(op, lhs))
      if (std::optional<int> k = getPowerOfTwo(rhs))
        return ScaledInput{operand, -*k};
  return std::nullopt;
}

/// Returns the value \p op's body yields if the body has exactly one
/// result.
static Value getYielded(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  return op.getBlock()->getTerminator()->getOperand(0);
}

/// Returns whether \p op is elementwise over tensors of one shape (all loops
/// parallel, identity maps).
static bool isElementwise(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() &&
         op.getNumParallelLoops() == op.getNumLoops() &&
         llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); });
}

/// Returns whether \p map is the identity of \p rank loops without its last
/// dimension (a per-block operand).
static bool isPerBlockMap(AffineMap map, unsigned rank) {
  return map.getNumDims() == rank &&
         map == AffineMap::getMultiDimIdentityMap(rank, map.getContext())
                    .dropResult(rank - 1);
}

/// Returns whether \p value is a splat of -inf or +0.0 (the start of a
/// block amax).
static bool isAmaxStart(Value value) {
  FloatAttr attr;
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    if (!matchPattern(fill.value(), m_Constant(&attr)))
      return false;
  } else {
    DenseElementsAttr dense;
    if (!matchPattern(value, m_Constant(&dense)) || !dense.isSplat() ||
        !isa<FloatType>(dense.getElementType()))
      return false;
    attr = dense.getSplatValue<FloatAttr>();
  }
  const APFloat &v = attr.getValue();
  return (v.isInfinity() && v.isNegative()) || v.isPosZero();
}

/// Returns the data tensor of \p amax if it is a block amax: the last loop
/// a reduction over the input's last dimension, the body
/// `maximumf(absf(x), out)` (either order), from -inf or +0.0.
static Value getAmaxSource(Value amax) {
  auto op = amax.getDefiningOp<linalg::GenericOp>();
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return nullptr;
  unsigned rank = op.getNumLoops();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[0].isIdentity() || !isPerBlockMap(maps[1], rank) ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction ||
      !isAmaxStart(op.getDpsInits()[0]))
    return nullptr;
  Operation *max = getYielded(op).getDefiningOp();
  // maximumf propagates NaN as mx.quantize's amax does (maxnumf would give
  // a NaN block a finite scale).
  if (!isa_and_nonnull<arith::MaximumFOp>(max))
    return nullptr;
  Block *body = op.getBlock();
  for (unsigned i = 0; i < 2; ++i) {
    auto abs = max->getOperand(i).getDefiningOp<math::AbsFOp>();
    if (abs && abs.getOperand() == body->getArgument(0) &&
        max->getOperand(1 - i) == body->getArgument(1))
      return op.getDpsInputs()[0];
  }
  return nullptr;
}

/// Follows \p tensor through elementwise generics that multiply it by powers
/// of two to a block amax; returns the amax and adds the powers to \p shift.
static Value resolveAmax(Value tensor, int &shift) {
  for (int depth = 0; depth < 3; ++depth) {
    if (getAmaxSource(tensor))
      return tensor;
    auto op = tensor.getDefiningOp<linalg::GenericOp>();
    if (!op || !isElementwise(op) || op.getNumDpsInputs() != 1)
      return nullptr;
    std::optional<ScaledInput> scaled = matchScaledInput(op, getYielded(op));
    if (!scaled)
      return nullptr;
    shift += scaled->shift;
    tensor = scaled->operand->get();
  }
  return nullptr;
}

/// Matches \p value of \p op's body as a conversion to f8E8M0FNU that keeps
/// the exponent (arith.truncf without a rounding mode, or rounding toward
/// zero or down): returns the converted value.
static Value matchToE8M0(Value value) {
  auto trunc = value.getDefiningOp<arith::TruncFOp>();
  if (!trunc || !isa<Float8E8M0FNUType>(trunc.getType()))
    return nullptr;
  std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
  if (mode && *mode != arith::RoundingMode::toward_zero &&
      *mode != arith::RoundingMode::downward)
    return nullptr;
  return trunc.getIn();
}

/// Returns the block amax whose E8M0 scales \p op computes: its body yields
/// `truncf(amax * 2^shift)` to f8E8M0FNU, optionally bitcast to i8.
static Value matchScaleGeneric(linalg::GenericOp op, int &shift) {
  if (!isElementwise(op) || op.getNumDpsInputs() != 1)
    return nullptr;
  Value yielded = getYielded(op);
  if (auto cast = yielded.getDefiningOp<arith::BitcastOp>();
      cast && cast.getType().isInteger(8))
    yielded = cast.getIn();
  Value converted = matchToE8M0(yielded);
  if (!converted)
    return nullptr;
  std::optional<ScaledInput> scaled = matchScaledInput(op, converted);
  if (!scaled)
    return nullptr;
  shift = scaled->shift;
  return resolveAmax(scaled->operand->get(), shift);
}

/// The reassociation that merges the last two of `rank` dimensions (a
/// block dimension of size 1 into the one before it).
static SmallVector<ReassociationIndices> getBlockGroups(unsigned rank) {
  SmallVector<ReassociationIndices> groups;
  for (unsigned d = 0; d + 2 < rank; ++d)
    groups.push_back({static_cast<int64_t>(d)});
  if (rank >= 2)
    groups.push_back({static_cast<int64_t>(rank - 2), rank - 1});
  return groups;
}

namespace {
/// A matched upstream quantization.
struct QuantizePlan {
  Value input;
  /// The block amax the scale comes from (its scale generics become the
  /// mx.quantize's scales).
  Value amax;
  Rounding rounding;
};
} // namespace

/// Emits the remark of an op that uses arith.scaling_truncf but is not
/// raised.
static FailureOr<QuantizePlan> rejectQuantize(linalg::GenericOp op,
                                              const Twine &why) {
  op->emitRemark() << "not raised to mx.quantize: " << why;
  return failure();
}

/// Matches the scale operand \p scale of the arith.scaling_truncf in \p
/// op's body as `2^-emax` times the block amax of \p input.
static Value matchQuantizeScale(linalg::GenericOp op, Value scale, int emax,
                                Value input) {
  unsigned rank = op.getNumLoops();
  int shift = 0;
  Value amax;
  if (Value converted = matchToE8M0(scale))
    scale = converted;
  if (std::optional<ScaledInput> scaled = matchScaledInput(op, scale)) {
    if (!isPerBlockMap(op.getMatchingIndexingMap(scaled->operand), rank))
      return nullptr;
    Value tensor = scaled->operand->get();
    shift = scaled->shift;
    if (isa<Float8E8M0FNUType>(getElementTypeOrSelf(tensor.getType()))) {
      auto producer = tensor.getDefiningOp<linalg::GenericOp>();
      if (!producer || scaled->shift != 0)
        return nullptr;
      amax = matchScaleGeneric(producer, shift);
    } else {
      amax = resolveAmax(tensor, shift);
    }
  }
  if (!amax || shift != -emax || getAmaxSource(amax) != input)
    return nullptr;
  return amax;
}

/// Matches \p op as the elements of an upstream quantization.
static FailureOr<QuantizePlan> matchQuantize(linalg::GenericOp op) {
  Value yielded = getYielded(op);
  auto trunc =
      yielded ? yielded.getDefiningOp<arith::ScalingTruncFOp>() : nullptr;
  if (!trunc)
    return failure();
  auto elementType = dyn_cast<FloatType>(trunc.getType());
  if (!elementType || !isMXElementType(elementType))
    return rejectQuantize(op, "the element type is not an MX type");
  unsigned rank = op.getNumLoops();
  OpOperand *data = getInputOperand(op, trunc.getIn());
  if (!op.hasPureTensorSemantics() || op.getNumParallelLoops() != rank ||
      !data || !op.getMatchingIndexingMap(data).isIdentity() ||
      !op.getIndexingMapMatchingResult(op->getResult(0)).isIdentity())
    return rejectQuantize(op, "expected all loops parallel, the data and the "
                              "result indexed alike");
  auto dataType = cast<RankedTensorType>(data->get().getType());
  if (!dataType.getElementType().isF32() &&
      !dataType.getElementType().isBF16() && !dataType.getElementType().isF16())
    return rejectQuantize(op, "the data is not f32, bf16 or f16");
  if (dataType.getShape().back() != kBlock)
    return rejectQuantize(op, "the last dimension is not one block of 32");
  Rounding rounding = Rounding::nearest_even;
  if (std::optional<arith::RoundingMode> mode = trunc.getRoundingmode()) {
    if (*mode == arith::RoundingMode::to_nearest_away)
      rounding = Rounding::ties_away;
    else if (*mode != arith::RoundingMode::to_nearest_even)
      return rejectQuantize(op, "rounding mode " +
                                    arith::stringifyRoundingMode(*mode) +
                                    " has no mx.quantize equivalent");
  }
  int emax = ElementFormat::get(elementType).maxExp;
  Value amax = matchQuantizeScale(op, trunc.getScale(), emax, data->get());
  if (!amax)
    return rejectQuantize(
        op, "the scale is not the block amax of the data times 2^-" +
                Twine(emax) + " converted to f8E8M0FNU (scale rule floor)");
  return QuantizePlan{data->get(), amax, rounding};
}

/// Replaces \p op (the elements) and every scale generic of the plan's
/// amax by an mx.quantize.
static QuantizeOp raise(RewriterBase &rewriter, linalg::GenericOp op,
                        const QuantizePlan &plan) {
  OpBuilder::InsertionGuard guard(rewriter);
  // After the amax: before every user of the quantization (the elements and
  // the scale generics use the amax).
  rewriter.setInsertionPointAfterValue(plan.amax);
  Location loc = op.getLoc();
  auto elementsType = cast<RankedTensorType>(op->getResult(0).getType());
  auto inputType = cast<RankedTensorType>(plan.input.getType());
  unsigned rank = inputType.getRank();
  SmallVector<int64_t> scaleShape(inputType.getShape());
  scaleShape.back() = 1;
  Type e8m0 = Float8E8M0FNUType::get(rewriter.getContext());
  auto quantize = QuantizeOp::create(
      rewriter, loc, elementsType, RankedTensorType::get(scaleShape, e8m0),
      plan.input, rank - 1, ScaleRule::floor, plan.rounding);
  // The scales without the block dimension of size 1.
  SmallVector<ReassociationIndices> groups = getBlockGroups(rank);
  Value scales = tensor::CollapseShapeOp::create(rewriter, loc,
                                                 quantize.getScales(), groups);
  op->emitRemark() << "raised to mx.quantize (scale floor, rounding "
                   << stringifyRounding(plan.rounding)
                   << "): arith.scaling_truncf by the block amax times 2^-"
                   << ElementFormat::get(
                          cast<FloatType>(elementsType.getElementType()))
                          .maxExp;
  rewriter.replaceOp(op, quantize.getElements());
  for (Operation *user : llvm::to_vector(plan.amax.getUsers())) {
    auto scaleOp = dyn_cast<linalg::GenericOp>(user);
    int shift = 0;
    if (!scaleOp || scaleOp->getNumResults() != 1 ||
        matchScaleGeneric(scaleOp, shift) != plan.amax ||
        shift !=
            -ElementFormat::get(cast<FloatType>(elementsType.getElementType()))
                 .maxExp)
      continue;
    rewriter.setInsertionPoint(scaleOp);
    Value replacement = scales;
    Type resultType = scaleOp->getResult(0).getType();
    if (resultType != scales.getType())
      replacement = arith::BitcastOp::create(rewriter, scaleOp.getLoc(),
                                             resultType, scales);
    scaleOp->emitRemark() << "raised to the scales of the mx.quantize at "
                          << loc;
    rewriter.replaceOp(scaleOp, replacement);
  }
  return quantize;
}

FailureOr<QuantizeOp> mx::raiseQuantize(RewriterBase &rewriter,
                                        linalg::GenericOp op) {
  FailureOr<QuantizePlan> plan = matchQuantize(op);
  if (failed(plan))
    return failure();
  return raise(rewriter, op, *plan);
}

/// Matches \p op as an upstream dequantization: its body yields
/// `scaling_extf(x, s)` with the scales indexed per block; returns the
/// scales as mx.dequantize takes them (the data's shape with the last
/// dimension divided by 32), built before \p op.
static FailureOr<Value> matchDequantize(RewriterBase &rewriter,
                                        linalg::GenericOp op) {
  Value yielded = getYielded(op);
  auto ext = yielded ? yielded.getDefiningOp<arith::ScalingExtFOp>() : nullptr;
  if (!ext)
    return failure();
  auto reject = [&](const Twine &why) -> FailureOr<Value> {
    op->emitRemark() << "not raised to mx.dequantize: " << why;
    return failure();
  };
  unsigned rank = op.getNumLoops();
  OpOperand *data = getInputOperand(op, ext.getIn());
  OpOperand *scale = getInputOperand(op, ext.getScale());
  if (!op.hasPureTensorSemantics() || op.getNumParallelLoops() != rank ||
      !data || !scale || !op.getMatchingIndexingMap(data).isIdentity() ||
      !op.getIndexingMapMatchingResult(op->getResult(0)).isIdentity())
    return reject("expected all loops parallel, the data and the result "
                  "indexed alike, the data and scales as inputs");
  auto dataType = cast<RankedTensorType>(data->get().getType());
  if (!isMXElementType(dataType.getElementType()) ||
      !isa<Float8E8M0FNUType>(getElementTypeOrSelf(scale->get().getType())))
    return reject("expected MX elements and f8E8M0FNU scales");
  AffineMap scaleMap = op.getMatchingIndexingMap(scale);
  MLIRContext *ctx = op.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap flat = identity.replace(
      getAffineDimExpr(rank - 1, ctx),
      getAffineDimExpr(rank - 1, ctx).floorDiv(kBlock), rank, 0);
  if (scaleMap == flat)
    return scale->get();
  if (!isPerBlockMap(scaleMap, rank) || dataType.getShape().back() != kBlock)
    return reject("the scales are not indexed per block of 32 of the last "
                  "dimension");
  // The expanded form: the scales get the block dimension of size 1.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto scaleType = cast<RankedTensorType>(scale->get().getType());
  SmallVector<int64_t> shape(scaleType.getShape());
  shape.push_back(1);
  SmallVector<ReassociationIndices> groups = getBlockGroups(rank);
  return tensor::ExpandShapeOp::create(
             rewriter, op.getLoc(),
             RankedTensorType::get(shape, scaleType.getElementType()),
             scale->get(), groups)
      .getResult();
}

FailureOr<DequantizeOp> mx::raiseDequantize(RewriterBase &rewriter,
                                            linalg::GenericOp op) {
  FailureOr<Value> scales = matchDequantize(rewriter, op);
  if (failed(scales))
    return failure();
  Value data =
      getInputOperand(
          op, getYielded(op).getDefiningOp<arith::ScalingExtFOp>().getIn())
          ->get();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto dequantize =
      DequantizeOp::create(rewriter, op.getLoc(), op->getResult(0).getType(),
                           data, *scales, op.getNumLoops() - 1);
  op->emitRemark() << "raised to mx.dequantize";
  rewriter.replaceOp(op, dequantize.getResult());
  return dequantize;
}

namespace {
/// Records the ops a rewrite erases.
struct ErasedOps : public RewriterBase::Listener {
  DenseSet<Operation *> ops;
  void notifyOperationErased(Operation *op) override { ops.insert(op); }
};

struct RaiseQuantizePass
    : public mx::impl::MXRaiseQuantizeBase<RaiseQuantizePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });
    ErasedOps erased;
    IRRewriter rewriter(&getContext(), &erased);
    for (linalg::GenericOp op : candidates) {
      if (erased.ops.contains(op))
        continue;
      if (failed(raiseQuantize(rewriter, op)))
        (void)raiseDequantize(rewriter, op);
    }
  }
};
} // namespace
