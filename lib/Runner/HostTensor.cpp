//===- HostTensor.cpp - host-side tensor values for mx-run ----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::mx;
namespace ref = ::mx::ref;

namespace {
/// Static properties of an element kind.
struct KindInfo {
  ElementKind kind;
  StringLiteral name;
  unsigned storageBytes;
  unsigned bitWidth;
};
} // namespace

static constexpr KindInfo kKindInfos[] = {
    {ElementKind::I1, "i1", 1, 1},
    {ElementKind::I8, "i8", 1, 8},
    {ElementKind::I16, "i16", 2, 16},
    {ElementKind::I32, "i32", 4, 32},
    {ElementKind::I64, "i64", 8, 64},
    {ElementKind::F16, "f16", 2, 16},
    {ElementKind::BF16, "bf16", 2, 16},
    {ElementKind::F32, "f32", 4, 32},
    {ElementKind::F64, "f64", 8, 64},
    {ElementKind::F4E2M1FN, "f4E2M1FN", 1, 4},
    {ElementKind::F6E2M3FN, "f6E2M3FN", 1, 6},
    {ElementKind::F6E3M2FN, "f6E3M2FN", 1, 6},
    {ElementKind::F8E4M3FN, "f8E4M3FN", 1, 8},
    {ElementKind::F8E5M2, "f8E5M2", 1, 8},
    {ElementKind::F8E8M0FNU, "f8E8M0FNU", 1, 8},
};

static const KindInfo &getKindInfo(ElementKind kind) {
  const KindInfo &info = kKindInfos[static_cast<unsigned>(kind)];
  assert(info.kind == kind && "kKindInfos out of order");
  return info;
}

StringRef mlir::mx::getElementKindName(ElementKind kind) {
  return getKindInfo(kind).name;
}

std::optional<ElementKind> mlir::mx::parseElementKind(StringRef name) {
  for (const KindInfo &info : kKindInfos)
    if (info.name == name)
      return info.kind;
  return std::nullopt;
}

ArrayRef<ElementKind> mlir::mx::getAllElementKinds() {
  static const SmallVector<ElementKind> kinds = llvm::map_to_vector(
      kKindInfos, [](const KindInfo &info) { return info.kind; });
  return kinds;
}

unsigned mlir::mx::getStorageBytes(ElementKind kind) {
  return getKindInfo(kind).storageBytes;
}

unsigned mlir::mx::getBitWidth(ElementKind kind) {
  return getKindInfo(kind).bitWidth;
}

bool mlir::mx::isIEEEFloat(ElementKind kind) {
  return kind == ElementKind::F16 || kind == ElementKind::BF16 ||
         kind == ElementKind::F32 || kind == ElementKind::F64;
}

bool mlir::mx::isInteger(ElementKind kind) {
  return kind == ElementKind::I1 || kind == ElementKind::I8 ||
         kind == ElementKind::I16 || kind == ElementKind::I32 ||
         kind == ElementKind::I64;
}

bool mlir::mx::isMXElement(ElementKind kind) {
  return getRefFormat(kind).has_value();
}

bool mlir::mx::isCodeType(ElementKind kind) {
  return isMXElement(kind) || kind == ElementKind::F8E8M0FNU;
}

std::optional<ref::ElemFormat> mlir::mx::getRefFormat(ElementKind kind) {
  switch (kind) {
  case ElementKind::F4E2M1FN:
    return ref::ElemFormat::E2M1;
  case ElementKind::F6E2M3FN:
    return ref::ElemFormat::E2M3;
  case ElementKind::F6E3M2FN:
    return ref::ElemFormat::E3M2;
  case ElementKind::F8E4M3FN:
    return ref::ElemFormat::E4M3;
  case ElementKind::F8E5M2:
    return ref::ElemFormat::E5M2;
  default:
    return std::nullopt;
  }
}

std::optional<ElementKind> mlir::mx::getElementKind(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.isUnsigned())
      return std::nullopt;
    switch (intType.getWidth()) {
    case 1:
      return ElementKind::I1;
    case 8:
      return ElementKind::I8;
    case 16:
      return ElementKind::I16;
    case 32:
      return ElementKind::I32;
    case 64:
      return ElementKind::I64;
    default:
      return std::nullopt;
    }
  }
  if (isa<Float16Type>(type))
    return ElementKind::F16;
  if (isa<BFloat16Type>(type))
    return ElementKind::BF16;
  if (isa<Float32Type>(type))
    return ElementKind::F32;
  if (isa<Float64Type>(type))
    return ElementKind::F64;
  if (isa<Float4E2M1FNType>(type))
    return ElementKind::F4E2M1FN;
  if (isa<Float6E2M3FNType>(type))
    return ElementKind::F6E2M3FN;
  if (isa<Float6E3M2FNType>(type))
    return ElementKind::F6E3M2FN;
  if (isa<Float8E4M3FNType>(type))
    return ElementKind::F8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return ElementKind::F8E5M2;
  if (isa<Float8E8M0FNUType>(type))
    return ElementKind::F8E8M0FNU;
  return std::nullopt;
}

Type mlir::mx::getMLIRType(ElementKind kind, MLIRContext *context) {
  switch (kind) {
  case ElementKind::I1:
  case ElementKind::I8:
  case ElementKind::I16:
  case ElementKind::I32:
  case ElementKind::I64:
    return IntegerType::get(context, getBitWidth(kind));
  case ElementKind::F16:
    return Float16Type::get(context);
  case ElementKind::BF16:
    return BFloat16Type::get(context);
  case ElementKind::F32:
    return Float32Type::get(context);
  case ElementKind::F64:
    return Float64Type::get(context);
  case ElementKind::F4E2M1FN:
    return Float4E2M1FNType::get(context);
  case ElementKind::F6E2M3FN:
    return Float6E2M3FNType::get(context);
  case ElementKind::F6E3M2FN:
    return Float6E3M2FNType::get(context);
  case ElementKind::F8E4M3FN:
    return Float8E4M3FNType::get(context);
  case ElementKind::F8E5M2:
    return Float8E5M2Type::get(context);
  case ElementKind::F8E8M0FNU:
    return Float8E8M0FNUType::get(context);
  }
  llvm_unreachable("unknown element kind");
}

/// Returns the APFloat semantics of an IEEE float kind.
static const llvm::fltSemantics &getIEEESemantics(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return llvm::APFloat::IEEEhalf();
  case ElementKind::BF16:
    return llvm::APFloat::BFloat();
  case ElementKind::F32:
    return llvm::APFloat::IEEEsingle();
  default:
    return llvm::APFloat::IEEEdouble();
  }
}

double mlir::mx::decodeElement(ElementKind kind, uint64_t bits) {
  switch (kind) {
  case ElementKind::I1:
    return static_cast<double>(bits & 1);
  case ElementKind::I8:
    return static_cast<double>(static_cast<int8_t>(bits));
  case ElementKind::I16:
    return static_cast<double>(static_cast<int16_t>(bits));
  case ElementKind::I32:
    return static_cast<double>(static_cast<int32_t>(bits));
  case ElementKind::I64:
    return static_cast<double>(static_cast<int64_t>(bits));
  case ElementKind::F16:
    return ref::halfToFloat(static_cast<uint16_t>(bits));
  case ElementKind::BF16:
    return ref::bf16ToFloat(static_cast<uint16_t>(bits));
  case ElementKind::F32:
    return llvm::bit_cast<float>(static_cast<uint32_t>(bits));
  case ElementKind::F64:
    return llvm::bit_cast<double>(bits);
  case ElementKind::F8E8M0FNU:
    return ref::decodeScale(static_cast<uint8_t>(bits));
  default:
    return ref::decode(*getRefFormat(kind), static_cast<uint8_t>(bits & 0xFF));
  }
}

std::optional<uint64_t> mlir::mx::encodeElement(ElementKind kind, double value,
                                                bool exact) {
  if (isInteger(kind)) {
    if (std::isnan(value) || value != std::trunc(value))
      return std::nullopt;
    if (kind == ElementKind::I1)
      return value == 0 || value == 1 ? std::optional<uint64_t>(value != 0)
                                      : std::nullopt;
    unsigned width = getBitWidth(kind);
    double limit = std::ldexp(1.0, width - 1);
    if (value < -limit || value >= limit)
      return std::nullopt;
    uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(value));
    return width == 64 ? bits : bits & ((uint64_t(1) << width) - 1);
  }
  if (isIEEEFloat(kind)) {
    llvm::APFloat apValue(value);
    bool losesInfo = false;
    apValue.convert(getIEEESemantics(kind), llvm::APFloat::rmNearestTiesToEven,
                    &losesInfo);
    if (exact && losesInfo)
      return std::nullopt;
    return apValue.bitcastToAPInt().getZExtValue();
  }
  if (kind == ElementKind::F8E8M0FNU) {
    if (std::isnan(value))
      return 0xFF;
    int exponent = 0;
    double mantissa = std::frexp(value, &exponent);
    // value = 0.5 * 2^exponent = 2^(exponent - 1).
    if (mantissa != 0.5 || exponent - 1 < -127 || exponent - 1 > 127)
      return std::nullopt;
    return static_cast<uint64_t>(exponent - 1 + 127);
  }
  ref::ElemFormat format = *getRefFormat(kind);
  const ref::FormatInfo &info = ref::getFormatInfo(format);
  if (std::isnan(value) && !info.hasNaN)
    return std::nullopt;
  uint8_t code = ref::encode(format, value, ref::ElemRounding::NearestEven);
  if (exact) {
    double decoded = ref::decode(format, code);
    if (!(decoded == value || (std::isnan(decoded) && std::isnan(value))))
      return std::nullopt;
  }
  return code;
}

bool mlir::mx::isNaNElement(ElementKind kind, uint64_t bits) {
  return !isInteger(kind) && std::isnan(decodeElement(kind, bits));
}

//===----------------------------------------------------------------------===//
// HostTensorType
//===----------------------------------------------------------------------===//

bool HostTensorType::hasStaticShape() const {
  return llvm::all_of(shape, [](int64_t size) { return size >= 0; });
}

int64_t HostTensorType::getNumElements() const {
  assert(hasStaticShape() && "expected a static shape");
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

int64_t HostTensorType::getStorageSize() const {
  return getNumElements() * getStorageBytes(elementKind);
}

int64_t HostTensorType::getFileSize() const {
  unsigned bits = getBitWidth(elementKind);
  if (bits == 4 || bits == 6)
    return (getNumElements() * bits + 7) / 8;
  return getStorageSize();
}

std::string HostTensorType::str() const {
  std::string result = "tensor<";
  llvm::raw_string_ostream os(result);
  for (int64_t size : shape) {
    if (size < 0)
      os << "?";
    else
      os << size;
    os << "x";
  }
  os << getElementKindName(elementKind) << ">";
  return result;
}

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

HostTensor::HostTensor(HostTensorType type)
    : type(std::move(type)), data(this->type.getStorageSize(), 0) {}

uint64_t HostTensor::getBits(int64_t index) const {
  unsigned bytes = getStorageBytes(type.elementKind);
  assert(index >= 0 && (index + 1) * bytes <= data.size() && "out of range");
  uint64_t bits = 0;
  // Little-endian host: the low bytes of `bits` come first.
  std::memcpy(&bits, data.data() + index * bytes, bytes);
  return bits;
}

void HostTensor::setBits(int64_t index, uint64_t bits) {
  unsigned bytes = getStorageBytes(type.elementKind);
  assert(index >= 0 && (index + 1) * bytes <= data.size() && "out of range");
  unsigned width = getBitWidth(type.elementKind);
  if (width < 64)
    bits &= (uint64_t(1) << width) - 1;
  std::memcpy(data.data() + index * bytes, &bits, bytes);
}

SmallVector<int64_t> mlir::mx::getRowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

std::string mlir::mx::formatIndex(ArrayRef<int64_t> shape,
                                  int64_t linearIndex) {
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    if (shape[i] == 0)
      continue;
    index[i] = linearIndex % shape[i];
    linearIndex /= shape[i];
  }
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(index, os);
  os << "]";
  return result;
}
