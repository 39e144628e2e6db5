//===- RaiseScaledMatmul.cpp - mx-raise-scaled-matmul ---------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Raises the upstream form of an MX matmul, a linalg.generic whose body is
// `acc + scaling_extf(a, sa) * scaling_extf(b, sb)`, to mx.scaled_contraction.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/Passes.h"
#include "mx/Dialect/MX/Transforms/Transforms.h"

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXRAISESCALEDMATMUL
#include "mx/Dialect/MX/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {
/// One data operand of a matched scaled matmul and its scales, as input
/// indices of the linalg.generic.
struct MatchedOperand {
  unsigned data;
  unsigned scales;
};

/// What a matched linalg.generic becomes.
struct RaisePlan {
  /// lhs then rhs.
  MatchedOperand operands[2];
  /// Expanded-K form: the iteration dimension of the 32 elements of a block,
  /// and its result position in each data map (the block index is the result
  /// before it). Unset in the flat-K form.
  std::optional<unsigned> blockDim;
  unsigned blockPos[2] = {0, 0};
  /// The lhs, rhs and acc maps of the mx.scaled_contraction.
  SmallVector<AffineMap> maps;
  /// What matchScaledMatmul reports.
  ScaledMatmulMatch match;
};
} // namespace

/// Fails; with \p remarks, emits the remark of an op that uses
/// arith.scaling_extf but is not raised.
static LogicalResult reject(linalg::GenericOp op, bool remarks,
                            const Twine &why) {
  if (remarks)
    op->emitRemark() << "not raised to mx.scaled_contraction: " << why;
  return failure();
}

/// Returns the input index of \p value if it is an input block argument of
/// \p op's body.
static std::optional<unsigned> getInputIndex(linalg::GenericOp op,
                                             Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != op.getBlock() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return std::nullopt;
  return arg.getArgNumber();
}

/// Matches the body `yield(out + scaling_extf(a, sa) * scaling_extf(b, sb))`
/// (either operand order of addf and mulf) over four distinct inputs and
/// fills the two (data, scales) pairs of \p plan in the order of the data
/// inputs, and its product.
static LogicalResult matchBody(linalg::GenericOp op, bool remarks,
                               RaisePlan &plan) {
  auto fail = [&]() {
    return reject(op, remarks,
                  "the body is not `out + scaling_extf(a, sa) * "
                  "scaling_extf(b, sb)` in f32 over the four inputs");
  };
  Block *body = op.getBlock();
  if (body->getOperations().size() != 5)
    return fail();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add || !add.getType().isF32())
    return fail();
  Value out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Value product;
  if (add.getLhs() == out)
    product = add.getRhs();
  else if (add.getRhs() == out)
    product = add.getLhs();
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return fail();
  SmallVector<MatchedOperand, 2> operands;
  for (Value factor : {mul.getLhs(), mul.getRhs()}) {
    auto ext = factor.getDefiningOp<arith::ScalingExtFOp>();
    if (!ext || !ext.getType().isF32())
      return fail();
    std::optional<unsigned> data = getInputIndex(op, ext.getIn());
    std::optional<unsigned> scales = getInputIndex(op, ext.getScale());
    if (!data || !scales)
      return fail();
    operands.push_back({*data, *scales});
  }
  llvm::SmallBitVector seen(4);
  for (MatchedOperand operand : operands) {
    if (seen.test(operand.data) || seen.test(operand.scales))
      return fail();
    seen.set(operand.data);
    seen.set(operand.scales);
  }
  if (operands[1].data < operands[0].data)
    std::swap(operands[0], operands[1]);
  llvm::copy(operands, plan.operands);
  plan.match.product = mul.getResult();
  return success();
}

/// Checks the element types of the matched operands and the init.
static LogicalResult checkTypes(linalg::GenericOp op, bool remarks,
                                ArrayRef<MatchedOperand> operands) {
  for (auto [i, operand] : llvm::enumerate(operands)) {
    Type data = getElementTypeOrSelf(op.getDpsInputs()[operand.data]);
    Type scales = getElementTypeOrSelf(op.getDpsInputs()[operand.scales]);
    if (!isMXElementType(data))
      return reject(op, remarks,
                    Twine("input ") + Twine(operand.data) +
                        " is not of an MX element type (f4E2M1FN, "
                        "f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2)");
    if (!isa<Float8E8M0FNUType>(scales))
      return reject(op, remarks,
                    Twine("the scales (input ") + Twine(operand.scales) +
                        ") are not f8E8M0FNU");
  }
  if (!getElementTypeOrSelf(op.getDpsInits()[0]).isF32())
    return reject(op, remarks, "the init is not f32");
  return success();
}

/// Returns whether \p expr is `d<dim> floordiv 32`.
static bool isBlockIndexOf(AffineExpr expr, unsigned dim) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || binary.getKind() != AffineExprKind::FloorDiv)
    return false;
  auto lhs = dyn_cast<AffineDimExpr>(binary.getLHS());
  auto rhs = dyn_cast<AffineConstantExpr>(binary.getRHS());
  return lhs && rhs && lhs.getPosition() == dim && rhs.getValue() == kBlockSize;
}

/// Checks that the init map \p accMap of \p op uses exactly its parallel
/// dimensions.
static LogicalResult checkAccMap(linalg::GenericOp op, bool remarks,
                                 AffineMap accMap) {
  unsigned numDims = op.getNumLoops();
  llvm::SmallBitVector accDims(numDims);
  if (!accMap.isProjectedPermutation(/*allowZeroInResults=*/false))
    return reject(op, remarks, "the init map is not a projected permutation");
  for (AffineExpr expr : accMap.getResults())
    accDims.set(cast<AffineDimExpr>(expr).getPosition());
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < numDims; ++d)
    if (accDims.test(d) != (iterators[d] == utils::IteratorType::parallel))
      return reject(op, remarks,
                    "the init map must use exactly the parallel "
                    "dimensions");
  return success();
}

/// The data and scale maps of the two matched operands of a generic.
struct OperandMaps {
  AffineMap data[2];
  AffineMap scales[2];
};

/// Expanded K (reduction dimensions \p reductions: the K blocks and the 32
/// elements of a block): fills \p plan's block dimension, block positions
/// and maps.
static LogicalResult matchExpandedKMaps(linalg::GenericOp op, bool remarks,
                                        ArrayRef<unsigned> reductions,
                                        const OperandMaps &maps,
                                        AffineMap accMap, RaisePlan &plan) {
  // The scale maps decide which reduction dimension is the element within a
  // block (the one they do not use).
  unsigned blockDim = reductions[1], blockIndexDim = reductions[0];
  if (!maps.scales[0].isFunctionOfDim(blockIndexDim))
    std::swap(blockDim, blockIndexDim);
  AffineExpr blockExpr = getAffineDimExpr(blockDim, op.getContext());
  AffineExpr blockIndexExpr = getAffineDimExpr(blockIndexDim, op.getContext());
  for (unsigned i = 0; i < 2; ++i) {
    unsigned data = plan.operands[i].data;
    std::optional<unsigned> pos = maps.data[i].getResultPosition(blockExpr);
    std::optional<unsigned> indexPos =
        maps.data[i].getResultPosition(blockIndexExpr);
    if (!pos || !indexPos || *pos != *indexPos + 1)
      return reject(op, remarks,
                    Twine("in the map of input ") + Twine(data) +
                        ", the element-in-block dimension d" + Twine(blockDim) +
                        " must directly follow the block dimension d" +
                        Twine(blockIndexDim));
    if (maps.scales[i] != maps.data[i].dropResult(*pos))
      return reject(op, remarks,
                    Twine("the map of the scales (input ") +
                        Twine(plan.operands[i].scales) +
                        ") must be the map of input " + Twine(data) +
                        " without the element-in-block dimension d" +
                        Twine(blockDim));
    int64_t size =
        cast<ShapedType>(op.getDpsInputs()[data].getType()).getDimSize(*pos);
    if (size != kBlockSize) {
      std::string sizeText =
          ShapedType::isDynamic(size) ? "?" : std::to_string(size);
      return reject(op, remarks,
                    Twine("the element-in-block dimension of input ") +
                        Twine(data) + " has size " + sizeText + ", expected " +
                        Twine(kBlockSize));
    }
    plan.blockPos[i] = *pos;
  }
  plan.blockDim = blockDim;
  llvm::SmallBitVector dropped(op.getNumLoops());
  dropped.set(blockDim);
  for (unsigned i = 0; i < 2; ++i)
    plan.maps.push_back(
        compressDims(maps.data[i].dropResult(plan.blockPos[i]), dropped));
  plan.maps.push_back(compressDims(accMap, dropped));
  return success();
}

/// Flat K (the one reduction dimension \p k): the scale map is the data map
/// with k replaced by k floordiv 32. Fills \p plan's maps.
static LogicalResult matchFlatKMaps(linalg::GenericOp op, bool remarks,
                                    unsigned k, const OperandMaps &maps,
                                    AffineMap accMap, RaisePlan &plan) {
  AffineExpr kExpr = getAffineDimExpr(k, op.getContext());
  for (unsigned i = 0; i < 2; ++i) {
    std::optional<unsigned> pos = maps.data[i].getResultPosition(kExpr);
    AffineMap expected;
    if (pos && *pos < maps.scales[i].getNumResults() &&
        isBlockIndexOf(maps.scales[i].getResult(*pos), k))
      expected = maps.scales[i].replace(maps.scales[i].getResult(*pos), kExpr,
                                        op.getNumLoops(), /*numSymbols=*/0);
    if (!pos || expected != maps.data[i])
      return reject(op, remarks,
                    Twine("the map of the scales (input ") +
                        Twine(plan.operands[i].scales) +
                        ") must be the map of input " +
                        Twine(plan.operands[i].data) + " with d" + Twine(k) +
                        " replaced by d" + Twine(k) + " floordiv 32");
    auto dataType =
        cast<ShapedType>(op.getDpsInputs()[plan.operands[i].data].getType());
    auto scaleType =
        cast<ShapedType>(op.getDpsInputs()[plan.operands[i].scales].getType());
    int64_t size = dataType.getDimSize(*pos);
    int64_t blocks = scaleType.getDimSize(*pos);
    if (ShapedType::isStatic(size) && size % kBlockSize != 0)
      return reject(op, remarks,
                    Twine("K = ") + Twine(size) + " is not a multiple of " +
                        Twine(kBlockSize));
    if (ShapedType::isStatic(size) && ShapedType::isStatic(blocks) &&
        blocks != size / kBlockSize)
      return reject(op, remarks,
                    Twine("the scales (input ") +
                        Twine(plan.operands[i].scales) + ") have " +
                        Twine(blocks) + " blocks along K, expected " +
                        Twine(size / kBlockSize));
  }
  plan.maps = {maps.data[0], maps.data[1], accMap};
  return success();
}

/// Matches the indexing maps and fills \p plan's block dimension and maps.
static LogicalResult matchMaps(linalg::GenericOp op, bool remarks,
                               RaisePlan &plan) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);

  AffineMap accMap = maps[op.getNumDpsInputs()];
  if (failed(checkAccMap(op, remarks, accMap)))
    return failure();

  OperandMaps operandMaps;
  for (unsigned i = 0; i < 2; ++i) {
    operandMaps.data[i] = maps[plan.operands[i].data];
    operandMaps.scales[i] = maps[plan.operands[i].scales];
    if (!operandMaps.data[i].isProjectedPermutation(
            /*allowZeroInResults=*/false))
      return reject(op, remarks,
                    Twine("the map of input ") + Twine(plan.operands[i].data) +
                        " is not a projected permutation");
  }

  LogicalResult matched = failure();
  if (reductions.size() == 2)
    matched =
        matchExpandedKMaps(op, remarks, reductions, operandMaps, accMap, plan);
  else if (reductions.size() == 1)
    matched =
        matchFlatKMaps(op, remarks, reductions[0], operandMaps, accMap, plan);
  else
    return reject(op, remarks,
                  Twine("expected one reduction dimension (K) or two (K "
                        "blocks and the 32 elements of a block), got ") +
                      Twine(reductions.size()));
  if (failed(matched))
    return failure();

  if (failed(inferScaledContractionDims(nullptr, plan.maps)))
    return reject(op, remarks,
                  "every parallel dimension must be used by the init and "
                  "one or both data operands (batch, M or N), and the "
                  "reduction by both data operands");
  return success();
}

/// Matches \p op; emits a remark and fails when it uses arith.scaling_extf
/// but is not a scaled matmul of a supported form.
static FailureOr<RaisePlan> match(linalg::GenericOp op, bool remarks) {
  if (!op.hasPureTensorSemantics())
    return reject(op, remarks, "only linalg.generic on tensors is raised");
  if (op.getNumDpsInputs() != 4 || op.getNumDpsInits() != 1)
    return reject(op, remarks,
                  "expected four inputs (two data operands and their "
                  "scales) and one init");
  if (llvm::any_of(op->getOperandTypes(), [](Type type) {
        return cast<RankedTensorType>(type).getEncoding() != nullptr;
      }))
    return reject(op, remarks,
                  "operands with a tensor encoding are not raised");
  RaisePlan plan;
  if (failed(matchBody(op, remarks, plan)))
    return failure();
  if (failed(checkTypes(op, remarks, plan.operands)) ||
      failed(matchMaps(op, remarks, plan)))
    return failure();
  return plan;
}

/// Replaces \p op by the mx.scaled_contraction that \p plan describes.
static ScaledContractionOp raise(RewriterBase &rewriter, linalg::GenericOp op,
                                 const RaisePlan &plan) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  SmallVector<Value> data, scales;
  for (unsigned i = 0; i < 2; ++i) {
    Value value = op.getDpsInputs()[plan.operands[i].data];
    if (plan.blockDim) {
      // Merge the block index and the element in the block into K.
      unsigned rank = cast<ShapedType>(value.getType()).getRank();
      SmallVector<ReassociationIndices> groups;
      for (unsigned d = 0; d < rank; ++d) {
        if (d == plan.blockPos[i])
          continue;
        if (d + 1 == plan.blockPos[i])
          groups.push_back({static_cast<int64_t>(d), d + 1});
        else
          groups.push_back({static_cast<int64_t>(d)});
      }
      value = tensor::CollapseShapeOp::create(rewriter, loc, value, groups);
    }
    data.push_back(value);
    scales.push_back(op.getDpsInputs()[plan.operands[i].scales]);
  }
  Value acc = op.getDpsInits()[0];
  auto contraction = ScaledContractionOp::create(
      rewriter, loc, acc.getType(), data[0], data[1], scales[0], scales[1], acc,
      rewriter.getAffineMapArrayAttr(plan.maps));
  op->emitRemark() << "raised to mx.scaled_contraction ("
                   << (plan.blockDim ? "K expanded in blocks" : "flat K")
                   << ")";
  rewriter.replaceOp(op, contraction.getResult());
  return contraction;
}

/// Returns whether \p op looks like a scaled matmul candidate: its body
/// uses arith.scaling_extf.
static bool usesScalingExtF(linalg::GenericOp op) {
  return llvm::any_of(op.getBlock()->getOperations(), [](Operation &inner) {
    return isa<arith::ScalingExtFOp>(inner);
  });
}

FailureOr<ScaledMatmulMatch> mx::matchScaledMatmul(linalg::GenericOp op) {
  if (!usesScalingExtF(op))
    return failure();
  FailureOr<RaisePlan> plan = match(op, /*remarks=*/false);
  if (failed(plan))
    return failure();
  return plan->match;
}

FailureOr<ScaledContractionOp> mx::raiseScaledMatmul(RewriterBase &rewriter,
                                                     linalg::GenericOp op) {
  if (!usesScalingExtF(op))
    return failure();
  FailureOr<RaisePlan> plan = match(op, /*remarks=*/true);
  if (failed(plan))
    return failure();
  return raise(rewriter, op, *plan);
}

namespace {
struct RaiseScaledMatmulPass
    : public mx::impl::MXRaiseScaledMatmulBase<RaiseScaledMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates)
      (void)raiseScaledMatmul(rewriter, op);
  }
};
} // namespace
