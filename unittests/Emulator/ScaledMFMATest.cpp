//===- ScaledMFMATest.cpp - Golden tests of the scaled MFMA semantics -----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Golden tests of mlir::mx::emu::scaledMFMA against the independent reference
// mx::ref::scaledMatmul. The lane -> (row, k) maps used to write the
// registers are restated here from the CDNA4 ISA tables (§7.1.5.1, §7.2.1,
// §7.1.4.2; shared/reference/gfx950-and-mx.md §2.2-§2.4), not taken from the
// emulator or the compiler's layout code. Scales differ per K-block, so a
// K-order bug changes the result.
//
//===----------------------------------------------------------------------===//

#include "RandomDotInputs.h"

#include "mx/Emulator/ScaledMFMA.h"
#include "mx/Reference/Reference.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using mlir::mx::emu::MFMAShape;
using mlir::mx::emu::SourceFormat;
using mlir::mx::emu::test::toRef;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

const SourceFormat kAllFormats[] = {SourceFormat::E4M3, SourceFormat::E5M2,
                                    SourceFormat::E2M3, SourceFormat::E3M2,
                                    SourceFormat::E2M1};

//===----------------------------------------------------------------------===//
// The ISA tables, restated
//===----------------------------------------------------------------------===//

/// Instruction geometry: 16x16x128 has Md = 16, K = 128, 4 accumulators per
/// lane; 32x32x64 has Md = 32, K = 64, 16 accumulators per lane.
struct Geometry {
  int md, k, blocks, acc;
};
Geometry geometryOf(MFMAShape s) {
  return s == MFMAShape::M16N16K128 ? Geometry{16, 128, 4, 4}
                                    : Geometry{32, 64, 2, 16};
}

/// Code width: fp8 8 bits in 8 VGPRs, fp6 6 bits in 6, fp4 4 bits in 4.
int codeBits(SourceFormat f) {
  switch (f) {
  case SourceFormat::E4M3:
  case SourceFormat::E5M2:
    return 8;
  case SourceFormat::E2M3:
  case SourceFormat::E3M2:
    return 6;
  case SourceFormat::E2M1:
    return 4;
  }
  return 0;
}
int laneWords(SourceFormat f) { return codeBits(f); } // 32 items * bits / 32

const char *nameOf(SourceFormat f) {
  switch (f) {
  case SourceFormat::E4M3:
    return "E4M3";
  case SourceFormat::E5M2:
    return "E5M2";
  case SourceFormat::E2M3:
    return "E2M3";
  case SourceFormat::E3M2:
    return "E3M2";
  case SourceFormat::E2M1:
    return "E2M1";
  }
  return "?";
}

/// Which K index item t of a lane holds.
enum class KMap {
  /// The ISA tables: with r = lane % Md, g = lane / Md,
  ///   fp4/fp6: item t is A[r][32g + t] (32 consecutive K);
  ///   fp8:     item t = 16h + u is A[r][h*K/2 + 16g + u] (VGPRs 0-3 hold
  ///            k 16g..16g+15, VGPRs 4-7 hold k K/2+16g..K/2+16g+15).
  Isa,
  /// The WRONG fp8 layout (IREE's, and the ISA's general formula): item t is
  /// A[r][32g + t] for every format.
  Contiguous32,
};

int kOfItem(SourceFormat f, const Geometry &geo, int lane, int t, KMap map) {
  int g = lane / geo.md;
  if (codeBits(f) == 8 && map == KMap::Isa)
    return (t / 16) * (geo.k / 2) + 16 * g + (t % 16);
  return 32 * g + t;
}

/// Accumulator item v of lane l holds D[row][col]:
///   16x16: D[4g + v][r];   32x32: D[8(v/4) + 4g + (v%4)][r].
void accRowCol(MFMAShape s, int lane, int v, int &row, int &col) {
  Geometry geo = geometryOf(s);
  int g = lane / geo.md;
  col = lane % geo.md;
  row = s == MFMAShape::M16N16K128 ? 4 * g + v : 8 * (v / 4) + 4 * g + v % 4;
}

//===----------------------------------------------------------------------===//
// Writing registers
//===----------------------------------------------------------------------===//

/// Builds the A or B register file: item t of lane l is elem(r, k) with
/// r = l % Md and k = kOfItem(...), packed little-endian densely (item t in
/// bits [w*t + w-1 : w*t] of the lane's tuple, word 0 lowest).
std::vector<uint32_t>
writeOperand(SourceFormat f, MFMAShape s, KMap map,
             const std::function<uint8_t(int r, int k)> &elem) {
  Geometry geo = geometryOf(s);
  int w = codeBits(f), words = laneWords(f);
  std::vector<uint32_t> regs(64 * words, 0);
  for (int lane = 0; lane < 64; ++lane)
    for (int t = 0; t < 32; ++t) {
      uint32_t code = elem(lane % geo.md, kOfItem(f, geo, lane, t, map));
      for (int i = 0; i < w; ++i)
        if ((code >> i) & 1) {
          int bit = w * t + i;
          regs[lane * words + bit / 32] |= 1u << (bit % 32);
        }
    }
  return regs;
}

/// Builds a scale register: byte opsel of lane l is scale(r, g) (the scale of
/// row/column r = l % Md, K-block g = l / Md); the other bytes are junk.
std::vector<uint32_t> writeScales(MFMAShape s, unsigned opsel,
                                  const std::function<uint8_t(int, int)> &sc,
                                  std::mt19937 &rng) {
  Geometry geo = geometryOf(s);
  std::uniform_int_distribution<uint32_t> junk(0, 0xFFFFFFFFu);
  std::vector<uint32_t> regs(64);
  for (int lane = 0; lane < 64; ++lane) {
    uint32_t word = junk(rng);
    if (lane % 3 == 0)
      word = 0xFFFFFFFFu; // NaN in every unselected byte.
    word &= ~(0xFFu << (8 * opsel));
    word |= static_cast<uint32_t>(sc(lane % geo.md, lane / geo.md))
            << (8 * opsel);
    regs[lane] = word;
  }
  return regs;
}

//===----------------------------------------------------------------------===//
// Problems
//===----------------------------------------------------------------------===//

/// A logical problem in the reference's layouts: A [Md][K], sa [Md][K/32],
/// B [K][Md], sb [K/32][Md], C [Md][Md] (row-major).
struct Problem {
  MFMAShape shape;
  SourceFormat fa, fb;
  Geometry geo;
  std::vector<uint8_t> a, b, sa, sb;
  std::vector<float> c;

  Problem(MFMAShape shape, SourceFormat fa, SourceFormat fb)
      : shape(shape), fa(fa), fb(fb), geo(geometryOf(shape)),
        a(geo.md * geo.k, 0), b(geo.k * geo.md, 0),
        sa(geo.md * geo.blocks, 127), sb(geo.blocks * geo.md, 127),
        c(geo.md * geo.md, 0.0f) {}
};

/// Runs the emulator on \p p written with \p mapA / \p mapB and opsel bytes;
/// returns D as [Md][Md].
std::vector<float> runEmulator(const Problem &p, KMap mapA = KMap::Isa,
                               KMap mapB = KMap::Isa, unsigned opselA = 0,
                               unsigned opselB = 0, uint32_t seed = 1) {
  const Geometry &geo = p.geo;
  std::mt19937 rng(seed);
  std::vector<uint32_t> a = writeOperand(
      p.fa, p.shape, mapA, [&](int r, int k) { return p.a[r * geo.k + k]; });
  // B: lane l holds column n = l % Md: B[k][n].
  std::vector<uint32_t> b = writeOperand(
      p.fb, p.shape, mapB, [&](int n, int k) { return p.b[k * geo.md + n]; });
  std::vector<uint32_t> sa = writeScales(
      p.shape, opselA, [&](int r, int g) { return p.sa[r * geo.blocks + g]; },
      rng);
  std::vector<uint32_t> sb = writeScales(
      p.shape, opselB, [&](int n, int g) { return p.sb[g * geo.md + n]; }, rng);
  std::vector<float> c(64 * geo.acc), d(64 * geo.acc, -12345.0f);
  for (int lane = 0; lane < 64; ++lane)
    for (int v = 0; v < geo.acc; ++v) {
      int row, col;
      accRowCol(p.shape, lane, v, row, col);
      c[lane * geo.acc + v] = p.c[row * geo.md + col];
    }
  mlir::mx::emu::scaledMFMA(p.shape, p.fa, p.fb, a.data(), b.data(), c.data(),
                            sa.data(), opselA, sb.data(), opselB, d.data());
  std::vector<float> out(geo.md * geo.md);
  for (int lane = 0; lane < 64; ++lane)
    for (int v = 0; v < geo.acc; ++v) {
      int row, col;
      accRowCol(p.shape, lane, v, row, col);
      out[row * geo.md + col] = d[lane * geo.acc + v];
    }
  return out;
}

std::vector<float> runReference(const Problem &p) {
  return mx::ref::scaledMatmul(p.a.data(), p.sa.data(), toRef(p.fa), p.b.data(),
                               p.sb.data(), toRef(p.fb), p.geo.md, p.geo.md,
                               p.geo.k, /*bTransposed=*/false, p.c.data());
}

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

/// Bit-exact comparison (any NaN equals any NaN).
testing::AssertionResult bitExact(const std::vector<float> &got,
                                  const std::vector<float> &want, int md) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(got[i]) && std::isnan(want[i]))
      continue;
    if (bitsOf(got[i]) != bitsOf(want[i]))
      return testing::AssertionFailure()
             << "D[" << i / md << "][" << i % md << "] = " << got[i]
             << ", reference " << want[i];
  }
  return testing::AssertionSuccess();
}

/// All codes of \p f whose value is an integer in [-4, 4].
std::vector<uint8_t> smallIntegerCodes(SourceFormat f) {
  std::vector<uint8_t> codes;
  for (int code = 0; code < (1 << codeBits(f)); ++code) {
    double v = mx::ref::decode(toRef(f), static_cast<uint8_t>(code));
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= 4)
      codes.push_back(static_cast<uint8_t>(code));
  }
  return codes;
}

/// All codes of \p f with a finite value.
std::vector<uint8_t> finiteCodes(SourceFormat f) {
  std::vector<uint8_t> codes;
  for (int code = 0; code < (1 << codeBits(f)); ++code)
    if (std::isfinite(mx::ref::decode(toRef(f), static_cast<uint8_t>(code))))
      codes.push_back(static_cast<uint8_t>(code));
  return codes;
}

/// Fills the scales so that, in every row of sa and every column of sb, the
/// K-blocks have pairwise distinct scales drawn from [lo, hi].
void distinctBlockScales(Problem &p, int lo, int hi, std::mt19937 &rng) {
  std::vector<uint8_t> pool;
  for (int s = lo; s <= hi; ++s)
    pool.push_back(static_cast<uint8_t>(s));
  for (int r = 0; r < p.geo.md; ++r) {
    std::shuffle(pool.begin(), pool.end(), rng);
    for (int g = 0; g < p.geo.blocks; ++g)
      p.sa[r * p.geo.blocks + g] = pool[g];
    std::shuffle(pool.begin(), pool.end(), rng);
    for (int g = 0; g < p.geo.blocks; ++g)
      p.sb[g * p.geo.md + r] = pool[g];
  }
}

template <typename T> T pick(const std::vector<T> &v, std::mt19937 &rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

/// A random problem with small-integer codes, scales 2^-2..2^2 distinct per
/// block and integer C in [-100, 100]: every product and partial sum is a
/// multiple of 2^-4 below 2^15, exact in f32, so any summation order (and the
/// reference's double arithmetic) gives the same bits.
Problem integerProblem(MFMAShape s, SourceFormat fa, SourceFormat fb,
                       uint32_t seed) {
  std::mt19937 rng(seed);
  Problem p(s, fa, fb);
  std::vector<uint8_t> ca = smallIntegerCodes(fa), cb = smallIntegerCodes(fb);
  for (auto &x : p.a)
    x = pick(ca, rng);
  for (auto &x : p.b)
    x = pick(cb, rng);
  distinctBlockScales(p, 125, 129, rng);
  std::uniform_int_distribution<int> cDist(-100, 100);
  for (auto &x : p.c)
    x = static_cast<float>(cDist(rng));
  return p;
}

//===----------------------------------------------------------------------===//
// Decoder
//===----------------------------------------------------------------------===//

TEST(EmulatorDecode, MatchesReferenceForEveryCode) {
  for (SourceFormat f : kAllFormats)
    for (int code = 0; code < (1 << codeBits(f)); ++code) {
      double got = mlir::mx::emu::decodeElement(f, static_cast<uint8_t>(code));
      double want = mx::ref::decode(toRef(f), static_cast<uint8_t>(code));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << nameOf(f) << " code " << code;
        continue;
      }
      EXPECT_EQ(got, want) << nameOf(f) << " code " << code;
      EXPECT_EQ(std::signbit(got), std::signbit(want))
          << nameOf(f) << " code " << code;
    }
}

TEST(EmulatorDecode, RegisterCounts) {
  EXPECT_EQ(mlir::mx::emu::wordsPerLane(SourceFormat::E4M3), 8);
  EXPECT_EQ(mlir::mx::emu::wordsPerLane(SourceFormat::E5M2), 8);
  EXPECT_EQ(mlir::mx::emu::wordsPerLane(SourceFormat::E2M3), 6);
  EXPECT_EQ(mlir::mx::emu::wordsPerLane(SourceFormat::E3M2), 6);
  EXPECT_EQ(mlir::mx::emu::wordsPerLane(SourceFormat::E2M1), 4);
  EXPECT_EQ(mlir::mx::emu::accumulatorsPerLane(MFMAShape::M16N16K128), 4);
  EXPECT_EQ(mlir::mx::emu::accumulatorsPerLane(MFMAShape::M32N32K64), 16);
}

//===----------------------------------------------------------------------===//
// Golden: every shape x (fmtA, fmtB)
//===----------------------------------------------------------------------===//

using GoldenParam = std::tuple<MFMAShape, SourceFormat, SourceFormat>;

class EmulatorGolden : public testing::TestWithParam<GoldenParam> {};

TEST_P(EmulatorGolden, IntegerCodesBitExact) {
  auto [shape, fa, fb] = GetParam();
  for (uint32_t seed : {1u, 2u, 3u}) {
    Problem p = integerProblem(shape, fa, fb, seed);
    EXPECT_TRUE(bitExact(runEmulator(p), runReference(p), p.geo.md))
        << "seed " << seed;
  }
}

/// Random finite codes, scales 2^-17..2^17 distinct per block, random C.
/// Tolerance: |d - ref| <= 1e-6 |ref| + 2^-45 sum|terms|. The emulator rounds
/// the exact sum once; the reference sums blocks in double (error up to
/// ~2^-52 sum|terms| for fp8 blocks spanning more than 53 binades and across
/// blocks), then rounds to f32: the two differ by at most 1 f32 ulp plus the
/// reference's double error.
TEST_P(EmulatorGolden, RandomCodesWithinTolerance) {
  auto [shape, fa, fb] = GetParam();
  for (uint32_t seed : {11u, 12u}) {
    std::mt19937 rng(seed);
    Problem p(shape, fa, fb);
    std::vector<uint8_t> ca = finiteCodes(fa), cb = finiteCodes(fb);
    for (auto &x : p.a)
      x = pick(ca, rng);
    for (auto &x : p.b)
      x = pick(cb, rng);
    distinctBlockScales(p, 110, 144, rng);
    std::uniform_real_distribution<float> cDist(-1000.0f, 1000.0f);
    for (auto &x : p.c)
      x = cDist(rng);
    std::vector<float> got = runEmulator(p), want = runReference(p);
    const Geometry &geo = p.geo;
    for (int i = 0; i < geo.md; ++i)
      for (int j = 0; j < geo.md; ++j) {
        double sumAbs = std::fabs(p.c[i * geo.md + j]);
        for (int k = 0; k < geo.k; ++k)
          sumAbs +=
              std::fabs(mx::ref::decode(toRef(fa), p.a[i * geo.k + k]) *
                        mx::ref::decode(toRef(fb), p.b[k * geo.md + j]) *
                        mx::ref::decodeScale(p.sa[i * geo.blocks + k / 32]) *
                        mx::ref::decodeScale(p.sb[(k / 32) * geo.md + j]));
        double w = want[i * geo.md + j], g = got[i * geo.md + j];
        double tol = 1e-6 * std::fabs(w) + std::ldexp(sumAbs, -45);
        ASSERT_LE(std::fabs(g - w), tol)
            << "seed " << seed << " D[" << i << "][" << j << "] = " << g
            << ", reference " << w;
      }
  }
}

std::string goldenName(const testing::TestParamInfo<GoldenParam> &info) {
  auto [shape, fa, fb] = info.param;
  return std::string(shape == MFMAShape::M16N16K128 ? "16x16x128_"
                                                    : "32x32x64_") +
         nameOf(fa) + "x" + nameOf(fb);
}

INSTANTIATE_TEST_SUITE_P(AllFormats, EmulatorGolden,
                         testing::Combine(testing::Values(MFMAShape::M16N16K128,
                                                          MFMAShape::M32N32K64),
                                          testing::ValuesIn(kAllFormats),
                                          testing::ValuesIn(kAllFormats)),
                         goldenName);

//===----------------------------------------------------------------------===//
// The fp8 two-chunk K order is observable
//===----------------------------------------------------------------------===//

const MFMAShape kShapes[] = {MFMAShape::M16N16K128, MFMAShape::M32N32K64};

/// Writing fp8 registers with the contiguous-32 K map (the IREE / ISA
/// general-formula layout) instead of the ISA's two-chunk table moves
/// elements across K-blocks; with per-block distinct scales the result
/// changes, so the golden test above would catch that bug.
TEST(EmulatorScaledMFMA, Fp8ContiguousKOrderIsDetected) {
  for (MFMAShape s : kShapes) {
    Problem p = integerProblem(s, SourceFormat::E4M3, SourceFormat::E5M2, 7);
    std::vector<float> want = runReference(p);
    ASSERT_TRUE(bitExact(runEmulator(p), want, p.geo.md));
    EXPECT_FALSE(bitExact(
        runEmulator(p, KMap::Contiguous32, KMap::Contiguous32), want, p.geo.md))
        << "same permutation of A and B, distinct block scales";

    // Mixed formats: only the fp8 operand is permuted, which is visible even
    // with uniform scales.
    Problem mixed =
        integerProblem(s, SourceFormat::E4M3, SourceFormat::E2M1, 8);
    std::fill(mixed.sa.begin(), mixed.sa.end(), 127);
    std::fill(mixed.sb.begin(), mixed.sb.end(), 127);
    EXPECT_FALSE(bitExact(runEmulator(mixed, KMap::Contiguous32, KMap::Isa),
                          runReference(mixed), mixed.geo.md));
  }
}

/// Why scales must differ per block: with uniform scales the same K
/// permutation of A and B leaves the (exact) result unchanged.
TEST(EmulatorScaledMFMA, Fp8KOrderInvisibleWithUniformScales) {
  for (MFMAShape s : kShapes) {
    Problem p = integerProblem(s, SourceFormat::E4M3, SourceFormat::E4M3, 9);
    std::fill(p.sa.begin(), p.sa.end(), 128);
    std::fill(p.sb.begin(), p.sb.end(), 126);
    EXPECT_TRUE(bitExact(runEmulator(p, KMap::Contiguous32, KMap::Contiguous32),
                         runReference(p), p.geo.md));
  }
}

//===----------------------------------------------------------------------===//
// Scales
//===----------------------------------------------------------------------===//

TEST(EmulatorScaledMFMA, OpselSelectsScaleByte) {
  for (MFMAShape s : kShapes)
    for (unsigned opselA = 0; opselA < 4; ++opselA)
      for (unsigned opselB = 0; opselB < 4; ++opselB) {
        Problem p = integerProblem(s, SourceFormat::E2M1, SourceFormat::E4M3,
                                   100 + opselA * 4 + opselB);
        EXPECT_TRUE(bitExact(
            runEmulator(p, KMap::Isa, KMap::Isa, opselA, opselB, opselA + 7),
            runReference(p), p.geo.md))
            << "opselA " << opselA << " opselB " << opselB;
      }
}

/// A scale byte 0xFF (E8M0 NaN) for (row r0, block g0) of A makes exactly row
/// r0 of D NaN -- even when that block's data are zero; for B, column n0.
TEST(EmulatorScaledMFMA, NaNScaleMakesRowOrColumnNaN) {
  for (MFMAShape s : kShapes)
    for (bool onA : {true, false}) {
      Problem p = integerProblem(s, SourceFormat::E2M3, SourceFormat::E5M2, 5);
      const Geometry &geo = p.geo;
      int r0 = 3, g0 = geo.blocks - 1;
      for (int k = 32 * g0; k < 32 * g0 + 32; ++k) {
        if (onA)
          p.a[r0 * geo.k + k] = 0;
        else
          p.b[k * geo.md + r0] = 0;
      }
      if (onA)
        p.sa[r0 * geo.blocks + g0] = 0xFF;
      else
        p.sb[g0 * geo.md + r0] = 0xFF;
      std::vector<float> got = runEmulator(p, KMap::Isa, KMap::Isa, 2, 1);
      for (int i = 0; i < geo.md; ++i)
        for (int j = 0; j < geo.md; ++j) {
          bool affected = onA ? i == r0 : j == r0;
          EXPECT_EQ(std::isnan(got[i * geo.md + j]), affected)
              << (onA ? "A" : "B") << " D[" << i << "][" << j << "]";
        }
      EXPECT_TRUE(bitExact(got, runReference(p), geo.md));
    }
}

/// Byte 0 is 2^-127 (not zero, and not "unscaled"): 1 * 1 * 2^-127 * 2^0 is
/// the f32 subnormal 2^-127 (kept, not flushed); 6 * 6 * 2^-127 * 2^127 = 36.
TEST(EmulatorScaledMFMA, ScaleByteZeroIsTwoToMinus127) {
  for (MFMAShape s : kShapes) {
    Problem p(s, SourceFormat::E2M1, SourceFormat::E2M1);
    const Geometry &geo = p.geo;
    p.a[0 * geo.k + 0] = 0x2;     // A[0][0] = 1.0
    p.b[0 * geo.md + 0] = 0x2;    // B[0][0] = 1.0
    p.sa[0 * geo.blocks + 0] = 0; // 2^-127
    p.sb[0 * geo.md + 0] = 127;   // 1.0
    p.a[1 * geo.k + 40] = 0x7;    // A[1][40] = 6.0 (block 1)
    p.b[40 * geo.md + 1] = 0x7;   // B[40][1] = 6.0
    p.sa[1 * geo.blocks + 1] = 0; // 2^-127
    p.sb[1 * geo.md + 1] = 254;   // 2^127
    std::vector<float> got = runEmulator(p);
    EXPECT_EQ(bitsOf(got[0]), bitsOf(std::ldexp(1.0f, -127)));
    EXPECT_EQ(got[1 * geo.md + 1], 36.0f);
    EXPECT_EQ(got[0 * geo.md + 1], 0.0f);
    EXPECT_TRUE(bitExact(got, runReference(p), geo.md));
  }
}

//===----------------------------------------------------------------------===//
// Accumulator
//===----------------------------------------------------------------------===//

/// Zero data: D = C bit for bit, whatever the (non-NaN) scales, also for
/// subnormal, huge and infinite C, and in place (d == c).
TEST(EmulatorScaledMFMA, CPassthroughWithZeroData) {
  for (MFMAShape s : kShapes)
    for (SourceFormat f : kAllFormats) {
      Problem p(s, f, SourceFormat::E2M1);
      std::mt19937 rng(42);
      std::uniform_int_distribution<int> scale(0, 254);
      for (auto &x : p.sa)
        x = static_cast<uint8_t>(scale(rng));
      for (auto &x : p.sb)
        x = static_cast<uint8_t>(scale(rng));
      std::uniform_real_distribution<float> cDist(-1e6f, 1e6f);
      for (auto &x : p.c)
        x = cDist(rng);
      p.c[0] = std::ldexp(1.0f, -149);
      p.c[1] = -std::ldexp(3.0f, -140);
      p.c[2] = std::numeric_limits<float>::max();
      p.c[3] = -kInf;
      p.c[p.geo.md + 5] = 0.0f;
      EXPECT_TRUE(bitExact(runEmulator(p), p.c, p.geo.md)) << nameOf(f);

      // In place: D overwrites C.
      Geometry geo = p.geo;
      std::vector<uint32_t> zeros(64 * laneWords(f), 0),
          zeros4(64 * laneWords(SourceFormat::E2M1), 0), scales(64, 0x7F7F7F7F);
      std::vector<float> acc(64 * geo.acc);
      for (size_t i = 0; i < acc.size(); ++i)
        acc[i] = static_cast<float>(i) - 100.5f;
      std::vector<float> expect = acc;
      mlir::mx::emu::scaledMFMA(s, f, SourceFormat::E2M1, zeros.data(),
                                zeros4.data(), acc.data(), scales.data(), 0,
                                scales.data(), 3, acc.data());
      EXPECT_EQ(acc, expect);
    }
}

//===----------------------------------------------------------------------===//
// Numerics model (exactScaledDot)
//===----------------------------------------------------------------------===//

/// One dot product of K = 128 (4 blocks), all-zero codes and unit scales,
/// to be modified by a test.
struct Dot {
  SourceFormat fa, fb;
  std::vector<uint8_t> a = std::vector<uint8_t>(128, 0);
  std::vector<uint8_t> b = std::vector<uint8_t>(128, 0);
  std::vector<uint8_t> sa = std::vector<uint8_t>(4, 127);
  std::vector<uint8_t> sb = std::vector<uint8_t>(4, 127);
  float c = 0.0f;
  Dot(SourceFormat fa, SourceFormat fb) : fa(fa), fb(fb) {}
  float run() const {
    mlir::mx::emu::ScaledDotInputs in{fa,       fb,        128,       a.data(),
                                      b.data(), sa.data(), sb.data(), c};
    return mlir::mx::emu::exactScaledDot(in);
  }
};

/// 2^60 + 1 - 2^60 in three blocks: exactly 1 (double summation gives 0).
TEST(EmulatorExactScaledDot, SumIsExactBeyondDouble) {
  Dot d(SourceFormat::E2M1, SourceFormat::E2M1);
  d.a[0] = 0x2;  // +1, block 0, scale 2^60
  d.a[32] = 0x2; // +1, block 1, scale 1
  d.a[64] = 0xA; // -1, block 2, scale 2^60
  d.b[0] = d.b[32] = d.b[64] = 0x2;
  d.sa[0] = d.sa[2] = 127 + 60;
  EXPECT_EQ(d.run(), 1.0f);
}

/// 1 + 2^-24 + 2^-80 rounds up to 1 + 2^-23 (the sticky bit breaks the tie);
/// without the 2^-80 term the tie goes to even, 1.0.
TEST(EmulatorExactScaledDot, SingleRoundingToNearestEven) {
  Dot d(SourceFormat::E2M1, SourceFormat::E2M1);
  d.c = 1.0f;
  d.a[0] = d.b[0] = 0x2;
  d.sa[0] = 127 - 24;
  EXPECT_EQ(d.run(), 1.0f);
  d.a[32] = d.b[32] = 0x2;
  d.sa[1] = 127 - 80;
  EXPECT_EQ(d.run(), std::nextafter(1.0f, 2.0f));
  d.a[32] = 0xA; // -2^-80: now just below the tie, rounds down.
  EXPECT_EQ(d.run(), 1.0f);
}

TEST(EmulatorExactScaledDot, OverflowAndUnderflow) {
  Dot d(SourceFormat::E5M2, SourceFormat::E5M2);
  std::fill(d.a.begin(), d.a.end(), 0x7B); // 57344
  std::fill(d.b.begin(), d.b.end(), 0x7B);
  std::fill(d.sa.begin(), d.sa.end(), 254);
  std::fill(d.sb.begin(), d.sb.end(), 254);
  EXPECT_EQ(d.run(), kInf);
  std::fill(d.b.begin(), d.b.end(), 0xFB); // -57344
  EXPECT_EQ(d.run(), -kInf);
  // Smallest subnormals with the smallest scales: 128 * 2^-286 -> +0 / -0.
  std::fill(d.a.begin(), d.a.end(), 0x01); // 2^-16
  std::fill(d.b.begin(), d.b.end(), 0x01);
  std::fill(d.sa.begin(), d.sa.end(), 0);
  std::fill(d.sb.begin(), d.sb.end(), 0);
  float r = d.run();
  EXPECT_EQ(bitsOf(r), bitsOf(0.0f));
  std::fill(d.b.begin(), d.b.end(), 0x81);
  r = d.run();
  EXPECT_EQ(bitsOf(r), bitsOf(-0.0f));
  // Largest f32 below the overflow threshold is kept; 2^128 overflows.
  Dot e(SourceFormat::E2M1, SourceFormat::E2M1);
  e.a[0] = e.b[0] = 0x2;
  e.sa[0] = 254;
  e.sb[0] = 254;
  EXPECT_EQ(e.run(), kInf); // 2^254
  e.sb[0] = 127;
  e.c = std::numeric_limits<float>::max();
  EXPECT_EQ(e.run(), kInf); // max + 2^127 rounds to 2^128
  e.a[0] = 0;
  EXPECT_EQ(e.run(), std::numeric_limits<float>::max());
}

TEST(EmulatorExactScaledDot, InfAndNaNPropagateIEEEStyle) {
  Dot d(SourceFormat::E5M2, SourceFormat::E4M3);
  d.a[3] = 0x7C;  // +Inf
  d.b[3] = 0x38;  // 1.0
  d.a[70] = 0x3C; // 1.0
  d.b[70] = 0x40; // 2.0
  d.c = 5.0f;
  EXPECT_EQ(d.run(), kInf);
  d.b[3] = 0xB8; // -1.0
  EXPECT_EQ(d.run(), -kInf);
  d.b[3] = 0x00; // Inf * 0
  EXPECT_TRUE(std::isnan(d.run()));
  d.b[3] = 0x38;
  d.a[90] = 0xFC;                   // -Inf
  d.b[90] = 0x30;                   // 0.5
  EXPECT_TRUE(std::isnan(d.run())); // +Inf + -Inf
  d.a[90] = 0;
  d.c = -kInf;
  EXPECT_TRUE(std::isnan(d.run())); // +Inf + C = -Inf
  d.c = kInf;
  EXPECT_EQ(d.run(), kInf);
  d.a[3] = 0;
  d.b[5] = 0x7F; // E4M3 NaN times a zero A element
  d.c = 1.0f;
  EXPECT_TRUE(std::isnan(d.run()));
  d.b[5] = 0;
  d.a[6] = 0x7E; // E5M2 NaN
  EXPECT_TRUE(std::isnan(d.run()));
  d.a[6] = 0;
  d.c = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(d.run()));
  d.c = 1.0f;
  EXPECT_EQ(d.run(), 3.0f); // 1 * 2 + 1
}

/// An Inf element in the full wave: the reference (IEEE double) agrees.
TEST(EmulatorScaledMFMA, InfElementMatchesReference) {
  for (MFMAShape s : kShapes) {
    Problem p = integerProblem(s, SourceFormat::E5M2, SourceFormat::E4M3, 21);
    p.a[2 * p.geo.k + 17] = 0x7C;          // A[2][17] = +Inf
    p.a[5 * p.geo.k + p.geo.k - 1] = 0xFC; // A[5][K-1] = -Inf
    std::vector<float> got = runEmulator(p);
    EXPECT_TRUE(bitExact(got, runReference(p), p.geo.md));
  }
}

/// The numerics model is one replaceable function: a custom model sees the
/// logical operands in K order.
TEST(EmulatorScaledMFMA, CustomNumericsSeesLogicalOperands) {
  Problem p = integerProblem(MFMAShape::M32N32K64, SourceFormat::E4M3,
                             SourceFormat::E2M3, 31);
  const Geometry &geo = p.geo;
  std::vector<uint32_t> a =
      writeOperand(p.fa, p.shape, KMap::Isa,
                   [&](int r, int k) { return p.a[r * geo.k + k]; });
  std::vector<uint32_t> b =
      writeOperand(p.fb, p.shape, KMap::Isa,
                   [&](int n, int k) { return p.b[k * geo.md + n]; });
  std::vector<uint32_t> scales(64, 0x7F7F7F7F);
  std::vector<float> c(64 * geo.acc, 0.0f), d(64 * geo.acc);
  mlir::mx::emu::ScaledMFMAOperands ops{
      p.shape,  p.fa,          p.fb, a.data(),      b.data(),
      c.data(), scales.data(), 0,    scales.data(), 0};
  // "A[i][7]" as the output: checks the K order handed to the model.
  mlir::mx::emu::scaledMFMA(
      ops, d.data(), [](const mlir::mx::emu::ScaledDotInputs &in) {
        return static_cast<float>(in.a[7] * 256 + in.b[33]);
      });
  for (int lane = 0; lane < 64; ++lane)
    for (int v = 0; v < geo.acc; ++v) {
      int i, j;
      accRowCol(p.shape, lane, v, i, j);
      EXPECT_EQ(
          d[lane * geo.acc + v],
          static_cast<float>(p.a[i * geo.k + 7] * 256 + p.b[33 * geo.md + j]));
    }
}

/// E5M2 keeps IEEE specials (OCP MX spec): exponent 31 with a zero mantissa
/// is +-Inf, with a nonzero one NaN (0x7D-0x7F, 0xFD-0xFF). A NaN element of
/// A makes its whole row of D NaN and leaves the other rows as the reference
/// computes them; an Inf element times a zero element of B gives NaN.
TEST(EmulatorScaledMFMA, E5M2NaNAndInfTimesZero) {
  for (MFMAShape s : kShapes)
    for (uint8_t nan : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF}) {
      Problem p = integerProblem(s, SourceFormat::E5M2, SourceFormat::E5M2, 23);
      const Geometry &geo = p.geo;
      p.a[3 * geo.k + 40] = nan; // A[3][40]
      std::vector<float> got = runEmulator(p), want = runReference(p);
      for (int i = 0; i < geo.md; ++i)
        for (int j = 0; j < geo.md; ++j) {
          float g = got[i * geo.md + j];
          if (i == 3)
            EXPECT_TRUE(std::isnan(g)) << "D[3][" << j << "] = " << g;
          else
            EXPECT_EQ(bitsOf(g), bitsOf(want[i * geo.md + j]))
                << "D[" << i << "][" << j << "]";
        }
      // +Inf in A[1][0] against B[0][*] = 0: every D[1][*] is NaN.
      p = integerProblem(s, SourceFormat::E5M2, SourceFormat::E5M2, 24);
      p.a[1 * geo.k] = 0x7C;
      for (int j = 0; j < geo.md; ++j)
        p.b[j] = 0x00;
      got = runEmulator(p);
      for (int j = 0; j < geo.md; ++j)
        EXPECT_TRUE(std::isnan(got[1 * geo.md + j])) << "D[1][" << j << "]";
    }
}

/// FP6 has no Inf or NaN (OCP MX spec): every code is finite, the largest
/// magnitudes are 7.5 (E2M3, code 0x1F) and 28 (E3M2, 0x1F), and a full
/// wave of the largest codes is finite and bit-exact against the reference.
TEST(EmulatorDecode, Fp6HasNoSpecials) {
  for (SourceFormat f : {SourceFormat::E2M3, SourceFormat::E3M2})
    for (int code = 0; code < 64; ++code)
      EXPECT_TRUE(std::isfinite(mlir::mx::emu::decodeElement(f, code)))
          << nameOf(f) << " code " << code;
  EXPECT_EQ(mlir::mx::emu::decodeElement(SourceFormat::E2M3, 0x1F), 7.5);
  EXPECT_EQ(mlir::mx::emu::decodeElement(SourceFormat::E2M3, 0x3F), -7.5);
  EXPECT_EQ(mlir::mx::emu::decodeElement(SourceFormat::E3M2, 0x1F), 28.0);
  EXPECT_EQ(mlir::mx::emu::decodeElement(SourceFormat::E3M2, 0x3F), -28.0);
  for (MFMAShape s : kShapes) {
    Problem p = integerProblem(s, SourceFormat::E3M2, SourceFormat::E2M3, 25);
    std::fill(p.a.begin(), p.a.end(), 0x1F);
    std::fill(p.b.begin(), p.b.end(), 0x3F);
    std::fill(p.c.begin(), p.c.end(), 0.0f);
    std::vector<float> got = runEmulator(p);
    EXPECT_TRUE(bitExact(got, runReference(p), p.geo.md));
    for (float d : got)
      EXPECT_TRUE(std::isfinite(d) && d < 0);
  }
}

} // namespace
