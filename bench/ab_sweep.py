#!/usr/bin/env python3
"""Compares two builds of mx on the same large GEMMs over the whole sweep.

A change to a ukernel (or to the pipeline below it) is adopted only if it
is faster on both performance models and stays no slower under every
assumed constant of MachineModel.def at x0.5 and x2 (DESIGN.md,
Performance). This script runs that check: for each element type pair and
layout (the resolver's, or `--pins`), it times the large GEMMs that
bench/mx_tune.py tunes (the seed shape 10000x16384x16384 and 16384^3, C +=
A x B with an f32 C, or with `--acc zero --result bf16` from a zero-filled
accumulator) with the `--before` build and the `--after` build, on
the static model and on the ISA executor's timing model, at MachineModel.def's
constants and at each assumed one halved and doubled (mx_tune.gemm_times,
mx_tune.sweep_settings: the tuner's own measurement), and prints the
after / before time of every setting and the worst.

A build is a directory with bin/mx-opt and bin/mx-run (the ukernels are
embedded in both), e.g. a copy of build/bin made before the change:

  mkdir -p /tmp/before/bin && cp build/bin/mx-opt build/bin/mx-run /tmp/before/bin
  (change the ukernel, ninja -C build)
  python3 bench/ab_sweep.py --before /tmp/before --after build \\
      --types f6E2M3FN:f4E2M1FN --pins "intrinsic=16x16x128 intrinsics-m=8 \\
      intrinsics-n=8 intrinsics-k=1 subgroups-m=1 subgroups-n=4 split-k=1"

Exit status 1 when the after build is slower anywhere (by more than
--tolerance), 2 on a failure to compile or time a kernel.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mx_tune  # noqa: E402


def times_of(build, lhs, rhs, pins, settings, acc, result):
    """{(setting, shape): (static s, timing s)} of one build, or an error.
    mx_timing finds mx-run (and mx-opt) through MX_BUILD_DIR."""
    os.environ["MX_BUILD_DIR"] = os.path.abspath(build)
    mx_opt = os.path.join(os.path.abspath(build), "bin", "mx-opt")
    _, times = mx_tune.gemm_times((mx_opt, lhs, rhs, pins, settings, acc,
                                   result))
    return times if isinstance(times, str) else times[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True,
                        help="build directory (bin/mx-opt, bin/mx-run)")
    parser.add_argument("--after", required=True)
    parser.add_argument("--types", required=True,
                        help="comma-separated lhs:rhs element type pairs")
    parser.add_argument("--pins", default="",
                        help="mx-gfx950-pipeline layout options (default: "
                        "the resolver's layout)")
    parser.add_argument("--acc", choices=["arg", "zero"], default="arg",
                        help="C += A x B (arg) or a zero-filled "
                        "accumulator")
    parser.add_argument("--result", choices=["f32", "bf16", "f16"],
                        default="f32")
    parser.add_argument("--tolerance", type=float, default=0.0005,
                        help="after / before above 1 + this counts as "
                        "slower")
    args = parser.parse_args()
    settings = mx_tune.sweep_settings()
    status = 0
    for pair in args.types.split(","):
        lhs, rhs = pair.split(":")
        before = times_of(args.before, lhs, rhs, args.pins, settings,
                          args.acc, args.result)
        after = times_of(args.after, lhs, rhs, args.pins, settings,
                         args.acc, args.result)
        failed = False
        for name, result in (("before", before), ("after", after)):
            if isinstance(result, str):
                print("%s x %s: the %s build fails: %s"
                      % (lhs, rhs, name, result))
                failed = True
        if failed:
            status = 2
            continue
        print("%s x %s%s, %s: after / before, GEMM time"
              % (lhs, rhs, " (%s)" % args.pins if args.pins else "",
                 "C += A x B, %s" % args.result if args.acc == "arg"
                 else "from zero, %s" % args.result))
        print("%-34s %-10s %8s %8s" % ("setting", "shape", "static",
                                       "timing"))
        worst = (0.0, "")
        for key in sorted(before, key=lambda k: (k[0] != "baseline", k)):
            ratios = [a / b for a, b in zip(after[key], before[key])]
            slower = any(r > 1 + args.tolerance for r in ratios)
            print("%-34s %-10s %8.4f %8.4f%s"
                  % (key[0], key[1], ratios[0], ratios[1],
                     "  slower" if slower else ""))
            for model, ratio in zip(("static", "timing"), ratios):
                if ratio > worst[0]:
                    worst = (ratio, "%s, %s, %s" % (model, key[0], key[1]))
            if slower:
                status = max(status, 1)
        print("worst: %.4f (%s)\n" % worst)
    return status


if __name__ == "__main__":
    sys.exit(main())
