#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the seed corpora of the mx fuzz targets from the lit tests.

usage: make-corpus.py SOURCE_ROOT OUT_DIR

Every .mlir file under test/, examples/ and ukernels/ (not Inputs/ or data/)
is split at its `// -----` lines; each part, without its comment lines,
becomes a seed of OUT_DIR/parse, OUT_DIR/pass and OUT_DIR/exec. For the pass
and exec targets a part gets a header line (`//! ACTION`) from its file's RUN
lines where they name one: the pipeline, pass or mx-run backend the test
itself runs the file with, so that those seeds start where the tests are
known to work; the others are left to the target's own choice.

The files of tools/mx-fuzz/seeds/<target>/ (reproducers of bugs found in mx,
each with its header) are seeds of OUT_DIR/<target> as they are.
"""

import hashlib
import os
import re
import sys

MX_PASSES = [
    "mx-raise-scaled-matmul", "mx-raise-quantize", "mx-set-encodings", "mx-materialize-encodings",
    "mx-lower-relayouts", "mx-pack-to-bytes", "mx-fuse-relayouts",
    "mx-memref-copy-to-linalg", "convert-mx-to-linalg",
    "mx-gfx950-lower-tiled-mma", "mx-gfx950-specialize-ukernels",
]


def headers(runs):
    """The (pass, exec) headers of a file with these RUN lines."""
    text = " ".join(runs)
    pass_header = None
    if "mx-gfx950-pipeline" in text:
        output = "isa" if re.search(r"output=(isa|hsaco|rocdl)", text) else "gpu"
        pass_header = "gfx950 output=" + output
    elif "mx-cpu-pipeline" in text:
        pass_header = "cpu"
    else:
        for name in MX_PASSES:
            match = re.search(r"--?" + name + r"(\{[^}]*\})?", text)
            if match:
                pass_header = "pass " + name + (match.group(1) or "")
                break
        else:
            if "convert-linalg-to-gpu-dispatches" in text:
                pass_header = "pass func.func(convert-linalg-to-gpu-dispatches)"
    exec_header = None
    if "mx-run" in text:
        exec_header = "gfx950-emu" if "gfx950-emu" in text else "cpu"
    return pass_header, exec_header


def main():
    src, out = sys.argv[1], sys.argv[2]
    for target in ("parse", "pass", "exec"):
        os.makedirs(os.path.join(out, target), exist_ok=True)
    counts = {"parse": 0, "pass": 0, "exec": 0}
    for top in ("test", "examples", "ukernels"):
        for root, dirs, files in os.walk(os.path.join(src, top)):
            dirs[:] = sorted(d for d in dirs if d not in ("Inputs", "data"))
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    lines = f.read().split("\n")
                runs = [l for l in lines if re.match(r"\s*//\s*RUN:", l)]
                pass_header, exec_header = headers(runs)
                part = []
                parts = []
                for line in lines + ["// -----"]:
                    if re.match(r"\s*// -----", line):
                        parts.append("\n".join(part).strip() + "\n")
                        part = []
                    elif not line.lstrip().startswith("//"):
                        part.append(line)
                for body in parts:
                    if not body.strip():
                        continue
                    # Without a header a target picks an action itself.
                    seeds = {"parse": body, "pass": body, "exec": body}
                    if pass_header:
                        seeds["pass"] = "//! " + pass_header + "\n" + body
                    if exec_header:
                        seeds["exec"] = "//! " + exec_header + "\n" + body
                    for target, seed in seeds.items():
                        digest = hashlib.sha1(seed.encode()).hexdigest()
                        with open(os.path.join(out, target, digest), "w",
                                  encoding="utf-8") as f:
                            f.write(seed)
                        counts[target] += 1
    for target in counts:
        seeds = os.path.join(src, "tools", "mx-fuzz", "seeds", target)
        if not os.path.isdir(seeds):
            continue
        for name in sorted(os.listdir(seeds)):
            with open(os.path.join(seeds, name), encoding="utf-8") as f:
                seed = f.read()
            with open(os.path.join(out, target, "reproducer-" + name), "w",
                      encoding="utf-8") as f:
                f.write(seed)
            counts[target] += 1
    print("seeds: " + ", ".join("%s %d" % kv for kv in counts.items()))


if __name__ == "__main__":
    main()
