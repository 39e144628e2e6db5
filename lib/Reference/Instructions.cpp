//===- Instructions.cpp - scaled matmul rounded per instruction -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every scaled product is an exact double (element significands of at most
// 4 bits, scales powers of two within 2^-254 ... 2^254), so both arithmetics
// start from the products as doubles:
//   - Exact sums them and the accumulator in a long fixed-point integer
//     (ExactSum) and rounds that once;
//   - CDNA3Grouped works on doubles with exact power-of-two scaling
//     (std::ldexp), std::trunc and std::floor: every intermediate is an
//     integer below 2^40 times a power of two, so no double operation
//     rounds, and the final conversion to float is the one rounding.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mx::ref;

namespace {

/// An exact sum of doubles whose set bits lie in [2^kLsb, 2^kMsb): 32-bit
/// digits held in 64-bit integers, so that carries are resolved only once,
/// when the sum is read. Products of two elements and two scales have their
/// lowest set bit at 2^-286 or above and stay below 2^296 (E5M2: 57344^2 *
/// 2^254 times 128 products); f32 accumulators lie in [2^-149, 2^128).
class ExactSum {
public:
  static constexpr int kLsb = -320;
  static constexpr int kDigits = 20; // Up to 2^320.

  /// Adds \p value (finite, its set bits within the range).
  void add(double value) {
    if (value == 0)
      return;
    int exponent;
    double fraction = std::frexp(std::fabs(value), &exponent);
    // value = mantissa * 2^(exponent - 53), mantissa < 2^53.
    auto mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
    int shift = exponent - 53;
    while ((mantissa & 1) == 0) {
      mantissa >>= 1;
      ++shift;
    }
    int position = shift - kLsb;
    assert(position >= 0 && position + 53 <= 32 * kDigits &&
           "term outside the exact sum's range");
    int digit = position / 32, offset = position % 32;
    // mantissa << offset spans at most 85 bits: three digits.
    uint64_t low = mantissa << offset;
    uint64_t high = offset ? mantissa >> (64 - offset) : 0;
    int64_t parts[3] = {static_cast<int64_t>(low & 0xFFFFFFFFu),
                        static_cast<int64_t>(low >> 32),
                        static_cast<int64_t>(high)};
    for (int i = 0; i < 3 && digit + i < kDigits; ++i)
      digits[digit + i] += value < 0 ? -parts[i] : parts[i];
  }

  /// Returns the sum rounded to nearest-even f32 (subnormals kept, +-Inf
  /// from 2^128 on); an exact zero is -0 if \p negativeZero, else +0.
  float round(bool negativeZero) const {
    std::array<int64_t, kDigits> d = digits;
    normalize(d);
    bool negative = d[kDigits - 1] < 0;
    if (negative) {
      for (int64_t &digit : d)
        digit = -digit;
      normalize(d);
    }
    int top = -1;
    for (int i = kDigits - 1; i >= 0 && top < 0; --i)
      for (int b = 31; b >= 0; --b)
        if ((d[i] >> b) & 1) {
          top = 32 * i + b;
          break;
        }
    if (top < 0)
      return negativeZero ? -0.0f : 0.0f;
    auto bit = [&](int i) -> uint64_t {
      return i < 0 ? 0 : (static_cast<uint64_t>(d[i / 32]) >> (i % 32)) & 1;
    };
    // 24 significant bits, none below 2^-149.
    int lsb = std::max(top - 23, -149 - kLsb);
    uint64_t q = 0;
    for (int i = top; i >= lsb; --i)
      q = (q << 1) | bit(i);
    bool half = bit(lsb - 1) != 0;
    bool rest = false;
    for (int i = lsb - 2; i >= 0 && !rest; --i)
      rest = bit(i) != 0;
    if (half && (rest || (q & 1)))
      ++q;
    double value = std::ldexp(static_cast<double>(q), lsb + kLsb);
    float result = value >= 0x1p128 ? std::numeric_limits<float>::infinity()
                                    : static_cast<float>(value);
    return negative ? -result : result;
  }

private:
  static void normalize(std::array<int64_t, kDigits> &d) {
    for (int i = 0; i + 1 < kDigits; ++i) {
      // Floor division by 2^32 for either sign.
      int64_t carry = (d[i] - (d[i] & 0xFFFFFFFF)) / (int64_t(1) << 32);
      d[i] &= 0xFFFFFFFF;
      d[i + 1] += carry;
    }
  }

  std::array<int64_t, kDigits> digits = {};
};

/// The operands of one output, gathered in K order.
struct OutputOperands {
  std::vector<double> products; ///< Scaled products, K order (exact).
  std::vector<int> exponents;   ///< e(a) + e(b) + sA + sB (CDNA3Grouped).
};

/// Returns e(x) of an element value (nonzero, finite) of format \p f.
int elementExponent(ElemFormat f, double x) {
  int minNormal = std::ilogb(getFormatInfo(f).minNormal);
  return std::max(std::ilogb(x), minNormal);
}

/// One instruction with Exact arithmetic: acc + products[begin, end).
float exactStep(const std::vector<double> &products, int64_t begin, int64_t end,
                float acc) {
  bool anyNaN = std::isnan(acc), posInf = acc == INFINITY,
       negInf = acc == -INFINITY;
  bool allNegativeZero = acc == 0 && std::signbit(acc);
  ExactSum sum;
  if (std::isfinite(acc))
    sum.add(acc);
  for (int64_t k = begin; k < end; ++k) {
    double p = products[k];
    anyNaN |= std::isnan(p);
    posInf |= p == INFINITY;
    negInf |= p == -INFINITY;
    allNegativeZero &= p == 0 && std::signbit(p);
    if (std::isfinite(p))
      sum.add(p);
  }
  if (anyNaN || (posInf && negInf))
    return std::numeric_limits<float>::quiet_NaN();
  if (posInf || negInf)
    return posInf ? INFINITY : -INFINITY;
  return sum.round(allNegativeZero);
}

/// One group of CDNA3Grouped arithmetic: acc + products[begin, begin + 16).
float groupedStep(const OutputOperands &ops, int64_t begin, float acc) {
  constexpr int kGroup = 16;
  bool anyNaN = std::isnan(acc), posInf = acc == INFINITY,
       negInf = acc == -INFINITY;
  for (int64_t k = begin; k < begin + kGroup; ++k) {
    double p = ops.products[k];
    anyNaN |= std::isnan(p);
    posInf |= p == INFINITY;
    negInf |= p == -INFINITY;
  }
  if (anyNaN || (posInf && negInf))
    return std::numeric_limits<float>::quiet_NaN();
  if (posInf || negInf)
    return posInf ? INFINITY : -INFINITY;

  // The two halves: even and odd positions.
  bool present[2] = {false, false};
  int maxExp[2] = {0, 0};
  for (int64_t t = 0; t < kGroup; ++t) {
    if (ops.products[begin + t] == 0)
      continue;
    int h = t % 2, e = ops.exponents[begin + t];
    maxExp[h] = present[h] ? std::max(maxExp[h], e) : e;
    present[h] = true;
  }
  if (!present[0] && !present[1])
    return acc;
  double halfSum[2] = {0, 0};
  for (int64_t t = 0; t < kGroup; ++t) {
    double p = ops.products[begin + t];
    if (p != 0)
      halfSum[t % 2] += std::trunc(std::ldexp(p, 24 - maxExp[t % 2]));
  }
  int groupExp = present[0] && present[1] ? std::max(maxExp[0], maxExp[1])
                 : present[0]             ? maxExp[0]
                                          : maxExp[1];
  double s = 0; // In units of 2^(groupExp - 24).
  for (int h = 0; h < 2; ++h)
    if (present[h])
      s += std::floor(std::ldexp(halfSum[h], maxExp[h] - groupExp));

  double total;
  int totalExp; // total is in units of 2^totalExp.
  if (acc == 0) {
    total = s;
    totalExp = groupExp - 24;
  } else {
    int accExp = std::max(std::ilogb(acc), -126);
    int top = std::max(groupExp, accExp);
    total = std::floor(std::ldexp(s, 7 - (top - groupExp)));
    if (accExp >= top - 25)
      total += 128 * std::floor(std::ldexp(static_cast<double>(acc), 24 - top));
    totalExp = top - 31;
  }
  if (total == 0)
    return 0.0f;
  double value = std::ldexp(total, totalExp);
  if (std::fabs(value) >= 0x1p128)
    return value > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(value);
}

} // namespace

/// Calls \p fn(m, n, operands) for every output with its scaled products (and
/// CDNA3Grouped exponents when \p exponents) in K order.
template <typename Fn>
static void forEachOutput(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                          const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                          int64_t M, int64_t N, int64_t K, bool bTransposed,
                          int64_t length, bool exponents, Fn fn) {
  assert(K % 32 == 0 && "K must be a multiple of 32");
  int64_t numBlocks = K / 32;
  static const std::array<std::array<double, 256>, 5> tables = [] {
    std::array<std::array<double, 256>, 5> t;
    for (int f = 0; f < 5; ++f)
      for (int code = 0; code < 256; ++code)
        t[f][code] =
            decode(static_cast<ElemFormat>(f), static_cast<uint8_t>(code));
    return t;
  }();
  const std::array<double, 256> &decodeA = tables[static_cast<int>(fa)];
  const std::array<double, 256> &decodeB = tables[static_cast<int>(fb)];
  OutputOperands ops;
  ops.products.assign(length, 0.0);
  ops.exponents.assign(exponents ? length : 0, 0);
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t k = 0; k < K; ++k) {
        int64_t blk = k / 32;
        double x = decodeA[a[m * K + k]];
        double y = decodeB[b[bTransposed ? n * K + k : k * N + n]];
        double scaleA = decodeScale(sa[m * numBlocks + blk]);
        double scaleB =
            decodeScale(sb[bTransposed ? n * numBlocks + blk : blk * N + n]);
        ops.products[k] = x * y * scaleA * scaleB;
        if (exponents && x != 0 && y != 0 && std::isfinite(x * y) &&
            std::isfinite(scaleA * scaleB))
          ops.exponents[k] = elementExponent(fa, x) + elementExponent(fb, y) +
                             std::ilogb(scaleA) + std::ilogb(scaleB);
      }
      fn(m, n, ops);
    }
  }
}

std::vector<float> mx::ref::scaledMatmulPerInstruction(
    const uint8_t *a, const uint8_t *sa, ElemFormat fa, const uint8_t *b,
    const uint8_t *sb, ElemFormat fb, int64_t M, int64_t N, int64_t K,
    bool bTransposed, const float *acc, const InstructionOrder &order) {
  assert(order.kStep > 0 && order.kStep % 32 == 0 &&
         "an instruction takes whole K-blocks");
  int64_t kStep = order.kStep;
  int64_t padded = std::max(order.paddedK, K);
  padded = (padded + kStep - 1) / kStep * kStep;
  bool grouped = order.arithmetic == InstructionArithmetic::CDNA3Grouped;
  std::vector<float> result(M * N);
  // Products beyond K stay +0 (ops.products is sized `padded`).
  forEachOutput(a, sa, fa, b, sb, fb, M, N, K, bTransposed, padded, grouped,
                [&](int64_t m, int64_t n, const OutputOperands &ops) {
                  float value = acc ? acc[m * N + n] : 0.0f;
                  for (int64_t begin = 0; begin < padded; begin += kStep) {
                    if (!grouped) {
                      value =
                          exactStep(ops.products, begin, begin + kStep, value);
                      continue;
                    }
                    for (int64_t g = begin; g < begin + kStep; g += 16)
                      value = groupedStep(ops, g, value);
                  }
                  result[m * N + n] = value;
                });
  return result;
}

std::vector<double>
mx::ref::scaledMatmulAbsSum(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                            const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                            int64_t M, int64_t N, int64_t K, bool bTransposed,
                            const float *acc) {
  std::vector<double> result(M * N);
  forEachOutput(a, sa, fa, b, sb, fb, M, N, K, bTransposed, K,
                /*exponents=*/false,
                [&](int64_t m, int64_t n, const OutputOperands &ops) {
                  double sum = acc ? std::fabs(acc[m * N + n]) : 0.0;
                  for (double p : ops.products)
                    sum += std::fabs(p);
                  result[m * N + n] = sum;
                });
  return result;
}
