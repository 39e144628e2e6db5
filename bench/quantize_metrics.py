#!/usr/bin/env python3
"""Static metrics of the fused quantize kernel of the seed activation.

Compiles bench/quantize_seed_activation.mlir (10000 x 16384 bf16 quantized to
MXFP4 with seed 000's recipe, straight into the seed GEMM's operand layout:
16x16x128, intrinsics 16 x 4 x 2, 1 x 4 waves) with mx-gfx950-pipeline and
reports, read off the generated code:

  * dispatches that touch the bf16 activation (the quantize) and in all;
  * bytes read and written per element of the activation: each thread's
    loads of the input and stores to the destinations (vector and scalar
    memref ops, sized by their types) times the threads that execute them
    (the load sits under the thread's in-bounds test, so padding rows read
    nothing; every live thread stores, padding included), divided by M * K;
  * the kernel's registers, scratch, spills and code size (kernel report of
    the ISA);
  * the predicted time of the dispatch if it moves exactly those bytes at
    8 TB/s (MI355X HBM3E peak), and its issue bound: every thread's
    instructions (all of the straight-line kernel's, an upper bound) as
    wave64 instructions at one per cycle per CU (four SIMDs, four cycles
    each), 256 CUs at 2.4 GHz.

The seed layout is pinned with split-k=1: the resolver would split this
N = 256 GEMM's K over the CUs (the quantize would then write the split
layout, with the same bytes per thread).

With --rounding nearest_even the same activation is quantized with
nearest-even rounding instead of seed 000's ties-away (the values then
go to gfx950's packed scaled conversions as bf16 pairs,
v_cvt_scalef32_pk_fp4_bf16, instead of nudged f32 pairs).

With --both-axes, bench/quantize_rows_columns.mlir: a 10240 x 16384 bf16
activation quantized along K into the seed GEMM's layout and along M into
the plain layout (training's forward and backward operands), which
mx-gfx950-lower-quantize makes one kernel: row blocks from memory into LDS,
then column blocks from LDS. Its bytes are read off each phase (split at
the kernel's barrier): the phase's loads and stores per thread times its
threads per workgroup times the workgroups.

usage: bench/quantize_metrics.py [--mx-opt build/bin/mx-opt]
                                 [--rounding ties_away|nearest_even]
                                 [--both-axes]
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = os.path.join(ROOT, "bench", "quantize_seed_activation.mlir")
OPTIONS = ("intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 "
           "intrinsics-k=2 subgroups-n=4 split-k=1")
M, K = 10000, 16384
HBM_BYTES_PER_S = 8e12
CUS, CLOCK_HZ = 256, 2.4e9

TYPE_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "i8": 1}


def vector_bytes(text):
    """Bytes of a `vector<NxT>` or scalar element type T."""
    match = re.search(r"vector<(\d+)x(\w+)>", text)
    if match:
        return int(match.group(1)) * TYPE_BYTES[match.group(2)]
    match = re.search(r"memref<[0-9x]+x(\w+)>", text)
    return TYPE_BYTES[match.group(1)]


def compile_quantize(mx_opt, program, activation):
    """`program` compiled to GPU IR: its launches, those that read the
    `activation` memref type, and the text of the first such kernel."""
    gpu = subprocess.run(
        [mx_opt, "-", f"--mx-gfx950-pipeline=output=gpu {OPTIONS}"],
        input=program, check=True, capture_output=True, text=True).stdout
    launches = [l for l in gpu.splitlines() if "gpu.launch_func" in l]
    readers = [l for l in launches if activation in l]
    kernel_name = re.search(r"@(\w+)::", readers[0]).group(1)
    kernel = gpu[gpu.index(f"gpu.func @{kernel_name}("):]
    kernel = kernel[:kernel.index("gpu.return")]
    return launches, readers, kernel_name, kernel


def launch_names(launches):
    """"N: name, name, ..." of the program's launches."""
    return f"{len(launches)}: " + ", ".join(
        re.search(r"@(\w+)::", l).group(1) for l in launches)


def kernel_stats(mx_opt, program, kernel_name):
    """The kernel report of `kernel_name` in `program` compiled to ISA."""
    isa = subprocess.run(
        [mx_opt, "-", f"--mx-gfx950-pipeline=output=isa {OPTIONS}",
         "--mx-gfx950-kernel-report", "-o", os.devnull],
        input=program, check=True, capture_output=True, text=True).stdout
    report = isa[isa.index(f"kernel {kernel_name}"):]
    report = report[:report.index("\n", report.index("direct_to_lds_loads"))]
    return dict(re.findall(r"^\s+(\w+): (\d+)", report, re.M))


def both_axes(args):
    rows, cols = 10240, 16384
    with open(os.path.join(ROOT, "bench", "quantize_rows_columns.mlir")) as f:
        program = f.read()
    activation = f"memref<{rows}x{cols}xbf16>"
    launches, readers, kernel_name, kernel = compile_quantize(
        args.mx_opt, program, activation)
    workgroups = int(re.search(r"blocks in \(%c(\d+),", readers[0]).group(1))
    workgroup_size = int(re.search(r"threads in \(%c(\d+),",
                                   readers[0]).group(1))
    read = written = 0
    for phase in kernel.split("gpu.barrier"):
        threads = int(re.search(r"arith.cmpi ult, %thread_id_x, %c(\d+)",
                                phase).group(1)) * workgroups
        lines = phase.splitlines()
        read += threads * sum(
            vector_bytes(l) for l in lines
            if ("vector.load" in l or "memref.load" in l) and activation in l)
        written += threads * sum(
            vector_bytes(l) for l in lines
            if ("vector.store" in l or "memref.store" in l) and "xi8>" in l)
    stats = kernel_stats(args.mx_opt, program, kernel_name)
    elements = rows * cols
    print(f"activation {rows}x{cols} bf16 -> MXFP4 (EVEN, ties-away) along K "
          f"(seed GEMM operand layout) and along M (plain)")
    print(f"  dispatches reading the activation: {len(readers)} (program: "
          f"{launch_names(launches)})")
    print(f"  bytes read per element: {read / elements:.4f} (target 2: read "
          f"once)")
    print(f"  bytes written per element: {written / elements:.4f} (target "
          f"2 x (0.5 + 1/32) = 1.0625)")
    print(f"  registers: {stats['vgprs']} VGPRs, {stats['agprs']} AGPRs, "
          f"{stats['sgprs']} SGPRs, LDS {stats['lds_bytes']} B; scratch "
          f"{stats['scratch_bytes']} B, spills {stats['vgpr_spills']} VGPR / "
          f"{stats['sgpr_spills']} SGPR; occupancy {stats['waves_per_simd']} "
          f"waves/SIMD; code {stats['code_bytes']} B "
          f"({stats['instructions']} instructions)")
    total = read + written
    print(f"  bytes moved: {total / 1e6:.1f} MB -> "
          f"{total / HBM_BYTES_PER_S * 1e6:.1f} us at 8 TB/s (two separate "
          f"quantizes would read the activation twice: "
          f"{(total + 2 * elements) / HBM_BYTES_PER_S * 1e6:.1f} us)")
    waves = workgroups * workgroup_size // 64
    issue = waves * int(stats["instructions"]) / (CUS * CLOCK_HZ)
    print(f"  issue bound: {waves} waves x {stats['instructions']} instructions "
          f"/ ({CUS} CUs x 2.4 GHz) = {issue * 1e6:.1f} us")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mx-opt",
                        default=os.path.join(ROOT, "build", "bin", "mx-opt"))
    parser.add_argument("--rounding", default="ties_away",
                        choices=["ties_away", "nearest_even"])
    parser.add_argument("--both-axes", action="store_true")
    args = parser.parse_args()
    if args.both_axes:
        return both_axes(args)
    with open(PROGRAM) as f:
        program = f.read().replace("rounding(ties_away)",
                                   f"rounding({args.rounding})")

    activation = f"memref<{M}x{K}xbf16>"
    launches, quantize_launches, kernel_name, kernel = compile_quantize(
        args.mx_opt, program, activation)

    live = int(re.search(r"arith.cmpi ult, %\S+, %c(\d+) : index",
                         kernel).group(1))
    # Threads whose block is inside the activation: one per 32 elements.
    in_bounds = M * K // 32
    read_per_thread = sum(
        vector_bytes(l) for l in kernel.splitlines()
        if ("vector.load" in l or "memref.load" in l) and activation in l)
    write_per_thread = sum(
        vector_bytes(l) for l in kernel.splitlines()
        if ("vector.store" in l or "memref.store" in l) and "xi8>" in l)
    read = read_per_thread * in_bounds
    written = write_per_thread * live

    stats = kernel_stats(args.mx_opt, program, kernel_name)

    elements = M * K
    rounding = "ties-away" if args.rounding == "ties_away" else "nearest-even"
    print(f"seed activation {M}x{K} bf16 -> MXFP4 (EVEN, {rounding}) in the "
          f"seed GEMM's operand layout")
    print(f"  dispatches reading the activation: {len(quantize_launches)} "
          f"(program: {launch_names(launches)})")
    print(f"  threads: {live} live ({in_bounds} inside the activation, "
          f"{live - in_bounds} padding rows {M}..{live * 32 // K - 1})")
    print(f"  per thread: {read_per_thread} B loaded, {write_per_thread} B "
          f"stored")
    print(f"  bytes read per element: {read / elements:.4f} "
          f"(target 2)")
    print(f"  bytes written per element: {written / elements:.4f} "
          f"(target 0.5 + 1/32 = 0.53125; the layout pads M to "
          f"{live * 32 // K}: x{live * 32 / (K * M):.4f})")
    print(f"  registers: {stats['vgprs']} VGPRs, {stats['agprs']} AGPRs, "
          f"{stats['sgprs']} SGPRs; scratch {stats['scratch_bytes']} B, "
          f"spills {stats['vgpr_spills']} VGPR / {stats['sgpr_spills']} "
          f"SGPR; occupancy {stats['waves_per_simd']} waves/SIMD; code "
          f"{stats['code_bytes']} B ({stats['instructions']} instructions)")
    total = read + written
    print(f"  bytes moved: {total / 1e6:.1f} MB -> {total / HBM_BYTES_PER_S * 1e6:.1f} us "
          f"at 8 TB/s")
    waves = live // 64
    issue = waves * int(stats["instructions"]) / (CUS * CLOCK_HZ)
    print(f"  issue bound: {waves} waves x {stats['instructions']} instructions "
          f"/ ({CUS} CUs x 2.4 GHz) = {issue * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
