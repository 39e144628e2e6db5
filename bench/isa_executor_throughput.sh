#!/usr/bin/env bash
# Speed of the gfx950 ISA executor (mx-run --backend=gfx950-isa). Target
# (issue 32): >= 20,000 scaled MFMAs/s on one thread, so that the seed tile
# (test/Integration/GFX950/emulator-seed-tile.mlir, 32,768 MFMAs) runs in
# CI at ISA level. Runs the seed tile's program (its relayout dispatches and
# the GEMM kernel as LLVM compiled it, with waits, races and wait states
# checked) REPEAT times on one thread and prints the executor's MFMAs/s of
# each run (--emu-stats: executed scaled MFMAs over the time spent in the
# executor) and the result of the comparison with the reference.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
for run in $(seq "${REPEAT:-3}"); do
  "$BUILD/bin/mx-run" "$ROOT/test/Integration/GFX950/emulator-seed-tile.mlir" \
    --backend=gfx950-isa --threads=1 --progress=false --emu-stats \
    --compare=reference --seed=16384 \
    --gfx950-options="intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=2 subgroups-m=1 subgroups-n=4" \
    --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-2,hi=2 \
    --arg=random:scales,lo=126,hi=128 --arg=random:scales,lo=126,hi=128 \
    --arg=random:int,lo=-8,hi=8 | grep -E 'gfx950-isa @|bit-exact|FAIL'
done
