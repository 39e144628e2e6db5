#!/usr/bin/env python3
"""Writes the input and known-answer files of the mx-run lit tests.

Everything is computed here from first principles with the standard library
only (no numpy, nothing from mx): values are small integers and halves, so
every sum and product is exact in f32 and the expected results do not depend
on the summation order.

usage: make_data.py DIR
"""

import os
import struct
import sys


def f32_bytes(values):
    return b"".join(struct.pack("<f", v) for v in values)


def bf16_bytes(values):
    out = b""
    for v in values:
        bits = struct.unpack("<I", struct.pack("<f", v))[0]
        assert bits & 0xFFFF == 0, "value not exact in bf16"
        out += struct.pack("<H", bits >> 16)
    return out


def npy(descr, shape, data, version=1):
    shape_text = "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    prefix = 10 if version == 1 else 12
    header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    length = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + length + header.encode() + data


def write(directory, name, data):
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


# E2M1 magnitudes of codes 0-7 (OCP MX v1.0, Table 2); bit 3 is the sign.
E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def e2m1(code):
    value = E2M1[code & 7]
    return -value if code & 8 else value


def main():
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)

    # add: c = a + b on 4x8 f32.
    a = [i * 0.5 - 3 for i in range(32)]
    b = [i * 0.25 for i in range(32)]
    write(directory, "add_a.bin", f32_bytes(a))
    write(directory, "add_b.bin", f32_bytes(b))
    write(directory, "add_c.bin", f32_bytes([x + y for x, y in zip(a, b)]))
    write(directory, "add_a.npy", npy("<f4", (4, 8), f32_bytes(a)))
    write(directory, "add_b_v2.npy", npy("<f4", (4, 8), f32_bytes(b), version=2))
    write(directory, "add_c.npy", npy("<f4", (4, 8), f32_bytes([x + y for x, y in zip(a, b)])))

    # matmul: bf16 A (4x8) times bf16 B (8x3), f32 accumulator C0 (4x3):
    # C = C0 + A @ B in f32, and the same truncated to i8.
    A = [[(i * 3 + k * 5) % 7 - 3 for k in range(8)] for i in range(4)]
    B = [[(k * 2 + j * 3) % 5 - 2 for j in range(3)] for k in range(8)]
    C0 = [[0.5 * (i - j) for j in range(3)] for i in range(4)]
    C = [[C0[i][j] + sum(A[i][k] * B[k][j] for k in range(8)) for j in range(3)] for i in range(4)]
    flat = lambda m: [x for row in m for x in row]
    write(directory, "mm_a.npy", npy("<u2", (4, 8), bf16_bytes(flat(A))))
    write(directory, "mm_b.bin", bf16_bytes(flat(B)))
    write(directory, "mm_c0.bin", f32_bytes(flat(C0)))
    write(directory, "mm_c.npy", npy("<f4", (4, 3), f32_bytes(flat(C))))
    trunc = [int(x) for x in flat(C)]  # fptosi rounds toward zero
    write(directory, "mm_c_i8.npy", npy("|i1", (4, 3), struct.pack("<12b", *trunc)))
    write(directory, "mm_c_i8.bin", struct.pack("<12b", *trunc))

    # fp4: 2x64 codes with one scale per 32; dequantized to f32.
    codes = [(i * 7 + i // 5) % 16 for i in range(128)]
    scales = [127, 129, 124, 130]  # 1, 4, 1/8, 8 for [row][block]
    packed = bytes(codes[2 * i] | (codes[2 * i + 1] << 4) for i in range(64))
    write(directory, "fp4_codes.bin", packed)
    write(directory, "fp4_codes.npy", npy("|u1", (2, 64), bytes(codes)))
    write(directory, "fp4_packed.npy", npy("|u1", (2, 32), packed))
    write(directory, "fp4_scales.bin", bytes(scales))
    values = [e2m1(codes[i]) * 2.0 ** (scales[(i // 64) * 2 + (i % 64) // 32] - 127) for i in range(128)]
    write(directory, "fp4_values.bin", f32_bytes(values))

    # 0, 1, ..., 11 as a 3x4 i16 tensor.
    write(directory, "iota_3x4_i16.bin", struct.pack("<12h", *range(12)))

    # Malformed files for the error tests.
    write(directory, "short.bin", b"\x00" * 100)
    write(directory, "garbage.npy", b"this is not a numpy file")
    write(directory, "f8.npy", npy("<f8", (4, 8), b"\x00" * 256))
    write(directory, "wrong_shape.npy", npy("<f4", (8, 4), f32_bytes(a)))
    write(directory, "bad_codes.npy", npy("|u1", (2, 64), bytes([0x10] * 128)))


if __name__ == "__main__":
    main()
