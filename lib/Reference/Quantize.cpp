//===- Quantize.cpp - MX block scales, quantize and dequantize ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "Internal.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

using namespace mx::ref;
using namespace mx::ref::detail;

static uint32_t floatBits(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
}

static float floatFromBits(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
}

/// Returns the unclamped shared exponent for the finite, nonzero \p amax.
static int computeUnclampedExponent(float amax, const FormatInfo &info,
                                    ScaleRule rule) {
  int emax = info.emaxElem;
  switch (rule) {
  case ScaleRule::Floor:
    return floorLog2(amax) - emax;
  case ScaleRule::Ceil:
    return ceilLog2(amax) - emax;
  case ScaleRule::Even: {
    uint32_t bits = floatBits(amax) + (1u << (22 - info.manBits));
    bits &= 0xFF800000u;
    // Rounded up past the largest f32: the bits of +Inf, whose log2 is
    // +Inf in seed 000's algorithm; the clamp makes it 127 for every format.
    if (bits == 0x7F800000u)
      return 127;
    if (bits == 0)
      return -127;
    return floorLog2(floatFromBits(bits)) - emax;
  }
  case ScaleRule::RCeil: {
    // A double quotient rounded to f32 equals the correctly rounded f32
    // quotient (double has more than 2 * 24 + 2 significand bits).
    float q = static_cast<float>(static_cast<double>(amax) / info.maxFinite);
    if (q == 0)
      return -127;
    return ceilLog2(q);
  }
  }
  assert(false && "unknown scale rule");
  return -127;
}

uint8_t mx::ref::computeScale(const float *block, int64_t n, ElemFormat f,
                              ScaleRule rule) {
  float amax = 0;
  for (int64_t i = 0; i < n; ++i) {
    float mag = std::fabs(block[i]);
    if (!std::isfinite(mag))
      return 0xFF;
    amax = std::max(amax, mag);
  }
  if (amax == 0)
    return 0;
  int exp = computeUnclampedExponent(amax, getFormatInfo(f), rule);
  exp = std::clamp(exp, -127, 127);
  return static_cast<uint8_t>(exp + 127);
}

/// Calls \p fn(blockIndex, elementIndices) for every block; elementIndices are
/// the row-major offsets of the block's elements, and blockIndex the row-major
/// offset of its scale.
template <typename Fn>
static void forEachBlock(int64_t rows, int64_t cols, int axis,
                         int64_t blockSize, Fn fn) {
  assert((axis == 0 || axis == 1) && "axis must be 0 or 1");
  assert(blockSize > 0 && "block size must be positive");
  std::vector<int64_t> indices(blockSize);
  if (axis == 1) {
    assert(cols % blockSize == 0 && "cols must be a multiple of blockSize");
    int64_t blocksPerRow = cols / blockSize;
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t blk = 0; blk < blocksPerRow; ++blk) {
        for (int64_t i = 0; i < blockSize; ++i)
          indices[i] = row * cols + blk * blockSize + i;
        fn(row * blocksPerRow + blk, indices);
      }
    }
    return;
  }
  assert(rows % blockSize == 0 && "rows must be a multiple of blockSize");
  int64_t blocksPerCol = rows / blockSize;
  for (int64_t blk = 0; blk < blocksPerCol; ++blk) {
    for (int64_t col = 0; col < cols; ++col) {
      for (int64_t i = 0; i < blockSize; ++i)
        indices[i] = (blk * blockSize + i) * cols + col;
      fn(blk * cols + col, indices);
    }
  }
}

QuantizeResult mx::ref::quantize(const float *x, int64_t rows, int64_t cols,
                                 int axis, ElemFormat f, ScaleRule rule,
                                 ElemRounding r, int64_t blockSize) {
  QuantizeResult result;
  result.codes.assign(rows * cols, 0);
  result.scales.assign(rows * cols / blockSize, 0);
  std::vector<float> values(blockSize);
  forEachBlock(rows, cols, axis, blockSize,
               [&](int64_t scaleIndex, const std::vector<int64_t> &indices) {
                 for (int64_t i = 0; i < blockSize; ++i)
                   values[i] = x[indices[i]];
                 uint8_t scale =
                     computeScale(values.data(), blockSize, f, rule);
                 result.scales[scaleIndex] = scale;
                 if (scale == 0xFF)
                   return; // Codes stay 0.
                 int exp = static_cast<int>(scale) - 127;
                 for (int64_t i = 0; i < blockSize; ++i) {
                   // Exact: |x| * 2^-exp stays far inside the double range.
                   double q = std::ldexp(static_cast<double>(values[i]), -exp);
                   result.codes[indices[i]] = encode(f, q, r);
                 }
               });
  return result;
}

std::vector<float> mx::ref::dequantize(const uint8_t *codes,
                                       const uint8_t *scales, int64_t rows,
                                       int64_t cols, int axis, ElemFormat f,
                                       int64_t blockSize) {
  std::vector<float> result(rows * cols, 0.0f);
  forEachBlock(rows, cols, axis, blockSize,
               [&](int64_t scaleIndex, const std::vector<int64_t> &indices) {
                 double scale = decodeScale(scales[scaleIndex]);
                 for (int64_t index : indices)
                   result[index] =
                       static_cast<float>(decode(f, codes[index]) * scale);
               });
  return result;
}
