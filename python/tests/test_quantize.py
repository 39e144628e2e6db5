# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""mx.quantize, mx.dequantize, bf16 conversion and mx.layout."""

import numpy as np
import pytest

import mx

# The values of the fp4 (E2M1) codes 0..15.
FP4 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4,
                -6], np.float32)


def test_quantize_reproduces_seed000(seed000):
    """The seed's EVEN/ties-away recipe on its bf16 activations gives its
    recorded fp4 bytes and E8M0 scales bit for bit."""
    elements, scales = mx.quantize(seed000["A_bf16"], "fp4", rule="even",
                                   rounding="ties_away", axis=-1)
    assert elements.dtype == np.uint8 and elements.shape == (128, 256)
    assert np.array_equal(elements, seed000["A_fp4"])
    assert np.array_equal(scales, seed000["A_e8m0"])


def test_dequantize_is_code_value_times_scale(seed000):
    elements, scales = seed000["A_fp4"], seed000["A_e8m0"]
    values = mx.dequantize(elements, scales, "fp4")
    codes = np.empty((128, 512), np.uint8)
    codes[:, 0::2] = elements & 0xF
    codes[:, 1::2] = elements >> 4
    want = FP4[codes] * np.exp2(np.repeat(scales.astype(np.float64), 32,
                                          axis=1) - 127)
    assert np.array_equal(values, want.astype(np.float32))
    # One code per element is accepted as well as packed bytes.
    assert np.array_equal(mx.dequantize(codes, scales, "fp4"), values)


@pytest.mark.parametrize("fmt", sorted(mx.FORMATS))
def test_round_trip_every_format_along_either_axis(fmt):
    x = np.random.default_rng(2).standard_normal((64, 64)).astype(np.float32)
    for axis in (0, 1):
        elements, scales = mx.quantize(x, fmt, rule="floor",
                                       rounding="nearest_even", axis=axis)
        values = mx.dequantize(elements, scales, fmt, axis=axis)
        assert values.shape == x.shape
        # Within the format's precision of each block's largest magnitude.
        block = np.abs(x).reshape((2, 32, 64) if axis == 0 else
                                  (64, 2, 32)).max(axis=1 if axis == 0 else 2)
        bound = np.repeat(block, 32, axis=axis) * 0.5
        assert np.all(np.abs(values - x) <= bound)


def test_bf16_round_to_nearest_even():
    x = np.array([1.0, 1.00390625, 1.01171875, -2.5, np.inf], np.float32)
    # 1 + 2^-8 is a tie: to even (1.0); 1 + 3 * 2^-8 rounds up.
    assert list(mx.float_to_bf16(x)) == [0x3F80, 0x3F80, 0x3F82, 0xC020,
                                         0x7F80]
    assert np.isnan(mx.bf16_to_float(mx.float_to_bf16(np.float32("nan"))))
    # A float array given for a bf16 argument is converted the same way.
    a = np.random.default_rng(3).standard_normal((128, 512)).astype(np.float32)
    e1, s1 = mx.quantize(mx.float_to_bf16(a), "fp4")
    e2, s2 = mx.quantize(a, "fp4", input_type="bf16")
    assert np.array_equal(e1, e2) and np.array_equal(s1, s2)


def test_quantize_errors():
    with pytest.raises(mx.MXError, match="unknown MX format"):
        mx.quantize(np.zeros((1, 32), np.float32), "fp5")
    with pytest.raises(mx.MXError, match="multiple of the block size"):
        mx.quantize(np.zeros((1, 40), np.float32))
    with pytest.raises(mx.MXError, match="unknown scale rule"):
        mx.quantize(np.zeros((1, 32), np.float32), rule="round")
    with pytest.raises(mx.MXError, match="float32, float16 or uint16"):
        mx.quantize(np.zeros((1, 32), np.int32))


def test_layout_pictures():
    text = mx.layout(lhs_type="f4E2M1FN", rhs_type="f4E2M1FN", m=128, n=128,
                     operand="lhs", rows="0:2")
    assert text.startswith("# layout: #mx.data_tiled_layout<")
    svg = mx.layout(lhs_type="f4E2M1FN", rhs_type="f4E2M1FN", m=128, n=128,
                    format="svg", operand="lhs")
    assert "<svg" in svg
    with pytest.raises(mx.MXError, match="mx-layout failed"):
        mx.layout(operand="middle", m=128, n=128)


@pytest.mark.parametrize("fmt", ["fp4", "fp6_e2m3", "fp6_e3m2"])
def test_codes_and_packed_bytes_agree(fmt):
    """Packed bytes (as results come back) and one code per element are the
    same tensor for an argument: unpacking and repacking round-trips."""
    from mx import _tensors
    x = np.random.default_rng(4).standard_normal((4, 64)).astype(np.float32)
    packed, scales = mx.quantize(x, fmt)
    bits = 4 if fmt == "fp4" else 6
    codes = _tensors.unpack_codes(packed.tobytes(), bits, x.size)
    assert codes.max() < (1 << bits)
    assert np.array_equal(_tensors.pack_codes(codes, bits),
                          packed.reshape(-1))
    assert np.array_equal(mx.dequantize(codes.reshape(x.shape), scales, fmt),
                          mx.dequantize(packed, scales, fmt))
