#!/usr/bin/env bash
# Runs the mx libFuzzer targets (docs/guides/fuzzing.md) of the sanitizer
# build (scripts/sanitize.sh builds them in ${MX_ASAN_BUILD_DIR:-build-asan})
# for MX_FUZZ_SECONDS seconds each (default 60): mx-parse-fuzzer,
# mx-pass-fuzzer and mx-exec-fuzzer, each starting from the seed corpus made
# from the lit tests plus what earlier runs added (in the build directory).
# Per input: 30 s and 4 GiB at most (libFuzzer's in-process limits). Prints
# each target's executions; a crash, hang or leak fails the script and
# leaves the input in $BUILD/fuzz/artifacts.
#
# usage: scripts/fuzz.sh [TARGET...]   (default: parse pass exec)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MX_ASAN_BUILD_DIR:-$ROOT/build-asan}"
SECONDS_EACH="${MX_FUZZ_SECONDS:-60}"
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(parse pass exec)

for target in "${TARGETS[@]}"; do
  [ -x "$BUILD/bin/mx-$target-fuzzer" ] || {
    echo "scripts/fuzz.sh: no $BUILD/bin/mx-$target-fuzzer (run scripts/sanitize.sh)" >&2
    exit 2
  }
done
python3 "$ROOT/tools/mx-fuzz/make-corpus.py" "$ROOT" "$BUILD/fuzz/seeds"
mkdir -p "$BUILD/fuzz/artifacts"
status=0
for target in "${TARGETS[@]}"; do
  corpus="$BUILD/fuzz/corpus/$target"
  mkdir -p "$corpus"
  log="$BUILD/fuzz/$target.log"
  echo "== mx-$target-fuzzer, ${SECONDS_EACH} s (log: $log)"
  if "$BUILD/bin/mx-$target-fuzzer" "$corpus" "$BUILD/fuzz/seeds/$target" \
    -seed="${MX_FUZZ_SEED:-1}" -runs="${MX_FUZZ_RUNS:-15000}" \
    -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=4096 \
    -malloc_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$BUILD/fuzz/artifacts/$target-" >"$log" 2>&1; then
    grep -a -E "^stat::number_of_executed_units|^stat::new_units_added|^stat::peak_rss_mb" "$log" |
      sed 's/^/   /'
  else
    status=1
    echo "   FAILED: the last lines of $log:"
    tail -40 "$log" | cat -v | sed 's/^/   /'
  fi
done
exit $status
