#!/usr/bin/env python3
"""Checks the buffers of Inputs/last-arriver-kernel.mlir after a run.

  last_arriver.py OUT.bin COUNTERS.bin

The expected values are those derived by hand in the kernel's header: the
last wave of strip s (of 3) writes out[s][l] = 8000 s + 1456 + 8 l for each
lane l (of 64), and counters[s] ends at 8 (4 workgroups x 2 waves). Prints
one line per buffer; exits 1 on a mismatch.
"""

import struct
import sys


def main():
    out_path, counters_path = sys.argv[1:3]
    out = struct.unpack("<192f", open(out_path, "rb").read())
    counters = list(struct.unpack("<3i", open(counters_path, "rb").read()))
    ok = True
    for s in range(3):
        for lane in range(64):
            expected = 8000 * s + 1456 + 8 * lane
            got = out[64 * s + lane]
            if got != expected:
                print("out: MISMATCH at [%d][%d]: %r, expected %d" %
                      (s, lane, got, expected))
                ok = False
                break
    if ok:
        print("out: 192 values as expected")
    print("counters: %s" % counters)
    if counters != [8, 8, 8]:
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
