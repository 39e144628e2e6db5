#!/usr/bin/env python3
"""Static metrics of the gfx950 code that mx-gfx950-pipeline generates.

For each GEMM shape and each configuration (the resolver's default layout, or
layout parameters pinned through the pipeline's options), this drives the
real pipeline on an MXFP4 (by default) scaled contraction with B as N x K:

  1. mx-set-encodings + the pipeline's own mx-materialize-encodings (with
     the #mx_gfx950.target the pipeline builds from the pins, read from
     --dump-pass-pipeline): the data-tiled layout the pipeline uses
     (the same pass and options the pipeline runs first), read from the
     printed #mx.data_tiled_layout;
  2. mx-gfx950-pipeline{output=gpu <pins>}: the host function's
     gpu.launch_func ops (number of dispatches; the buffers of the relayout
     dispatches; the tiled buffers and the grid of the contraction);
  3. mx-gfx950-pipeline{output=isa <pins>} + mx-gfx950-kernel-report: the
     contraction kernel's registers, LDS, scratch, spills, occupancy, code
     size, and the MFMAs and loads of its main loop;
  4. mx-gfx950-pipeline{<pins>} (output=hsaco): wall time of the full
     compilation to code objects.

Nothing here knows which ukernel serves which layout or how a layout is
swizzled: the layout is read from the materialization, tile bytes from the
buffers the pipeline allocates, code statistics from the report.

Columns:
  layout      intrinsic, intrinsics_m x _n x _k per wave, waves subgroups_m x
              _n, and the workgroup tile M x N x K it implies.
  MFMA/step   intrinsics_m * intrinsics_n * intrinsics_k: MFMAs per wave and
              K step, what the layout implies.
  MFMA/iter   MFMAs in the main loop of the ISA (the loop with the most
              MFMAs); a multiple of MFMA/step when LLVM unrolls the K loop.
  gload/iter  global loads in the main loop (to registers; "+N lds" counts
              loads straight into LDS as well).
  B/MFMA wg   bytes of A, B and both scales one workgroup needs per K step,
              divided by the MFMAs of the workgroup per K step
              (subgroups_m * subgroups_n * MFMA/step). The bytes are the
              per-tile sizes of the tiled buffers the contraction reads
              (their shape behind the [Mo|No, Ko] tile indices).
  B/MFMA wave the same per wave when each wave loads its own fragments (its
              1/subgroups_m of A and lhs scales, 1/subgroups_n of B and rhs
              scales), i.e. without sharing through LDS.
  VGPR AGPR SGPR LDS scratch spills waves/SIMD code  from the report.
  disp        gpu.launch_func ops of the host function.
  relayout MB sum over the relayout dispatches of the sizes of the buffers
              they take (each reads its input and writes its output once;
              fills only write): the extra traffic data tiling costs.
  o/MFMA      non-MFMA instructions per MFMA in the main loop.
  LDS B/clk   LDS bytes (reads and DMA writes) per clock and CU that the
              main loop needs to keep the MFMA pipes busy.
  cyc/iter    predicted cycles of one main-loop iteration / its MFMA pipe
              cycles (bench/mx_perf_model.py; equal when MFMA-bound).
  pred us     predicted time of the contraction dispatch on MI355X, and
  PF/s        its PFLOP/s (the model, calibrated on AITER's kernel).
  relayout us the relayout MB at HBM peak (8 TB/s): a lower bound.
  t_hsaco     seconds of wall time of mx-opt compiling the program to code
              objects (output=hsaco); the fastest of --repeat runs.

With --types all (or a list of A:B pairs) it prints one row per pair of
element types instead of one per shape.

Usage: bench/ukernel_static_metrics.py [--mx-opt build/bin/mx-opt]
           [--shapes seed,decode] [--configs default,32x32x64]
           [--lhs-type f4E2M1FN] [--rhs-type f4E2M1FN]
           [--types all | f4E2M1FN:f8E4M3FN,...] [--acc arg|zero]
           [--result f32|bf16|f16] [--activation none|silu|gelu]
           [--repeat 1]
"""

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mx_perf_model  # noqa: E402

SHAPES = [  # (name, M, N, K)
    ("seed", 10000, 16384, 16384),
    ("16384^3", 16384, 16384, 16384),
    ("8192^3", 8192, 8192, 8192),
    ("decode", 64, 16384, 16384),
]

TYPES = ["f4E2M1FN", "f6E2M3FN", "f6E3M2FN", "f8E4M3FN", "f8E5M2"]

CONFIGS = [  # (name, pipeline / materialization options)
    ("default", ""),
    ("32x32x64", "intrinsic=32x32x64"),
    ("2x2 waves", "subgroups-m=2 subgroups-n=2"),
    ("4x4 on 2x2", "intrinsics-m=4 intrinsics-n=4 subgroups-m=2 subgroups-n=2"),
    ("8x8 on 2x2", "intrinsics-m=8 intrinsics-n=8 subgroups-m=2 subgroups-n=2"),
    # fp6/fp8 A's seed tile (A read one row ahead: rows of 4 MFMAs) and a
    # tile of rows of 8 (bench/README.md, "Wide A on 8 x 8 wave tiles").
    ("16x4 on 1x4", "intrinsics-m=16 intrinsics-n=4 subgroups-m=1 subgroups-n=4"),
    ("8x8 on 1x4", "intrinsics-m=8 intrinsics-n=8 subgroups-m=1 subgroups-n=4"),
    # The register schedules (issue 19): the ukernel's data picks the K
    # loop's unroll and the accumulators' register file per configuration
    # (default); these pin them for every configuration.
    ("no schedule", "unroll-k=1 reserve-accumulator-agprs=never"),
    ("agprs", "unroll-k=1 reserve-accumulator-agprs=always"),
    ("unroll2", "unroll-k=2 reserve-accumulator-agprs=never"),
    ("unroll2+agprs", "unroll-k=2 reserve-accumulator-agprs=always"),
    ("32x32x64 no schedule",
     "intrinsic=32x32x64 unroll-k=1 reserve-accumulator-agprs=never"),
    ("32x32x64 agprs",
     "intrinsic=32x32x64 unroll-k=1 reserve-accumulator-agprs=always"),
    ("32x32x64 unroll2+agprs",
     "intrinsic=32x32x64 unroll-k=2 reserve-accumulator-agprs=always"),
]

CONTRACTION = """
func.func @gemm(%a: tensor<{M}x{K}x{A}>, %b: tensor<{N}x{K}x{B}>,
                %sa: tensor<{M}x{KB}xf8E8M0FNU>, %sb: tensor<{N}x{KB}xf8E8M0FNU>
                {C_ARG}) -> tensor<{M}x{N}x{R}> {{
{C_DEF}  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<{M}x{K}x{A}>, tensor<{N}x{K}x{B}>,
                            tensor<{M}x{KB}xf8E8M0FNU>, tensor<{N}x{KB}xf8E8M0FNU>)
      outs(%c : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
{RESULT}}}
"""

# The accumulator: a function argument, or a +0.0 fill.
ACC_ARG = ", %c: tensor<{M}x{N}xf32>"
ACC_ZERO = """  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{M}x{N}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
"""
# An activation of the f32 result, as elementwise ops on tensors (%y):
# SiLU x / (1 + exp(-x)) or GELU-tanh 0.5 x (1 + tanh(0.7978846 (x +
# 0.044715 x^3))).
ACTIVATIONS = {
    "none": "",
    "silu": """  %one = arith.constant dense<1.0> : tensor<{M}x{N}xf32>
  %neg = arith.negf %r : tensor<{M}x{N}xf32>
  %exp = math.exp %neg : tensor<{M}x{N}xf32>
  %den = arith.addf %exp, %one : tensor<{M}x{N}xf32>
  %y = arith.divf %r, %den : tensor<{M}x{N}xf32>
""",
    "gelu": """  %half = arith.constant dense<0.5> : tensor<{M}x{N}xf32>
  %one = arith.constant dense<1.0> : tensor<{M}x{N}xf32>
  %k0 = arith.constant dense<0.797884583> : tensor<{M}x{N}xf32>
  %k1 = arith.constant dense<0.044715> : tensor<{M}x{N}xf32>
  %x2 = arith.mulf %r, %r : tensor<{M}x{N}xf32>
  %x3 = arith.mulf %x2, %r : tensor<{M}x{N}xf32>
  %cx3 = arith.mulf %k1, %x3 : tensor<{M}x{N}xf32>
  %inner = arith.addf %r, %cx3 : tensor<{M}x{N}xf32>
  %u = arith.mulf %k0, %inner : tensor<{M}x{N}xf32>
  %th = math.tanh %u : tensor<{M}x{N}xf32>
  %p = arith.addf %one, %th : tensor<{M}x{N}xf32>
  %hx = arith.mulf %half, %r : tensor<{M}x{N}xf32>
  %y = arith.mulf %hx, %p : tensor<{M}x{N}xf32>
""",
}
# The result: f32, or rounded to bf16/f16 by arith.truncf.
RESULT_F32 = "  return %y : tensor<{M}x{N}xf32>\n"
RESULT_TRUNC = """  %t = arith.truncf %y : tensor<{M}x{N}xf32> to tensor<{M}x{N}x{R}>
  return %t : tensor<{M}x{N}x{R}>
"""


# A quantized from `source` values (seed 000's recipe, EVEN scales and
# ties-away rounding) instead of passed quantized: the function takes %x.
QUANTIZE_A = """  %a, %sa = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<{M}x{K}x{S}> -> tensor<{M}x{K}x{A}>, tensor<{M}x{KB}xf8E8M0FNU>
"""


# B and its scales as constants (weights prepared offline: their relayout
# folds at compile time); splat values, which do not change the code.
CONSTANT_B = """  %b = arith.constant dense<1.0> : tensor<{N}x{K}x{B}>
  %sb = arith.constant dense<1.0> : tensor<{N}x{KB}xf8E8M0FNU>
"""


def contraction(m, n, k, lhs_type, rhs_type, acc="arg", result="f32",
                activation="none", source=None, constant_b=False,
                prepack_b=False):
    """The benchmarked program: C (+)= A x B with B as N x K; with `source`
    (e.g. "bf16") A is quantized in the program from `source` values; with
    `constant_b` B and its scales are constants; with `prepack_b` they are
    arguments marked `mx.prepack` (packed once, outside the per-call
    function: mx-hoist-argument-relayouts)."""
    values = dict(M=m, N=n, K=k, KB=k // 32, A=lhs_type, B=rhs_type, R=result,
                  S=source)
    text = CONTRACTION
    if prepack_b:
        text = text.replace("%b: tensor<{N}x{K}x{B}>,",
                            "%b: tensor<{N}x{K}x{B}> {{mx.prepack}},")
        text = text.replace("%sb: tensor<{N}x{KB}xf8E8M0FNU>\n",
                            "%sb: tensor<{N}x{KB}xf8E8M0FNU> {{mx.prepack}}\n")
    if constant_b:
        text = text.replace(", %b: tensor<{N}x{K}x{B}>", "")
        text = text.replace(", %sb: tensor<{N}x{KB}xf8E8M0FNU>", "")
        text = text.replace(
            "                %sa: tensor<{M}x{KB}xf8E8M0FNU>\n",
            "                %sa: tensor<{M}x{KB}xf8E8M0FNU>")
        text = text.replace("{C_DEF}", CONSTANT_B + "{C_DEF}")
    if source:
        text = text.replace("%a: tensor<{M}x{K}x{A}>", "%x: tensor<{M}x{K}x{S}>")
        text = text.replace("%sa: tensor<{M}x{KB}xf8E8M0FNU>, ", "")
        text = text.replace("%sa: tensor<{M}x{KB}xf8E8M0FNU>", "")
        text = text.replace("{C_DEF}", QUANTIZE_A + "{C_DEF}")
    text = text.replace("{C_ARG}", ACC_ARG if acc == "arg" else "")
    text = text.replace("{C_DEF}", ACC_ZERO if acc == "zero" else "")
    result_text = RESULT_F32 if result == "f32" else RESULT_TRUNC
    if activation == "none":
        result_text = result_text.replace("%y", "%r")
    text = text.replace("{RESULT}", ACTIVATIONS[activation] + result_text)
    # (No comma before the closing parenthesis of the arguments.)
    text = re.sub(r",(\s*)\)", r"\1)", text)
    return text.format(**values)

# Bits per element of the buffers the pipeline's host IR passes (i1 is
# stored as a byte; fp4 packed two to a byte).
ELEMENT_BITS = {"i1": 8, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
                "bf16": 16, "f16": 16, "f32": 32, "f64": 64, "f4E2M1FN": 4,
                "f8E8M0FNU": 8, "f8E4M3FN": 8, "f8E5M2": 8}
# Bytes per element of the whole-byte types.
ELEMENT_BYTES = {name: bits // 8 for name, bits in ELEMENT_BITS.items()
                 if bits % 8 == 0}


class Failure(Exception):
    pass


def print_columns(header, rows):
    """Prints `rows` (lists of strings) under `header` in aligned columns;
    a shorter row (e.g. a shape and its error) is printed as it is."""
    full = [r for r in rows if len(r) == len(header)]
    widths = [max(len(r[i]) for r in full + [header])
              for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))


def run(cmd, stdin):
    """Runs mx-opt; returns (stdout, seconds)."""
    start = time.perf_counter()
    result = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        message = next((line for line in result.stderr.splitlines()
                        if "error:" in line), result.stderr.strip())
        raise Failure(message.split("error:", 1)[-1].strip())
    return result.stdout, seconds


def parse_layout(ir):
    # The intrinsic is an attribute of its own (one level of <...>).
    match = re.search(r"#mx\.data_tiled_layout<((?:[^<>]|<[^<>]*>)*)>", ir)
    if not match:
        raise Failure("no #mx.data_tiled_layout in the materialized program")
    text = match.group(1)
    layout = dict(intrinsics_m=1, intrinsics_n=1, intrinsics_k=1,
                  subgroups_m=1, subgroups_n=1)
    for key, value in re.findall(r"(\w+) = (\d+)\b", text):
        layout[key] = int(value)
    # #mx_gfx950.scaled_mfma<16x16x128> -> mfma_scale_16x16x128 and
    # (16, 16, 128): the intrinsic's own M, N, K.
    dims = re.search(r"intrinsic = #mx_gfx950\.scaled_mfma<(\d+)x(\d+)x(\d+)>",
                     text)
    layout["intrinsic"] = "mfma_scale_%sx%sx%s" % dims.groups()
    layout["shape"] = tuple(int(d) for d in dims.groups())
    return layout


def split_args(text):
    """Splits 'a : T, b : U' at top-level commas (types nest <[...]>)."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def memref_dims(type_text):
    """(static dims, element type name) of 'memref<2x3xi8, strided<...>>',
    or None if it is not a memref type."""
    match = re.match(r"memref<([^,>]*)", type_text)
    if not match:
        return None
    *dims, element = match.group(1).split("x")
    if any(not d.isdigit() for d in dims):
        raise Failure("dynamic buffer shape %s" % type_text)
    return [int(d) for d in dims], element


def memref_shape(type_text):
    """(shape, element bytes) of 'memref<2x3xi8, strided<...>>', or None."""
    parsed = memref_dims(type_text)
    if parsed is None:
        return None
    dims, element = parsed
    return dims, ELEMENT_BYTES[element]


def memref_bytes(type_text):
    """The bytes a static memref type views (sub-byte elements packed)."""
    parsed = memref_dims(type_text)
    if parsed is None:
        raise Failure("not a memref type: %s" % type_text)
    dims, element = parsed
    return math.prod(dims) * ELEMENT_BITS[element] // 8


def entry_ir(ir, name="gemm"):
    """The text of host function @`name` in `ir` (without the packing
    functions of its mx.prepack arguments, whose launches run once per
    model load)."""
    start = ir.find("func.func @%s(" % name)
    if start < 0:
        raise Failure("no function @%s" % name)
    end = ir.find("\n  }", start)
    return ir[start:end if end >= 0 else len(ir)]


def parse_launches(ir):
    """The host's gpu.launch_func ops: (kernel, blocks, threads, args)."""
    constants = {name: int(value) for name, value in re.findall(
        r"%(\w+) = arith\.constant (\d+) : index", ir)}
    launches = []
    for match in re.finditer(
            r"gpu\.launch_func\s+@[\w.]+::@(\w+) blocks in \(([^)]*)\) "
            r"threads in \(([^)]*)\)\s+args\((.*)\)\s*$", ir, re.M):
        kernel, blocks, threads, args = match.groups()
        resolve = lambda xs: [constants.get(x.strip().lstrip("%"), x.strip())
                              for x in xs.split(",")]
        types = [a.split(" : ", 1)[1] for a in split_args(args)]
        launches.append((kernel, resolve(blocks), resolve(threads), types))
    return launches


def parse_report(text):
    kernels, current = {}, None
    for line in text.splitlines():
        if line.startswith("kernel "):
            current = kernels.setdefault(line.split()[1], {})
        elif current is not None and ": " in line:
            key, value = line.strip().split(": ", 1)
            current[key] = value
    return kernels


def materialize_pass(mx_opt, options):
    """The mx-materialize-encodings pass that mx-gfx950-pipeline runs for
    `options` (its pins, e.g. 'intrinsic=32x32x64 intrinsics-m=4'), with the
    target attribute the pipeline builds, taken from --dump-pass-pipeline."""
    result = subprocess.run(
        [mx_opt, "-", "--mx-gfx950-pipeline=%s output=gpu" % options,
         "--dump-pass-pipeline", "-o", os.devnull],
        input="module {}", capture_output=True, text=True)
    match = re.search(r"mx-materialize-encodings\{.*\}", result.stderr)
    if result.returncode != 0 or not match:
        message = next((line for line in result.stderr.splitlines()
                        if "error:" in line), result.stderr.strip())
        raise Failure(message.split("error:", 1)[-1].strip())
    return match.group(0)


def relayout_bytes(launches):
    """The bytes the relayout dispatches among `launches` move: the sizes of
    all their buffers (each read or written once)."""
    total = 0
    for name, _, _, arg_types in launches:
        if "_relayout" in name:
            for t in arg_types:
                parsed = memref_shape(t)
                if parsed:
                    total += math.prod(parsed[0]) * parsed[1]
    return total


def program_relayout_bytes(mx_opt, m, n, k, options="", lhs_type="f4E2M1FN",
                           rhs_type="f4E2M1FN", acc="arg", result="f32",
                           prepack_b=False):
    """relayout_bytes of the benchmarked program compiled with `options`,
    per call (with `prepack_b`, B's packing runs once, not counted)."""
    ir = contraction(m, n, k, lhs_type, rhs_type, acc, result,
                     prepack_b=prepack_b)
    gpu, _ = run([mx_opt, "-", "--mx-gfx950-pipeline=%s output=gpu" % options],
                 ir)
    return relayout_bytes(parse_launches(entry_ir(gpu)))


def measure(mx_opt, shape, options, lhs_type, rhs_type, repeat, acc="arg",
            result="f32", activation="none"):
    _, m, n, k = shape
    ir = contraction(m, n, k, lhs_type, rhs_type, acc, result, activation)
    materialized, _ = run([mx_opt, "-", "--pass-pipeline=builtin.module("
                           "mx-set-encodings,%s)"
                           % materialize_pass(mx_opt, options)], ir)
    layout = parse_layout(materialized)
    pipeline = "--mx-gfx950-pipeline=%s" % options
    gpu, _ = run([mx_opt, "-", pipeline + " output=gpu"], ir)
    with tempfile.NamedTemporaryFile("r", suffix=".report") as report:
        isa_ir, _ = run([mx_opt, "-", pipeline + " output=isa",
                         "--mx-gfx950-kernel-report=output=" + report.name],
                        ir)
        report_text = report.read()
    t_hsaco = min(run([mx_opt, "-", pipeline, "-o", os.devnull], ir)[1]
                  for _ in range(repeat))

    launches = parse_launches(gpu)
    mma = [l for l in launches if re.search(r"_mma\d+$", l[0])]
    if len(mma) != 1:
        raise Failure("expected one contraction dispatch, got %d" % len(mma))
    kernel, blocks, threads, types = mma[0]
    sm, sn = layout["subgroups_m"], layout["subgroups_n"]
    im, inn, ik = (layout["intrinsics_m"], layout["intrinsics_n"],
                   layout["intrinsics_k"])
    if threads[0] != 64 * sm * sn:
        raise Failure("contraction launch has %s threads, the layout %d waves"
                      % (threads[0], sm * sn))
    # Bytes of one K step of each input tile: the tiled buffers are
    # [Mo|No, Ko, tile...] (no batch dimensions here).
    tile_bytes = []
    for t in types[:4]:
        dims, size = memref_shape(t)
        tile_bytes.append(math.prod(dims[2:]) * size)
    a, b, sa, sb = tile_bytes
    per_step = im * inn * ik
    bpm_wg = (a + b + sa + sb) / (sm * sn * per_step)
    bpm_wave = (a / sm + sa / sm + b / sn + sb / sn) / per_step

    relayout = relayout_bytes(launches)

    stats = parse_report(report_text).get(kernel)
    if stats is None:
        raise Failure("no report for kernel %s" % kernel)
    predicted = predict(isa_ir, kernel, shape, sm * sn,
                        sm * im * layout["shape"][0],
                        sn * inn * layout["shape"][1], stats, result,
                        relayout, acc)
    im_, in_, ik_ = layout["shape"]
    tile = "%dx%dx%d" % (sm * im * im_, sn * inn * in_, ik * ik_)
    lds_dma = int(stats.get("main_loop.direct_to_lds_loads", 0))
    gloads = stats.get("main_loop.global_loads", "-")
    if lds_dma:
        gloads += "+%d lds" % lds_dma
    return [
        "%s %dx%dx%d w%dx%d %s" % (layout["intrinsic"].replace("mfma_scale_", ""),
                                   im, inn, ik, sm, sn, tile),
        str(per_step),
        stats.get("main_loop.mfma", "no loop (%s total)" % stats["mfma"]),
        gloads,
        "%.0f" % bpm_wg, "%.0f" % bpm_wave,
        stats["vgprs"], stats["agprs"], stats["sgprs"], stats["lds_bytes"],
        stats["scratch_bytes"],
        str(int(stats["vgpr_spills"]) + int(stats["sgpr_spills"])),
        stats["waves_per_simd"], stats["code_bytes"],
        str(len(launches)), "%.1f" % (relayout / 1e6),
    ] + predicted + ["%.2f" % t_hsaco]


def kernel_model(isa_ir, kernel, waves, tile_m, tile_n, stats, result,
                 acc):
    """What the static model needs of a contraction kernel: its main loop
    (None when it has none), waves, tile, workgroups per CU, result bytes
    and C bytes read per element (4 for C += A x B: the f32 accumulator
    tile is loaded from memory; 0 for a zero-filled accumulator)."""
    asm = mx_perf_model.assemblies_from_ir(isa_ir).get(kernel)
    if asm is None:
        return None
    instrs, labels = mx_perf_model.parse_isa(asm)
    body = mx_perf_model.main_loop(instrs, labels)
    if body is None:
        return None
    return dict(body=body, waves=waves, tile_m=tile_m, tile_n=tile_n,
                wgs=max(1, int(stats["waves_per_simd"]) * 4 // waves),
                out_bytes={"f32": 4, "bf16": 2, "f16": 2}[result],
                c_load_bytes=4 if acc == "arg" else 0)


def model_kernel(model, shape, machine):
    """(LoopAnalysis, GemmPrediction) of a kernel_model at shape (name, M,
    N, K) on `machine`."""
    loop = mx_perf_model.analyze_loop(model["body"], machine,
                                      waves_per_cu=model["waves"] *
                                      model["wgs"])
    _, m, n, k = shape
    gemm = mx_perf_model.predict_gemm(
        loop, m, n, k, model["tile_m"], model["tile_n"], model["waves"],
        model["wgs"], model["out_bytes"], machine,
        c_load_bytes=model["c_load_bytes"])
    return loop, gemm


def compile_kernel(mx_opt, shape, options="", lhs_type="f4E2M1FN",
                   rhs_type="f4E2M1FN", acc="arg", result="f32"):
    """kernel_model of the contraction kernel that mx-gfx950-pipeline
    (with `options`, its pins) generates for the benchmarked program at
    shape (name, M, N, K); with the defaults, the seed kernel (C += A x B,
    f32, the resolver's layout) that the headline figures model."""
    _, m, n, k = shape
    ir = contraction(m, n, k, lhs_type, rhs_type, acc, result)
    materialized, _ = run([mx_opt, "-", "--pass-pipeline=builtin.module("
                           "mx-set-encodings,%s)"
                           % materialize_pass(mx_opt, options)], ir)
    layout = parse_layout(materialized)
    with tempfile.NamedTemporaryFile("r", suffix=".report") as report:
        isa_ir, _ = run([mx_opt, "-", "--mx-gfx950-pipeline=%s output=isa"
                         % options,
                         "--mx-gfx950-kernel-report=output=" + report.name],
                        ir)
        report_text = report.read()
    kernels = [name for name in mx_perf_model.assemblies_from_ir(isa_ir)
               if re.search(r"_mma\d+$", name)]
    if len(kernels) != 1:
        raise Failure("expected one contraction kernel, got %d" % len(kernels))
    stats = parse_report(report_text).get(kernels[0])
    if stats is None:
        raise Failure("no report for kernel %s" % kernels[0])
    sm, sn = layout["subgroups_m"], layout["subgroups_n"]
    model = kernel_model(isa_ir, kernels[0], sm * sn,
                         sm * layout["intrinsics_m"] * layout["shape"][0],
                         sn * layout["intrinsics_n"] * layout["shape"][1],
                         stats, result, acc)
    if model is None:
        raise Failure("kernel %s has no main loop" % kernels[0])
    model["kernel"] = kernels[0]
    model["layout"] = layout
    model["spills"] = (int(stats["vgpr_spills"]) + int(stats["sgpr_spills"]) +
                       int(stats["scratch_bytes"]))
    return model


def predict(isa_ir, kernel, shape, waves, tile_m, tile_n, stats, result,
            relayout_bytes, acc="arg"):
    """The static performance model's columns (bench/mx_perf_model.py):
    other instructions per MFMA in the main loop, LDS demand, the main
    loop's cycles against its MFMA cycles, the contraction dispatch's
    predicted time and PFLOP/s (with the C tile's read when the program
    accumulates into C), and the relayouts' time at HBM speed."""
    model = kernel_model(isa_ir, kernel, waves, tile_m, tile_n, stats,
                         result, acc)
    if model is None:
        return ["-"] * 6
    machine = calibrated_machine()
    loop, gemm = model_kernel(model, shape, machine)
    return ["%.2f" % loop.other_per_mfma, "%.0f" % loop.lds_demand,
            "%.0f/%d" % (loop.cycles, loop.mfma_cycles),
            "%.0f" % (gemm.seconds * 1e6), "%.2f" % gemm.pflops,
            "%.0f" % (mx_perf_model.relayout_seconds(relayout_bytes,
                                                     machine) * 1e6)]


_MACHINE = []


def calibrated_machine():
    """The model's machine with its efficiency fitted on AITER's kernel
    (once per run; 0.622 when the AITER snapshot is not on this machine)."""
    if not _MACHINE:
        try:
            _MACHINE.append(mx_perf_model.calibrate()[0])
        except (OSError, subprocess.CalledProcessError):
            _MACHINE.append(mx_perf_model.Machine(efficiency=0.622))
    return _MACHINE[0]


HEADER = ["shape", "layout (intrinsic im x in x ik, waves, tile)", "MFMA/step",
          "MFMA/iter", "gload/iter", "B/MFMA wg", "B/MFMA wave", "VGPR",
          "AGPR", "SGPR", "LDS", "scratch", "spills", "waves/SIMD", "code B",
          "disp", "relayout MB", "o/MFMA", "LDS B/clk", "cyc/iter",
          "pred us", "PF/s", "relayout us", "t_hsaco s"]


def print_table(rows):
    """Rows of one string are errors: printed after the label, unaligned."""
    full = [r for r in rows if len(r) == len(HEADER)]
    widths = [max(len(r[i]) for r in full + [HEADER])
              for i in range(len(HEADER))]
    for row in [HEADER] + rows:
        if len(row) != len(HEADER):
            print(row[0].ljust(widths[0]) + "  " + row[1])
            continue
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--mx-opt",
                        default=os.path.join(root, "build", "bin", "mx-opt"))
    parser.add_argument("--shapes", default=",".join(s[0] for s in SHAPES),
                        help="comma-separated subset of: %s"
                        % ", ".join(s[0] for s in SHAPES))
    parser.add_argument("--configs", default=",".join(c[0] for c in CONFIGS),
                        help="comma-separated subset of: %s"
                        % ", ".join(c[0] for c in CONFIGS))
    parser.add_argument("--lhs-type", default="f4E2M1FN")
    parser.add_argument("--rhs-type", default="f4E2M1FN")
    parser.add_argument("--types", default="",
                        help="'all' (the 25 pairs of the five MX element "
                        "types) or comma-separated lhs:rhs pairs; one row "
                        "per pair (overrides --lhs-type/--rhs-type)")
    parser.add_argument("--acc", choices=["arg", "zero"], default="arg",
                        help="the accumulator: a function argument (C += A "
                        "x B) or a +0.0 fill")
    parser.add_argument("--result", choices=["f32", "bf16", "f16"],
                        default="f32",
                        help="the result type (bf16/f16: arith.truncf of "
                        "the f32 result)")
    parser.add_argument("--activation", choices=sorted(ACTIVATIONS),
                        default="none",
                        help="an activation of the f32 result (before "
                        "--result's conversion), as elementwise ops")
    parser.add_argument("--repeat", type=int, default=1,
                        help="compile to hsaco this many times, report the "
                        "fastest")
    args = parser.parse_args()
    if not os.access(args.mx_opt, os.X_OK):
        sys.exit("no mx-opt at %s (build it, or pass --mx-opt)" % args.mx_opt)

    shapes = [s for s in SHAPES if s[0] in args.shapes.split(",")]
    configs = [c for c in CONFIGS if c[0] in args.configs.split(",")]
    if args.types == "all":
        pairs = [(a, b) for a in TYPES for b in TYPES]
    elif args.types:
        pairs = [tuple(p.split(":", 1)) for p in args.types.split(",")]
    else:
        pairs = [(args.lhs_type, args.rhs_type)]
    for name, options in configs:
        for shape in shapes:
            if len(pairs) == 1:
                continue
            print("config %s (%s), %s %dx%dx%d, B as N x K"
                  % ((name, options or "resolver") + shape))
            rows = []
            for lhs, rhs in pairs:
                label = "%s x %s" % (lhs, rhs)
                try:
                    rows.append([label] + measure(args.mx_opt, shape, options,
                                                  lhs, rhs, args.repeat,
                                                  args.acc, args.result,
                                                  args.activation))
                except Failure as failure:
                    rows.append([label, "error: %s" % failure])
            print_table(rows)
            print()
        if len(pairs) != 1:
            continue
        print("config %s (%s), %s x %s, B as N x K, acc %s, result %s%s"
              % (name, options or "resolver", pairs[0][0], pairs[0][1],
                 args.acc, args.result,
                 "" if args.activation == "none"
                 else ", activation " + args.activation))
        rows = []
        for shape in shapes:
            label = "%s %dx%dx%d" % shape
            try:
                rows.append([label] + measure(args.mx_opt, shape, options,
                                              pairs[0][0], pairs[0][1],
                                              args.repeat, args.acc,
                                              args.result, args.activation))
            except Failure as failure:
                rows.append([label, "error: %s" % failure])
        print_table(rows)
        print()


if __name__ == "__main__":
    main()
