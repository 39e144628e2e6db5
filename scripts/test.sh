#!/usr/bin/env bash
# README test command: installs dependencies, builds everything and runs every
# test (lit files and GoogleTest units) through ctest. The Python package's
# pytest suite (python/tests), its example and its pip install are lit tests
# (test/Python), so they run here too.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"

# chromium renders the mx-layout pictures in a lit test
# (test/Tools/mx-layout/svg-chromium.mlir, unsupported without it).
"$ROOT/scripts/deps.sh" chromium
"$ROOT/scripts/build.sh" all mx-test-depends
cd "$BUILD"
ctest --output-on-failure -j"${MX_JOBS:-$(nproc)}"
