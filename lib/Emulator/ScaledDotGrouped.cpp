//===- ScaledDotGrouped.cpp - the CDNA3-style grouped scaled dot ----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cdna3GroupedScaledDot(): the MFMA arithmetic model that adds the products
// to the accumulator 16 at a time with truncation, and getScaledDotFn(),
// which picks a model (the exact one is in ScaledDotExact.cpp).
//
//===----------------------------------------------------------------------===//

#include "ScaledDot.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::mx::emu;
using mlir::mx::emu::detail::DecodeTable;
using mlir::mx::emu::detail::Element;
using mlir::mx::emu::detail::getDecodeTable;
using mlir::mx::emu::detail::getMantissaBits;
using mlir::mx::emu::detail::roundMagnitude;

//===----------------------------------------------------------------------===//
// CDNA3-style grouped model
//===----------------------------------------------------------------------===//
//
// All in integers: a product of two elements is the integer ma * mb times
// 2^(lsb), its leading exponent lsb + manA + manB (the significands have
// manA + manB fractional bits); so a product in units of 2^(E_h - 24) is
// ma * mb * 2^(24 - manA - manB - (E_h - e_p)), a shift that truncates
// toward zero when negative. Every quantity stays below 2^40.

namespace {

/// Products added to the accumulator at a time.
constexpr int kGroupSize = 16;
/// Fractional bits (relative to the largest exponent) kept of the products
/// and of the two halves' sums.
constexpr int kProductBits = 24;
/// Fractional bits kept of the group's sum when it is added to acc.
constexpr int kGroupSumBits = 31;
/// Fractional bits kept of acc; an acc whose leading exponent is more than
/// kAccDropDistance below the largest one is dropped.
constexpr int kAccBits = 24;
constexpr int kAccDropDistance = 25;

/// Returns floor(v * 2^shift); v * 2^shift must fit 63 bits when shift > 0.
int64_t shiftFloor(int64_t v, int shift) {
  if (shift >= 0)
    return v * (int64_t(1) << shift);
  if (shift <= -62)
    return v < 0 ? -1 : 0;
  int64_t divisor = int64_t(1) << -shift;
  int64_t q = v / divisor; // Toward zero.
  return (v % divisor != 0 && v < 0) ? q - 1 : q;
}

/// Returns v * 2^shift truncated toward zero (|v| * 2^shift below 2^62).
int64_t shiftTrunc(int64_t v, int shift) {
  if (shift >= 0)
    return v * (int64_t(1) << shift);
  if (shift <= -62)
    return 0;
  return v / (int64_t(1) << -shift);
}

/// Returns \p total * 2^lsbExp rounded to nearest-even f32 (+0 for 0).
float roundSigned(int64_t total, int lsbExp) {
  if (total == 0)
    return 0.0f;
  uint64_t magnitude = total < 0 ? -static_cast<uint64_t>(total) : total;
  float rounded = roundMagnitude(magnitude, lsbExp);
  return total < 0 ? -rounded : rounded;
}

/// One group of cdna3GroupedScaledDot: acc plus products [begin, begin + 16).
float addGroup(const ScaledDotInputs &in, int begin, float acc) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  int blk = begin / kScaleBlock;
  if (in.scaleA[blk] == 0xFF || in.scaleB[blk] == 0xFF || std::isnan(acc))
    return kNaN;
  const DecodeTable &decodeA = getDecodeTable(in.fmtA);
  const DecodeTable &decodeB = getDecodeTable(in.fmtB);
  int fracBits = getMantissaBits(in.fmtA) + getMantissaBits(in.fmtB);
  int scaleExp = (static_cast<int>(in.scaleA[blk]) - 127) +
                 (static_cast<int>(in.scaleB[blk]) - 127);

  bool posInf = std::isinf(acc) && acc > 0, negInf = std::isinf(acc) && acc < 0;
  int64_t products[kGroupSize];
  int leads[kGroupSize];
  bool present[kGroupSize] = {};
  for (int t = 0; t < kGroupSize; ++t) {
    const Element &ea = decodeA[in.a[begin + t]];
    const Element &eb = decodeB[in.b[begin + t]];
    if (ea.kind == Element::NaN || eb.kind == Element::NaN)
      return kNaN;
    bool negative = ea.negative != eb.negative;
    if (ea.kind == Element::Inf || eb.kind == Element::Inf) {
      const Element &other = ea.kind == Element::Inf ? eb : ea;
      if (other.kind == Element::Finite && other.mantissa == 0)
        return kNaN;
      (negative ? negInf : posInf) = true;
      continue;
    }
    if (ea.mantissa == 0 || eb.mantissa == 0)
      continue;
    int64_t product = int64_t(ea.mantissa) * eb.mantissa;
    products[t] = negative ? -product : product;
    leads[t] = ea.exponent + eb.exponent + scaleExp + fracBits;
    present[t] = true;
  }
  if (posInf && negInf)
    return kNaN;
  if (posInf || negInf)
    return posInf ? kInf : -kInf;

  // The two halves (even and odd positions), each aligned to its largest
  // exponent and truncated.
  int64_t halfSum[2] = {0, 0};
  int halfExp[2] = {std::numeric_limits<int>::min(),
                    std::numeric_limits<int>::min()};
  for (int t = 0; t < kGroupSize; ++t)
    if (present[t])
      halfExp[t % 2] = std::max(halfExp[t % 2], leads[t]);
  for (int t = 0; t < kGroupSize; ++t)
    if (present[t])
      halfSum[t % 2] += shiftTrunc(
          products[t], kProductBits - fracBits - (halfExp[t % 2] - leads[t]));
  int groupExp = std::max(halfExp[0], halfExp[1]);
  if (groupExp == std::numeric_limits<int>::min())
    return acc;    // No nonzero product.
  int64_t sum = 0; // In units of 2^(groupExp - 24).
  for (int h = 0; h < 2; ++h)
    if (halfExp[h] != std::numeric_limits<int>::min())
      sum += shiftFloor(halfSum[h], halfExp[h] - groupExp);

  if (acc == 0.0f)
    return roundSigned(sum, groupExp - kProductBits);
  // acc = accMantissa * 2^(accLead - 23), accLead its leading exponent.
  uint32_t bits;
  std::memcpy(&bits, &acc, sizeof(bits));
  uint32_t expField = (bits >> 23) & 0xFF;
  int64_t accMantissa =
      expField ? ((bits & 0x7FFFFF) | 0x800000) : (bits & 0x7FFFFF);
  if (bits >> 31)
    accMantissa = -accMantissa;
  int accLead = expField ? static_cast<int>(expField) - 127 : -126;
  int top = std::max(groupExp, accLead);
  // In units of 2^(top - 31).
  int64_t total =
      shiftFloor(sum, (kGroupSumBits - kProductBits) - (top - groupExp));
  if (accLead >= top - kAccDropDistance)
    total += shiftFloor(accMantissa, kAccBits - 23 - (top - accLead)) *
             (int64_t(1) << (kGroupSumBits - kAccBits));
  return roundSigned(total, top - kGroupSumBits);
}

} // namespace

float mlir::mx::emu::cdna3GroupedScaledDot(const ScaledDotInputs &in) {
  assert(in.k % kGroupSize == 0 && "K must be a multiple of 16");
  float acc = in.c;
  for (int begin = 0; begin < in.k; begin += kGroupSize)
    acc = addGroup(in, begin, acc);
  return acc;
}

ScaledDotFn mlir::mx::emu::getScaledDotFn(MFMAArithmetic arithmetic) {
  switch (arithmetic) {
  case MFMAArithmetic::Exact:
    return exactScaledDot;
  case MFMAArithmetic::CDNA3Grouped:
    return cdna3GroupedScaledDot;
  }
  assert(false && "unknown MFMA arithmetic");
  return exactScaledDot;
}
