#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Usage: test-install.sh BUILD_DIR WORK_DIR C_COMPILER CXX_COMPILER LIT
#
# Installs the mx build in BUILD_DIR into WORK_DIR/prefix, moves the prefix to
# WORK_DIR/moved (the install must not depend on where it was put), builds
# examples/embedding against the moved package with find_package(MX), runs
# the C and C++ clients on a GEMM, runs the installed mx-opt, and runs the
# mlir-opt plugin lit tests with the installed MXPlugin.so. MX_CLIENT_FLAGS
# (set by a sanitizer build) are the compile and link flags of the clients.
set -euo pipefail
BUILD="$1" WORK="$2" CC="$3" CXX="$4" LIT="$5"
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GEMM="$SRC/test/Plugin/mlir-opt-plugin.mlir"

rm -rf "$WORK"
mkdir -p "$WORK"
echo "== install into $WORK/prefix, then move it to $WORK/moved"
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log"
mv "$WORK/prefix" "$WORK/moved"
PREFIX="$WORK/moved"
for f in lib/cmake/mx/MXConfig.cmake lib/cmake/mx/MXTargets.cmake \
  include/mx/InitMX.h include/mx-c/Pipelines.h \
  include/mx/Dialect/MX/IR/MXOps.td include/mx/Dialect/MX/IR/MXOps.h.inc \
  lib/libMXReference.a lib/libMXEmulator.a lib/MXPlugin.so; do
  [ -e "$PREFIX/$f" ] || { echo "missing from the install: $f"; exit 1; }
done
# Nothing installed may refer to the build or source tree. A sanitizer build
# (MX_CLIENT_FLAGS set) is the exception for its binaries: ASan's global
# descriptors and UBSan's check data name the sources by their build-time
# paths (for reports only; nothing loads them), so there only the text files
# are checked. The release build checks its binaries too.
if [ -n "${MX_CLIENT_FLAGS:-}" ]; then
  mapfile -t installed < <(find "$PREFIX" -type f ! -name '*.a' ! -name '*.so*' ! -path '*/bin/*')
else
  mapfile -t installed < <(find "$PREFIX" -type f)
fi
if grep -l --binary-files=text -e "$BUILD" -e "$SRC" "${installed[@]}"; then
  echo "the files above refer to $BUILD or $SRC"
  exit 1
fi

echo "== the installed mx-opt starts"
"$PREFIX/bin/mx-opt" "$GEMM" -o /dev/null
echo "== the installed mx-layout starts"
"$PREFIX/bin/mx-layout" --m=256 --n=256 --operand=lhs --rows=0:1 --cols=0:1 >/dev/null

echo "== build examples/embedding with find_package(MX)"
cmake -G Ninja -S "$SRC/examples/embedding" -B "$WORK/build" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$CC" \
  -DCMAKE_CXX_COMPILER="$CXX" -DMX_DIR="$PREFIX/lib/cmake/mx" \
  -DCMAKE_C_FLAGS="${MX_CLIENT_FLAGS:-}" -DCMAKE_CXX_FLAGS="${MX_CLIENT_FLAGS:-}" \
  -DCMAKE_EXE_LINKER_FLAGS="${MX_CLIENT_FLAGS:-}" \
  >"$WORK/configure.log"
cmake --build "$WORK/build" >"$WORK/build.log" || {
  cat "$WORK/build.log"
  exit 1
}

echo "== C client"
"$WORK/build/mx-embed-c" "$GEMM"
echo "== C++ client"
"$WORK/build/mx-embed-cpp" "$GEMM"

echo "== mlir-opt plugin tests with the installed plugin"
"$LIT" -q --param mx_plugin="$PREFIX/lib/MXPlugin.so" "$BUILD/test/Plugin"
