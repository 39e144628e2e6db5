//===- TensorIO.h - tensor files for mx-run ---------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reading and writing HostTensors.
//
// The raw *file format* is the little-endian row-major element data with the
// 4- and 6-bit MX element types packed as in mx::ref::pack (f4E2M1FN: two per
// byte, element 2i in the low nibble; f6E2M3FN/f6E3M2FN: a dense 6-bit stream,
// 4 elements per 3 bytes). Every other type has its JIT layout (HostTensor.h).
//
// .npy files (format versions 1.0, 2.0 and 3.0, C order, little-endian) map
// to element kinds as follows:
//
//   element kind              accepted dtypes (written dtype first)
//   f32 / f64 / f16           <f4 / <f8 / <f2
//   bf16                      <u2, <i2 (the bf16 bit patterns)
//   i1                        |b1, |u1, |i1 (0 or 1)
//   i8 / i16 / i32 / i64      |i1 / <i2 / <i4 / <i8, and the unsigned
//                             dtypes of the same width (bit patterns)
//   MX elements, f8E8M0FNU    |u1, |i1: either one code per element with the
//                             tensor's shape, or the packed file format with
//                             the tensor's shape in bytes along the last
//                             dimension (e.g. (64, 128) for 64x256xf4E2M1FN)
//                             or flat ((8192,) there)
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_TENSORIO_H
#define MX_RUNNER_TENSORIO_H

#include "mx/Runner/HostTensor.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::mx {

/// True if elements of \p kind are packed in the file format (the 4- and
/// 6-bit MX types).
bool isPackedInFileFormat(ElementKind kind);

/// Returns the data of \p tensor in the raw file format.
std::vector<uint8_t> toFileFormat(const HostTensor &tensor);

/// Builds a tensor of the static type \p type from \p bytes in the raw file
/// format. Fails unless the size is exactly type.getFileSize().
llvm::Expected<HostTensor> fromFileFormat(const HostTensorType &type,
                                          ArrayRef<uint8_t> bytes);

/// The parsed header and data of a .npy file.
struct NpyArray {
  /// The dtype string, e.g. "<f4".
  std::string descr;
  bool fortranOrder = false;
  SmallVector<int64_t> shape;
  /// The element data (points into the parsed buffer).
  ArrayRef<uint8_t> data;
};

/// Parses a .npy file held in \p buffer. Checks the magic string, the header
/// syntax and that the data size matches shape and dtype.
llvm::Expected<NpyArray> parseNpy(ArrayRef<uint8_t> buffer);

/// Builds a tensor of the static type \p type from the .npy file in
/// \p buffer (see the table above). The shape must match.
llvm::Expected<HostTensor> readNpy(const HostTensorType &type,
                                   ArrayRef<uint8_t> buffer);

/// Serializes \p tensor as a version 1.0 .npy file with the first dtype of
/// the table above (MX elements and f8E8M0FNU: one |u1 code per element).
std::vector<uint8_t> writeNpy(const HostTensor &tensor);

/// The most bytes a .npy file of \p type may have, the bound mx-run reads a
/// .npy file within: 8 bytes per element (the widest dtype accepted) and a
/// header of at most kMaxNpyHeaderBytes.
uint64_t getMaxNpyFileSize(const HostTensorType &type);

/// The most bytes of a .npy header (magic string, version, length and the
/// dictionary) that mx-run reads.
inline constexpr uint64_t kMaxNpyHeaderBytes = uint64_t(1) << 20;

/// Writes \p bytes to \p path, replacing it.
llvm::Error writeFileBytes(StringRef path, ArrayRef<uint8_t> bytes);

} // namespace mlir::mx

#endif // MX_RUNNER_TENSORIO_H
