//===- QuantizeTest.cpp - Block scale rules, quantize, dequantize ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expected scale bytes and codes are worked out by hand in the comments.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <vector>

using namespace mx::ref;

namespace {

constexpr float kFltMax = std::numeric_limits<float>::max();
constexpr float kFltInf = std::numeric_limits<float>::infinity();
constexpr float kFltNaN = std::numeric_limits<float>::quiet_NaN();
constexpr ScaleRule kAllRules[] = {ScaleRule::Floor, ScaleRule::Ceil,
                                   ScaleRule::Even, ScaleRule::RCeil};

uint8_t scaleOf(std::initializer_list<float> values, ElemFormat f,
                ScaleRule rule) {
  std::vector<float> block(values);
  return computeScale(block.data(), static_cast<int64_t>(block.size()), f,
                      rule);
}

//===----------------------------------------------------------------------===//
// Scale rules
//===----------------------------------------------------------------------===//

TEST(ComputeScale, ZeroNaNAndInfBlocks) {
  for (ScaleRule rule : kAllRules) {
    EXPECT_EQ(scaleOf({0.0f, -0.0f, 0.0f}, ElemFormat::E2M1, rule), 0x00);
    EXPECT_EQ(scaleOf({1.0f, kFltNaN, 2.0f}, ElemFormat::E2M1, rule), 0xFF);
    EXPECT_EQ(scaleOf({1.0f, -kFltInf}, ElemFormat::E4M3, rule), 0xFF);
    EXPECT_EQ(scaleOf({kFltInf}, ElemFormat::E5M2, rule), 0xFF);
  }
}

TEST(ComputeScale, FloorAndCeilOnPowersOfTwo) {
  // fp4, emax = 2: amax = 4 = 2^2 gives s = 0 for both.
  EXPECT_EQ(scaleOf({4.0f}, ElemFormat::E2M1, ScaleRule::Floor), 127);
  EXPECT_EQ(scaleOf({4.0f}, ElemFormat::E2M1, ScaleRule::Ceil), 127);
  // Just above 4: floor stays at 0, ceil goes to 1.
  EXPECT_EQ(scaleOf({4.0001f}, ElemFormat::E2M1, ScaleRule::Floor), 127);
  EXPECT_EQ(scaleOf({4.0001f}, ElemFormat::E2M1, ScaleRule::Ceil), 128);
  // 7.99: floor(log2) = 2, ceil(log2) = 3.
  EXPECT_EQ(scaleOf({7.99f}, ElemFormat::E2M1, ScaleRule::Floor), 127);
  EXPECT_EQ(scaleOf({7.99f}, ElemFormat::E2M1, ScaleRule::Ceil), 128);
  EXPECT_EQ(scaleOf({8.0f}, ElemFormat::E2M1, ScaleRule::Floor), 128);
  EXPECT_EQ(scaleOf({8.0f}, ElemFormat::E2M1, ScaleRule::Ceil), 128);
  // amax is over magnitudes: |-3.9| -> floor 1 - 2 = -1, ceil 2 - 2 = 0.
  EXPECT_EQ(scaleOf({0.75f, -3.9f}, ElemFormat::E2M1, ScaleRule::Floor), 126);
  EXPECT_EQ(scaleOf({0.75f, -3.9f}, ElemFormat::E2M1, ScaleRule::Ceil), 127);
  // Other emax: E5M2 15, E4M3 8, E3M2 4, E2M3 2.
  EXPECT_EQ(scaleOf({1.0f}, ElemFormat::E5M2, ScaleRule::Floor), 112);
  EXPECT_EQ(scaleOf({1.0f}, ElemFormat::E4M3, ScaleRule::Floor), 119);
  EXPECT_EQ(scaleOf({1.0f}, ElemFormat::E3M2, ScaleRule::Floor), 123);
  EXPECT_EQ(scaleOf({1.0f}, ElemFormat::E2M3, ScaleRule::Floor), 125);
  EXPECT_EQ(scaleOf({3.0f}, ElemFormat::E4M3, ScaleRule::Ceil), 121);
}

TEST(ComputeScale, Clamping) {
  // floor(log2(FLT_MAX)) = 127: 127 - 2 = 125 (byte 252).
  EXPECT_EQ(scaleOf({kFltMax}, ElemFormat::E2M1, ScaleRule::Floor), 252);
  // ceil(log2(FLT_MAX)) = 128: 128 - 2 = 126 (byte 253).
  EXPECT_EQ(scaleOf({kFltMax}, ElemFormat::E2M1, ScaleRule::Ceil), 253);
  // Below the range: s = -126 - 2 = -128 and subnormal amax clamp to -127.
  EXPECT_EQ(scaleOf({0x1p-126f}, ElemFormat::E2M1, ScaleRule::Floor), 0);
  EXPECT_EQ(scaleOf({0x1p-140f}, ElemFormat::E2M1, ScaleRule::Floor), 0);
  EXPECT_EQ(scaleOf({0x1p-149f}, ElemFormat::E2M1, ScaleRule::Ceil), 0);
  // Just inside: 2^-125 -> -127 (byte 0); 2^-124 -> -126 (byte 1).
  EXPECT_EQ(scaleOf({0x1p-125f}, ElemFormat::E2M1, ScaleRule::Floor), 0);
  EXPECT_EQ(scaleOf({0x1p-124f}, ElemFormat::E2M1, ScaleRule::Floor), 1);
}

TEST(ComputeScale, EvenThresholds) {
  // fp4 (add 0x200000): the exponent bumps iff amax >= 1.75 * 2^E.
  EXPECT_EQ(scaleOf({1.74999f * 4}, ElemFormat::E2M1, ScaleRule::Even), 127);
  EXPECT_EQ(scaleOf({1.75f * 4}, ElemFormat::E2M1, ScaleRule::Even), 128);
  EXPECT_EQ(scaleOf({-1.75f * 4}, ElemFormat::E2M1, ScaleRule::Even), 128);
  EXPECT_EQ(scaleOf({1.5f * 4}, ElemFormat::E2M1, ScaleRule::Even), 127);
  EXPECT_EQ(scaleOf({1.75f}, ElemFormat::E2M1, ScaleRule::Even), 126);
  EXPECT_EQ(scaleOf({1.7f}, ElemFormat::E2M1, ScaleRule::Even), 125);
  // E2M3 also has manBits 3 with emax 2: threshold 1.9375.
  EXPECT_EQ(scaleOf({1.9375f * 4}, ElemFormat::E2M3, ScaleRule::Even), 128);
  EXPECT_EQ(scaleOf({1.9374f * 4}, ElemFormat::E2M3, ScaleRule::Even), 127);
  // E4M3 (add 0x80000, emax 8): 496 = 1.9375 * 256 bumps to 2^9.
  EXPECT_EQ(scaleOf({496.0f}, ElemFormat::E4M3, ScaleRule::Even), 128);
  EXPECT_EQ(scaleOf({495.0f}, ElemFormat::E4M3, ScaleRule::Even), 127);
  // E3M2 / E5M2 (manBits 2, add 0x100000): threshold 1.875.
  EXPECT_EQ(scaleOf({1.875f * 16}, ElemFormat::E3M2, ScaleRule::Even), 128);
  EXPECT_EQ(scaleOf({1.87f * 16}, ElemFormat::E3M2, ScaleRule::Even), 127);
  EXPECT_EQ(scaleOf({1.875f * 32768}, ElemFormat::E5M2, ScaleRule::Even), 128);
  // Overflow of the rounded amax to the bits of +Inf: seed 000 takes
  // floor(log2(+Inf)) - 2 = +Inf, clamped to 127 (byte 254), for every
  // format. 0x7F7F0000 is bf16's largest finite value (top binade, mantissa
  // 1.9921875 >= the 1.75 threshold); 0x7F600000 (1.75 * 2^127) is the
  // smallest bf16 that carries for fp4, 0x7F5F0000 the largest that does not.
  auto bf16 = [](uint32_t bits) {
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  };
  EXPECT_EQ(scaleOf({bf16(0x7F7F0000u)}, ElemFormat::E2M1, ScaleRule::Even),
            254);
  EXPECT_EQ(scaleOf({bf16(0x7F600000u)}, ElemFormat::E2M1, ScaleRule::Even),
            254);
  EXPECT_EQ(scaleOf({bf16(0x7F5F0000u)}, ElemFormat::E2M1, ScaleRule::Even),
            127 + 127 - 2);
  EXPECT_EQ(scaleOf({kFltMax}, ElemFormat::E2M1, ScaleRule::Even), 254);
  EXPECT_EQ(scaleOf({kFltMax}, ElemFormat::E5M2, ScaleRule::Even), 254);
  EXPECT_EQ(scaleOf({kFltMax}, ElemFormat::E4M3, ScaleRule::Even), 254);
  // A subnormal amax that rounds to zero bits: s = -127.
  EXPECT_EQ(scaleOf({0x1p-140f}, ElemFormat::E2M1, ScaleRule::Even), 0);
}

TEST(ComputeScale, RCeil) {
  // s = ceil(log2(fl32(amax / maxFinite))).
  EXPECT_EQ(scaleOf({6.0f}, ElemFormat::E2M1, ScaleRule::RCeil), 127);
  EXPECT_EQ(scaleOf({6.0001f}, ElemFormat::E2M1, ScaleRule::RCeil), 128);
  EXPECT_EQ(scaleOf({-3.0f}, ElemFormat::E2M1, ScaleRule::RCeil), 126);
  EXPECT_EQ(scaleOf({3.0001f}, ElemFormat::E2M1, ScaleRule::RCeil), 127);
  EXPECT_EQ(scaleOf({448.0f}, ElemFormat::E4M3, ScaleRule::RCeil), 127);
  EXPECT_EQ(scaleOf({449.0f}, ElemFormat::E4M3, ScaleRule::RCeil), 128);
  EXPECT_EQ(scaleOf({57344.0f}, ElemFormat::E5M2, ScaleRule::RCeil), 127);
  EXPECT_EQ(scaleOf({7.5f}, ElemFormat::E2M3, ScaleRule::RCeil), 127);
  EXPECT_EQ(scaleOf({28.0f}, ElemFormat::E3M2, ScaleRule::RCeil), 127);
  EXPECT_EQ(scaleOf({28.5f}, ElemFormat::E3M2, ScaleRule::RCeil), 128);
  EXPECT_EQ(scaleOf({0.0f}, ElemFormat::E2M1, ScaleRule::RCeil), 0);
  EXPECT_EQ(scaleOf({kFltNaN}, ElemFormat::E2M1, ScaleRule::RCeil), 0xFF);
  // Subnormal q uses the exact logarithm: q = 2^-127 gives s = -127
  // (byte 0), q = 1.5 * 2^-127 gives s = -126 (byte 1), q = 1.5 * 2^-128
  // gives s = -127.
  EXPECT_EQ(scaleOf({6 * 0x1p-127f}, ElemFormat::E2M1, ScaleRule::RCeil), 0);
  EXPECT_EQ(scaleOf({9 * 0x1p-127f}, ElemFormat::E2M1, ScaleRule::RCeil), 1);
  EXPECT_EQ(scaleOf({9 * 0x1p-128f}, ElemFormat::E2M1, ScaleRule::RCeil), 0);
  // The quotient underflows to 0 in f32: s = -127.
  EXPECT_EQ(scaleOf({0x1p-149f}, ElemFormat::E2M1, ScaleRule::RCeil), 0);
}

//===----------------------------------------------------------------------===//
// quantize / dequantize
//===----------------------------------------------------------------------===//

/// A 2x8 matrix with blocks of 4 along the rows (axis 1), fp4.
const float kRowsInput[16] = {
    1,   2,    3,   12,  0.1f, -0.2f, 0.3f, -0.4f, //
    0.f, -0.f, 0.f, 0.f, -5,   2.5,   1.25, 0.75,  // -0.f keeps its sign: 0x8
};

TEST(Quantize, Axis1FloorNearestEven) {
  QuantizeResult q = quantize(kRowsInput, 2, 8, /*axis=*/1, ElemFormat::E2M1,
                              ScaleRule::Floor, ElemRounding::NearestEven,
                              /*blockSize=*/4);
  // amax 12 -> s = 3 - 2 = 1; 0.4 -> s = -2 - 2 = -4; zeros -> byte 0;
  // 5 -> s = 2 - 2 = 0.
  EXPECT_EQ(q.scales, (std::vector<uint8_t>{128, 123, 0, 127}));
  // Block 0: x / 2 = 0.5, 1, 1.5, 6. Block 1: x * 16 = 1.6, -3.2, 4.8,
  // -6.4 -> 1.5, -3, 4, -6 (saturated). Block 3: -5, 2.5, 1.25, 0.75 are
  // ties -> -4, 2, 1, 1.
  EXPECT_EQ(q.codes,
            (std::vector<uint8_t>{0x1, 0x2, 0x3, 0x7, 0x3, 0xD, 0x6, 0xF, //
                                  0x0, 0x8, 0x0, 0x0, 0xE, 0x4, 0x2, 0x2}));
}

TEST(Quantize, Axis1FloorTiesAway) {
  QuantizeResult q = quantize(kRowsInput, 2, 8, 1, ElemFormat::E2M1,
                              ScaleRule::Floor, ElemRounding::TiesAway, 4);
  EXPECT_EQ(q.scales, (std::vector<uint8_t>{128, 123, 0, 127}));
  // Block 3 ties go away from zero: -6, 3, 1.5, 1.
  EXPECT_EQ(q.codes,
            (std::vector<uint8_t>{0x1, 0x2, 0x3, 0x7, 0x3, 0xD, 0x6, 0xF, //
                                  0x0, 0x8, 0x0, 0x0, 0xF, 0x5, 0x3, 0x2}));
}

TEST(Quantize, Axis1Ceil) {
  // amax 12 -> s = 4 - 2 = 2; 0.4 -> s = -1 - 2 = -3; 5 -> s = 3 - 2 = 1.
  // Block 0: x / 4 = 0.25, 0.5, 0.75, 3. Block 1: x * 8 = 0.8, -1.6, 2.4,
  // -3.2 -> 1, -1.5, 2, -3. Block 3: x / 2 = -2.5, 1.25, 0.625, 0.375.
  QuantizeResult even = quantize(kRowsInput, 2, 8, 1, ElemFormat::E2M1,
                                 ScaleRule::Ceil, ElemRounding::NearestEven, 4);
  EXPECT_EQ(even.scales, (std::vector<uint8_t>{129, 124, 0, 128}));
  EXPECT_EQ(even.codes,
            (std::vector<uint8_t>{0x0, 0x1, 0x2, 0x5, 0x2, 0xB, 0x4, 0xD, //
                                  0x0, 0x8, 0x0, 0x0, 0xC, 0x2, 0x1, 0x1}));
  QuantizeResult away = quantize(kRowsInput, 2, 8, 1, ElemFormat::E2M1,
                                 ScaleRule::Ceil, ElemRounding::TiesAway, 4);
  EXPECT_EQ(away.scales, even.scales);
  EXPECT_EQ(away.codes,
            (std::vector<uint8_t>{0x1, 0x1, 0x2, 0x5, 0x2, 0xB, 0x4, 0xD, //
                                  0x0, 0x8, 0x0, 0x0, 0xD, 0x3, 0x1, 0x1}));
}

TEST(Quantize, Axis1RCeil) {
  // 12 / 6 = 2 -> s = 1; 0.4 / 6 -> s = ceil(-3.9) = -3; 5 / 6 -> s = 0.
  QuantizeResult q = quantize(kRowsInput, 2, 8, 1, ElemFormat::E2M1,
                              ScaleRule::RCeil, ElemRounding::NearestEven, 4);
  EXPECT_EQ(q.scales, (std::vector<uint8_t>{128, 124, 0, 127}));
  EXPECT_EQ(q.codes,
            (std::vector<uint8_t>{0x1, 0x2, 0x3, 0x7, 0x2, 0xB, 0x4, 0xD, //
                                  0x0, 0x8, 0x0, 0x0, 0xE, 0x4, 0x2, 0x2}));
}

/// A 4x2 matrix with blocks of 2 along the columns (axis 0), E2M3.
const float kColsInput[8] = {
    1,    0.5f, //
    -7,   3,    //
    0.3f, 8,    //
    0.1f, -9,
};

TEST(Quantize, Axis0) {
  QuantizeResult q = quantize(kColsInput, 4, 2, /*axis=*/0, ElemFormat::E2M3,
                              ScaleRule::Floor, ElemRounding::NearestEven,
                              /*blockSize=*/2);
  // Scales [2, 2]: col 0 rows 0-1 amax 7 -> s = 0; col 1 rows 0-1 amax 3 ->
  // s = -1; col 0 rows 2-3 amax 0.3 -> s = -4; col 1 rows 2-3 amax 9 -> 1.
  EXPECT_EQ(q.scales, (std::vector<uint8_t>{127, 126, 123, 128}));
  // q: (1, 1), (-7, 6), (4.8 -> 5, 4), (1.6 -> 1.625, -4.5).
  EXPECT_EQ(q.codes, (std::vector<uint8_t>{0x08, 0x08, 0x3E, 0x1C, 0x1A, 0x18,
                                           0x0D, 0x39}));

  std::vector<float> back =
      dequantize(q.codes.data(), q.scales.data(), 4, 2, 0, ElemFormat::E2M3, 2);
  EXPECT_EQ(back, (std::vector<float>{1, 0.5f, -7, 3, 5.0f / 16, 8, 1.625f / 16,
                                      -9}));
}

TEST(Quantize, SpecialBlocksGetZeroCodes) {
  const float x[12] = {1, kFltNaN, 2,        3, //
                       1, 2,       -kFltInf, 4, //
                       1, 1,       1,        -1};
  QuantizeResult q = quantize(x, 1, 12, 1, ElemFormat::E2M1, ScaleRule::Even,
                              ElemRounding::TiesAway, 4);
  // Block 2: amax 1 -> s = 0 - 2 = -2; x * 4 = 4 (code 6).
  EXPECT_EQ(q.scales, (std::vector<uint8_t>{0xFF, 0xFF, 125}));
  EXPECT_EQ(q.codes,
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 6, 6, 6, 0xE}));
  std::vector<float> back = dequantize(q.codes.data(), q.scales.data(), 1, 12,
                                       1, ElemFormat::E2M1, 4);
  for (int i = 0; i < 8; ++i)
    EXPECT_TRUE(std::isnan(back[i])) << i;
  EXPECT_EQ(back[8], 1.0f);
  EXPECT_EQ(back[11], -1.0f);
}

TEST(Quantize, NegativeZeroKeepsItsSign) {
  // As torchao: -0.0 gives the negative-zero code, in a zero block (scale
  // 0x00) and among other values, for every format and rounding.
  const float x[8] = {-0.0f, 0.0f, -0.0f, -0.0f, 2, -0.0f, 0.0f, -1};
  for (ElemFormat f : {ElemFormat::E2M1, ElemFormat::E2M3, ElemFormat::E3M2,
                       ElemFormat::E4M3, ElemFormat::E5M2}) {
    uint8_t negativeZero = uint8_t(1u << (getFormatInfo(f).bits - 1));
    for (ElemRounding r : {ElemRounding::NearestEven, ElemRounding::TiesAway}) {
      QuantizeResult q = quantize(x, 1, 8, 1, f, ScaleRule::Floor, r, 4);
      EXPECT_EQ(q.scales[0], 0x00);
      EXPECT_EQ(q.codes[0], negativeZero);
      EXPECT_EQ(q.codes[1], 0);
      EXPECT_EQ(q.codes[5], negativeZero);
      EXPECT_EQ(q.codes[6], 0);
    }
  }
}

TEST(Quantize, DefaultBlockSizeIs32) {
  // 2 x 64, E4M3, FLOOR: one block per 32 columns.
  std::vector<float> x(2 * 64, 1.0f);
  x[5] = 448;        // Row 0 block 0: amax 448 -> s = 8 - 8 = 0.
                     // Row 0 block 1: amax 1 -> s = -8: 1 * 256 = 2^8 (0x78).
  x[64 + 40] = 3;    // Row 1 block 1: amax 3 -> s = -7: 3 * 128 = 384 (0x7C).
  x[64 + 0] = -0.5f; // Row 1 block 0: amax 1 -> s = -8: -0.5 * 256 (0xF0).
  QuantizeResult q = quantize(x.data(), 2, 64, 1, ElemFormat::E4M3,
                              ScaleRule::Floor, ElemRounding::NearestEven);
  EXPECT_EQ(q.scales, (std::vector<uint8_t>{127, 119, 119, 120}));
  ASSERT_EQ(q.codes.size(), 128u);
  EXPECT_EQ(q.codes[0], 0x38);
  EXPECT_EQ(q.codes[5], 0x7E);
  EXPECT_EQ(q.codes[32], 0x78);
  EXPECT_EQ(q.codes[64], 0xF0);
  EXPECT_EQ(q.codes[65], 0x78);
  EXPECT_EQ(q.codes[64 + 40], 0x7C);
  EXPECT_EQ(q.codes[64 + 41], 0x70); // 1 * 128 = 2^7.
}

TEST(Dequantize, Axis1HandValues) {
  // fp4 codes with scales 2^1, 2^-4, 2^-127 (byte 0) and 2^127.
  const uint8_t codes[8] = {0x7, 0xB, 0x1, 0x8, 0x2, 0x0, 0x1, 0xF};
  const uint8_t scales[4] = {128, 123, 0, 254};
  std::vector<float> got =
      dequantize(codes, scales, 1, 8, 1, ElemFormat::E2M1, 2);
  EXPECT_EQ(got, (std::vector<float>{12, -3, 0.03125f, -0.0f, 0x1p-127f, 0,
                                     0x1p126f, -kFltInf}));
  EXPECT_TRUE(std::signbit(got[3]));
}

} // namespace
