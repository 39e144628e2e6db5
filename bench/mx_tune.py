#!/usr/bin/env python3
"""Tunes gfx950 GEMM configurations and writes the resolver's table.

For each shape (M, N, K, A and B element types), this sweeps candidate pins
of #mx_gfx950.target (intrinsics_m/n/k, subgroups_m/n, split_k), compiles
each with the real pipeline (mx-gfx950-pipeline, output=isa, the embedded
table off), scores it with the static performance model exactly as
bench/decode_metrics.py does (the GEMM dispatch and the dispatch that adds
the parts of a split K loop; bench/README.md states the assumptions), and
keeps the fastest. The resolver's own choice (no pins) is scored too; a
shape gets an entry only when the best candidate beats it by more than 2%.

The table (ukernels/gfx950/configs/table.mlir by default) maps each shape's
M bucket (1-16, 17-32, 33-64, else M itself), N and K to the winning pins;
the resolver consults it before its heuristic (docs/guides/tuning.md). Once
a GPU exists, the score can be a measured time (mx-run --backend=hip
--repeat) instead of the model's.

Usage: bench/mx_tune.py [--mx-opt build/bin/mx-opt] [--shapes decode,contest]
           [--shape M,N,K,A,B ...] [--jobs 2] [--out FILE]
"""

import argparse
import itertools
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decode_metrics as dm  # noqa: E402
import ukernel_static_metrics as usm  # noqa: E402

def bucket(m):
    for lo, hi in ((1, 16), (17, 32), (33, 64)):
        if lo <= m <= hi:
            return lo, hi
    return m, m


def candidates(m, n, k, lhs, rhs):
    """Pins to try: 16x16x128 tiles no taller than M (rounded up to 16)
    and no wider than N, K steps of 1 to 8 intrinsics (the pipeline rejects
    those whose LDS staging does not fit), K split in up to 16 parts."""
    rows = 16 * -(-m // 16)
    out = []
    for sm, im, sn, inn, ik, parts in itertools.product(
            (1, 2, 4), (1, 2, 4), (1, 2, 4), (1, 2, 4, 8),
            (1, 2, 4, 8), (1, 2, 4, 8, 16)):
        if sm * im * 16 > rows or sm * sn > 4 or sn * inn * 16 > n:
            continue
        if k % (ik * 128 * parts):
            continue
        out.append("intrinsics-m=%d intrinsics-n=%d intrinsics-k=%d "
                   "subgroups-m=%d subgroups-n=%d split-k=%d"
                   % (im, inn, ik, sm, sn, parts))
    return out


def score(job):
    mx_opt, shape, options = job
    m, n, k, lhs, rhs = shape
    try:
        row = dm.evaluate(mx_opt, m, n, k, lhs, rhs, "zero", "bf16",
                          "config-table=none " + options)
        if row["spills"]:
            return options, None, "spills"
        return options, row["total_us"], None
    except usm.Failure as failure:
        return options, None, str(failure)


def tune(mx_opt, shape, jobs):
    m, n, k, lhs, rhs = shape
    baseline = score((mx_opt, shape, ""))[1]
    todo = candidates(*shape)
    print("%dx%dx%d %s x %s: heuristic %s us; %d candidates"
          % (m, n, k, lhs, rhs,
             "%.2f" % baseline if baseline else "-", len(todo)), flush=True)
    best, best_us, done = None, None, 0
    start = time.time()
    with multiprocessing.Pool(jobs) as pool:
        for options, us, _ in pool.imap_unordered(
                score, [(mx_opt, shape, o) for o in todo]):
            done += 1
            if us is not None and (best_us is None or us < best_us):
                best, best_us = options, us
            if done % 20 == 0 or done == len(todo):
                print("  [%d/%d] %.0f s, best %s us (%s)"
                      % (done, len(todo), time.time() - start,
                         "%.2f" % best_us if best_us else "-", best),
                      flush=True)
    if best is None or (baseline and best_us > 0.98 * baseline):
        print("  no entry: the heuristic is within 2%", flush=True)
        return None
    return best, best_us, baseline


def pins_text(options):
    names = {"intrinsics-m": "intrinsics_m", "intrinsics-n": "intrinsics_n",
             "intrinsics-k": "intrinsics_k", "subgroups-m": "subgroups_m",
             "subgroups-n": "subgroups_n", "split-k": "split_k"}
    items = [kv.split("=") for kv in options.split()]
    return "#mx_gfx950.target<intrinsic = mfma_scale_16x16x128, %s>" % \
        ", ".join("%s = %s" % (names[k], v) for k, v in items)


HEADER = """// RUN: mx-opt %s | FileCheck %s
// CHECK: mx_gfx950.configs

// Tuned gfx950 configurations, consulted by the resolver before its
// heuristic (#mx_gfx950.target's config_table; docs/guides/tuning.md).
// Written by `{command}`: each entry pins the layout
// and split-K of the contractions of its element types with M in
// [m[0], m[1]] and exactly N and K; the comment gives the predicted time of
// the tuned and of the heuristic's configuration (bench/decode_metrics.py's
// model, bench/README.md).
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mx-opt", default="build/bin/mx-opt")
    parser.add_argument("--shapes", default="decode,contest",
                        help="groups of bench/decode_metrics.py")
    parser.add_argument("--shape", action="append", default=[],
                        help="M,N,K,A,B (e.g. 1,8192,8192,f8E4M3FN,f8E4M3FN)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="ukernels/gfx950/configs/table.mlir")
    args = parser.parse_args()
    shapes = []
    for group in filter(None, args.shapes.split(",")):
        for _, m, n, k, lhs, rhs, _, _ in dm.SHAPES[group]:
            shapes.append((m, n, k, lhs, rhs))
    for text in args.shape:
        m, n, k, lhs, rhs = text.split(",")
        shapes.append((int(m), int(n), int(k), lhs, rhs))
    entries, seen = [], set()
    for shape in shapes:
        m, n, k, lhs, rhs = shape
        key = (bucket(m), n, k, lhs, rhs)
        if key in seen:
            continue
        seen.add(key)
        result = tune(args.mx_opt, shape, args.jobs)
        if result is None:
            continue
        options, us, baseline = result
        lo, hi = bucket(m)
        entries.append(
            "  // %dx%dx%d: %.2f us (heuristic: %s us)\n"
            "  {lhs_type = %s, rhs_type = %s, m = array<i64: %d, %d>, "
            "n = %d, k = %d,\n   pins = %s}"
            % (m, n, k, us, "%.2f" % baseline if baseline else "-", lhs, rhs,
               lo, hi, n, k, pins_text(options)))
    command = " ".join(["bench/mx_tune.py"] + sys.argv[1:])
    with open(args.out, "w") as out:
        out.write(HEADER.format(command=command))
        out.write("module attributes {mx_gfx950.configs = [\n")
        out.write(",\n".join(entries))
        out.write("\n]} {\n}\n")
    print("wrote %d entries to %s" % (len(entries), args.out))


if __name__ == "__main__":
    main()
