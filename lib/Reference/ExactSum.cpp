//===- ExactSum.cpp - exact sums rounded once to f32 ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ref::ExactSum: a fixed-point integer of kDigits 32-bit digits, digit i
// worth 2^(kLsb + 32 i), each held in an int64_t so that up to 2^31 values
// can be added before the carries are resolved (when the sum is read).
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mx::ref;

namespace {
/// Resolves the carries of \p d: digits 0 .. N-2 in [0, 2^32), the top one
/// signed.
template <size_t N> void normalize(std::array<int64_t, N> &d) {
  for (size_t i = 0; i + 1 < N; ++i) {
    // Floor division by 2^32 for either sign.
    int64_t carry = (d[i] - (d[i] & 0xFFFFFFFF)) / (int64_t(1) << 32);
    d[i] &= 0xFFFFFFFF;
    d[i + 1] += carry;
  }
}
} // namespace

void ExactSum::add(double value) {
  anyAdded = true;
  allNegativeZero &= value == 0 && std::signbit(value);
  if (std::isnan(value) || std::isinf(value)) {
    anyNaN |= std::isnan(value);
    posInf |= value == INFINITY;
    negInf |= value == -INFINITY;
    return;
  }
  if (value == 0)
    return;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  // value = mantissa * 2^(biased exponent - 1075).
  uint64_t mantissa = (bits & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
  int shift = static_cast<int>((bits >> 52) & 0x7FF) - 1075;
  int position = shift - kLsb;
  assert(position >= 0 && position + 53 <= 32 * kDigits &&
         "term outside the exact sum's range");
  int digit = position / 32, offset = position % 32;
  // mantissa << offset spans at most 85 bits: three digits.
  uint64_t low = mantissa << offset;
  uint64_t high = offset ? mantissa >> (64 - offset) : 0;
  int64_t parts[3] = {static_cast<int64_t>(low & 0xFFFFFFFFu),
                      static_cast<int64_t>(low >> 32),
                      static_cast<int64_t>(high)};
  for (int i = 0; i < 3 && digit + i < kDigits; ++i)
    digits[digit + i] += value < 0 ? -parts[i] : parts[i];
}

float ExactSum::round() const {
  if (anyNaN || (posInf && negInf))
    return std::numeric_limits<float>::quiet_NaN();
  if (posInf || negInf)
    return posInf ? INFINITY : -INFINITY;
  std::array<int64_t, kDigits> d = digits;
  normalize(d);
  bool negative = d[kDigits - 1] < 0;
  if (negative) {
    for (int64_t &digit : d)
      digit = -digit;
    normalize(d);
  }
  int top = -1;
  for (int i = kDigits - 1; i >= 0 && top < 0; --i)
    for (int b = 31; b >= 0; --b)
      if ((d[i] >> b) & 1) {
        top = 32 * i + b;
        break;
      }
  if (top < 0)
    return anyAdded && allNegativeZero ? -0.0f : 0.0f;
  auto bit = [&](int i) -> uint64_t {
    return i < 0 ? 0 : (static_cast<uint64_t>(d[i / 32]) >> (i % 32)) & 1;
  };
  // 24 significant bits, none below 2^-149.
  int lsb = std::max(top - 23, -149 - kLsb);
  uint64_t q = 0;
  for (int i = top; i >= lsb; --i)
    q = (q << 1) | bit(i);
  bool half = bit(lsb - 1) != 0;
  bool rest = false;
  for (int i = lsb - 2; i >= 0 && !rest; --i)
    rest = bit(i) != 0;
  if (half && (rest || (q & 1)))
    ++q;
  double value = std::ldexp(static_cast<double>(q), lsb + kLsb);
  float result = value >= 0x1p128 ? std::numeric_limits<float>::infinity()
                                  : static_cast<float>(value);
  return negative ? -result : result;
}
