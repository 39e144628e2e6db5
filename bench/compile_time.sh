#!/usr/bin/env bash
# Compile time of mx-gfx950-pipeline.
#  1. The seed MXFP4 GEMM 10000x16384x16384 (examples/seed_gemm_gfx950.mlir)
#     and a small 64x32x256 GEMM to HSACO code objects: wall time of the
#     whole mx-opt process (start-up, parsing, every pass, LLVM's AMDGPU
#     backend, lld), the fastest and the median of REPEAT runs.
#  2. The per-pass timing of one seed compilation (--mlir-timing), so that a
#     slow pass is seen at once.
# Target (issue 10): the seed GEMM to HSACO in under 1 s on the 2-core
# development machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
MX_OPT="$BUILD/bin/mx-opt"
REPEAT="${REPEAT:-5}"

SMALL="$(mktemp --suffix=.mlir)"
trap 'rm -f "$SMALL"' EXIT
cat > "$SMALL" <<'MLIR'
func.func @small(%a: tensor<64x256xf4E2M1FN>, %b: tensor<32x256xf4E2M1FN>,
                 %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<32x8xf8E8M0FNU>,
                 %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<32x256xf4E2M1FN>,
                            tensor<64x8xf8E8M0FNU>, tensor<32x8xf8E8M0FNU>)
      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
MLIR

# Prints "min median" of REPEAT wall times (ms) of compiling $1 to HSACO.
time_compile() {
  local times=()
  for _ in $(seq "$REPEAT"); do
    local start end
    start=$(date +%s%N)
    "$MX_OPT" "$1" --mx-gfx950-pipeline=output=hsaco -o /dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n |
    awk '{t[NR] = $1} END {printf "%d %d\n", t[1], t[int((NR + 1) / 2)]}'
}

echo "mx-gfx950-pipeline to HSACO, wall time of mx-opt over $REPEAT runs ($(nproc) cores):"
printf '  %-28s %8s %8s\n' "program" "min ms" "median ms"
read -r min median < <(time_compile "$ROOT/examples/seed_gemm_gfx950.mlir")
printf '  %-28s %8d %8d\n' "seed 10000x16384x16384" "$min" "$median"
read -r min median < <(time_compile "$SMALL")
printf '  %-28s %8d %8d\n' "small 64x32x256" "$min" "$median"

echo
echo "Per-pass timing of the seed GEMM (--mlir-timing, passes over 1% of the total):"
"$MX_OPT" "$ROOT/examples/seed_gemm_gfx950.mlir" \
  --mx-gfx950-pipeline=output=hsaco -o /dev/null --mlir-timing 2>&1 |
  awk '/Total Execution Time/ {print "  " $0; next}
       /%\)/ {line = $0; n = 0
               while (match(line, /[0-9.]+%\)/)) {
                 pct = substr(line, RSTART, RLENGTH - 2); n++
                 line = substr(line, RSTART + RLENGTH)
               }
               if (n >= 2 && pct + 0 >= 1.0) print "  " $0}'
