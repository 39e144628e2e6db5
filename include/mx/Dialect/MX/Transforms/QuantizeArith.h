//===- QuantizeArith.h - exact MX arithmetic builders -----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The arith/math ops that compute MX values exactly: decode tables, E8M0
// scales, the block scale of every rule and the element code of every
// rounding. The one home of this arithmetic: the CPU lowering
// (convert-mx-to-linalg) and the quantize kernels of the GPU targets build it
// here. Every format fact comes from the builtin float type's APFloat
// semantics; nothing here is a hand-written format table.
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_QUANTIZEARITH_H
#define MX_DIALECT_MX_TRANSFORMS_QUANTIZEARITH_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

namespace mlir::mx {

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
  /// The code of the largest finite value (magnitude codes grow with the
  /// value).
  int64_t maxFiniteCode;

  static ElementFormat get(FloatType type) {
    const llvm::fltSemantics &sem = type.getFloatSemantics();
    ElementFormat format;
    format.bits = llvm::APFloat::semanticsSizeInBits(sem);
    format.manBits = llvm::APFloat::semanticsPrecision(sem) - 1;
    format.minNormalExp = llvm::APFloat::semanticsMinExponent(sem);
    format.maxFinite =
        llvm::APFloat::getLargest(sem, /*Negative=*/false).convertToDouble();
    format.maxExp = std::ilogb(format.maxFinite);
    format.maxFiniteCode = llvm::APFloat::getLargest(sem, /*Negative=*/false)
                               .bitcastToAPInt()
                               .getZExtValue();
    return format;
  }
};

/// Builds the arithmetic of the lowering at one insertion point.
class MXArithBuilder {
public:
  MXArithBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

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
  static Value buildDecodeTable(OpBuilder &b, Location loc, FloatType type);

  /// The value of an element of an MX type, looked up in its decode table.
  Value decodeElement(Value element, Value table);

  /// `2^e` as an f64 for an i64 `e` within the normal f64 range.
  Value exp2(Value e);

  /// The scale byte as i64 (0..255).
  Value scaleByte(Value scale) {
    Value byte = arith::BitcastOp::create(b, loc, b.getI8Type(), scale);
    return arith::ExtUIOp::create(b, loc, b.getI64Type(), byte);
  }

  /// The value of an E8M0 scale: exactly 2^(s - 127), NaN for 0xFF.
  Value decodeScale(Value scale);

  /// The E8M0 scale of a block with largest magnitude `amax` (f32, >= 0 or
  /// NaN), following `rule` for the element `format`.
  Value computeScale(Value amax, ScaleRule rule, const ElementFormat &format);

  /// The code of `x` (bf16, f16 or f32) quantized with the block scale `scale`
  /// to `elementType`: x * 2^-s rounded to the element grid by `rounding`,
  /// saturated to the largest finite value; code 0 in a NaN-scale block; the
  /// sign bit is that of x (-0.0 gives the negative-zero code). f32 steps that
  /// are exact by construction plus integer steps; no f64.
  Value quantizeElement(Value x, Value scale, FloatType elementType,
                        const ElementFormat &format, Rounding rounding);

private:
  OpBuilder &b;
  Location loc;
};

/// Codes per packed byte group of `bits`-bit codes (its bytes: codes * bits
/// / 8): fp4 2 -> 1, fp6 4 -> 3, fp8 1 -> 1.
inline int64_t getGroupCodes(int64_t bits) {
  return bits == 4 ? 2 : bits == 6 ? 4 : 1;
}

/// The bytes of `codes` (i8 values of `bits`-bit codes) packed as a
/// little-endian bit stream: element i in bits [bits * i, bits * i + bits),
/// the packing of getPackedByteCount. `codes` holds a whole number of
/// groups (getGroupCodes).
SmallVector<Value> packCodes(OpBuilder &b, Location loc, ArrayRef<Value> codes,
                             int64_t bits);

} // namespace mlir::mx

#endif // MX_DIALECT_MX_TRANSFORMS_QUANTIZEARITH_H
