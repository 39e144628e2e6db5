#!/usr/bin/env python3
"""Registers, scratch and spills of one pinned GEMM tile over K step counts.

A register schedule (mx.ukernel.register_schedules in the ukernel source) is
a measured choice: the kernels it covers must compile without spills. Their
register use depends on more than the tile: on how many K steps the kernel
runs (LLVM unrolled short K loops fully before the K loop told it not to),
on whether the grid has one workgroup (constants fold into the addresses)
and on the accumulators' source. This compiles the C += A x B (or, with
--acc zero, the zero-filled) scaled contraction of each --types pair for
each grid (M = N) and each K step count through mx-gfx950-pipeline with the
--pins layout, and prints the contraction kernel's VGPRs (architected and
accumulation registers of the unified file), scratch bytes and spilled
registers as VGPRS/SCRATCH/SPILLS per step count. Exits 1 if any kernel
spills or uses scratch. With --timing it also runs one workgroup tile of
each pair (the --pins tile, M x N) at each K step count on the timing model
(bench/mx_timing.py, the build of --mx-opt) and prints its cycles, the
whole kernel's: short K loops are mostly prologue and epilogue. A kernel
the timing model cannot run (the ISA executor refuses scratch) prints "-"
and counts as a failure.

  python3 bench/register_sweep.py --types f8E4M3FN:f8E4M3FN \\
      --pins "intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 \\
              intrinsics-k=2 subgroups-m=1 subgroups-n=4 split-k=1" \\
      --steps 1,2,3,7,64 --grids 256,1024
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mx_timing  # noqa: E402
import ukernel_static_metrics as usm  # noqa: E402


def kernel_stats(mx_opt, ir, pins):
    """The report of the contraction kernel (`..._mma<N>`) of `ir`."""
    with tempfile.NamedTemporaryFile("r", suffix=".report") as report:
        subprocess.run([mx_opt, "-", "--mx-gfx950-pipeline=%s output=isa"
                        % pins,
                        "--mx-gfx950-kernel-report=output=" + report.name,
                        "-o", os.devnull],
                       input=ir, text=True, capture_output=True, check=True)
        kernels = usm.parse_report(report.read())
    mma = [stats for name, stats in kernels.items()
           if re.search(r"_mma\d+$", name)]
    if len(mma) != 1:
        raise usm.Failure("expected one contraction kernel, got %d"
                          % len(mma))
    return mma[0]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mx-opt", default=os.path.join(
        os.environ.get("MX_BUILD_DIR", "build"), "bin", "mx-opt"))
    p.add_argument("--types", required=True,
                   help="comma-separated lhs:rhs element type pairs")
    p.add_argument("--pins", required=True,
                   help="mx-gfx950-pipeline layout options (the tile)")
    p.add_argument("--steps", default="1,2,3,4,5,7,13,64",
                   help="K step counts (K = steps x the tile's K)")
    p.add_argument("--step-k", type=int, default=128,
                   help="K of one step of the pinned tile")
    p.add_argument("--grids", default="256,1024",
                   help="M = N of each problem")
    p.add_argument("--acc", choices=["arg", "zero"], default="arg")
    p.add_argument("--result", choices=["f32", "bf16", "f16"], default="f32")
    p.add_argument("--timing", action="store_true",
                   help="also the cycles of one workgroup tile per K step "
                   "count on the timing model")
    args = p.parse_args()

    steps = [int(s) for s in args.steps.split(",")]
    bad = 0
    print("VGPRs/scratch bytes/spilled registers of the contraction kernel "
          "per K step count; %s, acc %s, result %s"
          % (args.pins, args.acc, args.result))
    for grid in [int(g) for g in args.grids.split(",")]:
        for pair in args.types.split(","):
            lhs, rhs = pair.split(":")
            cells = []
            for s in steps:
                ir = usm.contraction(grid, grid, s * args.step_k, lhs, rhs,
                                     args.acc, args.result, "none")
                st = kernel_stats(args.mx_opt, ir, args.pins)
                spills = int(st["vgpr_spills"]) + int(st["sgpr_spills"])
                if spills or int(st["scratch_bytes"]):
                    bad += 1
                cells.append("%d:%s/%s/%d" % (s, st["vgprs"],
                                               st["scratch_bytes"], spills))
            print("%5d %-20s %s" % (grid, "%s x %s" % (lhs, rhs),
                                    " ".join(cells)), flush=True)
    if args.timing:
        # mx_timing's tools come from the build holding --mx-opt.
        os.environ["MX_BUILD_DIR"] = os.path.dirname(os.path.dirname(
            os.path.abspath(args.mx_opt)))
        print("cycles of one %s tile on the timing model per K step count"
              % "x".join(map(str, mx_timing.pinned_tile(args.pins))))
        for pair in args.types.split(","):
            lhs, rhs = pair.split(":")
            cells = []
            for s in steps:
                with tempfile.TemporaryDirectory() as tmp:
                    try:
                        report = mx_timing.time_mx(s * args.step_k, args.acc,
                                                   args.result, {}, tmp, lhs,
                                                   rhs, args.pins)
                    except subprocess.CalledProcessError as e:
                        # The ISA executor refuses kernels with scratch.
                        errors = [l for l in (e.stderr or "").splitlines()
                                  if "error" in l]
                        print("%s x %s, %d K steps: not timed: %s"
                              % (lhs, rhs, s, errors[0] if errors else e),
                              file=sys.stderr, flush=True)
                        cells.append("%d:-" % s)
                        bad += 1
                        continue
                cells.append("%d:%d" % (s, report["cycles"]))
            print("%5s %-20s %s" % ("tile", "%s x %s" % (lhs, rhs),
                                    " ".join(cells)), flush=True)
    if bad:
        print("%d kernels spill, use scratch or could not be timed" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
