//===- Formats.cpp - MX element formats: decode, encode, parse ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Element codes are interpreted from the format parameters alone (width,
// exponent/mantissa widths, bias and a special-value convention); the limits
// in FormatInfo are derived from that interpretation.
//
//===----------------------------------------------------------------------===//

#include "mx/Reference/Reference.h"

#include "Internal.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace mx::ref;
using namespace mx::ref::detail;

namespace {
/// Per-format data: the public FormatInfo plus the code of the largest finite
/// positive value (the saturation target of encode()).
struct FormatData {
  FormatInfo info;
  uint8_t maxCode;
};
} // namespace

static constexpr int kNumFormats = 5;

static BitLayout getLayout(ElemFormat f) {
  switch (f) {
  case ElemFormat::E4M3:
    return {8, 4, 3, 7, SpecialValues::FiniteAllOnesNaN};
  case ElemFormat::E5M2:
    return {8, 5, 2, 15, SpecialValues::Ieee};
  case ElemFormat::E2M3:
    return {6, 2, 3, 1, SpecialValues::None};
  case ElemFormat::E3M2:
    return {6, 3, 2, 3, SpecialValues::None};
  case ElemFormat::E2M1:
    return {4, 2, 1, 1, SpecialValues::None};
  }
  assert(false && "unknown element format");
  return {8, 4, 3, 7, SpecialValues::FiniteAllOnesNaN};
}

static const char *getTypeName(ElemFormat f) {
  switch (f) {
  case ElemFormat::E4M3:
    return "f8E4M3FN";
  case ElemFormat::E5M2:
    return "f8E5M2";
  case ElemFormat::E2M3:
    return "f6E2M3FN";
  case ElemFormat::E3M2:
    return "f6E3M2FN";
  case ElemFormat::E2M1:
    return "f4E2M1FN";
  }
  return "";
}

double mx::ref::detail::decodeBits(const BitLayout &layout, uint32_t code) {
  uint32_t numCodes = 1u << layout.bits;
  code &= numCodes - 1;
  bool negative = (code >> (layout.bits - 1)) & 1;
  uint32_t expField = (code >> layout.manBits) & ((1u << layout.expBits) - 1);
  uint32_t manField = code & ((1u << layout.manBits) - 1);
  uint32_t expAllOnes = (1u << layout.expBits) - 1;
  uint32_t manAllOnes = (1u << layout.manBits) - 1;
  double sign = negative ? -1.0 : 1.0;

  if (layout.special == SpecialValues::Ieee && expField == expAllOnes) {
    if (manField == 0)
      return sign * std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (layout.special == SpecialValues::FiniteAllOnesNaN &&
      expField == expAllOnes && manField == manAllOnes)
    return std::numeric_limits<double>::quiet_NaN();

  // Integer significand and the exponent of its least significant bit.
  double significand;
  int lsbExp;
  if (expField == 0) {
    significand = manField;
    lsbExp = 1 - layout.bias - layout.manBits;
  } else {
    significand = (1u << layout.manBits) + manField;
    lsbExp = static_cast<int>(expField) - layout.bias - layout.manBits;
  }
  return sign * std::ldexp(significand, lsbExp);
}

static FormatData computeFormatData(ElemFormat f) {
  BitLayout layout = getLayout(f);
  FormatData data{};
  FormatInfo &info = data.info;
  info.name = getTypeName(f);
  info.bits = layout.bits;
  info.expBits = layout.expBits;
  info.manBits = layout.manBits;
  info.bias = layout.bias;
  info.minNormal = std::ldexp(1.0, 1 - layout.bias);
  info.minSubnormal = std::ldexp(1.0, 1 - layout.bias - layout.manBits);
  info.hasInf = false;
  info.hasNaN = false;
  info.maxFinite = 0.0;
  // Scan every code: the specials and the largest finite value follow from
  // the decoding rule itself.
  for (uint32_t code = 0; code < (1u << layout.bits); ++code) {
    double v = decodeBits(layout, code);
    if (std::isnan(v)) {
      info.hasNaN = true;
    } else if (std::isinf(v)) {
      info.hasInf = true;
    } else if (v > info.maxFinite) {
      info.maxFinite = v;
      data.maxCode = static_cast<uint8_t>(code);
    }
  }
  info.emaxElem = floorLog2(info.maxFinite);
  return data;
}

static const FormatData &getFormatData(ElemFormat f) {
  static const std::array<FormatData, kNumFormats> table = [] {
    std::array<FormatData, kNumFormats> result{};
    for (int i = 0; i < kNumFormats; ++i)
      result[i] = computeFormatData(static_cast<ElemFormat>(i));
    return result;
  }();
  int index = static_cast<int>(f);
  assert(index >= 0 && index < kNumFormats && "unknown element format");
  return table[index];
}

int mx::ref::detail::floorLog2(double x) {
  assert(x > 0 && std::isfinite(x) && "floorLog2 of a non-positive value");
  int exp;
  std::frexp(x, &exp); // x = m * 2^exp with m in [0.5, 1).
  return exp - 1;
}

int mx::ref::detail::ceilLog2(double x) {
  assert(x > 0 && std::isfinite(x) && "ceilLog2 of a non-positive value");
  int exp;
  double m = std::frexp(x, &exp);
  return m == 0.5 ? exp - 1 : exp;
}

const FormatInfo &mx::ref::getFormatInfo(ElemFormat f) {
  return getFormatData(f).info;
}

std::optional<ElemFormat> mx::ref::parseElemFormat(std::string_view name) {
  std::string lower(name);
  for (char &c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  struct Alias {
    const char *spelling;
    ElemFormat format;
  };
  static const Alias aliases[] = {
      {"e4m3", ElemFormat::E4M3},          {"fp8", ElemFormat::E4M3},
      {"f8e4m3fn", ElemFormat::E4M3},      {"float8_e4m3fn", ElemFormat::E4M3},
      {"e4m3fn", ElemFormat::E4M3},        {"e5m2", ElemFormat::E5M2},
      {"bf8", ElemFormat::E5M2},           {"f8e5m2", ElemFormat::E5M2},
      {"float8_e5m2", ElemFormat::E5M2},   {"e2m3", ElemFormat::E2M3},
      {"fp6", ElemFormat::E2M3},           {"f6e2m3fn", ElemFormat::E2M3},
      {"float6_e2m3fn", ElemFormat::E2M3}, {"e2m3fn", ElemFormat::E2M3},
      {"e3m2", ElemFormat::E3M2},          {"bf6", ElemFormat::E3M2},
      {"f6e3m2fn", ElemFormat::E3M2},      {"float6_e3m2fn", ElemFormat::E3M2},
      {"e3m2fn", ElemFormat::E3M2},        {"e2m1", ElemFormat::E2M1},
      {"fp4", ElemFormat::E2M1},           {"mxfp4", ElemFormat::E2M1},
      {"f4e2m1fn", ElemFormat::E2M1},      {"float4_e2m1fn", ElemFormat::E2M1},
      {"e2m1fn", ElemFormat::E2M1},
  };
  for (const Alias &alias : aliases)
    if (lower == alias.spelling)
      return alias.format;
  return std::nullopt;
}

double mx::ref::decode(ElemFormat f, uint8_t code) {
  return decodeBits(getLayout(f), code);
}

uint8_t mx::ref::encode(ElemFormat f, double v, ElemRounding r) {
  const FormatData &data = getFormatData(f);
  const FormatInfo &info = data.info;
  if (std::isnan(v))
    return info.hasNaN ? 0x7F : 0x00;
  uint8_t signBit = std::signbit(v)
                        ? static_cast<uint8_t>(1u << (info.bits - 1))
                        : uint8_t(0);
  double mag = std::fabs(v);
  if (std::isinf(mag))
    return signBit | data.maxCode;
  if (mag == 0)
    return signBit;

  // The grid spacing at |v|: 2^(e - manBits) with e = max(floor(log2 |v|),
  // emin). All operations below are exact in double: dividing by a power of
  // two, splitting off the integer part of a value below 2^(manBits + 1).
  int minExp = 1 - info.bias;
  int exp = std::max(floorLog2(mag), minExp);
  int quantumExp = exp - info.manBits;
  double scaled = std::ldexp(mag, -quantumExp);
  double units = std::floor(scaled);
  double fraction = scaled - units;
  bool unitsOdd = std::fmod(units, 2.0) != 0.0;
  if (fraction > 0.5 ||
      (fraction == 0.5 && (r == ElemRounding::TiesAway || unitsOdd)))
    units += 1.0;
  double rounded = std::ldexp(units, quantumExp);
  if (rounded > info.maxFinite)
    return signBit | data.maxCode;
  if (rounded == 0)
    return signBit;

  uint32_t expField, manField;
  int roundedExp = floorLog2(rounded);
  if (roundedExp < minExp) {
    expField = 0;
    manField =
        static_cast<uint32_t>(std::ldexp(rounded, -(minExp - info.manBits)));
  } else {
    expField = static_cast<uint32_t>(roundedExp + info.bias);
    manField = static_cast<uint32_t>(
                   std::ldexp(rounded, -(roundedExp - info.manBits))) -
               (1u << info.manBits);
  }
  return signBit | static_cast<uint8_t>((expField << info.manBits) | manField);
}

double mx::ref::decodeScale(uint8_t e8m0) {
  if (e8m0 == 0xFF)
    return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, static_cast<int>(e8m0) - 127);
}

float mx::ref::bf16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float result;
  std::memcpy(&result, &wide, sizeof(result));
  return result;
}

float mx::ref::halfToFloat(uint16_t bits) {
  // Every binary16 value is exactly representable in f32.
  static const BitLayout half = {16, 5, 10, 15, SpecialValues::Ieee};
  return static_cast<float>(decodeBits(half, bits));
}
