//===- InputSpec.cpp - argument specifications for mx-run -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/InputSpec.h"

#include "mx/Runner/TensorIO.h"
#include "mx/Support/FileIO.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <numeric>

using namespace mlir;
using namespace mlir::mx;

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Formats a double for messages with the fewest digits that read back
/// exactly ("1.5", "-4", "16777216", "0.1", "nan").
/// The bytes of \p buffer.
static ArrayRef<uint8_t> getBytes(const llvm::MemoryBuffer &buffer) {
  return ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(buffer.getBufferStart()),
      buffer.getBufferSize());
}

static std::string formatNumber(double value) {
  std::string result;
  if (value == std::trunc(value) && std::fabs(value) < 1e15)
    return std::to_string(static_cast<int64_t>(value));
  for (int precision = 1; precision <= 17; ++precision) {
    result.clear();
    llvm::raw_string_ostream os(result);
    os << llvm::format("%.*g", precision, value);
    if (std::isnan(value) || std::strtod(result.c_str(), nullptr) == value)
      break;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kSpecSyntax =
    "expected file:PATH, npy:PATH, random:KIND[,key=value...], zeros or "
    "fill:VALUE";

/// Parses an unsigned integer in decimal or 0x-prefixed hexadecimal.
static std::optional<uint64_t> parseUnsigned(StringRef text) {
  uint64_t value = 0;
  if (text.starts_with_insensitive("0x")) {
    if (text.size() == 2 || text.drop_front(2).getAsInteger(16, value))
      return std::nullopt;
    return value;
  }
  if (text.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

/// Parses a double (decimal, exponent, "nan", "inf"). A finite number too
/// large for a double (e.g. 1e400) is malformed, not infinity.
static std::optional<double> parseDouble(StringRef text) {
  double value = 0;
  if (text.empty() || text.trim() != text || text.getAsDouble(value))
    return std::nullopt;
  if (std::isinf(value) && !text.contains_insensitive("inf"))
    return std::nullopt;
  return value;
}

/// The keys each random kind accepts.
static ArrayRef<StringRef> getRandomKeys(InputSpec::RandomKind kind) {
  static const StringRef uniform[] = {"lo", "hi", "specials", "seed"};
  static const StringRef normal[] = {"mean", "std", "specials", "seed"};
  static const StringRef codes[] = {"seed"};
  static const StringRef scales[] = {"lo", "hi", "seed"};
  switch (kind) {
  case InputSpec::RandomKind::Uniform:
  case InputSpec::RandomKind::Int:
    return uniform;
  case InputSpec::RandomKind::Normal:
    return normal;
  case InputSpec::RandomKind::Codes:
    return codes;
  case InputSpec::RandomKind::Scales:
    return scales;
  }
  return {};
}

static llvm::Expected<InputSpec> parseRandomSpec(StringRef text,
                                                 StringRef whole) {
  InputSpec spec;
  spec.kind = InputSpec::Kind::Random;
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  StringRef kindName = parts.front();
  std::optional<InputSpec::RandomKind> kind =
      llvm::StringSwitch<std::optional<InputSpec::RandomKind>>(kindName)
          .Case("uniform", InputSpec::RandomKind::Uniform)
          .Case("normal", InputSpec::RandomKind::Normal)
          .Case("int", InputSpec::RandomKind::Int)
          .Case("codes", InputSpec::RandomKind::Codes)
          .Case("scales", InputSpec::RandomKind::Scales)
          .Default(std::nullopt);
  if (!kind)
    return makeError("unknown random kind '" + kindName + "' in '" + whole +
                     "' (expected uniform, normal, int, codes or scales)");
  spec.randomKind = *kind;

  ArrayRef<StringRef> keys = getRandomKeys(*kind);
  llvm::StringSet<> seen;
  for (StringRef part : llvm::drop_begin(parts)) {
    auto [key, value] = part.split('=');
    if (!part.contains('=') || key.empty() || value.empty())
      return makeError("malformed option '" + part + "' in '" + whole +
                       "' (expected key=value)");
    if (!llvm::is_contained(keys, key))
      return makeError("unknown key '" + key + "' for random:" + kindName +
                       " in '" + whole + "' (expected " +
                       llvm::join(keys, ", ") + ")");
    if (!seen.insert(key).second)
      return makeError("duplicate key '" + key + "' in '" + whole + "'");
    if (key == "seed") {
      spec.seed = parseUnsigned(value);
      if (!spec.seed)
        return makeError("malformed seed '" + value + "' in '" + whole +
                         "' (expected a non-negative integer)");
      continue;
    }
    std::optional<double> number = parseDouble(value);
    if (!number || std::isnan(*number))
      return makeError("malformed number '" + value + "' for '" + key +
                       "' in '" + whole + "'");
    if (key == "lo")
      spec.lo = number;
    else if (key == "hi")
      spec.hi = number;
    else if (key == "mean")
      spec.mean = number;
    else if (key == "std")
      spec.stddev = number;
    else if (key == "specials")
      spec.specials = number;
  }

  if (spec.lo && spec.hi && *spec.lo > *spec.hi)
    return makeError("lo (" + formatNumber(*spec.lo) +
                     ") is greater than hi (" + formatNumber(*spec.hi) +
                     ") in '" + whole + "'");
  if (spec.stddev && !(*spec.stddev >= 0 && std::isfinite(*spec.stddev)))
    return makeError("std must be finite and non-negative in '" + whole + "'");
  if (spec.specials && !(*spec.specials >= 0 && *spec.specials <= 1))
    return makeError("specials must be a fraction in [0, 1] in '" + whole +
                     "'");
  for (std::optional<double> bound : {spec.lo, spec.hi, spec.mean})
    if (bound && !std::isfinite(*bound))
      return makeError("lo, hi and mean must be finite in '" + whole + "'");
  return spec;
}

llvm::Expected<InputSpec> mlir::mx::parseInputSpec(StringRef text) {
  InputSpec spec;
  if (text == "zeros") {
    spec.kind = InputSpec::Kind::Zeros;
    return spec;
  }
  auto [prefix, rest] = text.split(':');
  if (!text.contains(':'))
    return makeError("malformed argument spec '" + text + "' (" + kSpecSyntax +
                     ")");
  if (prefix == "file" || prefix == "npy") {
    if (rest.empty())
      return makeError("missing path in '" + text + "'");
    spec.kind = prefix == "file" ? InputSpec::Kind::File : InputSpec::Kind::Npy;
    spec.path = rest.str();
    return spec;
  }
  if (prefix == "fill") {
    spec.kind = InputSpec::Kind::Fill;
    if (rest.starts_with_insensitive("0x")) {
      spec.fillBits = parseUnsigned(rest);
      if (!spec.fillBits)
        return makeError("malformed bit pattern '" + rest + "' in '" + text +
                         "'");
      return spec;
    }
    std::optional<double> value = parseDouble(rest);
    if (!value)
      return makeError("malformed fill value '" + rest + "' in '" + text +
                       "' (expected a number within the range of f64, or "
                       "0xHEX bits)");
    spec.fillValue = *value;
    return spec;
  }
  if (prefix == "random") {
    if (rest.empty())
      return makeError("missing random kind in '" + text +
                       "' (expected uniform, normal, int, codes or scales)");
    return parseRandomSpec(rest, text);
  }
  return makeError("unknown argument spec kind '" + prefix + "' in '" + text +
                   "' (" + kSpecSyntax + ")");
}

//===----------------------------------------------------------------------===//
// Generators
//===----------------------------------------------------------------------===//

namespace {
/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, portable generator.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Uniform in [0, n), n > 0.
  uint64_t below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >>
                                 64);
  }

  /// Standard normal (Box-Muller, one value per two uniforms).
  double normal() {
    double u1 = 1.0 - uniform(); // (0, 1]
    double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) *
           std::cos(2.0 * 3.14159265358979323846 * u2);
  }

private:
  uint64_t state;
};
} // namespace

uint64_t mlir::mx::deriveSeed(uint64_t globalSeed, unsigned argIndex) {
  Random random(globalSeed ^ (0xD1B54A32D192ED03ull * (argIndex + 1)));
  return random.next();
}

static std::string describe(InputSpec::RandomKind kind) {
  switch (kind) {
  case InputSpec::RandomKind::Uniform:
    return "random:uniform";
  case InputSpec::RandomKind::Normal:
    return "random:normal";
  case InputSpec::RandomKind::Int:
    return "random:int";
  case InputSpec::RandomKind::Codes:
    return "random:codes";
  case InputSpec::RandomKind::Scales:
    return "random:scales";
  }
  return "random";
}

/// Returns the finite, non-NaN codes of a code type.
static SmallVector<uint64_t> getFiniteCodes(ElementKind kind) {
  SmallVector<uint64_t> codes;
  for (uint64_t code = 0, e = uint64_t(1) << getBitWidth(kind); code < e;
       ++code)
    if (std::isfinite(decodeElement(kind, code)))
      codes.push_back(code);
  return codes;
}

/// The largest integer N such that every integer in [-N, N] is exact in the
/// IEEE type \p kind.
static double getExactIntegerLimit(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return 2048;
  case ElementKind::BF16:
    return 256;
  case ElementKind::F32:
    return 16777216;
  default:
    return 9007199254740992.0;
  }
}

/// Fills \p tensor with integers in [lo, hi] (both integral).
static llvm::Error generateIntegers(HostTensor &tensor, double lo, double hi,
                                    Random &random) {
  ElementKind kind = tensor.getElementKind();
  std::string range = "[" + formatNumber(lo) + ", " + formatNumber(hi) + "]";
  int64_t n = tensor.getNumElements();
  if (isMXElement(kind)) {
    SmallVector<uint64_t> codes;
    for (uint64_t code : getFiniteCodes(kind)) {
      double value = decodeElement(kind, code);
      if (value == std::trunc(value) && value >= lo && value <= hi)
        codes.push_back(code);
    }
    if (codes.empty())
      return makeError("random:int: no " + getElementKindName(kind) +
                       " value is an integer in " + range);
    for (int64_t i = 0; i < n; ++i)
      tensor.setBits(i, codes[random.below(codes.size())]);
    return llvm::Error::success();
  }
  if (isIEEEFloat(kind)) {
    double limit = getExactIntegerLimit(kind);
    if (std::max(std::fabs(lo), std::fabs(hi)) > limit)
      return makeError("random:int range " + range +
                       " is not exactly representable in " +
                       getElementKindName(kind) + " (integers up to " +
                       formatNumber(limit) + ")");
  } else if (!encodeElement(kind, lo) || !encodeElement(kind, hi)) {
    return makeError("random range " + range + " does not fit in " +
                     getElementKindName(kind));
  }
  uint64_t count = static_cast<uint64_t>(hi - lo) + 1;
  for (int64_t i = 0; i < n; ++i) {
    double value = lo + static_cast<double>(count == 0 ? random.next()
                                                       : random.below(count));
    tensor.setBits(i, *encodeElement(kind, value));
  }
  return llvm::Error::success();
}

/// Fills an f8E8M0FNU tensor with bytes in [lo, hi], each different from its
/// predecessor along every dimension.
static llvm::Error generateScales(HostTensor &tensor, double lo, double hi,
                                  Random &random) {
  if (lo != std::trunc(lo) || hi != std::trunc(hi) || lo < 0 || hi > 255)
    return makeError("random:scales needs integer byte bounds in [0, 255], "
                     "got [" +
                     formatNumber(lo) + ", " + formatNumber(hi) + "]");
  ArrayRef<int64_t> shape = tensor.type.shape;
  unsigned count = static_cast<unsigned>(hi - lo) + 1;
  if (count <= shape.size())
    return makeError("random:scales range [" + formatNumber(lo) + ", " +
                     formatNumber(hi) + "] has " + Twine(count) +
                     " values, too few to keep the neighbours of every "
                     "element of a rank-" +
                     Twine(shape.size()) + " tensor distinct");
  SmallVector<int64_t> strides = getRowMajorStrides(shape);
  SmallVector<int64_t> index(shape.size(), 0);
  int64_t n = tensor.getNumElements();
  for (int64_t i = 0; i < n; ++i) {
    // The predecessors along every dimension must not share the value.
    SmallVector<uint64_t, 4> excluded;
    for (auto [d, stride] : llvm::enumerate(strides))
      if (index[d] > 0)
        excluded.push_back(tensor.getBits(i - stride));
    llvm::sort(excluded);
    excluded.erase(llvm::unique(excluded), excluded.end());
    uint64_t pick = random.below(count - excluded.size());
    uint64_t value = static_cast<uint64_t>(lo);
    // Walk to the pick-th allowed value.
    for (;; ++value) {
      if (llvm::is_contained(excluded, value))
        continue;
      if (pick-- == 0)
        break;
    }
    tensor.setBits(i, value);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return llvm::Error::success();
}

/// Replaces round(fraction * n) elements, at random positions, with special
/// values of the IEEE type of \p tensor.
static void insertSpecials(HostTensor &tensor, double fraction,
                           Random &random) {
  ElementKind kind = tensor.getElementKind();
  const llvm::fltSemantics &sem =
      kind == ElementKind::F16    ? llvm::APFloat::IEEEhalf()
      : kind == ElementKind::BF16 ? llvm::APFloat::BFloat()
      : kind == ElementKind::F32  ? llvm::APFloat::IEEEsingle()
                                  : llvm::APFloat::IEEEdouble();
  auto bits = [](const llvm::APFloat &value) {
    return value.bitcastToAPInt().getZExtValue();
  };
  uint64_t maxSubnormal = bits(llvm::APFloat::getSmallestNormalized(sem)) - 1;
  uint64_t signBit = uint64_t(1) << (getBitWidth(kind) - 1);
  SmallVector<uint64_t> specials = {
      bits(llvm::APFloat::getQNaN(sem)),
      bits(llvm::APFloat::getInf(sem)),
      bits(llvm::APFloat::getInf(sem, /*Negative=*/true)),
      bits(llvm::APFloat::getZero(sem)),
      bits(llvm::APFloat::getZero(sem, /*Negative=*/true)),
      bits(llvm::APFloat::getSmallest(sem)),
      bits(llvm::APFloat::getSmallest(sem, /*Negative=*/true)),
      maxSubnormal,
      maxSubnormal | signBit,
      bits(llvm::APFloat::getLargest(sem)),
      bits(llvm::APFloat::getLargest(sem, /*Negative=*/true)),
  };
  int64_t n = tensor.getNumElements();
  int64_t count = std::llround(fraction * static_cast<double>(n));
  std::vector<int64_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t j = i + static_cast<int64_t>(random.below(n - i));
    std::swap(positions[i], positions[j]);
    tensor.setBits(positions[i], specials[random.below(specials.size())]);
  }
}

static llvm::Expected<HostTensor> generateRandom(const InputSpec &spec,
                                                 const HostTensorType &type,
                                                 uint64_t seed) {
  ElementKind kind = type.elementKind;
  std::string what = describe(spec.randomKind);
  HostTensor tensor(type);
  Random random(seed);
  int64_t n = tensor.getNumElements();
  bool floatOrMX = isIEEEFloat(kind) || isMXElement(kind);

  if (spec.specials && !isIEEEFloat(kind))
    return makeError("specials= is only supported for f16, bf16, f32 and f64 "
                     "tensors, not " +
                     type.str());

  switch (spec.randomKind) {
  case InputSpec::RandomKind::Uniform: {
    double lo = spec.lo.value_or(-1), hi = spec.hi.value_or(1);
    if (lo > hi)
      return makeError("lo (" + formatNumber(lo) + ") is greater than hi (" +
                       formatNumber(hi) + ")");
    if (isInteger(kind)) {
      lo = std::ceil(lo);
      hi = std::floor(hi);
      if (lo > hi)
        return makeError(what + " range contains no integer");
      if (llvm::Error err = generateIntegers(tensor, lo, hi, random))
        return std::move(err);
      break;
    }
    if (!floatOrMX)
      return makeError(what + " is not supported for " + type.str() +
                       " (use random:scales or random:codes)");
    for (int64_t i = 0; i < n; ++i)
      tensor.setBits(i,
                     *encodeElement(kind, lo + random.uniform() * (hi - lo)));
    break;
  }
  case InputSpec::RandomKind::Normal: {
    if (!floatOrMX)
      return makeError(
          what + " is not supported for " + type.str() +
          (isInteger(kind) ? " (use random:int)" : " (use random:scales)"));
    double mean = spec.mean.value_or(0), stddev = spec.stddev.value_or(1);
    for (int64_t i = 0; i < n; ++i)
      tensor.setBits(i, *encodeElement(kind, mean + stddev * random.normal()));
    break;
  }
  case InputSpec::RandomKind::Int: {
    double lo = spec.lo.value_or(-4), hi = spec.hi.value_or(4);
    if (lo != std::trunc(lo) || hi != std::trunc(hi))
      return makeError(what + " needs integer bounds, got [" +
                       formatNumber(lo) + ", " + formatNumber(hi) + "]");
    if (lo > hi)
      return makeError("lo (" + formatNumber(lo) + ") is greater than hi (" +
                       formatNumber(hi) + ")");
    if (kind == ElementKind::F8E8M0FNU)
      return makeError(what + " is not supported for " + type.str() +
                       " (use random:scales)");
    if (llvm::Error err = generateIntegers(tensor, lo, hi, random))
      return std::move(err);
    break;
  }
  case InputSpec::RandomKind::Codes: {
    if (!isCodeType(kind))
      return makeError(what + " needs an MX element type or f8E8M0FNU, not " +
                       type.str());
    SmallVector<uint64_t> codes = getFiniteCodes(kind);
    for (int64_t i = 0; i < n; ++i)
      tensor.setBits(i, codes[random.below(codes.size())]);
    break;
  }
  case InputSpec::RandomKind::Scales: {
    if (kind != ElementKind::F8E8M0FNU)
      return makeError(what + " needs element type f8E8M0FNU, not " +
                       type.str());
    if (llvm::Error err = generateScales(tensor, spec.lo.value_or(120),
                                         spec.hi.value_or(134), random))
      return std::move(err);
    break;
  }
  }
  if (spec.specials)
    insertSpecials(tensor, *spec.specials, random);
  return tensor;
}

llvm::Expected<HostTensor>
mlir::mx::materializeInput(const InputSpec &spec, const HostTensorType &type,
                           uint64_t defaultSeed) {
  if (!type.hasStaticShape())
    return makeError("cannot materialize a value of dynamic type " +
                     type.str());
  switch (spec.kind) {
  case InputSpec::Kind::Zeros:
    return HostTensor(type);
  case InputSpec::Kind::Fill: {
    ElementKind kind = type.elementKind;
    uint64_t bits;
    if (spec.fillBits) {
      unsigned width = getBitWidth(kind);
      if (width < 64 && (*spec.fillBits >> width) != 0)
        return makeError("fill bits 0x" + llvm::utohexstr(*spec.fillBits) +
                         " do not fit in the " + Twine(width) + " bits of " +
                         getElementKindName(kind));
      bits = *spec.fillBits;
    } else {
      std::optional<uint64_t> encoded = encodeElement(kind, spec.fillValue);
      if (!encoded)
        return makeError("fill value " + formatNumber(spec.fillValue) +
                         " is not representable in " +
                         getElementKindName(kind));
      bits = *encoded;
    }
    HostTensor tensor(type);
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
      tensor.setBits(i, bits);
    return tensor;
  }
  case InputSpec::Kind::File: {
    // The file format has exactly this many bytes: checked before reading.
    UserFileLimits limits;
    limits.exactSize = type.getFileSize();
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        readUserFile(spec.path, limits);
    if (!buffer)
      return buffer.takeError();
    llvm::Expected<HostTensor> tensor =
        fromFileFormat(type, getBytes(**buffer));
    if (!tensor)
      return makeError("file '" + spec.path + "' " +
                       llvm::toString(tensor.takeError()));
    return tensor;
  }
  case InputSpec::Kind::Npy: {
    UserFileLimits limits;
    limits.maxSize = getMaxNpyFileSize(type);
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        readUserFile(spec.path, limits);
    if (!buffer)
      return buffer.takeError();
    llvm::Expected<HostTensor> tensor = readNpy(type, getBytes(**buffer));
    if (!tensor)
      return makeError("npy file '" + spec.path +
                       "': " + llvm::toString(tensor.takeError()));
    return tensor;
  }
  case InputSpec::Kind::Random:
    return generateRandom(spec, type, spec.seed.value_or(defaultSeed));
  }
  return makeError("unknown argument spec");
}
