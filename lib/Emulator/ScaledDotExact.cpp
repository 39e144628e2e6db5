//===- ScaledDotExact.cpp - the exact scaled dot product ------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The numerics of one output element of a scaled MFMA: the element formats
// decoded, wideScaledDot() (an exact 640-bit fixed-point dot product with one
// final round-to-nearest-even to f32) and exactScaledDot(), the same result
// from integer K-block sums combined in 128 bits where they fit. The lane
// layouts are in ScaledMFMA.cpp, the CDNA3-style grouped arithmetic in
// ScaledDotGrouped.cpp.
//
//===----------------------------------------------------------------------===//

#include "ScaledDot.h"

#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Element decoding
//===----------------------------------------------------------------------===//

namespace {

/// How the all-ones exponent field of a format is interpreted.
enum class Specials {
  None, ///< Ordinary finite values (fp6, fp4).
  FN,   ///< Only exponent and mantissa all ones is NaN (OCP E4M3 "FN").
  IEEE, ///< Mantissa 0 is Inf, anything else NaN (OCP E5M2).
};

/// The parameters an element format is decoded from.
struct FormatParams {
  int bits;
  int expBits;
  int manBits;
  int bias;
  Specials specials;
};

FormatParams getParams(SourceFormat fmt) {
  switch (fmt) {
  case SourceFormat::E4M3:
    return {8, 4, 3, 7, Specials::FN};
  case SourceFormat::E5M2:
    return {8, 5, 2, 15, Specials::IEEE};
  case SourceFormat::E2M3:
    return {6, 2, 3, 1, Specials::None};
  case SourceFormat::E3M2:
    return {6, 3, 2, 3, Specials::None};
  case SourceFormat::E2M1:
    return {4, 2, 1, 1, Specials::None};
  }
  assert(false && "reserved source format code");
  return {4, 2, 1, 1, Specials::None};
}

Element decodeFromParams(const FormatParams &p, uint8_t code) {
  uint32_t c = code & ((1u << p.bits) - 1);
  Element e;
  e.negative = (c >> (p.bits - 1)) & 1;
  uint32_t expField = (c >> p.manBits) & ((1u << p.expBits) - 1);
  uint32_t manField = c & ((1u << p.manBits) - 1);
  uint32_t expOnes = (1u << p.expBits) - 1;
  uint32_t manOnes = (1u << p.manBits) - 1;
  if (p.specials == Specials::FN && expField == expOnes &&
      manField == manOnes) {
    e.kind = Element::NaN;
    return e;
  }
  if (p.specials == Specials::IEEE && expField == expOnes) {
    e.kind = manField == 0 ? Element::Inf : Element::NaN;
    return e;
  }
  if (expField == 0) {
    // Subnormal (or zero): M * 2^(1 - bias - m).
    e.mantissa = manField;
    e.exponent = 1 - p.bias - p.manBits;
  } else {
    // Normal: (2^m + M) * 2^(E - bias - m).
    e.mantissa = (1u << p.manBits) | manField;
    e.exponent = static_cast<int>(expField) - p.bias - p.manBits;
  }
  return e;
}

} // namespace

/// Returns the decoded value of every 8-bit code of \p fmt (higher bits than
/// the format width are ignored).
const DecodeTable &detail::getDecodeTable(SourceFormat fmt) {
  static const std::array<DecodeTable, 5> tables = [] {
    std::array<DecodeTable, 5> t;
    for (int f = 0; f < 5; ++f) {
      FormatParams p = getParams(static_cast<SourceFormat>(f));
      for (int code = 0; code < 256; ++code)
        t[f][code] = decodeFromParams(p, static_cast<uint8_t>(code));
    }
    return t;
  }();
  unsigned index = static_cast<unsigned>(fmt);
  assert(index < 5 && "reserved source format code");
  return tables[index];
}

int detail::getMantissaBits(SourceFormat fmt) { return getParams(fmt).manBits; }

namespace {

//===----------------------------------------------------------------------===//
// Exact fixed-point accumulator
//===----------------------------------------------------------------------===//

/// An unsigned fixed-point number of kLimbs 32-bit limbs with LSB weight
/// 2^kLsbExp. Every term of a scaled MFMA dot product is an integer
/// significand below 2^25 times 2^e with e >= -286 (products of E5M2
/// subnormals 2^-16 * 2^-16 times scales 2^-127 * 2^-127); every magnitude is
/// below 2^288 (E5M2 57344^2 * 2^254), C below 2^128, and at most 2^8 terms
/// are summed: 640 bits with LSB 2^-320 hold every sum exactly.
class FixedPoint {
public:
  static constexpr int kLimbs = 20;
  static constexpr int kBits = 32 * kLimbs;
  static constexpr int kLsbExp = -320;
  static_assert(-286 - kLsbExp >= 0, "smallest term below the LSB");
  static_assert(288 + 8 - kLsbExp <= kBits, "largest sum above the MSB");

  /// Adds mantissa * 2^exponent (mantissa < 2^32).
  void add(uint32_t mantissa, int exponent) {
    int pos = exponent - kLsbExp;
    assert(pos >= 0 && pos < kBits - 32 && "term outside the accumulator");
    int word = pos / 32;
    uint64_t shifted = static_cast<uint64_t>(mantissa) << (pos % 32);
    uint64_t carry = 0;
    uint64_t s = static_cast<uint64_t>(limbs[word]) + (shifted & 0xFFFFFFFFu);
    limbs[word] = static_cast<uint32_t>(s);
    carry = s >> 32;
    s = static_cast<uint64_t>(limbs[word + 1]) + (shifted >> 32) + carry;
    limbs[word + 1] = static_cast<uint32_t>(s);
    carry = s >> 32;
    for (int i = word + 2; carry && i < kLimbs; ++i) {
      s = static_cast<uint64_t>(limbs[i]) + carry;
      limbs[i] = static_cast<uint32_t>(s);
      carry = s >> 32;
    }
    assert(carry == 0 && "accumulator overflow");
  }

  /// Returns -1, 0 or 1 as *this <, ==, > other.
  int compare(const FixedPoint &other) const {
    for (int i = kLimbs - 1; i >= 0; --i)
      if (limbs[i] != other.limbs[i])
        return limbs[i] < other.limbs[i] ? -1 : 1;
    return 0;
  }

  /// *this -= other; requires *this >= other.
  void subtract(const FixedPoint &other) {
    uint64_t borrow = 0;
    for (int i = 0; i < kLimbs; ++i) {
      uint64_t s = static_cast<uint64_t>(limbs[i]) - other.limbs[i] - borrow;
      limbs[i] = static_cast<uint32_t>(s);
      borrow = (s >> 32) & 1;
    }
    assert(borrow == 0 && "negative difference");
  }

  /// Returns the index of the highest set bit, or -1 when zero.
  int topBit() const {
    for (int i = kLimbs - 1; i >= 0; --i)
      if (limbs[i])
        for (int b = 31; b >= 0; --b)
          if ((limbs[i] >> b) & 1)
            return 32 * i + b;
    return -1;
  }

  bool bit(int i) const { return i >= 0 && ((limbs[i / 32] >> (i % 32)) & 1); }

  /// Returns whether any bit with index below \p n is set.
  bool anyBelow(int n) const {
    if (n <= 0)
      return false;
    int word = n / 32;
    for (int i = 0; i < word; ++i)
      if (limbs[i])
        return true;
    int rem = n % 32;
    return rem && (limbs[word] & ((1u << rem) - 1));
  }

  /// Returns the magnitude rounded to nearest-even f32: subnormals kept,
  /// values that round to 2^128 or more give +Inf.
  float roundToFloat() const {
    int top = topBit();
    if (top < 0)
      return 0.0f;
    // f32 keeps 24 significant bits, and no bit below 2^-149.
    constexpr int kMinLsb = -149 - kLsbExp;
    int lsb = top - 23 > kMinLsb ? top - 23 : kMinLsb;
    uint32_t q = 0;
    for (int i = top; i >= lsb; --i)
      q = (q << 1) | (bit(i) ? 1u : 0u);
    bool roundBit = bit(lsb - 1);
    bool sticky = anyBelow(lsb - 1);
    if (roundBit && (sticky || (q & 1)))
      ++q; // May become 2^24 (or reach 2^-126 from a subnormal): still exact.
    int lsbExp = lsb + kLsbExp;
    // q < 2^25, so q * 2^lsbExp >= 2^128 iff bitLength(q) + lsbExp > 128.
    int qBits = 0;
    for (uint32_t v = q; v; v >>= 1)
      ++qBits;
    if (qBits + lsbExp > 128)
      return std::numeric_limits<float>::infinity();
    return std::ldexp(static_cast<float>(q), lsbExp);
  }

private:
  uint32_t limbs[kLimbs] = {};
};

} // namespace

double mlir::mx::emu::decodeElement(SourceFormat fmt, uint8_t code) {
  const Element &e = getDecodeTable(fmt)[code];
  if (e.kind == Element::NaN)
    return std::numeric_limits<double>::quiet_NaN();
  double magnitude =
      e.kind == Element::Inf
          ? std::numeric_limits<double>::infinity()
          : std::ldexp(static_cast<double>(e.mantissa), e.exponent);
  return e.negative ? -magnitude : magnitude;
}

//===----------------------------------------------------------------------===//
// Numerics
//===----------------------------------------------------------------------===//

float mlir::mx::emu::wideScaledDot(const ScaledDotInputs &in) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  assert(in.k % kScaleBlock == 0 && "K must be a multiple of 32");
  const DecodeTable &decodeA = getDecodeTable(in.fmtA);
  const DecodeTable &decodeB = getDecodeTable(in.fmtB);
  int numBlocks = in.k / kScaleBlock;

  // A NaN scale makes its block, hence the result, NaN whatever the data.
  for (int blk = 0; blk < numBlocks; ++blk)
    if (in.scaleA[blk] == 0xFF || in.scaleB[blk] == 0xFF)
      return kNaN;
  if (std::isnan(in.c))
    return kNaN;

  FixedPoint positive, negative;
  bool posInf = false, negInf = false;
  // IEEE sum-of-zeros rule: an exact zero is -0 only if every term is -0.
  bool allNegativeZero = true;
  bool anyNonZero = false;

  for (int blk = 0; blk < numBlocks; ++blk) {
    int scaleExp = (static_cast<int>(in.scaleA[blk]) - 127) +
                   (static_cast<int>(in.scaleB[blk]) - 127);
    for (int k = blk * kScaleBlock; k < (blk + 1) * kScaleBlock; ++k) {
      const Element &ea = decodeA[in.a[k]];
      const Element &eb = decodeB[in.b[k]];
      if (ea.kind == Element::NaN || eb.kind == Element::NaN)
        return kNaN;
      bool neg = ea.negative != eb.negative;
      if (ea.kind == Element::Inf || eb.kind == Element::Inf) {
        const Element &other = ea.kind == Element::Inf ? eb : ea;
        if (other.kind == Element::Finite && other.mantissa == 0)
          return kNaN; // Inf * 0.
        (neg ? negInf : posInf) = true;
        continue;
      }
      uint32_t mantissa = ea.mantissa * eb.mantissa;
      if (mantissa == 0) {
        allNegativeZero &= neg;
        continue;
      }
      anyNonZero = true;
      allNegativeZero = false;
      (neg ? negative : positive)
          .add(mantissa, ea.exponent + eb.exponent + scaleExp);
    }
  }

  // C, exactly: decompose the f32 bit pattern.
  uint32_t cBits;
  std::memcpy(&cBits, &in.c, sizeof(cBits));
  bool cNegative = cBits >> 31;
  uint32_t cExpField = (cBits >> 23) & 0xFF;
  uint32_t cManField = cBits & 0x7FFFFF;
  if (cExpField == 0xFF) {
    (cNegative ? negInf : posInf) = true;
  } else if (cExpField == 0 && cManField == 0) {
    allNegativeZero &= cNegative;
  } else {
    anyNonZero = true;
    allNegativeZero = false;
    uint32_t mantissa = cExpField ? (cManField | 0x800000u) : cManField;
    int exponent = cExpField ? static_cast<int>(cExpField) - 150 : -149;
    (cNegative ? negative : positive).add(mantissa, exponent);
  }

  if (posInf && negInf)
    return kNaN;
  if (posInf)
    return kInf;
  if (negInf)
    return -kInf;

  int cmp = positive.compare(negative);
  if (cmp == 0)
    return (!anyNonZero && allNegativeZero) ? -0.0f : 0.0f;
  if (cmp > 0) {
    positive.subtract(negative);
    return positive.roundToFloat();
  }
  negative.subtract(positive);
  return -negative.roundToFloat();
}

//===----------------------------------------------------------------------===//
// Fast exact path
//===----------------------------------------------------------------------===//
//
// Every element of a format is an integer multiple of the format's smallest
// subnormal 2^unitExp (E2M1 2^-1, E2M3 2^-3, E3M2 2^-4, E4M3 2^-9, E5M2
// 2^-16), at most 12, 60, 448, 229376 and 57344 * 2^16 < 2^32 units. So the
// 32 products of a K-block sum exactly to an integer below 32 * 2^64 = 2^69
// in units of 2^(unitExp(A) + unitExp(B)), and the block then weighs
// 2^(unitExp(A) + unitExp(B) + sA - 127 + sB - 127). What remains is C plus
// at most a few such terms: when their set bits span at most 127 - log2(n)
// bits (the usual case: scales that differ by less than about 2^60), one
// signed 128-bit integer holds the sum exactly and is rounded once. Any
// other case (specials, a NaN scale, a wider spread, an exact zero that may
// be -0) is left to the wide path, so both give the same bits everywhere.

/// Returns the integer table of \p fmt, built from its decode table.
const ScaledIntTable &detail::getScaledIntTable(SourceFormat fmt) {
  static const std::array<ScaledIntTable, 5> tables = [] {
    std::array<ScaledIntTable, 5> t;
    for (int f = 0; f < 5; ++f) {
      const DecodeTable &decode = getDecodeTable(static_cast<SourceFormat>(f));
      // Code 1 is the smallest subnormal of every format: mantissa 1.
      t[f].unitExp = decode[1].exponent;
      for (int code = 0; code < 256; ++code) {
        const Element &e = decode[code];
        t[f].special[code] = e.kind != Element::Finite;
        if (e.kind != Element::Finite)
          continue;
        int64_t units = static_cast<int64_t>(e.mantissa)
                        << (e.exponent - t[f].unitExp);
        t[f].value[code] = e.negative ? -units : units;
      }
    }
    return t;
  }();
  return tables[static_cast<unsigned>(fmt)];
}

namespace {

/// Returns the number of significant bits of \p v (0 for 0).
int bitLength(UInt128 v) {
  uint64_t high = static_cast<uint64_t>(v >> 64);
  uint64_t low = static_cast<uint64_t>(v);
  if (high)
    return 128 - __builtin_clzll(high);
  return low ? 64 - __builtin_clzll(low) : 0;
}

/// Returns the number of trailing zero bits of \p v != 0.
int trailingZeros(UInt128 v) {
  uint64_t low = static_cast<uint64_t>(v);
  if (low)
    return __builtin_ctzll(low);
  return 64 + __builtin_ctzll(static_cast<uint64_t>(v >> 64));
}

} // namespace

/// Returns \p magnitude * 2^lsbExp (magnitude != 0, below 2^127) rounded to
/// nearest-even f32: subnormals kept, values that round to 2^128 or more
/// give +Inf. The same rounding as FixedPoint::roundToFloat.
float detail::roundMagnitude(UInt128 magnitude, int lsbExp) {
  int top = bitLength(magnitude) - 1 + lsbExp; // Weight of the leading bit.
  // f32 keeps 24 significant bits, and no bit below 2^-149.
  int lsb = top - 23 > -149 ? top - 23 : -149;
  int shift = lsb - lsbExp;
  uint64_t q;
  if (shift <= 0) {
    q = static_cast<uint64_t>(magnitude) << -shift; // Below 2^24: exact.
  } else if (shift >= 128) {
    q = 0; // Below half of the smallest subnormal.
  } else {
    q = static_cast<uint64_t>(magnitude >> shift);
    UInt128 rest = magnitude & ((static_cast<UInt128>(1) << shift) - 1);
    UInt128 half = static_cast<UInt128>(1) << (shift - 1);
    if (rest > half || (rest == half && (q & 1)))
      ++q; // May become 2^24 (or reach 2^-126 from a subnormal): still exact.
  }
  if (q == 0)
    return 0.0f;
  if (bitLength(q) + lsb > 128)
    return std::numeric_limits<float>::infinity();
  return std::ldexp(static_cast<float>(q), lsb);
}

namespace {} // namespace

/// Computes C + sum_b sums[b] * 2^exps[b] (b < numBlocks <= kMaxFastBlocks,
/// |sums[b]| < 2^70) rounded once to f32 into \p result, when the nonzero
/// terms fit one 128-bit integer. Returns false, leaving the element to the
/// wide path, when they do not, when C is NaN or Inf, or when the exact sum
/// is zero with C = -0 (whose sign depends on the signs of the products).
bool detail::combineBlocks(const Int128 *sums, const int *exps, int numBlocks,
                           float c, float &result) {
  uint32_t cBits;
  std::memcpy(&cBits, &c, sizeof(cBits));
  uint32_t cExpField = (cBits >> 23) & 0xFF;
  uint32_t cManField = cBits & 0x7FFFFF;
  if (cExpField == 0xFF)
    return false;

  // The nonzero terms as odd magnitude * 2^exponent.
  struct Term {
    UInt128 magnitude;
    int exponent;
    bool negative;
  };
  Term terms[kMaxFastBlocks + 1];
  int numTerms = 0;
  int lo = std::numeric_limits<int>::max();
  int hi = std::numeric_limits<int>::min();
  auto addTerm = [&](UInt128 magnitude, int exponent, bool negative) {
    int zeros = trailingZeros(magnitude);
    magnitude >>= zeros;
    exponent += zeros;
    terms[numTerms++] = {magnitude, exponent, negative};
    lo = std::min(lo, exponent);
    hi = std::max(hi, exponent + bitLength(magnitude));
  };
  for (int blk = 0; blk < numBlocks; ++blk)
    if (sums[blk] != 0)
      addTerm(sums[blk] < 0 ? -static_cast<UInt128>(sums[blk])
                            : static_cast<UInt128>(sums[blk]),
              exps[blk], sums[blk] < 0);
  if (cExpField != 0 || cManField != 0)
    addTerm(cExpField ? (cManField | 0x800000u) : cManField,
            cExpField ? static_cast<int>(cExpField) - 150 : -149, cBits >> 31);
  if (numTerms == 0) {
    // Every block sums to zero and C is +-0: -0 only if C and every
    // product are -0, which the wide path works out.
    if (cBits >> 31)
      return false;
    result = 0.0f;
    return true;
  }
  // Each term is below 2^(hi - lo) units of 2^lo, the sum below numTerms
  // times that: it must stay below 2^127.
  if (hi - lo + bitLength(static_cast<UInt128>(numTerms)) > 127)
    return false;
  Int128 total = 0;
  for (int t = 0; t < numTerms; ++t) {
    Int128 v =
        static_cast<Int128>(terms[t].magnitude << (terms[t].exponent - lo));
    total += terms[t].negative ? -v : v;
  }
  // A zero sum of nonzero terms is +0 (IEEE sum rule under RNE).
  if (total == 0) {
    result = 0.0f;
    return true;
  }
  bool negative = total < 0;
  float magnitude = roundMagnitude(negative ? -static_cast<UInt128>(total)
                                            : static_cast<UInt128>(total),
                                   lo);
  result = negative ? -magnitude : magnitude;
  return true;
}

/// combineBlocks for block sums that fit 64 bits, in 64-bit integers and the
/// host's correctly rounded int64 -> f32 conversion where the sum allows (the
/// usual case); otherwise it defers to combineBlocks.
bool detail::combineSmallBlocks(const int64_t *sums, const int *exps,
                                int numBlocks, float c, float &result) {
  uint32_t cBits;
  std::memcpy(&cBits, &c, sizeof(cBits));
  uint32_t cExpField = (cBits >> 23) & 0xFF;
  uint32_t cManField = cBits & 0x7FFFFF;
  int64_t cMantissa = cExpField ? (cManField | 0x800000u) : cManField;
  int cExp = cExpField ? static_cast<int>(cExpField) - 150 : -149;
  if (cBits >> 31)
    cMantissa = -cMantissa;
  int lo = std::numeric_limits<int>::max();
  for (int blk = 0; blk < numBlocks; ++blk)
    if (sums[blk] != 0)
      lo = std::min(lo, exps[blk]);
  if (cMantissa != 0)
    lo = std::min(lo, cExp);
  // Each term must stay below 2^59 units of 2^lo, so that the sum of up to
  // kMaxFastBlocks + 1 of them stays below 2^63.
  auto fits = [&](int64_t value, int exponent) {
    uint64_t magnitude = value < 0 ? -static_cast<uint64_t>(value) : value;
    return exponent - lo < 59 &&
           64 - __builtin_clzll(magnitude | 1) + (exponent - lo) <= 59;
  };
  int64_t total = 0;
  bool small = cExpField != 0xFF && lo != std::numeric_limits<int>::max() &&
               (cMantissa == 0 || fits(cMantissa, cExp));
  for (int blk = 0; small && blk < numBlocks; ++blk) {
    if (sums[blk] == 0)
      continue;
    small = fits(sums[blk], exps[blk]);
    if (small)
      total += sums[blk] * (int64_t(1) << (exps[blk] - lo));
  }
  if (small && cMantissa != 0)
    total += cMantissa * (int64_t(1) << (cExp - lo));
  uint64_t magnitude = total < 0 ? -static_cast<uint64_t>(total) : total;
  // The leading bit's weight: below 2^-126 the result is subnormal and
  // would be rounded twice by the conversion below; from 2^127 on it may
  // overflow, which combineBlocks rounds.
  int top = 63 - __builtin_clzll(magnitude | 1) + lo;
  if (!small || total == 0 || top < -126 || top > 126 || lo < -1022) {
    Int128 wide[kMaxFastBlocks];
    for (int blk = 0; blk < numBlocks; ++blk)
      wide[blk] = sums[blk];
    return combineBlocks(wide, exps, numBlocks, c, result);
  }
  // One rounding to 24 bits (int64 -> f32 rounds to nearest-even), then an
  // exact scaling by 2^lo in double.
  double scale;
  uint64_t scaleBits = static_cast<uint64_t>(lo + 1023) << 52;
  std::memcpy(&scale, &scaleBits, sizeof(scale));
  result = static_cast<float>(static_cast<double>(static_cast<float>(total)) *
                              scale);
  return true;
}

namespace {

/// The weight of one unit of the block sums of K-block \p blk: 2^exponent.
int blockExponent(const ScaledIntTable &ta, const ScaledIntTable &tb,
                  uint8_t scaleA, uint8_t scaleB) {
  return ta.unitExp + tb.unitExp + (static_cast<int>(scaleA) - 127) +
         (static_cast<int>(scaleB) - 127);
}

} // namespace

float mlir::mx::emu::exactScaledDot(const ScaledDotInputs &in) {
  assert(in.k % kScaleBlock == 0 && "K must be a multiple of 32");
  int numBlocks = in.k / kScaleBlock;
  if (numBlocks > kMaxFastBlocks)
    return wideScaledDot(in);
  const ScaledIntTable &ta = getScaledIntTable(in.fmtA);
  const ScaledIntTable &tb = getScaledIntTable(in.fmtB);
  Int128 sums[kMaxFastBlocks];
  int exps[kMaxFastBlocks];
  for (int blk = 0; blk < numBlocks; ++blk) {
    if (in.scaleA[blk] == 0xFF || in.scaleB[blk] == 0xFF)
      return wideScaledDot(in);
    Int128 sum = 0;
    for (int k = blk * kScaleBlock; k < (blk + 1) * kScaleBlock; ++k) {
      if (ta.special[in.a[k]] || tb.special[in.b[k]])
        return wideScaledDot(in);
      sum += static_cast<Int128>(ta.value[in.a[k]]) * tb.value[in.b[k]];
    }
    sums[blk] = sum;
    exps[blk] = blockExponent(ta, tb, in.scaleA[blk], in.scaleB[blk]);
  }
  // The whole-wave path takes the 64-bit combination for every format pair
  // but E5M2's: the same here, so that both are tested per element.
  bool small = in.fmtA != SourceFormat::E5M2 && in.fmtB != SourceFormat::E5M2;
  int64_t smallSums[kMaxFastBlocks];
  for (int blk = 0; small && blk < numBlocks; ++blk)
    smallSums[blk] = static_cast<int64_t>(sums[blk]);
  float result;
  if (small ? combineSmallBlocks(smallSums, exps, numBlocks, in.c, result)
            : combineBlocks(sums, exps, numBlocks, in.c, result))
    return result;
  return wideScaledDot(in);
}
