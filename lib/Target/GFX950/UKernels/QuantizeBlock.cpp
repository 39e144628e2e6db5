//===- QuantizeBlock.cpp - one MX block quantized in registers ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/UKernels/QuantizeBlock.h"

#include "mx/Dialect/MX/Transforms/QuantizeArith.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

bool mlir::mx::gfx950::canUsePackedConversions(FloatType elementType,
                                               Rounding rounding,
                                               Type inputType) {
  return elementType.getWidth() == 4 &&
         (rounding == Rounding::nearest_even || inputType.isBF16());
}

/// The largest magnitude of a block of 16-bit floats (bf16, f16), as an
/// f32 (a NaN if any value is one). Their magnitudes order as their bits
/// with the sign cleared (a NaN above every number), so it is an integer
/// max over those bits: a tree of packed 16-bit maxima (v_pk_max_u16)
/// instead of a chain of widen, max and narrow per value.
static Value computePackedAmax(OpBuilder &b, Location loc, Value block) {
  auto type = cast<VectorType>(block.getType());
  Type element = type.getElementType();
  Type i16 = b.getI16Type();
  int64_t n = type.getNumElements();
  // The sign bits shifted out (packed 16-bit shifts): twice the magnitude
  // bits, in the same order.
  auto halves = VectorType::get({n}, i16);
  Value bits = vector::BitCastOp::create(b, loc, halves, block);
  Value one = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(halves, b.getIntegerAttr(i16, 1)));
  Value magnitudes = arith::ShLIOp::create(b, loc, bits, one);
  for (; n > 1; n /= 2) {
    SmallVector<int64_t> low(n / 2), high(n / 2);
    for (int64_t i = 0; i < n / 2; ++i) {
      low[i] = i;
      high[i] = n / 2 + i;
    }
    magnitudes = arith::MaxUIOp::create(
        b, loc, vector::ShuffleOp::create(b, loc, magnitudes, magnitudes, low),
        vector::ShuffleOp::create(b, loc, magnitudes, magnitudes, high));
  }
  Value largest = arith::ShRUIOp::create(
      b, loc, vector::ExtractOp::create(b, loc, magnitudes, 0),
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(i16, 1)));
  Value value = arith::BitcastOp::create(b, loc, element, largest);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), value);
}

QuantizedBlock mlir::mx::gfx950::quantizeBlock(OpBuilder &b, Location loc,
                                               Value block, ScaleRule rule,
                                               Rounding rounding,
                                               FloatType elementType,
                                               bool packedConversions) {
  MXArithBuilder mx(b, loc);
  Type f32 = b.getF32Type();
  Type i8 = b.getI8Type();
  Type i32 = b.getI32Type();
  int64_t bits = elementType.getWidth();
  ElementFormat format = ElementFormat::get(elementType);
  QuantizedBlock result;

  // The values widened to f32, made when needed.
  SmallVector<Value> values;
  auto getValues = [&]() -> ArrayRef<Value> {
    if (values.empty())
      for (int64_t k = 0; k < kBlockSize; ++k) {
        Value v = vector::ExtractOp::create(b, loc, block, k);
        if (v.getType() != f32)
          v = arith::ExtFOp::create(b, loc, f32, v);
        values.push_back(v);
      }
    return values;
  };
  // Ties away from zero through the round-to-nearest-even packed
  // conversions (from bf16 only: canUsePackedConversions): each value
  // widened to f32 with the bit just below its last bf16 mantissa bit set.
  // That adds half a bf16 ulp to the magnitude, which moves an exact tie of
  // the fp4 grid (bf16-representable) above it and never moves a bf16 value
  // across one (they lie at least an ulp apart).
  bool nudge = packedConversions && rounding == Rounding::ties_away;
  SmallVector<Value> nudged;
  if (nudge)
    for (Value v : getValues())
      nudged.push_back(arith::BitcastOp::create(
          b, loc, f32,
          arith::OrIOp::create(b, loc, arith::BitcastOp::create(b, loc, i32, v),
                               mx.i32(0x8000))));
  // The block's amax (a NaN stays a NaN). Where the packed conversions
  // take the 16-bit values themselves, from their bits (computePackedAmax);
  // otherwise from the values widened for the conversions. The nudged
  // magnitudes order as the values do (the same bit is set in each), so
  // their largest, that bit cleared, is the amax: one set of widened values
  // serves both.
  Value amax;
  if (packedConversions && !nudge &&
      cast<VectorType>(block.getType()).getElementTypeBitWidth() == 16) {
    amax = computePackedAmax(b, loc, block);
  } else {
    for (Value v : nudge ? ArrayRef<Value>(nudged) : getValues()) {
      Value magnitude = math::AbsFOp::create(b, loc, v);
      amax =
          amax ? arith::MaximumFOp::create(b, loc, amax, magnitude) : magnitude;
    }
    if (nudge)
      amax = arith::BitcastOp::create(
          b, loc, f32,
          arith::AndIOp::create(b, loc,
                                arith::BitcastOp::create(b, loc, i32, amax),
                                mx.i32(int32_t(0xFFFF0000u))));
  }
  Value scale = mx.computeScale(amax, rule, format);
  result.scaleByte = arith::BitcastOp::create(b, loc, i8, scale);

  if (packedConversions) {
    // Two elements per v_cvt_scalef32_pk_fp4_*: the scale as an f32 whose
    // exponent field is the E8M0 byte; a NaN-scale block gets code 0.
    Value byte = arith::ExtUIOp::create(b, loc, i32, result.scaleByte);
    Value scaleF32 = arith::BitcastOp::create(
        b, loc, f32, arith::ShLIOp::create(b, loc, byte, mx.i32(23)));
    Value nanBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           byte, mx.i32(255));
    auto wordType = VectorType::get({8}, elementType);
    for (int64_t w = 0; w < kBlockSize / 8; ++w) {
      Value word;
      for (int64_t i = 0; i < 4; ++i) {
        SmallVector<Value, 2> elements;
        for (int64_t j = 0; j < 2; ++j) {
          int64_t k = 8 * w + 2 * i + j;
          elements.push_back(
              nudge ? nudged[k]
                    : vector::ExtractOp::create(b, loc, block, k).getResult());
        }
        Value pair = vector::FromElementsOp::create(
            b, loc, VectorType::get({2}, elements[0].getType()), elements);
        word = amdgpu::PackedScaledTruncOp::create(b, loc, wordType, pair,
                                                   scaleF32, i, word);
      }
      Value wordBits =
          vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), word);
      wordBits = vector::ExtractOp::create(b, loc, wordBits, 0);
      wordBits = arith::SelectOp::create(b, loc, nanBlock, mx.i32(0), wordBits);
      for (int64_t j = 0; j < 4; ++j)
        result.packedBytes.push_back(arith::TruncIOp::create(
            b, loc, i8,
            arith::ShRUIOp::create(b, loc, wordBits, mx.i32(8 * j))));
    }
    return result;
  }
  Type codeType = b.getIntegerType(bits);
  for (Value v : getValues()) {
    Value code = mx.quantizeElement(v, scale, elementType, format, rounding);
    code = arith::BitcastOp::create(b, loc, codeType, code);
    if (bits < 8)
      code = arith::ExtUIOp::create(b, loc, i8, code);
    result.codes.push_back(code);
  }
  return result;
}

SmallVector<Value> mlir::mx::gfx950::getBlockBytes(OpBuilder &b, Location loc,
                                                   const QuantizedBlock &block,
                                                   FloatType elementType) {
  if (!block.packedBytes.empty())
    return block.packedBytes;
  return packCodes(b, loc, block.codes, elementType.getWidth());
}
