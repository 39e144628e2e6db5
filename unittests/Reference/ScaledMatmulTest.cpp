//===- ScaledMatmulTest.cpp - Scaled matmul and packing tests -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrices are small, with exact integer/dyadic values and a different
// scale for every block, so that the expected results can be worked out by
// hand (see the comments) and any K-order or scale-indexing bug shows.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

using namespace mx::ref;

namespace {

constexpr float kFltInf = std::numeric_limits<float>::infinity();

/// A = fp4 [2, 64], B = E4M3 [64, 3], two K-blocks.
struct HandExample {
  static constexpr int64_t M = 2, N = 3, K = 64;
  std::vector<uint8_t> a = std::vector<uint8_t>(M * K, 0);
  std::vector<uint8_t> b = std::vector<uint8_t>(K * N, 0);
  // sa [M, K/32]: row 0 x1, x4; row 1 x0.5, x8.
  std::vector<uint8_t> sa = {127, 129, 126, 130};
  // sb [K/32, N]: block 0 x1, x2, x0.25; block 1 x16, x1, x0.5.
  std::vector<uint8_t> sb = {127, 128, 125, 131, 127, 126};

  HandExample() {
    a[0 * K + 0] = 0x2;   // 1.0
    a[0 * K + 5] = 0x5;   // 3.0
    a[0 * K + 33] = 0x7;  // 6.0
    a[0 * K + 63] = 0xC;  // -2.0
    a[1 * K + 1] = 0x3;   // 1.5
    a[1 * K + 40] = 0xA;  // -1.0
    b[0 * N + 0] = 0x38;  // 1.0
    b[5 * N + 0] = 0x40;  // 2.0
    b[33 * N + 0] = 0x3C; // 1.5
    b[63 * N + 0] = 0x44; // 3.0
    b[1 * N + 1] = 0x48;  // 4.0
    b[40 * N + 1] = 0x30; // 0.5
    b[0 * N + 2] = 0xB8;  // -1.0
    b[33 * N + 2] = 0x7E; // 448
  }

  /// B as [N, K] and its scales as [N, K/32].
  std::vector<uint8_t> bTransposed() const {
    std::vector<uint8_t> t(N * K);
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n)
        t[n * K + k] = b[k * N + n];
    return t;
  }
  std::vector<uint8_t> sbTransposed() const {
    std::vector<uint8_t> t(N * 2);
    for (int64_t blk = 0; blk < 2; ++blk)
      for (int64_t n = 0; n < N; ++n)
        t[n * 2 + blk] = sb[blk * N + n];
    return t;
  }
};

// C[0][0] = (1*1 + 3*2) * 1 * 1 + (6*1.5 + -2*3) * 4 * 16 = 7 + 192 = 199
// C[0][1] = 0 (no overlapping nonzeros)
// C[0][2] = (1 * -1) * 1 * 0.25 + (6 * 448) * 4 * 0.5 = -0.25 + 5376
// C[1][0] = 0, C[1][2] = 0
// C[1][1] = (1.5 * 4) * 0.5 * 2 + (-1 * 0.5) * 8 * 1 = 6 - 4 = 2
const std::vector<float> kHandExpected = {199, 0, 5375.75, 0, 2, 0};

TEST(ScaledMatmul, HandExampleNN) {
  HandExample ex;
  std::vector<float> c = scaledMatmul(
      ex.a.data(), ex.sa.data(), ElemFormat::E2M1, ex.b.data(), ex.sb.data(),
      ElemFormat::E4M3, ex.M, ex.N, ex.K, /*bTransposed=*/false, nullptr);
  EXPECT_EQ(c, kHandExpected);
}

TEST(ScaledMatmul, HandExampleNT) {
  HandExample ex;
  std::vector<uint8_t> bt = ex.bTransposed();
  std::vector<uint8_t> sbt = ex.sbTransposed();
  std::vector<float> c = scaledMatmul(
      ex.a.data(), ex.sa.data(), ElemFormat::E2M1, bt.data(), sbt.data(),
      ElemFormat::E4M3, ex.M, ex.N, ex.K, /*bTransposed=*/true, nullptr);
  EXPECT_EQ(c, kHandExpected);
}

TEST(ScaledMatmul, Accumulator) {
  HandExample ex;
  const float acc[6] = {1, 2, 3, 4, 5, -6};
  std::vector<float> c = scaledMatmul(
      ex.a.data(), ex.sa.data(), ElemFormat::E2M1, ex.b.data(), ex.sb.data(),
      ElemFormat::E4M3, ex.M, ex.N, ex.K, false, acc);
  EXPECT_EQ(c, (std::vector<float>{200, 2, 5378.75, 4, 7, -6}));
}

TEST(ScaledMatmul, NaNScalePoisonsRowOrColumn) {
  HandExample ex;
  ex.sa[1 * 2 + 0] = 0xFF; // Row 1, block 0.
  ex.sb[0 * 3 + 2] = 0xFF; // Block 0, column 2.
  std::vector<float> c = scaledMatmul(
      ex.a.data(), ex.sa.data(), ElemFormat::E2M1, ex.b.data(), ex.sb.data(),
      ElemFormat::E4M3, ex.M, ex.N, ex.K, false, nullptr);
  EXPECT_EQ(c[0], 199.0f);
  EXPECT_EQ(c[1], 0.0f);
  EXPECT_TRUE(std::isnan(c[2]));
  EXPECT_TRUE(std::isnan(c[3]));
  EXPECT_TRUE(std::isnan(c[4]));
  EXPECT_TRUE(std::isnan(c[5]));
}

TEST(ScaledMatmul, RoundsOnceToF32) {
  // Two blocks each contribute 1; acc = 2^24. Exact sum 2^24 + 2 is an f32,
  // while adding in f32 one block at a time would stay at 2^24.
  std::vector<uint8_t> a(64, 0), b(64, 0);
  a[3] = a[40] = 0x2; // 1.0
  b[3] = b[40] = 0x2;
  const uint8_t scales[2] = {127, 127};
  const float acc1 = 0x1p24f;
  std::vector<float> c =
      scaledMatmul(a.data(), scales, ElemFormat::E2M1, b.data(), scales,
                   ElemFormat::E2M1, 1, 1, 64, true, &acc1);
  EXPECT_EQ(c[0], 0x1p24f + 2);
  // Blocks of 2^-24 each (scale bytes 103 * 127): 1 + 2^-23 exactly.
  const uint8_t tinyScales[2] = {103, 103};
  const float acc2 = 1.0f;
  c = scaledMatmul(a.data(), tinyScales, ElemFormat::E2M1, b.data(), scales,
                   ElemFormat::E2M1, 1, 1, 64, true, &acc2);
  EXPECT_EQ(c[0], 1.0f + 0x1p-23f);
}

TEST(ScaledMatmul, ScaleRangeBeyondF32) {
  std::vector<uint8_t> one(32, 0);
  one[7] = 0x2; // 1.0 at k = 7.
  auto run = [&](uint8_t sa, uint8_t sb) {
    return scaledMatmul(one.data(), &sa, ElemFormat::E2M1, one.data(), &sb,
                        ElemFormat::E2M1, 1, 1, 32, true, nullptr)[0];
  };
  EXPECT_EQ(run(254, 254), kFltInf); // 2^254 overflows.
  EXPECT_EQ(run(0, 0), 0.0f);        // 2^-254 underflows.
  EXPECT_EQ(run(0, 127), 0x1p-127f); // Subnormal result kept.
  EXPECT_EQ(run(254, 0), 1.0f);      // 2^127 * 2^-127.
  EXPECT_EQ(run(200, 100), 0x1p46f); // 2^73 * 2^-27.
}

TEST(ScaledMatmul, Fp6Operands) {
  // A E2M3, B E3M2, one block. Nonzero products: 1*0.5 + 1*28 +
  // 1*-0.0625 + 1*3 + -7.5*1 = 23.9375; scales 1 * 0.5.
  std::vector<uint8_t> a(32, 0), b(32, 0);
  a[0] = a[1] = a[2] = a[3] = 0x08; // 1.0
  a[4] = 0x3F;                      // -7.5
  a[31] = 0x1F;                     // 7.5, times B = 0.
  b[0] = 0x08;                      // 0.5
  b[1] = 0x1F;                      // 28
  b[2] = 0x21;                      // -0.0625
  b[3] = 0x12;                      // 3
  b[4] = 0x0C;                      // 1
  const uint8_t sa = 127, sb = 126;
  std::vector<float> c =
      scaledMatmul(a.data(), &sa, ElemFormat::E2M3, b.data(), &sb,
                   ElemFormat::E3M2, 1, 1, 32, false, nullptr);
  EXPECT_EQ(c[0], 11.96875f);
}

TEST(ScaledMatmul, Fp8SpecialsPropagate) {
  // A = E5M2 [1, 32] with +Inf at k = 0; B = [32, 2] E5M2: column 0 is 0 at
  // k = 0 (Inf * 0 = NaN), column 1 is 1.0 there (Inf).
  std::vector<uint8_t> a(32, 0), b(64, 0);
  a[0] = 0x7C;
  b[0 * 2 + 1] = 0x3C;
  const uint8_t sa = 127;
  const uint8_t sb[2] = {127, 127};
  std::vector<float> c =
      scaledMatmul(a.data(), &sa, ElemFormat::E5M2, b.data(), sb,
                   ElemFormat::E5M2, 1, 2, 32, false, nullptr);
  EXPECT_TRUE(std::isnan(c[0]));
  EXPECT_EQ(c[1], kFltInf);
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

TEST(Pack, Fp4LowNibbleFirst) {
  const uint8_t codes[5] = {0x1, 0x2, 0x3, 0x4, 0x5};
  std::vector<uint8_t> packed = pack(ElemFormat::E2M1, codes, 5);
  EXPECT_EQ(packed, (std::vector<uint8_t>{0x21, 0x43, 0x05}));
  EXPECT_EQ(unpack(ElemFormat::E2M1, packed.data(), 5),
            std::vector<uint8_t>(codes, codes + 5));
  const uint8_t wide[2] = {0x1F, 0xF0}; // High bits are ignored.
  EXPECT_EQ(pack(ElemFormat::E2M1, wide, 2), (std::vector<uint8_t>{0x0F}));
}

TEST(Pack, Fp6HandPacked) {
  // 1 | 2 << 6 | 3 << 12 | 4 << 18 = 0x103081.
  const uint8_t codes1[4] = {1, 2, 3, 4};
  EXPECT_EQ(pack(ElemFormat::E2M3, codes1, 4),
            (std::vector<uint8_t>{0x81, 0x30, 0x10}));
  // 0x3F | 0x2A << 12 | 0x15 << 18 = 0x56A03F.
  const uint8_t codes2[4] = {0x3F, 0x00, 0x2A, 0x15};
  EXPECT_EQ(pack(ElemFormat::E3M2, codes2, 4),
            (std::vector<uint8_t>{0x3F, 0xA0, 0x56}));
  // A fifth item starts a new 3-byte group: ceil(30 / 8) = 4 bytes.
  const uint8_t codes3[5] = {1, 2, 3, 4, 0x3F};
  EXPECT_EQ(pack(ElemFormat::E2M3, codes3, 5),
            (std::vector<uint8_t>{0x81, 0x30, 0x10, 0x3F}));
  // 32 items = 192 bits; item 5 (bits 35:30) straddles dwords 0 and 1.
  std::vector<uint8_t> items(32, 0);
  items[5] = 0x3F;
  std::vector<uint8_t> expected(24, 0);
  expected[3] = 0xC0;
  expected[4] = 0x0F;
  std::vector<uint8_t> packed = pack(ElemFormat::E2M3, items.data(), 32);
  EXPECT_EQ(packed, expected);
  EXPECT_EQ(unpack(ElemFormat::E2M3, packed.data(), 32), items);
}

TEST(Pack, Fp8IsACopy) {
  const uint8_t codes[3] = {0x00, 0x7F, 0xA5};
  EXPECT_EQ(pack(ElemFormat::E4M3, codes, 3),
            (std::vector<uint8_t>{0x00, 0x7F, 0xA5}));
  EXPECT_EQ(unpack(ElemFormat::E5M2, codes, 3),
            (std::vector<uint8_t>{0x00, 0x7F, 0xA5}));
}

TEST(Pack, RoundTripAllFormats) {
  const ElemFormat formats[] = {ElemFormat::E4M3, ElemFormat::E5M2,
                                ElemFormat::E2M3, ElemFormat::E3M2,
                                ElemFormat::E2M1};
  uint32_t state = 12345;
  for (ElemFormat f : formats) {
    int bits = getFormatInfo(f).bits;
    for (int64_t n = 1; n <= 70; ++n) {
      std::vector<uint8_t> codes(n);
      for (uint8_t &c : codes) {
        state = state * 1664525u + 1013904223u;
        c = static_cast<uint8_t>((state >> 24) & ((1u << bits) - 1));
      }
      std::vector<uint8_t> packed = pack(f, codes.data(), n);
      EXPECT_EQ(static_cast<int64_t>(packed.size()), (n * bits + 7) / 8);
      EXPECT_EQ(unpack(f, packed.data(), n), codes);
    }
  }
}

/// scaledMatmulPerInstruction rounds after every instruction of kStep K
/// values: A = B = fp4 [1, 384], 1.0 at k = 0, 128 and 256 (one per
/// 128-wide instruction), block 0 scaled by 2^24 on A: the terms are 2^24,
/// 1, 1. Rounded once: 2^24 + 2. Per 128 (or 64) K: 2^24 + 1 is a tie that
/// rounds to the even 2^24, each time. One instruction of 384: once.
TEST(ScaledMatmulPerInstruction, RoundsAfterEveryInstruction) {
  constexpr int64_t K = 384;
  std::vector<uint8_t> a(K, 0), b(K, 0), sa(K / 32, 127), sb(K / 32, 127);
  for (int64_t k : {0, 128, 256})
    a[k] = b[k] = 0x2; // 1.0
  sa[0] = 127 + 24;
  auto run = [&](int64_t kStep, InstructionArithmetic arithmetic) {
    return scaledMatmulPerInstruction(
        a.data(), sa.data(), ElemFormat::E2M1, b.data(), sb.data(),
        ElemFormat::E2M1, 1, 1, K, /*bTransposed=*/true, nullptr,
        InstructionOrder{kStep, K, arithmetic})[0];
  };
  EXPECT_EQ(scaledMatmul(a.data(), sa.data(), ElemFormat::E2M1, b.data(),
                         sb.data(), ElemFormat::E2M1, 1, 1, K,
                         /*bTransposed=*/true, nullptr)[0],
            16777218.0f);
  for (InstructionArithmetic arithmetic :
       {InstructionArithmetic::Exact, InstructionArithmetic::CDNA3Grouped}) {
    EXPECT_EQ(run(128, arithmetic), 16777216.0f);
    EXPECT_EQ(run(64, arithmetic), 16777216.0f);
  }
  EXPECT_EQ(run(384, InstructionArithmetic::Exact), 16777218.0f);
  // The grouped model rounds after every 16 products even within one
  // instruction.
  EXPECT_EQ(run(384, InstructionArithmetic::CDNA3Grouped), 16777216.0f);
}

/// Padding K with zero products: an exact zero is -0 only when the
/// accumulator and every product of the instruction are -0 (products
/// -0 * +0), and the padding's products are +0.
TEST(ScaledMatmulPerInstruction, PaddingGivesPositiveZeroProducts) {
  std::vector<uint8_t> a(32, 0x8), b(32, 0), sa(1, 127), sb(1, 127);
  float acc = -0.0f;
  auto run = [&](int64_t paddedK) {
    return scaledMatmulPerInstruction(
        a.data(), sa.data(), ElemFormat::E2M1, b.data(), sb.data(),
        ElemFormat::E2M1, 1, 1, 32, /*bTransposed=*/true, &acc,
        InstructionOrder{32, paddedK, InstructionArithmetic::Exact})[0];
  };
  EXPECT_TRUE(std::signbit(run(32)));
  EXPECT_FALSE(std::signbit(run(64)));
}

/// scaledMatmulAbsSum: |acc| + sum |scaled product|. A = [1, 64] fp4 with
/// 2, -3 at k = 0, 1 (scale 2^1) and 4 at k = 32 (scale 2^-1); B = 1.5
/// everywhere (scale 1); acc = -2: 2 + (3 + 4.5) * 2 + 6 * 0.5 = 20.
TEST(ScaledMatmulAbsSum, SumsMagnitudes) {
  std::vector<uint8_t> a(64, 0), b(64, 0x3), sa = {128, 126}, sb = {127, 127};
  a[0] = 0x4;  // 2
  a[1] = 0xD;  // -3
  a[32] = 0x6; // 4
  float acc = -2.0f;
  EXPECT_EQ(scaledMatmulAbsSum(a.data(), sa.data(), ElemFormat::E2M1, b.data(),
                               sb.data(), ElemFormat::E2M1, 1, 1, 64,
                               /*bTransposed=*/true, &acc)[0],
            20.0);
}

} // namespace

/// T = 4 rows of K = 32 with one nonzero element each (row t: 1, 1.5, 2, 3),
/// E = 3 experts of N = 1 whose weight is 1, 2 or 3 at k = 0, unit scales.
struct GroupedExample {
  static constexpr int64_t T = 4, E = 3, N = 1, K = 32;
  std::vector<uint8_t> a = std::vector<uint8_t>(T * K, 0);
  std::vector<uint8_t> b = std::vector<uint8_t>(E * N * K, 0);
  std::vector<uint8_t> sa = std::vector<uint8_t>(T, 127);
  std::vector<uint8_t> sb = std::vector<uint8_t>(E * N, 127);
  std::vector<float> acc = {10, 20, 30, 40};

  GroupedExample() {
    a[0 * K] = 0x2; // 1.0
    a[1 * K] = 0x3; // 1.5
    a[2 * K] = 0x4; // 2.0
    a[3 * K] = 0x5; // 3.0
    b[0 * K] = 0x2; // 1.0
    b[1 * K] = 0x4; // 2.0
    b[2 * K] = 0x5; // 3.0
  }
  std::optional<std::vector<float>> run(std::vector<int64_t> offsets) {
    return groupedScaledMatmul(a.data(), sa.data(), ElemFormat::E2M1, b.data(),
                               sb.data(), ElemFormat::E2M1, offsets.data(), E,
                               T, N, K, acc.data());
  }
};

TEST(GroupedScaledMatmul, EmptyFirstAndLastExperts) {
  // Rows 1 and 2 are expert 1's (x 2); rows 0 and 3 belong to no expert.
  EXPECT_EQ(GroupedExample().run({1, 1, 3, 3}),
            (std::vector<float>{10, 23, 34, 40}));
}

TEST(GroupedScaledMatmul, EmptyMiddleExpert) {
  // Row 0 is expert 0's (x 1), rows 1..3 expert 2's (x 3).
  EXPECT_EQ(GroupedExample().run({0, 1, 1, 4}),
            (std::vector<float>{11, 24.5, 36, 49}));
}

TEST(GroupedScaledMatmul, InconsistentOffsets) {
  GroupedExample ex;
  EXPECT_EQ(ex.run({0, 2, 1, 4}), std::nullopt);  // Decreasing.
  EXPECT_EQ(ex.run({0, 1, 1, 5}), std::nullopt);  // Past T.
  EXPECT_EQ(ex.run({-1, 1, 1, 4}), std::nullopt); // Negative.
}

/// The routed form on GroupedExample's tokens and experts, top 2: routed row
/// r is token r / 2 (acc 10 + r), blocks of 2 sorted positions; id 8 is
/// padding (T * top_k).
struct RoutedExample : GroupedExample {
  std::vector<float> routedAcc = {10, 11, 12, 13, 14, 15, 16, 17};
  std::optional<std::vector<float>> run(std::vector<int32_t> ids,
                                        std::vector<int32_t> experts) {
    return routedScaledMatmul(a.data(), sa.data(), ElemFormat::E2M1, b.data(),
                              sb.data(), ElemFormat::E2M1, ids.data(),
                              ids.size(), experts.data(), experts.size(),
                              /*topK=*/2, E, T, N, K, routedAcc.data());
  }
};

TEST(RoutedScaledMatmul, RowsGoToTheirRoutedRows) {
  // Block 0 (expert 2, x 3): rows 5 (token 2: 2.0) and 0 (token 0: 1.0).
  // Block 1 (expert 0, x 1): row 7 (token 3: 3.0) and padding.
  // Block 2 (expert -1, another rank's): row 1 keeps acc.
  EXPECT_EQ(RoutedExample().run({5, 0, 7, 8, 1, 8}, {2, 0, -1}),
            (std::vector<float>{13, 11, 12, 13, 14, 21, 16, 20}));
}

TEST(RoutedScaledMatmul, BlocksMustDivideThePositions) {
  EXPECT_EQ(RoutedExample().run({0, 1, 2}, {0, 1}), std::nullopt);
}

TEST(RoutedScaledMatmul, RowsNamedTwiceAreInconsistent) {
  RoutedExample ex;
  // Row 5 in blocks of experts 2 and 0, then twice in one block.
  EXPECT_EQ(ex.run({5, 8, 5, 8}, {2, 0}), std::nullopt);
  EXPECT_EQ(ex.run({5, 5, 8, 8}, {2, 0}), std::nullopt);
  // Named again by a block of an expert outside [0, E) too: a GPU kernel
  // from zero writes +0.0 in that block's rows, so it is a conflict.
  EXPECT_EQ(ex.run({5, 8, 5, 8}, {2, 7}), std::nullopt);
  // Padding ids (outside [0, T * top_k)) may repeat.
  EXPECT_EQ(ex.run({5, 8, 8, 8}, {2, 7}),
            (std::vector<float>{10, 11, 12, 13, 14, 21, 16, 17}));
}
