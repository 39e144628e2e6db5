# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""pytest set-up: the package under test is this checkout's python/mx unless
MX_PYTHON_INSTALLED=1 (then whatever `import mx` finds, e.g. a pip install);
the library is found as mx._capi says (MX_LIBRARY first)."""

import os
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if os.environ.get("MX_PYTHON_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(ROOT, "python"))


@pytest.fixture
def root():
    """The repository root."""
    return ROOT


@pytest.fixture
def seed000():
    """The seed000 vectors (test/data/mxfp4-seed000/m128n96k512) as numpy
    arrays: A and B bf16 bits, their fp4 bytes and E8M0 scales, C f32."""
    import numpy as np
    folder = os.path.join(ROOT, "test", "data", "mxfp4-seed000",
                          "m128n96k512")

    def read(name, dtype, shape):
        return np.fromfile(os.path.join(folder, name), dtype).reshape(shape)

    return {
        "A_bf16": read("A_bf16.bin", np.uint16, (128, 512)),
        "B_bf16": read("B_bf16.bin", np.uint16, (96, 512)),
        "A_fp4": read("A_fp4.bin", np.uint8, (128, 256)),
        "A_e8m0": read("A_e8m0.bin", np.uint8, (128, 16)),
        "B_fp4": read("B_fp4.bin", np.uint8, (96, 256)),
        "B_e8m0": read("B_e8m0.bin", np.uint8, (96, 16)),
        "C_f32": read("C_f32.bin", np.float32, (128, 96)),
    }
