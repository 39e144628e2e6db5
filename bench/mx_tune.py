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

Large GEMMs (--gemm PAIRS: the seed shape 10000x16384x16384 and 16384^3,
C += A x B with an f32 C, the program bench/ukernel_static_metrics.py
benchmarks) are tuned over the workgroup tiles of 256 x 256 outputs on 1 x 4
waves (16 x 4 or 8 x 8 intrinsics of 16x16x128 a wave, with fp4 A two
intrinsics along K as well as one; or 8 x 2 of 32x32x64 with K steps of 128
or 256: the same 256 accumulators; the resolver's own layout besides) with
both models: the static model (the kernel's ISA, bench/mx_perf_model.py)
and the ISA executor's timing model (one workgroup tile over K = 8192 on
`mx-run --timing-model`, scaled over the grid as bench/mx_timing.py does).
DESIGN.md's rule for a claim applies to an entry: a candidate is recorded
only if it beats the resolver's layout by more than 2% on both models with
MachineModel.def's constants and is still faster under every assumed
constant at x0.5 and x2 on both models.

The table (ukernels/gfx950/configs/table.mlir by default) maps each shape's
M bucket (1-16, 17-32, 33-64, else M itself), N and K to the winning pins;
the resolver consults it before its heuristic (docs/guides/tuning.md). Once
a GPU exists, the score can be a measured time (mx-run --backend=hip
--repeat) instead of the model's.

Usage: bench/mx_tune.py [--mx-opt build/bin/mx-opt] [--shapes decode,contest]
           [--shape M,N,K,A,B ...] [--gemm all|A:B,...] [--jobs 2]
           [--out FILE] [--update]

`--update` keeps the table's entries for the shapes this run does not tune
(the whole table: `--shapes decode,contest --gemm all`).
"""

import argparse
import itertools
import multiprocessing
import os
import re
import shlex
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decode_metrics as dm  # noqa: E402
import mx_perf_model  # noqa: E402
import mx_timing  # noqa: E402
import ukernel_static_metrics as usm  # noqa: E402

TYPES = ("f4E2M1FN", "f6E2M3FN", "f6E3M2FN", "f8E4M3FN", "f8E5M2")
# The large GEMMs --gemm tunes, and the K of the timing model's tile.
GEMM_SHAPES = (("16384^3", 16384, 16384, 16384),
               ("seed", 10000, 16384, 16384))
TIMED_K = 8192
# Wave tiles (intrinsics_m, intrinsics_n) of 16x16x128 with 256
# accumulators a lane, on 1 x 4 waves: 256 x 256 or 128 x 512 outputs.
WAVE_TILES = ((16, 4), (8, 8))
# And 32x32x64's 8 x 2 intrinsics a wave (the same 256 x 256 tile and 256
# accumulators), two or four intrinsics along K (K steps of 128 or 256).
K32_STEPS = (2, 4)

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


def sweep_settings():
    """MachineModel.def's constants (baseline: none changed), then each
    Assumed one at x0.5 and x2: (label, the static model's overrides, the
    timing model's)."""
    out = [("baseline", {}, {})]
    for name, python_name, value, _, kind, _ in mx_perf_model.machine_rows():
        if kind == "Assumed":
            for factor in (0.5, 2.0):
                out.append(("%s x%g" % (name, factor),
                            {python_name: mx_perf_model._scaled(value,
                                                                factor)},
                            {name: value * factor}))
    return out


def layout_options(layout):
    """The mx-gfx950-pipeline pins of a parsed #mx.data_tiled_layout."""
    return ("intrinsic=%dx%dx%d intrinsics-m=%d intrinsics-n=%d "
            "intrinsics-k=%d subgroups-m=%d subgroups-n=%d split-k=1"
            % (layout["shape"] + tuple(layout[k] for k in (
                "intrinsics_m", "intrinsics_n", "intrinsics_k",
                "subgroups_m", "subgroups_n"))))


def gemm_times(job):
    """Seconds of the large GEMMs of one pair on both models for `options`
    (the resolver's layout when empty), under each of `settings` (only the
    baseline when `settings` has one entry): {(setting, shape name):
    (static s, timing s)}, and the layouts; or an error string. The job
    may add the accumulator source and the result type (default "arg",
    "f32": C += A x B with an f32 C)."""
    mx_opt, lhs, rhs, options, settings = job[:5]
    acc, result = job[5:] if len(job) > 5 else ("arg", "f32")
    machine = usm.calibrated_machine()
    clock = machine.clock_hz
    times, layouts, reports = {}, {}, {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for name, m, n, k in GEMM_SHAPES:
                model = usm.compile_kernel(
                    mx_opt, (name, m, n, k), "config-table=none " + options,
                    lhs, rhs, acc, result)
                if model["spills"]:
                    return options, "spills or scratch"
                layouts[name] = pins = layout_options(model["layout"])
                tile = (model["tile_m"], model["tile_n"])
                program = usm.contraction(*tile, TIMED_K, lhs, rhs, acc,
                                          result)
                for label, static, timing in settings:
                    _, gemm = usm.model_kernel(
                        model, (name, m, n, k),
                        mx_perf_model.with_overrides(machine, static))
                    # (The shapes share the timed tile when they share
                    # the layout.)
                    if (pins, label) not in reports:
                        reports[(pins, label)] = mx_timing.time_program(
                            program, "config-table=none " + pins,
                            4 + (acc == "arg"), tmp, timing)
                    report = reports[(pins, label)]
                    times[(label, name)] = (
                        gemm.seconds,
                        mx_timing.gemm_seconds(report, TIMED_K, (m, n, k),
                                               clock, 1.0, tile=tile))
    except (usm.Failure, OSError) as failure:
        return options, str(failure)
    return options, (times, layouts)


def worst_ratio(candidate, heuristic):
    """The candidate's largest time over the heuristic's, by shape, over
    both models and every setting the two share: {shape: (ratio, "model,
    setting")}."""
    out = {}
    for (label, name), times in candidate.items():
        for model, c, h in zip(("static", "timing"), times,
                               heuristic[(label, name)]):
            if name not in out or c / h > out[name][0]:
                out[name] = (c / h, "%s, %s" % (model, label))
    return out


def k_steps_16(lhs, rhs):
    """The intrinsics along K of the 16x16x128 candidates: 128 bytes of the
    wider operand's row (two intrinsics for fp4 x fp4, else one); for fp4 A
    with a wider B two as well, where only A is staged (B private: two
    stages of A and B do not fit the LDS, getUKernelLDSBytes)."""
    if lhs == rhs == "f4E2M1FN":
        return (2,)
    return (1, 2) if lhs == "f4E2M1FN" else (1,)


def tune_gemm(mx_opt, lhs, rhs, jobs, timing_efficiency):
    """The entries (shape, options, static and timing us of both) of one
    pair's large GEMMs that win by the module docstring's rule."""
    settings = sweep_settings()
    todo = [""] + ["intrinsic=16x16x128 intrinsics-m=%d intrinsics-n=%d "
                   "intrinsics-k=%d subgroups-m=1 subgroups-n=4 split-k=1"
                   % (im, inn, ik) for im, inn in WAVE_TILES
                   for ik in k_steps_16(lhs, rhs)] + [
                       "intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 "
                       "intrinsics-k=%d subgroups-m=1 subgroups-n=4 "
                       "split-k=1" % ik for ik in K32_STEPS]
    with multiprocessing.Pool(jobs) as pool:
        base = dict(pool.map(gemm_times, [(mx_opt, lhs, rhs, o, settings[:1])
                                          for o in todo]))
    if isinstance(base[""], str):
        print("%s x %s: the resolver's layout fails: %s" % (lhs, rhs, base[""]))
        return []
    heuristic_layouts = base[""][1]
    # Candidates the resolver does not already pick that win at the
    # baseline on both models, then the sweep for them and the heuristic.
    promising = []
    for options in todo[1:]:
        result = base[options]
        if isinstance(result, str):
            print("  %s: %s" % (options, result))
            continue
        times, layouts = result
        if layouts == heuristic_layouts:
            continue
        ratio = worst_ratio(times, base[""][0])
        print("%s x %s, %s: baseline %s" % (
            lhs, rhs, options, ", ".join("%s %.3f (%s)" % (n, r, w)
                                         for n, (r, w) in ratio.items())),
              flush=True)
        if any(r <= 0.98 for r, _ in ratio.values()):
            promising.append(options)
    if not promising:
        return []
    with multiprocessing.Pool(jobs) as pool:
        swept = dict(pool.map(gemm_times, [(mx_opt, lhs, rhs, o, settings)
                                           for o in [""] + promising]))
    entries = []
    for name, m, n, k in GEMM_SHAPES:
        best = None
        for options in promising:
            if isinstance(swept[options], str):
                continue
            times = swept[options][0]
            base_ratio = worst_ratio(
                {key: v for key, v in times.items() if key[0] == "baseline"},
                swept[""][0])[name][0]
            sweep_ratio, where = worst_ratio(times, swept[""][0])[name]
            print("  %s: %s worst over the sweep %.3f (%s; baseline %.3f)"
                  % (name, options, sweep_ratio, where, base_ratio),
                  flush=True)
            if base_ratio <= 0.98 and sweep_ratio < 1.0 and (
                    best is None or base_ratio < best[1]):
                best = (options, base_ratio)
        if best:
            pf = 2 * m * n * k / 1e15
            mine = swept[best[0]][0][("baseline", name)]
            theirs = swept[""][0][("baseline", name)]
            entries.append(dict(
                m=m, n=n, k=k, lhs=lhs, rhs=rhs, options=best[0],
                comment="%dx%dx%d: %.2f / %.2f PF/s static / timing "
                "(heuristic: %.2f / %.2f), faster under the whole sweep"
                % (m, n, k, pf / mine[0], pf / mine[1] * timing_efficiency,
                   pf / theirs[0], pf / theirs[1] * timing_efficiency)))
    return entries


def pins_text(options):
    names = {"intrinsics-m": "intrinsics_m", "intrinsics-n": "intrinsics_n",
             "intrinsics-k": "intrinsics_k", "subgroups-m": "subgroups_m",
             "subgroups-n": "subgroups_n", "split-k": "split_k"}
    items = [kv.split("=") for kv in options.split()
             if not kv.startswith("intrinsic=")]
    intrinsic = "16x16x128"
    for kv in options.split():
        if kv.startswith("intrinsic="):
            intrinsic = kv.split("=")[1]
    return "#mx_gfx950.target<intrinsic = mfma_scale_%s, %s>" % (
        intrinsic, ", ".join("%s = %s" % (names[k], v) for k, v in items))


HEADER = """// RUN: mx-opt %s | FileCheck %s
// CHECK: mx_gfx950.configs

// Tuned gfx950 configurations, consulted by the resolver before its
// heuristic (#mx_gfx950.target's config_table; docs/guides/tuning.md).
// Each entry pins the layout and split-K of the contractions of its element
// types with M in [m[0], m[1]] and exactly N and K; the comment gives the
// predicted time of the tuned and of the heuristic's configuration (decode:
// bench/decode_metrics.py's model; large GEMMs: both models, the static
// and the ISA executor's timing model; bench/README.md).
{commands}
"""


def decode_entries(args, shapes):
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
        entries.append(dict(
            m=(lo, hi), n=n, k=k, lhs=lhs, rhs=rhs, options=options,
            comment="%dx%dx%d: %.2f us (heuristic: %s us)"
            % (m, n, k, us, "%.2f" % baseline if baseline else "-")))
    return entries


ENTRY = re.compile(r"(?P<comment>  // [^\n]*\n)?  \{lhs_type = (?P<lhs>\w+), "
                   r"rhs_type = (?P<rhs>\w+), m = array<i64: (?P<lo>\d+), "
                   r"(?P<hi>\d+)>, n = (?P<n>\d+), k = (?P<k>\d+),\n"
                   r"\s*pins = [^\n]*\}")


def entry_text(e):
    lo, hi = e["m"] if isinstance(e["m"], tuple) else (e["m"], e["m"])
    return ("  // %s\n  {lhs_type = %s, rhs_type = %s, m = array<i64: %d, "
            "%d>, n = %d, k = %d,\n   pins = %s}"
            % (e["comment"], e["lhs"], e["rhs"], lo, hi, e["n"], e["k"],
               pins_text(e["options"])))


def kept_entries(path, tuned):
    """The entries of the table at `path` (their text) whose key (types, M
    range, N, K) is not in `tuned`, and the commands that wrote it."""
    if not os.path.exists(path):
        return [], []
    text = open(path).read()
    commands = re.findall(r"^// Written by `([^`]*)`", text, re.M)
    kept = []
    for match in ENTRY.finditer(text):
        key = (match["lhs"], match["rhs"], int(match["lo"]), int(match["hi"]),
               int(match["n"]), int(match["k"]))
        if key not in tuned:
            kept.append(match.group(0).rstrip(","))
    return kept, commands


def entry_key(e):
    lo, hi = e["m"] if isinstance(e["m"], tuple) else (e["m"], e["m"])
    return (e["lhs"], e["rhs"], lo, hi, e["n"], e["k"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mx-opt", default="build/bin/mx-opt")
    parser.add_argument("--shapes", default="decode,contest",
                        help="groups of bench/decode_metrics.py ('' for none)")
    parser.add_argument("--shape", action="append", default=[],
                        help="M,N,K,A,B (e.g. 1,8192,8192,f8E4M3FN,f8E4M3FN)")
    parser.add_argument("--gemm", default="",
                        help="element type pairs A:B of the large GEMMs to "
                        "tune ('all': the 25)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="ukernels/gfx950/configs/table.mlir")
    parser.add_argument("--update", action="store_true",
                        help="keep the table's entries of other shapes")
    args = parser.parse_args()
    shapes = []
    for group in filter(None, args.shapes.split(",")):
        for _, m, n, k, lhs, rhs, _, _ in dm.SHAPES[group]:
            shapes.append((m, n, k, lhs, rhs))
    for text in args.shape:
        m, n, k, lhs, rhs = text.split(",")
        shapes.append((int(m), int(n), int(k), lhs, rhs))
    pairs = [tuple(p.split(":")) for p in args.gemm.split(",") if p]
    if args.gemm == "all":
        pairs = list(itertools.product(TYPES, TYPES))
    entries = decode_entries(args, shapes)
    tuned = {entry_key(dict(m=bucket(m), n=n, k=k, lhs=lhs, rhs=rhs))
             for m, n, k, lhs, rhs in shapes}
    if pairs:
        with tempfile.TemporaryDirectory() as tmp:
            efficiency = mx_timing.calibration(tmp)["efficiency"]
        for lhs, rhs in pairs:
            entries += tune_gemm(args.mx_opt, lhs, rhs, args.jobs, efficiency)
            tuned |= {(lhs, rhs, m, m, n, k) for _, m, n, k in GEMM_SHAPES}
    texts = [entry_text(e) for e in entries]
    command = shlex.join(["bench/mx_tune.py"] + sys.argv[1:])
    commands = [command]
    if args.update:
        kept, old_commands = kept_entries(args.out, tuned)
        texts = kept + texts
        commands = [c for c in old_commands if c != command] + commands
    with open(args.out, "w") as out:
        out.write(HEADER.format(commands="\n".join(
            "// Written by `%s`" % c for c in commands)))
        out.write("module attributes {mx_gfx950.configs = [\n")
        out.write(",\n".join(texts))
        out.write("\n]} {\n}\n")
    print("wrote %d entries to %s" % (len(texts), args.out))


if __name__ == "__main__":
    main()
