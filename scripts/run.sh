#!/usr/bin/env bash
# README main command: installs dependencies, builds mx-opt and runs it on the
# bundled example, printing the result.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"

"$ROOT/scripts/deps.sh"
"$ROOT/scripts/build.sh" mx-opt
echo "== mx-opt examples/mxfp4_gemm.mlir"
"$BUILD/bin/mx-opt" "$ROOT/examples/mxfp4_gemm.mlir"
