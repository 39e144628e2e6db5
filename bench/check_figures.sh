#!/usr/bin/env bash
# Re-measures the headline figures that README.md and bench/README.md state
# and prints each one next to the figure the docs state, flagging any that
# is more than 25% worse (issue 30: figures must not drift silently).
#
#   bash bench/check_figures.sh          # REPEAT=5 runs of each timing
#
# The timings are checked against README.md's Figures list, their one home
# (bench/README.md's measured blocks are dated records of whole script
# runs); the deterministic figures against both docs.
# The stated figures are read out of the docs (the `doc` regexes below), so
# that a figure changed in a doc is checked against the next run, and a
# figure the docs no longer state is reported as missing. Timings are the
# best of REPEAT runs (min time, max rate) on this machine: they depend on
# the machine and on what else runs on it (see the load average printed
# first). The deterministic figures (the static model's predictions,
# dispatch counts) are also pinned by test/Bench/figures.mlir, so that a
# change to them fails the test suite, not only this script.
# Exit status: 0 when nothing is flagged, 1 otherwise.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_BUILD_DIR:-$ROOT/build}"
REPEAT="${REPEAT:-5}"
TOLERANCE=25 # percent

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# The stated figure: the first number that the Perl regex $2 captures in
# the doc $1 (commas removed), or empty.
stated() {
  grep -oP "$2" "$ROOT/$1" | head -n 1 | tr -d ',' || true
}

flagged=0
# check NAME UNIT BETTER(lower|higher|equal) MEASURED DOC REGEX: one line.
check() {
  local name="$1" unit="$2" better="$3" measured="$4" doc="$5" regex="$6"
  local claim status
  claim="$(stated "$doc" "$regex")"
  if [ -z "$claim" ]; then
    status="NOT STATED in $doc"
    flagged=1
  else
    status="$(awk -v m="$measured" -v c="$claim" -v b="$better" \
      -v t="$TOLERANCE" 'BEGIN {
        if (b == "equal") { print (m == c) ? "ok" : "DIFFERS"; exit }
        worse = (b == "lower") ? (m - c) / c * 100 : (c - m) / c * 100
        if (worse > t) printf "WORSE by %.0f%%\n", worse
        else if (worse > 0.5) printf "ok (%.0f%% worse)\n", worse
        else if (worse < -0.5) printf "ok (%.0f%% better)\n", -worse
        else print "ok" }')"
    case "$status" in WORSE* | DIFFERS) flagged=1 ;; esac
  fi
  printf '  %-44s %12s %12s %-6s %s\n' "$name" "${claim:--}" "$measured" \
    "$unit" "$status   [$doc]"
}

echo "mx figures on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
  "best of $REPEAT runs; flagged when more than $TOLERANCE% worse"
printf '  %-44s %12s %12s %-6s %s\n' "figure" "stated" "measured" "unit" "status"

# 1. Compile time (bench/compile_time.sh's measurement).
REPEAT="$REPEAT" bash "$ROOT/bench/compile_time.sh" > "$TMP/compile.txt"
seed_ms=$(awk '/^  seed / {print $3}' "$TMP/compile.txt")
small_ms=$(awk '/^  small / {print $3}' "$TMP/compile.txt")
check "compile seed GEMM to HSACO (min)" ms lower "$seed_ms" \
  README.md '^- compile, seed GEMM to HSACO: \K[0-9,]+(?= ms)'
check "compile small 64x32x256 to HSACO (min)" ms lower "$small_ms" \
  README.md '^- compile, small 64x32x256 GEMM to HSACO: \K[0-9,]+(?= ms)'

# 2. Emulator speed: the ukernel alone on one thread (the best of REPEAT
#    runs of MXFP4UKernelTest.Throughput16x4x2 in one process: the first
#    run of a process also pays for its start, e.g. page faults and tables
#    built on first use), and the 1024x1024x4096 GEMM dispatch on one
#    thread and on every core.
best=$("$BUILD/unittests/Emulator/MXWaveEmulatorTests" \
  --gtest_filter='MXFP4UKernelTest.Throughput16x4x2' --gtest_repeat="$REPEAT" |
  grep -oP '\[ perf \].*: \K[0-9]+(?= MFMAs/s \(CPU)' | sort -n | tail -n 1)
check "emulator, seed ukernel, 1 thread" MFMA/s higher "$best" \
  README.md '^- emulator, seed ukernel, one thread: \K[0-9,]+(?= MFMAs/s)'
ARGS=(--seed=1 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4
  --arg=random:scales,lo=125,hi=129 --arg=random:scales,lo=125,hi=129
  --arg=zeros)
gemm_rate() { # threads -> best MFMAs/s of the GEMM dispatch
  local best=0 rate
  for _ in $(seq "$REPEAT"); do
    rate=$("$BUILD/bin/mx-run" "$ROOT/bench/emulator_gemm_1024.mlir" \
      --backend=gfx950-emu --threads="$1" --progress=false --emu-stats \
      "${ARGS[@]}" --out=/dev/null | grep -oP 'took .*: \K[0-9]+(?= MFMAs/s)')
    [ "$rate" -gt "$best" ] && best=$rate
  done
  echo "$best"
}
check "emulator, 1024x1024x4096 GEMM, 1 thread" MFMA/s higher "$(gemm_rate 1)" \
  README.md '^- emulator, 1024x1024x4096 GEMM dispatch, one thread: \K[0-9,]+(?= MFMAs/s)'
check "emulator, 1024x1024x4096 GEMM, $(nproc) threads" MFMA/s higher \
  "$(gemm_rate "$(nproc)")" \
  README.md '^- emulator, 1024x1024x4096 GEMM dispatch, all cores: \K[0-9,]+(?= MFMAs/s)'

# 2b. ISA executor speed: the seed tile's GEMM launch executed as machine
#     code (bench/isa_executor_throughput.sh) on one thread, best of REPEAT.
isa_best=0
for _ in $(seq "$REPEAT"); do
  rate=$(REPEAT=1 bash "$ROOT/bench/isa_executor_throughput.sh" |
    grep -oP 'took .*: \K[0-9]+(?= MFMAs/s)')
  [ "$rate" -gt "$isa_best" ] && isa_best=$rate
done
check "ISA executor, seed tile GEMM, 1 thread" MFMA/s higher "$isa_best" \
  README.md '^- ISA executor, seed tile GEMM launch, one thread: \K[0-9,]+(?= MFMAs/s)'

# 3. The independent reference of the same GEMM (mx-run --compare=reference
#    with the emulator's per-instruction order): its share of the run.
best=""
for _ in $(seq "$REPEAT"); do
  start=$(date +%s%N)
  "$BUILD/bin/mx-run" "$ROOT/bench/emulator_gemm_1024.mlir" \
    --backend=gfx950-emu --progress=false --compare=reference "${ARGS[@]}" \
    > "$TMP/compare.txt"
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  { [ -z "$best" ] || [ "$ms" -lt "$best" ]; } && best=$ms
done
grep -q 'bit-exact' "$TMP/compare.txt" || {
  echo "  the 1024x1024x4096 GEMM is not bit-exact against the reference:"
  cat "$TMP/compare.txt"
  flagged=1
}
check "1024x1024x4096 GEMM, emulator + reference" ms lower "$best" \
  README.md '^- emulator \+ reference, 1024x1024x4096 GEMM: \K[0-9,]+(?= ms)'

# 4. The static model's predictions and dispatch counts (deterministic).
python3 "$ROOT/bench/ukernel_static_metrics.py" --mx-opt "$BUILD/bin/mx-opt" \
  --shapes "seed,16384^3" --configs default --repeat 1 --acc arg \
  --result f32 > "$TMP/model.txt"
column() { # shape-prefix column-name -> value of that row and column
  python3 - "$TMP/model.txt" "$1" "$2" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
header = next(l for l in lines if l.startswith("shape "))
# Column names hold single spaces; columns are two or more spaces apart.
cols = [(m.start(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", header)]
names = [name for _, name in cols]
row = next(l for l in lines if l.startswith(sys.argv[2]))
i = names.index(sys.argv[3])
end = cols[i + 1][0] if i + 1 < len(cols) else len(row)
print(row[cols[i][0]:end].split()[0])
EOF
}
check "model: seed GEMM dispatch" PF/s higher "$(column seed PF/s)" \
  README.md '^- static model, seed GEMM dispatch: \K[0-9.]+'
check "model: seed GEMM dispatch" PF/s higher "$(column seed PF/s)" \
  bench/README.md 'predicted seed GEMM dispatch .*\*\*[0-9]+ us, \K[0-9.]+'
check "model: 16384^3 dispatch" PF/s higher "$(column 16384 PF/s)" \
  README.md '^- static model, 16384\^3 dispatch: \K[0-9.]+'
check "model: 16384^3 dispatch" PF/s higher "$(column 16384 PF/s)" \
  bench/README.md 'predicted 16384\^3 dispatch .*\*\*[0-9]+ us, \K[0-9.]+'
check "model: seed cycles per main-loop iteration" cycles lower \
  "$(column seed cyc/iter | cut -d/ -f1)" \
  README.md '^- static model, seed main-loop iteration: \K[0-9]+(?= cycles)'
check "model: seed cycles per main-loop iteration" cycles lower \
  "$(column seed cyc/iter | cut -d/ -f1)" \
  bench/README.md 'C \+= A x B \(default\) \| [0-9.]+ \| \K[0-9]+(?=/4096)'
check "seed GEMM dispatches (relayouts + GEMM)" count equal \
  "$(column seed disp)" README.md '^- seed GEMM: \K[0-9]+(?= dispatches)'

# 5. The timing model (the ISA executor's --timing-model; deterministic):
# mx's seed kernel and AITER's code object, calibrated on AITER.
python3 "$ROOT/bench/mx_timing.py" --no-sweep --json > "$TMP/timing.json"
timing() { # python expression over the report -> value
  python3 -c "import json,sys; r = json.load(open(sys.argv[1])); print($1)" \
    "$TMP/timing.json"
}
check "timing model: seed 16384^3" PF/s higher \
  "$(timing 'round(r["pf"]["seed 16384^3"], 2)')" \
  README.md '^- timing model, seed kernel at 16384\^3: \K[0-9.]+'
check "timing model: seed main-loop iteration" cycles lower \
  "$(timing 'round(r["reports"]["seed"]["cycles_per_iteration"])')" \
  README.md '^- timing model, seed main-loop iteration: \K[0-9]+(?= cycles)'
check "timing model: AITER main-loop iteration" cycles equal \
  "$(timing 'round(r["reports"]["aiter"]["cycles_per_iteration"])')" \
  README.md '^- timing model, AITER main-loop iteration: \K[0-9]+(?= cycles)'

echo
if [ "$flagged" -ne 0 ]; then
  echo "Some figures are flagged: re-measure and correct the docs (or the code)."
  exit 1
fi
echo "Every figure is within $TOLERANCE% of what the docs state."
