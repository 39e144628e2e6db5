#!/usr/bin/env python3
"""The envelope between the two models of the scaled MFMA's arithmetic.

mx-run --mfma-arithmetic=exact (the exact dot product of each instruction,
one rounding to f32) against --mfma-arithmetic=cdna3-grouped (CDNA3's fp8
MFMA as MMA-Sim models it: groups of 16 products, truncated alignment, one
rounding per group), on the gfx950 emulator, for every pair of MX element
types on both intrinsics, 64 x 64 x 1024 GEMMs, on four kinds of data:

  ints    small integers (+-4) with scales in [2^-2, 2^2], integer C: exact
          in f32, so both models must agree bit for bit;
  normal  normally distributed elements, scales in [2^-2, 2^2], C = 0;
  codes   every finite code of each format, per-block scales in [2^-7, 2^7],
          normal C (the lit tests' random data);
  wide    every finite code, scales in [2^-63, 2^63], normal C.

For each: the fraction of outputs where the models disagree (same K order,
per-instruction reference with the exact arithmetic against the grouped
emulator), the largest distance in ulps and where (got: grouped, want:
exact, and |C| + sum |a*b| there), the largest |grouped - exact| relative to
|C| + sum |a*b|, the share of disagreements where the grouped model is below
the exact one, and each model's largest error against the mathematically
exact result (rounded once), relative to |C| + sum |a*b|.

Usage: bench/mfma_arithmetic.py [--jobs N] [--quick]
(MX_BUILD_DIR selects the build, default ./build.)
"""

import argparse
import concurrent.futures
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MX_BUILD_DIR", os.path.join(ROOT, "build"))
MX_RUN = os.path.join(BUILD, "bin", "mx-run")

TYPES = [("e2m1", "f4E2M1FN"), ("e2m3", "f6E2M3FN"), ("e3m2", "f6E3M2FN"),
         ("e4m3", "f8E4M3FN"), ("e5m2", "f8E5M2")]
M, N, K = 64, 64, 1024
DATA = {
    "ints": ["random:int,lo=-4,hi=4", "random:int,lo=-4,hi=4",
             "random:scales,lo=125,hi=129", "random:scales,lo=125,hi=129",
             "random:int,lo=-8,hi=8"],
    "normal": ["random:normal", "random:normal",
               "random:scales,lo=125,hi=129", "random:scales,lo=125,hi=129",
               "zeros"],
    "codes": ["random:codes", "random:codes", "random:scales",
              "random:scales", "random:normal"],
    "wide": ["random:codes", "random:codes", "random:scales,lo=64,hi=190",
             "random:scales,lo=64,hi=190", "random:normal"],
}
INTRINSICS = {"16x16x128": "intrinsic=16x16x128",
              "32x32x64": "intrinsic=32x32x64"}


def write_program(path):
    kb = K // 32
    funcs = []
    for an, at in TYPES:
        for bn, bt in TYPES:
            funcs.append(f"""func.func @{an}_{bn}(%a: tensor<{M}x{K}x{at}>, %b: tensor<{N}x{K}x{bt}>,
    %sa: tensor<{M}x{kb}xf8E8M0FNU>, %sb: tensor<{N}x{kb}xf8E8M0FNU>,
    %c: tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<{M}x{K}x{at}>, tensor<{N}x{K}x{bt}>,
                            tensor<{M}x{kb}xf8E8M0FNU>, tensor<{N}x{kb}xf8E8M0FNU>)
      outs(%c : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}""")
    with open(path, "w") as f:
        f.write("\n\n".join(funcs) + "\n")


def read_npy_f32(path):
    with open(path, "rb") as f:
        data = f.read()
    header_len = struct.unpack("<H", data[8:10])[0]
    body = data[10 + header_len:]
    return struct.unpack(f"<{len(body) // 4}f", body)


RESULT = re.compile(r"mismatches=(\d+)/(\d+)")
SUM = re.compile(r"max_err/sum\|a\*b\|=(\S+) max_ulp=(\d+) at (\[[^\]]*\]) "
                 r"\(got (\S+), want (\S+), sum\|a\*b\| (\S+)\)")


def run(program, entry, data, intrinsic, extra, out):
    args = [MX_RUN, program, f"--entry={entry}", "--backend=gfx950-emu",
            "--threads=1", "--progress=false", "--compare=reference",
            "--seed=1", f"--gfx950-options={INTRINSICS[intrinsic]}",
            "--sum-tol=1", f"--out={out}"] + [f"--arg={a}" for a in DATA[data]]
    text = subprocess.run(args + extra, capture_output=True, text=True,
                          check=False).stdout
    mismatch = RESULT.search(text)
    if not mismatch:
        sys.exit(f"mx-run failed: {' '.join(args + extra)}\n{text}")
    summary = SUM.search(text)
    return {
        "mismatches": int(mismatch.group(1)),
        "total": int(mismatch.group(2)),
        "errPerSum": float(summary.group(1)) if summary else 0.0,
        "ulp": int(summary.group(2)) if summary else 0,
        "where": (summary.group(3, 4, 5, 6) if summary else None),
    }


def measure(job):
    program, tmp, entry, data, intrinsic = job
    stem = os.path.join(tmp, f"{entry}-{data}-{intrinsic}")
    exact = run(program, entry, data, intrinsic,
                ["--reference-rounding=once"], stem + "-e.npy")
    grouped_once = run(program, entry, data, intrinsic,
                       ["--mfma-arithmetic=cdna3-grouped",
                        "--reference-rounding=once"], stem + "-g1.npy")
    versus = run(program, entry, data, intrinsic,
                 ["--mfma-arithmetic=cdna3-grouped",
                  "--reference-arithmetic=exact"], stem + "-g.npy")
    e = read_npy_f32(stem + "-e.npy")
    g = read_npy_f32(stem + "-g.npy")
    differ = [(x, y) for x, y in zip(e, g)
              if struct.pack("<f", x) != struct.pack("<f", y)
              and not (x != x and y != y)]
    below = sum(1 for x, y in differ if y < x)
    versus["share"] = 100.0 * len(differ) / len(e)
    return (entry, data, intrinsic, exact, grouped_once, versus,
            below / len(differ) if differ else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--quick", action="store_true",
                        help="only the pairs with E2M1 or E4M3 on both sides")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, "pairs.mlir")
        write_program(program)
        names = [n for n, _ in TYPES]
        if options.quick:
            names = ["e2m1", "e4m3"]
        jobs = [(program, tmp, f"{a}_{b}", data, intrinsic)
                for data in DATA for intrinsic in INTRINSICS
                for a in names for b in names]
        with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
            rows = list(pool.map(measure, jobs))

    print(f"{M}x{N}x{K} GEMMs on gfx950-emu: cdna3-grouped against exact "
          "(same K order), and each against the exact result rounded once")
    print(f"{'data':7} {'intrinsic':10} {'pair':10} {'differ':>7} "
          f"{'max ulp':>8} {'|g-e|/sum':>10} {'g<e':>5} "
          f"{'exact/sum':>10} {'grouped/sum':>11}")
    for entry, data, intrinsic, exact, grouped, versus, below in rows:
        share = versus["share"]
        print(f"{data:7} {intrinsic:10} {entry:10} {share:6.1f}% "
              f"{versus['ulp']:8d} {versus['errPerSum']:10.3g} "
              f"{'-' if below is None else f'{100 * below:4.0f}%':>5} "
              f"{exact['errPerSum']:10.3g} {grouped['errPerSum']:11.3g}")

    print("\nEnvelope per kind of data (over pairs and intrinsics):")
    for data in DATA:
        sel = [r for r in rows if r[1] == data]
        shares = [r[5]["share"] for r in sel]
        worst = max(sel, key=lambda r: r[5]["ulp"])
        worst_sum = max(sel, key=lambda r: r[5]["errPerSum"])
        belows = [r[6] for r in sel if r[6] is not None]
        print(f"  {data}: outputs that differ {min(shares):.1f}-"
              f"{max(shares):.1f}%; max |grouped - exact| / sum|a*b| = "
              f"{worst_sum[5]['errPerSum']:.3g} ({worst_sum[0]}, "
              f"{worst_sum[2]}); max ulp {worst[5]['ulp']} ({worst[0]}, "
              f"{worst[2]}, at {worst[5]['where'][0] if worst[5]['where'] else '-'}"
              f": grouped {worst[5]['where'][1] if worst[5]['where'] else '-'}"
              f", exact {worst[5]['where'][2] if worst[5]['where'] else '-'}"
              f", sum|a*b| {worst[5]['where'][3] if worst[5]['where'] else '-'})"
              f"; grouped below exact in "
              f"{(100 * sum(belows) / len(belows)) if belows else 0:.0f}% of "
              f"the differing outputs; error vs the exact result / sum|a*b|: "
              f"exact model <= {max(r[3]['errPerSum'] for r in sel):.3g}, "
              f"grouped <= {max(r[4]['errPerSum'] for r in sel):.3g}")


if __name__ == "__main__":
    main()
