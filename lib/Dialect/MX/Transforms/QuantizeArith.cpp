//===- QuantizeArith.cpp - exact MX arithmetic builders -------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/Transforms/QuantizeArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mx;

Value MXArithBuilder::buildDecodeTable(OpBuilder &b, Location loc,
                                       FloatType type) {
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

Value MXArithBuilder::decodeElement(Value element, Value table) {
  auto type = cast<FloatType>(element.getType());
  Value bits = arith::BitcastOp::create(
      b, loc, b.getIntegerType(type.getWidth()), element);
  Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), bits);
  return tensor::ExtractOp::create(b, loc, table, index);
}

Value MXArithBuilder::exp2(Value e) {
  Value biased = arith::AddIOp::create(b, loc, e, i64(1023));
  Value bits = arith::ShLIOp::create(b, loc, biased, i64(52));
  return arith::BitcastOp::create(b, loc, b.getF64Type(), bits);
}

Value MXArithBuilder::floorLog2(Value x) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI64Type(), x);
  Value shifted = arith::ShRUIOp::create(b, loc, bits, i64(52));
  Value exponent = arith::AndIOp::create(b, loc, shifted, i64(0x7FF));
  return arith::SubIOp::create(b, loc, exponent, i64(1023));
}

Value MXArithBuilder::decodeScale(Value scale) {
  Value byte = scaleByte(scale);
  Value value = exp2(arith::SubIOp::create(b, loc, byte, i64(127)));
  Value isNaN =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, byte, i64(255));
  return arith::SelectOp::create(b, loc, isNaN, f64(std::nan("")), value);
}

Value MXArithBuilder::computeScale(Value amax, ScaleRule rule,
                                   const ElementFormat &format) {
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
        arith::AddIOp::create(b, loc,
                              arith::SubIOp::create(b, loc, exponent, i32(127)),
                              ne0(mantissa)),
        emax);
    break;
  case ScaleRule::even: {
    // Round amax to the element's mantissa width (half an element ulp is
    // added to the f32 bits), then floor(log2(.)) - emax.
    Value half = i32(1 << (22 - format.manBits));
    Value rounded =
        arith::AndIOp::create(b, loc, arith::AddIOp::create(b, loc, bits, half),
                              i32(int32_t(0xFF800000u)));
    Value e = fields(rounded).first;
    Value overflow =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, e, i32(255));
    Value regular = arith::SubIOp::create(
        b, loc, arith::SubIOp::create(b, loc, e, i32(127)), emax);
    // Carried to the bits of +Inf: log2 is +Inf (seed 000), 127 after the
    // clamp.
    s = arith::SelectOp::create(b, loc, overflow, i32(127), regular);
    break;
  }
  case ScaleRule::rceil: {
    // ceil(log2(f32(amax / max))); exact for a subnormal quotient too.
    Value q = arith::DivFOp::create(
        b, loc, amax,
        arith::ConstantOp::create(b, loc,
                                  b.getF32FloatAttr(float(format.maxFinite))));
    auto [qe, qm] = fields(arith::BitcastOp::create(b, loc, b.getI32Type(), q));
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
  return arith::BitcastOp::create(b, loc, b.getType<Float8E8M0FNUType>(), byte);
}

Value MXArithBuilder::quantizeElement(Value x, Value scale,
                                      FloatType elementType,
                                      const ElementFormat &format,
                                      Rounding rounding) {
  Value byte = scaleByte(scale);
  Value nanBlock =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, byte, i64(255));
  Value s = arith::SubIOp::create(b, loc, byte, i64(127));
  // A NaN-scale block gets code 0 below; its values (NaN, Inf) are replaced
  // by 0 first so that no conversion sees a NaN (poison in fptosi).
  if (x.getType() != b.getF32Type())
    x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  Value xd =
      arith::SelectOp::create(b, loc, nanBlock, f64(0),
                              arith::ExtFOp::create(b, loc, b.getF64Type(), x));
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
      b, loc, arith::ShLIOp::create(b, loc, exponentField, i64(format.manBits)),
      mantissa);
  // The sign bit of x: -0.0 keeps its sign.
  // The sign bit of q = x * 2^-s (that of x, also for -0.0 and in a NaN
  // block, where q is 0 and the code 0). Not the bits of x itself: LLVM
  // folds a sign-bit test of an extended bf16 into one of the bf16, which
  // its x86 code gets wrong (the CPU path would lose the sign).
  Value negative = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::slt,
      arith::BitcastOp::create(b, loc, b.getI64Type(), q), i64(0));
  Value sign = arith::SelectOp::create(
      b, loc, negative, i64(int64_t(1) << (format.bits - 1)), i64(0));
  code = arith::OrIOp::create(b, loc, code, sign);
  code = arith::SelectOp::create(b, loc, nanBlock, i64(0), code);
  Value narrow =
      arith::TruncIOp::create(b, loc, b.getIntegerType(format.bits), code);
  return arith::BitcastOp::create(b, loc, elementType, narrow);
}
