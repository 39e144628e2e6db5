# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""numpy arrays to and from the C API's buffer convention (mx-c/Runner.h).

  element type                       numpy array
  f32, f64, f16                      float32, float64, float16
  bf16                               uint16 (the bit patterns); a float array
                                     is converted to bf16 rounding to nearest
                                     even
  i1, i8, i16, i32, i64              bool or integers of the width
  f4E2M1FN                           uint8: packed, two per byte, element 2i
                                     in the low nibble, shape (..., K // 2);
                                     or one code per element, shape (..., K)
  f6E2M3FN, f6E3M2FN                 uint8: the dense 6-bit stream (4
                                     elements per 3 bytes), any shape of that
                                     many bytes; or one code per element
  f8E4M3FN, f8E5M2, f8E8M0FNU        uint8, one code per element

Results come back packed (fp4 as (..., K // 2) when K is even, fp6 as a flat
byte stream).
"""

import numpy as np

from ._capi import MXError

_FLOATS = {"f32": np.float32, "f64": np.float64, "f16": np.float16}
_INTEGERS = {"i8": np.int8, "i16": np.int16, "i32": np.int32,
             "i64": np.int64}
MX_CODES = ("f4E2M1FN", "f6E2M3FN", "f6E3M2FN", "f8E4M3FN", "f8E5M2",
            "f8E8M0FNU")


class TensorType:
    """The type of an argument or result: MLIR spelling, element type,
    element bits, shape (None for a dynamic size) and bytes."""

    def __init__(self, wrapped):
        self.mlir = wrapped.type.str()
        self.element = wrapped.elementType.str()
        self.bits = wrapped.elementBits
        self.shape = tuple(
            None if wrapped.shape[i] == -(1 << 63) else wrapped.shape[i]
            for i in range(wrapped.rank))
        self.num_bytes = wrapped.numBytes

    @property
    def num_elements(self):
        count = 1
        for size in self.shape:
            count *= size
        return count

    def __repr__(self):
        return "TensorType(%s)" % self.mlir


def float_to_bf16(array):
    """The bf16 bit patterns (uint16) of `array` rounded to nearest even
    (NaN stays a quiet NaN)."""
    bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(array)
    rounded = np.where(nan, (bits >> 16) | 0x40, rounded)
    return rounded.astype(np.uint16)


def bf16_to_float(bits):
    """float32 values of bf16 bit patterns (uint16)."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(
        np.float32)


def pack_codes(codes, bits):
    """Packs one code per element (uint8, row-major) into the buffer
    convention of `bits`-bit elements (4 or 6)."""
    flat = np.ascontiguousarray(codes, dtype=np.uint8).reshape(-1)
    if np.any(flat >> bits):
        raise MXError("codes do not fit in %d bits" % bits)
    if bits == 4:
        if flat.size % 2:
            flat = np.append(flat, np.uint8(0))
        return (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)
    total = flat.size * 6
    stream = np.zeros((total + 7) // 8 * 8, dtype=np.uint8)
    stream_bits = np.unpackbits(flat[:, None], axis=1,
                                bitorder="little")[:, :6].reshape(-1)
    stream[:total] = stream_bits
    return np.packbits(stream, bitorder="little")


def unpack_codes(data, bits, count):
    """One code per element (uint8) of `count` packed `bits`-bit elements."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if bits == 4:
        codes = np.empty(raw.size * 2, dtype=np.uint8)
        codes[0::2] = raw & 0xF
        codes[1::2] = raw >> 4
        return codes[:count]
    stream = np.unpackbits(raw, bitorder="little")[:count * 6]
    stream = np.pad(stream.reshape(count, 6), ((0, 0), (0, 2)))
    return np.packbits(stream, axis=1, bitorder="little").reshape(count)


def to_buffer(array, tensor_type, what):
    """The bytes of `array` for an argument of `tensor_type`; raises
    MXError saying what is wrong."""
    element, shape = tensor_type.element, tensor_type.shape
    array = np.asarray(array)

    def expect_shape(a):
        if tuple(a.shape) != shape:
            raise MXError("%s (%s) needs an array of shape %s, got %s" %
                          (what, tensor_type.mlir, shape, tuple(a.shape)))
        return a

    if element in _FLOATS:
        if array.dtype.kind not in "fiub":
            raise MXError("%s (%s) needs a numeric array, got dtype %s" %
                          (what, tensor_type.mlir, array.dtype))
        data = expect_shape(array).astype(_FLOATS[element])
    elif element == "bf16":
        if array.dtype == np.uint16 or array.dtype == np.int16:
            data = expect_shape(array).view(np.uint16)
        elif array.dtype.kind == "f":
            data = float_to_bf16(expect_shape(array))
        else:
            raise MXError("%s (%s) needs uint16 bf16 bit patterns or a float "
                          "array, got dtype %s" %
                          (what, tensor_type.mlir, array.dtype))
    elif element in _INTEGERS:
        if array.dtype.kind not in "iub":
            raise MXError("%s (%s) needs an integer array, got dtype %s" %
                          (what, tensor_type.mlir, array.dtype))
        data = expect_shape(array).astype(_INTEGERS[element])
    elif element == "i1":
        data = expect_shape(array).astype(np.uint8) != 0
        data = data.astype(np.uint8)
    elif element in MX_CODES:
        if array.dtype not in (np.uint8, np.int8):
            raise MXError("%s (%s) needs uint8 codes or packed bytes, got "
                          "dtype %s" % (what, tensor_type.mlir, array.dtype))
        array = array.view(np.uint8)
        bits = tensor_type.bits
        if bits == 8 or array.size == tensor_type.num_elements and \
                array.size != tensor_type.num_bytes:
            if bits == 8:
                data = expect_shape(array)
            else:
                data = pack_codes(expect_shape(array), bits)
        elif array.size == tensor_type.num_bytes:
            data = array
        else:
            raise MXError(
                "%s (%s) needs %d packed bytes or %d codes (one per "
                "element), got an array of %d" %
                (what, tensor_type.mlir, tensor_type.num_bytes,
                 tensor_type.num_elements, array.size))
    else:
        raise MXError("%s has the unsupported element type %s" %
                      (what, element))
    data = np.ascontiguousarray(data)
    if data.nbytes != tensor_type.num_bytes:
        raise MXError("%s (%s): %d bytes instead of %d" %
                      (what, tensor_type.mlir, data.nbytes,
                       tensor_type.num_bytes))
    return data


def from_buffer(data, tensor_type):
    """The numpy array of a result's bytes (see the module's table)."""
    element, shape = tensor_type.element, tensor_type.shape
    if element in _FLOATS:
        return np.frombuffer(data, dtype=_FLOATS[element]).reshape(shape).copy()
    if element == "bf16":
        return np.frombuffer(data, dtype=np.uint16).reshape(shape).copy()
    if element in _INTEGERS:
        return np.frombuffer(data, dtype=_INTEGERS[element]).reshape(
            shape).copy()
    if element == "i1":
        return np.frombuffer(data, dtype=np.uint8).reshape(shape) != 0
    raw = np.frombuffer(data, dtype=np.uint8).copy()
    if tensor_type.bits == 8:
        return raw.reshape(shape)
    if shape and (shape[-1] * tensor_type.bits) % 8 == 0:
        return raw.reshape(shape[:-1] + (shape[-1] * tensor_type.bits // 8,))
    return raw
