//===- FileIO.cpp - reading files that a user names -----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Support/FileIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::mx;

namespace {
/// Formats the errors of one read: "cannot read <what> '<path>': <why>".
struct Reader {
  llvm::StringRef what;
  llvm::StringRef path;
  llvm::Error fail(const llvm::Twine &why) const {
    return llvm::createStringError("cannot read " + what + " '" + path +
                                   "': " + why);
  }
};
} // namespace

/// Reads standard input up to \p limits.maxSize bytes; more is an error.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readStdin(const Reader &reader, const UserFileLimits &limits) {
  llvm::SmallString<0> data;
  llvm::sys::fs::file_t stdinHandle = llvm::sys::fs::getStdinHandle();
  constexpr size_t kChunk = size_t(1) << 16;
  while (true) {
    size_t size = data.size();
    data.resize_for_overwrite(size + kChunk);
    llvm::Expected<size_t> read = llvm::sys::fs::readNativeFile(
        stdinHandle, llvm::MutableArrayRef<char>(data.data() + size, kChunk));
    if (!read)
      return reader.fail(llvm::toString(read.takeError()));
    data.truncate(size + *read);
    if (*read == 0)
      break;
    if (data.size() > limits.maxSize)
      return reader.fail("standard input has more than " +
                         llvm::Twine(limits.maxSize) + " bytes, the most read");
  }
  if (limits.exactSize && data.size() != *limits.exactSize)
    return reader.fail("standard input has " + llvm::Twine(data.size()) +
                       " bytes, expected " + llvm::Twine(*limits.exactSize));
  return llvm::MemoryBuffer::getMemBufferCopy(data, "<stdin>");
}

/// Checks the status \p status of the file \p reader reads against \p limits.
static llvm::Error checkStatus(const Reader &reader,
                               const llvm::sys::fs::file_status &status,
                               const UserFileLimits &limits) {
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return reader.fail("not a regular file (a device, a FIFO or a "
                       "directory has no size to check before reading)");
  uint64_t size = status.getSize();
  if (limits.exactSize && size != *limits.exactSize)
    return reader.fail("the file has " + llvm::Twine(size) +
                       " bytes, expected " + llvm::Twine(*limits.exactSize));
  if (!limits.exactSize && size > limits.maxSize)
    return reader.fail("the file has " + llvm::Twine(size) +
                       " bytes, more than the " + llvm::Twine(limits.maxSize) +
                       " read");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
mlir::mx::readUserFile(llvm::StringRef path, const UserFileLimits &limits,
                       llvm::StringRef what) {
  Reader reader{what, path};
  if (path == "-") {
    if (!limits.allowStdin)
      return reader.fail("standard input is not accepted here");
    return readStdin(reader, limits);
  }
  // Checked before opening: opening a FIFO without a writer blocks.
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return reader.fail(ec.message());
  if (llvm::Error error = checkStatus(reader, status, limits))
    return std::move(error);
  llvm::Expected<llvm::sys::fs::file_t> file =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!file)
    return reader.fail(llvm::toString(file.takeError()));
  // And again on what was opened, in case the path changed in between.
  std::error_code ec = llvm::sys::fs::status(*file, status);
  llvm::Error error =
      ec ? reader.fail(ec.message()) : checkStatus(reader, status, limits);
  if (error) {
    llvm::sys::fs::closeFile(*file);
    return std::move(error);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getOpenFile(*file, path, status.getSize(),
                                      limits.requiresNullTerminator);
  llvm::sys::fs::closeFile(*file);
  if (!buffer)
    return reader.fail(buffer.getError().message());
  return std::move(*buffer);
}
