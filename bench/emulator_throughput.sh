#!/usr/bin/env bash
# Speed of the gfx950 wave emulator.
#  1. The specialized MXFP4 ukernel alone (seed layout 16x4x2, 4 waves, 2 K
#     tiles = 1,024 scaled MFMAs), measured by the
#     MXFP4UKernelTest.Throughput16x4x2 case of MXWaveEmulatorTests, which also
#     checks the MFMA count.
#  2. A whole 256x256x1024 MXFP4 GEMM (bench/emulator_gemm.mlir): compiled by
#     mx-gfx950-pipeline and run end to end on the emulator by
#     mx-run --backend=gfx950-emu (relayout dispatches + 2,048 MFMAs), checked
#     bit for bit against the reference; wall time of the whole mx-run
#     (compilation, emulation, reference evaluation) and of compilation +
#     emulation alone.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
"$BUILD/unittests/Emulator/MXWaveEmulatorTests" \
  --gtest_filter='MXFP4UKernelTest.Throughput16x4x2' | grep '\[ perf \]'

ARGS=(--seed=1 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4
  --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129
  --arg=zeros)
echo "256x256x1024 MXFP4 GEMM through mx-gfx950-pipeline and the emulator:"
"$BUILD/bin/mx-run" "$ROOT/bench/emulator_gemm.mlir" --backend=gfx950-emu \
  --emu-stats --compare=reference "${ARGS[@]}" | grep -E "gfx950-emu|result"
start=$(date +%s%N)
"$BUILD/bin/mx-run" "$ROOT/bench/emulator_gemm.mlir" --backend=gfx950-emu \
  "${ARGS[@]}" --out=/dev/null
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
echo "compile + emulate: ${ms} ms for 2048 MFMAs ($(( 2048 * 1000 / (ms > 0 ? ms : 1) )) MFMAs/s including compilation and relayouts)"
