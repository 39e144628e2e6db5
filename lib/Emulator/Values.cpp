//===- Values.cpp - run-time values of the wave emulator ------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The type and bit helpers of Values.h.
//
//===----------------------------------------------------------------------===//

#include "Values.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

/// Bit width of a scalar integer, index (64) or float type; 0 otherwise.
unsigned mlir::mx::emu::detail::getScalarBits(Type type) {
  if (type.isIndex())
    return 64;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth();
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatType.getWidth();
  return 0;
}

/// The register layout of `type`, or nullopt if the emulator cannot hold it.
std::optional<TypeInfo> mlir::mx::emu::detail::getTypeInfo(Type type) {
  TypeInfo info;
  info.elemType = type;
  if (auto vectorType = dyn_cast<VectorType>(type)) {
    if (vectorType.isScalable())
      return std::nullopt;
    info.elemType = vectorType.getElementType();
    info.numElements = vectorType.getNumElements();
    info.isVector = true;
    info.shape.assign(vectorType.getShape().begin(),
                      vectorType.getShape().end());
  }
  info.elemBits = getScalarBits(info.elemType);
  if (info.elemBits == 0 || info.elemBits > 64)
    return std::nullopt;
  uint64_t bits = uint64_t(info.elemBits) * info.numElements;
  if (bits > (uint64_t(1) << 20))
    return std::nullopt;
  info.bytes = info.isVector ? uint32_t((bits + 7) / 8)
                             : std::max(1u, (info.elemBits + 7) / 8);
  return info;
}

/// Bytes of one memref element of type `type`; 0 when it cannot be stored
/// (sub-byte and odd-width scalars).
int64_t mlir::mx::emu::detail::getMemElemBytes(Type type) {
  if (auto vectorType = dyn_cast<VectorType>(type)) {
    std::optional<TypeInfo> info = getTypeInfo(vectorType);
    if (!info || (uint64_t(info->elemBits) * info->numElements) % 8 != 0)
      return 0;
    return info->bytes;
  }
  unsigned bits = getScalarBits(type);
  if (bits == 0 || bits > 64 || bits % 8 != 0)
    return 0;
  return bits / 8;
}

/// readBits of a field that is not whole aligned bytes, bit by bit.
uint64_t mlir::mx::emu::detail::readUnalignedBits(const uint8_t *data,
                                                  uint64_t bit,
                                                  unsigned width) {
  uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i) {
    uint64_t b = bit + i;
    value |= uint64_t((data[b / 8] >> (b % 8)) & 1) << i;
  }
  return value;
}

/// writeBits of a field that is not whole aligned bytes, bit by bit.
void mlir::mx::emu::detail::writeUnalignedBits(uint8_t *data, uint64_t bit,
                                               unsigned width, uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    uint64_t b = bit + i;
    uint8_t m = uint8_t(1u << (b % 8));
    if ((value >> i) & 1)
      data[b / 8] |= m;
    else
      data[b / 8] &= uint8_t(~m);
  }
}

/// Copies `numBits` bits from `src` at `srcBit` to `dst` at `dstBit`.
void mlir::mx::emu::detail::copyBits(uint8_t *dst, uint64_t dstBit,
                                     const uint8_t *src, uint64_t srcBit,
                                     uint64_t numBits) {
  if (dstBit % 8 == 0 && srcBit % 8 == 0 && numBits % 8 == 0) {
    std::memcpy(dst + dstBit / 8, src + srcBit / 8, numBits / 8);
    return;
  }
  for (uint64_t done = 0; done < numBits;) {
    unsigned chunk = unsigned(std::min<uint64_t>(64, numBits - done));
    writeBits(dst, dstBit + done, chunk, readBits(src, srcBit + done, chunk));
    done += chunk;
  }
}

std::string mlir::mx::emu::detail::formatList(ArrayRef<int64_t> values) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(values, os);
  os << "]";
  return text;
}

/// The gfx950 source format of a scaled MFMA operand element type.
std::optional<SourceFormat> mlir::mx::emu::detail::getSourceFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return SourceFormat::E4M3;
  if (isa<Float8E5M2Type>(type))
    return SourceFormat::E5M2;
  if (isa<Float6E2M3FNType>(type))
    return SourceFormat::E2M3;
  if (isa<Float6E3M2FNType>(type))
    return SourceFormat::E3M2;
  if (isa<Float4E2M1FNType>(type))
    return SourceFormat::E2M1;
  return std::nullopt;
}

/// Checks a run-time view against the static parts of `type`: rank, sizes,
/// strides (of dimensions of size > 1) and offset; an identity layout also
/// needs the row-major strides of the run-time sizes and offset 0. A per-thread
/// offset (nullopt) is not checked. Returns a description of the first
/// mismatch, or "" if the view fits.
std::string mlir::mx::emu::detail::checkViewAgainstType(
    MemRefType type, std::optional<int64_t> offset, ArrayRef<int64_t> sizes,
    ArrayRef<int64_t> strides) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto describe = [&]() {
    os << "the view (offset ";
    if (offset)
      os << *offset;
    else
      os << "per thread";
    os << ", sizes " << formatList(sizes) << ", strides " << formatList(strides)
       << ") does not match " << type;
  };
  if (int64_t(sizes.size()) != type.getRank()) {
    describe();
    os << " (rank)";
    return text;
  }
  SmallVector<int64_t> typeStrides;
  int64_t typeOffset;
  if (failed(type.getStridesAndOffset(typeStrides, typeOffset))) {
    os << "unsupported layout (not strided): " << type;
    return text;
  }
  StridedLayout rowMajor = StridedLayout::rowMajor(sizes);
  bool identity = type.getLayout().isIdentity();
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d) && type.getDimSize(d) != sizes[d]) {
      describe();
      os << " (size of dimension " << d << ")";
      return text;
    }
    if (sizes[d] <= 1)
      continue;
    if ((!ShapedType::isDynamic(typeStrides[d]) &&
         typeStrides[d] != strides[d]) ||
        (identity && strides[d] != rowMajor.strides[d])) {
      describe();
      os << " (stride of dimension " << d << ")";
      return text;
    }
  }
  if (offset && !ShapedType::isDynamic(typeOffset) && typeOffset != *offset) {
    describe();
    os << " (offset)";
    return text;
  }
  return "";
}
