#!/usr/bin/env python3
"""Checks files written by `mx-run --out` in the mx-run lit tests.

Prints one line per check ("ok: ..." or "BAD: ..."); the tests FileCheck
for the ok lines. Decoding is written here from the format definitions,
independently of mx.

usage: check_outputs.py random DIR | roundtrip DIR
"""

import os
import struct
import sys

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def read(directory, name):
    with open(os.path.join(directory, name), "rb") as f:
        return f.read()


def report(ok, message):
    print(("ok: " if ok else "BAD: ") + message)


def parse_npy(data):
    assert data[:6] == b"\x93NUMPY", "bad magic"
    assert data[6] == 1
    length = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + length].decode()
    return header, data[10 + length:], (10 + length) % 64


def check_random(directory):
    # --arg=random:int,lo=-3,hi=3 on tensor<16x16xf32>
    a = struct.unpack("<256f", read(directory, "a.bin"))
    report(all(v == int(v) and -3 <= v <= 3 for v in a), "f32 integers in [-3, 3]")
    report(len(set(a)) == 7, "f32 covers all 7 integers")
    # --arg=random:int,lo=-2,hi=4 on tensor<8x64xf4E2M1FN>, packed file format
    packed = read(directory, "b.bin")
    report(len(packed) == 256, "fp4 file has 256 bytes (two codes per byte)")
    codes = [byte >> shift & 15 for byte in packed for shift in (0, 4)]
    values = [(-1 if c & 8 else 1) * E2M1[c & 7] for c in codes]
    report(all(v == int(v) and -2 <= v <= 4 for v in values), "fp4 values are integers in [-2, 4]")
    # --arg=random:scales on tensor<8x2xf8E8M0FNU>
    s = read(directory, "s.bin")
    report(all(120 <= x <= 134 for x in s), "scales in [120, 134]")
    rows = [s[2 * r:2 * r + 2] for r in range(8)]
    distinct = all(row[0] != row[1] for row in rows) and all(
        rows[r][c] != rows[r + 1][c] for r in range(7) for c in range(2))
    report(distinct, "neighbouring scales differ")
    # --arg=random:int,lo=-100,hi=100 on tensor<64xi8>
    i = struct.unpack("<64b", read(directory, "i.bin"))
    report(all(-100 <= v <= 100 for v in i) and len(set(i)) > 20, "i8 values spread over [-100, 100]")


def check_roundtrip(directory):
    codes = read(directory, "codes.bin")
    report(codes == read(os.path.join(directory, "data"), "fp4_codes.bin"),
           "raw fp4 output equals the packed input file")
    header, payload, alignment = parse_npy(read(directory, "codes.npy"))
    report("'descr': '|u1'" in header and "'shape': (2, 64)" in header, "fp4 .npy header: " + header.strip())
    report(alignment == 0, "fp4 .npy header is 64-byte aligned")
    unpacked = bytes(byte >> shift & 15 for byte in codes for shift in (0, 4))
    report(payload == unpacked, "fp4 .npy holds one code per byte")
    header, payload, _ = parse_npy(read(directory, "bf16.npy"))
    report("'descr': '<u2'" in header and "'shape': (3,)" in header, "bf16 .npy header: " + header.strip())
    report(payload == bytes([0x80, 0x3F, 0x00, 0xC0, 0x40, 0x40]), "bf16 bits of 1, -2, 3")
    header, payload, _ = parse_npy(read(directory, "scalar.npy"))
    report("'shape': ()" in header and struct.unpack("<f", payload)[0] == 2.5, "rank-0 .npy holds 2.5")


if __name__ == "__main__":
    {"random": check_random, "roundtrip": check_roundtrip}[sys.argv[1]](sys.argv[2])
