//===- mx-parse-fuzzer.cpp - parse, verify and print mx programs ----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libFuzzer target: parses the input as an MLIR module with the mx dialects
// and the arith, func and tensor dialects of their programs (the verifiers of
// ops, types and attributes run), prints what parsed and parses the printed
// text again. A crash, or printed IR that does not parse, is a bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

using namespace mlir;
using namespace mlir::mx::fuzz;

llvm::ArrayRef<llvm::StringRef> mlir::mx::fuzz::getHeaderActions() {
  return {};
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  useMXDialectsOnly();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return -1;
  // A null-terminated copy, as the parser's buffers are.
  std::string text(reinterpret_cast<const char *>(data), size);
  getContext();
  OwningOpRef<ModuleOp> module = parseModule(splitInput(text).text);
  if (module)
    checkRoundTrip(*module, "parsing");
  return 0;
}
