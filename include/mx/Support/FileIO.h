//===- FileIO.h - reading files that a user names ---------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one way mx reads a file whose path comes from a user (a tool's
// argument, a pass option, an attribute): bounded, and never blocking.
//
// Only regular files are read: a device (/dev/zero), a FIFO or a directory
// has no size to check before reading, and opening a FIFO without a writer
// blocks, so each is an error before anything is opened. A regular file's
// size is checked before it is read: against the size the caller expects
// when it knows it, else against a cap (kDefaultMaxUserFileBytes unless the
// caller states another). "-" (standard input, where the caller allows it)
// is read up to the same cap and is an error beyond it.
//
//===----------------------------------------------------------------------===//

#ifndef MX_SUPPORT_FILEIO_H
#define MX_SUPPORT_FILEIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace mlir::mx {

/// The most bytes read from a user-named file whose size the reader does not
/// know in advance (1 GiB).
inline constexpr uint64_t kDefaultMaxUserFileBytes = uint64_t(1) << 30;

/// What a reader of a user-named file expects of it.
struct UserFileLimits {
  /// The exact size in bytes, when the reader knows it; any other size is an
  /// error before reading.
  std::optional<uint64_t> exactSize;
  /// The most bytes the file may have (checked when exactSize is not set).
  uint64_t maxSize = kDefaultMaxUserFileBytes;
  /// Whether "-" means standard input (read up to maxSize).
  bool allowStdin = false;
  /// Whether the buffer must end with a null byte (text for a parser).
  bool requiresNullTerminator = false;
};

/// Reads the whole of the user-named file \p path within \p limits. Errors
/// say "cannot read <what> '<path>': <why>".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readUserFile(llvm::StringRef path, const UserFileLimits &limits = {},
             llvm::StringRef what = "the file");

} // namespace mlir::mx

#endif // MX_SUPPORT_FILEIO_H
