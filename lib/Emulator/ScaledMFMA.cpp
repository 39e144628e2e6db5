//===- ScaledMFMA.cpp - gfx950 scaled MFMA instruction semantics ----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two independent parts:
//   1. the lane layouts: scaledMFMA() unpacks the register tuples of the 64
//      lanes into logical A [Md][K], B (as [N][K]), the scales and C, calls
//      the numerics function once per output element and scatters D back;
//   2. the numerics: exactScaledDot(), an exact fixed-point dot product with
//      one final round-to-nearest-even to f32.
//
//===----------------------------------------------------------------------===//

#include "mx/Emulator/ScaledMFMA.h"

#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace mlir::mx::emu;

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

/// A decoded element: (-1)^negative * mantissa * 2^exponent when finite.
struct Element {
  enum Kind : uint8_t { Finite, Inf, NaN };
  Kind kind = Finite;
  bool negative = false;
  uint32_t mantissa = 0; ///< Integer significand, hidden bit included.
  int exponent = 0;      ///< Weight of the significand's LSB.
};

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

using DecodeTable = std::array<Element, 256>;

/// Returns the decoded value of every 8-bit code of \p fmt (higher bits than
/// the format width are ignored).
const DecodeTable &getDecodeTable(SourceFormat fmt) {
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

namespace {

/// A signed 128-bit integer (a GCC/Clang extension, as clang-22 builds mx).
__extension__ typedef __int128 Int128;
/// An unsigned 128-bit integer.
__extension__ typedef unsigned __int128 UInt128;

/// Most K-blocks one output of the fast path takes (ScaledDotInputs::k /
/// 32); the instructions have 4 or 2.
constexpr int kMaxFastBlocks = 8;

/// The elements of one format as signed integers in units of 2^unitExp.
struct ScaledIntTable {
  /// Weight of one unit: the format's smallest subnormal.
  int unitExp = 0;
  /// Per 8-bit code (higher bits than the format width ignored): the value
  /// in units, 0 for NaN and Inf codes.
  std::array<int64_t, 256> value = {};
  /// Per code: NaN or Inf (only E4M3 and E5M2 have any).
  std::array<bool, 256> special = {};
};

/// Returns the integer table of \p fmt, built from its decode table.
const ScaledIntTable &getScaledIntTable(SourceFormat fmt) {
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

/// Returns \p magnitude * 2^lsbExp (magnitude != 0, below 2^127) rounded to
/// nearest-even f32: subnormals kept, values that round to 2^128 or more
/// give +Inf. The same rounding as FixedPoint::roundToFloat.
float roundMagnitude(UInt128 magnitude, int lsbExp) {
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

/// Computes C + sum_b sums[b] * 2^exps[b] (b < numBlocks <= kMaxFastBlocks,
/// |sums[b]| < 2^70) rounded once to f32 into \p result, when the nonzero
/// terms fit one 128-bit integer. Returns false, leaving the element to the
/// wide path, when they do not, when C is NaN or Inf, or when the exact sum
/// is zero with C = -0 (whose sign depends on the signs of the products).
bool combineBlocks(const Int128 *sums, const int *exps, int numBlocks, float c,
                   float &result) {
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
bool combineSmallBlocks(const int64_t *sums, const int *exps, int numBlocks,
                        float c, float &result) {
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

//===----------------------------------------------------------------------===//
// CDNA3-style grouped model
//===----------------------------------------------------------------------===//
//
// All in integers: a product of two elements is the integer ma * mb times
// 2^(lsb), its leading exponent lsb + manA + manB (the significands have
// manA + manB fractional bits); so a product in units of 2^(E_h - 24) is
// ma * mb * 2^(24 - manA - manB - (E_h - e_p)), a shift that truncates
// toward zero when negative. Every quantity stays below 2^40.

namespace {

/// Products added to the accumulator at a time.
constexpr int kGroupSize = 16;
/// Fractional bits (relative to the largest exponent) kept of the products
/// and of the two halves' sums.
constexpr int kProductBits = 24;
/// Fractional bits kept of the group's sum when it is added to acc.
constexpr int kGroupSumBits = 31;
/// Fractional bits kept of acc; an acc whose leading exponent is more than
/// kAccDropDistance below the largest one is dropped.
constexpr int kAccBits = 24;
constexpr int kAccDropDistance = 25;

/// Returns floor(v * 2^shift); v * 2^shift must fit 63 bits when shift > 0.
int64_t shiftFloor(int64_t v, int shift) {
  if (shift >= 0)
    return v * (int64_t(1) << shift);
  if (shift <= -62)
    return v < 0 ? -1 : 0;
  int64_t divisor = int64_t(1) << -shift;
  int64_t q = v / divisor; // Toward zero.
  return (v % divisor != 0 && v < 0) ? q - 1 : q;
}

/// Returns v * 2^shift truncated toward zero (|v| * 2^shift below 2^62).
int64_t shiftTrunc(int64_t v, int shift) {
  if (shift >= 0)
    return v * (int64_t(1) << shift);
  if (shift <= -62)
    return 0;
  return v / (int64_t(1) << -shift);
}

/// Returns \p total * 2^lsbExp rounded to nearest-even f32 (+0 for 0).
float roundSigned(int64_t total, int lsbExp) {
  if (total == 0)
    return 0.0f;
  uint64_t magnitude = total < 0 ? -static_cast<uint64_t>(total) : total;
  float rounded = roundMagnitude(magnitude, lsbExp);
  return total < 0 ? -rounded : rounded;
}

/// One group of cdna3GroupedScaledDot: acc plus products [begin, begin + 16).
float addGroup(const ScaledDotInputs &in, int begin, float acc) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  int blk = begin / kScaleBlock;
  if (in.scaleA[blk] == 0xFF || in.scaleB[blk] == 0xFF || std::isnan(acc))
    return kNaN;
  const DecodeTable &decodeA = getDecodeTable(in.fmtA);
  const DecodeTable &decodeB = getDecodeTable(in.fmtB);
  int fracBits = getParams(in.fmtA).manBits + getParams(in.fmtB).manBits;
  int scaleExp = (static_cast<int>(in.scaleA[blk]) - 127) +
                 (static_cast<int>(in.scaleB[blk]) - 127);

  bool posInf = std::isinf(acc) && acc > 0, negInf = std::isinf(acc) && acc < 0;
  int64_t products[kGroupSize];
  int leads[kGroupSize];
  bool present[kGroupSize] = {};
  for (int t = 0; t < kGroupSize; ++t) {
    const Element &ea = decodeA[in.a[begin + t]];
    const Element &eb = decodeB[in.b[begin + t]];
    if (ea.kind == Element::NaN || eb.kind == Element::NaN)
      return kNaN;
    bool negative = ea.negative != eb.negative;
    if (ea.kind == Element::Inf || eb.kind == Element::Inf) {
      const Element &other = ea.kind == Element::Inf ? eb : ea;
      if (other.kind == Element::Finite && other.mantissa == 0)
        return kNaN;
      (negative ? negInf : posInf) = true;
      continue;
    }
    if (ea.mantissa == 0 || eb.mantissa == 0)
      continue;
    int64_t product = int64_t(ea.mantissa) * eb.mantissa;
    products[t] = negative ? -product : product;
    leads[t] = ea.exponent + eb.exponent + scaleExp + fracBits;
    present[t] = true;
  }
  if (posInf && negInf)
    return kNaN;
  if (posInf || negInf)
    return posInf ? kInf : -kInf;

  // The two halves (even and odd positions), each aligned to its largest
  // exponent and truncated.
  int64_t halfSum[2] = {0, 0};
  int halfExp[2] = {std::numeric_limits<int>::min(),
                    std::numeric_limits<int>::min()};
  for (int t = 0; t < kGroupSize; ++t)
    if (present[t])
      halfExp[t % 2] = std::max(halfExp[t % 2], leads[t]);
  for (int t = 0; t < kGroupSize; ++t)
    if (present[t])
      halfSum[t % 2] += shiftTrunc(
          products[t], kProductBits - fracBits - (halfExp[t % 2] - leads[t]));
  int groupExp = std::max(halfExp[0], halfExp[1]);
  if (groupExp == std::numeric_limits<int>::min())
    return acc;    // No nonzero product.
  int64_t sum = 0; // In units of 2^(groupExp - 24).
  for (int h = 0; h < 2; ++h)
    if (halfExp[h] != std::numeric_limits<int>::min())
      sum += shiftFloor(halfSum[h], halfExp[h] - groupExp);

  if (acc == 0.0f)
    return roundSigned(sum, groupExp - kProductBits);
  // acc = accMantissa * 2^(accLead - 23), accLead its leading exponent.
  uint32_t bits;
  std::memcpy(&bits, &acc, sizeof(bits));
  uint32_t expField = (bits >> 23) & 0xFF;
  int64_t accMantissa =
      expField ? ((bits & 0x7FFFFF) | 0x800000) : (bits & 0x7FFFFF);
  if (bits >> 31)
    accMantissa = -accMantissa;
  int accLead = expField ? static_cast<int>(expField) - 127 : -126;
  int top = std::max(groupExp, accLead);
  // In units of 2^(top - 31).
  int64_t total =
      shiftFloor(sum, (kGroupSumBits - kProductBits) - (top - groupExp));
  if (accLead >= top - kAccDropDistance)
    total += shiftFloor(accMantissa, kAccBits - 23 - (top - accLead)) *
             (int64_t(1) << (kGroupSumBits - kAccBits));
  return roundSigned(total, top - kGroupSumBits);
}

} // namespace

float mlir::mx::emu::cdna3GroupedScaledDot(const ScaledDotInputs &in) {
  assert(in.k % kGroupSize == 0 && "K must be a multiple of 16");
  float acc = in.c;
  for (int begin = 0; begin < in.k; begin += kGroupSize)
    acc = addGroup(in, begin, acc);
  return acc;
}

ScaledDotFn mlir::mx::emu::getScaledDotFn(MFMAArithmetic arithmetic) {
  switch (arithmetic) {
  case MFMAArithmetic::Exact:
    return exactScaledDot;
  case MFMAArithmetic::CDNA3Grouped:
    return cdna3GroupedScaledDot;
  }
  assert(false && "unknown MFMA arithmetic");
  return exactScaledDot;
}

//===----------------------------------------------------------------------===//
// Lane layouts
//===----------------------------------------------------------------------===//

namespace {

/// Returns item \p t (width \p width bits) of the little-endian densely
/// packed register tuple \p words.
uint8_t extractItem(const uint32_t *words, int width, int t) {
  int bit = width * t;
  int word = bit / 32, offset = bit % 32;
  uint32_t value = words[word] >> offset;
  if (offset + width > 32)
    value |= words[word + 1] << (32 - offset);
  return static_cast<uint8_t>(value & ((1u << width) - 1));
}

/// Returns the K index of item \p t of a lane in K-group \p g (ISA §7.1.5.1).
int kIndexOf(SourceFormat fmt, int depth, int g, int t) {
  if (bitsOf(fmt) == 8) // fp8: two 16-element chunks, K/2 apart.
    return (t / 16) * (depth / 2) + 16 * g + (t % 16);
  return 32 * g + t; // fp6/fp4: 32 consecutive K values.
}

/// Returns the (row, column) of accumulator item \p v of lane \p lane.
void accumulatorPosition(MFMAShape shape, int lane, int v, int &row, int &col) {
  int md = rowsOf(shape);
  int g = lane / md;
  col = lane % md;
  row = shape == MFMAShape::M16N16K128 ? 4 * g + v
                                       : 8 * (v / 4) + 4 * g + (v % 4);
}

/// Unpacks the A or B operand: out[r * K + k] = element (r, k) of A, or
/// (k, column r) of B.
void unpackOperand(MFMAShape shape, SourceFormat fmt, const uint32_t *regs,
                   uint8_t *out) {
  int md = rowsOf(shape), depth = depthOf(shape);
  int words = wordsPerLane(fmt);
  for (int lane = 0; lane < kWaveSize; ++lane) {
    int r = lane % md, g = lane / md;
    const uint32_t *laneWords = regs + lane * words;
    uint8_t items[kItemsPerLane];
    // A constant width lets the compiler unroll the extraction.
    auto extractAll = [&](auto width) {
      for (int t = 0; t < kItemsPerLane; ++t)
        items[t] = extractItem(laneWords, width, t);
    };
    switch (bitsOf(fmt)) {
    case 4:
      extractAll(std::integral_constant<int, 4>());
      break;
    case 6:
      extractAll(std::integral_constant<int, 6>());
      break;
    default:
      extractAll(std::integral_constant<int, 8>());
      break;
    }
    for (int t = 0; t < kItemsPerLane; ++t)
      out[r * depth + kIndexOf(fmt, depth, g, t)] = items[t];
  }
}

/// Unpacks a scale operand: out[r * blocks + g] = selected byte of lane
/// r + Md * g.
void unpackScales(MFMAShape shape, const uint32_t *regs, unsigned opsel,
                  uint8_t *out) {
  assert(opsel < 4 && "opsel selects one of 4 bytes");
  int md = rowsOf(shape), blocks = blocksOf(shape);
  for (int lane = 0; lane < kWaveSize; ++lane)
    out[(lane % md) * blocks + lane / md] =
        static_cast<uint8_t>(regs[lane] >> (8 * (opsel & 3)));
}

/// The logical operands of one scaled MFMA (see scaledMFMA): A [Md][K], B
/// as [N][K], the scales [Md][blocks] of each and C [Md][Md]. The element
/// codes are unpacked from the registers on first use (the fast path reads
/// the registers directly and needs them only for a fallback).
struct LogicalOperands {
  const ScaledMFMAOperands &regs;
  int md, depth, blocks;
  const uint8_t *scaleA, *scaleB;
  const float *c;
  std::array<uint8_t, kWaveSize * kItemsPerLane> a, b;
  bool unpacked = false;

  LogicalOperands(const ScaledMFMAOperands &regs, const uint8_t *scaleA,
                  const uint8_t *scaleB, const float *c)
      : regs(regs), md(rowsOf(regs.shape)), depth(depthOf(regs.shape)),
        blocks(blocksOf(regs.shape)), scaleA(scaleA), scaleB(scaleB), c(c) {}

  /// The inputs of output element D[i][j].
  ScaledDotInputs inputs(int i, int j) {
    if (!unpacked) {
      unpackOperand(regs.shape, regs.fmtA, regs.a, a.data());
      unpackOperand(regs.shape, regs.fmtB, regs.b, b.data());
      unpacked = true;
    }
    return {regs.fmtA,
            regs.fmtB,
            depth,
            a.data() + i * depth,
            b.data() + j * depth,
            scaleA + i * blocks,
            scaleB + j * blocks,
            c[i * md + j]};
  }
};

/// The values (as \p Elem) of the two 4-bit codes of each byte, low nibble
/// first, for the fp4 table \p table (E2M1: the only 4-bit format).
template <typename Elem>
const std::array<Elem, 2> *getNibblePairs(const ScaledIntTable &table) {
  static const std::array<std::array<Elem, 2>, 256> pairs = [&] {
    std::array<std::array<Elem, 2>, 256> result;
    for (int byte = 0; byte < 256; ++byte)
      result[byte] = {static_cast<Elem>(table.value[byte & 0xF]),
                      static_cast<Elem>(table.value[byte >> 4])};
    return result;
  }();
  return pairs.data();
}

/// Decodes the A or B registers \p regs of format \p fmt straight into
/// integer units, in the logical order of unpackOperand (out[r * K + k]),
/// and sets wide[r] for the rows (columns of B) holding a NaN or Inf code.
template <typename Elem>
void decodeOperand(MFMAShape shape, SourceFormat fmt, const uint32_t *regs,
                   Elem *out, bool *wide) {
  const ScaledIntTable &table = getScaledIntTable(fmt);
  const int md = rowsOf(shape), depth = depthOf(shape);
  const int words = wordsPerLane(fmt), width = bitsOf(fmt);
  const bool hasSpecials =
      fmt == SourceFormat::E4M3 || fmt == SourceFormat::E5M2;
  for (int lane = 0; lane < kWaveSize; ++lane) {
    int r = lane % md, g = lane / md;
    const uint32_t *laneWords = regs + lane * words;
    Elem *row = out + r * depth;
    if (width == 4) {
      // Byte i holds items 2i (low nibble) and 2i + 1: K 32g + 2i and up,
      // both decoded by one lookup of the byte.
      const std::array<Elem, 2> *pairs = getNibblePairs<Elem>(table);
      Elem *to = row + kScaleBlock * g;
      for (int i = 0; i < kItemsPerLane / 2; ++i) {
        uint8_t byte = static_cast<uint8_t>(laneWords[i / 4] >> (8 * (i % 4)));
        std::memcpy(to + 2 * i, pairs[byte].data(), sizeof(pairs[byte]));
      }
    } else if (width == 8) {
      bool special = false;
      for (int t = 0; t < kItemsPerLane; ++t) {
        uint8_t code = static_cast<uint8_t>(laneWords[t / 4] >> (8 * (t % 4)));
        row[kIndexOf(fmt, depth, g, t)] = static_cast<Elem>(table.value[code]);
        special |= table.special[code];
      }
      wide[r] |= hasSpecials && special;
    } else {
      for (int t = 0; t < kItemsPerLane; ++t)
        row[kScaleBlock * g + t] =
            static_cast<Elem>(table.value[extractItem(laneWords, width, t)]);
    }
  }
}

/// Returns 2^e as a double for a block exponent \p e (well inside the
/// normal range: element units times a scale, at least 2^-160).
inline double powerOfTwo(int e) {
  assert(e > -1022 && e < 1024 && "outside the normal double range");
  uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// The fast exact path of a whole MFMA (see exactScaledDot), with elements
/// held as \p Elem and K-blocks summed in \p Acc, which must hold 32
/// products of any two elements of the formats.
template <typename Elem, typename Acc>
void fastMFMAWith(LogicalOperands &ops, float *result) {
  const ScaledIntTable &ta = getScaledIntTable(ops.regs.fmtA);
  const ScaledIntTable &tb = getScaledIntTable(ops.regs.fmtB);
  const int md = ops.md, depth = ops.depth, blocks = ops.blocks;
  constexpr int kMaxElements = kWaveSize * kItemsPerLane;
  Elem av[kMaxElements], bv[kMaxElements];
  // Rows of A and columns of B with a NaN/Inf code or a NaN scale take the
  // wide path; their (zero) integer values are not used.
  bool rowWide[32] = {}, colWide[32] = {};
  decodeOperand(ops.regs.shape, ops.regs.fmtA, ops.regs.a, av, rowWide);
  decodeOperand(ops.regs.shape, ops.regs.fmtB, ops.regs.b, bv, colWide);
  int expA[32 * kMaxFastBlocks], expB[32 * kMaxFastBlocks];
  // 2^expA and 2^expB as doubles, and per row (column) the smallest and
  // largest block exponent, for the double sum below.
  double powA[32 * kMaxFastBlocks], powB[32 * kMaxFastBlocks];
  int minExpA[32], maxExpA[32], minExpB[32], maxExpB[32];
  for (int r = 0; r < md; ++r) {
    minExpA[r] = minExpB[r] = std::numeric_limits<int>::max();
    maxExpA[r] = maxExpB[r] = std::numeric_limits<int>::min();
    for (int blk = 0; blk < blocks; ++blk) {
      int index = r * blocks + blk;
      rowWide[r] |= ops.scaleA[index] == 0xFF;
      colWide[r] |= ops.scaleB[index] == 0xFF;
      expA[index] = ta.unitExp + static_cast<int>(ops.scaleA[index]) - 127;
      expB[index] = tb.unitExp + static_cast<int>(ops.scaleB[index]) - 127;
      powA[index] = powerOfTwo(expA[index]);
      powB[index] = powerOfTwo(expB[index]);
      minExpA[r] = std::min(minExpA[r], expA[index]);
      maxExpA[r] = std::max(maxExpA[r], expA[index]);
      minExpB[r] = std::min(minExpB[r], expB[index]);
      maxExpB[r] = std::max(maxExpB[r], expB[index]);
    }
  }
  // The block sums stay below 2^kSumBits units (see fastMFMA; 128-bit
  // sums do not take the double path).
  constexpr int kSumBits = sizeof(Acc) <= 4 ? 23 : 41;

  for (int i = 0; i < md; ++i)
    for (int j = 0; j < md; ++j) {
      float &out = result[i * md + j];
      if (rowWide[i] || colWide[j]) {
        out = wideScaledDot(ops.inputs(i, j));
        continue;
      }
      using Sum = std::conditional_t<sizeof(Acc) <= 8, int64_t, Int128>;
      Sum sums[kMaxFastBlocks];
      int exps[kMaxFastBlocks];
      for (int blk = 0; blk < blocks; ++blk) {
        const Elem *pa = av + i * depth + blk * kScaleBlock;
        const Elem *pb = bv + j * depth + blk * kScaleBlock;
        Acc sum = 0;
        for (int k = 0; k < kScaleBlock; ++k)
          sum += static_cast<Acc>(pa[k]) * static_cast<Acc>(pb[k]);
        sums[blk] = sum;
        exps[blk] = expA[i * blocks + blk] + expB[j * blocks + blk];
      }
      // The usual case in double: every term (the block sums times their
      // units, C) is a multiple of 2^lo below 2^hi, so when hi - lo leaves
      // room for the carries of up to kMaxFastBlocks + 1 terms within 53
      // bits, the double sum is exact and its conversion to f32 the one
      // rounding to nearest-even. Exact zeros (their sign), results outside
      // the normal f32 range and NaN/Inf C take combineSmallBlocks /
      // combineBlocks. Bit-identical to them (ScaledMFMAFastPathTest).
      float c = ops.c[i * md + j];
      uint32_t cBits;
      std::memcpy(&cBits, &c, sizeof(cBits));
      int cField = static_cast<int>((cBits >> 23) & 0xFF);
      int lo = minExpA[i] + minExpB[j];
      int hi = maxExpA[i] + maxExpB[j] + kSumBits;
      if ((cBits & 0x7FFFFFFF) != 0) {
        int cLsb = std::max(cField, 1) - 150;
        lo = std::min(lo, cLsb);
        hi = std::max(hi, cLsb + 24);
      }
      // (With E5M2 the block sums are 128-bit: no double path.)
      if (sizeof(Acc) <= 8 && cField != 0xFF && hi - lo <= 49) {
        double total = c;
        for (int blk = 0; blk < blocks; ++blk)
          total += static_cast<double>(sums[blk]) *
                   (powA[i * blocks + blk] * powB[j * blocks + blk]);
        double magnitude = std::fabs(total);
        if (magnitude >= 0x1p-126 && magnitude < 0x1p127) {
          out = static_cast<float>(total);
          continue;
        }
      }
      bool done;
      if constexpr (sizeof(Acc) <= 8)
        done = combineSmallBlocks(sums, exps, blocks, c, out);
      else
        done = combineBlocks(sums, exps, blocks, c, out);
      if (!done)
        out = wideScaledDot(ops.inputs(i, j));
    }
}

/// Computes every output of a whole MFMA with the numerics of exactScaledDot
/// into \p result ([Md][Md]), with the narrowest integers that hold the
/// formats' block sums exactly.
void fastMFMA(LogicalOperands &ops, float *result) {
  auto isSmall = [](SourceFormat fmt) {
    return fmt == SourceFormat::E2M1 || fmt == SourceFormat::E2M3 ||
           fmt == SourceFormat::E3M2;
  };
  SourceFormat fmtA = ops.regs.fmtA, fmtB = ops.regs.fmtB;
  // fp4/fp6: elements below 2^9 units, 32 products below 2^23.
  if (isSmall(fmtA) && isSmall(fmtB))
    return fastMFMAWith<int16_t, int32_t>(ops, result);
  // With E4M3: elements below 2^18 units, 32 products below 2^41.
  if (fmtA != SourceFormat::E5M2 && fmtB != SourceFormat::E5M2)
    return fastMFMAWith<int32_t, int64_t>(ops, result);
  // With E5M2: elements below 2^32 units, 32 products below 2^69.
  return fastMFMAWith<int64_t, Int128>(ops, result);
}

} // namespace

void mlir::mx::emu::scaledMFMA(const ScaledMFMAOperands &ops, float *d,
                               ScaledDotFn numerics) {
  const MFMAShape shape = ops.shape;
  const int md = rowsOf(shape), acc = accumulatorsPerLane(shape);
  static_assert(16 * 128 == kWaveSize * kItemsPerLane &&
                    32 * 64 == kWaveSize * kItemsPerLane,
                "every lane item is one matrix element");

  // Logical operands: A [Md][K], B as [N][K], scales [Md][blocks], C [Md][Md].
  // Fixed-size buffers, so that an MFMA allocates nothing.
  constexpr int kScales = kWaveSize;
  constexpr int kAccumulators = 32 * 32;
  std::array<uint8_t, kScales> sa, sb;
  std::array<float, kAccumulators> c, result;
  unpackScales(shape, ops.scaleA, ops.opselA, sa.data());
  unpackScales(shape, ops.scaleB, ops.opselB, sb.data());
  for (int lane = 0; lane < kWaveSize; ++lane)
    for (int v = 0; v < acc; ++v) {
      int row, col;
      accumulatorPosition(shape, lane, v, row, col);
      c[row * md + col] = ops.c[lane * acc + v];
    }

  LogicalOperands logical(ops, sa.data(), sb.data(), c.data());
  if (numerics == exactScaledDot) {
    fastMFMA(logical, result.data());
  } else {
    for (int i = 0; i < md; ++i)
      for (int j = 0; j < md; ++j)
        result[i * md + j] = numerics(logical.inputs(i, j));
  }

  // Written only after every input was read, so d may alias ops.c.
  for (int lane = 0; lane < kWaveSize; ++lane)
    for (int v = 0; v < acc; ++v) {
      int row, col;
      accumulatorPosition(shape, lane, v, row, col);
      d[lane * acc + v] = result[row * md + col];
    }
}

void mlir::mx::emu::scaledMFMA(MFMAShape shape, SourceFormat fmtA,
                               SourceFormat fmtB, const uint32_t *a,
                               const uint32_t *b, const float *c,
                               const uint32_t *scaleA, unsigned opselA,
                               const uint32_t *scaleB, unsigned opselB,
                               float *d) {
  ScaledMFMAOperands ops{shape, fmtA,   fmtB,   a,      b,
                         c,     scaleA, opselA, scaleB, opselB};
  scaledMFMA(ops, d);
}

//===----------------------------------------------------------------------===//
// Lane tables, exposed
//===----------------------------------------------------------------------===//

LanePosition mlir::mx::emu::operandItemPosition(MFMAShape shape,
                                                SourceFormat fmt, int lane,
                                                int t) {
  int md = rowsOf(shape);
  return {lane % md, kIndexOf(fmt, depthOf(shape), lane / md, t)};
}

LanePosition mlir::mx::emu::scaleLanePosition(MFMAShape shape, int lane) {
  // As unpackScales: lane r + Md * g holds (row r, K-block g).
  int md = rowsOf(shape);
  return {lane % md, lane / md};
}

LanePosition mlir::mx::emu::accumulatorItemPosition(MFMAShape shape, int lane,
                                                    int v) {
  LanePosition pos;
  accumulatorPosition(shape, lane, v, pos.row, pos.col);
  return pos;
}
