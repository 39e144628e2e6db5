//===- Internal.h - Helpers shared by the reference sources -----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_REFERENCE_INTERNAL_H
#define MX_LIB_REFERENCE_INTERNAL_H

#include "mx/Reference/Reference.h"

#include <cstdint>
#include <vector>

namespace mx::ref::detail {

/// Which codes of a binary floating-point layout are special.
enum class SpecialValues {
  None,             ///< Every code is finite (fp4, fp6).
  FiniteAllOnesNaN, ///< Only exponent and mantissa all ones is NaN (E4M3FN).
  Ieee,             ///< Exponent all ones: Inf (mantissa 0) or NaN.
};

/// A sign/exponent/mantissa layout with the sign in the top bit.
struct BitLayout {
  int bits;
  int expBits;
  int manBits;
  int bias;
  SpecialValues special;
};

/// Returns the exact value of \p code in \p layout.
double decodeBits(const BitLayout &layout, uint32_t code);

/// Returns floor(log2(x)) exactly, for finite x > 0 (subnormals included).
int floorLog2(double x);

/// Returns ceil(log2(x)) exactly, for finite x > 0 (subnormals included).
int ceilLog2(double x);

/// scaledMatmulPerInstruction with Exact arithmetic (same operands, no abs
/// sums) with every instruction summed by exactStep, the exact fixed-point
/// sum, and none by a fast path: slow, the oracle that the fast paths must
/// match bit for bit (used by the unit tests).
std::vector<float> exactStepsPerInstruction(const uint8_t *a, const uint8_t *sa,
                                            ElemFormat fa, const uint8_t *b,
                                            const uint8_t *sb, ElemFormat fb,
                                            int64_t M, int64_t N, int64_t K,
                                            bool bTransposed, const float *acc,
                                            const InstructionOrder &order);

} // namespace mx::ref::detail

#endif // MX_LIB_REFERENCE_INTERNAL_H
