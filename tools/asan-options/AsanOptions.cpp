//===- AsanOptions.cpp - ASan defaults of the mx executables --------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Linked into every mx executable of an AddressSanitizer build
// (LLVM_USE_SANITIZER=Address...). ASAN_OPTIONS given at run time still
// override these defaults.
//
// allow_user_poisoning=0: mx links Debian's libMLIR.so/libLLVM.so, which are
// not instrumented. LLVM's allocators (BumpPtrAllocator, the MLIR storage
// uniquer's) poison the unused part of their slabs from inline header code;
// in mx's translation units that code is compiled with ASan and really
// poisons, while the same allocator's out-of-line code inside the library
// hands that memory out and writes it without unpoisoning it first. ASan
// then reports use-after-poison on ordinary allocations (about 20 reports
// over the test suite, all of them false positives). Ignoring manual
// poisoning keeps every other ASan check (heap/stack/global overflows,
// use-after-free, leaks) and all UBSan checks.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
