//===- ReferenceScalar.cpp - reference semantics of scalar ops ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The scalar ops of a linalg.generic body (and of elementwise ops on
// tensors), each from its upstream MLIR 22 definition, on Scalars (a type and
// a bit pattern):
//   - float arithmetic (addf, subf, mulf, divf, negf, extf, absf, maximumf,
//     minimumf, scaling_extf = decode(x) * 2^(s - 127)) in f32, f32 results
//     only; math.exp, exp2, log, log2, tanh and sqrt are the host libm's in
//     double on the exact operand, rounded once to f32; math.floor and ceil
//     are exact. arith.maxnumf / minnumf return the other operand of a NaN
//     and order -0 below +0 (IEEE 754-2019 maximumNumber / minimumNumber);
//   - arith.truncf to any float type but f8E8M0FNU: the exact operand
//     rounded with the op's roundingmode (absent: to_nearest_even), as
//     APFloat converts (which upstream's folder uses): beyond the range,
//     Inf, or NaN for f8E4M3FN, the largest value for fp4/fp6 (finite
//     only); NaN is +0 for fp4/fp6 (not OCP's saturating conversion: that
//     is arith.scaling_truncf's); to f8E8M0FNU: the
//     biased exponent of the operand as f32 (the mantissa and sign dropped,
//     as upstream's arith-expand lowers it): 0 and f32 denormals give 0x00
//     (2^-127), Inf and NaN 0xFF;
//   - arith.scaling_truncf %x, %s to an MX element type: the scale converted
//     to E8M0 as arith.truncf does (unless it already is f8E8M0FNU), x
//     divided by 2^(e - 127) exactly (in double; 0xFF gives NaN), then
//     rounded to the element type with the op's roundingmode, to_nearest_even
//     (absent) or to_nearest_away (others are an error), saturating to the
//     largest finite value (Inf too; the OCP MX conversion, ref::encode); NaN
//     becomes the type's NaN code, +0 where it has none (fp4, fp6). This is
//     the op's documented semantics; upstream's arith-expand lowering differs
//     in places (its f4E2M1FN rounding is ties-away, it maps scale 0x00 to 0,
//     and it divides in the input's type), and the reference does not follow
//     it there. fastmath flags (denormal flushing) are ignored;
//   - arith.bitcast between same-width types, arith.cmpf (all predicates),
//     arith.cmpi, arith.select, the integer ops andi, ori, xori, addi, subi,
//     muli, shli, shrui, shrsi, trunci, extui, extsi, and constants.
//
//===----------------------------------------------------------------------===//

#include "ReferenceEvaluatorImpl.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::detail;
namespace ref = ::mx::ref;

/// The bits of \p type's width (1 to 64) set.
static uint64_t getMask(Type type) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

/// The signed value of the integer scalar \p s.
static int64_t getSigned(Scalar s) {
  unsigned width = s.type.isIndex() ? 64 : s.type.getIntOrFloatBitWidth();
  if (width >= 64)
    return static_cast<int64_t>(s.bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  return static_cast<int64_t>((s.bits ^ sign) - sign);
}

FailureOr<double> mlir::mx::detail::getFloatValue(Operation *op, Scalar s) {
  auto floatType = dyn_cast<FloatType>(s.type);
  if (!floatType)
    return op->emitError() << "reference evaluator: expected a float operand, "
                              "got "
                           << s.type;
  // f8E8M0FNU: the scale it is (2^(bits - 127), NaN for 0xFF); APFloat's
  // conversion to double is exact for every other type.
  if (isa<Float8E8M0FNUType>(s.type))
    return ref::decodeScale(static_cast<uint8_t>(s.bits));
  llvm::APFloat value(floatType.getFloatSemantics(),
                      llvm::APInt(floatType.getWidth(), s.bits));
  bool lost;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToDouble();
}

/// \p value (exact in double) rounded to the float type \p type with
/// \p mode, as APFloat converts.
static Scalar
roundToFloat(Type type, double value,
             llvm::RoundingMode mode = llvm::RoundingMode::NearestTiesToEven) {
  llvm::APFloat converted(value);
  bool lost;
  converted.convert(cast<FloatType>(type).getFloatSemantics(), mode, &lost);
  return {type, converted.bitcastToAPInt().getZExtValue()};
}

/// The E8M0 byte of \p value as arith.truncf to f8E8M0FNU gives it: the
/// biased exponent of the value as f32.
static uint8_t truncToE8M0(double value) {
  float asFloat = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &asFloat, sizeof(bits));
  return static_cast<uint8_t>(bits >> 23);
}

/// The llvm::RoundingMode of an arith op's optional rounding mode.
static FailureOr<llvm::RoundingMode>
getRoundingMode(Operation *op, std::optional<arith::RoundingMode> mode) {
  switch (mode.value_or(arith::RoundingMode::to_nearest_even)) {
  case arith::RoundingMode::to_nearest_even:
    return llvm::RoundingMode::NearestTiesToEven;
  case arith::RoundingMode::to_nearest_away:
    return llvm::RoundingMode::NearestTiesToAway;
  case arith::RoundingMode::downward:
    return llvm::RoundingMode::TowardNegative;
  case arith::RoundingMode::upward:
    return llvm::RoundingMode::TowardPositive;
  case arith::RoundingMode::toward_zero:
    return llvm::RoundingMode::TowardZero;
  }
  return op->emitError() << "reference evaluator: unknown rounding mode";
}

static FailureOr<Scalar> evaluate(arith::TruncFOp op, ArrayRef<Scalar> args,
                                  Type type) {
  FailureOr<double> value = getFloatValue(op, args[0]);
  if (failed(value))
    return failure();
  if (isa<Float8E8M0FNUType>(type))
    return Scalar{type, truncToE8M0(*value)};
  FailureOr<llvm::RoundingMode> mode =
      getRoundingMode(op, op.getRoundingmode());
  if (failed(mode))
    return failure();
  return roundToFloat(type, *value, *mode);
}

static FailureOr<Scalar> evaluate(arith::ScalingTruncFOp op,
                                  ArrayRef<Scalar> args, Type type) {
  std::optional<ElementKind> kind = getElementKind(type);
  std::optional<ref::ElemFormat> format =
      kind ? getRefFormat(*kind) : std::nullopt;
  if (!format)
    return op.emitError() << "reference evaluator: arith.scaling_truncf to "
                          << type << " (expected an MX element type)";
  std::optional<arith::RoundingMode> mode = op.getRoundingmode();
  ref::ElemRounding rounding = ref::ElemRounding::NearestEven;
  if (mode == arith::RoundingMode::to_nearest_away)
    rounding = ref::ElemRounding::TiesAway;
  else if (mode && *mode != arith::RoundingMode::to_nearest_even)
    return op.emitError() << "reference evaluator: arith.scaling_truncf with "
                             "rounding mode "
                          << arith::stringifyRoundingMode(*mode)
                          << " (expected to_nearest_even or to_nearest_away)";
  FailureOr<double> x = getFloatValue(op, args[0]);
  FailureOr<double> scale = getFloatValue(op, args[1]);
  if (failed(x) || failed(scale))
    return failure();
  uint8_t e = isa<Float8E8M0FNUType>(args[1].type)
                  ? static_cast<uint8_t>(args[1].bits)
                  : truncToE8M0(*scale);
  double scaled = e == 0xFF ? std::numeric_limits<double>::quiet_NaN()
                            : std::ldexp(*x, 127 - int(e));
  return Scalar{type, ref::encode(*format, scaled, rounding)};
}

/// arith.cmpf \p predicate on \p a and \p b.
static bool compareFloats(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::ORD:
    return !unordered;
  case P::UNO:
    return unordered;
  case P::OEQ:
  case P::UEQ:
    return unordered ? predicate == P::UEQ : a == b;
  case P::ONE:
  case P::UNE:
    return unordered ? predicate == P::UNE : a != b;
  case P::OLT:
  case P::ULT:
    return unordered ? predicate == P::ULT : a < b;
  case P::OLE:
  case P::ULE:
    return unordered ? predicate == P::ULE : a <= b;
  case P::OGT:
  case P::UGT:
    return unordered ? predicate == P::UGT : a > b;
  case P::OGE:
  case P::UGE:
    return unordered ? predicate == P::UGE : a >= b;
  }
  return false;
}

/// arith.cmpi \p predicate on the integer scalars \p a and \p b.
static bool compareIntegers(arith::CmpIPredicate predicate, Scalar a,
                            Scalar b) {
  int64_t sa = getSigned(a), sb = getSigned(b);
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::eq:
    return a.bits == b.bits;
  case P::ne:
    return a.bits != b.bits;
  case P::slt:
    return sa < sb;
  case P::sle:
    return sa <= sb;
  case P::sgt:
    return sa > sb;
  case P::sge:
    return sa >= sb;
  case P::ult:
    return a.bits < b.bits;
  case P::ule:
    return a.bits <= b.bits;
  case P::ugt:
    return a.bits > b.bits;
  case P::uge:
    return a.bits >= b.bits;
  }
  return false;
}

/// The integer ops on their operands' bits; none if \p op is not one.
static std::optional<uint64_t> evaluateInteger(Operation *op,
                                               ArrayRef<Scalar> args) {
  auto shift = [&]() { return args[1].bits; };
  unsigned width = args.empty() || args[0].type.isIndex()
                       ? 64
                       : args[0].type.getIntOrFloatBitWidth();
  return llvm::TypeSwitch<Operation *, std::optional<uint64_t>>(op)
      .Case([&](arith::AndIOp) { return args[0].bits & args[1].bits; })
      .Case([&](arith::OrIOp) { return args[0].bits | args[1].bits; })
      .Case([&](arith::XOrIOp) { return args[0].bits ^ args[1].bits; })
      .Case([&](arith::AddIOp) { return args[0].bits + args[1].bits; })
      .Case([&](arith::SubIOp) { return args[0].bits - args[1].bits; })
      .Case([&](arith::MulIOp) { return args[0].bits * args[1].bits; })
      // Shifts by the width or more are poison upstream; 0 here.
      .Case([&](arith::ShLIOp) -> std::optional<uint64_t> {
        return shift() >= width ? 0 : args[0].bits << shift();
      })
      .Case([&](arith::ShRUIOp) -> std::optional<uint64_t> {
        return shift() >= width ? 0 : args[0].bits >> shift();
      })
      .Case([&](arith::ShRSIOp) -> std::optional<uint64_t> {
        return static_cast<uint64_t>(getSigned(args[0]) >>
                                     std::min<uint64_t>(shift(), 63));
      })
      .Case([&](arith::TruncIOp) { return args[0].bits; })
      .Case([&](arith::ExtUIOp) { return args[0].bits; })
      .Case([&](arith::ExtSIOp) {
        return static_cast<uint64_t>(getSigned(args[0]));
      })
      .Case([&](arith::CmpIOp cmp) -> std::optional<uint64_t> {
        return compareIntegers(cmp.getPredicate(), args[0], args[1]);
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// IEEE 754-2019 maximumNumber / minimumNumber (\p max): a NaN operand
/// gives the other one; -0 < +0.
static double maxMinNumber(double a, double b, bool max) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return (std::signbit(a) == max) ? b : a;
  return max ? std::max(a, b) : std::min(a, b);
}

/// Evaluates one f32 float op given the values of its operands; fails for
/// ops the evaluator does not model.
static FailureOr<float> evaluateFloat(Operation *op, ArrayRef<float> args) {
  auto libm = [&](double (*fn)(double)) {
    return static_cast<float>(fn(static_cast<double>(args[0])));
  };
  std::optional<float> value =
      llvm::TypeSwitch<Operation *, std::optional<float>>(op)
          .Case<arith::ScalingExtFOp, arith::MulFOp>(
              [&](auto) { return args[0] * args[1]; })
          .Case([&](arith::ExtFOp) { return args[0]; })
          .Case([&](arith::AddFOp) { return args[0] + args[1]; })
          .Case([&](arith::SubFOp) { return args[0] - args[1]; })
          .Case([&](arith::DivFOp) { return args[0] / args[1]; })
          .Case([&](arith::NegFOp) { return -args[0]; })
          // Transcendentals (activations such as SiLU and GELU-tanh, scale
          // computations): the host libm in double on the exact f32 operand,
          // rounded once to f32.
          .Case([&](math::ExpOp) { return libm(std::exp); })
          .Case([&](math::Exp2Op) { return libm(std::exp2); })
          .Case([&](math::TanhOp) { return libm(std::tanh); })
          .Case([&](math::LogOp) { return libm(std::log); })
          .Case([&](math::Log2Op) { return libm(std::log2); })
          .Case([&](math::SqrtOp) { return libm(std::sqrt); })
          .Case([&](math::FloorOp) { return std::floor(args[0]); })
          .Case([&](math::CeilOp) { return std::ceil(args[0]); })
          .Case([&](math::AbsFOp) { return std::fabs(args[0]); })
          // IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0.
          .Case<arith::MaximumFOp, arith::MinimumFOp>(
              [&](auto) -> std::optional<float> {
                if (std::isnan(args[0]) || std::isnan(args[1]))
                  return std::numeric_limits<float>::quiet_NaN();
                return static_cast<float>(
                    maxMinNumber(args[0], args[1], isa<arith::MaximumFOp>(op)));
              })
          .Case<arith::MaxNumFOp, arith::MinNumFOp>([&](auto) {
            return static_cast<float>(
                maxMinNumber(args[0], args[1], isa<arith::MaxNumFOp>(op)));
          })
          .Default([](Operation *) { return std::nullopt; });
  if (!value)
    return op->emitError() << "reference evaluator does not support '"
                           << op->getName()
                           << "' as an elementwise op (in a linalg.generic "
                              "body or on tensors)";
  return *value;
}

/// The ops that produce or inspect bits rather than f32 values.
static std::optional<FailureOr<Scalar>>
evaluateBits(Operation *op, ArrayRef<Scalar> args, Type type) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto value = dyn_cast<FloatAttr>(constant.getValue()))
      return Scalar{type, value.getValue().bitcastToAPInt().getZExtValue()};
    if (auto value = dyn_cast<IntegerAttr>(constant.getValue()))
      return Scalar{type, value.getValue().getZExtValue() & getMask(type)};
    return FailureOr<Scalar>(op->emitError()
                             << "reference evaluator: unsupported constant");
  }
  if (auto truncf = dyn_cast<arith::TruncFOp>(op))
    return evaluate(truncf, args, type);
  if (auto scalingTruncf = dyn_cast<arith::ScalingTruncFOp>(op))
    return evaluate(scalingTruncf, args, type);
  if (isa<arith::BitcastOp>(op))
    return Scalar{type, args[0].bits & getMask(type)};
  if (isa<arith::SelectOp>(op))
    return (args[0].bits & 1) ? args[1] : args[2];
  if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    FailureOr<double> a = getFloatValue(op, args[0]);
    FailureOr<double> b = getFloatValue(op, args[1]);
    if (failed(a) || failed(b))
      return FailureOr<Scalar>(failure());
    return Scalar{type, compareFloats(cmp.getPredicate(), *a, *b)};
  }
  if (std::optional<uint64_t> bits = evaluateInteger(op, args))
    return Scalar{type, *bits & getMask(type)};
  return std::nullopt;
}

FailureOr<Scalar> mlir::mx::detail::evaluateScalar(Operation *op,
                                                   ArrayRef<Scalar> args) {
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  if (std::optional<FailureOr<Scalar>> result = evaluateBits(op, args, type))
    return *result;
  if (!type.isF32())
    return op->emitError()
           << "reference evaluator: '" << op->getName() << "' producing "
           << type
           << " (float arithmetic is evaluated in f32; arith.truncf, "
              "arith.scaling_truncf and arith.bitcast produce other types)";
  SmallVector<float> floats;
  for (Scalar arg : args) {
    FailureOr<double> value = getFloatValue(op, arg);
    if (failed(value))
      return failure();
    floats.push_back(static_cast<float>(*value));
  }
  FailureOr<float> value = evaluateFloat(op, floats);
  if (failed(value))
    return failure();
  uint32_t bits;
  std::memcpy(&bits, &*value, sizeof(bits));
  return Scalar{type, bits};
}
