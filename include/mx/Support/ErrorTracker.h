//===- ErrorTracker.h - whether a tool has emitted an error -----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A tool exits non-zero when it has emitted an error, whatever the function
// that emitted it returned (a pass may emit an error and still succeed; a
// nested pass manager's failure may be dropped). Every mx tool watches its
// contexts with one ErrorTracker and checks it before exiting 0.
//
//===----------------------------------------------------------------------===//

#ifndef MX_SUPPORT_ERRORTRACKER_H
#define MX_SUPPORT_ERRORTRACKER_H

#include <atomic>

namespace mlir {
class MLIRContext;

namespace mx {

/// Records whether an error diagnostic was emitted in the contexts it
/// watches. It must outlive them.
class ErrorTracker {
public:
  /// Watches \p context from now on. Call it after installing the handler
  /// that prints diagnostics: handlers run newest first, the tracker's passes
  /// each diagnostic on unchanged, and a handler installed later (e.g. one
  /// that captures a sub-parse's diagnostics into a message) may consume
  /// what it handles before the tracker sees it.
  void watch(MLIRContext *context);

  /// Whether an error was emitted in a watched context.
  bool hadError() const { return sawError.load(); }

private:
  std::atomic<bool> sawError{false};
};

} // namespace mx
} // namespace mlir

#endif // MX_SUPPORT_ERRORTRACKER_H
