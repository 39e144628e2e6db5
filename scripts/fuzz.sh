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
# MX_FUZZ_JOBS=N (default 1) runs N processes per target, each on its own
# share of the seeds (so none spends its start re-running all of them) with
# its own corpus directory and seed MX_FUZZ_SEED + i; the executions printed
# are their sum (issue 37's long run: N = 16 on a 16-core machine).
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
JOBS="${MX_FUZZ_JOBS:-1}"
for target in "${TARGETS[@]}"; do
  echo "== mx-$target-fuzzer, ${SECONDS_EACH} s, $JOBS process(es) (logs: $BUILD/fuzz/$target*.log)"
  seeds="$BUILD/fuzz/seeds/$target"
  pids=()
  for ((i = 0; i < JOBS; i++)); do
    corpus="$BUILD/fuzz/corpus/$target" log="$BUILD/fuzz/$target.log" share="$seeds"
    if [ "$JOBS" -gt 1 ]; then
      corpus="$corpus-$i" log="$BUILD/fuzz/$target-$i.log" share="$BUILD/fuzz/shares/$target-$i"
      rm -rf "$share" && mkdir -p "$share"
      ls "$seeds" | awk -v n="$JOBS" -v i="$i" 'NR % n == i' |
        while read -r f; do cp "$seeds/$f" "$share/"; done
    fi
    mkdir -p "$corpus"
    "$BUILD/bin/mx-$target-fuzzer" "$corpus" "$share" \
      -seed=$((${MX_FUZZ_SEED:-1} + i)) -runs="${MX_FUZZ_RUNS:-15000}" \
      -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=4096 \
      -malloc_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$BUILD/fuzz/artifacts/$target-" >"$log" 2>&1 &
    pids+=($!)
  done
  failed=0
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  logs=("$BUILD/fuzz/$target.log")
  [ "$JOBS" -gt 1 ] && logs=("$BUILD/fuzz/$target"-*.log)
  if [ $failed = 0 ]; then
    grep -a -h -E "^stat::number_of_executed_units|^stat::new_units_added|^stat::peak_rss_mb" "${logs[@]}" |
      awk -F: '{v = $4 + 0; if ($3 == "peak_rss_mb") { if (v > m) m = v } else s[$3] += v}
        END {for (k in s) printf "   stat::%s: %d\n", k, s[k]; printf "   stat::peak_rss_mb: %d\n", m}'
  else
    status=1
    for log in "${logs[@]}"; do
      # With several processes, the logs of those that found something.
      [ "$JOBS" -eq 1 ] ||
        grep -a -q -E "^==[0-9]+==|^SUMMARY|ERROR: libFuzzer" "$log" || continue
      echo "   FAILED: the last lines of $log:"
      tail -40 "$log" | cat -v | sed 's/^/   /'
    done
  fi
done
exit $status
