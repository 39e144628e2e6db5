#!/usr/bin/env python3
"""Grouped (MoE) GEMMs on gfx950: dispatches, padding, CU fill and predicted
time against the weight-streaming bound (issue 13's grouped benchmark).

For each shape (T routed rows over E experts, N x K expert weights, A x B
element types) this drives the real pipeline (mx-gfx950-pipeline,
output=isa, with the kernel report) on an mx.grouped_scaled_contraction
whose offsets are a run-time argument, and reads off the program:

  disp        the dispatches of the whole program (gpu.launch_func): the
              tile table, the gathers of the experts' rows fused with the
              relayouts (and the weights' relayout unless they are
              constants), the one GEMM for every expert;
  tile        the GEMM's workgroup tile M x N x K and waves;
  WGs         workgroups the GEMM launches: N tiles x the tile rows' bound
              (T + E (tile rows - 1)) / tile rows; the tiles without rows
              exit after reading their table entry;
  active      workgroups with rows, for tokens routed evenly (T / E rows
              per expert, the remainder one row each to the first experts);
  pad         MFMA rows computed per routed row, minus one (the padding of
              each expert's last tile, or last block in the sorted form);
  CU fill     active WGs over the CU slots of the rounds they take;
  model us    the model's time of the GEMM (bench/mx_perf_model.py's
              predict_gemm on the kernel's main loop, over the active
              tiles);
  gemm us     model us floored by its unique bytes at HBM speed (the
              weights of the experts with rows and their scales once, A
              once, C read once unless from zero, and written once);
  gather us   the relayout of A and its scales into the experts' tiles at HBM
              speed (A's rows read once: T rows, or the T / top_k tokens of
              the sorted form; written: the tiles with rows where the
              gather leaves the others undefined (mx.gather_row_tiles'
              undefined_empty_tiles: the grouped form), else the launch's
              M tiles);
  fill us     the output's fill where the program writes one before the
              GEMM, at HBM speed;
  bound us    the larger of the weight-streaming bound (the weights and
              scales of the experts with rows read once at 8 TB/s) and the
              MFMA peak bound (2 T N K flops at 10.07 PFLOP/s when both
              operands are fp4/fp6, 16 cycles per 16x16x128; half that with
              fp8, 32 cycles);
  x bound     (gemm + gather + fill) / bound;
  floor       (unique bytes at HBM speed + gather + fill) / bound: the
              least x bound of any GEMM kernel for this program;
  timing us, x bound timing
              (the prefill rows, unless --no-timing) gemm us and x bound
              on the timing model: the GEMM kernel's workgroup tile timed
              on the ISA executor (bench/mx_timing.py, calibrated on
              AITER as there) over the active tiles.

Every row is measured accumulating into the user's f32 C, then the prefill
rows as a model's MoE layer runs them: from a +0.0 fill, the result rounded
to bf16 (in the GEMM's epilogue).

The table kernel (one workgroup, E steps per tile) and launch overheads are
not counted. Assumptions are those of bench/mx_perf_model.py
(bench/README.md).

Usage: bench/moe_metrics.py [--mx-opt build/bin/mx-opt] [--options "..."]
                            [--no-timing]
"""

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mx_perf_model  # noqa: E402
import mx_tune  # noqa: E402
import ukernel_static_metrics as usm  # noqa: E402
from decode_metrics import BITS, FP4, FP8  # noqa: E402

PROGRAM = """
func.func @moe(%a: tensor<{T}x{K}x{A}>, %b: tensor<{E}x{N}x{K}x{B}>,
               %sa: tensor<{T}x{KB}xf8E8M0FNU>, %sb: tensor<{E}x{N}x{KB}xf8E8M0FNU>,
               %offsets: tensor<{E1}xi32>, %acc: tensor<{T}x{N}xf32>) -> tensor<{T}x{N}xf32> {{
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<{T}x{K}x{A}>, tensor<{E}x{N}x{K}x{B}>,
                            tensor<{T}x{KB}xf8E8M0FNU>, tensor<{E}x{N}x{KB}xf8E8M0FNU>)
      offsets(%offsets : tensor<{E1}xi32>)
      outs(%acc : tensor<{T}x{N}xf32>) -> tensor<{T}x{N}xf32>
  return %r : tensor<{T}x{N}xf32>
}}
"""

ROUTED = """
func.func @moe(%a: tensor<{TOK}x{K}x{A}>, %b: tensor<{E}x{N}x{K}x{B}>,
               %sa: tensor<{TOK}x{KB}xf8E8M0FNU>, %sb: tensor<{E}x{N}x{KB}xf8E8M0FNU>,
               %ids: tensor<{P}xi32>, %experts: tensor<{NB}xi32>,
               %acc: tensor<{T}x{N}xf32>) -> tensor<{T}x{N}xf32> {{
  %r = mx.routed_scaled_contraction top_k = {TOPK}
      ins(%a, %b, %sa, %sb : tensor<{TOK}x{K}x{A}>, tensor<{E}x{N}x{K}x{B}>,
                            tensor<{TOK}x{KB}xf8E8M0FNU>, tensor<{E}x{N}x{KB}xf8E8M0FNU>)
      routing(%ids, %experts : tensor<{P}xi32>, tensor<{NB}xi32>)
      outs(%acc : tensor<{T}x{N}xf32>) -> tensor<{T}x{N}xf32>
  return %r : tensor<{T}x{N}xf32>
}}
"""

def from_zero(program, op):
    """`program` with its accumulator a +0.0 fill instead of the %acc
    argument."""
    return re.sub(r",\s*%acc: tensor<\{T\}x\{N\}xf32>\)", ")",
                  program).replace(
        "  %r = " + op,
        "  %zero = arith.constant 0.0 : f32\n"
        "  %e = tensor.empty() : tensor<{T}x{N}xf32>\n"
        "  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<{T}x{N}xf32>)"
        " -> tensor<{T}x{N}xf32>\n"
        "  %r = " + op)


def with_bf16_result(program):
    """`program` returning its f32 result rounded to bf16 (mx-fuse-epilogues
    makes the rounding the GEMM's epilogue)."""
    return program.replace(
        ") -> tensor<{T}x{N}xf32> {{", ") -> tensor<{T}x{N}xbf16> {{").replace(
        "  return %r : tensor<{T}x{N}xf32>",
        "  %h = arith.truncf %r : tensor<{T}x{N}xf32> to tensor<{T}x{N}xbf16>\n"
        "  return %h : tensor<{T}x{N}xbf16>")


# The GEMMs from zero (a +0.0 fill: the kernel reads no accumulator,
# zero_acc), as the MoE layer's GEMMs run (bench/moe_layer.py).
ROUTED_ZERO = from_zero(ROUTED, "mx.routed_scaled_contraction")
GROUPED_ZERO = from_zero(PROGRAM, "mx.grouped_scaled_contraction")

# The routed GEMM of a MoE layer's gate_up from a +0.0 fill, its tokens
# bf16 and quantized to MXFP4 in the program (bench/moe_layer.py):
# mx-gfx950-quantize-in-gemm decides whether the GEMM kernel quantizes its A
# itself, reading the tokens through the sorted ids, or a quantize dispatch
# writes the gathered rows first.
ROUTED_QUANTIZED_ZERO = ROUTED_ZERO.replace(
    "%a: tensor<{TOK}x{K}x{A}>", "%x: tensor<{TOK}x{K}xbf16>").replace(
    "%sa: tensor<{TOK}x{KB}xf8E8M0FNU>, ", "").replace(
    "  %zero = arith.constant",
    "  %a, %sa = mx.quantize %x axis(1) scale(even) rounding(nearest_even)\n"
    "      : tensor<{TOK}x{K}xbf16> -> tensor<{TOK}x{K}x{A}>,"
    " tensor<{TOK}x{KB}xf8E8M0FNU>\n"
    "  %zero = arith.constant")

# (name, T, E, N, K, A, B, routed): DeepSeek-V3's routed experts (hidden 7168,
# expert intermediate 2048: gate+up N = 4096, down K = 2048) with 32 local
# experts (expert parallelism 8) and top 8, for 8, 64 and 1024 tokens;
# Mixtral 8x7B (hidden 4096, intermediate 14336, top 2) for 16 and 1024
# tokens.
# tokens; the last rows the sorted-token-ids form (mx.routed_scaled_contraction,
# vLLM's moe_align_block_size with blocks of 16 and 64 rows: P = T + E (B - 1)
# positions).
SHAPES = [
    ("dsv3 up fp4 tok=8", 64, 32, 4096, 7168, FP4, FP4, None),
    ("dsv3 up fp4 tok=64", 512, 32, 4096, 7168, FP4, FP4, None),
    ("dsv3 up fp4 tok=1024", 8192, 32, 4096, 7168, FP4, FP4, None),
    ("dsv3 down fp4 tok=64", 512, 32, 7168, 2048, FP4, FP4, None),
    ("dsv3 up fp8 tok=64", 512, 32, 4096, 7168, FP8, FP8, None),
    ("mixtral up fp4 tok=16", 32, 8, 28672, 4096, FP4, FP4, None),
    ("mixtral up fp4 tok=1024", 2048, 8, 28672, 4096, FP4, FP4, None),
    ("dsv3 up fp4 tok=64 sorted", 512, 32, 4096, 7168, FP4, FP4, (8, 16)),
    ("dsv3 up fp4 tok=1024 sorted", 8192, 32, 4096, 7168, FP4, FP4, (8, 64)),
    # The same routing stated as vLLM's moe_align_block_size gives it, each
    # routed row named once: mx.routed_scaled_contraction's all_rows_named
    # (from zero: the fill is never written).
    ("dsv3 up fp4 tok=1024 sorted named", 8192, 32, 4096, 7168, FP4, FP4,
     (8, 64, True)),
]


def prefilled_output_bytes(host_ir):
    """The bytes of the GEMM results in `host_ir` (a host function's
    gpu.launch_func ops, in order) that an earlier dispatch writes first:
    their fills (the rows of a grouped or routed GEMM that no tile names
    keep them), none where every row is the kernel's to write
    (mx.tiled_scaled_mma's zero_empty_tiles). Counted as the float buffers
    a GEMM launch shares with an earlier launch (in these programs only its
    result: the GEMMs' other float inputs are arguments)."""
    launches = re.findall(r"gpu\.launch_func\s+@[\w.]+::@(\w+) .*"
                          r"args\((.*)\)\s*$", host_ir, re.M)
    total = 0
    for index, (kernel, args) in enumerate(launches):
        if not re.search(r"_mma\d+$", kernel):
            continue
        earlier = " ".join(a for _, a in launches[:index])
        for arg in usm.split_args(args):
            value, memref = arg.split(" : ", 1)
            if (re.match(r"memref<[^,>]*x(f32|bf16|f16)[,>]", memref) and
                    re.search(re.escape(value.strip()) + r" :", earlier)):
                shape, element_bytes = usm.memref_shape(memref)
                total += math.prod(shape) * element_bytes
    return total


def even_rows(t, e):
    return [t // e + (1 if i < t % e else 0) for i in range(e)]


def timing_gemm_seconds(row, m, n, k, lhs, rhs, zero_acc, result, timing):
    """The timing model's seconds of the GEMM kernel of `row` (its pins)
    over M x N x K: one workgroup tile of it timed on the ISA executor over
    K = mx_tune.TIMED_K (mx_timing.time_mx: a plain contraction of the
    tile, the grouped GEMM's loop being the same ukernel's), in rounds of
    the CUs (mx_timing.gemm_seconds); `timing`: mx_timing.calibration's
    clock and efficiency, and a scratch directory."""
    import mx_timing
    report = mx_timing.time_mx(mx_tune.TIMED_K, "zero" if zero_acc else "arg",
                               result, {}, timing["tmp"], lhs, rhs,
                               pins=row["pins"])
    return mx_timing.gemm_seconds(report, mx_tune.TIMED_K, (m, n, k),
                                  timing["clock"], timing["efficiency"])


def evaluate(mx_opt, t, e, n, k, lhs, rhs, routed=None, options="",
             zero_acc=False, quantized=False, result="f32", timing=None):
    """`routed`: (top_k, block rows[, True: all_rows_named]) for the
    sorted-token-ids form;
    `zero_acc`: the GEMM from a +0.0 fill (no C read); `result`: f32, or
    bf16 (the result rounded in the GEMM's epilogue); `quantized`
    (routed, zero_acc): the tokens bf16, quantized to `lhs` in the program
    (ROUTED_QUANTIZED_ZERO); `in_gemm` says whether the GEMM kernel
    quantizes them (then A is the bf16 tokens, read through the ids: no
    gather)."""
    bf16 = with_bf16_result if result == "bf16" else (lambda text: text)
    if routed:
        top_k, block = routed[:2]
        positions = (t + e * (block - 1)) // block * block
        form = (ROUTED_QUANTIZED_ZERO if quantized else
                ROUTED_ZERO if zero_acc else ROUTED)
        if routed[2:] == (True,):
            outs = "outs(%acc : tensor<{T}x{N}xf32>)"
            assert form.count(outs) == 1, "the routed op's outs"
            form = form.replace(outs, outs + " {{all_rows_named}}")
        ir = bf16(form).format(T=t, TOK=t // top_k, TOPK=top_k, E=e, N=n,
                               K=k, KB=k // 32, A=lhs, B=rhs, P=positions,
                               NB=positions // block)
    else:
        ir = bf16(GROUPED_ZERO if zero_acc else PROGRAM).format(
            T=t, E=e, E1=e + 1, N=n, K=k, KB=k // 32, A=lhs, B=rhs)
    out_bytes = 2 if result == "bf16" else 4
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
    kernel, blocks, threads, _ = mma[0]
    waves = threads[0] // 64
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
    stats = stats_all.get(kernel)
    if stats is None:
        raise usm.Failure("no report for %s" % kernel)

    in_gemm = quantized and not any("quantize" in l[0] for l in launches)
    rows = even_rows(t, e)
    experts = sum(1 for r in rows if r)
    # Each expert's rows in whole tiles (sorted form: whole blocks, whose
    # padding rows are computed too).
    unit = routed[1] if routed else tile_m
    active_tiles = sum(math.ceil(r / unit) * unit // tile_m for r in rows)
    n_tiles = math.ceil(n / tile_n)
    row = dict(disp=len(launches), wgs=blocks[0] * blocks[1] * blocks[2],
               active=active_tiles * n_tiles,
               tile="%dx%dx%d w%d" % (tile_m, tile_n, tile_k, waves),
               tile_mnk=(tile_m, tile_n, tile_k),
               # The pipeline options that pin this GEMM's layout (to time
               # the same kernel on a smaller problem).
               pins=mx_tune.layout_options(layout),
               spills=int(stats["vgpr_spills"]) + int(stats["sgpr_spills"]),
               in_gemm=in_gemm)
    row["pad"] = active_tiles * tile_m / t - 1
    cus = mx_perf_model.Machine.cus
    row["fill"] = row["active"] / (math.ceil(row["active"] / cus) * cus)

    machine = usm.calibrated_machine()
    asm = mx_perf_model.assemblies_from_ir(isa_ir).get(kernel)
    if asm is None:
        raise usm.Failure("no assembly for %s" % kernel)
    instrs, labels = mx_perf_model.parse_isa(asm)
    body = mx_perf_model.main_loop(instrs, labels) or instrs
    # The workgroups that share a CU are the active ones: those without rows
    # exit after reading their table entry, and the grid's rows with tiles
    # come first (the experts' tiles in order, the sorted form's unused
    # blocks last), so the active tiles are dispatched first, across the
    # CUs.
    wgs_cu = mx_perf_model.resident_workgroups(int(stats["waves_per_simd"]),
                                               waves, row["active"], machine)
    row["wgs_per_cu"] = wgs_cu
    loop = mx_perf_model.analyze_loop(body, machine,
                                      waves_per_cu=waves * wgs_cu)
    weights = experts * (n * k * BITS[rhs] // 8 + n * k // 32)
    tokens = t // routed[0] if routed else t
    a_bytes = tokens * (k * 2 if in_gemm else k * BITS[lhs] // 8 + k // 32)
    # C written once (in the result's type), and read in f32 unless from
    # zero.
    c_bytes = t * n * (out_bytes if zero_acc else 4 + out_bytes)
    unique = weights + a_bytes + c_bytes
    gemm = mx_perf_model.predict_gemm(
        loop, active_tiles * tile_m, n_tiles * tile_n, k, tile_m, tile_n,
        waves, wgs_cu, out_bytes, machine,
        # The GEMM accumulates into %acc: it reads its f32 C tile (not
        # from zero).
        c_load_bytes=0 if zero_acc else 4)
    hbm = machine.hbm_bytes_per_s
    row["model_us"] = gemm.seconds * 1e6
    row["gemm_us"] = max(gemm.seconds, unique / hbm) * 1e6
    row["unique_s"] = unique / hbm
    # The gathered rows: the tiles with rows (the experts' and, from zero,
    # those of the rows outside every expert) where the gather leaves the
    # others unwritten, else the launch's M tiles (the tile rows' bound).
    outside = t - sum(rows)
    written_rows = (
        (active_tiles + (math.ceil(outside / tile_m) + 1 if outside else 0))
        * tile_m if "undefined_empty_tiles" in materialized
        else blocks[1] * tile_m)
    # (In the GEMM, A is read through the ids: nothing gathered.)
    row["gather_us"] = 0.0 if in_gemm else (
        a_bytes + written_rows * (k * BITS[lhs] // 8 + k // 32)) / hbm * 1e6
    # MFMA peak: 16x16x128 in MachineModel.def's MFMA16 Narrow (fp4/fp6
    # operands) or Wide (an fp8 operand) cycles, on every SIMD of every CU.
    cycles = (machine.mfma16_wide_cycles if max(BITS[lhs], BITS[rhs]) == 8
              else machine.mfma16_narrow_cycles)
    peak = (2 * 16 * 16 * 128 / cycles * machine.simds_per_cu * machine.cus *
            machine.clock_hz)
    row["bound_us"] = max(weights / hbm, 2.0 * t * n * k / peak) * 1e6
    # The output's fill where the program writes one before the GEMM.
    row["fill_us"] = prefilled_output_bytes(isa_ir) / hbm * 1e6
    other = row["gather_us"] + row["fill_us"]
    row["x_bound"] = (row["gemm_us"] + other) / row["bound_us"]
    # The least x bound of any GEMM kernel for this program: its unique
    # bytes at HBM speed, the gather and the fill.
    row["floor"] = (row["unique_s"] * 1e6 + other) / row["bound_us"]
    if timing:
        seconds = timing_gemm_seconds(row, active_tiles * tile_m,
                                      n_tiles * tile_n, k, lhs, rhs,
                                      zero_acc, result, timing)
        row["timing_us"] = max(seconds, row["unique_s"]) * 1e6
        row["x_bound_timing"] = (row["timing_us"] + other) / row["bound_us"]
    return row


HEADER = ["shape", "T x E x N x K", "disp", "tile", "WGs", "active", "pad",
          "CU fill", "spills", "model us", "gemm us", "gather us", "fill us",
          "bound us", "x bound", "floor"]

# The contracts of the table's rows: every row accumulating into the user's
# f32 C (C read and written), then the prefill rows as a model's MoE layer
# runs them (bench/moe_layer.py): from a +0.0 fill, the result rounded to
# bf16 in the GEMM's epilogue. (all_rows_named changes nothing in C += A
# x B: the "named" row is only in the second table.)
CONTRACTS = [("C += A x B, f32 result", False, "f32",
              lambda name: not name.endswith(" named")),
             ("from zero, bf16 result (the prefill rows)", True, "bf16",
              lambda name: "tok=1024" in name)]
# The prefill rows also on the timing model (their GEMM kernel's tile timed
# on the ISA executor): its time floored by the unique bytes, and x bound.
TIMING_HEADER = ["timing us", "x bound timing"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mx-opt", default="build/bin/mx-opt")
    parser.add_argument("--options", default="",
                        help="extra mx-gfx950-pipeline options")
    parser.add_argument("--no-timing", action="store_true",
                        help="skip the timing model's column of the prefill "
                        "rows (about 20 s)")
    args = parser.parse_args()
    timing = None
    tmp = tempfile.TemporaryDirectory()
    if not args.no_timing:
        import mx_timing
        try:
            timing = dict(mx_timing.calibration(tmp.name), tmp=tmp.name)
        except (OSError, subprocess.CalledProcessError) as failure:
            # The calibration times AITER's code object from the ROCm/aiter
            # mirror (bench/mx_timing.py).
            print("no timing model columns: %s\n" % failure)
    for title, zero_acc, result, selected in CONTRACTS:
        print(title)
        rows = []
        timed = zero_acc and timing is not None
        for name, t, e, n, k, lhs, rhs, routed in SHAPES:
            if not selected(name):
                continue
            size = "%dx%dx%dx%d" % (t, e, n, k)
            try:
                r = evaluate(args.mx_opt, t, e, n, k, lhs, rhs, routed,
                             args.options, zero_acc=zero_acc, result=result,
                             timing=timing if timed else None)
                rows.append([name, size, str(r["disp"]), r["tile"],
                             str(r["wgs"]), str(r["active"]),
                             "%.0f%%" % (100 * r["pad"]),
                             "%.0f%%" % (100 * r["fill"]), str(r["spills"]),
                             "%.1f" % r["model_us"], "%.1f" % r["gemm_us"],
                             "%.1f" % r["gather_us"], "%.1f" % r["fill_us"],
                             "%.1f" % r["bound_us"], "%.2f" % r["x_bound"],
                             "%.2f" % r["floor"]] +
                            (["%.1f" % r["timing_us"],
                              "%.2f" % r["x_bound_timing"]] if timed else []))
            except usm.Failure as failure:
                rows.append([name, size, "error: %s" % failure])
        usm.print_columns(HEADER + (TIMING_HEADER if timed else []), rows)
        print()


if __name__ == "__main__":
    main()
