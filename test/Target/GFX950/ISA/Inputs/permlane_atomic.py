#!/usr/bin/env python3
"""Inputs and expected outputs of permlane-atomic.s, from the ISA's text.

  permlane_atomic.py make DIR   writes DIR/in.bin, DIR/mem.bin, DIR/addend.bin
  permlane_atomic.py check DIR  compares DIR/out.bin, DIR/mem.out.bin and
                                DIR/ret.bin with the expected values

v_permlane16_swap_b32 vdst, src0 (CDNA4 ISA, VOP1 opcode 89): for pass in
0..1, lane in 0..15: VGPR[pass*32 + lane][src0] and
VGPR[pass*32 + lane + 16][vdst] are exchanged.

buffer_atomic_pk_add_bf16 (CDNA4 MUBUF opcode 82): each bf16 half of the
memory dword becomes mem + data, rounded to nearest even; with sc0 the
pre-op dword returns; a raw buffer's dword at offset >= num_records (252
here: lane 63) is out of range: not written, returns 0. The bf16 sums are
computed here exactly (fractions) and rounded by hand.
"""

import os
import struct
import sys
from fractions import Fraction

LANES = 64
NUM_RECORDS = 252


def bf16_value(bits):
    sign = -1 if bits & 0x8000 else 1
    exp = (bits >> 7) & 0xFF
    frac = bits & 0x7F
    assert exp != 0xFF, "no inf/nan in this test"
    if exp == 0:
        return sign * Fraction(frac, 128) * Fraction(2) ** -126
    return sign * (1 + Fraction(frac, 128)) * Fraction(2) ** (exp - 127)


def bf16_round(x):
    """x (a nonzero normal-range Fraction, or 0) to bf16 bits, rounded to
    nearest even."""
    if x == 0:
        return 0
    sign = 0x8000 if x < 0 else 0
    x = abs(x)
    exp = 0
    while x >= 2:
        x /= 2
        exp += 1
    while x < 1:
        x *= 2
        exp -= 1
    assert -126 <= exp < 127, "denormal or overflowing sums are not used here"
    # 1 <= x < 2: the significand in units of 2^-7, rounded to nearest even.
    units = x * 128
    q, r = divmod(units.numerator, units.denominator)
    if 2 * r > units.denominator or (2 * r == units.denominator and q & 1):
        q += 1
    if q == 256:
        q, exp = 128, exp + 1
    return sign | ((exp + 127) << 7) | (q - 128)


def add_packed(mem, data):
    out = 0
    for shift in (0, 16):
        a = (mem >> shift) & 0xFFFF
        b = (data >> shift) & 0xFFFF
        out |= bf16_round(bf16_value(a) + bf16_value(b)) << shift
    return out


def inputs():
    data_in = list(range(1000, 1000 + 2 * LANES))
    # Halves: exact sums, ties to even both ways, different exponents,
    # cancellation to zero, negatives.
    pairs = [
        (0x3F80, 0x3B80),  # 1 + 2^-8: a tie, to even 1.0
        (0x3F81, 0x3B80),  # (1 + 2^-7) + 2^-8: a tie, to even 1 + 2^-6
        (0x4040, 0x3F80),  # 3 + 1 = 4 exactly
        (0xC000, 0x4000),  # -2 + 2 = 0
        (0x4B00, 0x3F80),  # 2^23 + 1: far below half an ulp
        (0x3FFF, 0x3B80),  # 1.9921875 + 2^-8: carries into the exponent
        (0xBF80, 0xBB80),  # -1 - 2^-8: a tie, to even -1.0
        (0x3F80, 0x3BC0),  # 1 + 1.5 * 2^-8: above the tie, rounds up
    ]
    mem, addend = [], []
    for lane in range(LANES):
        lo = pairs[lane % len(pairs)]
        hi = pairs[(lane // len(pairs) + lane) % len(pairs)]
        mem.append(lo[0] | hi[0] << 16)
        addend.append(lo[1] | hi[1] << 16)
    return data_in, mem, addend


def expected():
    data_in, mem, addend = inputs()
    v2, v3 = data_in[:LANES], data_in[LANES:]
    for p in range(2):
        for lane in range(16):
            a, b = p * 32 + lane, p * 32 + lane + 16
            v3[a], v2[b] = v2[b], v3[a]
    final, ret = [], []
    for lane in range(LANES):
        if 4 * lane + 4 > NUM_RECORDS:
            final.append(mem[lane])
            ret.append(0)
            continue
        once = add_packed(mem[lane], addend[lane])
        ret.append(once)
        final.append(add_packed(once, addend[lane]))
    return v2 + v3, final, ret


def write(path, words):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(words)}I", *words))


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def compare(name, got, want):
    bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
    if len(got) != len(want) or bad:
        i = bad[0] if bad else min(len(got), len(want))
        print(f"{name}: MISMATCH at dword {i} of {len(want)}: "
              f"{got[i] if i < len(got) else None:#x} vs "
              f"{want[i] if i < len(want) else 0:#x}")
        return False
    print(f"{name}: {len(want)} dwords as the ISA defines")
    return True


def main():
    mode, folder = sys.argv[1], sys.argv[2]
    if mode == "make":
        data_in, mem, addend = inputs()
        write(os.path.join(folder, "in.bin"), data_in)
        write(os.path.join(folder, "mem.bin"), mem)
        write(os.path.join(folder, "addend.bin"), addend)
        return 0
    out, final, ret = expected()
    ok = compare("v_permlane16_swap_b32", read(os.path.join(folder, "out.bin")),
                 out)
    ok &= compare("buffer_atomic_pk_add_bf16 memory",
                  read(os.path.join(folder, "mem.out.bin")), final)
    ok &= compare("buffer_atomic_pk_add_bf16 sc0 return",
                  read(os.path.join(folder, "ret.bin")), ret)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
