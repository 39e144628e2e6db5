//===- MXToLinalg.cpp - lower mx ops to linalg ----------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lowers the mx ops to linalg.generic ops with exact MX arithmetic, for the
// host CPU path. Every format fact (bit width, mantissa width, exponent range,
// largest finite value, the value of each code) comes from the builtin float
// type's APFloat semantics; nothing here is a hand-written format table.
//
//===----------------------------------------------------------------------===//

#include "mx/Conversion/MXToLinalg/MXToLinalg.h"
#include "MoEContractions.h"

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/QuantizeArith.h"
#include "mx/Dialect/MX/Transforms/Relayout.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

namespace mlir::mx {
#define GEN_PASS_DEF_CONVERTMXTOLINALG
#include "mx/Conversion/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx;

namespace {

/// Sizes of `value` with dimension `axis` divided by the block size.
static SmallVector<OpFoldResult> getBlockedSizes(OpBuilder &b, Location loc,
                                                 Value value, int64_t axis) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  AffineExpr d0 = b.getAffineDimExpr(0);
  sizes[axis] = affine::makeComposedFoldedAffineApply(
      b, loc, d0.floorDiv(kBlockSize), {sizes[axis]});
  return sizes;
}

/// The identity map of rank `rank` with dimension `axis` divided by 32: how a
/// data-shaped iteration space indexes its scales.
static AffineMap getBlockedMap(MLIRContext *ctx, unsigned rank, int64_t axis) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d = 0; d < rank; ++d) {
    AffineExpr expr = getAffineDimExpr(d, ctx);
    exprs.push_back(d == axis ? expr.floorDiv(kBlockSize) : expr);
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// A linalg.generic into `init` ([rows, columns]) whose row `i` is the
/// source row `sourceRow(i)` says (its clamped index, and whether it is
/// read), or zero bits: the body of the row gathers. Where `rowDefined(i)`
/// (if given, and non-null) is false, `init`'s (undefined) element is
/// kept: the GPU dispatch writes nothing there.
static Value buildRowGather(
    OpBuilder &b, Location loc, Value init, Value source,
    function_ref<std::pair<Value, Value>(OpBuilder &, Location, Value)>
        sourceRow,
    function_ref<Value(OpBuilder &, Location, Value)> rowDefined = nullptr) {
  auto type = cast<RankedTensorType>(init.getType());
  AffineMap identity = b.getMultiDimIdentityMap(2);
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{identity}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value row = linalg::IndexOp::create(nb, nloc, 0);
        Value col = linalg::IndexOp::create(nb, nloc, 1);
        auto [from, inBounds] = sourceRow(nb, nloc, row);
        Value value =
            tensor::ExtractOp::create(nb, nloc, source, ValueRange{from, col});
        Value zero = arith::ConstantOp::create(
            nb, nloc, cast<TypedAttr>(nb.getZeroAttr(type.getElementType())));
        Value result = arith::SelectOp::create(nb, nloc, inBounds, value, zero);
        if (Value defined = rowDefined ? rowDefined(nb, nloc, row) : Value())
          result = arith::SelectOp::create(nb, nloc, defined, result, args[0]);
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

/// mx.gather_rows and mx.gather_row_tiles -> a linalg.generic that reads
/// each result row's source row (the op's buildSourceRow), or yields zero
/// bits.
template <typename GatherOp>
struct RowGatherLowering : public OpRewritePattern<GatherOp> {
  using OpRewritePattern<GatherOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ReifiedRankedShapedTypeDims sizes;
    if (failed(op.reifyResultShapes(rewriter, sizes)))
      return rewriter.notifyMatchFailure(op, "cannot compute the shape");
    Value init = tensor::EmptyOp::create(
        rewriter, loc, sizes[0], op.getResult().getType().getElementType());
    Value sourceRows = tensor::DimOp::create(rewriter, loc, op.getSource(), 0);
    rewriter.replaceOp(
        op, buildRowGather(
                rewriter, loc, init, op.getSource(),
                [&](OpBuilder &b, Location loc, Value row) {
                  return op.buildSourceRow(b, loc, sourceRows, row);
                },
                [&](OpBuilder &b, Location loc, Value row) -> Value {
                  if constexpr (std::is_same_v<GatherOp, GatherRowTilesOp>)
                    return op.buildRowDefined(b, loc, row);
                  return {};
                }));
    return success();
  }
};

/// mx.dequantize -> one elementwise linalg.generic.
struct DequantizeLowering : public OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getResult().getType();
    auto elementType =
        cast<FloatType>(op.getElements().getType().getElementType());
    unsigned rank = resultType.getRank();
    MLIRContext *ctx = rewriter.getContext();

    Value table = MXArithBuilder::buildDecodeTable(rewriter, loc, elementType);
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, op.getElements()),
        resultType.getElementType());
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<AffineMap> maps = {
        identity, getBlockedMap(ctx, rank, op.getAxis()), identity};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType},
        ValueRange{op.getElements(), op.getScales()}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
          MXArithBuilder mx(b, loc);
          Value value =
              arith::MulFOp::create(b, loc, mx.decodeElement(args[0], table),
                                    mx.decodeScale(args[1]));
          // One rounding of the exact product to the result type.
          Value result =
              arith::TruncFOp::create(b, loc, args[2].getType(), value);
          linalg::YieldOp::create(b, loc, result);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// The largest magnitude (f32) of every block of 32 elements of `input`
/// along `axis`, of `blockedSizes`: the input viewed as [.., D/32, 32, ..]
/// with the block dimension reduced by maximumf (NaN propagates).
static Value buildBlockAmax(OpBuilder &builder, Location loc, Value input,
                            int64_t axis, ArrayRef<OpFoldResult> blockedSizes) {
  MLIRContext *ctx = builder.getContext();
  auto inputType = cast<RankedTensorType>(input.getType());
  unsigned rank = inputType.getRank();
  Type f32 = builder.getF32Type();
  SmallVector<OpFoldResult> expandedSizes(blockedSizes);
  expandedSizes.insert(expandedSizes.begin() + axis + 1,
                       builder.getIndexAttr(kBlockSize));
  SmallVector<int64_t> expandedShape;
  SmallVector<Value> dynamicSizes;
  dispatchIndexOpFoldResults(expandedSizes, dynamicSizes, expandedShape);
  SmallVector<ReassociationIndices> reassociation;
  for (unsigned d = 0; d < rank; ++d) {
    if (d < axis)
      reassociation.push_back({int64_t(d)});
    else if (d == axis)
      reassociation.push_back({int64_t(d), int64_t(d) + 1});
    else
      reassociation.push_back({int64_t(d) + 1});
  }
  auto expandedType =
      RankedTensorType::get(expandedShape, inputType.getElementType());
  Value expanded = tensor::ExpandShapeOp::create(
      builder, loc, expandedType, input, reassociation, expandedSizes);

  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(0.0f));
  Value amaxInit =
      linalg::FillOp::create(
          builder, loc, zero,
          ValueRange{tensor::EmptyOp::create(builder, loc, blockedSizes, f32)})
          .getResult(0);
  SmallVector<utils::IteratorType> reduceIterators(
      rank + 1, utils::IteratorType::parallel);
  reduceIterators[axis + 1] = utils::IteratorType::reduction;
  SmallVector<AffineExpr> blockExprs;
  for (unsigned d = 0; d <= rank; ++d)
    if (d != axis + 1)
      blockExprs.push_back(builder.getAffineDimExpr(d));
  SmallVector<AffineMap> reduceMaps = {
      AffineMap::getMultiDimIdentityMap(rank + 1, ctx),
      AffineMap::get(rank + 1, 0, blockExprs, ctx)};
  return linalg::GenericOp::create(
             builder, loc, TypeRange{amaxInit.getType()}, ValueRange{expanded},
             ValueRange{amaxInit}, reduceMaps, reduceIterators,
             [&](OpBuilder &b, Location loc, ValueRange args) {
               Value x = args[0];
               if (x.getType() != b.getF32Type())
                 x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
               Value magnitude = math::AbsFOp::create(b, loc, x);
               linalg::YieldOp::create(b, loc,
                                       ValueRange{arith::MaximumFOp::create(
                                           b, loc, args[1], magnitude)});
             })
      .getResult(0);
}

/// mx.quantize -> block amax (reduction over an expanded view), scales, codes.
struct QuantizeLowering : public OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = op.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    unsigned rank = inputType.getRank();
    int64_t axis = op.getAxis();
    auto elementType =
        cast<FloatType>(op.getElements().getType().getElementType());
    ElementFormat format = ElementFormat::get(elementType);

    // 1. amax per block.
    SmallVector<OpFoldResult> blockedSizes =
        getBlockedSizes(rewriter, loc, input, axis);
    Value amax = buildBlockAmax(rewriter, loc, input, axis, blockedSizes);

    // 2. The scale of every block.
    auto scalesType = op.getScales().getType();
    AffineMap blockedIdentity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    Value scalesInit = tensor::EmptyOp::create(rewriter, loc, blockedSizes,
                                               scalesType.getElementType());
    ScaleRule rule = op.getScale();
    Value scales =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{scalesType}, ValueRange{amax},
            ValueRange{scalesInit},
            SmallVector<AffineMap>{blockedIdentity, blockedIdentity}, parallel,
            [&](OpBuilder &b, Location loc, ValueRange args) {
              MXArithBuilder mx(b, loc);
              linalg::YieldOp::create(
                  b, loc, ValueRange{mx.computeScale(args[0], rule, format)});
            })
            .getResult(0);

    // 3. The element codes.
    auto elementsType = op.getElements().getType();
    Value elementsInit = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, input),
        elementType);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    Rounding rounding = op.getRounding();
    Value elements =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{elementsType}, ValueRange{input, scales},
            ValueRange{elementsInit},
            SmallVector<AffineMap>{identity, getBlockedMap(ctx, rank, axis),
                                   identity},
            parallel,
            [&](OpBuilder &b, Location loc, ValueRange args) {
              MXArithBuilder mx(b, loc);
              linalg::YieldOp::create(
                  b, loc,
                  ValueRange{mx.quantizeElement(args[0], args[1], elementType,
                                                format, rounding)});
            })
            .getResult(0);

    rewriter.replaceOp(op, {elements, scales});
    return success();
  }
};

/// mx.scaled_contraction -> f64 accumulation of exact scaled products, then
/// one rounding to f32.
struct ScaledContractionLowering
    : public OpRewritePattern<ScaledContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScaledContractionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type f64 = rewriter.getF64Type();
    auto accType = cast<RankedTensorType>(op.getAcc().getType());
    unsigned accRank = accType.getRank();
    unsigned k = op.getContractionDims().k;

    auto blockK = [&](AffineMap map) {
      AffineExpr kExpr = rewriter.getAffineDimExpr(k);
      return map.replace(kExpr, kExpr.floorDiv(kBlockSize), map.getNumDims(),
                         0);
    };

    // acc -> f64.
    AffineMap accIdentity = AffineMap::getMultiDimIdentityMap(accRank, ctx);
    SmallVector<utils::IteratorType> accParallel(accRank,
                                                 utils::IteratorType::parallel);
    SmallVector<OpFoldResult> accSizes =
        tensor::getMixedSizes(rewriter, loc, op.getAcc());
    auto wideType = RankedTensorType::get(accType.getShape(), f64);
    Value wideInit =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{wideType}, ValueRange{op.getAcc()},
            ValueRange{tensor::EmptyOp::create(rewriter, loc, accSizes, f64)},
            SmallVector<AffineMap>{accIdentity, accIdentity}, accParallel,
            [&](OpBuilder &b, Location loc, ValueRange args) {
              linalg::YieldOp::create(b, loc,
                                      ValueRange{arith::ExtFOp::create(
                                          b, loc, b.getF64Type(), args[0])});
            })
            .getResult(0);

    auto lhsType = cast<FloatType>(op.getLhs().getType().getElementType());
    auto rhsType = cast<FloatType>(op.getRhs().getType().getElementType());
    Value lhsTable = MXArithBuilder::buildDecodeTable(rewriter, loc, lhsType);
    Value rhsTable = MXArithBuilder::buildDecodeTable(rewriter, loc, rhsType);
    SmallVector<AffineMap> maps = {op.getLhsMap(), op.getRhsMap(),
                                   blockK(op.getLhsMap()),
                                   blockK(op.getRhsMap()), op.getAccMap()};
    SmallVector<utils::IteratorType> iterators = op.getLoopIteratorTypes();
    Value wide =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{wideType},
            ValueRange{op.getLhs(), op.getRhs(), op.getLhsScales(),
                       op.getRhsScales()},
            ValueRange{wideInit}, maps, iterators,
            [&](OpBuilder &b, Location loc, ValueRange args) {
              MXArithBuilder mx(b, loc);
              Value product = arith::MulFOp::create(
                  b, loc, mx.decodeElement(args[0], lhsTable),
                  mx.decodeElement(args[1], rhsTable));
              product = arith::MulFOp::create(b, loc, product,
                                              mx.decodeScale(args[2]));
              product = arith::MulFOp::create(b, loc, product,
                                              mx.decodeScale(args[3]));
              linalg::YieldOp::create(
                  b, loc,
                  ValueRange{arith::AddFOp::create(b, loc, args[4], product)});
            })
            .getResult(0);

    // One rounding to f32.
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{accType}, ValueRange{wide},
            ValueRange{op.getAcc()},
            SmallVector<AffineMap>{accIdentity, accIdentity}, accParallel,
            [&](OpBuilder &b, Location loc, ValueRange args) {
              linalg::YieldOp::create(b, loc,
                                      ValueRange{arith::TruncFOp::create(
                                          b, loc, b.getF32Type(), args[0])});
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The plain [batch.., X, Y] tensor (of the padded size) of the data-tiled
/// operand `tiled` of `role` under `layout`, and its relayout: `tiled`
/// unswizzled and unpacked, or with `unpack` false only a tensor.empty of
/// that shape.
static std::pair<Value, RelayoutInfo> toPlain(OpBuilder &b, Location loc,
                                              Value tiled, OperandRole role,
                                              TiledLayoutAttrInterface layout,
                                              unsigned numBatch,
                                              bool unpack = true) {
  unsigned rank = numBatch + 2;
  auto type = cast<RankedTensorType>(tiled.getType());
  RelayoutInfo info =
      getCanonicalRelayoutInfo(rank, role, type.getElementType(), layout);
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicDims;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t tile = d < numBatch ? 1 : info.innerTiles[d - numBatch];
    int64_t outer = type.getDimSize(d);
    if (ShapedType::isDynamic(outer)) {
      shape.push_back(ShapedType::kDynamic);
      Value dim = tensor::DimOp::create(b, loc, tiled, d);
      dynamicDims.push_back(arith::MulIOp::create(
          b, loc, dim, arith::ConstantIndexOp::create(b, loc, tile)));
    } else {
      shape.push_back(outer * tile);
    }
  }
  auto plainType = RankedTensorType::get(shape, type.getElementType());
  if (!unpack)
    return {tensor::EmptyOp::create(b, loc, plainType, dynamicDims), info};
  return {unswizzleAndUnpack(b, loc, tiled, info, plainType, dynamicDims),
          info};
}

/// The rows of the plain operand `plain` ([batch.., X, Y]) that dimension
/// `d` of the accumulator `acc` (in the user's layout) covers: the padding
/// rows, which only feed values outside acc, are cut off.
static Value sliceToAccRows(OpBuilder &b, Location loc, Value plain, Value acc,
                            unsigned d, unsigned numBatch) {
  unsigned rank = numBatch + 2;
  auto type = cast<RankedTensorType>(plain.getType());
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, plain);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  sizes[numBatch] = tensor::getMixedSize(b, loc, acc, d);
  SmallVector<int64_t> shape(type.getShape());
  shape[numBatch] = cast<RankedTensorType>(acc.getType()).getDimSize(d);
  return tensor::ExtractSliceOp::create(
             b, loc, RankedTensorType::get(shape, type.getElementType()), plain,
             offsets, sizes, strides)
      .getResult();
}

/// The indexing maps of the canonical contraction over (batch.., m, n, k):
/// lhs [.., m, k], rhs [.., n, k], acc [.., m, n].
static ArrayAttr getCanonicalContractionMaps(Builder &b, unsigned numBatch) {
  MLIRContext *ctx = b.getContext();
  unsigned numDims = numBatch + 3;
  SmallVector<AffineExpr> batch;
  for (unsigned d = 0; d < numBatch; ++d)
    batch.push_back(getAffineDimExpr(d, ctx));
  auto map = [&](unsigned x, unsigned y) {
    SmallVector<AffineExpr> exprs(batch);
    exprs.push_back(getAffineDimExpr(numBatch + x, ctx));
    exprs.push_back(getAffineDimExpr(numBatch + y, ctx));
    return AffineMap::get(numDims, 0, exprs, ctx);
  };
  return b.getAffineMapArrayAttr({map(0, 2), map(1, 2), map(0, 1)});
}

/// An f32 tensor.empty of the shape of `acc`, where the sums of a GEMM with
/// an epilogue go.
static Value createSumsTensor(OpBuilder &b, Location loc, Value acc) {
  auto accType = cast<RankedTensorType>(acc.getType());
  SmallVector<Value> dynamicDims;
  for (int64_t d = 0; d < accType.getRank(); ++d)
    if (accType.isDynamicDim(d))
      dynamicDims.push_back(tensor::DimOp::create(b, loc, acc, d));
  return tensor::EmptyOp::create(b, loc, accType.getShape(), b.getF32Type(),
                                 dynamicDims);
}

/// Replaces `op` by its epilogue as a linalg.generic over `sums` into
/// `dest`: the epilogue's block already takes (sum, inputs.., old element).
static void replaceByEpilogue(PatternRewriter &rewriter, TiledScaledMMAOp op,
                              Value sums, Value dest) {
  Location loc = op.getLoc();
  unsigned resultRank = op.getNumBatchDims() + 2;
  AffineMap identity = rewriter.getMultiDimIdentityMap(resultRank);
  SmallVector<AffineMap> maps = {identity};
  for (Attribute map : op.getEpilogueMapsAttr())
    maps.push_back(cast<AffineMapAttr>(map).getValue());
  maps.push_back(identity);
  SmallVector<Value> inputs = {sums};
  llvm::append_range(inputs, op.getEpilogueInputs());
  SmallVector<utils::IteratorType> iterators(resultRank,
                                             utils::IteratorType::parallel);
  auto generic =
      linalg::GenericOp::create(rewriter, loc, TypeRange{dest.getType()},
                                inputs, ValueRange{dest}, maps, iterators);
  rewriter.inlineRegionBefore(op.getEpilogue().front(), generic.getRegion(),
                              generic.getRegion().end());
  auto yield = cast<YieldOp>(generic.getBody()->getTerminator());
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<linalg::YieldOp>(yield, yield.getValues());
  rewriter.replaceOp(op, generic.getResult(0));
}

/// mx.tiled_scaled_mma -> the same computation on plain tensors: every
/// operand is unswizzled and unpacked to its canonical [batch.., X, Y] form
/// (of the padded size), contracted with mx.scaled_contraction, and the
/// result is packed and swizzled again. This is the executable reference of
/// the data-tiled op on the host; it uses the layout's own swizzle, so it
/// checks the materialization's packing, padding and tiling, while the
/// intrinsic-level lane mapping is checked by the swizzle unit tests against
/// the ISA tables (and is to be executed by the planned gfx950 emulator).
struct TiledScaledMMALowering : public OpRewritePattern<TiledScaledMMAOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TiledScaledMMAOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getResults().empty())
      return rewriter.notifyMatchFailure(op, "only the tensor form is lowered");
    Location loc = op.getLoc();
    TiledLayoutAttrInterface layout = op.getLayout();
    unsigned numBatch = op.getNumBatchDims();
    auto plain = [&](Value tiled, OperandRole role) {
      return toPlain(rewriter, loc, tiled, role, layout, numBatch).first;
    };
    Value lhs = plain(op.getLhs(), OperandRole::lhs);
    Value rhs = plain(op.getRhs(), OperandRole::rhs);
    Value lhsScales = plain(op.getLhsScales(), OperandRole::lhs_scales);
    Value rhsScales = plain(op.getRhsScales(), OperandRole::rhs_scales);
    bool userLayout = op.hasUserLayoutAcc();
    Value acc;
    RelayoutInfo accInfo;
    if (userLayout) {
      // The accumulator is M x N as it is: the operands' padding rows and
      // columns are cut off.
      acc = op.getAcc();
      auto rows = [&](Value value, unsigned d) {
        return sliceToAccRows(rewriter, loc, value, acc, d, numBatch);
      };
      lhs = rows(lhs, numBatch);
      lhsScales = rows(lhsScales, numBatch);
      rhs = rows(rhs, numBatch + 1);
      rhsScales = rows(rhsScales, numBatch + 1);
    } else {
      std::tie(acc, accInfo) = toPlain(rewriter, loc, op.getAcc(),
                                       OperandRole::result, layout, numBatch,
                                       /*unpack=*/!op.getZeroAcc());
    }
    // With an epilogue, the sums go to an f32 tensor; the epilogue then
    // writes acc.
    Value epilogueDest;
    if (op.hasEpilogue()) {
      epilogueDest = acc;
      acc = createSumsTensor(rewriter, loc, acc);
    }
    if (op.getZeroAcc()) {
      // The accumulator starts at +0.0; its values are not read.
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(getElementTypeOrSelf(acc)));
      acc = linalg::FillOp::create(rewriter, loc, zero, acc).getResult(0);
    }

    Value result =
        ScaledContractionOp::create(
            rewriter, loc, acc.getType(), lhs, rhs, lhsScales, rhsScales, acc,
            getCanonicalContractionMaps(rewriter, numBatch))
            .getResult();
    if (epilogueDest) {
      replaceByEpilogue(rewriter, op, result, epilogueDest);
      return success();
    }
    rewriter.replaceOp(
        op,
        userLayout ? result : packAndSwizzle(rewriter, loc, result, accInfo));
    return success();
  }
};

struct ConvertMXToLinalgPass
    : public mx::impl::ConvertMXToLinalgBase<ConvertMXToLinalgPass> {
  void runOnOperation() override {
    // The host lowering of mx.tiled_scaled_mma unpacks the tiles into an
    // mx.scaled_contraction, which needs the MX element types; the bytes of
    // mx-pack-to-bytes (i8 operands) only a target's ukernel lowering reads.
    WalkResult packed = getOperation()->walk([](TiledScaledMMAOp op) {
      if (op.isGrouped()) {
        op.emitOpError() << "with tile_groups (a grouped GEMM) has no host "
                            "lowering: run mx.grouped_scaled_contraction "
                            "itself on the CPU path (mx-cpu-pipeline)";
        return WalkResult::interrupt();
      }
      for (auto [name, operand] :
           {std::make_pair("lhs", op.getLhs()),
            std::make_pair("rhs", op.getRhs()),
            std::make_pair("lhs_scales", op.getLhsScales()),
            std::make_pair("rhs_scales", op.getRhsScales())}) {
        Type elementType = getElementTypeOrSelf(operand.getType());
        if (isa<FloatType>(elementType))
          continue;
        op.emitOpError() << name << " holds " << elementType
                         << " (packed bytes): the host lowering needs the "
                            "layout's MX element types (run it before "
                            "mx-pack-to-bytes)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (packed.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateMXToLinalgPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mx::populateMXToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<DequantizeLowering, RowGatherLowering<GatherRowsOp>,
               RowGatherLowering<GatherRowTilesOp>, QuantizeLowering,
               ScaledContractionLowering, TiledScaledMMALowering>(
      patterns.getContext());
  detail::populateMoEContractionLoweringPatterns(patterns);
  detail::populateQuantizeIntoLoweringPatterns(patterns);
}
