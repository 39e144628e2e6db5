#!/usr/bin/env python3
"""Arithmetic probes of the gfx950 scaled MFMA (v_mfma_scale_f32_*).

The emulator implements two models of the instruction's arithmetic
(mx-run --mfma-arithmetic=exact|cdna3-grouped, bench/README.md); gfx950's
internals are unpublished. These probes are single-instruction inputs, in
the manner of MMA-Sim's closed-loop probing of CDNA1-3, each built so that
the result tells one property of the arithmetic apart: summation grouping
and order, alignment and truncation width, rounding of the accumulator add,
denormals and specials, scale application. Each probe's result under both
models is derived by hand below (the comment of each probe); the script
runs the probes through mx-run and

  * on the emulator (default): checks that each model gives the derived
    value (exit 1 otherwise) and prints which probes tell the models apart;
  * with --backend=hip on a gfx950 GPU: prints what the hardware gives and
    which model (if any) each probe matches, i.e. which arithmetic policy
    the emulator should use, or which property needs a new one.

Probe p sits in row p of A and B (E4M3 elements, one E8M0 scale per 32 K
values, 127 = 1.0 unless stated) and C[p, p] of the 16x16x128 GEMM of
bench/probes/mfma_probes.mlir, compiled to one MFMA per output tile.

Usage: bench/mfma_probes.py [--backend=gfx950-emu|hip] [--intrinsic=...]
                            [--vectors DIR] [--check]
(MX_BUILD_DIR selects the build, default ./build.)
"""

import argparse
import math
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MX_BUILD_DIR", os.path.join(ROOT, "build"))
MX_RUN = os.path.join(BUILD, "bin", "mx-run")
PROGRAM = os.path.join(ROOT, "bench", "probes", "mfma_probes.mlir")
MX_RUN_PATH = [MX_RUN]
M, K, BLOCKS = 16, 128, 4
# K = 128 is one 16x16x128 instruction per output tile (two 32x32x64 ones:
# the probes use K < 64 only); the ukernel needs intrinsics_m * intrinsics_k
# to be a multiple of 4, so M and N are padded to 64 (zero rows).
PINS = {"16x16x128": "intrinsic=16x16x128 intrinsics-m=4 intrinsics-n=4 "
                     "intrinsics-k=1 subgroups-m=1 subgroups-n=1",
        "32x32x64": "intrinsic=32x32x64 intrinsics-m=4 intrinsics-n=4 "
                    "intrinsics-k=1 subgroups-m=1 subgroups-n=1"}


def e4m3(value):
    """The E4M3FN code of `value` (exactly representable, or NaN)."""
    if isinstance(value, str):
        return {"nan": 0x7F}[value]
    sign = 0x80 if value < 0 or (value == 0 and math.copysign(1, value) < 0) \
        else 0
    v = abs(value)
    if v == 0:
        return sign
    e = math.floor(math.log2(v))
    if e < -6:  # subnormal: m / 8 * 2^-6
        m = v / 2.0 ** -9
        assert m == int(m) and m < 8, value
        return sign | int(m)
    m = (v / 2.0 ** e - 1) * 8
    assert m == int(m) and 1 <= e + 7 <= 15, value
    code = sign | ((e + 7) << 3) | int(m)
    assert code & 0x7F != 0x7F, value
    return code


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


INF, NAN = float("inf"), float("nan")
T = 2.0 ** 12  # the large term of the alignment probes
# Each probe: name, what it tells, {k: (a, b)}, {block: (sa, sb)}, C,
# expected under exact, expected under cdna3-grouped. Derivations: ulp(2^12)
# is 2^-11 above and 2^-12 below 2^12; "tie" is a tie to even.
PROBES = [
    ("baseline", "1 x 1 + 0",
     {0: (1.0, 1.0)}, {}, 0.0, 1.0, 1.0),
    # Even positions 0, 2, 4: 2^12, 2^-12, 2^-13. Exact: 2^12 + 1.5 * 2^-12
    # rounds up. Grouped: aligned to 2^(12-24), 2^-13 is truncated; 2^12 +
    # 2^-12 is a tie: 2^12.
    ("align-width", "products aligned to 24 fractional bits, truncated",
     {0: (64.0, 64.0), 2: (2.0 ** -6, 2.0 ** -6), 4: (2.0 ** -6, 2.0 ** -7)},
     {}, 0.0, T + 2.0 ** -11, T),
    # As align-width but the two 2^-13 at odd positions 1 and 3: grouped,
    # the odd half aligns to its own maximum (2^-13) and sums them exactly
    # (2^-12), so both models give 2^12 + 2^-11; a model truncating every
    # product to the group's alignment would give 2^12 (tie).
    ("halves", "even/odd halves aligned separately before they are added",
     {0: (64.0, 64.0), 2: (2.0 ** -6, 2.0 ** -6), 1: (2.0 ** -6, 2.0 ** -7),
      3: (2.0 ** -6, 2.0 ** -7)}, {}, 0.0, T + 2.0 ** -11, T + 2.0 ** -11),
    # 2^12 + 2^-12 in K 0..15, 2^-12 in K 16..31. Exact: 2^12 + 2^-11.
    # Grouped: each group is rounded into acc: two ties, 2^12.
    ("group-of-16", "the accumulator rounded after each group of 16 K",
     {0: (64.0, 64.0), 2: (2.0 ** -6, 2.0 ** -6), 16: (2.0 ** -6, 2.0 ** -6)},
     {}, 0.0, T + 2.0 ** -11, T),
    # group-of-16's terms in the other order: 2^-12 + 2^-12 first (exact
    # 2^-11), then 2^12: 2^12 + 2^-11 under both; with group-of-16 it shows
    # the grouped model's K order.
    ("group-order", "group-of-16 with the groups swapped (K order)",
     {0: (2.0 ** -6, 2.0 ** -6), 2: (2.0 ** -6, 2.0 ** -6), 16: (64.0, 64.0)},
     {}, 0.0, T + 2.0 ** -11, T + 2.0 ** -11),
    # C = 1 + 3 * 2^-23, product 4. Exact: 5 + 3 * 2^-23 rounds up to
    # 5 + 2^-21. Grouped: acc is truncated to 2^(2-24) units (1 + 2^-22):
    # 5 + 2^-22 is a tie: 5.
    ("acc-truncation", "C truncated to 24 bits below the group's exponent",
     {0: (2.0, 2.0)}, {}, f32_bits(0x3F800003), 5.0 + 2.0 ** -21, 5.0),
    # C = 2^-14 under 2^12 + 2^-12: exact rounds up (above the tie);
    # grouped drops C (more than 25 binades below): tie, 2^12.
    ("acc-drop", "a C far below the products is dropped",
     {0: (64.0, 64.0), 2: (2.0 ** -6, 2.0 ** -6)}, {}, 2.0 ** -14,
     T + 2.0 ** -11, T),
    # C = 2^12, products 2^-12 + 2^-13 (one group): the sum keeps 31 bits
    # under C's exponent: 2^12 + 1.5 * 2^-12 rounds up under both.
    ("acc-large", "products far below C keep 31 bits (contrast acc-drop)",
     {0: (2.0 ** -6, 2.0 ** -6), 2: (2.0 ** -6, 2.0 ** -7)}, {}, T,
     T + 2.0 ** -11, T + 2.0 ** -11),
    # 2^12 at an even position, -2^-13 at an odd one. Exact: 2^12 - 2^-13 is
    # a tie between 2^12 - 2^-12 and 2^12: 2^12 (even). Grouped: the odd
    # half is rounded toward -infinity to 2^-12 units: 2^12 - 2^-12.
    ("floor-negative", "halves rounded toward -infinity (negative terms)",
     {0: (64.0, 64.0), 1: (-(2.0 ** -6), 2.0 ** -7)}, {}, 0.0,
     T, T - 2.0 ** -12),
    # Scales 2^-70 * 2^-70 on 1 x 1: 2^-140, an f32 subnormal; a flush to
    # zero would give 0.
    ("f32-subnormal", "a subnormal f32 result is kept",
     {0: (1.0, 1.0)}, {0: (57, 57)}, 0.0, 2.0 ** -140, 2.0 ** -140),
    # The smallest E4M3 subnormal, 2^-9, times 1: kept (not flushed).
    ("e4m3-subnormal", "subnormal elements are kept",
     {0: (2.0 ** -9, 1.0)}, {}, 0.0, 2.0 ** -9, 2.0 ** -9),
    # Scales 2^127 and 2^-127 of block 1 (K 32..63) cancel exactly; block 0
    # adds 1: 2. A saturating or separately applied scale would differ.
    ("scale-extremes", "extreme scales of one block applied as a product",
     {0: (1.0, 1.0), 32: (1.0, 1.0)}, {1: (254, 0)}, 0.0, 2.0, 2.0),
    # 448 * 448 * 2^127 * 2^127 overflows f32: +Inf.
    ("overflow", "a finite product beyond f32 gives +Inf",
     {0: (448.0, 448.0)}, {0: (254, 254)}, 0.0, INF, INF),
    # Scale byte 0xFF is NaN (OCP MX): the result is NaN.
    ("nan-scale", "E8M0 0xFF is NaN",
     {0: (1.0, 1.0)}, {0: (255, 127)}, 0.0, NAN, NAN),
    # The E4M3 NaN code times 1: NaN.
    ("nan-element", "an E4M3 NaN element",
     {0: ("nan", 1.0)}, {}, 0.0, NAN, NAN),
    # C = -Inf plus a finite product: -Inf.
    ("inf-acc", "C = -Inf stays -Inf",
     {0: (1.0, 1.0)}, {}, -INF, -INF, -INF),
]
assert len(PROBES) == M


def write_vectors(directory):
    """Writes A, B, SA, SB and C of the probes; returns their paths."""
    a = bytearray(M * K)
    b = bytearray(M * K)
    sa = bytearray([127] * (M * BLOCKS))
    sb = bytearray([127] * (M * BLOCKS))
    c = [0.0] * (M * M)
    for p, (_, _, terms, scales, acc, _, _) in enumerate(PROBES):
        for k, (x, y) in terms.items():
            a[p * K + k] = e4m3(x)
            b[p * K + k] = e4m3(y)
        for block, (x, y) in scales.items():
            sa[p * BLOCKS + block] = x
            sb[p * BLOCKS + block] = y
        c[p * M + p] = acc
    paths = {}
    for name, data in [("A_e4m3", a), ("B_e4m3", b), ("SA_e8m0", sa),
                       ("SB_e8m0", sb),
                       ("C_f32", struct.pack("<%df" % (M * M), *c))]:
        paths[name] = os.path.join(directory, name + ".bin")
        with open(paths[name], "wb") as f:
            f.write(bytes(data))
    return paths


def run(paths, backend, arithmetic, intrinsic, directory):
    """The diagonal of the probe GEMM on `backend`."""
    out = os.path.join(directory, "R_%s_%s.bin" % (backend, arithmetic))
    cmd = [MX_RUN_PATH[0], PROGRAM, "--backend=" + backend,
           "--gfx950-options=" + PINS[intrinsic]]
    if backend == "gfx950-emu":
        cmd += ["--mfma-arithmetic=" + arithmetic, "--threads=1"]
    for name in ["A_e4m3", "B_e4m3", "SA_e8m0", "SB_e8m0", "C_f32"]:
        cmd.append("--arg=file:" + paths[name])
    cmd.append("--out=" + out)
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode:
        sys.exit("mx-run failed (%s):\n%s" % (" ".join(cmd),
                                              result.stdout + result.stderr))
    with open(out, "rb") as f:
        values = struct.unpack("<%df" % (M * M), f.read())
    return [values[p * M + p] for p in range(M)]


def same(x, y):
    """Bitwise-equal as f32 (NaN equals NaN)."""
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return struct.pack("<f", x) == struct.pack("<f", y)


def show(x):
    return "%.10g" % x if math.isfinite(x) else str(x)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--backend", default="gfx950-emu",
                        choices=["gfx950-emu", "hip"])
    parser.add_argument("--intrinsic", default="16x16x128", choices=PINS)
    parser.add_argument("--mx-run", default=MX_RUN,
                        help="the mx-run to use (default: MX_BUILD_DIR's)")
    parser.add_argument("--vectors", help="write the input files here")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the emulator gives the derived "
                        "value of every probe under both models")
    args = parser.parse_args()
    MX_RUN_PATH[0] = args.mx_run
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.vectors or tmp
        os.makedirs(directory, exist_ok=True)
        paths = write_vectors(directory)
        exact = run(paths, "gfx950-emu", "exact", args.intrinsic, tmp)
        grouped = run(paths, "gfx950-emu", "cdna3-grouped", args.intrinsic,
                      tmp)
        hardware = (run(paths, "hip", "", args.intrinsic, tmp)
                    if args.backend == "hip" else None)
    failures = 0
    header = "%-15s %-16s %-16s %-12s" % ("probe", "exact", "cdna3-grouped",
                                          "tells apart")
    if hardware:
        header += " %-16s %s" % ("gfx950", "matches")
    print(header)
    for p, (name, what, _, _, _, want_exact, want_grouped) in \
            enumerate(PROBES):
        for got, want, model in [(exact[p], want_exact, "exact"),
                                 (grouped[p], want_grouped, "cdna3-grouped")]:
            if not same(got, f32(want)):
                failures += 1
                print("MISMATCH %s under %s: emulator %s, derived %s"
                      % (name, model, show(got), show(want)))
        line = "%-15s %-16s %-16s %-12s" % (
            name, show(exact[p]), show(grouped[p]),
            "no" if same(exact[p], grouped[p]) else "yes")
        if hardware:
            matches = [m for m, v in [("exact", exact[p]),
                                      ("cdna3-grouped", grouped[p])]
                       if same(hardware[p], v)]
            line += " %-16s %s" % (show(hardware[p]),
                                   ",".join(matches) or "neither")
        print(line + "  # " + what)
    if failures:
        print("%d probe results differ from their derivation" % failures)
    print("PASS" if not failures else "FAIL")
    return 1 if failures and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
