#!/usr/bin/env python3
"""Static metrics of the gfx950 MXFP4 ukernel for the layouts the resolver picks.

For each GEMM shape: mx-set-encodings + mx-materialize-encodings choose the
data-tiled layout; the embedded MXFP4 ukernel is specialized to it
(mx-gfx950-specialize-ukernels) inside a one-workgroup kernel, compiled to
gfx950 ISA, and mx-gfx950-kernel-report reads registers, scratch, spills,
occupancy, code size and the main loop's MFMAs and loads. Bytes loaded per
MFMA follow from the layout (each wave reads its A/B fragments and scale bytes
straight from global memory; no LDS sharing yet). Times are wall-clock seconds
of the mx-opt runs on this machine.

Usage: bench/ukernel_static_metrics.py [--mx-opt build/bin/mx-opt]
"""

import argparse
import os
import re
import subprocess
import sys
import time

SHAPES = [  # (name, M, N, K)
    ("seed 10000x16384x16384", 10000, 16384, 16384),
    ("16384^3", 16384, 16384, 16384),
    ("8192^3", 8192, 8192, 8192),
    ("decode 64x16384x16384", 64, 16384, 16384),
]

CONTRACTION = """
func.func @gemm(%a: tensor<{M}x{K}xf4E2M1FN>, %b: tensor<{N}x{K}xf4E2M1FN>,
                %sa: tensor<{M}x{KB}xf8E8M0FNU>, %sb: tensor<{N}x{KB}xf8E8M0FNU>,
                %c: tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<{M}x{K}xf4E2M1FN>, tensor<{N}x{K}xf4E2M1FN>,
                            tensor<{M}x{KB}xf8E8M0FNU>, tensor<{N}x{KB}xf8E8M0FNU>)
      outs(%c : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}
"""

UKERNEL = "mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN"
TYPES = ("memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, "
         "memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, "
         "memref<?x?x?x?x64x4xf32, 1>")

KERNEL = """
module attributes {{gpu.container_module}} {{
  gpu.module @k [#rocdl.target<chip = "gfx950">] {{
    func.func private @{uk}({types}, index, index, index, index, index, index)
    gpu.func @matmul(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?x?x64x4xf32, 1>) kernel
        attributes {{known_block_size = array<i32: {threads}, 1, 1>}} {{
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant {sn} : index
      %im = arith.constant {im} : index
      %in = arith.constant {inn} : index
      %ik = arith.constant {ik} : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      func.call @{uk}(%lhs, %rhs, %ls, %rs, %acc, %wm, %wn, %lane, %im, %in, %ik)
          : ({types}, index, index, index, index, index, index) -> ()
      gpu.return
    }}
  }}
}}
"""

PIPELINE = ("builtin.module(mx-gfx950-specialize-ukernels,"
            "gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),"
            "gpu-module-to-binary{format=isa},mx-gfx950-kernel-report)")


def run(cmd, stdin):
    start = time.perf_counter()
    result = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("command failed: %s\n%s" % (" ".join(cmd), result.stderr))
    return result.stdout, time.perf_counter() - start


def layout_of(mx_opt, m, n, k):
    ir = CONTRACTION.format(M=m, N=n, K=k, KB=k // 32)
    out, seconds = run([mx_opt, "-", "--mx-set-encodings",
                        "--mx-materialize-encodings"], ir)
    match = re.search(r"#layout = #mx.data_tiled_layout<([^>]*)>", out)
    if not match:
        sys.exit("no layout for %dx%dx%d" % (m, n, k))
    params = dict(intrinsics_m=1, intrinsics_n=1, intrinsics_k=1,
                  subgroups_m=1, subgroups_n=1)
    for key, value in re.findall(r"(\w+) = (\d+)", match.group(1)):
        params[key] = int(value)
    intrinsic = re.search(r"intrinsic = (\w+)", match.group(1)).group(1)
    return intrinsic, params, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--mx-opt", default=os.path.join(root, "build", "bin",
                                                         "mx-opt"))
    args = parser.parse_args()

    header = ("shape", "tile MxNxK", "waves", "im,in,ik", "MFMA/iter",
              "B/MFMA", "VGPR", "AGPR", "scratch", "spills", "waves/SIMD",
              "code B", "t_encode s", "t_codegen s")
    rows = []
    for name, m, n, k in SHAPES:
        intrinsic, p, t_encode = layout_of(args.mx_opt, m, n, k)
        im, inn, ik = p["intrinsics_m"], p["intrinsics_n"], p["intrinsics_k"]
        sm, sn = p["subgroups_m"], p["subgroups_n"]
        tile = "%dx%dx%d" % (sm * im * 16, sn * inn * 16, ik * 128)
        if intrinsic != "mfma_scale_16x16x128" or (im * ik) % 4 or (inn * ik) % 4:
            rows.append((name, tile, str(sm * sn), "%d,%d,%d" % (im, inn, ik),
                         "no ukernel") + ("",) * 9)
            continue
        kernel = KERNEL.format(uk=UKERNEL, types=TYPES, threads=64 * sm * sn,
                               sn=sn, im=im, inn=inn, ik=ik)
        report, t_codegen = run([args.mx_opt, "-", "--pass-pipeline=" + PIPELINE,
                                 "-o", os.devnull], kernel)
        stats = dict(re.findall(r"^\s+([\w.]+): (\S+)$", report, re.M))
        mfmas = int(stats["main_loop.mfma"])
        # Per wave and K step: A and B fragments (16 B per lane) and scales.
        bytes_per_step = 64 * ((im + inn) * ik * 16 + (im + inn) * ik)
        rows.append((name, tile, str(sm * sn), "%d,%d,%d" % (im, inn, ik),
                     str(mfmas), "%.0f" % (bytes_per_step / mfmas),
                     stats["vgprs"], stats["agprs"], stats["scratch_bytes"],
                     str(int(stats["vgpr_spills"]) + int(stats["sgpr_spills"])),
                     stats["waves_per_simd"], stats["code_bytes"],
                     "%.2f" % t_encode, "%.2f" % t_codegen))
    widths = [max(len(str(r[i])) for r in rows + [header])
              for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))


if __name__ == "__main__":
    main()
