#!/usr/bin/env python3
# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""mx from Python, notebook-style: quantize a bf16 activation to MXFP4,
compile the seed000 GEMM for gfx950, run it on the gfx950 wave emulator
bit-exact against the independent reference, and print the kernel report.

Run from the repository root after the build (test/Python/quickstart.mlir
does):

    MX_LIBRARY=build/lib/libMXCAPI.so PYTHONPATH=python \\
        python3 examples/python/quickstart.py
"""

import os

import numpy as np

import mx

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GEMM = os.path.join(ROOT, "examples", "seed000_gemm.mlir")

# %% 1. A bf16 activation (numpy has no bf16: uint16 bit patterns, rounded
# to nearest even from float32) and bf16 weights.
rng = np.random.default_rng(0)
a = mx.float_to_bf16(rng.standard_normal((128, 512), dtype=np.float32))
b = mx.float_to_bf16(rng.standard_normal((96, 512), dtype=np.float32))

# %% 2. Quantize the activation on the CPU path with seed000's recipe: EVEN
# scales, ties-away rounding, blocks of 32 along K. FP4 comes back packed two
# per byte (low nibble first), scales one E8M0 byte per block.
a_fp4, a_scales = mx.quantize(a, "fp4", rule="even", rounding="ties_away",
                              axis=-1)
print("quantized A:", a_fp4.shape, a_fp4.dtype, "scales", a_scales.shape)
error = np.abs(mx.dequantize(a_fp4, a_scales, "fp4") - mx.bf16_to_float(a))
print("largest quantization error: %.3f" % error.max())

# %% 3. Compile the seed000 GEMM (quantize A and B, then C = A * B^T) for
# gfx950 with the 16x16x128 scaled MFMA.
program = mx.compile(GEMM, intrinsic="16x16x128")

# %% 4. Run it on the gfx950 wave emulator and compare every result with the
# reference evaluator (rounding as the kernel's MFMAs do: bit for bit).
c, qa, sa, qb, sb = mx.run(program, a, b, np.zeros((128, 96), np.float32),
                           backend="gfx950-emu", compare="reference")
assert np.array_equal(qa, a_fp4) and np.array_equal(sa, a_scales)
print("C:", c.shape, "bit-exact against the reference")

# %% 5. The kernels as compiled for gfx950.
for kernel in program.kernels:
    print("%-24s vgprs %3d agprs %3d lds %6d B scratch %d spills %d "
          "mfma %d" % (kernel.name, kernel.vgprs, kernel.agprs,
                       kernel.lds_bytes, kernel.scratch_bytes,
                       kernel.vgpr_spills + kernel.sgpr_spills, kernel.mfmas))
print(program.kernel_report)
