#!/usr/bin/env python3
"""A hand-written kernel as an outside witness for the gfx950 ISA executor.

Runs AITER's MXFP4 GEMM code object (f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256
from ROCm/aiter; never committed here, its path is an argument) on mx's ISA
executor (`mx-isa --run`), with operands laid out by mx's own AITER layouts
(the `#aiter_e8m0_shuffle` and `#aiter_shuffle_weight` maps of mx.quantize_into,
as in test/Integration/GFX950/emulator-quantize-library-layouts.mlir), and
compares its bf16 output with
  (a) an independent reference computed here from the logical codes and
      scales (E2M1 decode, scale 2^(s-127), f64 sums, f32 then bf16 RNE), and
  (b) mx's own kernel on the same logical data (`mx-run --backend=gfx950-isa`
      on an mx.scaled_contraction with a bf16 result).

The data is exact: fp4 values in {0, +-0.5, ..., +-6} and per-block distinct
e8m0 scales in 2^-1..2^1, so every product and partial sum is exact in f32
and the bf16 rounding of the result is the only rounding. Each 32-block holds
one +-6, so quantizing value * scale back gives exactly these codes and
scales (the layouts come from mx's quantize, and the script checks that mx
wrote its layouts as the maps say).

The kernel's arguments follow AITER's launcher (csrc/py_itfs_cu/
asm_gemm_a4w4.cu, KernelArgs: every field 16-byte aligned; the kernel reads
stride_C0 as D's row stride; log2_k_split > 0 selects the atomic epilogue,
which adds bf16 partial sums into a zeroed D with buffer_atomic_pk_add_bf16).

Usage:
  git -C /work/.mirror/ROCm+aiter/repo show \\
    HEAD:hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4_BpreShuffle_256x256.co \\
    > /tmp/aiter.co
  python3 bench/aiter_witness.py --co /tmp/aiter.co [--m 512 --n 512 --k 512]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aiter_f4gemm import KERNEL, k_parts, kernarg_flags, launch_flags  # noqa: E402

FP4_VALUES = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], dtype=np.float64)

SHUFFLE_WEIGHT = ("(n, k) -> (n floordiv 16, k floordiv 64, "
                  "(k mod 64) floordiv 32, n mod 16, k mod 32)")
E8M0_SHUFFLE = ("(m, kb) -> (m floordiv 32, kb floordiv 8, kb mod 4, m mod 16, "
                "(kb mod 8) floordiv 4, (m mod 32) floordiv 16)")


def decode_fp4(codes):
    value = FP4_VALUES[codes & 7]
    return np.where(codes & 8, -value, value)


def f32_to_bf16_rne(x32):
    """bf16 bits of float32 array x32 (round to nearest even; no NaNs here)."""
    bits = x32.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_to_f32(bits):
    return (np.asarray(bits, np.uint32).reshape(-1) << 16).view(np.float32)


def pack_fp4(codes):
    """Element 2i in the low nibble of byte i (mx's file format and AITER's)."""
    flat = codes.reshape(-1).astype(np.uint8)
    return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)


def unpack_fp4(packed, n):
    out = np.empty(2 * packed.size, dtype=np.uint8)
    out[0::2] = packed & 0xF
    out[1::2] = packed >> 4
    return out[:n]


def make_data(m, n, k, seed):
    """Logical codes (one per element) and e8m0 scales, per-block distinct."""
    rng = np.random.default_rng(seed)
    # Codes of {0, +-0.5, +-1, +-1.5, +-2, +-3, +-4} (no -0), then one +-6 in
    # every 32-block so that quantizing value * scale yields this scale.
    small = np.array([0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14], np.uint8)

    def codes(rows):
        c = rng.choice(small, size=(rows, k)).astype(np.uint8)
        pos = rng.integers(0, 32, size=(rows, k // 32))
        sign = rng.integers(0, 2, size=(rows, k // 32)).astype(np.uint8)
        for b in range(k // 32):
            c[np.arange(rows), b * 32 + pos[:, b]] = 7 | (sign[:, b] << 3)
        return c

    def scales(rows):
        # 2^-1, 2^0, 2^1, chosen so that neighbouring blocks differ.
        s = rng.integers(126, 129, size=(rows, k // 32)).astype(np.uint8)
        for b in range(1, k // 32):
            same = s[:, b] == s[:, b - 1]
            s[same, b] = 126 + (s[same, b] - 126 + 1) % 3
        return s

    return codes(m), codes(n), scales(m), scales(n)


def reference(a, b, sa, sb):
    """D = A B^T with block scales, f64 sums, then f32 and bf16 (RNE)."""
    av = decode_fp4(a) * np.exp2(np.repeat(sa.astype(np.float64) - 127, 32, 1))
    bv = decode_fp4(b) * np.exp2(np.repeat(sb.astype(np.float64) - 127, 32, 1))
    return f32_to_bf16_rne((av @ bv.T).astype(np.float32))


def split_reference(a, b, sa, sb, k_per_part):
    """What a K split with bf16 atomics computes: each part's sum rounded
    to f32 and bf16 (the kernel's epilogue), the parts added into a zeroed
    D in bf16, each add rounded to nearest even (in part order; with two
    parts the order does not matter)."""
    k = a.shape[1]
    acc = np.zeros((a.shape[0], b.shape[0]), np.uint16)
    for k0 in range(0, k, k_per_part):
        part = reference(a[:, k0:k0 + k_per_part], b[:, k0:k0 + k_per_part],
                         sa[:, k0 // 32:(k0 + k_per_part) // 32],
                         sb[:, k0 // 32:(k0 + k_per_part) // 32])
        total = (bf16_to_f32(acc).astype(np.float64)
                 + bf16_to_f32(part).astype(np.float64))
        # The sum of two bf16 values of this data is exact in f32, so
        # rounding f32 to bf16 is the single rounding of the add.
        assert np.array_equal(total.astype(np.float32).astype(np.float64), total)
        acc = f32_to_bf16_rne(total.astype(np.float32)).reshape(acc.shape)
    return acc


def eval_map(kind, shape):
    """Python evaluation of mx's AITER maps (for the layout cross-check):
    the destination coordinates of every logical index, as a flat index
    into the destination tensor of the map's shape."""
    rows, cols = shape
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    if kind == "weight":
        coords = (i // 16, j // 64, (j % 64) // 32, i % 16, j % 32)
        dims = (rows // 16, cols // 64, 2, 16, 32)
    else:
        coords = (i // 32, j // 8, j % 4, i % 16, (j % 8) // 4, (i % 32) // 16)
        dims = (rows // 32, cols // 8, 4, 16, 2, 2)
    return np.ravel_multi_index(coords, dims), dims


def run(cmd, what):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(f"{what} failed ({proc.returncode}):\n"
                         f"  {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
        sys.exit(1)
    return proc.stdout


def tensor(dims, elem):
    return "tensor<" + "x".join(str(d) for d in dims) + "x" + elem + ">"


def layout_program(m, n, k):
    """mx.quantize_into from bf16 into AITER's operand layouts."""
    _, sw = eval_map("weight", (n, k))
    _, sa_dims = eval_map("scale", (m, k // 32))
    _, sb_dims = eval_map("scale", (n, k // 32))
    ta, tsa = tensor((m, k), "f4E2M1FN"), tensor(sa_dims, "f8E8M0FNU")
    tb, tsb = tensor(sw, "f4E2M1FN"), tensor(sb_dims, "f8E8M0FNU")

    def quantize(x, rows, te, ts, emap):
        return f"""
  %{x}e0 = tensor.empty() : {te}
  %{x}s0 = tensor.empty() : {ts}
  %{x}e, %{x}s = mx.quantize_into %{x} axis(1) scale(even) rounding(nearest_even)
      : {tensor((rows, k), "bf16")} -> f4E2M1FN
      elements(%{x}e0 : {te}) maps [{emap}]
      scales(%{x}s0 : {ts}) maps [#aiter_e8m0_shuffle] padding [127]
      -> {te}, {ts}"""

    return f"""#identity = affine_map<(m, k) -> (m, k)>
#aiter_e8m0_shuffle = affine_map<{E8M0_SHUFFLE}>
#aiter_shuffle_weight = affine_map<{SHUFFLE_WEIGHT}>
func.func @aiter_operands(%a: {tensor((m, k), "bf16")},
    %b: {tensor((n, k), "bf16")}) -> ({ta}, {tsa}, {tb}, {tsb}) {{
{quantize("a", m, ta, tsa, "#identity")}
{quantize("b", n, tb, tsb, "#aiter_shuffle_weight")}
  return %ae, %as, %be, %bs : {ta}, {tsa}, {tb}, {tsb}
}}
"""


def gemm_program(m, n, k):
    ta, tb = tensor((m, k), "f4E2M1FN"), tensor((n, k), "f4E2M1FN")
    tsa = tensor((m, k // 32), "f8E8M0FNU")
    tsb = tensor((n, k // 32), "f8E8M0FNU")
    tc, td = tensor((m, n), "f32"), tensor((m, n), "bf16")
    return f"""func.func @gemm(%a: {ta}, %b: {tb}, %sa: {tsa}, %sb: {tsb}) -> {td} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {tc}
  %c = linalg.fill ins(%zero : f32) outs(%e : {tc}) -> {tc}
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : {ta}, {tb}, {tsa}, {tsb})
      outs(%c : {tc}) -> {tc}
  %t = arith.truncf %r : {tc} to {td}
  return %t : {td}
}}
"""


def verdict(name, got, want):
    bad = np.argwhere(got != want)
    if bad.size == 0:
        print(f"{name}: bit-exact ({got.size} bf16 values)")
        return True
    r, c = bad[0]
    print(f"{name}: {len(bad)} of {got.size} bf16 values differ; first at "
          f"[{r}, {c}]: {bf16_to_f32(got[r, c])[0]} (0x{got[r, c]:04x}) vs "
          f"{bf16_to_f32(want[r, c])[0]} (0x{want[r, c]:04x})")
    return False


def mx_layouts(tools, tmp, a, b, sa, sb, m, n, k):
    """A, B and both scales in AITER's layouts, written by mx's quantize."""
    prog = os.path.join(tmp, "layouts.mlir")
    with open(prog, "w") as f:
        f.write(layout_program(m, n, k))
    scale_a = np.exp2(np.repeat(sa.astype(np.float64) - 127, 32, 1))
    scale_b = np.exp2(np.repeat(sb.astype(np.float64) - 127, 32, 1))
    for name, x in (("a", decode_fp4(a) * scale_a), ("b", decode_fp4(b) * scale_b)):
        # bf16 holds these exactly: at most 2 significant bits.
        f32_to_bf16_rne(x.astype(np.float32)).tofile(os.path.join(tmp, name + ".bf16"))
    outs = [os.path.join(tmp, f) for f in ("A.bin", "SA.bin", "B.bin", "SB.bin")]
    run([os.path.join(tools, "mx-run"), prog, "--entry=aiter_operands",
         "--backend=gfx950-emu",
         "--arg=file:" + os.path.join(tmp, "a.bf16"),
         "--arg=file:" + os.path.join(tmp, "b.bf16")]
        + ["--out=" + o for o in outs], "mx-run (AITER layouts)")
    # Cross-check: mx's bytes are the logical data placed as the maps say.
    ok = True
    got_a = unpack_fp4(np.fromfile(outs[0], np.uint8), m * k).reshape(m, k)
    got_b = unpack_fp4(np.fromfile(outs[2], np.uint8), n * k)
    flat_b, _ = eval_map("weight", (n, k))
    ok &= np.array_equal(got_a, a) and np.array_equal(got_b[flat_b], b)
    for path, s, rows in ((outs[1], sa, m), (outs[3], sb, n)):
        flat, _ = eval_map("scale", (rows, k // 32))
        ok &= np.array_equal(np.fromfile(path, np.uint8)[flat], s)
    print("mx AITER layouts (quantize_into maps) vs the maps evaluated here: "
          + ("identical" if ok else "DIFFERENT"))
    return outs, ok


def run_aiter(tools, co, tmp, outs, m, n, k, log2_k_split):
    d = os.path.join(tmp, f"D_aiter_{log2_k_split}.bin")
    a_path, sa_path, b_path, sb_path = outs
    cmd = [os.path.join(tools, "mx-isa"), co, "--run"]
    cmd += launch_flags(m, n, k, log2_k_split)
    cmd += [f"--buffer=D=zeros:{m * n * 2}",
            "--buffer=A=" + a_path, "--buffer=B=" + b_path,
            "--buffer=SA=" + sa_path, "--buffer=SB=" + sb_path,
            "--out=D=" + d]
    cmd += kernarg_flags(m, n, k, log2_k_split)
    # First with the wait-state checker; a hazard it reports is printed (it
    # is a finding about the kernel or the table, not a numerical result)
    # and the launch is repeated without it to get the numbers.
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 and "wait-state hazard" in proc.stderr:
        rule = proc.stderr.split("rule ", 1)[1].split(" ", 1)[0]
        where = proc.stderr.split("): producer ", 1)[-1].strip()
        print(f"  wait-state checker: rule {rule}: producer {where}")
        print("  (repeated with --check-hazards=false for the numbers)")
        cmd.append("--check-hazards=false")
    elif proc.returncode == 0:
        print("  wait-state checker: no hazard")
    out = run(cmd, f"mx-isa (AITER kernel, log2_k_split={log2_k_split})")
    for line in out.splitlines():
        if "MFMA" in line or "instructions" in line:
            print("  " + line.strip())
    return np.fromfile(d, np.uint16).reshape(m, n), k_parts(k, log2_k_split)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--co", required=True, help="AITER's .co file")
    parser.add_argument("--m", type=int, default=512)
    parser.add_argument("--n", type=int, default=512)
    parser.add_argument("--k", type=int, default=512)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--log2-k-split", type=int, nargs="*", default=[0, 1],
                        help="runs of the kernel (0: stores, >0: atomics)")
    parser.add_argument("--control", type=int, default=1,
                        help="1: also run with B not pre-shuffled, which "
                        "must differ")
    parser.add_argument("--tools", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin"))
    opts = parser.parse_args()
    m, n, k = opts.m, opts.n, opts.k
    if m % 256 or n % 256 or k % 256:
        sys.exit("M, N and K must be multiples of 256 (one 256x256 tile, "
                 "K in 256 steps)")
    a, b, sa, sb = make_data(m, n, k, opts.seed)
    want = reference(a, b, sa, sb)
    print(f"AITER witness: {KERNEL} on the ISA executor, "
          f"M={m} N={n} K={k}, seed {opts.seed}")
    ok = True
    with tempfile.TemporaryDirectory(prefix="aiter-witness-") as tmp:
        outs, layouts_ok = mx_layouts(opts.tools, tmp, a, b, sa, sb, m, n, k)
        ok &= layouts_ok
        # mx's own kernel on the same logical data.
        prog = os.path.join(tmp, "gemm.mlir")
        with open(prog, "w") as f:
            f.write(gemm_program(m, n, k))
        files = []
        for name, data in (("a", pack_fp4(a)), ("b", pack_fp4(b)),
                           ("sa", sa), ("sb", sb)):
            files.append(os.path.join(tmp, name + ".logical"))
            data.tofile(files[-1])
        d_mx = os.path.join(tmp, "D_mx.bin")
        run([os.path.join(opts.tools, "mx-run"), prog, "--entry=gemm",
             "--backend=gfx950-isa"] + ["--arg=file:" + p for p in files]
            + ["--out=" + d_mx], "mx-run --backend=gfx950-isa (mx's kernel)")
        mine = np.fromfile(d_mx, np.uint16).reshape(m, n)
        ok &= verdict("mx kernel (gfx950-isa) vs reference", mine, want)
        for split in opts.log2_k_split:
            got, gdz = run_aiter(opts.tools, opts.co, tmp, outs, m, n, k, split)
            tag = f"AITER kernel (log2_k_split={split}, {gdz} K part(s))"
            if split == 0:
                ok &= verdict(tag + " vs reference", got, want)
                ok &= verdict(tag + " vs mx kernel", got, mine)
                continue
            # The atomic epilogue adds bf16 partial sums: not the unsplit
            # result, but exactly a split reference's.
            k_per_part = (k // (1 << split) + 255) // 256 * 256
            ok &= verdict(tag + " vs split reference (bf16 partials, bf16 "
                          "adds)", got, split_reference(a, b, sa, sb, k_per_part))
            differ = int(np.count_nonzero(got != want))
            print(f"  {tag} vs unsplit reference: {differ} of {got.size} "
                  "differ (bf16 accumulation of the parts; expected)")
        if opts.control:
            # A control: B left row-major (not pre-shuffled) must change the
            # result, or the comparison above could not see a layout error.
            pack_fp4(b).tofile(outs[2])
            got, _ = run_aiter(opts.tools, opts.co, tmp, outs, m, n, k, 0)
            differ = int(np.count_nonzero(got != want))
            print(f"control: AITER kernel with B row-major (not pre-shuffled) "
                  f"vs reference: {differ} of {got.size} differ"
                  + ("" if differ else " (the comparison cannot see layouts!)"))
            ok &= differ > 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
