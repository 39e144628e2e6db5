#!/usr/bin/env bash
# README main command: installs dependencies, builds the tools and runs the
# main job:
#  1. mx-opt on the bundled example (parse, verify, print);
#  2. the seed000 MXFP4 GEMM on the CPU path (mx-run): quantize + scaled
#     matmul, checked against the recorded known answers and against the
#     independent reference library.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
SEED="$ROOT/test/data/mxfp4-seed000/m128n96k512"

"$ROOT/scripts/deps.sh"
"$ROOT/scripts/build.sh" mx-opt mx-run

echo "== mx-opt examples/mxfp4_gemm.mlir"
"$BUILD/bin/mx-opt" "$ROOT/examples/mxfp4_gemm.mlir"

echo
echo "== seed000 MXFP4 GEMM 128x96x512 on the CPU path (examples/seed000_gemm.mlir)"
echo "-- against the recorded known answers (C_f32, fp4 bytes, E8M0 scales):"
"$BUILD/bin/mx-run" "$ROOT/examples/seed000_gemm.mlir" \
  --arg="file:$SEED/A_bf16.bin" --arg="file:$SEED/B_bf16.bin" --arg=zeros \
  --expect="file:$SEED/C_f32.bin" \
  --expect="file:$SEED/A_fp4.bin" --expect="file:$SEED/A_e8m0.bin" \
  --expect="file:$SEED/B_fp4.bin" --expect="file:$SEED/B_e8m0.bin"
echo "-- against the independent reference library (same inputs):"
"$BUILD/bin/mx-run" "$ROOT/examples/seed000_gemm.mlir" \
  --arg="file:$SEED/A_bf16.bin" --arg="file:$SEED/B_bf16.bin" --arg=zeros \
  --compare=reference
