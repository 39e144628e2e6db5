//===- HostTensor.h - host-side tensor values for mx-run --------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A HostTensor is a dense, row-major tensor value held on the host in the
// element layout that MLIR's LLVM lowering uses in memory ("JIT layout"):
//
//   element type                         bytes per element
//   i1, i8, f8E4M3FN, f8E5M2, f8E8M0FNU  1
//   f4E2M1FN, f6E2M3FN, f6E3M2FN         1 (the code in the low bits)
//   i16, f16, bf16                       2
//   i32, f32                             4
//   i64, f64                             8
//
// all little-endian. The file format used by `mx-run --arg=file:` and
// `--out=` differs only for the 4- and 6-bit MX element types, which are
// packed there (see TensorIO.h).
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_HOSTTENSOR_H
#define MX_RUNNER_HOSTTENSOR_H

#include "mx/Reference/Reference.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class Type;

namespace mx {

/// The element types a HostTensor can hold.
enum class ElementKind : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F4E2M1FN,
  F6E2M3FN,
  F6E3M2FN,
  F8E4M3FN,
  F8E5M2,
  F8E8M0FNU,
};

/// Returns the MLIR spelling of \p kind, e.g. "f4E2M1FN".
StringRef getElementKindName(ElementKind kind);

/// Parses the MLIR spelling of an element type.
std::optional<ElementKind> parseElementKind(StringRef name);

/// Returns every element kind, for diagnostics and tests.
ArrayRef<ElementKind> getAllElementKinds();

/// Bytes per element in JIT layout.
unsigned getStorageBytes(ElementKind kind);

/// Significant bits of one element: 1 for i1, 4/6 for the packed MX types,
/// 8 * getStorageBytes() otherwise.
unsigned getBitWidth(ElementKind kind);

/// True for f16, bf16, f32, f64.
bool isIEEEFloat(ElementKind kind);

/// True for i1, i8, i16, i32, i64 (signless; read as signed, i1 as 0/1).
bool isInteger(ElementKind kind);

/// True for the MX element types f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN,
/// f8E5M2 (not for the f8E8M0FNU scale type).
bool isMXElement(ElementKind kind);

/// True for the types compared code by code (MX elements and f8E8M0FNU).
bool isCodeType(ElementKind kind);

/// Returns the reference-library format of an MX element kind.
std::optional<::mx::ref::ElemFormat> getRefFormat(ElementKind kind);

/// Returns the element kind of an MLIR element type, if supported.
std::optional<ElementKind> getElementKind(Type type);

/// Returns the MLIR type of \p kind.
Type getMLIRType(ElementKind kind, MLIRContext *context);

/// Returns the exact value of the element bit pattern \p bits (only the low
/// getBitWidth() bits are used): IEEE and MX floats are decoded, integers
/// sign-extended (i1 gives 0 or 1), f8E8M0FNU gives 2^(bits - 127) or NaN.
double decodeElement(ElementKind kind, uint64_t bits);

/// Returns the bit pattern of \p value in \p kind, rounding to nearest-even
/// (MX element types saturate to their largest finite value, see
/// ref::encode). With \p exact, or for integers and f8E8M0FNU, fails unless
/// the value is representable exactly (NaN is exact where the type has NaN).
std::optional<uint64_t> encodeElement(ElementKind kind, double value,
                                      bool exact = false);

/// True if \p bits is a NaN of \p kind.
bool isNaNElement(ElementKind kind, uint64_t bits);

/// The type of a HostTensor: element kind and shape (ShapedType::kDynamic
/// marks an unknown size; a HostTensor holding data always has a static
/// shape).
struct HostTensorType {
  ElementKind elementKind = ElementKind::F32;
  SmallVector<int64_t> shape;

  HostTensorType() = default;
  HostTensorType(ElementKind elementKind, ArrayRef<int64_t> shape)
      : elementKind(elementKind), shape(shape) {}

  /// True if no size is dynamic.
  bool hasStaticShape() const;
  /// The number of elements (the shape must be static).
  int64_t getNumElements() const;
  /// Bytes of the data in JIT layout.
  int64_t getStorageSize() const;
  /// Bytes of the data in the file format (packed 4/6-bit MX elements).
  int64_t getFileSize() const;
  /// Prints as an MLIR tensor type, e.g. "tensor<64x?xf32>".
  std::string str() const;

  bool operator==(const HostTensorType &other) const {
    return elementKind == other.elementKind && shape == other.shape;
  }
  bool operator!=(const HostTensorType &other) const {
    return !(*this == other);
  }
};

/// A dense row-major tensor value in JIT layout.
struct HostTensor {
  HostTensorType type;
  std::vector<uint8_t> data;

  HostTensor() = default;
  /// Creates a zero-filled tensor of the static type \p type.
  explicit HostTensor(HostTensorType type);

  int64_t getNumElements() const { return type.getNumElements(); }
  ElementKind getElementKind() const { return type.elementKind; }

  /// Returns the raw bits of element \p index (row-major linear index).
  uint64_t getBits(int64_t index) const;
  /// Stores the low bits of \p bits as element \p index.
  void setBits(int64_t index, uint64_t bits);
  /// Returns the decoded value of element \p index (see decodeElement).
  double getValue(int64_t index) const {
    return decodeElement(type.elementKind, getBits(index));
  }
};

/// Returns the row-major strides of \p shape.
SmallVector<int64_t> getRowMajorStrides(ArrayRef<int64_t> shape);

/// Formats a row-major linear index as a multi-index, e.g. "[3, 5]".
std::string formatIndex(ArrayRef<int64_t> shape, int64_t linearIndex);

} // namespace mx
} // namespace mlir

#endif // MX_RUNNER_HOSTTENSOR_H
