//===- ReferenceTest.cpp - Element format decode/encode tests -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expected values are literals typed from the format tables of
// reference/gfx950-and-mx.md §4.3 (ISA Table 30) or computed by hand, never by
// calling the function under test.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace mx::ref;

namespace {

constexpr ElemFormat kAllFormats[] = {ElemFormat::E4M3, ElemFormat::E5M2,
                                      ElemFormat::E2M3, ElemFormat::E3M2,
                                      ElemFormat::E2M1};
constexpr ElemRounding kBothRoundings[] = {ElemRounding::NearestEven,
                                           ElemRounding::TiesAway};

/// Positive E2M1 codes 0-7.
const double kE2M1Table[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};

/// Positive E2M3 codes 0-31.
const double kE2M3Table[32] = {0, .125,  .25,  .375,  .5,  .625,  .75,  .875,
                               1, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875,
                               2, 2.25,  2.5,  2.75,  3,   3.25,  3.5,  3.75,
                               4, 4.5,   5,    5.5,   6,   6.5,   7,    7.5};

/// Positive E3M2 codes 0-31.
const double kE3M2Table[32] = {0,  .0625, .125, .1875, .25, .3125, .375, .4375,
                               .5, .625,  .75,  .875,  1,   1.25,  1.5,  1.75,
                               2,  2.5,   3,    3.5,   4,   5,     6,    7,
                               8,  10,    12,   14,    16,  20,    24,   28};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// A positive-code table of a sub-byte format, for table-driven tests.
struct SmallTable {
  ElemFormat format;
  const double *values;
  int numPositive; // Codes 0 .. numPositive-1; the sign bit is numPositive.
};

const SmallTable kSmallTables[] = {{ElemFormat::E2M1, kE2M1Table, 8},
                                   {ElemFormat::E2M3, kE2M3Table, 32},
                                   {ElemFormat::E3M2, kE3M2Table, 32}};

//===----------------------------------------------------------------------===//
// Format parameters
//===----------------------------------------------------------------------===//

TEST(FormatInfo, MatchesIsaTable) {
  struct Expected {
    ElemFormat format;
    const char *name;
    int bits, expBits, manBits, bias;
    double maxFinite, minNormal, minSubnormal;
    bool hasInf, hasNaN;
    int emaxElem;
  };
  const Expected table[] = {
      {ElemFormat::E4M3, "f8E4M3FN", 8, 4, 3, 7, 448, 0x1p-6, 0x1p-9, false,
       true, 8},
      {ElemFormat::E5M2, "f8E5M2", 8, 5, 2, 15, 57344, 0x1p-14, 0x1p-16, true,
       true, 15},
      {ElemFormat::E2M3, "f6E2M3FN", 6, 2, 3, 1, 7.5, 1.0, 0.125, false, false,
       2},
      {ElemFormat::E3M2, "f6E3M2FN", 6, 3, 2, 3, 28, 0.25, 0.0625, false, false,
       4},
      {ElemFormat::E2M1, "f4E2M1FN", 4, 2, 1, 1, 6, 1.0, 0.5, false, false, 2},
  };
  for (const Expected &e : table) {
    const FormatInfo &info = getFormatInfo(e.format);
    SCOPED_TRACE(e.name);
    EXPECT_STREQ(info.name, e.name);
    EXPECT_EQ(info.bits, e.bits);
    EXPECT_EQ(info.expBits, e.expBits);
    EXPECT_EQ(info.manBits, e.manBits);
    EXPECT_EQ(info.bias, e.bias);
    EXPECT_EQ(info.maxFinite, e.maxFinite);
    EXPECT_EQ(info.minNormal, e.minNormal);
    EXPECT_EQ(info.minSubnormal, e.minSubnormal);
    EXPECT_EQ(info.hasInf, e.hasInf);
    EXPECT_EQ(info.hasNaN, e.hasNaN);
    EXPECT_EQ(info.emaxElem, e.emaxElem);
  }
}

TEST(FormatInfo, ParseNames) {
  EXPECT_EQ(parseElemFormat("e2m1"), ElemFormat::E2M1);
  EXPECT_EQ(parseElemFormat("fp4"), ElemFormat::E2M1);
  EXPECT_EQ(parseElemFormat("MXFP4"), ElemFormat::E2M1);
  EXPECT_EQ(parseElemFormat("f4E2M1FN"), ElemFormat::E2M1);
  EXPECT_EQ(parseElemFormat("e4m3"), ElemFormat::E4M3);
  EXPECT_EQ(parseElemFormat("fp8"), ElemFormat::E4M3);
  EXPECT_EQ(parseElemFormat("f8E4M3FN"), ElemFormat::E4M3);
  EXPECT_EQ(parseElemFormat("E5M2"), ElemFormat::E5M2);
  EXPECT_EQ(parseElemFormat("bf8"), ElemFormat::E5M2);
  EXPECT_EQ(parseElemFormat("f8E5M2"), ElemFormat::E5M2);
  EXPECT_EQ(parseElemFormat("e2m3"), ElemFormat::E2M3);
  EXPECT_EQ(parseElemFormat("fp6"), ElemFormat::E2M3);
  EXPECT_EQ(parseElemFormat("f6E2M3FN"), ElemFormat::E2M3);
  EXPECT_EQ(parseElemFormat("e3m2"), ElemFormat::E3M2);
  EXPECT_EQ(parseElemFormat("bf6"), ElemFormat::E3M2);
  EXPECT_EQ(parseElemFormat("f6E3M2FN"), ElemFormat::E3M2);
  EXPECT_EQ(parseElemFormat("float4_e2m1fn"), ElemFormat::E2M1);
  EXPECT_FALSE(parseElemFormat("f8E4M3FNUZ").has_value());
  EXPECT_FALSE(parseElemFormat("f16").has_value());
  EXPECT_FALSE(parseElemFormat("").has_value());
  // The MLIR type name of every format parses back to it.
  for (ElemFormat f : kAllFormats)
    EXPECT_EQ(parseElemFormat(getFormatInfo(f).name), f);
}

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

TEST(Decode, SmallFormatsExhaustiveAgainstLiteralTables) {
  for (const SmallTable &t : kSmallTables) {
    SCOPED_TRACE(getFormatInfo(t.format).name);
    for (int code = 0; code < 2 * t.numPositive; ++code) {
      bool negative = code >= t.numPositive;
      double expected = t.values[code % t.numPositive];
      double got = decode(t.format, static_cast<uint8_t>(code));
      EXPECT_EQ(got, negative ? -expected : expected) << "code " << code;
      EXPECT_EQ(std::signbit(got), negative) << "code " << code;
    }
  }
}

TEST(Decode, IgnoresBitsAboveTheFormatWidth) {
  EXPECT_EQ(decode(ElemFormat::E2M1, 0xF7), 6.0);
  EXPECT_EQ(decode(ElemFormat::E2M1, 0x3A), -1.0);
  EXPECT_EQ(decode(ElemFormat::E2M3, 0xC1), 0.125);
  EXPECT_EQ(decode(ElemFormat::E3M2, 0x5F), 28.0);
}

TEST(Decode, E4M3SpecialsAndHandValues) {
  int numNaN = 0;
  for (int code = 0; code < 256; ++code) {
    double v = decode(ElemFormat::E4M3, static_cast<uint8_t>(code));
    EXPECT_FALSE(std::isinf(v)) << code;
    if (std::isnan(v)) {
      ++numNaN;
      EXPECT_TRUE(code == 0x7F || code == 0xFF) << code;
    }
  }
  EXPECT_EQ(numNaN, 2);
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x7E), 448.0);
  EXPECT_EQ(decode(ElemFormat::E4M3, 0xFE), -448.0);
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x08), 0x1p-6);     // Min normal.
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x07), 7 * 0x1p-9); // Max subnormal.
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x01), 0x1p-9);     // Min subnormal.
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x38), 1.0);
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x3F), 1.875);
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x77), 240.0);
  EXPECT_EQ(decode(ElemFormat::E4M3, 0xC0), -2.0);
  EXPECT_EQ(decode(ElemFormat::E4M3, 0x00), 0.0);
  EXPECT_TRUE(std::signbit(decode(ElemFormat::E4M3, 0x80)));
  // Positive finite codes are strictly increasing.
  for (int code = 1; code <= 0x7E; ++code)
    EXPECT_LT(decode(ElemFormat::E4M3, static_cast<uint8_t>(code - 1)),
              decode(ElemFormat::E4M3, static_cast<uint8_t>(code)));
}

TEST(Decode, E5M2SpecialsAndHandValues) {
  int numNaN = 0;
  for (int code = 0; code < 256; ++code) {
    double v = decode(ElemFormat::E5M2, static_cast<uint8_t>(code));
    if (std::isnan(v)) {
      ++numNaN;
      EXPECT_TRUE((code >= 0x7D && code <= 0x7F) || code >= 0xFD) << code;
    }
  }
  EXPECT_EQ(numNaN, 6);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0x7C), kInf);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0xFC), -kInf);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0x7B), 57344.0);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0xFB), -57344.0);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0x04), 0x1p-14); // Min normal.
  EXPECT_EQ(decode(ElemFormat::E5M2, 0x03), 3 * 0x1p-16);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0x01), 0x1p-16); // Min subnormal.
  EXPECT_EQ(decode(ElemFormat::E5M2, 0x3C), 1.0);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0x3E), 1.5);
  EXPECT_EQ(decode(ElemFormat::E5M2, 0xBD), -1.25);
  EXPECT_TRUE(std::signbit(decode(ElemFormat::E5M2, 0x80)));
  for (int code = 1; code <= 0x7B; ++code)
    EXPECT_LT(decode(ElemFormat::E5M2, static_cast<uint8_t>(code - 1)),
              decode(ElemFormat::E5M2, static_cast<uint8_t>(code)));
}

TEST(Decode, Scale) {
  EXPECT_EQ(decodeScale(127), 1.0);
  EXPECT_EQ(decodeScale(128), 2.0);
  EXPECT_EQ(decodeScale(125), 0.25);
  EXPECT_EQ(decodeScale(0), 0x1p-127);
  EXPECT_EQ(decodeScale(254), 0x1p127);
  EXPECT_TRUE(std::isnan(decodeScale(0xFF)));
}

TEST(Decode, Bf16AndHalf) {
  EXPECT_EQ(bf16ToFloat(0x3F80), 1.0f);
  EXPECT_EQ(bf16ToFloat(0xC040), -3.0f);
  EXPECT_EQ(bf16ToFloat(0x3FC0), 1.5f);
  EXPECT_EQ(bf16ToFloat(0x0001), 0x1p-133f);
  EXPECT_EQ(bf16ToFloat(0x7F80), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(bf16ToFloat(0x7FC0)));
  EXPECT_TRUE(std::signbit(bf16ToFloat(0x8000)));
  EXPECT_EQ(halfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(halfToFloat(0xC000), -2.0f);
  EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0400), 0x1p-14f);
  EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfToFloat(0x3555), 0x1.554p-2f);
  EXPECT_EQ(halfToFloat(0x7C00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(halfToFloat(0xFC00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
  EXPECT_TRUE(std::signbit(halfToFloat(0x8000)));
}

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

TEST(Encode, RoundTripsEveryFiniteCode) {
  for (ElemFormat f : kAllFormats) {
    const FormatInfo &info = getFormatInfo(f);
    SCOPED_TRACE(info.name);
    int negativeZero = 1 << (info.bits - 1);
    for (int code = 0; code < (1 << info.bits); ++code) {
      double v = decode(f, static_cast<uint8_t>(code));
      if (!std::isfinite(v) || code == negativeZero)
        continue;
      for (ElemRounding r : kBothRoundings)
        EXPECT_EQ(encode(f, v, r), code) << "code " << code;
    }
  }
}

TEST(Encode, ZeroSigns) {
  for (ElemFormat f : kAllFormats) {
    const FormatInfo &info = getFormatInfo(f);
    SCOPED_TRACE(info.name);
    uint8_t negativeZero = static_cast<uint8_t>(1u << (info.bits - 1));
    for (ElemRounding r : kBothRoundings) {
      EXPECT_EQ(encode(f, 0.0, r), 0);
      // -0.0 keeps its sign, as in torchao (seed 000's `qx < 0` would give
      // +0; its vectors hold no -0.0 input).
      EXPECT_EQ(encode(f, -0.0, r), negativeZero);
      // A negative value that rounds to zero keeps its sign.
      EXPECT_EQ(encode(f, -info.minSubnormal / 4, r), negativeZero);
      EXPECT_EQ(encode(f, info.minSubnormal / 4, r), 0);
      EXPECT_EQ(encode(f, -std::numeric_limits<double>::denorm_min(), r),
                negativeZero);
    }
  }
}

TEST(Encode, E2M1EveryTie) {
  struct Case {
    double value;
    uint8_t nearestEven, tiesAway;
  };
  const Case cases[] = {
      {0.25, 0x0, 0x1}, // 0 | 0.5
      {0.75, 0x2, 0x2}, // 0.5 | 1.0
      {1.25, 0x2, 0x3}, // 1.0 | 1.5
      {1.75, 0x4, 0x4}, // 1.5 | 2.0
      {2.5, 0x4, 0x5},  // 2.0 | 3.0
      {3.5, 0x6, 0x6},  // 3.0 | 4.0
      {5.0, 0x6, 0x7},  // 4.0 | 6.0
  };
  for (const Case &c : cases) {
    EXPECT_EQ(encode(ElemFormat::E2M1, c.value, ElemRounding::NearestEven),
              c.nearestEven)
        << c.value;
    EXPECT_EQ(encode(ElemFormat::E2M1, c.value, ElemRounding::TiesAway),
              c.tiesAway)
        << c.value;
    EXPECT_EQ(encode(ElemFormat::E2M1, -c.value, ElemRounding::NearestEven),
              c.nearestEven | 0x8)
        << -c.value;
    EXPECT_EQ(encode(ElemFormat::E2M1, -c.value, ElemRounding::TiesAway),
              c.tiesAway | 0x8)
        << -c.value;
  }
}

TEST(Encode, SmallFormatsMidpointsFromLiteralTables) {
  for (const SmallTable &t : kSmallTables) {
    SCOPED_TRACE(getFormatInfo(t.format).name);
    for (int lo = 0; lo + 1 < t.numPositive; ++lo) {
      int hi = lo + 1;
      double mid = (t.values[lo] + t.values[hi]) / 2;
      int even = lo % 2 == 0 ? lo : hi;
      for (int neg = 0; neg < 2; ++neg) {
        double sign = neg ? -1.0 : 1.0;
        int signBit = neg ? t.numPositive : 0;
        EXPECT_EQ(encode(t.format, sign * mid, ElemRounding::NearestEven),
                  even | signBit)
            << sign * mid;
        EXPECT_EQ(encode(t.format, sign * mid, ElemRounding::TiesAway),
                  hi | signBit)
            << sign * mid;
        // Off the tie, both roundings pick the nearer code.
        double below = std::nextafter(mid, 0.0);
        double above = std::nextafter(mid, kInf);
        for (ElemRounding r : kBothRoundings) {
          EXPECT_EQ(encode(t.format, sign * below, r), lo | signBit);
          EXPECT_EQ(encode(t.format, sign * above, r), hi | signBit);
        }
      }
    }
  }
}

TEST(Encode, Fp8Midpoints) {
  struct Case {
    ElemFormat format;
    double value;
    uint8_t nearestEven, tiesAway;
  };
  const Case cases[] = {
      // E4M3: 1.0 (0x38) | 1.125 (0x39) | 1.25 (0x3A).
      {ElemFormat::E4M3, 1.0625, 0x38, 0x39},
      {ElemFormat::E4M3, 1.1875, 0x3A, 0x3A},
      // Subnormals: 0 | 2^-9 (0x01) | 2^-8 (0x02).
      {ElemFormat::E4M3, 0x1p-10, 0x00, 0x01},
      {ElemFormat::E4M3, 1.5 * 0x1p-9, 0x02, 0x02},
      // Max subnormal 7*2^-9 (0x07) | min normal 2^-6 (0x08).
      {ElemFormat::E4M3, 7.5 * 0x1p-9, 0x08, 0x08},
      // 416 (0x7D) | 448 (0x7E).
      {ElemFormat::E4M3, 432, 0x7E, 0x7E},
      // 448 | 480 (not finite): saturates either way.
      {ElemFormat::E4M3, 464, 0x7E, 0x7E},
      // -200: -192 (0xF4) | -208 (0xF5).
      {ElemFormat::E4M3, -200, 0xF4, 0xF5},
      // E5M2: 1.0 (0x3C) | 1.25 (0x3D) | 1.5 (0x3E).
      {ElemFormat::E5M2, 1.125, 0x3C, 0x3D},
      {ElemFormat::E5M2, 1.375, 0x3E, 0x3E},
      {ElemFormat::E5M2, 0x1p-17, 0x00, 0x01},
      {ElemFormat::E5M2, 3.5 * 0x1p-16, 0x04, 0x04},
      // 49152 (0x7A) | 57344 (0x7B) | 65536 (not finite).
      {ElemFormat::E5M2, 53248, 0x7A, 0x7B},
      {ElemFormat::E5M2, 61440, 0x7B, 0x7B},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(encode(c.format, c.value, ElemRounding::NearestEven),
              c.nearestEven)
        << c.value;
    EXPECT_EQ(encode(c.format, c.value, ElemRounding::TiesAway), c.tiesAway)
        << c.value;
  }
}

TEST(Encode, Saturation) {
  for (ElemRounding r : kBothRoundings) {
    EXPECT_EQ(encode(ElemFormat::E2M1, 7.0, r), 0x7);
    EXPECT_EQ(encode(ElemFormat::E2M1, 6.5, r), 0x7);
    EXPECT_EQ(encode(ElemFormat::E2M1, -7.0, r), 0xF);
    EXPECT_EQ(encode(ElemFormat::E2M1, 1e300, r), 0x7);
    EXPECT_EQ(encode(ElemFormat::E2M3, 7.75, r), 0x1F);
    EXPECT_EQ(encode(ElemFormat::E2M3, -100, r), 0x3F);
    EXPECT_EQ(encode(ElemFormat::E3M2, 30, r), 0x1F);
    EXPECT_EQ(encode(ElemFormat::E4M3, 1000, r), 0x7E);
    EXPECT_EQ(encode(ElemFormat::E4M3, -1000, r), 0xFE);
    EXPECT_EQ(encode(ElemFormat::E5M2, 1e6, r), 0x7B);
    EXPECT_EQ(encode(ElemFormat::E5M2, -65536, r), 0xFB);
  }
}

TEST(Encode, InfinitySaturates) {
  const uint8_t maxCodes[] = {0x7E, 0x7B, 0x1F, 0x1F, 0x7};
  const uint8_t signBits[] = {0x80, 0x80, 0x20, 0x20, 0x8};
  for (int i = 0; i < 5; ++i) {
    for (ElemRounding r : kBothRoundings) {
      EXPECT_EQ(encode(kAllFormats[i], kInf, r), maxCodes[i]);
      EXPECT_EQ(encode(kAllFormats[i], -kInf, r), maxCodes[i] | signBits[i]);
    }
  }
}

TEST(Encode, NaN) {
  for (ElemRounding r : kBothRoundings) {
    EXPECT_EQ(encode(ElemFormat::E4M3, kNaN, r), 0x7F);
    EXPECT_EQ(encode(ElemFormat::E5M2, kNaN, r), 0x7F);
    EXPECT_EQ(encode(ElemFormat::E5M2, -kNaN, r), 0x7F);
    // Formats without NaN get +0.
    EXPECT_EQ(encode(ElemFormat::E2M3, kNaN, r), 0x00);
    EXPECT_EQ(encode(ElemFormat::E3M2, kNaN, r), 0x00);
    EXPECT_EQ(encode(ElemFormat::E2M1, kNaN, r), 0x0);
  }
}

TEST(Encode, NonTieValues) {
  // Nearest code, far from any tie.
  EXPECT_EQ(encode(ElemFormat::E2M1, 0.3, ElemRounding::NearestEven), 0x1);
  EXPECT_EQ(encode(ElemFormat::E2M1, 0.2, ElemRounding::TiesAway), 0x0);
  EXPECT_EQ(encode(ElemFormat::E2M1, 4.9, ElemRounding::TiesAway), 0x6);
  EXPECT_EQ(encode(ElemFormat::E2M1, -5.1, ElemRounding::NearestEven), 0xF);
  EXPECT_EQ(encode(ElemFormat::E4M3, 0.1, ElemRounding::NearestEven),
            0x1D); // 0.1 ~ 1.6 * 2^-4 -> 1.625 * 2^-4 (E=3, M=5).
  EXPECT_EQ(encode(ElemFormat::E5M2, 3.1416, ElemRounding::NearestEven),
            0x42); // 3.0 = 1.5 * 2^1 (E=16, M=2).
}

} // namespace
