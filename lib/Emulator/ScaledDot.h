//===- ScaledDot.h - the scaled dot products' shared tables ------*- C++
//-*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to MXEmulator: what its three files share. ScaledDotExact.cpp
// decodes the formats and computes the exact and wide dot products,
// ScaledDotGrouped.cpp the CDNA3-style grouped one, ScaledMFMA.cpp the lane
// layouts of the instruction and its wave-level fast path, which takes the
// exact path's integer tables and block combination.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_EMULATOR_SCALEDDOT_H
#define MX_LIB_EMULATOR_SCALEDDOT_H

#include "mx/Emulator/ScaledMFMA.h"

#include <array>
#include <cstdint>

namespace mlir::mx::emu::detail {

/// A decoded element: (-1)^negative * mantissa * 2^exponent when finite.
struct Element {
  enum Kind : uint8_t { Finite, Inf, NaN };
  Kind kind = Finite;
  bool negative = false;
  uint32_t mantissa = 0; ///< Integer significand, hidden bit included.
  int exponent = 0;      ///< Weight of the significand's LSB.
};

using DecodeTable = std::array<Element, 256>;

/// Returns the decoded value of every 8-bit code of \p fmt (higher bits than
/// the format width are ignored).
const DecodeTable &getDecodeTable(SourceFormat fmt);

/// Returns the number of mantissa bits of \p fmt.
int getMantissaBits(SourceFormat fmt);

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
const ScaledIntTable &getScaledIntTable(SourceFormat fmt);

/// Returns \p magnitude * 2^lsbExp (magnitude != 0, below 2^127) rounded to
/// nearest-even f32 (see ScaledDotExact.cpp).
float roundMagnitude(UInt128 magnitude, int lsbExp);

/// Combines K-block sums (\p sums[i] units of 2^exps[i]) and \p c into
/// \p result, rounded once to nearest-even f32, when one 128-bit integer
/// holds the sum; returns false when the caller must take the wide path.
bool combineBlocks(const Int128 *sums, const int *exps, int numBlocks, float c,
                   float &result);

/// combineBlocks for block sums that fit 64 bits.
bool combineSmallBlocks(const int64_t *sums, const int *exps, int numBlocks,
                        float c, float &result);

} // namespace mlir::mx::emu::detail

#endif // MX_LIB_EMULATOR_SCALEDDOT_H
