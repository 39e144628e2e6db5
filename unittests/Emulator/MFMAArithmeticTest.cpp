//===- MFMAArithmeticTest.cpp - the scaled MFMA arithmetic models ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The emulator's arithmetic models of one scaled MFMA output (exactScaledDot,
// cdna3GroupedScaledDot) against the reference's independent implementations
// of the same models (mx::ref::scaledMatmulPerInstruction with one
// instruction), bit for bit on random inputs of every format pair, and the
// grouped model on cases worked out by hand from its definition.
//
//===----------------------------------------------------------------------===//

#include "RandomDotInputs.h"

#include "mx/Emulator/ScaledMFMA.h"
#include "mx/Reference/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using mlir::mx::emu::MFMAArithmetic;
using mlir::mx::emu::MFMAShape;
using mlir::mx::emu::ScaledDotInputs;
using mlir::mx::emu::SourceFormat;
using namespace mlir::mx::emu::test;

namespace {

/// The reference's result for one instruction's inputs \p in.
float referenceDot(const ScaledDotInputs &in,
                   mx::ref::InstructionArithmetic arithmetic) {
  mx::ref::InstructionOrder order{in.k, in.k, arithmetic};
  return mx::ref::scaledMatmulPerInstruction(
      in.a, in.scaleA, toRef(in.fmtA), in.b, in.scaleB, toRef(in.fmtB), 1, 1,
      in.k, /*bTransposed=*/true, &in.c, order)[0];
}

/// Whether \p x and \p y are the same bits, or both NaN.
bool sameResult(float x, float y) {
  return bitsOf(x) == bitsOf(y) || (std::isnan(x) && std::isnan(y));
}

/// Runs \p iterations random inputs of every format pair and instruction
/// through the emulator's model \p arithmetic and the reference's.
void checkAgainstReference(MFMAArithmetic arithmetic,
                           mx::ref::InstructionArithmetic refArithmetic,
                           int iterations, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto numerics = mlir::mx::emu::getScaledDotFn(arithmetic);
  forEachPairAndShape([&](SourceFormat fa, SourceFormat fb, MFMAShape shape) {
    int k = mlir::mx::emu::depthOf(shape);
    RandomDot dot;
    for (int iter = 0; iter < iterations; ++iter) {
      ScaledDotInputs in = dot.draw(fa, fb, k, rng);
      float emulated = numerics(in);
      float reference = referenceDot(in, refArithmetic);
      ASSERT_TRUE(sameResult(emulated, reference))
          << describe(fa, fb, k) << ", iteration " << iter << ": emulator "
          << emulated << ", reference " << reference << ", C " << in.c;
    }
  });
}

TEST(MFMAArithmetic, ExactMatchesReferencePerInstruction) {
  checkAgainstReference(MFMAArithmetic::Exact,
                        mx::ref::InstructionArithmetic::Exact, 150, 11);
}

TEST(MFMAArithmetic, GroupedMatchesReferencePerInstruction) {
  checkAgainstReference(MFMAArithmetic::CDNA3Grouped,
                        mx::ref::InstructionArithmetic::CDNA3Grouped, 150, 12);
}

/// Small integers (at most 3 significant bits) with scales within 2^+-4 and
/// small integer C: every aligned product and partial sum keeps all its
/// bits, so the grouped model gives the exact model's bits.
TEST(MFMAArithmetic, GroupedIsExactOnSmallIntegers) {
  std::mt19937_64 rng(13);
  forEachPairAndShape([&](SourceFormat fa, SourceFormat fb, MFMAShape shape) {
    int k = mlir::mx::emu::depthOf(shape);
    int blocks = mlir::mx::emu::blocksOf(shape);
    // Codes of +-{0, 1, 2, 3, 4} in each format, by value.
    auto intCodes = [](SourceFormat fmt) {
      std::vector<uint8_t> codes;
      for (int code = 0; code < (1 << mlir::mx::emu::bitsOf(fmt)); ++code) {
        double v = mlir::mx::emu::decodeElement(fmt, code);
        if (std::isfinite(v) && v == std::round(v) && std::fabs(v) <= 4)
          codes.push_back(uint8_t(code));
      }
      return codes;
    };
    std::vector<uint8_t> codesA = intCodes(fa), codesB = intCodes(fb);
    std::vector<uint8_t> a(k), b(k), sa(blocks), sb(blocks);
    for (int iter = 0; iter < 100; ++iter) {
      for (int i = 0; i < k; ++i) {
        a[i] = codesA[rng() % codesA.size()];
        b[i] = codesB[rng() % codesB.size()];
      }
      for (int blk = 0; blk < blocks; ++blk) {
        sa[blk] = uint8_t(125 + rng() % 5);
        sb[blk] = uint8_t(125 + rng() % 5);
      }
      float c = float(int(rng() % 17) - 8);
      ScaledDotInputs in{fa,       fb,        k,         a.data(),
                         b.data(), sa.data(), sb.data(), c};
      ASSERT_EQ(bitsOf(mlir::mx::emu::cdna3GroupedScaledDot(in)),
                bitsOf(mlir::mx::emu::exactScaledDot(in)))
          << describe(fa, fb, k) << ", iteration " << iter;
    }
  });
}

/// One E4M3 x E4M3 instruction (K = 128, unit scales) with the given
/// nonzero codes at positions of the first group; the rest are +0.
struct GroupCase {
  std::vector<uint8_t> a = std::vector<uint8_t>(128, 0);
  std::vector<uint8_t> b = std::vector<uint8_t>(128, 0);
  std::vector<uint8_t> sa = std::vector<uint8_t>(4, 127);
  std::vector<uint8_t> sb = std::vector<uint8_t>(4, 127);
  float c = 0;

  ScaledDotInputs inputs() const {
    return {SourceFormat::E4M3, SourceFormat::E4M3, 128,       a.data(),
            b.data(),           sa.data(),          sb.data(), c};
  }
  float grouped() const {
    return mlir::mx::emu::cdna3GroupedScaledDot(inputs());
  }
  float exact() const { return mlir::mx::emu::exactScaledDot(inputs()); }
};

// E4M3 codes (bias 7, 3 mantissa bits): 0x58 = 16, 0xD8 = -16, 0x38 = 1,
// 0x48 = 4, 0xC8 = -4, 0x02 = 2^-8 (subnormal 2/8 * 2^-6), 0x01 = 2^-9,
// 0x81 = -2^-9; e() of a subnormal is -6.

/// A product below the half's alignment is truncated away: even half
/// 16 * 16 = 2^8 (e = 8) and 2^-8 * 2^-9 = 2^-17 (e = -12): in units of
/// 2^(8 - 24) = 2^-16 the latter is 0.5, truncated to 0; the odd half
/// -16 * 16 = -2^8. Grouped: 2^8 - 2^8 = +0; exact: 2^-17.
TEST(MFMAArithmetic, GroupedTruncatesProductsBelowTheHalfsAlignment) {
  GroupCase g;
  g.a[0] = 0x58, g.b[0] = 0x58;
  g.a[2] = 0x02, g.b[2] = 0x01;
  g.a[1] = 0xD8, g.b[1] = 0x58;
  EXPECT_EQ(bitsOf(g.grouped()), bitsOf(0.0f));
  EXPECT_EQ(g.exact(), std::ldexp(1.0f, -17));
}

/// The halves are floored (toward -inf) to the group's alignment: even half
/// 2^8 (E = 8), odd half -2^-9 * 2^-8 = -2^-17 (E = -12, exact in its own
/// alignment), floored to units of 2^-16: -1, so s = 2^8 - 2^-16, exact in
/// f32. Exact: 2^8 - 2^-17 is halfway between 2^8 - 2^-16 and 2^8 and rounds
/// to the even 2^8.
TEST(MFMAArithmetic, GroupedFloorsTheHalvesTowardMinusInfinity) {
  GroupCase g;
  g.a[0] = 0x58, g.b[0] = 0x58;
  g.a[1] = 0x81, g.b[1] = 0x02;
  EXPECT_EQ(g.grouped(), 256.0f - std::ldexp(1.0f, -16));
  EXPECT_EQ(g.exact(), 256.0f);
}

/// C more than 25 binades below the products' exponent is dropped: 2^26 and
/// -2^26 (E = 26; 2^13 * 2^13 with scales 2^9 on both sides: 16 * 16 * 2^18
/// = 2^26) cancel, C = 1 has e = 0 < 26 - 25. Grouped: +0; exact: 1.
TEST(MFMAArithmetic, GroupedDropsAFarSmallerAccumulator) {
  GroupCase g;
  g.sa[0] = 127 + 9, g.sb[0] = 127 + 9;
  g.a[0] = 0x58, g.b[0] = 0x58;
  g.a[1] = 0xD8, g.b[1] = 0x58;
  g.c = 1.0f;
  EXPECT_EQ(bitsOf(g.grouped()), bitsOf(0.0f));
  EXPECT_EQ(g.exact(), 1.0f);
}

/// C is floored to 24 fractional bits of the largest exponent: products 4
/// and -4 (E = 2) cancel; C = -(1 + 2^-23) floored to a multiple of 2^-22
/// is -(1 + 2^-22). Exact: C itself. With C = 1 + 2^-23: 1.
TEST(MFMAArithmetic, GroupedFloorsTheAccumulator) {
  GroupCase g;
  g.a[0] = 0x48, g.b[0] = 0x38;
  g.a[1] = 0xC8, g.b[1] = 0x38;
  float up = 1.0f + std::ldexp(1.0f, -23);
  g.c = -up;
  EXPECT_EQ(g.grouped(), -(1.0f + std::ldexp(1.0f, -22)));
  EXPECT_EQ(g.exact(), -up);
  g.c = up;
  EXPECT_EQ(g.grouped(), 1.0f);
}

/// The accumulator is rounded after every group of 16: C = 2^24 plus 1 in
/// each of two groups. Grouped: 2^24 + 1 is a tie that rounds to the even
/// 2^24, twice; exact: 2^24 + 2.
TEST(MFMAArithmetic, GroupedRoundsAfterEveryGroupOf16) {
  GroupCase g;
  g.c = std::ldexp(1.0f, 24);
  g.a[0] = 0x38, g.b[0] = 0x38;
  g.a[16] = 0x38, g.b[16] = 0x38;
  EXPECT_EQ(g.grouped(), std::ldexp(1.0f, 24));
  EXPECT_EQ(g.exact(), std::ldexp(1.0f, 24) + 2.0f);
}

} // namespace
