#!/usr/bin/env python3
# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that the core (include/mx/Dialect, lib/Dialect under ROOT) names no
target (DESIGN.md, "Targets are attributes").

C++ code (outside // comments) must not name a target's code: `gfx950::`,
`GFX950`, `mfma`, `MFMA`, or an include of `mx/Target/`. Any other mention of
gfx950 or an MFMA must be a // comment or name the target as an example: the
line says `e.g.` or `Example`, or shows an attribute of the target
(`#mx_gfx950.`). Prints each violation as path:line: text and exits 1 if
there is one.

Usage: check_target_neutral.py ROOT
"""
import os
import re
import sys

CORE = ["include/mx/Dialect", "lib/Dialect"]
CODE = re.compile(r"gfx950::|GFX950|mfma|MFMA|mx/Target/")
MENTION = re.compile(r"gfx950|mfma", re.IGNORECASE)
EXAMPLE = re.compile(r"e\.g\.|Example|#mx_gfx950\.")


def violations(root):
    for core in CORE:
        for dirpath, _, files in os.walk(os.path.join(root, core)):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        text = line.rstrip("\n")
                        if text.lstrip().startswith("//"):
                            continue
                        if name.endswith((".h", ".cpp")) and CODE.search(
                                text.split("//")[0]):
                            yield path, number, text
                        elif MENTION.search(text) and not EXAMPLE.search(text):
                            yield path, number, text


def main():
    root = sys.argv[1]
    found = list(violations(root))
    for path, number, text in found:
        print("%s:%d: names a target: %s" %
              (os.path.relpath(path, root), number, text.strip()))
    if found:
        return 1
    print("the core names no target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
