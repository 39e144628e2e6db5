#!/usr/bin/env python3
"""Writes the code objects of the gpu.binary ops in an MLIR file to files.

Usage: extract_code_objects.py INPUT.mlir OUTPUT_DIR

INPUT.mlir is the output of `mx-opt --mx-gfx950-pipeline=output=hsaco` (or
`gpu-module-to-binary{format=bin}`): every `gpu.binary @name [...bin = "..."]`
becomes OUTPUT_DIR/name.hsaco. Prints one line per object.
"""
import os
import re
import sys


def decode_mlir_string(text):
    """Undoes MLIR's string escaping (\\\\ and \\XX hex escapes)."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if text[i + 1] == "\\":
                out.append(ord("\\"))
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out += c.encode("latin-1")
            i += 1
    return bytes(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source = open(sys.argv[1], encoding="latin-1").read()
    os.makedirs(sys.argv[2], exist_ok=True)
    pattern = re.compile(r'gpu\.binary @(\w+)\s.*?bin = "((?:[^"\\]|\\.)*)"',
                         re.S)
    count = 0
    for match in pattern.finditer(source):
        data = decode_mlir_string(match.group(2))
        if not data.startswith(b"\x7fELF"):
            sys.exit("gpu.binary @%s does not hold an ELF code object" %
                     match.group(1))
        path = os.path.join(sys.argv[2], match.group(1) + ".hsaco")
        with open(path, "wb") as f:
            f.write(data)
        print("%s: %d bytes" % (path, len(data)))
        count += 1
    if count == 0:
        sys.exit("no gpu.binary with a code object in " + sys.argv[1])


if __name__ == "__main__":
    main()
