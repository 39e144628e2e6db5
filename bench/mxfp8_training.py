#!/usr/bin/env python3
"""An MXFP8 training step of one linear layer as one mx program (issue 34).

    forward      y  = x w^T       x [M, K], w [N, K] quantized along K
    grad-input   dx = dy w        dy [M, N] along N, w along N (its columns)
    grad-weight  dw = dy^T x      dy and x along M (their columns)

torchao's MXFP8 training recipe (seed 002: `torchao.prototype.mx_formats`,
the `mx_dim1` column quantize of its MoE training kernels): every GEMM
operand is quantized along that GEMM's contraction dimension, in blocks of
32 with E8M0 scales, to f8E4M3FN with RCEIL scales (torchao's default for
MXFP8 training) and round-to-nearest-even. y and dx are returned in bf16,
dw in f32 (the master weights' gradient).

The one home of the program: `program()` writes it for any shape;
examples/mxfp8_training_step.mlir is its rendering for the small
configuration (`example` prints it; test/Examples/mxfp8-training-step.mlir
checks that the file is current and runs it bit-exact against the
independent reference).

Subcommands:
  example    print the program for the small configuration (M=64, N=96,
             K=128)
  table      compile the program with mx-gfx950-pipeline for seed 002's
             weight shapes (N x K of 5120x5120, 7168x5120, 7168x7168,
             8192x8192) at M = 16384 tokens, list its dispatches, and time
             them: each GEMM on the static model (mx_perf_model, fitted on
             AITER) and on the timing model (the ISA executor's, one
             workgroup's tile over the whole K, in rounds of the CUs; see
             bench/mx_timing.py), the quantize dispatches by their bytes at
             8 TB/s

Usage: bench/mxfp8_training.py example|table [--no-timing]
"""

import argparse
import math
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

SMALL = dict(m=64, n=96, k=128)
# Seed 002's weight shapes (N, K) (its E = 8 experts' weights [E, N, K]; one
# expert's linear here) and the tokens M the table assumes (the seed gives
# none).
SHAPES = [(5120, 5120), (7168, 5120), (7168, 7168), (8192, 8192)]
TOKENS = 16384
HBM_PEAK = 8e12  # MI355X, bytes/s (the static model's hbm_bytes_per_s)
FP8 = "f8E4M3FN"
QUANTIZE = "scale(rceil) rounding(nearest_even)"

# (result name, result type, lhs, rhs, maps, M x N x K of the GEMM) per GEMM,
# in program order.
GEMMS = [("y", "bf16", ("xk", "M", "K"), ("wk", "N", "K"),
          "(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
          "affine_map<(m, n, k) -> (m, n)", ("M", "N", "K")),
         ("dx", "bf16", ("dyn", "M", "N"), ("wn", "N", "K"),
          "(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, "
          "affine_map<(m, n, k) -> (m, n)", ("M", "K", "N")),
         ("dw", "f32", ("dym", "M", "N"), ("xm", "M", "K"),
          "(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>, "
          "affine_map<(n, k, m) -> (n, k)", ("N", "K", "M"))]


def program(m, n, k):
    """The training step for M x N x K (each a multiple of 32)."""
    if m % 32 or n % 32 or k % 32:
        raise ValueError("M, N and K must be multiples of 32")
    size = dict(M=m, N=n, K=k)
    lines = [
        "func.func @training_step(%x: tensor<{M}x{K}xbf16>, "
        "%w: tensor<{N}x{K}xbf16>, %dy: tensor<{M}x{N}xbf16>)".format(**size),
        "    -> (tensor<{M}x{N}xbf16>, tensor<{M}x{K}xbf16>, "
        "tensor<{N}x{K}xf32>) {{".format(**size),
        "  %zero = arith.constant 0.0 : f32"]
    # Each operand quantized along the GEMM's K: (name, source, rows, cols,
    # axis).
    quantizes = {"xk": ("x", "M", "K", 1), "wk": ("w", "N", "K", 1),
                 "dyn": ("dy", "M", "N", 1), "wn": ("w", "N", "K", 0),
                 "dym": ("dy", "M", "N", 0), "xm": ("x", "M", "K", 0)}

    def scales(rows, cols, axis):
        r, c = size[rows], size[cols]
        return (r, c // 32) if axis == 1 else (r // 32, c)

    comments = {"y": "forward: y = x w^T, x and w quantized along K.",
                "dx": "grad-input: dx = dy w, dy quantized along N (its "
                      "rows), w along N (its columns).",
                "dw": "grad-weight: dw = dy^T x, dy and x quantized along M "
                      "(their columns)."}
    for i, (name, rtype, lhs, rhs, maps, (dm, dn, dk)) in enumerate(GEMMS):
        lines.append("  // " + comments[name])
        types = {}
        for q in (lhs[0], rhs[0]):
            src, rows, cols, axis = quantizes[q]
            shape = "%dx%d" % (size[rows], size[cols])
            sshape = "%dx%d" % scales(rows, cols, axis)
            types[q] = ("tensor<%sx%s>" % (shape, FP8),
                        "tensor<%sxf8E8M0FNU>" % sshape)
            lines.append(
                "  %%%s, %%%ss = mx.quantize %%%s axis(%d) %s\n"
                "      : tensor<%sxbf16> -> %s, %s" %
                (q, q, src, axis, QUANTIZE, shape, types[q][0], types[q][1]))
        acc = "tensor<%dx%dxf32>" % (size[dm], size[dn])
        lines += [
            "  %%e%d = tensor.empty() : %s" % (i, acc),
            "  %%z%d = linalg.fill ins(%%zero : f32) outs(%%e%d : %s) -> %s"
            % (i, i, acc, acc),
            "  %%%s32 = mx.scaled_contraction" % name,
            "      indexing_maps = [affine_map<%s>]" %
            maps.replace(">, affine_map<", ">,\n                       "
                         "affine_map<"),
            "      ins(%%%s, %%%s, %%%ss, %%%ss : %s, %s,\n"
            "          %s, %s)" % (lhs[0], rhs[0], lhs[0], rhs[0],
                                   types[lhs[0]][0], types[rhs[0]][0],
                                   types[lhs[0]][1], types[rhs[0]][1]),
            "      outs(%%z%d : %s) -> %s" % (i, acc, acc)]
        if rtype == "bf16":
            lines.append("  %%%s = arith.truncf %%%s32 : %s to %s" %
                         (name, name, acc, acc.replace("f32", "bf16")))
    lines += [
        "  return %y, %dx, %dw32 : tensor<{M}x{N}xbf16>, "
        "tensor<{M}x{K}xbf16>, tensor<{N}x{K}xf32>".format(**size),
        "}"]
    return "\n".join(lines) + "\n"


HEADER = """\
// An MXFP8 training step of one linear layer (seed 002's recipe; issue 34),
// generated by bench/mxfp8_training.py (`example`; the one home of the
// program) for M = {m} tokens, N = {n} outputs, K = {k} inputs:
//
//   forward      y  = x w^T   x, w quantized along K
//   grad-input   dx = dy w    dy along N, w along N (its columns)
//   grad-weight  dw = dy^T x  dy, x along M (their columns)
//
// every operand in f8E4M3FN blocks of 32 with E8M0 scales (RCEIL,
// round-to-nearest-even: torchao's MXFP8 training default). Each bf16 input
// is read once: mx-gfx950-pipeline quantizes it along both axes in one
// kernel, straight into the GEMMs' operand layouts (no relayout dispatch).
// Run it, bit-exact against the independent reference:
//
//   mx-run examples/mxfp8_training_step.mlir --backend=gfx950-emu \\
//       --arg=random:normal --arg=random:normal --arg=random:normal \\
//       --compare=reference
"""


def example():
    return HEADER.format(**SMALL) + "\n" + program(**SMALL)


# --- the table ----------------------------------------------------------------

def _gemm_shapes(m, n, k):
    size = dict(M=m, N=n, K=k)
    return [(name, rtype, tuple(size[d] for d in dims))
            for name, rtype, _, _, _, dims in GEMMS]


def _compile(mx_opt, text):
    import ukernel_static_metrics as usm
    with tempfile.NamedTemporaryFile("r", suffix=".report") as report:
        isa, _ = usm.run([mx_opt, "-", "--mx-gfx950-pipeline=output=isa",
                          "--mx-gfx950-kernel-report=output=" + report.name],
                         text)
        stats = usm.parse_report(report.read())
    return isa, stats


def _kernel_text(isa, kernel):
    import mx_perf_model
    asm = mx_perf_model.assemblies_from_ir(isa)[kernel]
    # Only the instructions: the names and labels differ between programs.
    return [line.split("//")[0].strip() for line in asm.splitlines()
            if line.startswith("\t") and not line.startswith("\t.")]


def timed_gemm(shape, rtype, pins, tmp, clock, efficiency):
    """The timing model's seconds of the GEMM kernel (`pins`: its layout)
    on a 256 x 256 tile over the whole K, in rounds of the CUs over the
    GEMM's tiles."""
    import mx_timing
    import ukernel_static_metrics as usm
    m, n, k = shape
    text = usm.contraction(mx_timing.TILE, mx_timing.TILE, k, FP8, FP8,
                           acc="zero", result=rtype)
    r = mx_timing.time_program(text, pins, 4, tmp)
    return mx_timing.gemm_seconds(r, k, shape, clock, efficiency)


def evaluate(mx_opt, m, n, k, tmp, timing):
    """The step's dispatches and times at M x N x K."""
    import ukernel_static_metrics as usm
    text = program(m, n, k)
    isa, stats = _compile(mx_opt, text)
    launches = usm.parse_launches(isa)
    row = dict(m=m, n=n, k=k, dispatches=[], gemms=[], quantize_s=0.0)
    machine = usm.calibrated_machine()
    mma = [l for l in launches if re.search(r"_mma\d+$", l[0])]
    if len(mma) != len(GEMMS):
        raise usm.Failure("expected %d GEMM dispatches, got %d" %
                          (len(GEMMS), len(mma)))
    for name, blocks, _, types in launches:
        views = sum(math.prod(s[0]) * s[1] for s in
                    (usm.memref_shape(t) for t in types) if s)
        row["dispatches"].append((name, math.prod(int(b) for b in blocks),
                                  views))
        if "_quantize" in name:
            row["quantize_s"] += views / HBM_PEAK
        elif not re.search(r"_mma\d+$", name):
            raise usm.Failure("unexpected dispatch %s" % name)
    for (kernel, _, _, _), (gemm, rtype, shape) in zip(mma, _gemm_shapes(
            m, n, k)):
        # The kernel of the canonical C = A x B^T program of the same size
        # and types, which the static model reads: the program's own GEMM
        # kernel must be instruction for instruction the same (its operands
        # reach it already in the data-tiled layout, whatever their maps).
        model = usm.compile_kernel(mx_opt, ("", ) + shape, "", FP8, FP8,
                                   acc="zero", result=rtype)
        canonical = usm.contraction(shape[0], shape[1], shape[2], FP8, FP8,
                                    acc="zero", result=rtype)
        canonical_isa, _ = _compile(mx_opt, canonical)
        if _kernel_text(isa, kernel) != _kernel_text(canonical_isa,
                                                     model["kernel"]):
            raise usm.Failure("%s's kernel differs from the canonical "
                              "GEMM's" % kernel)
        loop, pred = usm.model_kernel(model, ("", ) + shape, machine)
        entry = dict(name=gemm, shape=shape, kernel=kernel,
                     tile="%dx%d w%d" % (model["tile_m"], model["tile_n"],
                                         model["waves"]),
                     static_s=pred.seconds,
                     spills=int(stats[kernel]["vgpr_spills"]) +
                     int(stats[kernel]["sgpr_spills"]))
        if timing:
            materialized, _ = usm.run(
                [mx_opt, "-", "--pass-pipeline=builtin.module("
                 "mx-set-encodings,%s)" % usm.materialize_pass(mx_opt, "")],
                canonical)
            layout = usm.parse_layout(materialized)
            pins = ("intrinsic=%dx%dx%d intrinsics-m=%d intrinsics-n=%d "
                    "intrinsics-k=%d subgroups-m=%d subgroups-n=%d split-k=1" %
                    (tuple(layout["shape"]) +
                     (layout["intrinsics_m"], layout["intrinsics_n"],
                      layout["intrinsics_k"], layout["subgroups_m"],
                      layout["subgroups_n"])))
            entry["timing_s"] = timed_gemm(shape, rtype, pins, tmp,
                                           timing["clock"],
                                           timing["efficiency"])
        row["gemms"].append(entry)
    return row


def table(mx_opt, with_timing):
    import mx_timing
    tmp = tempfile.mkdtemp()
    timing = mx_timing.calibration(tmp) if with_timing else None
    header = ["M x N x K", "disp", "GEMM", "tile", "spills", "static us",
              "static PF", "timing us", "timing PF"]
    rows, steps = [], []
    for n, k in SHAPES:
        r = evaluate(mx_opt, TOKENS, n, k, tmp, timing)
        label = "%dx%dx%d" % (TOKENS, n, k)
        flops = 2.0 * TOKENS * n * k
        for g in r["gemms"]:
            t = g.get("timing_s")
            rows.append([label, str(len(r["dispatches"])),
                         "%s %dx%dx%d" % ((g["name"],) + g["shape"]),
                         g["tile"], str(g["spills"]),
                         "%.1f" % (g["static_s"] * 1e6),
                         "%.2f" % (flops / g["static_s"] / 1e15),
                         "%.1f" % (t * 1e6) if t else "-",
                         "%.2f" % (flops / t / 1e15) if t else "-"])
        gemm_static = sum(g["static_s"] for g in r["gemms"])
        step_static = gemm_static + r["quantize_s"]
        line = ("%s: 3 GEMMs %.1f us (%.2f PF), quantizes %.1f us, step %.1f us"
                " (%.2f PF end to end) static" %
                (label, gemm_static * 1e6, 3 * flops / gemm_static / 1e15,
                 r["quantize_s"] * 1e6, step_static * 1e6,
                 3 * flops / step_static / 1e15))
        if with_timing:
            gemm_timing = sum(g["timing_s"] for g in r["gemms"])
            step_timing = gemm_timing + r["quantize_s"]
            line += "; %.1f us (%.2f PF), step %.1f us (%.2f PF) timing" % (
                gemm_timing * 1e6, 3 * flops / gemm_timing / 1e15,
                step_timing * 1e6, 3 * flops / step_timing / 1e15)
        steps.append(line)
        last = r
    widths = [max(len(x[i]) for x in rows + [header]) for i in
              range(len(header))]
    for x in [header] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(x, widths)).rstrip())
    print()
    for line in steps:
        print(line)
    print("\nThe dispatches at %dx%dx%d: workgroups, MB their buffers view" %
          (TOKENS, SHAPES[-1][0], SHAPES[-1][1]))
    for name, wgs, views in last["dispatches"]:
        print("  %-34s %8d  %10.2f MB" % (name, wgs, views / 1e6))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["example", "table"])
    parser.add_argument("--mx-opt",
                        default=os.path.join(ROOT, "build", "bin", "mx-opt"))
    parser.add_argument("--no-timing", action="store_true",
                        help="table: the static model only")
    args = parser.parse_args()
    if args.command == "example":
        sys.stdout.write(example())
        return 0
    return table(args.mx_opt, not args.no_timing)


if __name__ == "__main__":
    sys.exit(main())
