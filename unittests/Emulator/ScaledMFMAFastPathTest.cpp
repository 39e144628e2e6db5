//===- ScaledMFMAFastPathTest.cpp - fast vs wide scaled MFMA numerics -----===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//
//
// A randomized differential test of the two exact paths of the scaled MFMA
// numerics: exactScaledDot (integer block sums combined in 128 bits, falling
// back to the wide path) against wideScaledDot (the 640-bit fixed-point sum),
// for all 25 A x B format pairs and both instructions' K, per output element
// and for whole waves (scaledMFMA, whose fast path decodes the wave once).
// Both must give the same bits for every input; the inputs mix ordinary data
// with extreme and NaN scales, NaN/Inf codes, zeros of both signs,
// cancellation to exact zero, and C from zero to Inf/NaN and denormals.
//
//===----------------------------------------------------------------------===//

#include "RandomDotInputs.h"

#include "mx/Emulator/ScaledMFMA.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using mlir::mx::emu::MFMAShape;
using mlir::mx::emu::ScaledDotInputs;
using mlir::mx::emu::SourceFormat;
using namespace mlir::mx::emu::test;

namespace {

/// Single output elements: exactScaledDot and wideScaledDot agree bit for
/// bit (NaN included: both give the canonical quiet NaN).
TEST(EmulatorFastPath, DotMatchesWidePathForAllFormatPairs) {
  std::mt19937_64 rng(20261123);
  forEachPairAndShape([&](SourceFormat fa, SourceFormat fb, MFMAShape shape) {
    int k = mlir::mx::emu::depthOf(shape);
    RandomDot dot;
    for (int iter = 0; iter < 600; ++iter) {
      ScaledDotInputs in = dot.draw(fa, fb, k, rng);
      float fast = mlir::mx::emu::exactScaledDot(in);
      float wide = mlir::mx::emu::wideScaledDot(in);
      ASSERT_EQ(bitsOf(fast), bitsOf(wide))
          << describe(fa, fb, k) << ", iteration " << iter << ": fast " << fast
          << ", wide " << wide << ", C " << in.c;
    }
  });
}

/// Whole waves: scaledMFMA with the default numerics (the wave-level fast
/// path) and with wideScaledDot agree bit for bit on random registers
/// (codes packed densely; which K each lands on does not matter here).
TEST(EmulatorFastPath, WaveMatchesWidePathForAllFormatPairs) {
  std::mt19937_64 rng(7);
  forEachPairAndShape([&](SourceFormat fa, SourceFormat fb, MFMAShape shape) {
    int acc = mlir::mx::emu::accumulatorsPerLane(shape);
    int k = mlir::mx::emu::depthOf(shape);
    for (int iter = 0; iter < 6; ++iter) {
      Scenario s = randomScenario(rng);
      // Ordinary data in half of the waves, so the fast path runs.
      if (iter % 2 == 0) {
        s.specials = 0;
        s.scaleKind = 0;
        s.cKind = 2;
      }
      auto pack = [&](SourceFormat fmt, bool flip) {
        int bits = mlir::mx::emu::bitsOf(fmt);
        std::vector<uint32_t> words(mlir::mx::emu::kWaveSize *
                                    mlir::mx::emu::wordsPerLane(fmt));
        std::vector<uint8_t> codes(k);
        for (int lane = 0; lane < mlir::mx::emu::kWaveSize; ++lane) {
          if (lane * 32 % k == 0)
            fillCodes(fmt, s, flip, k, codes.data(), rng);
          for (int t = 0; t < mlir::mx::emu::kItemsPerLane; ++t) {
            uint64_t bit = uint64_t(lane) * 32 * bits + uint64_t(t) * bits;
            uint64_t code = codes[(lane * 32 + t) % k];
            words[bit / 32] |= uint32_t(code << (bit % 32));
            if (bit % 32 + bits > 32)
              words[bit / 32 + 1] |= uint32_t(code >> (32 - bit % 32));
          }
        }
        return words;
      };
      std::vector<uint32_t> a = pack(fa, true), b = pack(fb, false);
      std::vector<uint32_t> sa(mlir::mx::emu::kWaveSize),
          sb(mlir::mx::emu::kWaveSize);
      for (int lane = 0; lane < mlir::mx::emu::kWaveSize; ++lane) {
        sa[lane] = uint32_t(rng()) & 0xFFFF00FFu;
        sa[lane] |= uint32_t(randomScale(s, rng)) << 8; // opsel 1
        sb[lane] = randomScale(s, rng);                 // opsel 0
      }
      std::vector<float> c(mlir::mx::emu::kWaveSize * acc);
      for (float &x : c)
        x = randomC(s, rng);
      mlir::mx::emu::ScaledMFMAOperands ops{
          shape,    fa,        fb, a.data(),  b.data(),
          c.data(), sa.data(), 1,  sb.data(), 0};
      std::vector<float> fast(c.size()), wide(c.size());
      mlir::mx::emu::scaledMFMA(ops, fast.data());
      mlir::mx::emu::scaledMFMA(ops, wide.data(), mlir::mx::emu::wideScaledDot);
      for (size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(bitsOf(fast[i]), bitsOf(wide[i]))
            << describe(fa, fb, k) << ", wave " << iter << ", lane " << i / acc
            << " item " << i % acc << ": fast " << fast[i] << ", wide "
            << wide[i];
    }
  });
}

/// Runs one edge case of WindowAndRoundingEdges through the wave-level
/// scaledMFMA (its own fast path, which sums in double where that is
/// exact): E2M1 x E2M1 on 16x16x128, the products 1 * 1 of blocks 0, 1
/// (and 2 unless its scales are 0xFF) and C in output (0, 0), every other
/// element 0 and every other scale 127. Checks it against the wide path and
/// against the known value.
void checkWaveCase(const char *what, uint8_t sa0, uint8_t sb0, uint8_t sa1,
                   uint8_t sb1, uint8_t sa2, uint8_t sb2, float c,
                   float expected) {
  using namespace mlir::mx::emu;
  const MFMAShape shape = MFMAShape::M16N16K128;
  // Lane r + 16 g holds K 32 g .. 32 g + 31 of row r (column r of B) and
  // the scale of that row's block g; item 0 is the low nibble of word 0.
  int words = wordsPerLane(SourceFormat::E2M1);
  std::vector<uint32_t> a(kWaveSize * words, 0), b(kWaveSize * words, 0);
  std::vector<uint32_t> sa(kWaveSize, 127), sb(kWaveSize, 127);
  const uint8_t scalesA[] = {sa0, sa1, sa2}, scalesB[] = {sb0, sb1, sb2};
  for (int blk = 0; blk < 3; ++blk) {
    if (blk == 2 && sa2 == 0xFF)
      break;
    a[16 * blk * words] = b[16 * blk * words] = 0x2; // 1.0 at K = 32 blk.
    sa[16 * blk] = scalesA[blk];
    sb[16 * blk] = scalesB[blk];
  }
  int acc = accumulatorsPerLane(shape);
  std::vector<float> cs(kWaveSize * acc, 0.0f);
  cs[0] = c; // Lane 0, item 0: output (0, 0).
  ScaledMFMAOperands ops{shape,
                         SourceFormat::E2M1,
                         SourceFormat::E2M1,
                         a.data(),
                         b.data(),
                         cs.data(),
                         sa.data(),
                         0,
                         sb.data(),
                         0};
  std::vector<float> fast(cs.size()), wide(cs.size());
  scaledMFMA(ops, fast.data());
  scaledMFMA(ops, wide.data(), wideScaledDot);
  EXPECT_EQ(bitsOf(fast[0]), bitsOf(wide[0])) << what << " (wave)";
  EXPECT_EQ(bitsOf(fast[0]), bitsOf(expected)) << what << " (wave)";
  for (size_t i = 1; i < cs.size(); ++i)
    EXPECT_EQ(bitsOf(fast[i]), bitsOf(wide[i]))
        << what << " (wave), item " << i;
}

/// Cases at the edges of the fast path's window and of the rounding, each
/// checked against the wide path and against its known value.
TEST(EmulatorFastPath, WindowAndRoundingEdges) {
  struct Case {
    const char *what;
    /// Scales of A and B in blocks 0 and 1.
    uint8_t sa0, sb0, sa1, sb1;
    float c;
    float expected;
    /// Scales of a third product 1 * 1 in block 2 (none if 0xFF).
    uint8_t sa2 = 0xFF, sb2 = 0xFF;
  };
  // E2M1 x E2M1: the product 1 * 1 in block 0 and in block 1, plus C:
  // 2^(sa0 + sb0 - 254) + 2^(sa1 + sb1 - 254) + C.
  const Case cases[] = {
      {"blocks 2^60 apart: exact in 128 bits", 127, 127, 67, 127, 0.0f, 1.0f},
      {"blocks 2^252 apart: wider than 128 bits", 127, 127, 1, 1, 0.0f, 1.0f},
      {"tie at 1 + 2^-24 goes to even", 127, 127, 103, 127, 0.0f, 1.0f},
      {"a sticky bit 2^-100 breaks the tie", 127, 127, 103, 127, 0x1p-100f,
       1.0f + 0x1p-23f},
      {"two subnormals 2^-149", 0, 105, 0, 105, 0.0f, 0x1p-148f},
      {"two halves of the smallest subnormal", 0, 104, 0, 104, 0.0f, 0x1p-149f},
      {"below half of the smallest subnormal", 0, 103, 0, 0, 0.0f, 0.0f},
      {"overflow to Inf", 254, 254, 254, 254, 0.0f,
       std::numeric_limits<float>::infinity()},
      {"the largest finite C plus 2^102 rounds down", 254, 102, 0, 0,
       std::numeric_limits<float>::max(), std::numeric_limits<float>::max()},
      {"cancels C to +0", 127, 127, 127, 127, -2.0f, 0.0f},
      {"a sticky bit 2^-60 in C breaks the tie", 127, 127, 103, 127, 0x1p-60f,
       1.0f + 0x1p-23f},
      {"a sticky bit 2^-60 in a block breaks the tie", 127, 127, 103, 127, 0.0f,
       1.0f + 0x1p-23f, 67, 127},
      {"products far below the subnormals and -0 C round to +0", 0, 0, 0, 0,
       -0.0f, 0.0f, 0, 0},
      // 2.5 units of 2^-149 and a far sticky bit: rounding to 24 bits first
      // would drop the sticky bit and round the tie to 2 units.
      {"a subnormal rounded once", 0, 106, 0, 104, 0.0f, 0x3p-149f, 0, 74},
  };
  for (const Case &t : cases) {
    checkWaveCase(t.what, t.sa0, t.sb0, t.sa1, t.sb1, t.sa2, t.sb2, t.c,
                  t.expected);
    std::vector<uint8_t> a(128, 0), b(128, 0);
    std::vector<uint8_t> sa = {t.sa0, t.sa1, 127, 127};
    std::vector<uint8_t> sb = {t.sb0, t.sb1, 127, 127};
    a[0] = a[32] = b[0] = b[32] = 0x2; // 1.0
    if (t.sa2 != 0xFF) {
      a[64] = b[64] = 0x2;
      sa[2] = t.sa2;
      sb[2] = t.sb2;
    }
    ScaledDotInputs in{
        SourceFormat::E2M1, SourceFormat::E2M1, 128,       a.data(),
        b.data(),           sa.data(),          sb.data(), t.c};
    float fast = mlir::mx::emu::exactScaledDot(in);
    EXPECT_EQ(bitsOf(fast), bitsOf(mlir::mx::emu::wideScaledDot(in))) << t.what;
    EXPECT_EQ(bitsOf(fast), bitsOf(t.expected)) << t.what;
  }
}

} // namespace
