//===- RandomDotInputs.h - random inputs of one scaled MFMA output -*- C++
//-*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Random inputs of one output element of a scaled MFMA (ScaledDotInputs)
// for differential tests of its numerics: ordinary data mixed with extreme
// and NaN scales, NaN/Inf codes, zeros of both signs, cancellation to exact
// zero, and C from zero to Inf/NaN and denormals; and the reference's name
// of a format, to compare with mx::ref.
//
//===----------------------------------------------------------------------===//

#ifndef MX_UNITTESTS_EMULATOR_RANDOMDOTINPUTS_H
#define MX_UNITTESTS_EMULATOR_RANDOMDOTINPUTS_H

#include "mx/Emulator/ScaledMFMA.h"
#include "mx/Reference/Reference.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace mlir::mx::emu::test {

inline const SourceFormat kFormats[] = {SourceFormat::E4M3, SourceFormat::E5M2,
                                        SourceFormat::E2M3, SourceFormat::E3M2,
                                        SourceFormat::E2M1};
inline const MFMAShape kShapes[] = {MFMAShape::M16N16K128,
                                    MFMAShape::M32N32K64};

/// Whether \p code is a NaN or Inf code of \p fmt (OCP MX v1.0: E4M3 has NaN
/// at S.1111.111, E5M2 Inf at S.11111.00 and NaN at S.11111.{01,10,11}; the
/// fp6 and fp4 formats have none).
inline bool isSpecialCode(SourceFormat fmt, uint8_t code) {
  if (fmt == SourceFormat::E4M3)
    return (code & 0x7F) == 0x7F;
  if (fmt == SourceFormat::E5M2)
    return (code & 0x7C) == 0x7C;
  return false;
}

/// The bits of \p f.
inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

/// How one random input is drawn; each field is picked per input so that
/// the cases mix.
struct Scenario {
  /// Probability of a zero code (of either sign).
  double zeros = 0;
  /// Probability of a NaN/Inf code where the format has them (else those
  /// codes are redrawn).
  double specials = 0;
  /// Scales: 0 near 127, 1 uniform over [0, 254], 2 from the extremes,
  /// 3 like 0 with an occasional 0xFF.
  int scaleKind = 0;
  /// The second half of each block negates the first: block sums are 0.
  bool cancel = false;
  /// C: 0 +0, 1 -0, 2 a small integer, 3 any f32 bit pattern, 4 an extreme
  /// (denormal, largest, Inf).
  int cKind = 0;
};

/// Draws a random scenario.
inline Scenario randomScenario(std::mt19937_64 &rng) {
  Scenario s;
  const double zeroChoices[] = {0, 0.1, 0.5, 1.0};
  const double specialChoices[] = {0, 0, 0.005, 0.05};
  s.zeros = zeroChoices[rng() % 4];
  s.specials = specialChoices[rng() % 4];
  s.scaleKind = rng() % 4;
  s.cancel = rng() % 5 == 0;
  s.cKind = rng() % 5;
  return s;
}

/// A random element code of \p fmt for scenario \p s.
inline uint8_t randomCode(SourceFormat fmt, const Scenario &s,
                          std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  int bits = mlir::mx::emu::bitsOf(fmt);
  uint8_t sign = static_cast<uint8_t>(1u << (bits - 1));
  if (unit(rng) < s.zeros)
    return rng() % 2 ? sign : 0;
  for (;;) {
    uint8_t code = static_cast<uint8_t>(rng() & ((1u << bits) - 1));
    if (!isSpecialCode(fmt, code) || unit(rng) < s.specials)
      return code;
  }
}

/// A random E8M0 scale for scenario \p s.
inline uint8_t randomScale(const Scenario &s, std::mt19937_64 &rng) {
  const uint8_t extremes[] = {0, 1, 2, 64, 126, 127, 128, 190, 253, 254};
  switch (s.scaleKind) {
  case 1:
    return static_cast<uint8_t>(rng() % 255);
  case 2:
    return extremes[rng() % 10];
  case 3:
    if (rng() % 64 == 0)
      return 0xFF;
    [[fallthrough]];
  default:
    return static_cast<uint8_t>(127 - 8 + rng() % 17);
  }
}

/// A random accumulator input for scenario \p s.
inline float randomC(const Scenario &s, std::mt19937_64 &rng) {
  const uint32_t extremes[] = {0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF,
                               0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
                               0x3F800000, 0x33800000};
  uint32_t bits;
  switch (s.cKind) {
  case 0:
    return 0.0f;
  case 1:
    return -0.0f;
  case 2:
    return static_cast<float>(static_cast<int>(rng() % 201) - 100);
  case 3:
    bits = static_cast<uint32_t>(rng());
    break;
  default:
    bits = extremes[rng() % 10];
    break;
  }
  float c;
  std::memcpy(&c, &bits, sizeof(c));
  return c;
}

/// Fills \p codes (\p k of them, K order) for scenario \p s; with
/// s.cancel, element 16 + u of each block is element u with the sign
/// flipped (\p flip) or repeated, so that each block's products cancel.
inline void fillCodes(SourceFormat fmt, const Scenario &s, bool flip, int k,
                      uint8_t *codes, std::mt19937_64 &rng) {
  uint8_t sign = static_cast<uint8_t>(1u << (mlir::mx::emu::bitsOf(fmt) - 1));
  for (int i = 0; i < k; ++i) {
    if (s.cancel && i % 32 >= 16)
      codes[i] = codes[i - 16] ^ (flip ? sign : 0);
    else
      codes[i] = randomCode(fmt, s, rng);
  }
}

/// "E4M3 x E5M2, K = 128".
inline std::string describe(SourceFormat fa, SourceFormat fb, int k) {
  const char *names[] = {"E4M3", "E5M2", "E2M3", "E3M2", "E2M1"};
  return std::string(names[static_cast<int>(fa)]) + " x " +
         names[static_cast<int>(fb)] + ", K = " + std::to_string(k);
}

/// Calls \p fn(A format, B format, shape) for all 25 format pairs on both
/// instructions.
template <typename Fn> void forEachPairAndShape(Fn fn) {
  for (SourceFormat fa : kFormats)
    for (SourceFormat fb : kFormats)
      for (MFMAShape shape : kShapes)
        fn(fa, fb, shape);
}

/// The inputs of one output element, drawn at random (a fresh scenario per
/// draw), with their storage.
struct RandomDot {
  std::vector<uint8_t> a, b, scaleA, scaleB;

  ScaledDotInputs draw(SourceFormat fa, SourceFormat fb, int k,
                       std::mt19937_64 &rng) {
    int blocks = k / kScaleBlock;
    a.resize(k);
    b.resize(k);
    scaleA.resize(blocks);
    scaleB.resize(blocks);
    Scenario s = randomScenario(rng);
    fillCodes(fa, s, /*flip=*/true, k, a.data(), rng);
    fillCodes(fb, s, /*flip=*/false, k, b.data(), rng);
    for (int blk = 0; blk < blocks; ++blk) {
      scaleA[blk] = randomScale(s, rng);
      scaleB[blk] = randomScale(s, rng);
    }
    return {fa,
            fb,
            k,
            a.data(),
            b.data(),
            scaleA.data(),
            scaleB.data(),
            randomC(s, rng)};
  }
};

/// The reference's name of an emulator source format (both follow the OCP
/// format names; the enums are independent).
inline ::mx::ref::ElemFormat toRef(SourceFormat fmt) {
  switch (fmt) {
  case SourceFormat::E4M3:
    return ::mx::ref::ElemFormat::E4M3;
  case SourceFormat::E5M2:
    return ::mx::ref::ElemFormat::E5M2;
  case SourceFormat::E2M3:
    return ::mx::ref::ElemFormat::E2M3;
  case SourceFormat::E3M2:
    return ::mx::ref::ElemFormat::E3M2;
  case SourceFormat::E2M1:
    return ::mx::ref::ElemFormat::E2M1;
  }
  return ::mx::ref::ElemFormat::E2M1;
}

} // namespace mlir::mx::emu::test

#endif // MX_UNITTESTS_EMULATOR_RANDOMDOTINPUTS_H
