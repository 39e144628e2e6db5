//===- PerInstructionTest.cpp - Fast paths of the per-instruction matmul --===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// scaledMatmulPerInstruction with Exact arithmetic sums most instructions on
// a fast path (integer block sums, or doubles for the widest format pairs)
// and falls back to the exact fixed-point sum. These tests check on random
// operands of every format pair that the results are bit for bit those of
// the exact sum alone (detail::exactStepsPerInstruction) and that the abs
// sums are scaledMatmulAbsSum's, with NaN scales and elements, extreme
// scales, signed zeros, random accumulators and split-K parts.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "Internal.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace mx::ref;

namespace {

constexpr ElemFormat kFormats[] = {ElemFormat::E2M1, ElemFormat::E2M3,
                                   ElemFormat::E3M2, ElemFormat::E4M3,
                                   ElemFormat::E5M2};

/// How the random operands of one case are drawn.
enum class Codes { Any, MostlyZero, WithSpecials, NegativeZeroProducts };
enum class Scales { Narrow, Wide, Extreme, WithNaN };
enum class Accumulator { None, SignedZeros, SmallIntegers, AnyBits, Huge };

uint32_t floatBits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}

uint64_t doubleBits(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}

class RandomOperands {
public:
  explicit RandomOperands(uint32_t seed) : rng(seed) {}

  /// Returns an integer in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }

  /// Returns \p count element codes of \p f. NaN/Inf codes are kept only
  /// rarely (else nearly every fp8 block would hold one) unless \p codes is
  /// WithSpecials.
  std::vector<uint8_t> codes(ElemFormat f, Codes codes, int64_t count) {
    int bits = getFormatInfo(f).bits;
    std::vector<uint8_t> result(count);
    for (uint8_t &code : result) {
      do {
        code = static_cast<uint8_t>(uniform(0, (1 << bits) - 1));
        if (codes == Codes::MostlyZero && uniform(0, 9) < 7)
          code = uniform(0, 1) ? 0 : static_cast<uint8_t>(1 << (bits - 1));
      } while (!std::isfinite(decode(f, code)) &&
               uniform(0, codes == Codes::WithSpecials ? 3 : 255) != 0);
    }
    return result;
  }

  /// Returns \p count E8M0 scale bytes.
  std::vector<uint8_t> scales(Scales scales, int64_t count) {
    std::vector<uint8_t> result(count);
    for (uint8_t &s : result) {
      switch (scales) {
      case Scales::Narrow:
        s = static_cast<uint8_t>(uniform(125, 129));
        break;
      case Scales::Wide:
        s = static_cast<uint8_t>(uniform(0, 254));
        break;
      case Scales::Extreme: {
        static const uint8_t extremes[] = {0, 1, 100, 127, 154, 253, 254};
        s = extremes[uniform(0, 6)];
        break;
      }
      case Scales::WithNaN:
        s = uniform(0, 15) == 0 ? 0xFF
                                : static_cast<uint8_t>(uniform(120, 134));
        break;
      }
    }
    return result;
  }

  /// Returns \p count accumulator values (empty for None).
  std::vector<float> accumulators(Accumulator kind, int64_t count) {
    std::vector<float> result;
    if (kind == Accumulator::None)
      return result;
    result.resize(count);
    for (float &x : result) {
      switch (kind) {
      case Accumulator::None:
        break;
      case Accumulator::SignedZeros:
        x = uniform(0, 1) ? -0.0f : 0.0f;
        break;
      case Accumulator::SmallIntegers:
        x = static_cast<float>(uniform(-64, 64));
        break;
      case Accumulator::AnyBits: {
        uint32_t bits = static_cast<uint32_t>(uniform(0, 0xFFFFFFFF));
        std::memcpy(&x, &bits, sizeof(x));
        break;
      }
      case Accumulator::Huge:
        x = std::ldexp(static_cast<float>(uniform(-(1 << 24) + 1, 1 << 24)),
                       static_cast<int>(uniform(80, 104)));
        break;
      }
    }
    return result;
  }

private:
  std::mt19937 rng;
};

/// Checks scaledMatmulPerInstruction (Exact) against the exact sum alone and
/// its abs sums against scaledMatmulAbsSum on random operands of \p fa x
/// \p fb, both B layouts, many instruction orders.
void checkFormatPair(ElemFormat fa, ElemFormat fb, uint32_t seed) {
  RandomOperands random(seed);
  for (int trial = 0; trial < 60; ++trial) {
    int64_t M = random.uniform(1, 5), N = random.uniform(1, 5);
    int64_t K = 32 * random.uniform(1, 8), numBlocks = K / 32;
    auto codes = static_cast<Codes>(random.uniform(0, 3));
    auto scales = static_cast<Scales>(random.uniform(0, 3));
    auto accKind = static_cast<Accumulator>(random.uniform(0, 4));
    bool bTransposed = random.uniform(0, 1);
    InstructionOrder order;
    order.arithmetic = InstructionArithmetic::Exact;
    order.kStep = 32 << random.uniform(0, 2);
    order.parts = random.uniform(1, 3);
    int64_t span = order.parts * order.kStep;
    order.paddedK = (K + 32 * random.uniform(0, 4) + span - 1) / span * span;

    std::vector<uint8_t> a = random.codes(fa, codes, M * K);
    std::vector<uint8_t> b = random.codes(fb, codes, K * N);
    if (codes == Codes::NegativeZeroProducts) {
      // -0 on A, +0 on B: every product is -0.
      std::fill(a.begin(), a.end(), 1 << (getFormatInfo(fa).bits - 1));
      std::fill(b.begin(), b.end(), 0);
    }
    std::vector<uint8_t> sa = random.scales(scales, M * numBlocks);
    std::vector<uint8_t> sb = random.scales(scales, numBlocks * N);
    std::vector<float> acc = random.accumulators(accKind, M * N);
    const float *accData = acc.empty() ? nullptr : acc.data();

    std::vector<double> absSums;
    std::vector<float> fast = scaledMatmulPerInstruction(
        a.data(), sa.data(), fa, b.data(), sb.data(), fb, M, N, K, bTransposed,
        accData, order, &absSums);
    std::vector<float> exact = detail::exactStepsPerInstruction(
        a.data(), sa.data(), fa, b.data(), sb.data(), fb, M, N, K, bTransposed,
        accData, order);
    std::vector<double> expectedAbsSums =
        scaledMatmulAbsSum(a.data(), sa.data(), fa, b.data(), sb.data(), fb, M,
                           N, K, bTransposed, accData);
    // Without abs sums, the same results.
    std::vector<float> fastOnly =
        scaledMatmulPerInstruction(a.data(), sa.data(), fa, b.data(), sb.data(),
                                   fb, M, N, K, bTransposed, accData, order);

    std::string where = std::string(getFormatInfo(fa).name) + " x " +
                        getFormatInfo(fb).name + ", trial " +
                        std::to_string(trial);
    ASSERT_EQ(fast.size(), exact.size()) << where;
    ASSERT_EQ(absSums.size(), expectedAbsSums.size()) << where;
    for (size_t i = 0; i < fast.size(); ++i) {
      EXPECT_EQ(floatBits(fast[i]), floatBits(exact[i]))
          << where << ", output " << i << ": " << fast[i] << " vs " << exact[i];
      EXPECT_EQ(floatBits(fastOnly[i]), floatBits(exact[i]))
          << where << ", output " << i;
      if (std::isnan(expectedAbsSums[i]))
        EXPECT_TRUE(std::isnan(absSums[i])) << where << ", output " << i;
      else
        EXPECT_EQ(doubleBits(absSums[i]), doubleBits(expectedAbsSums[i]))
            << where << ", output " << i << ": " << absSums[i] << " vs "
            << expectedAbsSums[i];
    }
  }
}

} // namespace

/// Every one of the 25 format pairs.
TEST(ScaledMatmulPerInstruction, FastPathsMatchTheExactSum) {
  uint32_t seed = 1;
  for (ElemFormat fa : kFormats)
    for (ElemFormat fb : kFormats)
      checkFormatPair(fa, fb, seed++);
}

/// An instruction whose terms span more than a double holds goes to the
/// exact sum: acc = 2^101 plus 32 products of 2^120 and 32 of 2^-40 (scales
/// 2^60 and 2^-20 on both sides). 2^125 + 2^101 is a tie between f32
/// neighbours 2^102 apart; the 2^-35 decides it upwards.
TEST(ScaledMatmulPerInstruction, WideSpreadIsSummedExactly) {
  constexpr int64_t K = 64;
  std::vector<uint8_t> a(K, 0x2), b(K, 0x2); // fp4 1.0
  std::vector<uint8_t> sa = {127 - 20, 127 + 60}, sb = {127 - 20, 127 + 60};
  float acc = 0x1p101f;
  InstructionOrder order{64, K, InstructionArithmetic::Exact};
  float result = scaledMatmulPerInstruction(
      a.data(), sa.data(), ElemFormat::E2M1, b.data(), sb.data(),
      ElemFormat::E2M1, 1, 1, K, /*bTransposed=*/true, &acc, order)[0];
  EXPECT_EQ(result, detail::exactStepsPerInstruction(
                        a.data(), sa.data(), ElemFormat::E2M1, b.data(),
                        sb.data(), ElemFormat::E2M1, 1, 1, K,
                        /*bTransposed=*/true, &acc, order)[0]);
  EXPECT_EQ(result, 0x1p125f + 0x1p102f);
}

// ExactSum, from the IEEE rules of one rounding of the exact sum.
TEST(ExactSum, RoundsTheExactSumOnce) {
  auto sum = [](std::initializer_list<double> values) {
    ExactSum s;
    for (double v : values)
      s.add(v);
    return s.round();
  };
  // Cancellation: no intermediate rounding loses the 1.
  EXPECT_EQ(sum({0x1p100, 1.0, -0x1p100}), 1.0f);
  // A tie rounds to even; anything below the tie breaks it upward.
  EXPECT_EQ(sum({1.0, 0x1p-24}), 1.0f);
  EXPECT_EQ(sum({1.0, 0x1p-24, 0x1p-80}), 1.0f + 0x1p-23f);
  // Subnormals: 1.5 * 2^-149 is a tie between 2^-149 and 2^-148 (even).
  EXPECT_EQ(sum({0x1.8p-149}), 0x1p-148f);
  EXPECT_EQ(sum({0x1.8p-149, 0x1.8p-149}), 0x1.8p-148f);
  // Overflow from 2^128 - 2^103 on (the tie above the largest f32).
  EXPECT_EQ(sum({0x1.fffffep127, 0x1p103}), INFINITY);
  EXPECT_EQ(sum({0x1.fffffep127, 0x1p102}), 0x1.fffffep127f);
  // Zeros: -0 only when every value is -0.
  EXPECT_TRUE(std::signbit(sum({-0.0, -0.0})));
  EXPECT_FALSE(std::signbit(sum({-0.0, 0.0})));
  EXPECT_FALSE(std::signbit(sum({1.0, -1.0})));
  EXPECT_FALSE(std::signbit(sum({})));
  // Specials.
  EXPECT_EQ(sum({1.0, INFINITY}), INFINITY);
  EXPECT_EQ(sum({-INFINITY, 1e30}), -INFINITY);
  EXPECT_TRUE(std::isnan(sum({INFINITY, -INFINITY})));
  EXPECT_TRUE(std::isnan(sum({1.0, NAN})));
}
