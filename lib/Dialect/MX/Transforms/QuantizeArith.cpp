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
  // f32 arithmetic in which every step is exact (a product with a power of
  // two that stays normal, a rounding to an integer, a difference of a value
  // and its floor) plus integer steps; no f64, which gfx950 executes at a
  // fraction of the f32 rate. With e = max(floor(log2 |q|), emin) the binade
  // of q = x * 2^-s on the element grid, y = |x| * 2^(m - e - s) lies in
  // [0, 2^(m+1)], its rounding to an integer i is the element's grid point
  // i * 2^(e - m), and the code is ((e - emin) << m) + i: the subnormal
  // binade (e = emin) has exponent field 0 and mantissa i, a normal binade
  // the field e - emin + 1 and mantissa i - 2^m, and i = 2^(m+1) carries into
  // the next binade. Codes grow with the magnitude, so saturating to the
  // largest finite value is a min.
  Type f32 = b.getF32Type(), i32Type = b.getI32Type();
  int64_t m = format.manBits, emin = format.minNormalExp;
  auto cmp = [&](arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  };
  auto select = [&](Value c, Value t, Value f) -> Value {
    return arith::SelectOp::create(b, loc, c, t, f);
  };
  auto add = [&](Value lhs, Value rhs) -> Value {
    return arith::AddIOp::create(b, loc, lhs, rhs);
  };
  auto sub = [&](Value lhs, Value rhs) -> Value {
    return arith::SubIOp::create(b, loc, lhs, rhs);
  };
  auto f32Const = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(float(v)));
  };

  // The sign bit, from the f32 bits (-0.0 keeps its sign). Not from the
  // bits of a bf16 x itself: the CPU path's x86 code gets a sign test of a
  // bitcast bf16 wrong (every code of the CPU quantize tests lost its sign).
  if (x.getType() != f32)
    x = arith::ExtFOp::create(b, loc, f32, x);
  Value sign = arith::ShRUIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32Type, x), i32(31));

  // Per block (the scale): s, the NaN block, and a pre-scaling by 2^64 of
  // blocks with s < m - emin - 120 (amax below 2^-87): it keeps every |x|
  // that can round to a non-zero code normal (so that its exponent field
  // gives e) and every power of two below within f32's normal range.
  Value byte = arith::ExtUIOp::create(
      b, loc, i32Type, arith::BitcastOp::create(b, loc, b.getI8Type(), scale));
  Value nanBlock = cmp(arith::CmpIPredicate::eq, byte, i32(255));
  Value small = cmp(arith::CmpIPredicate::slt, byte, i32(127 + m - emin - 120));
  Value s = sub(byte, select(small, i32(127 - 64), i32(127)));
  // Values of a NaN block (NaN, Inf) become 0, so no conversion sees them.
  Value a = select(nanBlock, f32Const(0), math::AbsFOp::create(b, loc, x));
  a = arith::MulFOp::create(
      b, loc, a, select(small, f32Const(std::ldexp(1.0, 64)), f32Const(1)));

  // d = e - emin from the exponent field of a (an a that is subnormal here
  // rounds to 0, whatever d), and y = a * 2^(m - emin - s - d).
  Value field = arith::ShRUIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32Type, a), i32(23));
  Value d = arith::MaxSIOp::create(b, loc, sub(field, add(s, i32(127 + emin))),
                                   i32(0));
  Value amount = sub(sub(i32(m - emin), s), d);
  Value power = arith::BitcastOp::create(
      b, loc, f32,
      arith::ShLIOp::create(b, loc, add(amount, i32(127)), i32(23)));
  Value y = arith::MulFOp::create(b, loc, a, power);

  // y <= 2^(m+1) is rounded to an integer without a library call: to
  // nearest even by adding 2^23 (the sum's ulp is 1; the hardware rounds to
  // nearest even) and reading the integer off the sum's mantissa; ties away
  // as trunc(y) (a conversion), plus 1 where y - trunc(y) (exact) >= 1/2.
  Value integral;
  if (rounding == Rounding::nearest_even) {
    Value sum = arith::AddFOp::create(b, loc, y, f32Const(std::ldexp(1.0, 23)));
    integral = arith::AndIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, i32Type, sum),
        i32((1 << 23) - 1));
  } else {
    Value truncated = arith::FPToUIOp::create(b, loc, i32Type, y);
    Value fraction = arith::SubFOp::create(
        b, loc, y, arith::UIToFPOp::create(b, loc, f32, truncated));
    Value up = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE,
                                     fraction, f32Const(0.5));
    integral = add(truncated, arith::ExtUIOp::create(b, loc, i32Type, up));
  }
  Value code = add(arith::ShLIOp::create(b, loc, d, i32(m)), integral);
  code = arith::MinSIOp::create(b, loc, code, i32(format.maxFiniteCode));
  code = arith::OrIOp::create(
      b, loc, code, arith::ShLIOp::create(b, loc, sign, i32(format.bits - 1)));
  code = select(nanBlock, i32(0), code);
  Value narrow =
      arith::TruncIOp::create(b, loc, b.getIntegerType(format.bits), code);
  return arith::BitcastOp::create(b, loc, elementType, narrow);
}

SmallVector<Value> mlir::mx::packCodes(OpBuilder &b, Location loc,
                                       ArrayRef<Value> codes, int64_t bits) {
  int64_t groupCodes = getGroupCodes(bits);
  if (groupCodes == 1)
    return SmallVector<Value>(codes);
  MXArithBuilder mx(b, loc);
  Type i8 = b.getI8Type();
  Type i32 = b.getI32Type();
  int64_t groupBytes = groupCodes * bits / 8;
  SmallVector<Value> bytes;
  for (size_t start = 0; start < codes.size(); start += groupCodes) {
    Value word = mx.i32(0);
    for (int64_t j = 0; j < groupCodes; ++j)
      word = arith::OrIOp::create(
          b, loc, word,
          arith::ShLIOp::create(
              b, loc, arith::ExtUIOp::create(b, loc, i32, codes[start + j]),
              mx.i32(j * bits)));
    for (int64_t j = 0; j < groupBytes; ++j)
      bytes.push_back(arith::TruncIOp::create(
          b, loc, i8, arith::ShRUIOp::create(b, loc, word, mx.i32(8 * j))));
  }
  return bytes;
}
