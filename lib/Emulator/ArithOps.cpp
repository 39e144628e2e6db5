//===- ArithOps.cpp - arith, math and affine ops of the wave emulator -----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Elementwise integer and floating-point ops (arith, math: exact IEEE
// arithmetic in the result type with APFloat, see WaveEmulator.h), casts,
// comparisons (arith::applyCmpPredicate) and affine index arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

void Interpreter::registerArithHandlers(HandlerTable &table) {
  registerIntegerHandlers(table);
  registerIntegerLogicHandlers(table);
  registerFloatHandlers(table);
  registerMathHandlers(table);
  registerAffineHandlers(table);
}

void Interpreter::registerIntegerHandlers(HandlerTable &table) {
  // arith: constants, integer arithmetic (add, sub, mul, division and
  // remainder).
  table.add<arith::ConstantOp>([](Interpreter &self, arith::ConstantOp op) {
    return self.execConstant(op);
  });
  table.add<arith::AddIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(
        op, [](uint64_t a, uint64_t b, unsigned) { return ElemResult{a + b}; });
  });
  table.add<arith::SubIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(
        op, [](uint64_t a, uint64_t b, unsigned) { return ElemResult{a - b}; });
  });
  table.add<arith::MulIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(
        op, [](uint64_t a, uint64_t b, unsigned) { return ElemResult{a * b}; });
  });
  table.add<arith::DivUIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
      if (b == 0)
        return ElemResult{0, "division by zero"};
      return ElemResult{a / b};
    });
  });
  table.add<arith::RemUIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
      if (b == 0)
        return ElemResult{0, "remainder by zero"};
      return ElemResult{a % b};
    });
  });
  table.add<arith::CeilDivUIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(op, [](uint64_t a, uint64_t b, unsigned) {
      if (b == 0)
        return ElemResult{0, "division by zero"};
      return ElemResult{a / b + (a % b != 0)};
    });
  });
  table.add<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp>([](Interpreter &self, Operation *op) {
    bool isRem = isa<arith::RemSIOp>(op);
    bool isFloor = isa<arith::FloorDivSIOp>(op);
    bool isCeil = isa<arith::CeilDivSIOp>(op);
    return self.intBinary(op, [&](uint64_t ua, uint64_t ub, unsigned w) {
      int64_t a = signExtend(ua, w), b = signExtend(ub, w);
      if (b == 0)
        return ElemResult{0, "division by zero"};
      int64_t minValue = signExtend(uint64_t(1) << (w - 1), w);
      if (a == minValue && b == -1)
        return ElemResult{0, "signed division overflow"};
      if (isRem)
        return ElemResult{uint64_t(a % b)};
      if (isFloor)
        return ElemResult{uint64_t(llvm::divideFloorSigned(a, b))};
      if (isCeil)
        return ElemResult{uint64_t(llvm::divideCeilSigned(a, b))};
      return ElemResult{uint64_t(a / b)};
    });
  });
}

void Interpreter::registerIntegerLogicHandlers(HandlerTable &table) {
  // arith: bitwise logic, shifts, min/max, comparisons, select, casts.
  table.add<arith::AndIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(
        op, [](uint64_t a, uint64_t b, unsigned) { return ElemResult{a & b}; });
  });
  table.add<arith::OrIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(
        op, [](uint64_t a, uint64_t b, unsigned) { return ElemResult{a | b}; });
  });
  table.add<arith::XOrIOp>([](Interpreter &self, Operation *op) {
    return self.intBinary(
        op, [](uint64_t a, uint64_t b, unsigned) { return ElemResult{a ^ b}; });
  });
  table.add<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(
      [](Interpreter &self, Operation *op) {
        bool left = isa<arith::ShLIOp>(op);
        bool arithmetic = isa<arith::ShRSIOp>(op);
        return self.intBinary(op, [&](uint64_t a, uint64_t b, unsigned w) {
          if (b >= w)
            return ElemResult{0, "shift amount >= bit width (poison)"};
          if (left)
            return ElemResult{a << b};
          if (arithmetic)
            return ElemResult{uint64_t(signExtend(a, w) >> b)};
          return ElemResult{a >> b};
        });
      });
  table.add<arith::MaxSIOp, arith::MinSIOp>(
      [](Interpreter &self, Operation *op) {
        bool isMax = isa<arith::MaxSIOp>(op);
        return self.intBinary(op, [&](uint64_t a, uint64_t b, unsigned w) {
          bool less = signExtend(a, w) < signExtend(b, w);
          return ElemResult{(less == isMax) ? b : a};
        });
      });
  table.add<arith::MaxUIOp, arith::MinUIOp>(
      [](Interpreter &self, Operation *op) {
        bool isMax = isa<arith::MaxUIOp>(op);
        return self.intBinary(op, [&](uint64_t a, uint64_t b, unsigned) {
          return ElemResult{((a < b) == isMax) ? b : a};
        });
      });
  table.add<arith::CmpIOp>(
      [](Interpreter &self, arith::CmpIOp op) { return self.execCmpI(op); });
  table.add<arith::SelectOp>([](Interpreter &self, Operation *op) {
    return self.elementwise(op, [](ArrayRef<uint64_t> in) {
      return ElemResult{(in[0] & 1) ? in[1] : in[2]};
    });
  });
  table.add<arith::IndexCastOp, arith::ExtSIOp>(
      [](Interpreter &self, Operation *op) {
        return self.execCast(op, /*isSigned=*/true);
      });
  table.add<arith::IndexCastUIOp, arith::ExtUIOp, arith::TruncIOp>(
      [](Interpreter &self, Operation *op) {
        return self.execCast(op, /*isSigned=*/false);
      });
  table.add<arith::BitcastOp>(
      [](Interpreter &self, Operation *op) { return self.execBitcast(op); });
}

void Interpreter::registerFloatHandlers(HandlerTable &table) {
  using APFloat = llvm::APFloat;
  constexpr auto rne = APFloat::rmNearestTiesToEven;
  // arith: floating point (APFloat, round to nearest even).
  table.add<arith::AddFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a.add(b, rne); });
  });
  table.add<arith::SubFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a.subtract(b, rne); });
  });
  table.add<arith::MulFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a.multiply(b, rne); });
  });
  table.add<arith::DivFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a.divide(b, rne); });
  });
  table.add<arith::NegFOp>([](Interpreter &self, Operation *op) {
    unsigned bits = getScalarBits(getElementTypeOrSelf(op->getResult(0)));
    return self.elementwise(op, [bits](ArrayRef<uint64_t> in) {
      return ElemResult{in[0] ^ (uint64_t(1) << (bits - 1))};
    });
  });
  table.add<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(
      [](Interpreter &self, Operation *op) { return self.execFloatCast(op); });
  table.add<arith::FPToSIOp>([](Interpreter &self, Operation *op) {
    return self.execFloatToInt(op, /*isSigned=*/true);
  });
  table.add<arith::FPToUIOp>([](Interpreter &self, Operation *op) {
    return self.execFloatToInt(op, /*isSigned=*/false);
  });
  table.add<arith::CmpFOp>(
      [](Interpreter &self, arith::CmpFOp op) { return self.execCmpF(op); });
  table.add<arith::MaximumFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a = llvm::maximum(a, b); });
  });
  table.add<arith::MinimumFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a = llvm::minimum(a, b); });
  });
  table.add<arith::MaxNumFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a = llvm::maxnum(a, b); });
  });
  table.add<arith::MinNumFOp>([](Interpreter &self, Operation *op) {
    return self.floatBinary(
        op, [](APFloat &a, const APFloat &b) { a = llvm::minnum(a, b); });
  });
}

void Interpreter::registerMathHandlers(HandlerTable &table) {
  using APFloat = llvm::APFloat;
  constexpr auto rne = APFloat::rmNearestTiesToEven;
  // math: floating point, per element in the result type.
  table.add<math::AbsFOp>([](Interpreter &self, Operation *op) {
    return self.floatNary(op, [](ArrayRef<APFloat> in) {
      APFloat r = in[0];
      r.clearSign();
      return r;
    });
  });
  table.add<math::CopySignOp>([](Interpreter &self, Operation *op) {
    return self.floatNary(op, [](ArrayRef<APFloat> in) {
      APFloat r = in[0];
      r.copySign(in[1]);
      return r;
    });
  });
  table.add<math::FmaOp>([](Interpreter &self, Operation *op) {
    return self.floatNary(op, [](ArrayRef<APFloat> in) {
      APFloat r = in[0];
      r.fusedMultiplyAdd(in[1], in[2], rne);
      return r;
    });
  });
  table.add<math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
            math::TruncOp>([](Interpreter &self, Operation *op) {
    APFloat::roundingMode mode =
        isa<math::FloorOp>(op)       ? APFloat::rmTowardNegative
        : isa<math::CeilOp>(op)      ? APFloat::rmTowardPositive
        : isa<math::RoundOp>(op)     ? APFloat::rmNearestTiesToAway
        : isa<math::RoundEvenOp>(op) ? APFloat::rmNearestTiesToEven
                                     : APFloat::rmTowardZero;
    return self.floatNary(op, [mode](ArrayRef<APFloat> in) {
      APFloat r = in[0];
      r.roundToIntegral(mode);
      return r;
    });
  });
  table.add<math::SqrtOp>([](Interpreter &self, Operation *op) {
    return self.floatViaDouble(op, [](double x) { return std::sqrt(x); });
  });
  table.add<math::Exp2Op>([](Interpreter &self, Operation *op) {
    return self.floatViaDouble(op, [](double x) { return std::exp2(x); });
  });
  table.add<math::Log2Op>([](Interpreter &self, Operation *op) {
    return self.floatViaDouble(op, [](double x) { return std::log2(x); });
  });
  // The transcendentals of fused activations (SiLU, GELU): the gfx950
  // kernels compute them differently (llvm.exp.f32 through v_exp_f32, tanh
  // expanded through exp before ROCDL), see WaveEmulator.h for the accuracy.
  table.add<math::ExpOp>([](Interpreter &self, Operation *op) {
    return self.floatViaDouble(op, [](double x) { return std::exp(x); });
  });
  table.add<math::LogOp>([](Interpreter &self, Operation *op) {
    return self.floatViaDouble(op, [](double x) { return std::log(x); });
  });
  table.add<math::TanhOp>([](Interpreter &self, Operation *op) {
    return self.floatViaDouble(op, [](double x) { return std::tanh(x); });
  });
}

void Interpreter::registerAffineHandlers(HandlerTable &table) {
  table.add<affine::AffineApplyOp>(
      [](Interpreter &self, affine::AffineApplyOp op) {
        return self.execAffine(op, op.getAffineMap(), op.getMapOperands(), 0);
      });
  table.add<affine::AffineMinOp>([](Interpreter &self, affine::AffineMinOp op) {
    return self.execAffine(op, op.getMap(), op.getMapOperands(), -1);
  });
  table.add<affine::AffineMaxOp>([](Interpreter &self, affine::AffineMaxOp op) {
    return self.execAffine(op, op.getMap(), op.getMapOperands(), 1);
  });
  table.add<affine::AffineDelinearizeIndexOp>(
      [](Interpreter &self, affine::AffineDelinearizeIndexOp op) {
        return self.execDelinearize(op);
      });
  table.add<affine::AffineLinearizeIndexOp>(
      [](Interpreter &self, affine::AffineLinearizeIndexOp op) {
        return self.execLinearize(op);
      });
}

//===----------------------------------------------------------------------===//
// Elementwise operations
//===----------------------------------------------------------------------===//

LogicalResult
Interpreter::elementwise(Operation *op,
                         function_ref<ElemResult(ArrayRef<uint64_t>)> fn) {
  Type resultType = op->getResult(0).getType();
  std::optional<TypeInfo> info = getTypeInfo(resultType);
  if (!info)
    return unsupportedType(op, resultType);
  SmallVector<const Reg *, 3> in;
  SmallVector<unsigned, 3> widths;
  SmallVector<bool, 3> isVector;
  bool uniform = true;
  for (Value operand : op->getOperands()) {
    std::optional<TypeInfo> operandInfo = getTypeInfo(operand.getType());
    if (!operandInfo)
      return unsupportedType(op, operand.getType());
    const Reg *reg = getReg(op, operand);
    if (!reg)
      return failure();
    in.push_back(reg);
    widths.push_back(operandInfo->elemBits);
    isVector.push_back(operandInfo->isVector);
    uniform &= reg->uniform;
  }
  Reg out(info->bytes, uniform, numThreads);
  SmallVector<uint64_t, 3> operands(in.size());
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    for (int64_t i = 0; i < info->numElements; ++i) {
      for (size_t j = 0; j < in.size(); ++j)
        operands[j] =
            readBits(in[j]->at(t), isVector[j] ? i * widths[j] : 0, widths[j]);
      ElemResult result = fn(operands);
      if (result.error)
        return failThread(op, t, uniform, result.error);
      writeBits(out.at(t), i * info->elemBits, info->elemBits,
                result.bits & maskBits(info->elemBits));
    }
  }
  setReg(op->getResult(0), std::move(out));
  return success();
}

LogicalResult Interpreter::intBinary(
    Operation *op, function_ref<ElemResult(uint64_t, uint64_t, unsigned)> fn) {
  unsigned width = getScalarBits(getElementTypeOrSelf(op->getResult(0)));
  if (!width || width > 64)
    return unsupportedType(op, op->getResult(0).getType());
  return elementwise(
      op, [&](ArrayRef<uint64_t> in) { return fn(in[0], in[1], width); });
}

LogicalResult Interpreter::floatBinary(
    Operation *op,
    function_ref<void(llvm::APFloat &, const llvm::APFloat &)> fn) {
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  if (!type)
    return unsupportedType(op, op->getResult(0).getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  unsigned width = type.getWidth();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat a(semantics, llvm::APInt(width, in[0]));
    llvm::APFloat b(semantics, llvm::APInt(width, in[1]));
    fn(a, b);
    return ElemResult{a.bitcastToAPInt().getZExtValue()};
  });
}

LogicalResult Interpreter::floatNary(
    Operation *op, function_ref<llvm::APFloat(ArrayRef<llvm::APFloat>)> fn) {
  Type elemType = getElementTypeOrSelf(op->getResult(0));
  auto type = dyn_cast<FloatType>(elemType);
  if (!type)
    return unsupportedType(op, op->getResult(0).getType());
  for (Value operand : op->getOperands())
    if (getElementTypeOrSelf(operand.getType()) != elemType)
      return unsupportedType(op, operand.getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  unsigned width = type.getWidth();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    SmallVector<llvm::APFloat, 3> args;
    for (uint64_t bits : in)
      args.emplace_back(semantics, llvm::APInt(width, bits));
    return ElemResult{fn(args).bitcastToAPInt().getZExtValue()};
  });
}

/// Exact conversions to double and one rounding back: for types that fit in
/// double (precision, exponent range) and have a NaN (the result may be one).
LogicalResult Interpreter::floatViaDouble(Operation *op, double (*fn)(double)) {
  using APFloat = llvm::APFloat;
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  if (!type)
    return unsupportedType(op, op->getResult(0).getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  const llvm::fltSemantics &dbl = APFloat::IEEEdouble();
  if (APFloat::semanticsPrecision(semantics) >
          APFloat::semanticsPrecision(dbl) ||
      APFloat::semanticsMaxExponent(semantics) >
          APFloat::semanticsMaxExponent(dbl) ||
      APFloat::semanticsMinExponent(semantics) <
          APFloat::semanticsMinExponent(dbl) ||
      !APFloat::semanticsHasNaN(semantics))
    return unsupportedType(op, op->getResult(0).getType());
  return floatNary(op, [&](ArrayRef<APFloat> in) {
    bool lost = false;
    APFloat x = in[0];
    x.convert(dbl, APFloat::rmNearestTiesToEven, &lost);
    APFloat r(fn(x.convertToDouble()));
    r.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    return r;
  });
}

LogicalResult Interpreter::execConstant(arith::ConstantOp op) {
  Type type = op.getType();
  std::optional<TypeInfo> info = getTypeInfo(type);
  if (!info)
    return unsupportedType(op, type);
  Reg reg(info->bytes, /*uniform=*/true, numThreads);
  auto toBits = [&](Attribute attr) -> std::optional<uint64_t> {
    if (auto intAttr = dyn_cast<IntegerAttr>(attr))
      return intAttr.getValue().getZExtValue() & maskBits(info->elemBits);
    if (auto floatAttr = dyn_cast<FloatAttr>(attr))
      return floatAttr.getValue().bitcastToAPInt().getZExtValue();
    return std::nullopt;
  };
  Attribute value = op.getValue();
  if (!info->isVector) {
    std::optional<uint64_t> bits = toBits(value);
    if (!bits)
      return fail(op, "unsupported constant attribute");
    writeBits(reg.at(0), 0, info->elemBits, *bits);
  } else {
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!dense)
      return fail(op, "unsupported vector constant attribute (expected dense "
                      "elements)");
    int64_t i = 0;
    if (isa<FloatType>(info->elemType)) {
      for (const llvm::APFloat &element : dense.getValues<llvm::APFloat>())
        writeBits(reg.at(0), uint64_t(i++) * info->elemBits, info->elemBits,
                  element.bitcastToAPInt().getZExtValue());
    } else {
      for (const llvm::APInt &element : dense.getValues<llvm::APInt>())
        writeBits(reg.at(0), uint64_t(i++) * info->elemBits, info->elemBits,
                  element.getZExtValue() & maskBits(info->elemBits));
    }
  }
  setReg(op.getResult(), std::move(reg));
  return success();
}

LogicalResult Interpreter::execCmpI(arith::CmpIOp op) {
  unsigned width = getScalarBits(getElementTypeOrSelf(op.getLhs()));
  arith::CmpIPredicate predicate = op.getPredicate();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    bool result = arith::applyCmpPredicate(predicate, llvm::APInt(width, in[0]),
                                           llvm::APInt(width, in[1]));
    return ElemResult{uint64_t(result)};
  });
}

LogicalResult Interpreter::execCast(Operation *op, bool isSigned) {
  unsigned width = getScalarBits(getElementTypeOrSelf(op->getOperand(0)));
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    return ElemResult{isSigned ? uint64_t(signExtend(in[0], width)) : in[0]};
  });
}

LogicalResult Interpreter::execBitcast(Operation *op) {
  std::optional<TypeInfo> in = getTypeInfo(op->getOperand(0).getType());
  std::optional<TypeInfo> out = getTypeInfo(op->getResult(0).getType());
  if (!in)
    return unsupportedType(op, op->getOperand(0).getType());
  if (!out)
    return unsupportedType(op, op->getResult(0).getType());
  if (uint64_t(in->elemBits) * in->numElements !=
      uint64_t(out->elemBits) * out->numElements)
    return fail(op, "source and result have different bit sizes");
  const Reg *source = getReg(op, op->getOperand(0));
  if (!source)
    return failure();
  // Same bits, same dense packing: a copy of the bytes.
  Reg result = *source;
  result.bytes = out->bytes;
  setReg(op->getResult(0), std::move(result));
  return success();
}

LogicalResult Interpreter::execFloatCast(Operation *op) {
  Type inType = getElementTypeOrSelf(op->getOperand(0));
  auto outType = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  if (!outType)
    return unsupportedType(op, op->getResult(0).getType());
  unsigned inWidth = getScalarBits(inType);
  llvm::RoundingMode mode = llvm::APFloat::rmNearestTiesToEven;
  if (auto truncf = dyn_cast<arith::TruncFOp>(op)) {
    if (std::optional<arith::RoundingMode> rounding =
            truncf.getRoundingmode()) {
      switch (*rounding) {
      case arith::RoundingMode::to_nearest_even:
        mode = llvm::APFloat::rmNearestTiesToEven;
        break;
      case arith::RoundingMode::downward:
        mode = llvm::APFloat::rmTowardNegative;
        break;
      case arith::RoundingMode::upward:
        mode = llvm::APFloat::rmTowardPositive;
        break;
      case arith::RoundingMode::toward_zero:
        mode = llvm::APFloat::rmTowardZero;
        break;
      case arith::RoundingMode::to_nearest_away:
        mode = llvm::APFloat::rmNearestTiesToAway;
        break;
      }
    }
  }
  bool fromSigned = isa<arith::SIToFPOp>(op);
  bool fromInt = fromSigned || isa<arith::UIToFPOp>(op);
  auto inFloat = dyn_cast<FloatType>(inType);
  if (!fromInt && !inFloat)
    return unsupportedType(op, op->getOperand(0).getType());
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat value(outType.getFloatSemantics());
    if (fromInt) {
      value.convertFromAPInt(llvm::APInt(inWidth, in[0]), fromSigned, mode);
    } else {
      value = llvm::APFloat(inFloat.getFloatSemantics(),
                            llvm::APInt(inWidth, in[0]));
      bool losesInfo;
      value.convert(outType.getFloatSemantics(), mode, &losesInfo);
    }
    return ElemResult{value.bitcastToAPInt().getZExtValue()};
  });
}

/// Evaluates `expr` for lanes [0, n) at once into `out` (n values):
/// `operands[i]` holds the n values of dimension i, then of the symbols
/// (dimension count `numDims`). The tree is walked once per op, not once per
/// lane. A division by zero in a lane whose `active` entry is set (all lanes
/// when `active` is null) returns an error and that lane in `failedLane`;
/// inactive lanes compute 0 there.
static const char *evalAffine(AffineExpr expr,
                              ArrayRef<const int64_t *> operands,
                              unsigned numDims, int64_t n,
                              const uint8_t *active, int64_t *out,
                              int64_t &failedLane) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    std::fill(out, out + n, constant.getValue());
    return nullptr;
  }
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    std::copy(operands[dim.getPosition()], operands[dim.getPosition()] + n,
              out);
    return nullptr;
  }
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
    const int64_t *values = operands[numDims + symbol.getPosition()];
    std::copy(values, values + n, out);
    return nullptr;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  if (const char *error = evalAffine(binary.getLHS(), operands, numDims, n,
                                     active, out, failedLane))
    return error;
  SmallVector<int64_t, 64> rhs(n);
  if (const char *error = evalAffine(binary.getRHS(), operands, numDims, n,
                                     active, rhs.data(), failedLane))
    return error;
  // Wrapping arithmetic, as the per-lane integers of the hardware.
  auto wrap = [](uint64_t value) { return int64_t(value); };
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    for (int64_t t = 0; t < n; ++t)
      out[t] = wrap(uint64_t(out[t]) + uint64_t(rhs[t]));
    return nullptr;
  case AffineExprKind::Mul:
    for (int64_t t = 0; t < n; ++t)
      out[t] = wrap(uint64_t(out[t]) * uint64_t(rhs[t]));
    return nullptr;
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod: {
    AffineExprKind kind = binary.getKind();
    for (int64_t t = 0; t < n; ++t) {
      int64_t a = out[t], b = rhs[t];
      if (b == 0) {
        if (!active || active[t]) {
          failedLane = t;
          return "affine division by zero";
        }
        out[t] = 0;
        continue;
      }
      if (kind == AffineExprKind::FloorDiv)
        out[t] = llvm::divideFloorSigned(a, b);
      else if (kind == AffineExprKind::CeilDiv)
        out[t] = llvm::divideCeilSigned(a, b);
      else
        out[t] = wrap(uint64_t(a) -
                      uint64_t(b) * uint64_t(llvm::divideFloorSigned(a, b)));
    }
    return nullptr;
  }
  default:
    failedLane = 0;
    return "unsupported affine expression";
  }
}

LogicalResult Interpreter::execAffine(Operation *op, AffineMap map,
                                      ValueRange operands, int kind) {
  SmallVector<const Reg *> in;
  bool uniform = true;
  for (Value operand : operands) {
    const Reg *reg = getReg(op, operand);
    if (!reg)
      return failure();
    in.push_back(reg);
    uniform &= reg->uniform;
  }
  if (map.getNumResults() == 0)
    return fail(op, "affine map without results");
  // All lanes at once (one when every operand is uniform).
  int64_t n = uniform ? 1 : numThreads;
  SmallVector<int64_t> values(in.size() * n);
  SmallVector<const int64_t *> columns;
  for (auto [i, reg] : llvm::enumerate(in)) {
    int64_t *column = values.data() + i * n;
    for (int64_t t = 0; t < n; ++t)
      column[t] = readIndex(*reg, t);
    columns.push_back(column);
  }
  const uint8_t *active = uniform || !isPartial() ? nullptr : activeMask.data();
  SmallVector<int64_t, 64> result(n), next(n);
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    int64_t *target = i == 0 ? result.data() : next.data();
    int64_t failedLane = 0;
    if (const char *error = evalAffine(expr, columns, map.getNumDims(), n,
                                       active, target, failedLane))
      return failThread(op, failedLane, uniform, error);
    if (i == 0)
      continue;
    for (int64_t t = 0; t < n; ++t)
      if ((kind < 0 && next[t] < result[t]) ||
          (kind > 0 && next[t] > result[t]))
        result[t] = next[t];
  }
  Reg out(8, uniform, numThreads);
  std::memcpy(out.data.data(), result.data(), size_t(n) * 8);
  setReg(op->getResult(0), std::move(out));
  return success();
}

LogicalResult
Interpreter::execDelinearize(affine::AffineDelinearizeIndexOp op) {
  const Reg *linear = getReg(op, op.getLinearIndex());
  if (!linear)
    return failure();
  ArrayRef<int64_t> staticBasis = op.getStaticBasis();
  SmallVector<const Reg *> dynamicBasis;
  bool uniform = linear->uniform;
  for (Value value : op.getDynamicBasis()) {
    const Reg *reg = getReg(op, value);
    if (!reg)
      return failure();
    dynamicBasis.push_back(reg);
    uniform &= reg->uniform;
  }
  int64_t numResults = op.getNumResults();
  // Basis element of result r (r >= 1): basis[r] with an outer bound,
  // basis[r - 1] without.
  int64_t shift = op.hasOuterBound() ? 0 : 1;
  SmallVector<Reg> results(numResults, Reg(8, uniform, numThreads));
  SmallVector<int64_t> basis(staticBasis.begin(), staticBasis.end());
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    for (size_t i = 0, next = 0; !dynamicBasis.empty() && i < basis.size(); ++i)
      if (ShapedType::isDynamic(staticBasis[i]))
        basis[i] = readIndex(*dynamicBasis[next++], t);
    int64_t x = readIndex(*linear, t);
    for (int64_t r = numResults - 1; r >= 0; --r) {
      int64_t value = x;
      if (r > 0) {
        int64_t b = basis[r - shift];
        if (b <= 0)
          return failThread(op, t, uniform,
                            "basis element " + Twine(b) + " is not positive");
        value = x - b * llvm::divideFloorSigned(x, b);
        x = llvm::divideFloorSigned(x, b);
      }
      std::memcpy(results[r].at(t), &value, 8);
    }
  }
  for (auto [result, reg] : llvm::zip(op.getResults(), results))
    setReg(result, std::move(reg));
  return success();
}

LogicalResult Interpreter::execLinearize(affine::AffineLinearizeIndexOp op) {
  SmallVector<const Reg *> indices, dynamicBasis;
  bool uniform = true;
  for (Value value : op.getMultiIndex()) {
    indices.push_back(getReg(op, value));
    if (!indices.back())
      return failure();
    uniform &= indices.back()->uniform;
  }
  for (Value value : op.getDynamicBasis()) {
    dynamicBasis.push_back(getReg(op, value));
    if (!dynamicBasis.back())
      return failure();
    uniform &= dynamicBasis.back()->uniform;
  }
  ArrayRef<int64_t> staticBasis = op.getStaticBasis();
  int64_t shift = op.hasOuterBound() ? 0 : 1;
  Reg out(8, uniform, numThreads);
  SmallVector<int64_t> basis(staticBasis.begin(), staticBasis.end());
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    for (size_t i = 0, next = 0; !dynamicBasis.empty() && i < basis.size(); ++i)
      if (ShapedType::isDynamic(staticBasis[i]))
        basis[i] = readIndex(*dynamicBasis[next++], t);
    uint64_t result = 0;
    for (size_t i = 0; i < indices.size(); ++i) {
      uint64_t index = uint64_t(readIndex(*indices[i], t));
      result = i == 0 ? index : result * uint64_t(basis[i - shift]) + index;
    }
    std::memcpy(out.at(t), &result, 8);
  }
  setReg(op.getResult(), std::move(out));
  return success();
}

LogicalResult Interpreter::execCmpF(arith::CmpFOp op) {
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(op.getLhs()));
  if (!type)
    return unsupportedType(op, op.getLhs().getType());
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  unsigned width = type.getWidth();
  arith::CmpFPredicate predicate = op.getPredicate();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat a(semantics, llvm::APInt(width, in[0]));
    llvm::APFloat b(semantics, llvm::APInt(width, in[1]));
    bool result = arith::applyCmpPredicate(predicate, a, b);
    return ElemResult{uint64_t(result)};
  });
}

LogicalResult Interpreter::execFloatToInt(Operation *op, bool isSigned) {
  auto inType = dyn_cast<FloatType>(getElementTypeOrSelf(op->getOperand(0)));
  unsigned outWidth = getScalarBits(getElementTypeOrSelf(op->getResult(0)));
  if (!inType || !outWidth)
    return unsupportedType(op, op->getOperand(0).getType());
  const llvm::fltSemantics &semantics = inType.getFloatSemantics();
  unsigned inWidth = inType.getWidth();
  return elementwise(op, [&](ArrayRef<uint64_t> in) {
    llvm::APFloat value(semantics, llvm::APInt(inWidth, in[0]));
    llvm::APSInt result(outWidth, /*isUnsigned=*/!isSigned);
    bool isExact;
    if (value.convertToInteger(result, llvm::APFloat::rmTowardZero, &isExact) &
        llvm::APFloat::opInvalidOp)
      return ElemResult{0, "the value does not fit the integer type (poison)"};
    return ElemResult{result.getZExtValue()};
  });
}
