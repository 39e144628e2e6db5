//===- TensorIO.cpp - tensor files for mx-run -----------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/TensorIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::mx;
namespace ref = ::mx::ref;

/// Returns an error with the message \p message.
static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Formats a shape as a Python tuple, e.g. "(3, 4)" or "(5,)".
static std::string formatTuple(ArrayRef<int64_t> shape) {
  std::string result = "(";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(shape, os);
  if (shape.size() == 1)
    os << ",";
  os << ")";
  return result;
}

//===----------------------------------------------------------------------===//
// Raw file format
//===----------------------------------------------------------------------===//

bool mlir::mx::isPackedInFileFormat(ElementKind kind) {
  unsigned bits = getBitWidth(kind);
  return bits == 4 || bits == 6;
}

std::vector<uint8_t> mlir::mx::toFileFormat(const HostTensor &tensor) {
  ElementKind kind = tensor.getElementKind();
  if (!isPackedInFileFormat(kind))
    return tensor.data;
  return ref::pack(*getRefFormat(kind), tensor.data.data(),
                   tensor.getNumElements());
}

llvm::Expected<HostTensor> mlir::mx::fromFileFormat(const HostTensorType &type,
                                                    ArrayRef<uint8_t> bytes) {
  int64_t expected = type.getFileSize();
  if (static_cast<int64_t>(bytes.size()) != expected)
    return makeError("has " + Twine(bytes.size()) + " bytes, expected " +
                     Twine(expected) + " for " + type.str() +
                     " in the file format");
  HostTensor tensor(type);
  if (isPackedInFileFormat(type.elementKind)) {
    tensor.data = ref::unpack(*getRefFormat(type.elementKind), bytes.data(),
                              type.getNumElements());
  } else {
    llvm::copy(bytes, tensor.data.begin());
  }
  return tensor;
}

//===----------------------------------------------------------------------===//
// .npy parsing
//===----------------------------------------------------------------------===//

namespace {
/// A parser for the Python dict literal of a .npy header.
class NpyHeaderParser {
public:
  explicit NpyHeaderParser(StringRef text) : text(text) {}

  llvm::Error parse(NpyArray &array) {
    bool sawDescr = false, sawOrder = false, sawShape = false;
    if (!consume('{'))
      return fail("expected '{'");
    while (!consume('}')) {
      std::string key;
      if (llvm::Error err = parseString(key))
        return err;
      if (!consume(':'))
        return fail("expected ':' after '" + key + "'");
      if (key == "descr") {
        skipSpace();
        if (!text.empty() && text.front() == '[')
          return makeError("structured dtypes are not supported");
        if (llvm::Error err = parseString(array.descr))
          return err;
        sawDescr = true;
      } else if (key == "fortran_order") {
        if (consumeWord("True"))
          array.fortranOrder = true;
        else if (consumeWord("False"))
          array.fortranOrder = false;
        else
          return fail("expected True or False for 'fortran_order'");
        sawOrder = true;
      } else if (key == "shape") {
        if (llvm::Error err = parseShape(array.shape))
          return err;
        sawShape = true;
      } else {
        return fail("unexpected key '" + key + "'");
      }
      if (!consume(',')) {
        if (!consume('}'))
          return fail("expected ',' or '}'");
        break;
      }
    }
    if (!sawDescr || !sawOrder || !sawShape)
      return makeError("header lacks one of 'descr', 'fortran_order', 'shape'");
    return llvm::Error::success();
  }

private:
  void skipSpace() { text = text.ltrim(" \t\r\n"); }

  bool consume(char c) {
    skipSpace();
    if (text.empty() || text.front() != c)
      return false;
    text = text.drop_front();
    return true;
  }

  bool consumeWord(StringRef word) {
    skipSpace();
    return text.consume_front(word);
  }

  llvm::Error fail(const Twine &message) {
    return makeError("malformed header: " + message);
  }

  llvm::Error parseString(std::string &result) {
    skipSpace();
    if (text.empty() || (text.front() != '\'' && text.front() != '"'))
      return fail("expected a string");
    char quote = text.front();
    size_t end = text.find(quote, 1);
    if (end == StringRef::npos)
      return fail("unterminated string");
    result = text.slice(1, end).str();
    text = text.drop_front(end + 1);
    return llvm::Error::success();
  }

  llvm::Error parseShape(SmallVectorImpl<int64_t> &shape) {
    if (!consume('('))
      return fail("expected '(' for 'shape'");
    while (!consume(')')) {
      skipSpace();
      size_t digits = text.find_first_not_of("0123456789");
      if (digits == 0 || digits == StringRef::npos)
        return fail("expected a size in 'shape'");
      int64_t size = 0;
      if (text.take_front(digits).getAsInteger(10, size))
        return fail("size out of range in 'shape'");
      shape.push_back(size);
      text = text.drop_front(digits);
      text.consume_front("L");
      if (!consume(',')) {
        if (!consume(')'))
          return fail("expected ',' or ')' in 'shape'");
        break;
      }
    }
    return llvm::Error::success();
  }

  StringRef text;
};
} // namespace

/// Splits a dtype string such as "<f4" into byte order, kind and item size.
static llvm::Error parseDescr(StringRef descr, char &byteOrder, char &kind,
                              unsigned &itemSize) {
  if (descr.size() < 3 || !StringRef("<>|=").contains(descr[0]) ||
      descr.drop_front(2).getAsInteger(10, itemSize))
    return makeError("unsupported dtype '" + descr + "'");
  byteOrder = descr[0];
  kind = descr[1];
  if (byteOrder == '>' && itemSize > 1)
    return makeError("big-endian dtype '" + descr + "' is not supported");
  return llvm::Error::success();
}

llvm::Expected<NpyArray> mlir::mx::parseNpy(ArrayRef<uint8_t> buffer) {
  static constexpr char kMagic[] = "\x93NUMPY";
  if (buffer.size() < 10 || std::memcmp(buffer.data(), kMagic, 6) != 0)
    return makeError("not a .npy file (bad magic string)");
  unsigned major = buffer[6];
  size_t headerStart, headerLength;
  if (major == 1) {
    headerStart = 10;
    headerLength = buffer[8] | (buffer[9] << 8);
  } else if (major == 2 || major == 3) {
    if (buffer.size() < 12)
      return makeError("truncated .npy header");
    headerStart = 12;
    headerLength = buffer[8] | (buffer[9] << 8) | (buffer[10] << 16) |
                   (static_cast<size_t>(buffer[11]) << 24);
  } else {
    return makeError("unsupported .npy format version " + Twine(major));
  }
  if (headerStart + headerLength > kMaxNpyHeaderBytes)
    return makeError(
        "the .npy header has " + Twine(headerStart + headerLength) +
        " bytes, more than the " + Twine(kMaxNpyHeaderBytes) + " read");
  if (headerStart + headerLength > buffer.size())
    return makeError("truncated .npy header");

  NpyArray array;
  StringRef header(reinterpret_cast<const char *>(buffer.data()) + headerStart,
                   headerLength);
  if (llvm::Error err = NpyHeaderParser(header).parse(array))
    return std::move(err);

  char byteOrder, kind;
  unsigned itemSize;
  if (llvm::Error err = parseDescr(array.descr, byteOrder, kind, itemSize))
    return std::move(err);
  int64_t numElements = 1;
  for (int64_t size : array.shape) {
    if (size != 0 && numElements > (int64_t(1) << 48) / size)
      return makeError("shape " + formatTuple(array.shape) + " is too large");
    numElements *= size;
  }
  uint64_t dataSize = static_cast<uint64_t>(numElements) * itemSize;
  uint64_t available = buffer.size() - headerStart - headerLength;
  if (available != dataSize)
    return makeError("data has " + Twine(available) + " bytes, expected " +
                     Twine(dataSize) + " for shape " +
                     formatTuple(array.shape) + " and dtype '" + array.descr +
                     "'");
  array.data = buffer.drop_front(headerStart + headerLength);
  return array;
}

/// Returns the dtypes accepted for \p kind as (kind char, item size) pairs,
/// the written one first.
static SmallVector<std::pair<char, unsigned>> getAcceptedDtypes(ElementKind k) {
  switch (k) {
  case ElementKind::F16:
    return {{'f', 2}};
  case ElementKind::F32:
    return {{'f', 4}};
  case ElementKind::F64:
    return {{'f', 8}};
  case ElementKind::BF16:
    return {{'u', 2}, {'i', 2}};
  case ElementKind::I1:
    return {{'b', 1}, {'u', 1}, {'i', 1}};
  case ElementKind::I8:
  case ElementKind::I16:
  case ElementKind::I32:
  case ElementKind::I64:
    return {{'i', getStorageBytes(k)}, {'u', getStorageBytes(k)}};
  default:
    return {{'u', 1}, {'i', 1}};
  }
}

/// Formats a dtype for messages and headers: '|' for one byte, '<' otherwise.
static std::string formatDtype(char kind, unsigned itemSize) {
  return (Twine(itemSize == 1 ? '|' : '<') + Twine(kind) + Twine(itemSize))
      .str();
}

llvm::Expected<HostTensor> mlir::mx::readNpy(const HostTensorType &type,
                                             ArrayRef<uint8_t> buffer) {
  llvm::Expected<NpyArray> array = parseNpy(buffer);
  if (!array)
    return array.takeError();
  char byteOrder, kind;
  unsigned itemSize;
  if (llvm::Error err = parseDescr(array->descr, byteOrder, kind, itemSize))
    return std::move(err);

  SmallVector<std::pair<char, unsigned>> accepted =
      getAcceptedDtypes(type.elementKind);
  if (!llvm::is_contained(accepted, std::make_pair(kind, itemSize))) {
    std::string list;
    llvm::raw_string_ostream os(list);
    llvm::interleave(
        accepted, os,
        [&](auto dtype) {
          os << "'" << formatDtype(dtype.first, dtype.second) << "'";
        },
        " or ");
    return makeError("dtype '" + array->descr + "' does not match " +
                     type.str() + " (expected " + list + ")");
  }
  if (array->fortranOrder && array->shape.size() > 1)
    return makeError("Fortran-order arrays are not supported");

  bool shapeMatches = array->shape == type.shape;
  if (isCodeType(type.elementKind)) {
    if (shapeMatches) {
      // One code per element: they must fit the element width.
      unsigned bits = getBitWidth(type.elementKind);
      HostTensor tensor(type);
      for (auto [index, code] : llvm::enumerate(array->data)) {
        if (bits < 8 && (code >> bits) != 0)
          return makeError("code 0x" + llvm::utohexstr(code) + " at index " +
                           formatIndex(type.shape, index) +
                           " does not fit in " + Twine(bits) + " bits");
        tensor.data[index] = code;
      }
      return tensor;
    }
    // Packed codes: the shape with the last dimension in bytes, or flat.
    SmallVector<SmallVector<int64_t>> packedShapes = {{type.getFileSize()}};
    unsigned bits = getBitWidth(type.elementKind);
    if (!type.shape.empty() && (type.shape.back() * bits) % 8 == 0) {
      SmallVector<int64_t> rows(type.shape);
      rows.back() = type.shape.back() * bits / 8;
      packedShapes.insert(packedShapes.begin(), rows);
    }
    if (llvm::is_contained(packedShapes, array->shape))
      return fromFileFormat(type, array->data);
    std::string packed;
    llvm::raw_string_ostream os(packed);
    llvm::interleave(
        packedShapes, os,
        [&](const SmallVector<int64_t> &shape) { os << formatTuple(shape); },
        " or ");
    return makeError("shape " + formatTuple(array->shape) + " does not match " +
                     type.str() + " (expected " + formatTuple(type.shape) +
                     " with one code per element, or packed codes of shape " +
                     packed + ")");
  }

  if (!shapeMatches)
    return makeError("shape " + formatTuple(array->shape) + " does not match " +
                     type.str() + " (expected " + formatTuple(type.shape) +
                     ")");
  HostTensor tensor(type);
  llvm::copy(array->data, tensor.data.begin());
  if (type.elementKind == ElementKind::I1) {
    for (auto [index, byte] : llvm::enumerate(tensor.data))
      if (byte > 1)
        return makeError("value " + Twine(byte) + " at index " +
                         formatIndex(type.shape, index) +
                         " is not a valid i1 (0 or 1)");
  }
  return tensor;
}

std::vector<uint8_t> mlir::mx::writeNpy(const HostTensor &tensor) {
  auto [kind, itemSize] = getAcceptedDtypes(tensor.getElementKind()).front();
  std::string header =
      "{'descr': '" + formatDtype(kind, itemSize) +
      "', 'fortran_order': False, 'shape': " + formatTuple(tensor.type.shape) +
      ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::vector<uint8_t> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  bytes.push_back(header.size() & 0xFF);
  bytes.push_back((header.size() >> 8) & 0xFF);
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), tensor.data.begin(), tensor.data.end());
  return bytes;
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

uint64_t mlir::mx::getMaxNpyFileSize(const HostTensorType &type) {
  std::optional<uint64_t> dataBytes = llvm::checkedMulUnsigned(
      static_cast<uint64_t>(type.getNumElements()), uint64_t(8));
  std::optional<uint64_t> fileBytes =
      dataBytes ? llvm::checkedAddUnsigned(*dataBytes, kMaxNpyHeaderBytes)
                : std::nullopt;
  return fileBytes.value_or(std::numeric_limits<uint64_t>::max());
}

llvm::Error mlir::mx::writeFileBytes(StringRef path, ArrayRef<uint8_t> bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    return makeError("cannot write '" + path + "': " + message);
  }
  return llvm::Error::success();
}
