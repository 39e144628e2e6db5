//===- ScaledMFMA.h - gfx950 scaled MFMA instruction semantics --*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The first piece of the gfx950 wave emulator: the semantics of
//   v_mfma_scale_f32_16x16x128_f8f6f4   (MLIR: amdgpu.scaled_mfma 16x16x128)
//   v_mfma_scale_f32_32x32x64_f8f6f4    (MLIR: amdgpu.scaled_mfma 32x32x64)
// as a pure function over the register contents of all 64 lanes of a wave.
// C++17 (the implementation also uses the GCC/Clang __int128 and bit
// builtins): no MLIR/LLVM dependency, and no code shared with the numeric
// reference (mx::ref) that it is checked against; element codes are
// decoded by a small decoder of its own, built from the format parameters.
// It lives in the emulator's namespace, mlir::mx::emu, without using MLIR.
//
// Notation (CDNA4 ISA §7.1.4-§7.1.5, §7.2.1; shared/reference/gfx950-and-mx.md
// §2): Md = 16, K = 128 (16x16x128) or Md = 32, K = 64 (32x32x64); lane
// l in [0, 64), r = l % Md, g = l / Md; item t in [0, 32) of a lane's A or B
// register tuple.
//
//   A operand, fp4/fp6: item t of lane l is A[r][32g + t].
//   A operand, fp8:     item t = 16h + u (h = t / 16, u = t % 16) of lane l is
//                       A[r][h * K/2 + 16g + u] (two 16-element K chunks).
//   B operand:          the same with B[k][r], r being the column n.
//   Scales:             the selected byte of lane l's scale word is the E8M0
//                       scale of row (A) / column (B) r for K-block g (block =
//                       32 consecutive K), for every data format.
//   C/D, 16x16:         item v in [0, 4) of lane l is D[4g + v][r].
//   C/D, 32x32:         item v in [0, 16) of lane l is
//                       D[8(v / 4) + 4g + (v % 4)][r].
//
// Items are packed little-endian and densely in a lane's register tuple seen
// as one wide integer: item t of a w-bit format occupies bits
// [w*t + w-1 : w*t], word 0 holding the lowest 32 bits (ISA §7.1.4).
//
// Numerics: see ScaledDotFn; two models, exactScaledDot (the default) and
// cdna3GroupedScaledDot, selected by MFMAArithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef MX_EMULATOR_SCALEDMFMA_H
#define MX_EMULATOR_SCALEDMFMA_H

#include <cstdint>

namespace mlir::mx::emu {

/// The two gfx950 scaled MFMA shapes (M x N x K).
enum class MFMAShape {
  M16N16K128, ///< v_mfma_scale_f32_16x16x128_f8f6f4.
  M32N32K64,  ///< v_mfma_scale_f32_32x32x64_f8f6f4.
};

/// The source data formats; the values are the CBSZ (A) / BLGP (B) codes of
/// the instruction and the format codes of the LLVM intrinsic. Codes 5-7 are
/// reserved and not accepted.
enum class SourceFormat {
  E4M3 = 0, ///< fp8, OCP f8E4M3FN (bias 7, max 448, NaN 0x7F/0xFF, no Inf).
  E5M2 = 1, ///< bf8, OCP f8E5M2 (bias 15, max 57344, Inf 0x7C/0xFC).
  E2M3 = 2, ///< fp6, f6E2M3FN (bias 1, max 7.5, no Inf/NaN).
  E3M2 = 3, ///< bf6, f6E3M2FN (bias 3, max 28, no Inf/NaN).
  E2M1 = 4, ///< fp4, f4E2M1FN (bias 1, max 6, no Inf/NaN).
};

/// Number of lanes of a wave (wave64).
constexpr int kWaveSize = 64;
/// Number of K elements sharing one E8M0 scale.
constexpr int kScaleBlock = 32;
/// Number of items (elements) of A or B that one lane holds.
constexpr int kItemsPerLane = 32;

/// Returns Md: the M (= N) extent of \p shape, 16 or 32.
constexpr int rowsOf(MFMAShape shape) {
  return shape == MFMAShape::M16N16K128 ? 16 : 32;
}
/// Returns the K extent of \p shape, 128 or 64.
constexpr int depthOf(MFMAShape shape) {
  return shape == MFMAShape::M16N16K128 ? 128 : 64;
}
/// Returns the number of K-blocks of \p shape (K / 32): 4 or 2.
constexpr int blocksOf(MFMAShape shape) { return depthOf(shape) / kScaleBlock; }
/// Returns the number of f32 accumulators per lane of C and D: 4 or 16.
constexpr int accumulatorsPerLane(MFMAShape shape) {
  return shape == MFMAShape::M16N16K128 ? 4 : 16;
}
/// Returns the code width in bits of \p fmt: 8, 6 or 4.
constexpr int bitsOf(SourceFormat fmt) {
  return fmt == SourceFormat::E4M3 || fmt == SourceFormat::E5M2   ? 8
         : fmt == SourceFormat::E2M3 || fmt == SourceFormat::E3M2 ? 6
                                                                  : 4;
}
/// Returns the number of 32-bit registers per lane of an operand in \p fmt:
/// 8 (fp8), 6 (fp6) or 4 (fp4).
constexpr int wordsPerLane(SourceFormat fmt) {
  return bitsOf(fmt) * kItemsPerLane / 32;
}

/// Returns the exact value of the element code \p code of \p fmt (only the
/// low bitsOf(fmt) bits are used): +-0, subnormals and normals exactly,
/// +-infinity for the E5M2 Inf codes and a quiet NaN for the E4M3/E5M2 NaN
/// codes. This is the emulator's own decoder (not mx::ref::decode).
double decodeElement(SourceFormat fmt, uint8_t code);

/// The inputs of one output element D[i][j] of a scaled MFMA, in logical
/// (not register) order.
struct ScaledDotInputs {
  SourceFormat fmtA;     ///< Format of the A codes.
  SourceFormat fmtB;     ///< Format of the B codes.
  int k;                 ///< Number of products: a multiple of kScaleBlock.
  const uint8_t *a;      ///< Row i of A: k codes, one per byte, K order.
  const uint8_t *b;      ///< Column j of B: k codes, one per byte, K order.
  const uint8_t *scaleA; ///< k / 32 E8M0 bytes: scale of (row i, block).
  const uint8_t *scaleB; ///< k / 32 E8M0 bytes: scale of (block, column j).
  float c;               ///< The accumulator input C[i][j].
};

/// The numerics model of one output element: all the arithmetic of the
/// instruction is in a function of this type, so that a "hardware-like"
/// model (internal truncation, grouping, order; ISA-undocumented, see
/// gfx950-and-mx.md §4.5) can replace the exact one without touching the
/// lane layouts.
using ScaledDotFn = float (*)(const ScaledDotInputs &in);

/// The modeled numerics (the ISA's mathematical definition, one rounding):
///
///   D[i][j] = RNE_f32( C[i][j] + sum_{k} 2^(sA[i][k/32] - 127)
///                                      * 2^(sB[k/32][j] - 127)
///                                      * decode(A[i][k]) * decode(B[k][j]) )
///
/// The sum is computed EXACTLY for every input, so no input can lose a bit
/// before the single final round-to-nearest-even to f32. Two paths compute
/// it: a fast one sums each K-block's products as integers (in units of the
/// formats' smallest subnormals) and adds the blocks and C in one 128-bit
/// integer when their set bits fit it; every other case (NaN/Inf codes, NaN
/// scales, a wider exponent spread, a zero that may be -0) falls back to
/// wideScaledDot, so the two paths give the same bits for every input.
/// Denormal inputs (elements, C) and outputs are kept (never flushed);
/// overflow gives +-Inf (MODE.FP16_OVFL = 0). Special values:
///   - a scale byte 0xFF (E8M0 NaN) in any block makes the result NaN, even
///     when that block's data are zero; byte 0x00 means 2^-127, not zero;
///   - E4M3/E5M2 NaN codes and a NaN C give NaN;
///   - Inf codes propagate IEEE-style: Inf * 0 is NaN, Inf * x (x != 0) is
///     +-Inf, Inf + (-Inf) (including C) is NaN, otherwise +-Inf;
///   - an exact zero result is -0 only when C and every product are -0
///     (IEEE 754 sum-of-zeros rule under RNE), else +0.
/// NaN results are the canonical quiet NaN 0x7FC00000.
float exactScaledDot(const ScaledDotInputs &in);

/// The wide path of exactScaledDot, for every input: each term is an integer
/// mantissa times a power of two, accumulated in a 640-bit fixed-point
/// integer with LSB 2^-320 (products span 2^-286 ... < 2^288 with the scales,
/// C spans 2^-149 ... < 2^128, and up to 2^8 terms add < 8 bits). Same
/// results as exactScaledDot, much slower; exposed so that tests compare the
/// two paths.
float wideScaledDot(const ScaledDotInputs &in);

/// A CDNA3-style model of the instruction's internal arithmetic, from the
/// description of CDNA3's fp8 MFMA that MMA-Sim (Microsoft Research,
/// arXiv 2511.10909) reproduces bit for bit, applied to every format pair of
/// the gfx950 scaled MFMA (whose own internals are unpublished). The K
/// products are taken in groups of 16 consecutive K values (a group lies in
/// one K-block, so it has one pair of scales), in increasing K; each group
/// is added to the f32 accumulator acc as follows, acc being C before the
/// first group and the result of the previous group after it:
///   1. every nonzero product p = 2^(sA - 127) 2^(sB - 127) decode(a)
///      decode(b) has the leading exponent e_p = ea + eb + sA - 127 + sB - 127
///      (ea, eb: the exponents of the elements' leading significand bits, the
///      formats' minimum normal exponent for subnormals); zero products take
///      no part (they neither set an exponent nor add anything);
///   2. the products at even and at odd positions of the group form two
///      halves; in each, E_h = max e_p and every product is truncated toward
///      zero to a multiple of 2^(E_h - 24), then the half is summed exactly;
///   3. both halves are rounded toward -infinity to multiples of
///      2^(E - 24), E = max E_h, and added: s;
///   4. with E_acc = max(E, e_acc) (e_acc: the leading exponent of acc, -126
///      for subnormals; a zero acc takes no part), s is rounded toward
///      -infinity to a multiple of 2^(E_acc - 31) and acc to a multiple of
///      2^(E_acc - 24) — or dropped (0) when e_acc < E_acc - 25;
///   5. their sum is rounded to nearest-even f32 (subnormals kept, overflow
///      to +-Inf): the new acc. An exact zero is +0.
/// A group without a nonzero product leaves acc unchanged (-0 included).
/// Special values are IEEE-style per group, as in exactScaledDot: a NaN
/// scale, NaN code or NaN acc gives NaN, Inf * 0 and Inf + (-Inf) give NaN,
/// otherwise an Inf product or acc gives that Inf. Data with few significant
/// bits (small integers, whose aligned products and sums need no more than
/// 24 fractional bits) gives the same bits as exactScaledDot; random data
/// differs in the last bits, mostly downward.
float cdna3GroupedScaledDot(const ScaledDotInputs &in);

/// The models of the instruction's arithmetic the emulator implements.
enum class MFMAArithmetic {
  Exact,        ///< exactScaledDot: exact dot product, one rounding.
  CDNA3Grouped, ///< cdna3GroupedScaledDot: groups of 16, truncated sums.
};

/// Returns the numerics function of \p arithmetic.
ScaledDotFn getScaledDotFn(MFMAArithmetic arithmetic);

/// The operands of one scaled MFMA, for all 64 lanes of the wave.
struct ScaledMFMAOperands {
  MFMAShape shape;
  SourceFormat fmtA; ///< CBSZ.
  SourceFormat fmtB; ///< BLGP.
  /// A registers: lane l's 32-bit words are a[l * wordsPerLane(fmtA) + w],
  /// w in [0, wordsPerLane(fmtA)); items packed as described in the file
  /// header.
  const uint32_t *a;
  /// B registers, laid out as \p a with fmtB.
  const uint32_t *b;
  /// C accumulators: lane l's values are c[l * accumulatorsPerLane(shape) +
  /// v].
  const float *c;
  /// A scale register: one 32-bit word per lane (scaleA[l]).
  const uint32_t *scaleA;
  /// Byte of scaleA used, 0..3 ({OP_SEL_HI[0], OP_SEL[0]}, the intrinsic's
  /// opselA).
  unsigned opselA;
  /// B scale register: one 32-bit word per lane (scaleB[l]).
  const uint32_t *scaleB;
  /// Byte of scaleB used, 0..3.
  unsigned opselB;
};

/// Executes one scaled MFMA for the whole wave, writing the D accumulators
/// \p d in the layout of C (kWaveSize * accumulatorsPerLane(shape) floats).
/// \p d may alias ops.c (in-place accumulation). Every output element is
/// computed by \p numerics from its logical inputs; with exactScaledDot the
/// whole wave's elements are decoded once and summed by its fast path. EXEC
/// is ignored (all 64 lanes compute), as on hardware.
void scaledMFMA(const ScaledMFMAOperands &ops, float *d,
                ScaledDotFn numerics = exactScaledDot);

/// Convenience form of scaledMFMA(const ScaledMFMAOperands &, ...):
///   D = C + sum over K blocks of 2^(sA-127) 2^(sB-127) * sum A*B
/// for all 64 lanes, with the exact numerics of exactScaledDot. Arguments are
/// the fields of ScaledMFMAOperands.
void scaledMFMA(MFMAShape shape, SourceFormat fmtA, SourceFormat fmtB,
                const uint32_t *a, const uint32_t *b, const float *c,
                const uint32_t *scaleA, unsigned opselA, const uint32_t *scaleB,
                unsigned opselB, float *d);

/// A logical position in one instruction's operand: (row, column) of an
/// m x n matrix.
/// The FP4 (E2M1) code of \p value divided by 2^(scaleExponent - 127), as
/// CDNA4's V_CVT_SCALEF32_PK_FP4_* computes it (round to nearest even,
/// saturating to 6, sign kept).
uint8_t convertToFP4(double value, int scaleExponent);

struct LanePosition {
  int row; ///< Row of A, column n of B, row of D.
  int col; ///< K of A and B, K-block of a scale, column of D.
};

/// Returns where item \p t (in [0, kItemsPerLane)) of lane \p lane's A
/// operand in \p fmt sits: {r, k} for A[r][k]; for B, {n, k} for B[k][n].
/// These are the emulator's own lane tables (the ones scaledMFMA unpacks
/// registers with), exposed for checking other descriptions of the layout.
LanePosition operandItemPosition(MFMAShape shape, SourceFormat fmt, int lane,
                                 int t);

/// Returns the {row (column for B), K-block} whose E8M0 scale lane \p lane's
/// selected scale byte holds.
LanePosition scaleLanePosition(MFMAShape shape, int lane);

/// Returns the {row, column} of D (and C) that accumulator item \p v (in
/// [0, accumulatorsPerLane(shape))) of lane \p lane holds.
LanePosition accumulatorItemPosition(MFMAShape shape, int lane, int v);

} // namespace mlir::mx::emu

#endif // MX_EMULATOR_SCALEDMFMA_H
