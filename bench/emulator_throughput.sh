#!/usr/bin/env bash
# Speed of the gfx950 wave emulator. Targets (issue 14): >= 50,000 scaled
# MFMAs/s on one thread, and the 1024x1024x4096 MXFP4 GEMM end to end in
# under 5 s on this 2-core machine.
#  1. The specialized MXFP4 ukernel alone on one thread: seed layout 16x4x2,
#     4 waves, 8 K tiles = 4,096 MFMAs in one workgroup, measured by the
#     MXFP4UKernelTest.Throughput16x4x2 case of MXWaveEmulatorTests (which
#     also checks the MFMA count), REPEAT times in one process (the first
#     run also pays for the process's start).
#  2. The 1024x1024x4096 MXFP4 GEMM (bench/emulator_gemm_1024.mlir),
#     compiled by mx-gfx950-pipeline and run end to end by
#     mx-run --backend=gfx950-emu: the MFMAs/s of its GEMM dispatch (16
#     workgroups, 131,072 MFMAs; --emu-stats) with --threads=1 and with one
#     thread per core, and the wall time of the whole mx-run (compilation,
#     the 6 relayout dispatches and the GEMM) on all cores.
#  3. A 256x256x1024 GEMM (bench/emulator_gemm.mlir) checked bit for bit
#     against the reference (evaluating the reference of the large one would
#     take longer than emulating it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
CORES="$(nproc)"

echo "1. ukernel alone, one thread (REPEAT=${REPEAT:-5} runs in one process):"
"$BUILD/unittests/Emulator/MXWaveEmulatorTests" \
  --gtest_filter='MXFP4UKernelTest.Throughput16x4x2' \
  --gtest_repeat="${REPEAT:-5}" | grep '\[ perf \]'

ARGS=(--seed=1 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4
  --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129
  --arg=zeros)
echo "2. 1024x1024x4096 MXFP4 GEMM through mx-gfx950-pipeline and the emulator:"
for threads in 1 "$CORES"; do
  echo "  --threads=$threads:"
  "$BUILD/bin/mx-run" "$ROOT/bench/emulator_gemm_1024.mlir" \
    --backend=gfx950-emu --threads="$threads" --progress=false --emu-stats \
    "${ARGS[@]}" --out=/dev/null | sed 's/^/    /'
done
start=$(date +%s%N)
"$BUILD/bin/mx-run" "$ROOT/bench/emulator_gemm_1024.mlir" --backend=gfx950-emu \
  --threads="$CORES" --progress=false "${ARGS[@]}" --out=/dev/null
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
echo "  end to end on $CORES cores (compile + 7 dispatches): ${ms} ms"

echo "3. 256x256x1024 MXFP4 GEMM against the reference:"
"$BUILD/bin/mx-run" "$ROOT/bench/emulator_gemm.mlir" --backend=gfx950-emu \
  --progress=false --compare=reference "${ARGS[@]}" | grep -E "result"
