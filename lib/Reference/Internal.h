//===- Internal.h - Helpers shared by the reference sources -----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_REFERENCE_INTERNAL_H
#define MX_LIB_REFERENCE_INTERNAL_H

#include <cstdint>

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

} // namespace mx::ref::detail

#endif // MX_LIB_REFERENCE_INTERNAL_H
