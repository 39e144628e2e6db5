#!/usr/bin/env python3
"""Decode (small-M) GEMMs on gfx950: CU fill and predicted time against the
weight-streaming bound (issue 13's benchmark).

For each shape (M x N x K, A x B element types, B as N x K weights), this
drives the real pipeline (mx-gfx950-pipeline, output=isa, with the kernel
report) and reads off the generated program:

  layout      the GEMM's tile (intrinsic, intrinsics_m x _n x _k, waves
              subgroups_m x _n, workgroup tile M x N x K), read from the
              GEMM's tiled buffers and launch;
  S           the parts of the split K loop (mx-split-k; the GEMM's grid z);
  WGs         workgroups of the GEMM dispatch (grid x * y * z);
  CU fill     WGs over the CU slots of the rounds they take (256 CUs, one
              workgroup of the tile per CU at a time): 100% when every CU has
              work in every round;
  B/MFMA      bytes of A, B and both scales per MFMA, from the per-tile sizes
              of the tiled buffers (as ukernel_static_metrics.py);
  LDS B/clk   LDS demand of the main loop at the MFMA pipe's rate
              (bench/mx_perf_model.py);
  gemm us     the model's time of the GEMM dispatch (mx_perf_model.
              predict_gemm on the main loop, with the parts as extra tiles of
              K / S), floored by its unique bytes at HBM speed: the weights
              and their scales once, A once, the result (or the parts'
              workspace) once;
  red us      the dispatch that adds the parts (S x M x N f32 read, the
              result written) at HBM speed, 0 without a split;
  total us    gemm + red (the activation's relayout, M x K, and the launch
              overheads are not counted: the weights are relaid out once,
              offline, when they are constants);
  bound us    the weight-streaming bound: B and its scales read once at
              8 TB/s (MI355X HBM peak);
  x bound     total / bound (issue 13's target: <= 1.5).

Assumptions are those of bench/mx_perf_model.py (bench/README.md); the HBM
floor uses the peak 8 TB/s, so "x bound" is 1.0 exactly when the model says
the kernel streams its weights at peak.

Usage: bench/decode_metrics.py [--mx-opt build/bin/mx-opt]
           [--shapes decode,contest] [--options "split-k=1"]
"""

import argparse
import math
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mx_perf_model  # noqa: E402
import ukernel_static_metrics as usm  # noqa: E402

FP4, FP8 = "f4E2M1FN", "f8E4M3FN"
BITS = {"f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6, "f8E4M3FN": 8,
        "f8E5M2": 8}

# (name, M, N, K, A, B, acc, result)
DECODE = [("decode %s M=%d N=K=%d" % (t, m, nk), m, nk, nk, ty, ty, "zero",
           "bf16")
          for t, ty in (("fp4", FP4), ("fp8", FP8))
          for nk in (8192, 16384) for m in (1, 16, 64)]
# The GPU MODE amd-mxfp4-mm shapes (seed 000's origin): A quantized to
# MXFP4 (here: given quantized), MXFP4 weights, bf16 result.
CONTEST = [("contest %dx%dx%d" % (m, n, k), m, n, k, FP4, FP4, "zero", "bf16")
           for m, n, k in ((4, 2880, 512), (16, 2112, 7168), (32, 4096, 512),
                           (32, 2880, 512), (64, 7168, 2048),
                           (256, 3072, 1536))]
SHAPES = {"decode": DECODE, "contest": CONTEST}


def weight_bytes(n, k, rhs):
    return n * k * BITS[rhs] // 8 + n * k // 32


def evaluate(mx_opt, m, n, k, lhs, rhs, acc="zero", result="bf16",
             options="", source=None, constant_b=False):
    """Compiles one GEMM and returns a dict of the columns above (raises
    usm.Failure when the pipeline fails or the program is not one GEMM).
    With `source` (e.g. "bf16") A is quantized in the program: by a quantize
    dispatch (its time, its bytes at HBM speed, in "quant_us") or by the
    GEMM kernel itself (mx-gfx950-quantize-in-gemm; "in_gemm"). With
    `constant_b` the weights are constants (no relayout dispatch)."""
    ir = usm.contraction(m, n, k, lhs, rhs, acc, result, source=source,
                         constant_b=constant_b)
    pipeline = "--mx-gfx950-pipeline=output=isa %s" % options
    with tempfile.NamedTemporaryFile("r", suffix=".report") as report:
        isa_ir, _ = usm.run([mx_opt, "-", pipeline,
                             "--mx-gfx950-kernel-report=output=" +
                             report.name], ir)
        stats_all = usm.parse_report(report.read())
    launches = usm.parse_launches(isa_ir)
    mma = [l for l in launches if re.search(r"_mma\d+$", l[0])]
    if len(mma) != 1:
        raise usm.Failure("expected one GEMM dispatch, got %d" % len(mma))
    kernel, blocks, threads, types = mma[0]
    quantizes = [l for l in launches if re.search(r"_quantize\d+$", l[0])]
    in_gemm = bool(source) and not quantizes
    parts = blocks[2]
    wgs = blocks[0] * blocks[1] * blocks[2]
    waves = threads[0] // 64
    # The layout, from the pipeline's own materialization (as
    # ukernel_static_metrics.py reads it): the workgroup tile.
    materialized, _ = usm.run(
        [mx_opt, "-", "--pass-pipeline=builtin.module(mx-set-encodings,%s)"
         % usm.materialize_pass(mx_opt, options)], ir)
    layout = usm.parse_layout(materialized)
    sm, sn = layout["subgroups_m"], layout["subgroups_n"]
    im, inn, ik = (layout["intrinsics_m"], layout["intrinsics_n"],
                   layout["intrinsics_k"])
    tile_m = sm * im * layout["shape"][0]
    tile_n = sn * inn * layout["shape"][1]
    tile_k = ik * layout["shape"][2]
    # Tiled operands [S?, Mo|No, Ko, tile...] (with a split the leading
    # dimension is the parts): the bytes of one K step of each tile.
    lead = 1 if parts > 1 else 0
    if in_gemm:
        # (acc, unquantized A, B, B scales): A's tile of one K step is read
        # in `source` values, and its scales are computed, not read.
        shapes = [usm.memref_shape(t) for t in types[2:4]]
        m_tiles = math.ceil(m / tile_m)
        n_tiles = shapes[0][0][lead]
        tile_bytes = [tile_m * tile_k * usm.ELEMENT_BYTES[source]] + \
            [math.prod(d[lead + 2:]) * size for d, size in shapes]
    else:
        shapes = [usm.memref_shape(t) for t in types[1:5]]
        m_tiles, n_tiles = shapes[0][0][lead], shapes[1][0][lead]
        tile_bytes = [math.prod(d[lead + 2:]) * size for d, size in shapes]
    stats = stats_all.get(kernel)
    if stats is None:
        raise usm.Failure("no report for %s" % kernel)

    row = dict(kernel=kernel, parts=parts, wgs=wgs, waves=waves,
               dispatches=len(launches), quantizes=len(quantizes),
               in_gemm=in_gemm,
               tile="%dx%dx%d w%d" % (tile_m, tile_n, tile_k, waves),
               spills=int(stats["vgpr_spills"]) + int(stats["sgpr_spills"]),
               vgprs=stats["vgprs"], agprs=stats["agprs"])
    rounds = math.ceil(wgs / mx_perf_model.Machine.cus)
    row["fill"] = wgs / (rounds * mx_perf_model.Machine.cus)

    machine = usm.calibrated_machine()
    asm = mx_perf_model.assemblies_from_ir(isa_ir).get(kernel)
    if asm is None:
        raise usm.Failure("no assembly for %s" % kernel)
    instrs, labels = mx_perf_model.parse_isa(asm)
    body = mx_perf_model.main_loop(instrs, labels)
    out_bytes = {"f32": 4, "bf16": 2, "f16": 2}[result]
    weights = weight_bytes(n, k, rhs)
    a_bytes = m * k * usm.ELEMENT_BYTES[source] if in_gemm else \
        m * k * BITS[lhs] // 8 + m * k // 32
    unique = weights + a_bytes + \
        (parts * m * n * 4 if parts > 1 else m * n * out_bytes)
    floor = unique / machine.hbm_bytes_per_s
    if body is None:
        # The K loop fully unrolled (few K steps per part): the whole kernel
        # is one "iteration" of the model.
        body = instrs
    wgs_cu = mx_perf_model.resident_workgroups(int(stats["waves_per_simd"]),
                                               waves, wgs, machine)
    loop = mx_perf_model.analyze_loop(body, machine,
                                      waves_per_cu=waves * wgs_cu)
    # Bytes of A, B and both scales per MFMA of the workgroup and K step
    # (ukernel_static_metrics.py's "B/MFMA wg").
    row["bpm"] = sum(tile_bytes) / (sm * sn * im * inn * ik)
    row["lds"] = loop.lds_demand
    gemm = mx_perf_model.predict_gemm(
        loop, m_tiles * tile_m, n_tiles * tile_n * parts, k // parts, tile_m,
        tile_n, waves, wgs_cu, 4 if parts > 1 else out_bytes, machine,
        # C += A x B reads the f32 accumulator tile (a split K loop's parts
        # start from zero and the reduction reads C).
        c_load_bytes=4 if acc == "arg" and parts == 1 else 0)
    row["gemm_model_us"] = gemm.seconds * 1e6
    row["gemm_us"] = max(gemm.seconds, floor) * 1e6
    row["red_us"] = (parts * m * n * 4 + m * n * out_bytes) / \
        machine.hbm_bytes_per_s * 1e6 if parts > 1 else 0.0
    # A quantize dispatch moves its bytes at HBM speed: the source read,
    # the fp4 elements and the scales written.
    row["quant_us"] = (m * k * usm.ELEMENT_BYTES[source] + m * k * BITS[lhs]
                       // 8 + m * k // 32) / machine.hbm_bytes_per_s * 1e6 \
        if quantizes else 0.0
    row["total_us"] = row["gemm_us"] + row["red_us"] + row["quant_us"]
    row["bound_us"] = weights / machine.hbm_bytes_per_s * 1e6
    row["x_bound"] = row["total_us"] / row["bound_us"]
    return row


HEADER = ["shape", "tile", "S", "WGs", "CU fill", "B/MFMA", "LDS B/clk",
          "VGPR", "AGPR", "spills", "model us", "gemm us", "red us",
          "total us", "bound us", "x bound"]


def format_row(name, r):
    return [name, r["tile"], str(r["parts"]), str(r["wgs"]),
            "%.0f%%" % (100 * r["fill"]), "%.0f" % r["bpm"],
            "%.0f" % r["lds"], r["vgprs"], r["agprs"], str(r["spills"]),
            "%.1f" % r["gemm_model_us"], "%.1f" % r["gemm_us"],
            "%.1f" % r["red_us"], "%.1f" % r["total_us"],
            "%.1f" % r["bound_us"], "%.2f" % r["x_bound"]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mx-opt", default="build/bin/mx-opt")
    parser.add_argument("--shapes", default="decode,contest")
    parser.add_argument("--options", default="",
                        help="extra mx-gfx950-pipeline options, e.g. "
                             "'split-k=1' or 'config-table=none'")
    args = parser.parse_args()
    rows = []
    for group in args.shapes.split(","):
        for name, m, n, k, lhs, rhs, acc, result in SHAPES[group]:
            try:
                r = evaluate(args.mx_opt, m, n, k, lhs, rhs, acc, result,
                             args.options)
                rows.append(format_row(name, r))
            except usm.Failure as failure:
                rows.append([name, "error: %s" % failure])
    full = [r for r in rows if len(r) == len(HEADER)]
    widths = [max(len(r[i]) for r in full + [HEADER])
              for i in range(len(HEADER))]
    print("  ".join(h.ljust(w) for h, w in zip(HEADER, widths)))
    for r in rows:
        if len(r) == len(HEADER):
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
        else:
            print("  ".join(r))
    met = [r for r in rows if len(r) == len(HEADER) and
           r[0].startswith("decode")]
    if met:
        fills = [float(r[4].rstrip("%")) for r in met]
        ratios = [float(r[-1]) for r in met]
        print("\ndecode shapes: CU fill min %.0f%% (target >= 90%%), "
              "x bound max %.2f (target <= 1.5)" % (min(fills), max(ratios)))


if __name__ == "__main__":
    main()
