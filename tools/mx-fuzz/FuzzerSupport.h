//===- FuzzerSupport.h - shared parts of the mx fuzz targets ----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The mx libFuzzer targets (docs/guides/fuzzing.md) share:
//  * the input format: MLIR text, optionally preceded by one header line
//    `//! ACTION [OPTIONS]` that picks what a target does with the program
//    (a pass, a pipeline and its options, a backend);
//  * one MLIRContext per process with every dialect and pass mx-opt has,
//    renewed every few thousand inputs so that uniqued types and attributes
//    do not pile up, diagnostics swallowed;
//  * the structure-aware mutator (LLVMFuzzerCustomMutator,
//    LLVMFuzzerCustomCrossOver in FuzzerSupport.cpp), which edits the text
//    as MLIR: element types, shapes, integer attribute values, enum
//    keywords, layout parameters, operand lists, the header line.
//
// A target reports a bug by aborting (fuzzerBug): libFuzzer then saves the
// input as a crash. Everything else (parse errors, verifier errors, pass
// failures with a diagnostic) is a normal, uninteresting outcome.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TOOLS_MX_FUZZ_FUZZERSUPPORT_H
#define MX_TOOLS_MX_FUZZ_FUZZERSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir::mx::fuzz {

/// The largest input the targets look at (bytes); longer ones are skipped.
constexpr size_t kMaxInputBytes = 1 << 16;

/// An input split into its header and its MLIR text.
struct FuzzInput {
  /// The header's first word ("" without a header).
  std::string action;
  /// The rest of the header line.
  std::string options;
  /// The MLIR text (after the header line).
  llvm::StringRef text;
};

/// Splits \p data; the header is optional.
FuzzInput splitInput(llvm::StringRef data);

/// Restricts the shared context to the mx dialects (mx, mx_gfx950, the test
/// target's) and the arith, func and tensor dialects their programs are
/// written with; call before the first getContext(). The parse target uses
/// it: its byte-level mutations otherwise mostly find crashes in upstream
/// dialects' parsers (e.g. linalg.transpose), which upstream's own
/// mlir-parser-fuzzer covers and which are not mx's to fix.
void useMXDialectsOnly();

/// Gives an input without a header one of getHeaderActions(), chosen from a
/// hash of its text (so the same input always does the same).
void chooseDefaultAction(FuzzInput &input);

/// The shared context (see the file comment). Call once per input, first:
/// every few thousand calls it is replaced by a fresh one (what earlier
/// calls returned then dangles).
MLIRContext &getContext();

/// Parses \p text as a module in the shared context of this input (verified;
/// it does not renew the context); null on error (the diagnostics are
/// dropped).
OwningOpRef<ModuleOp> parseModule(llvm::StringRef text);

/// Prints \p module, parses the text again and aborts (a bug: mx-opt would
/// print output it cannot read back) when that fails; \p what names the
/// stage for the report.
void checkRoundTrip(ModuleOp module, llvm::StringRef what);

/// Reports a bug found by a target (the input is saved by libFuzzer).
[[noreturn]] void fuzzerBug(const llvm::Twine &message);

/// Defined by each target: the header lines the mutator may put on an input
/// (whole lines without the `//! ` prefix, e.g. "gfx950 output=gpu"); empty
/// when the target reads no header.
llvm::ArrayRef<llvm::StringRef> getHeaderActions();

} // namespace mlir::mx::fuzz

#endif // MX_TOOLS_MX_FUZZ_FUZZERSUPPORT_H
