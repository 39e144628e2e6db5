#!/usr/bin/env bash
# README main command: installs dependencies, builds the tools and runs the
# main job:
#  1. mx-opt on the bundled example (parse, verify, print);
#  2. the seed000 MXFP4 GEMM on the CPU path (mx-run): quantize + scaled
#     matmul, checked against the recorded known answers and against the
#     independent reference library;
#  3. the seed MXFP4 GEMM 10000x16384x16384 compiled for gfx950
#     (mx-gfx950-pipeline) to code objects, with the kernel report;
#  4. the same compiled program at the seed000 size (128x96x512) executed on
#     the gfx950 wave emulator, checked bit for bit against the known answer
#     and the independent reference;
#  5. seed000 from bf16 activations on the emulator: A quantized by one
#     kernel straight into the GEMM's operand layout, then the GEMM; checked
#     bit for bit against the recorded A_fp4, A_e8m0 and C_f32;
#  6. the same with A quantized inside the GEMM kernel (quantize-in-gemm):
#     one dispatch, checked bit for bit against the recorded C_f32.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
  cat <<EOF
usage: scripts/run.sh [--help]

Installs the dependencies (scripts/deps.sh), builds mx-opt and mx-run in
\${MX_BUILD_DIR:-build} (scripts/build.sh; MX_JOBS parallel jobs) and runs the
main job:
  1. mx-opt on examples/mxfp4_gemm.mlir;
  2. the seed000 MXFP4 GEMM 128x96x512 on the CPU path, checked against the
     recorded known answers and the independent reference;
  3. the seed MXFP4 GEMM 10000x16384x16384 compiled for gfx950 to code
     objects, with the kernel report;
  4. the compiled program at the seed000 size on the gfx950 wave emulator,
     checked bit for bit;
  5. seed000 from bf16 A on the emulator (quantize fused into the GEMM's
     operand layout), checked bit for bit against A_fp4, A_e8m0 and C_f32;
  6. the same with A quantized inside the GEMM kernel, checked bit for bit
     against C_f32.
EOF
}
case "${1:-}" in
"") ;;
-h | --help)
  usage
  exit 0
  ;;
*)
  echo "scripts/run.sh: unknown argument '$1'" >&2
  usage >&2
  exit 2
  ;;
esac
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

OUT="$BUILD/seed-gfx950"
mkdir -p "$OUT"
echo
echo "== gfx950: the seed MXFP4 GEMM 10000x16384x16384 (examples/seed_gemm_gfx950.mlir, @seed_gemm)"
start=$(date +%s%N)
"$BUILD/bin/mx-opt" "$ROOT/examples/seed_gemm_gfx950.mlir" \
  --mx-gfx950-pipeline=output=hsaco -o "$OUT/seed_gemm.hsaco.mlir"
end=$(date +%s%N)
echo "-- compiled to code objects in $(( (end - start) / 1000000 )) ms:"
python3 "$ROOT/scripts/extract_code_objects.py" "$OUT/seed_gemm.hsaco.mlir" "$OUT" \
  | grep seed_gemm_
/usr/lib/llvm-22/bin/llvm-readelf -h "$OUT/seed_gemm_mma0.hsaco" | grep -E "Machine|Flags"
echo "-- kernel report (full report of every dispatch: $OUT/kernel-report.txt):"
"$BUILD/bin/mx-opt" "$ROOT/examples/seed_gemm_gfx950.mlir" \
  --mx-gfx950-pipeline=output=isa \
  --mx-gfx950-kernel-report="output=$OUT/kernel-report.txt" -o /dev/null
# The GEMM kernel in full; the relayout dispatches in one line each.
awk '/^kernel seed_gemm_mma/ {show = 1; print; next}
     /^kernel |^gpu.binary / {show = 0}
     show' "$OUT/kernel-report.txt"
awk '/^kernel seed_gemm_relayout/ {name = $2}
     /^  code_bytes:/ && name {bytes = $2}
     /^  scratch_bytes:/ && name {scratch = $2}
     /^  direct_to_lds_loads:/ && name {
       printf "  %s: %s code bytes, scratch %s\n", name, bytes, scratch; name = ""}' \
  "$OUT/kernel-report.txt"

echo
echo "== gfx950 wave emulator: the compiled program at the seed000 size 128x96x512 (@seed000_gemm)"
SEEDARGS=(--arg="file:$SEED/A_fp4.bin" --arg="file:$SEED/B_fp4.bin"
  --arg="file:$SEED/A_e8m0.bin" --arg="file:$SEED/B_e8m0.bin" --arg=zeros)
echo "-- against the recorded known answer C_f32:"
"$BUILD/bin/mx-run" "$ROOT/examples/seed_gemm_gfx950.mlir" --entry=seed000_gemm \
  --backend=gfx950-emu --emu-stats "${SEEDARGS[@]}" --expect="file:$SEED/C_f32.bin"
echo "-- against the independent reference library:"
"$BUILD/bin/mx-run" "$ROOT/examples/seed_gemm_gfx950.mlir" --entry=seed000_gemm \
  --backend=gfx950-emu "${SEEDARGS[@]}" --compare=reference

echo
echo "== gfx950 wave emulator: seed000 from bf16 activations (examples/seed000_gemm_bf16_gfx950.mlir)"
echo "-- dispatches (the quantize of A writes the GEMM's operand layout; no relayout of A):"
"$BUILD/bin/mx-opt" "$ROOT/examples/seed000_gemm_bf16_gfx950.mlir" --mx-gfx950-pipeline=output=gpu \
  | awk '/func.func @seed000_gemm_bf16_c\(/ {f = 1} f && /gpu.launch_func/ {print "  " $2} f && /return/ {f = 0}'
echo "-- against the recorded C_f32, A_fp4 and A_e8m0:"
"$BUILD/bin/mx-run" "$ROOT/examples/seed000_gemm_bf16_gfx950.mlir" --entry=seed000_gemm_bf16 \
  --backend=gfx950-emu --arg="file:$SEED/A_bf16.bin" --arg="file:$SEED/B_fp4.bin" \
  --arg="file:$SEED/B_e8m0.bin" --arg=zeros --expect="file:$SEED/C_f32.bin" \
  --expect="file:$SEED/A_fp4.bin" --expect="file:$SEED/A_e8m0.bin"

echo
echo "== gfx950 wave emulator: seed000 from bf16 with A quantized inside the GEMM (quantize-in-gemm=always)"
echo "-- dispatches (the GEMM kernel quantizes its A tiles in registers: no quantize dispatch):"
# (@seed000_gemm_bf16 of the same file also returns the quantized A, so its
# quantize stays a dispatch: quantize-in-gemm=always warns about it.)
"$BUILD/bin/mx-opt" "$ROOT/examples/seed000_gemm_bf16_gfx950.mlir" \
  --mx-gfx950-pipeline="output=gpu quantize-in-gemm=always" \
  --mlir-print-op-on-diagnostic=false \
  | awk '/func.func @seed000_gemm_bf16_c\(/ {f = 1} f && /gpu.launch_func/ {print "  " $2} f && /return/ {f = 0}'
echo "-- against the recorded C_f32:"
"$BUILD/bin/mx-run" "$ROOT/examples/seed000_gemm_bf16_gfx950.mlir" --entry=seed000_gemm_bf16_c \
  --backend=gfx950-emu --gfx950-options=quantize-in-gemm=always --arg="file:$SEED/A_bf16.bin" \
  --arg="file:$SEED/B_fp4.bin" --arg="file:$SEED/B_e8m0.bin" --arg=zeros --expect="file:$SEED/C_f32.bin"
