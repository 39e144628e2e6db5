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

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/Relayout.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

/// The parameters of an MX element type that the lowering needs, all derived
/// from the type's APFloat semantics.
struct ElementFormat {
  unsigned bits;
  /// Number of explicit mantissa bits.
  int manBits;
  /// Exponent of the smallest normal value (1 - bias).
  int minNormalExp;
  /// Exponent of the largest normal value (the "emax" of OCP MX).
  int maxExp;
  double maxFinite;

  static ElementFormat get(FloatType type) {
    const llvm::fltSemantics &sem = type.getFloatSemantics();
    ElementFormat format;
    format.bits = llvm::APFloat::semanticsSizeInBits(sem);
    format.manBits = llvm::APFloat::semanticsPrecision(sem) - 1;
    format.minNormalExp = llvm::APFloat::semanticsMinExponent(sem);
    format.maxFinite =
        llvm::APFloat::getLargest(sem, /*Negative=*/false).convertToDouble();
    format.maxExp = std::ilogb(format.maxFinite);
    return format;
  }
};

/// Builds the arithmetic of the lowering at one insertion point.
class MXBuilder {
public:
  MXBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value i32(int64_t v) { return constInt(b.getI32Type(), v); }
  Value i64(int64_t v) { return constInt(b.getI64Type(), v); }
  Value f64(double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
  }
  Value constInt(Type type, int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
  }

  /// A `tensor<2^bits x f64>` constant holding the value of every code of
  /// `type` (NaN and infinity codes included).
  static Value buildDecodeTable(OpBuilder &b, Location loc, FloatType type) {
    const llvm::fltSemantics &sem = type.getFloatSemantics();
    unsigned bits = llvm::APFloat::semanticsSizeInBits(sem);
    SmallVector<double> values;
    for (uint64_t code = 0; code < (uint64_t{1} << bits); ++code)
      values.push_back(
          llvm::APFloat(sem, llvm::APInt(bits, code)).convertToDouble());
    auto tableType =
        RankedTensorType::get({int64_t(values.size())}, b.getF64Type());
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tableType, ArrayRef<double>(values)));
  }

  /// The value of an element of an MX type, looked up in its decode table.
  Value decodeElement(Value element, Value table) {
    auto type = cast<FloatType>(element.getType());
    Value bits = arith::BitcastOp::create(
        b, loc, b.getIntegerType(type.getWidth()), element);
    Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), bits);
    return tensor::ExtractOp::create(b, loc, table, index);
  }

  /// `2^e` as an f64 for an i64 `e` within the normal f64 range.
  Value exp2(Value e) {
    Value biased = arith::AddIOp::create(b, loc, e, i64(1023));
    Value bits = arith::ShLIOp::create(b, loc, biased, i64(52));
    return arith::BitcastOp::create(b, loc, b.getF64Type(), bits);
  }

  /// floor(log2(x)) for a positive normal f64 `x`, as i64 (-1023 for 0).
  Value floorLog2(Value x) {
    Value bits = arith::BitcastOp::create(b, loc, b.getI64Type(), x);
    Value shifted = arith::ShRUIOp::create(b, loc, bits, i64(52));
    Value exponent = arith::AndIOp::create(b, loc, shifted, i64(0x7FF));
    return arith::SubIOp::create(b, loc, exponent, i64(1023));
  }

  /// The scale byte as i64 (0..255).
  Value scaleByte(Value scale) {
    Value byte = arith::BitcastOp::create(b, loc, b.getI8Type(), scale);
    return arith::ExtUIOp::create(b, loc, b.getI64Type(), byte);
  }

  /// The value of an E8M0 scale: exactly 2^(s - 127), NaN for 0xFF.
  Value decodeScale(Value scale) {
    Value byte = scaleByte(scale);
    Value value = exp2(arith::SubIOp::create(b, loc, byte, i64(127)));
    Value isNaN =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, byte, i64(255));
    return arith::SelectOp::create(b, loc, isNaN, f64(std::nan("")), value);
  }

  /// The E8M0 scale of a block with largest magnitude `amax` (f32, >= 0 or
  /// NaN), following `rule` for the element `format`.
  Value computeScale(Value amax, ScaleRule rule, const ElementFormat &format) {
    Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), amax);
    auto fields = [&](Value v) -> std::pair<Value, Value> {
      Value e = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, v, i32(23)), i32(0xFF));
      Value m = arith::AndIOp::create(b, loc, v, i32(0x7FFFFF));
      return {e, m};
    };
    auto [exponent, mantissa] = fields(bits);
    Value nonFinite = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            exponent, i32(0xFF));
    auto ne0 = [&](Value v) {
      Value cmp =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, i32(0));
      return arith::ExtUIOp::create(b, loc, b.getI32Type(), cmp);
    };
    Value emax = i32(format.maxExp);
    Value s;
    switch (rule) {
    case ScaleRule::floor:
      // floor(log2(amax)) - emax; subnormal amax and zero end below -127.
      s = arith::SubIOp::create(
          b, loc, arith::SubIOp::create(b, loc, exponent, i32(127)), emax);
      break;
    case ScaleRule::ceil:
      s = arith::SubIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc, arith::SubIOp::create(b, loc, exponent, i32(127)),
              ne0(mantissa)),
          emax);
      break;
    case ScaleRule::even: {
      // Round amax to the element's mantissa width (half an element ulp is
      // added to the f32 bits), then floor(log2(.)) - emax.
      Value half = i32(1 << (22 - format.manBits));
      Value rounded = arith::AndIOp::create(
          b, loc, arith::AddIOp::create(b, loc, bits, half),
          i32(int32_t(0xFF800000u)));
      Value e = fields(rounded).first;
      Value overflow =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, e, i32(255));
      Value regular = arith::SubIOp::create(
          b, loc, arith::SubIOp::create(b, loc, e, i32(127)), emax);
      s = arith::SelectOp::create(b, loc, overflow, i32(128 - format.maxExp),
                                  regular);
      break;
    }
    case ScaleRule::rceil: {
      // ceil(log2(f32(amax / max))); exact for a subnormal quotient too.
      Value q = arith::DivFOp::create(
          b, loc, amax,
          arith::ConstantOp::create(
              b, loc, b.getF32FloatAttr(float(format.maxFinite))));
      auto [qe, qm] =
          fields(arith::BitcastOp::create(b, loc, b.getI32Type(), q));
      Value normal = arith::AddIOp::create(
          b, loc, arith::SubIOp::create(b, loc, qe, i32(127)), ne0(qm));
      Value aboveHalf = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                              qm, i32(1 << 22));
      Value subnormal =
          arith::SelectOp::create(b, loc, aboveHalf, i32(-126), i32(-127));
      Value isSubnormal =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, qe, i32(0));
      s = arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
      break;
    }
    }
    s = arith::MaxSIOp::create(b, loc, s, i32(-127));
    s = arith::MinSIOp::create(b, loc, s, i32(127));
    Value byte = arith::AddIOp::create(b, loc, s, i32(127));
    byte = arith::SelectOp::create(b, loc, nonFinite, i32(255), byte);
    byte = arith::TruncIOp::create(b, loc, b.getI8Type(), byte);
    return arith::BitcastOp::create(b, loc, b.getType<Float8E8M0FNUType>(),
                                    byte);
  }

  /// The code of `x` (f32) quantized with the block scale `scale` to
  /// `elementType`: x * 2^-s exactly in f64, rounded to the element grid by
  /// `rounding`, saturated to the largest finite value; code 0 in a NaN-scale
  /// block; the sign bit is set for x < 0.
  Value quantizeElement(Value x, Value scale, FloatType elementType,
                        const ElementFormat &format, Rounding rounding) {
    Value byte = scaleByte(scale);
    Value nanBlock =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, byte, i64(255));
    Value s = arith::SubIOp::create(b, loc, byte, i64(127));
    Value xd = arith::ExtFOp::create(b, loc, b.getF64Type(), x);
    Value q = arith::MulFOp::create(
        b, loc, xd, exp2(arith::SubIOp::create(b, loc, i64(0), s)));
    Value a = math::AbsFOp::create(b, loc, q);

    // Round |q| to a multiple of the ulp of its binade (subnormals share the
    // ulp of the smallest binade).
    Value e =
        arith::MaxSIOp::create(b, loc, floorLog2(a), i64(format.minNormalExp));
    Value ulpExp = arith::SubIOp::create(b, loc, e, i64(format.manBits));
    Value scaled = arith::MulFOp::create(
        b, loc, a, exp2(arith::SubIOp::create(b, loc, i64(0), ulpExp)));
    Value integral = rounding == Rounding::nearest_even
                         ? Value(math::RoundEvenOp::create(b, loc, scaled))
                         : Value(math::RoundOp::create(b, loc, scaled));
    Value v = arith::MulFOp::create(b, loc, integral, exp2(ulpExp));
    v = arith::MinimumFOp::create(b, loc, v, f64(format.maxFinite));

    // Encode the grid value v >= 0: exponent and mantissa fields.
    Value ev = floorLog2(v);
    Value isSubnormal =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v,
                              f64(std::ldexp(1.0, format.minNormalExp)));
    Value exponentField = arith::SelectOp::create(
        b, loc, isSubnormal, i64(0),
        arith::AddIOp::create(b, loc, ev, i64(1 - format.minNormalExp)));
    Value mantissaExp = arith::SelectOp::create(
        b, loc, isSubnormal, i64(format.minNormalExp - format.manBits),
        arith::SubIOp::create(b, loc, ev, i64(format.manBits)));
    Value mantissa = arith::MulFOp::create(
        b, loc, v, exp2(arith::SubIOp::create(b, loc, i64(0), mantissaExp)));
    mantissa = arith::FPToSIOp::create(b, loc, b.getI64Type(), mantissa);
    Value hidden = arith::SelectOp::create(b, loc, isSubnormal, i64(0),
                                           i64(int64_t(1) << format.manBits));
    mantissa = arith::SubIOp::create(b, loc, mantissa, hidden);
    Value code = arith::OrIOp::create(
        b, loc,
        arith::ShLIOp::create(b, loc, exponentField, i64(format.manBits)),
        mantissa);
    Value negative = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OLT, x,
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
    Value sign = arith::SelectOp::create(
        b, loc, negative, i64(int64_t(1) << (format.bits - 1)), i64(0));
    code = arith::OrIOp::create(b, loc, code, sign);
    code = arith::SelectOp::create(b, loc, nanBlock, i64(0), code);
    Value narrow =
        arith::TruncIOp::create(b, loc, b.getIntegerType(format.bits), code);
    return arith::BitcastOp::create(b, loc, elementType, narrow);
  }

private:
  OpBuilder &b;
  Location loc;
};

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

    Value table = MXBuilder::buildDecodeTable(rewriter, loc, elementType);
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
          MXBuilder mx(b, loc);
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
    Type f32 = rewriter.getF32Type();

    // 1. amax per block: view the input as [.., D/32, 32, ..] and reduce the
    // block dimension with maximumf (NaN propagates).
    SmallVector<OpFoldResult> blockedSizes =
        getBlockedSizes(rewriter, loc, input, axis);
    SmallVector<OpFoldResult> expandedSizes(blockedSizes);
    expandedSizes.insert(expandedSizes.begin() + axis + 1,
                         rewriter.getIndexAttr(kBlockSize));
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
        rewriter, loc, expandedType, input, reassociation, expandedSizes);

    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    Value amaxInit =
        linalg::FillOp::create(rewriter, loc, zero,
                               ValueRange{tensor::EmptyOp::create(
                                   rewriter, loc, blockedSizes, f32)})
            .getResult(0);
    SmallVector<utils::IteratorType> reduceIterators(
        rank + 1, utils::IteratorType::parallel);
    reduceIterators[axis + 1] = utils::IteratorType::reduction;
    SmallVector<AffineExpr> blockExprs;
    for (unsigned d = 0; d <= rank; ++d)
      if (d != axis + 1)
        blockExprs.push_back(rewriter.getAffineDimExpr(d));
    SmallVector<AffineMap> reduceMaps = {
        AffineMap::getMultiDimIdentityMap(rank + 1, ctx),
        AffineMap::get(rank + 1, 0, blockExprs, ctx)};
    Value amax =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{amaxInit.getType()}, ValueRange{expanded},
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
              MXBuilder mx(b, loc);
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
              MXBuilder mx(b, loc);
              Value x = args[0];
              if (x.getType() != b.getF32Type())
                x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
              linalg::YieldOp::create(
                  b, loc,
                  ValueRange{mx.quantizeElement(x, args[1], elementType, format,
                                                rounding)});
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
    Value lhsTable = MXBuilder::buildDecodeTable(rewriter, loc, lhsType);
    Value rhsTable = MXBuilder::buildDecodeTable(rewriter, loc, rhsType);
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
              MXBuilder mx(b, loc);
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
    MLIRContext *ctx = rewriter.getContext();
    TiledLayoutAttrInterface layout = op.getLayout();
    unsigned numBatch = op.getNumBatchDims();
    unsigned rank = numBatch + 2;

    // With `unpack` false only the plain shape is made (a tensor.empty).
    auto toPlain = [&](Value tiled, OperandRole role, bool unpack = true) {
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
          Value dim = tensor::DimOp::create(rewriter, loc, tiled, d);
          dynamicDims.push_back(arith::MulIOp::create(
              rewriter, loc, dim,
              arith::ConstantIndexOp::create(rewriter, loc, tile)));
        } else {
          shape.push_back(outer * tile);
        }
      }
      auto plainType = RankedTensorType::get(shape, type.getElementType());
      if (!unpack)
        return std::make_pair(Value(tensor::EmptyOp::create(
                                  rewriter, loc, plainType, dynamicDims)),
                              info);
      return std::make_pair(unswizzleAndUnpack(rewriter, loc, tiled, info,
                                               plainType, dynamicDims),
                            info);
    };
    Value lhs = toPlain(op.getLhs(), OperandRole::lhs).first;
    Value rhs = toPlain(op.getRhs(), OperandRole::rhs).first;
    Value lhsScales = toPlain(op.getLhsScales(), OperandRole::lhs_scales).first;
    Value rhsScales = toPlain(op.getRhsScales(), OperandRole::rhs_scales).first;
    auto [acc, accInfo] =
        toPlain(op.getAcc(), OperandRole::result, !op.getZeroAcc());
    if (op.getZeroAcc()) {
      // The accumulator starts at +0.0; its values are not read.
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(getElementTypeOrSelf(acc)));
      acc = linalg::FillOp::create(rewriter, loc, zero, acc).getResult(0);
    }

    // (batch.., m, n, k): lhs [.., m, k], rhs [.., n, k], acc [.., m, n].
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
    ArrayAttr maps =
        rewriter.getAffineMapArrayAttr({map(0, 2), map(1, 2), map(0, 1)});
    Value result =
        ScaledContractionOp::create(rewriter, loc, acc.getType(), lhs, rhs,
                                    lhsScales, rhsScales, acc, maps)
            .getResult();
    rewriter.replaceOp(op, packAndSwizzle(rewriter, loc, result, accInfo));
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
  patterns.add<DequantizeLowering, QuantizeLowering, ScaledContractionLowering,
               TiledScaledMMALowering>(patterns.getContext());
}
