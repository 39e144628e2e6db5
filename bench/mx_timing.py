#!/usr/bin/env python3
"""mx's seed GEMM and AITER's hand-written MXFP4 GEMM on the ISA executor's
cycle timing model (`--timing-model`; docs/guides/timing-model.md), side by
side, with the same constants (include/mx/Target/GFX950/ISA/MachineModel.def)
and the same charges.

Each kernel runs one 256x256 output tile over K = --k on the executor (mx:
`mx-run --backend=gfx950-isa --timing-model`; AITER: `mx-isa --run
--timing-model` on its code object with zero-filled operands: its control
flow does not depend on the data). The model gives the tile's steady-state
cycles per main-loop iteration and the cycles outside the loop; a GEMM of
M x N x K is then ceil(M/256) * ceil(N/256) tiles in rounds of 256 CUs, each
tile `fixed + iterations * cycles_per_iteration` (wave quantization, as the
static model does). One efficiency constant is fitted on AITER's published
1563 us at 16384^3; the other published AITER figures check it.

mx runs two ways:
  seed     the seed kernel as written: C += A x B, f32 C loaded and stored;
  aiter-like  configured as AITER runs: D = A x B from zero, bf16 result.

  python3 bench/mx_timing.py              # table, checks and the sweep
  python3 bench/mx_timing.py --no-sweep --set global_latency=2000
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import aiter_f4gemm  # noqa: E402
import mx_perf_model  # noqa: E402
import ukernel_static_metrics  # noqa: E402

ROOT = os.path.dirname(HERE)
AITER_REPO = "/work/.mirror/ROCm+aiter/repo"
SEED_PINS = ("intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 "
             "intrinsics-k=2 subgroups-m=1 subgroups-n=4 split-k=1")
TILE = 256
# Published AITER figures (bench/README.md, issue 33): shape -> seconds.
PUBLISHED = [
    ("16384^3 (calibration)", (16384, 16384, 16384), 1563e-6),
    ("10000x16384x16384", (10000, 16384, 16384), 1.05e-3),
    ("8192^3", (8192, 8192, 8192), 2 * 8192**3 / 5.096e15),
    ("8192x8192x16384", (8192, 8192, 16384), 2 * 8192**2 * 16384 / 5.520e15),
]


def tool(name):
    return os.path.join(os.environ.get("MX_BUILD_DIR",
                                       os.path.join(ROOT, "build")), "bin",
                        name)


def constant_flags(settings, flag):
    return [f"{flag}={k}={v}" for k, v in settings.items()]


def seed_pins(lhs, rhs):
    """The seed's pins for a pair of element types: a K step is 128 bytes of
    the wider row, so intrinsics_k is 2 for fp4 x fp4 and 1 otherwise (the
    resolver's rule at the seed layout)."""
    if lhs == rhs == "f4E2M1FN":
        return SEED_PINS
    return SEED_PINS.replace("intrinsics-k=2", "intrinsics-k=1")


def mfma_macs(pins):
    """Multiply-adds of one MFMA of the intrinsic `pins` names (16x16x128
    unless `intrinsic=32x32x64`)."""
    m = re.search(r"intrinsic=\S+", pins or "")
    return mx_perf_model.mfma_macs(m and m.group(0)) or 16 * 16 * 128


def pinned_tile(pins):
    """The workgroup tile (M, N) that `pins` fixes (the intrinsic's M x N
    times intrinsics_m/n times subgroups_m/n), or the seed's 256 x 256 when
    they leave it open."""
    values = dict(re.findall(r"([\w-]+)=(\S+)", pins or ""))
    shape = re.match(r"(\d+)x(\d+)x\d+$", values.get("intrinsic", "16x16x128"))
    keys = ("intrinsics-m", "intrinsics-n", "subgroups-m", "subgroups-n")
    if not shape or any(key not in values for key in keys):
        return (TILE, TILE)
    return (int(shape.group(1)) * int(values["intrinsics-m"]) *
            int(values["subgroups-m"]),
            int(shape.group(2)) * int(values["intrinsics-n"]) *
            int(values["subgroups-n"]))


def k_per_iteration(report, tile=None):
    """The K one main-loop iteration of a timed kernel covers: its MFMAs
    (every wave) over the tile's outputs (the report's own tile unless
    `tile` is given)."""
    tile = tile or report.get("tile", (TILE, TILE))
    return (report["mfmas_per_iteration"] * report["waves_per_workgroup"] *
            report.get("mfma_macs", 16 * 16 * 128) / (tile[0] * tile[1]))


def time_program(text, pins, num_args, tmp, settings=None, args=None):
    """The timing model's report (mx-run --timing-json) of the contraction
    kernel of the program `text`, compiled with the pipeline options `pins`
    and run on `num_args` zero arguments (or mx-run's --arg specs `args`):
    the kernel with the most MFMAs."""
    path = os.path.join(tmp, "timed.mlir")
    with open(path, "w") as f:
        f.write(text)
    report = os.path.join(tmp, "timed.json")
    cmd = [tool("mx-run"), path, "--backend=gfx950-isa", "--threads=1",
           "--progress=false", "--timing-model", "--timing-json=" + report,
           "--gfx950-options=" + pins] + \
        ["--arg=" + a for a in (args or ["zeros"] * num_args)] + \
        constant_flags(settings or {}, "--timing-constant")
    subprocess.run(cmd, capture_output=True, text=True, check=True)
    with open(report) as f:
        reports = [json.loads(line) for line in f if line.strip()]
    timed = max(reports, key=lambda r: r["mfmas_per_wave"])
    timed["mfma_macs"] = mfma_macs(pins)
    return timed


def time_mx(k, acc, result, settings, tmp, lhs="f4E2M1FN", rhs="f4E2M1FN",
            pins=None):
    """The seed tile's kernel for (lhs, rhs), with the seed's pins unless
    `pins` gives others: one workgroup tile of their size (the report's
    `tile`). The tile's K loop is not split: the resolver would split the
    K of a one-tile problem over the CUs (split-k=1 unless `pins` says)."""
    tile = pinned_tile(pins)
    if pins and "split-k=" not in pins:
        pins += " split-k=1"
    text = ukernel_static_metrics.contraction(*tile, k, lhs, rhs, acc=acc,
                                              result=result)
    report = time_program(text, pins or seed_pins(lhs, rhs),
                          4 + (acc == "arg"), tmp, settings)
    report["tile"] = tile
    return report


def time_aiter(k, settings, tmp):
    co = os.path.join(tmp, "aiter.co")
    if not os.path.exists(co):
        data = subprocess.run(["git", "-C", AITER_REPO, "show",
                               "HEAD:" + aiter_f4gemm.CO_PATH],
                              capture_output=True, check=True).stdout
        with open(co, "wb") as f:
            f.write(data)
    m = n = TILE
    stride_s = aiter_f4gemm.scale_stride(k)
    report = os.path.join(tmp, "aiter.json")
    cmd = [tool("mx-isa"), co, "--run"]
    cmd += aiter_f4gemm.launch_flags(m, n, k)
    cmd += [f"--buffer=D=zeros:{m * n * 2}",
            f"--buffer=A=zeros:{m * k // 2}", f"--buffer=B=zeros:{n * k // 2}",
            f"--buffer=SA=zeros:{m * stride_s}",
            f"--buffer=SB=zeros:{n * stride_s}",
            # AITER's kernel breaks LLVM's M0 -> LDS-DMA wait-state rule
            # (docs/guides/isa-executor-hazards.md): time it regardless.
            "--check-hazards=false",
            "--timing-model", "--timing-json=" + report]
    cmd += aiter_f4gemm.kernarg_flags(m, n, k)
    cmd += constant_flags(settings, "--timing-constant")
    subprocess.run(cmd, capture_output=True, text=True, check=True)
    with open(report) as f:
        return json.loads(f.read())


def calibration(tmp):
    """The timing model's clock and the efficiency `evaluate` fits on
    AITER's published 16384^3 time (for other benchmarks that time kernels
    with gemm_seconds)."""
    clock = next(v for n, _, v, *_ in mx_perf_model.machine_rows()
                 if n == "ClockHz")
    efficiency, _, _ = evaluate({"aiter": time_aiter(8192, {}, tmp)}, 8192,
                                clock)
    return dict(clock=clock, efficiency=efficiency)


def gemm_seconds(report, k_sim, shape, clock, efficiency, cus=256,
                 tile=None):
    """Whole-GEMM seconds of a kernel timed on one workgroup tile (`tile`,
    M x N; the report's own unless given) over K = k_sim."""
    m, n, k = shape
    tile = tile or report.get("tile", (TILE, TILE))
    tile_m, tile_n = tile
    # The timed tile's cycles outside the steady state (the prologue, the
    # peeled iterations, the epilogue) stay as they are; the rest of K costs
    # cycles_per_iteration per iteration of k_per_iteration.
    k_step = k_per_iteration(report, tile)
    iterations = report["loop_iterations"] + (k - k_sim) / k_step
    tiles = math.ceil(m / tile_m) * math.ceil(n / tile_n)
    rounds = math.ceil(tiles / (cus * report["workgroups_per_cu"]))
    cycles = report["fixed_cycles"] + iterations * \
        report["cycles_per_iteration"]
    return rounds * cycles / clock / efficiency


def measure(k, settings, tmp, types=(), pins=None):
    """The reports of AITER and of mx's seed and aiter-like kernels, and of
    mx's two kernels for each further (lhs, rhs) pair of `types` (with
    `pins`, if given, instead of the seed tile's)."""
    reports = {"aiter": time_aiter(k, settings, tmp),
               "seed": time_mx(k, "arg", "f32", settings, tmp),
               "aiter-like": time_mx(k, "zero", "bf16", settings, tmp)}
    for lhs, rhs in types:
        pair = f"{lhs} x {rhs}"
        reports[f"seed {pair}"] = time_mx(k, "arg", "f32", settings, tmp,
                                          lhs, rhs, pins)
        reports[f"aiter-like {pair}"] = time_mx(k, "zero", "bf16", settings,
                                                tmp, lhs, rhs, pins)
    return reports


# Bytes per lane of a global memory instruction, by its mnemonic's suffix.
ACCESS_BYTES = {"ubyte": 1, "sbyte": 1, "byte": 1, "ushort": 2, "sshort": 2,
                "short": 2, "dword": 4, "dwordx2": 8, "dwordx3": 12,
                "dwordx4": 16}
# MI350X's measured HBM bandwidth (TransferBench, 90% of the 8 TB/s peak;
# reference/performance-anchors.md): the ceiling of a relayout at memory
# speed.
MEASURED_HBM = 7.2e12


def relayout_accesses(mx_opt, shape, options, prepack_b=False):
    """The global loads and stores of the seed program's per-call relayout
    kernels (their ISA): {("load" | "store", bytes per lane): count}."""
    ir = ukernel_static_metrics.contraction(*shape, "f4E2M1FN", "f4E2M1FN",
                                            prepack_b=prepack_b)
    isa, _ = ukernel_static_metrics.run(
        [mx_opt, "-", "--mx-gfx950-pipeline=%s output=isa" % options], ir)
    counts = {}
    for name, asm in mx_perf_model.assemblies_from_ir(isa).items():
        if "_relayout" not in name or "_prepack_" in name:
            continue
        for kind, suffix in re.findall(
                r"^\s*(?:global|buffer)_(load|store)_(?:lds_)?(\w+)", asm,
                re.M):
            key = (kind, ACCESS_BYTES[suffix.split("_d16")[0]])
            counts[key] = counts.get(key, 0) + 1
    return counts


def end_to_end(reports, k_sim, clock, efficiency, rate):
    """PF/s of mx's seed program end to end: its GEMM on the timing model
    plus its relayout dispatches' bytes at `rate` bytes/s (issue 33's 4
    TB/s, about half of HBM, as the best published MI35x relayout and
    quantize kernels reach: reference/performance-anchors.md section 7), and
    at MEASURED_HBM; with the relayout kernels' global memory instructions
    (16 bytes per lane each since issue 33; the scales were loaded a byte
    per lane before)."""
    rows = {}
    mx_opt = tool("mx-opt")
    options = SEED_PINS.replace(" split-k=1", "")
    for kernel, prepack_b in (("seed", False), ("seed, B mx.prepack", True)):
        for label, shape in (("16384^3", (16384,) * 3),
                             ("seed", (10000, 16384, 16384))):
            # The seed program as written (its issue 33 target), and with B
            # and its scales marked mx.prepack: packed once per model load,
            # as AITER's B is pre-shuffled (AITER's operands arrive in its
            # layouts, so it has no such dispatches).
            moved = ukernel_static_metrics.program_relayout_bytes(
                mx_opt, *shape, options=options, prepack_b=prepack_b)
            gemm = gemm_seconds(reports["seed"], k_sim, shape, clock,
                                efficiency)
            # The ceiling: the same tile with its loop at its MFMA pipe's
            # cycles (no wait, no barrier, no lost issue slot), its cycles
            # outside the loop as timed.
            r = dict(reports["seed"])
            r["cycles_per_iteration"] = (
                r["mfma_pipe_cycles_per_wave"] / r["mfmas_per_wave"] *
                r["mfmas_per_iteration"])
            ceiling = gemm_seconds(r, k_sim, shape, clock, efficiency)
            flops = 2 * math.prod(shape)
            rows[(kernel, label)] = (
                moved, gemm, moved / rate,
                flops / (gemm + moved / rate) / 1e15,
                flops / (gemm + moved / MEASURED_HBM) / 1e15,
                flops / (ceiling + moved / rate) / 1e15,
                sorted(relayout_accesses(mx_opt, shape, options,
                                         prepack_b).items()))
    return rows


def evaluate(reports, k, clock):
    calib_shape, calib_seconds = PUBLISHED[0][1], PUBLISHED[0][2]
    efficiency = gemm_seconds(reports["aiter"], k, calib_shape, clock,
                              1.0) / calib_seconds
    pf = {}
    for name, r in reports.items():
        for label, shape in (("16384^3", (16384,) * 3),
                             ("seed", (10000, 16384, 16384))):
            s = gemm_seconds(r, k, shape, clock, efficiency)
            pf[(name, label)] = 2 * math.prod(shape) / s / 1e15
    checks = []
    for label, shape, published in PUBLISHED:
        s = gemm_seconds(reports["aiter"], k, shape, clock, efficiency)
        checks.append((label, published, s, 100 * (s / published - 1)))
    return efficiency, pf, checks


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, default=8192,
                        help="K of the timed tile (default 8192: 16 loop "
                        "iterations of mx's 512-K step, 32 of AITER's)")
    parser.add_argument("--set", action="append", default=[],
                        help="NAME=VALUE of a machine constant (repeatable)")
    parser.add_argument("--relayout-rate", type=float, default=4e12,
                        help="bytes/s of the relayout dispatches end to end "
                        "(default 4e12: issue 33's estimate)")
    parser.add_argument("--no-sweep", action="store_true")
    parser.add_argument("--types", default="",
                        help="comma-separated lhs:rhs element type pairs "
                        "(e.g. f8E4M3FN:f8E4M3FN) whose seed and aiter-like "
                        "kernels (the seed tile, intrinsics_k 1 unless fp4 x "
                        "fp4) are timed too")
    parser.add_argument("--pins", default=None,
                        help="mx-gfx950-pipeline options of the --types "
                        "kernels instead of the seed tile's (e.g. "
                        "'intrinsic=16x16x128 intrinsics-m=8 intrinsics-n=8 "
                        "intrinsics-k=1 subgroups-m=1 subgroups-n=4 "
                        "split-k=1': bench/README.md, 'Wide A on 8 x 8 "
                        "wave tiles')")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    types = [tuple(t.split(":")) for t in args.types.split(",") if t]
    base = dict(s.split("=", 1) for s in args.set)
    # MachineModel.def's rows, as the static model reads them.
    rows = mx_perf_model.machine_rows()
    clock = next(v for n, _, v, *_ in rows if n == "ClockHz")
    clock = float(base.get("ClockHz", base.get("clock_hz", clock)))
    with tempfile.TemporaryDirectory() as tmp:
        reports = measure(args.k, base, tmp, types, args.pins)
        efficiency, pf, checks = evaluate(reports, args.k, clock)
        e2e = end_to_end(reports, args.k, clock, efficiency,
                         args.relayout_rate)
        sweep = []
        if not args.no_sweep:
            for name, _, value, _, kind, _ in rows:
                if kind != "Assumed":
                    continue
                for factor in (0.5, 2.0):
                    settings = dict(base)
                    settings[name] = value * factor
                    r = measure(args.k, settings, tmp)
                    e, p, _ = evaluate(r, args.k, clock)
                    sweep.append((name, factor, value * factor, e, p))
    if args.json:
        print(json.dumps({"reports": reports, "efficiency": efficiency,
                          "pf": {f"{a} {b}": v for (a, b), v in pf.items()},
                          "checks": checks,
                          "end_to_end": {f"{a} {b}": v
                                         for (a, b), v in e2e.items()},
                          "sweep": [(n, f, v, e, {f"{a} {b}": x for (a, b), x
                                                  in p.items()})
                                    for n, f, v, e, p in sweep]}, indent=1))
        return
    print(f"timing model, one workgroup tile (256x256 unless --pins says "
          f"otherwise) over K = {args.k} "
          f"(settings: {base or 'MachineModel.def'})")
    print("| kernel | cycles / iteration | K / iteration | MFMA pipe / "
          "iteration | busiest pipe | stalls per wave (vmcnt / lgkmcnt / "
          "barrier / MFMA result / MFMA pipe) | bank-conflict cycles | "
          "cycles outside the loop |")
    print("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for name, r in reports.items():
        k_step = k_per_iteration(r)
        pipe = r["mfma_pipe_cycles_per_wave"] / r["mfmas_per_wave"] * \
            r["mfmas_per_iteration"]
        print(f"| {name} | {r['cycles_per_iteration']:.0f} | "
              f"{k_step:.0f} | {pipe:.0f} | "
              f"{100 * r['mfma_utilization']:.1f}% | "
              f"{r['wait_vmcnt']:.0f} / {r['wait_lgkmcnt']:.0f} / "
              f"{r['wait_barrier']:.0f} / {r['wait_mfma_result']:.0f} / "
              f"{r['wait_mfma_pipe']:.0f} | {r['lds_conflict_cycles']:.0f} | "
              f"{r['fixed_cycles']:.0f} |")
    print(f"\nefficiency fitted on AITER 16384^3 = 1563 us: {efficiency:.3f}")
    print("| kernel | 16384^3 PF | seed 10000x16384x16384 PF |")
    print("| --- | ---: | ---: |")
    for name in reports:
        print(f"| {name} | {pf[(name, '16384^3')]:.2f} | "
              f"{pf[(name, 'seed')]:.2f} |")
    print(f"\nmx end to end: the GEMM plus its relayout dispatches at "
          f"{args.relayout_rate / 1e12:g} TB/s (and at "
          f"{MEASURED_HBM / 1e12:g} TB/s, measured HBM); the relayout "
          f"kernels' global memory instructions (count x bytes per lane)")
    print("| kernel | shape | relayout MB | GEMM us | relayouts us | PF/s | "
          f"PF/s at {MEASURED_HBM / 1e12:g} TB/s | ceiling PF/s (the loop at "
          "its MFMA pipe) | relayout loads | relayout stores |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for (name, label), (moved, gemm, relayout, p, p_hbm, p_ceiling,
                        accesses) in e2e.items():
        def listed(kind):
            return " + ".join(f"{n} x {w} B" for (k, w), n in accesses
                              if k == kind) or "-"
        print(f"| {name} | {label} | {moved / 1e6:.1f} | {gemm * 1e6:.0f} | "
              f"{relayout * 1e6:.0f} | {p:.2f} | {p_hbm:.2f} | "
              f"{p_ceiling:.2f} | {listed('load')} | {listed('store')} |")
    print("\nAITER's published figures against the timing model:")
    print("| shape | published | predicted | error |")
    print("| --- | ---: | ---: | ---: |")
    for label, published, predicted, error in checks:
        print(f"| {label} | {published * 1e6:.0f} us | {predicted * 1e6:.0f} "
              f"us | {error:+.1f}% |")
    if sweep:
        print("\nsensitivity: each assumed constant at x0.5 and x2 "
              "(recalibrated on AITER each time); PF at 16384^3")
        print("| constant | value | efficiency | AITER | mx seed | "
              "mx aiter-like | seed / AITER | aiter-like / AITER |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, factor, value, e, p in sweep:
            a = p[("aiter", "16384^3")]
            s = p[("seed", "16384^3")]
            l = p[("aiter-like", "16384^3")]
            print(f"| {name} x{factor:g} | {value:g} | {e:.3f} | {a:.2f} | "
                  f"{s:.2f} | {l:.2f} | {s / a:.3f} | {l / a:.3f} |")


if __name__ == "__main__":
    main()
