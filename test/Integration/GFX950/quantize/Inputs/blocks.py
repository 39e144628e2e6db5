#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes quantize test data whose 32-element blocks stress the exact
arithmetic: raw little-endian ROWS x COLS values of TYPE (bf16, f16, f32).

usage: blocks.py TYPE ROWS COLS OUT [SEED]

The bits are drawn per block (row-wise blocks of 32), cycling through seven
kinds: every finite binade of the type (subnormals included); a random
binade and the ten below it; the four smallest binades (subnormal inputs and
blocks whose scale clamps at 2^-127); few significant bits (exact ties on
every element grid); the largest binade (rounding carries, EVEN's carry to
2^128) with +0 and -0; a narrow block with one NaN, Inf or -0; and values
one unit in the last place below, at or above such ties.
"""

import random
import struct
import sys

FORMATS = {"bf16": (8, 7, "<H"), "f16": (5, 10, "<H"), "f32": (8, 23, "<I")}


def main():
    kind, rows, cols, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    exp_bits, man_bits, pack = FORMATS[kind]
    top = (1 << exp_bits) - 2  # largest finite exponent field

    def value(sign, field, mantissa):
        return (sign << (exp_bits + man_bits)) | (field << man_bits) | mantissa

    def rand_mantissa():
        return rng.getrandbits(man_bits)

    words = []
    for block in range(rows * cols // 32):
        pattern = block % 7
        base = rng.randint(1, top)
        for i in range(32):
            sign = rng.getrandbits(1)
            if pattern == 0:
                word = value(sign, rng.randint(0, top), rand_mantissa())
            elif pattern == 1:
                word = value(sign, rng.randint(max(0, base - 10), base), rand_mantissa())
            elif pattern == 2:
                word = value(sign, rng.randint(0, 3), rand_mantissa())
            elif pattern == 3:
                few = rng.getrandbits(3) << (man_bits - 3)
                word = value(sign, rng.randint(max(0, base - 6), base), few)
            elif pattern == 4:
                if i < 2:
                    word = value(i, 0, 0)  # +0, -0
                else:
                    word = value(sign, top, rand_mantissa())
            elif pattern == 6:
                few = rng.getrandbits(3) << (man_bits - 3)
                mantissa = min(max(few + rng.choice((-1, 0, 1)), 0), (1 << man_bits) - 1)
                word = value(sign, rng.randint(max(1, base - 6), base), mantissa)
            else:
                if i == 7:
                    special = rng.randint(0, 2)
                    inf_or_nan = value(sign, top + 1, 0 if special == 0 else 1 << (man_bits - 1))
                    word = inf_or_nan if special < 2 else value(1, 0, 0)
                else:
                    word = value(sign, rng.randint(max(0, base - 4), base), rand_mantissa())
            words.append(word)
    with open(out, "wb") as f:
        for word in words:
            f.write(struct.pack(pack, word))


if __name__ == "__main__":
    main()
