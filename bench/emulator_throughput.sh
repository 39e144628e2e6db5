#!/usr/bin/env bash
# Throughput of the gfx950 wave emulator on the specialized MXFP4 ukernel
# (seed layout 16x4x2, 4 waves, 2 K tiles = 1,024 scaled MFMAs), measured by
# the MXFP4UKernelTest.Throughput16x4x2 case of MXWaveEmulatorTests, which
# also checks the MFMA count. A 256x256x1024 MXFP4 GEMM is 2,048 such MFMAs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
"$BUILD/unittests/Emulator/MXWaveEmulatorTests" \
  --gtest_filter='MXFP4UKernelTest.Throughput16x4x2' | grep '\[ perf \]'
