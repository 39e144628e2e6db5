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
//     (ref::ExactSum) and rounds that once;
//   - CDNA3Grouped works on doubles with exact power-of-two scaling
//     (std::ldexp), std::trunc and std::floor: every intermediate is an
//     integer below 2^40 times a power of two, so no double operation
//     rounds, and the final conversion to float is the one rounding.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "Internal.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace mx::ref;

namespace {

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

/// Returns \p value (the exact sum) rounded to f32; +-Inf from the
/// rounding threshold 2^128 - 2^103 on.
float toFloat(double value) {
  if (std::fabs(value) >= 0x1p128 - 0x1p103)
    return value > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(value);
}

/// One instruction with Exact arithmetic: acc + products[0, count), for any
/// inputs (NaN, Inf, signed zeros, any exponent spread).
float exactStep(const double *products, int64_t count, float acc) {
  ExactSum sum;
  sum.add(acc);
  for (int64_t k = 0; k < count; ++k)
    sum.add(products[k]);
  return sum.round();
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

/// Returns the value of every 8-bit code of \p f.
static const std::array<double, 256> &getDecodeTable(ElemFormat f) {
  static const std::array<std::array<double, 256>, 5> tables = [] {
    std::array<std::array<double, 256>, 5> t;
    for (int format = 0; format < 5; ++format)
      for (int code = 0; code < 256; ++code)
        t[format][code] =
            decode(static_cast<ElemFormat>(format), static_cast<uint8_t>(code));
    return t;
  }();
  return tables[static_cast<int>(f)];
}

/// Calls \p fn(m, n, operands) for every output with its scaled products (and
/// CDNA3Grouped exponents when \p exponents) in K order.
template <typename Fn>
static void forEachOutput(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                          const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                          int64_t M, int64_t N, int64_t K, bool bTransposed,
                          int64_t length, bool exponents, Fn fn) {
  assert(K % 32 == 0 && "K must be a multiple of 32");
  int64_t numBlocks = K / 32;
  const std::array<double, 256> &decodeA = getDecodeTable(fa);
  const std::array<double, 256> &decodeB = getDecodeTable(fb);
  OutputOperands ops;
  ops.products.assign(length, 0.0);
  ops.exponents.assign(exponents ? length : 0, 0);
  std::vector<double> scales(numBlocks);
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t blk = 0; blk < numBlocks; ++blk) {
        double scaleA = decodeScale(sa[m * numBlocks + blk]);
        double scaleB =
            decodeScale(sb[bTransposed ? n * numBlocks + blk : blk * N + n]);
        scales[blk] = scaleA * scaleB;
      }
      for (int64_t k = 0; k < K; ++k) {
        double x = decodeA[a[m * K + k]];
        double y = decodeB[b[bTransposed ? n * K + k : k * N + n]];
        double scale = scales[k / 32];
        ops.products[k] = x * y * scale;
        if (exponents && x != 0 && y != 0 && std::isfinite(x * y) &&
            std::isfinite(scale))
          ops.exponents[k] = elementExponent(fa, x) + elementExponent(fb, y) +
                             std::ilogb(scale);
      }
      fn(m, n, ops);
    }
  }
}

/// The value of one output computed instruction by instruction in K order
/// from \p acc: the K range [0, padded) in instructions of kStep, in \p parts
/// parts that each start at +0 and are added to acc in order (one part:
/// the instructions start from acc). \p step(begin, end, value) returns the
/// value after the instruction over K [begin, begin + kStep), whose
/// products from \p end on are +0.
template <typename Step>
static float runInstructions(float acc, int64_t K, int64_t kStep,
                             int64_t padded, int64_t parts, Step step) {
  int64_t partK = padded / parts;
  float total = acc;
  float value = parts > 1 ? 0.0f : total;
  for (int64_t begin = 0; begin < padded; begin += kStep) {
    if (parts > 1 && begin > 0 && begin % partK == 0) {
      total = total + value;
      value = 0.0f;
    }
    value = step(begin, std::min(begin + kStep, K), value);
  }
  return parts > 1 ? total + value : value;
}

/// scaledMatmulPerInstruction with Exact arithmetic, summed in double. Per
/// instruction, a fast path sums in double: every term is a multiple of 2^lsb
/// (the formats' smallest subnormals times the block's scales, or the
/// accumulator's last bit), so when the sum of the magnitudes is below
/// 2^(lsb + 52) every partial sum is exact and the one conversion to float is
/// the rounding. Anything else (NaN/Inf, a zero sum of zeros, a wider spread)
/// is summed exactly by exactStep. Used for the format pairs whose block dot
/// products do not fit integerPerInstruction (E5M2 with E5M2 or E4M3).
static std::vector<float>
doublePerInstruction(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                     const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                     int64_t M, int64_t N, int64_t K, bool bTransposed,
                     const float *acc, int64_t kStep, int64_t padded,
                     int64_t parts, std::vector<double> *absSums) {
  int64_t numBlocks = K / 32;
  const std::array<double, 256> &decodeA = getDecodeTable(fa);
  const std::array<double, 256> &decodeB = getDecodeTable(fb);
  int unitExp = std::ilogb(getFormatInfo(fa).minSubnormal) +
                std::ilogb(getFormatInfo(fb).minSubnormal);
  std::vector<float> result(M * N);
  std::vector<double> bColumn(K), scales(numBlocks), products(kStep);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t k = 0; k < K; ++k)
      bColumn[k] = decodeB[b[bTransposed ? n * K + k : k * N + n]];
    for (int64_t m = 0; m < M; ++m) {
      const uint8_t *aRow = a + m * K;
      for (int64_t blk = 0; blk < numBlocks; ++blk)
        scales[blk] =
            decodeScale(sa[m * numBlocks + blk]) *
            decodeScale(sb[bTransposed ? n * numBlocks + blk : blk * N + n]);
      float initial = acc ? acc[m * N + n] : 0.0f;
      double absSum = std::fabs(initial);
      auto step = [&](int64_t begin, int64_t end, float value) {
        double sum = 0, magnitude = 0;
        int lsb = std::numeric_limits<int>::max();
        if (value != 0) {
          sum = value;
          magnitude = std::fabs(value);
          if (std::isfinite(value))
            lsb = std::ilogb(value) - 23;
        }
        bool finiteScales = true;
        for (int64_t blk = begin / 32; blk < end / 32; ++blk) {
          double blockSum = 0, blockMagnitude = 0;
          for (int64_t k = blk * 32; k < blk * 32 + 32; ++k) {
            double p = decodeA[aRow[k]] * bColumn[k];
            blockSum += p;
            blockMagnitude += std::fabs(p);
          }
          sum += blockSum * scales[blk];
          magnitude += blockMagnitude * scales[blk];
          absSum += blockMagnitude * scales[blk];
          finiteScales &= std::isfinite(scales[blk]);
          if (std::isfinite(scales[blk]))
            lsb = std::min(lsb, unitExp + std::ilogb(scales[blk]));
        }
        if (finiteScales && std::isfinite(magnitude) && magnitude > 0 &&
            lsb != std::numeric_limits<int>::max() &&
            magnitude < std::ldexp(1.0, lsb + 52))
          return sum == 0 ? 0.0f : toFloat(sum);
        // Products beyond K are +0.
        for (int64_t k = begin; k < begin + kStep; ++k)
          products[k - begin] =
              k < end ? decodeA[aRow[k]] * bColumn[k] * scales[k / 32] : 0.0;
        return exactStep(products.data(), kStep, value);
      };
      result[m * N + n] =
          runInstructions(initial, K, kStep, padded, parts, step);
      if (absSums)
        (*absSums)[m * N + n] = absSum;
    }
  }
  return result;
}

namespace {

/// Returns 2^e for a normal double exponent \p e (-1022 <= e <= 1023).
inline double getPowerOfTwo(int e) {
  assert(e >= -1022 && e <= 1023 && "not a normal double");
  uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

/// Returns the exponent of the last significand bit of the finite f32
/// \p x: every f32 of its binade (or, subnormal, every f32 below 2^-126) is
/// a multiple of 2^result.
inline int getLastBitExponent(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  int biased = static_cast<int>((bits >> 23) & 0xFF);
  return std::max(biased, 1) - 127 - 23;
}

/// The element codes of a format as integers: multiples of the format's
/// smallest subnormal (2^unitExp), so that a block's dot product is an exact
/// integer in units of 2^(unitExp(A) + unitExp(B)).
struct UnitTable {
  std::array<int64_t, 256> units; ///< value / 2^unitExp (0 for NaN/Inf).
  std::array<bool, 256> finite;   ///< The code is neither NaN nor Inf.
  int64_t maxUnits;               ///< max |units| over the finite codes.
  int unitExp;                    ///< log2 of the smallest subnormal.
};

/// Returns the UnitTable of \p f, built from getDecodeTable and FormatInfo.
const UnitTable &getUnitTable(ElemFormat f) {
  static const std::array<UnitTable, 5> tables = [] {
    std::array<UnitTable, 5> t;
    for (int format = 0; format < 5; ++format) {
      auto f = static_cast<ElemFormat>(format);
      UnitTable &table = t[format];
      table.unitExp = std::ilogb(getFormatInfo(f).minSubnormal);
      table.maxUnits = 0;
      for (int code = 0; code < 256; ++code) {
        double value = getDecodeTable(f)[code];
        table.finite[code] = std::isfinite(value);
        // Exact: value is a multiple of 2^unitExp below 2^32 units.
        table.units[code] =
            table.finite[code]
                ? static_cast<int64_t>(std::ldexp(value, -table.unitExp))
                : 0;
        table.maxUnits = std::max(table.maxUnits, std::abs(table.units[code]));
      }
    }
    return t;
  }();
  return tables[static_cast<int>(f)];
}

/// Returns sum_k x[k] * y[k] over one block of 32 elements. The caller
/// guarantees that no sum overflows Sum; then any order is exact, and the
/// loop is vectorized: int16 units with int32 sums as one 32-lane vector
/// (multiply-adds of 8 pairs per SSE2 instruction, no loop), wider units as
/// the vectorizer sees fit (not unrolled first: it would vectorize worse).
template <typename Unit, typename Sum>
Sum blockDot(const Unit *x, const Unit *y) {
  Sum sum = 0;
  if constexpr (sizeof(Unit) == 2) {
#pragma clang loop vectorize_width(32) unroll(disable)
    for (int k = 0; k < 32; ++k)
      sum += static_cast<Sum>(x[k]) * static_cast<Sum>(y[k]);
  } else {
#pragma clang loop vectorize(enable) unroll(disable)
    for (int k = 0; k < 32; ++k)
      sum += static_cast<Sum>(x[k]) * static_cast<Sum>(y[k]);
  }
  return sum;
}

} // namespace

/// The codes of \p rows rows of K elements as units of \p table (and their
/// absolute values), and per K-block of 32 whether integerPerInstruction may
/// take it: finite elements and a finite scale (\p scales, [rows, K/32]).
template <typename Unit>
static void toUnits(const uint8_t *codes, const uint8_t *scales,
                    const UnitTable &table, int64_t rows, int64_t K,
                    std::vector<Unit> &units, std::vector<Unit> &absUnits,
                    std::vector<uint8_t> &usable) {
  int64_t numBlocks = K / 32;
  units.resize(rows * K);
  absUnits.resize(rows * K);
  usable.resize(rows * numBlocks);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t blk = 0; blk < numBlocks; ++blk) {
      bool finite = scales[r * numBlocks + blk] != 0xFF;
      for (int64_t k = blk * 32; k < blk * 32 + 32; ++k) {
        uint8_t code = codes[r * K + k];
        units[r * K + k] = static_cast<Unit>(table.units[code]);
        absUnits[r * K + k] = static_cast<Unit>(std::abs(table.units[code]));
        finite &= table.finite[code];
      }
      usable[r * numBlocks + blk] = finite;
    }
  }
}

/// scaledMatmulPerInstruction with Exact arithmetic for B as [N, K] (codes)
/// and [N, K/32] (scales), with every block's dot product as an exact integer:
/// elements are held as Unit (UnitTable's units) and block sums as Sum, which
/// the caller chooses so that 32 * maxUnits(fa) * maxUnits(fb) fits Sum and
/// is below 2^53 (so that a block sum converts to double exactly, and so does
/// each partial sum of the double path it replaces: the abs sums are the same
/// doubles).
///
/// Per instruction, a fast path adds the accumulator and the block sums times
/// their scales in double: every term is a multiple of 2^lsb (a unit of the
/// block sums times the block's scales, or the accumulator's last bit), so
/// when |acc| + sum |block term| is below 2^(lsb + 52) every partial sum is
/// exact and the one conversion to float is the rounding. An instruction with
/// a NaN/Inf element or a NaN scale, an exact zero from zero terms (its sign)
/// or a wider spread is summed exactly by exactStep, as before.
template <typename Unit, typename Sum>
static std::vector<float>
integerPerInstruction(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                      const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                      int64_t M, int64_t N, int64_t K, const float *acc,
                      int64_t kStep, int64_t padded, int64_t parts,
                      std::vector<double> *absSums) {
  int64_t numBlocks = K / 32;
  const std::array<double, 256> &decodeA = getDecodeTable(fa);
  const std::array<double, 256> &decodeB = getDecodeTable(fb);
  const UnitTable &unitsA = getUnitTable(fa), &unitsB = getUnitTable(fb);
  int unitExp = unitsA.unitExp + unitsB.unitExp;

  // The elements as units, once, and per block whether the integer path may
  // take it.
  std::vector<Unit> aUnits, bUnits, aAbsUnits, bAbsUnits;
  std::vector<uint8_t> aUsable, bUsable;
  toUnits(a, sa, unitsA, M, K, aUnits, aAbsUnits, aUsable);
  toUnits(b, sb, unitsB, N, K, bUnits, bAbsUnits, bUsable);

  // unitValue[sA + sB]: the value of one unit of a block sum with scale bytes
  // sA and sB (both below 0xFF), 2^(unitExp + sA + sB - 254).
  std::array<double, 2 * 254 + 1> unitValue;
  for (int s = 0; s <= 2 * 254; ++s)
    unitValue[s] = getPowerOfTwo(unitExp + s - 254);

  std::vector<float> result(M * N);
  std::vector<Sum> blockSums(numBlocks), blockAbsSums(numBlocks);
  std::vector<double> products(kStep);
  // Outputs in tiles of kTileN columns, so that the tile's rows of B stay in
  // cache while each row of A is used kTileN times.
  constexpr int64_t kTileN = 16;
  for (int64_t tile = 0; tile < N; tile += kTileN) {
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = tile; n < std::min(tile + kTileN, N); ++n) {
        const uint8_t *saRow = sa + m * numBlocks, *sbRow = sb + n * numBlocks;
        for (int64_t blk = 0; blk < numBlocks; ++blk)
          blockSums[blk] = blockDot<Unit, Sum>(&aUnits[m * K + blk * 32],
                                               &bUnits[n * K + blk * 32]);
        if (absSums)
          for (int64_t blk = 0; blk < numBlocks; ++blk)
            blockAbsSums[blk] = blockDot<Unit, Sum>(
                &aAbsUnits[m * K + blk * 32], &bAbsUnits[n * K + blk * 32]);
        // The scale of block blk (decoded only where exactStep needs it).
        auto scale = [&](int64_t blk) {
          return decodeScale(saRow[blk]) * decodeScale(sbRow[blk]);
        };
        float initial = acc ? acc[m * N + n] : 0.0f;
        double absSum = std::fabs(initial);
        auto step = [&](int64_t begin, int64_t end, float value) {
          // The block terms first: only the last addition waits for the
          // previous instruction's value.
          double blockTotal = 0, magnitude = 0;
          int lsb = std::numeric_limits<int>::max();
          bool usable = true;
          for (int64_t blk = begin / 32; blk < end / 32; ++blk) {
            if (!aUsable[m * numBlocks + blk] ||
                !bUsable[n * numBlocks + blk]) {
              usable = false;
              if (absSums) {
                // As scaledMatmulAbsSum: Inf or NaN.
                double blockMagnitude = 0;
                for (int64_t k = blk * 32; k < blk * 32 + 32; ++k)
                  blockMagnitude +=
                      std::fabs(decodeA[a[m * K + k]] * decodeB[b[n * K + k]]);
                absSum += blockMagnitude * scale(blk);
              }
              continue;
            }
            int scales = saRow[blk] + sbRow[blk];
            double term =
                static_cast<double>(blockSums[blk]) * unitValue[scales];
            blockTotal += term;
            magnitude += std::fabs(term);
            if (absSums)
              absSum +=
                  static_cast<double>(blockAbsSums[blk]) * unitValue[scales];
            lsb = std::min(lsb, unitExp + scales - 254);
          }
          if (value != 0) {
            magnitude += std::fabs(value);
            if (std::isfinite(value))
              lsb = std::min(lsb, getLastBitExponent(value));
          }
          if (usable && std::isfinite(magnitude) && magnitude > 0 &&
              lsb != std::numeric_limits<int>::max() &&
              magnitude < getPowerOfTwo(lsb + 52)) {
            double sum = value + blockTotal;
            return sum == 0 ? 0.0f : toFloat(sum);
          }
          // Products beyond K are +0.
          for (int64_t k = begin; k < begin + kStep; ++k)
            products[k - begin] = k < end ? decodeA[a[m * K + k]] *
                                                decodeB[b[n * K + k]] *
                                                scale(k / 32)
                                          : 0.0;
          return exactStep(products.data(), kStep, value);
        };
        result[m * N + n] =
            runInstructions(initial, K, kStep, padded, parts, step);
        if (absSums)
          (*absSums)[m * N + n] = absSum;
      }
    }
  }
  return result;
}

/// scaledMatmulPerInstruction with Exact arithmetic: integerPerInstruction
/// with the narrowest integer types that hold the format pair's block sums,
/// doublePerInstruction where no int64 block sum below 2^53 does.
static std::vector<float>
exactPerInstruction(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                    const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                    int64_t M, int64_t N, int64_t K, bool bTransposed,
                    const float *acc, int64_t kStep, int64_t padded,
                    int64_t parts, std::vector<double> *absSums) {
  int64_t numBlocks = K / 32;
  if (!bTransposed) {
    // B and its scales as [N, K] and [N, K/32].
    std::vector<uint8_t> bt(N * K), sbt(N * numBlocks);
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t k = 0; k < K; ++k)
        bt[n * K + k] = b[k * N + n];
      for (int64_t blk = 0; blk < numBlocks; ++blk)
        sbt[n * numBlocks + blk] = sb[blk * N + n];
    }
    return exactPerInstruction(a, sa, fa, bt.data(), sbt.data(), fb, M, N, K,
                               /*bTransposed=*/true, acc, kStep, padded, parts,
                               absSums);
  }
  int64_t maxA = getUnitTable(fa).maxUnits, maxB = getUnitTable(fb).maxUnits;
  // Below 2^53 (maxUnits is at most 2^32), so exact.
  double maxBlockSum =
      32.0 * static_cast<double>(maxA) * static_cast<double>(maxB);
  if (std::max(maxA, maxB) <= std::numeric_limits<int16_t>::max() &&
      maxBlockSum <= std::numeric_limits<int32_t>::max())
    return integerPerInstruction<int16_t, int32_t>(
        a, sa, fa, b, sb, fb, M, N, K, acc, kStep, padded, parts, absSums);
  if (maxBlockSum < 0x1p53 &&
      std::max(maxA, maxB) <= std::numeric_limits<int32_t>::max())
    return integerPerInstruction<int32_t, int64_t>(
        a, sa, fa, b, sb, fb, M, N, K, acc, kStep, padded, parts, absSums);
  if (maxBlockSum < 0x1p53)
    return integerPerInstruction<int64_t, int64_t>(
        a, sa, fa, b, sb, fb, M, N, K, acc, kStep, padded, parts, absSums);
  return doublePerInstruction(a, sa, fa, b, sb, fb, M, N, K,
                              /*bTransposed=*/true, acc, kStep, padded, parts,
                              absSums);
}

/// Returns in \p padded the K that \p order's instructions cover (paddedK,
/// at least K, rounded up to whole instructions) and in \p parts its number
/// of parts (at least 1).
static void getInstructionSpan(const InstructionOrder &order, int64_t K,
                               int64_t &padded, int64_t &parts) {
  assert(order.kStep > 0 && order.kStep % 32 == 0 &&
         "an instruction takes whole K-blocks");
  assert(K % 32 == 0 && "K must be a multiple of 32");
  int64_t kStep = order.kStep;
  padded = std::max(order.paddedK, K);
  padded = (padded + kStep - 1) / kStep * kStep;
  parts = std::max<int64_t>(1, order.parts);
  assert(padded % (parts * kStep) == 0 &&
         "every part takes whole instructions");
}

std::vector<float> mx::ref::scaledMatmulPerInstruction(
    const uint8_t *a, const uint8_t *sa, ElemFormat fa, const uint8_t *b,
    const uint8_t *sb, ElemFormat fb, int64_t M, int64_t N, int64_t K,
    bool bTransposed, const float *acc, const InstructionOrder &order,
    std::vector<double> *absSums) {
  int64_t kStep = order.kStep, padded, parts;
  getInstructionSpan(order, K, padded, parts);
  if (absSums)
    absSums->assign(M * N, 0.0);
  if (order.arithmetic == InstructionArithmetic::Exact)
    return exactPerInstruction(a, sa, fa, b, sb, fb, M, N, K, bTransposed, acc,
                               kStep, padded, parts, absSums);
  if (absSums)
    *absSums =
        scaledMatmulAbsSum(a, sa, fa, b, sb, fb, M, N, K, bTransposed, acc);
  std::vector<float> result(M * N);
  // Products beyond K stay +0 (ops.products is sized `padded`).
  forEachOutput(a, sa, fa, b, sb, fb, M, N, K, bTransposed, padded,
                /*exponents=*/true,
                [&](int64_t m, int64_t n, const OutputOperands &ops) {
                  // Groups of 16 products (see groupedStep).
                  result[m * N + n] = runInstructions(
                      acc ? acc[m * N + n] : 0.0f, K, /*kStep=*/16, padded,
                      parts, [&](int64_t g, int64_t, float value) {
                        return groupedStep(ops, g, value);
                      });
                });
  return result;
}

std::vector<float> mx::ref::detail::exactStepsPerInstruction(
    const uint8_t *a, const uint8_t *sa, ElemFormat fa, const uint8_t *b,
    const uint8_t *sb, ElemFormat fb, int64_t M, int64_t N, int64_t K,
    bool bTransposed, const float *acc, const InstructionOrder &order) {
  int64_t kStep = order.kStep, padded, parts;
  getInstructionSpan(order, K, padded, parts);
  std::vector<float> result(M * N);
  // Products beyond K stay +0 (ops.products is sized `padded`).
  forEachOutput(a, sa, fa, b, sb, fb, M, N, K, bTransposed, padded,
                /*exponents=*/false,
                [&](int64_t m, int64_t n, const OutputOperands &ops) {
                  result[m * N + n] = runInstructions(
                      acc ? acc[m * N + n] : 0.0f, K, kStep, padded, parts,
                      [&](int64_t begin, int64_t, float value) {
                        return exactStep(&ops.products[begin], kStep, value);
                      });
                });
  return result;
}

std::vector<double>
mx::ref::scaledMatmulAbsSum(const uint8_t *a, const uint8_t *sa, ElemFormat fa,
                            const uint8_t *b, const uint8_t *sb, ElemFormat fb,
                            int64_t M, int64_t N, int64_t K, bool bTransposed,
                            const float *acc) {
  assert(K % 32 == 0 && "K must be a multiple of 32");
  int64_t numBlocks = K / 32;
  std::array<double, 256> absA = getDecodeTable(fa), absB = getDecodeTable(fb);
  for (int code = 0; code < 256; ++code) {
    absA[code] = std::fabs(absA[code]);
    absB[code] = std::fabs(absB[code]);
  }
  std::vector<double> result(M * N), bColumn(K);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t k = 0; k < K; ++k)
      bColumn[k] = absB[b[bTransposed ? n * K + k : k * N + n]];
    for (int64_t m = 0; m < M; ++m) {
      double sum = acc ? std::fabs(acc[m * N + n]) : 0.0;
      for (int64_t blk = 0; blk < numBlocks; ++blk) {
        double blockSum = 0;
        for (int64_t k = blk * 32; k < blk * 32 + 32; ++k)
          blockSum += absA[a[m * K + k]] * bColumn[k];
        sum += blockSum * decodeScale(sa[m * numBlocks + blk]) *
               decodeScale(sb[bTransposed ? n * numBlocks + blk : blk * N + n]);
      }
      result[m * N + n] = sum;
    }
  }
  return result;
}
