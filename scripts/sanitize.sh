#!/usr/bin/env bash
# The sanitizer build: installs the dependencies (clang's sanitizer and
# libFuzzer runtimes among them), builds everything with AddressSanitizer and
# UndefinedBehaviorSanitizer (RelWithDebInfo, LLVM_USE_SANITIZER) plus the
# libFuzzer targets (MX_BUILD_FUZZERS) in ${MX_ASAN_BUILD_DIR:-build-asan},
# and runs the whole ctest suite there. Any ASan or UBSan report fails the
# test that triggers it.
#
# The executables carry their ASan defaults (tools/asan-options/AsanOptions.cpp
# says why allow_user_poisoning=0 is needed against Debian's uninstrumented
# libMLIR.so); ASAN_OPTIONS/UBSAN_OPTIONS set here add to them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_ASAN_BUILD_DIR:-$ROOT/build-asan}"

"$ROOT/scripts/deps.sh" chromium libclang-rt-22-dev libfuzzer-22-dev
MX_BUILD_DIR="$BUILD" MX_BUILD_TYPE=RelWithDebInfo \
  MX_CMAKE_ARGS="-DLLVM_USE_SANITIZER=Address;Undefined -DMX_BUILD_FUZZERS=ON" \
  "$ROOT/scripts/build.sh" all mx-test-depends
cd "$BUILD"
# Reports name the source line; a UBSan finding stops the program
# (-fno-sanitize-recover) with its stack.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
ctest --output-on-failure -j"${MX_JOBS:-$(nproc)}"
