#!/usr/bin/env bash
# Configures (once) and builds mx in ${MX_BUILD_DIR:-build} with clang-22 + lld,
# linking against libMLIR.so. Extra arguments are passed to ninja;
# MX_BUILD_TYPE (default Release) and MX_CMAKE_ARGS (extra cmake arguments,
# e.g. the sanitizer build's, scripts/sanitize.sh) apply when it configures.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
LLVM=/usr/lib/llvm-22

if [ ! -f "$BUILD/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE="${MX_BUILD_TYPE:-Release}" \
    -DCMAKE_C_COMPILER="$LLVM/bin/clang" \
    -DCMAKE_CXX_COMPILER="$LLVM/bin/clang++" \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR="$LLVM/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM/bin/lit" \
    -DMLIR_LINK_MLIR_DYLIB=ON \
    "${launcher[@]}" ${MX_CMAKE_ARGS:-} >/dev/null
fi
ninja -C "$BUILD" -j"${MX_JOBS:-$(nproc)}" "$@"
