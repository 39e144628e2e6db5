# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""mx from Python: compile MX scaled-matmul programs for gfx950, run them on
the CPU path, the gfx950 wave emulator, the ISA executor or a GPU, compare
with the independent reference, quantize and draw layouts.

    import mx, numpy as np
    prog = mx.compile("examples/seed000_gemm.mlir", intrinsic="16x16x128")
    print(prog.kernel_report)
    c, *_ = mx.run(prog, a_bf16, b_bf16, np.zeros((128, 96), np.float32),
                   backend="gfx950-emu", compare="reference")

A ctypes binding of the C API (libMXCAPI.so; see mx._capi for how it is
found, MX_LIBRARY first). docs/guides/python.md is the guide.
"""

from ._api import (BACKENDS, FORMATS, PIPELINE_OPTIONS, Kernel, MismatchError,
                   Program, Results, compile, dequantize, entry_types, layout,
                   quantize, run, version)
from ._capi import MXError
from ._tensors import TensorType, bf16_to_float, float_to_bf16

__all__ = [
    "BACKENDS", "FORMATS", "PIPELINE_OPTIONS", "Kernel", "MXError",
    "MismatchError", "Program", "Results", "TensorType", "bf16_to_float",
    "compile", "dequantize", "entry_types", "float_to_bf16", "layout",
    "quantize", "run", "version"
]
__version__ = "0.1.0"
