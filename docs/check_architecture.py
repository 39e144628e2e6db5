#!/usr/bin/env python3
"""Checks that docs/architecture.md names every pass the pipelines run.

  python3 docs/check_architecture.py docs/Pipelines.md docs/architecture.md

docs/Pipelines.md is generated from the registered pipelines (mx-pipeline-doc;
a test fails when it is stale); its "Passes with the default options" blocks
list every pass. Each must appear in architecture.md as `name` (in
backquotes). Prints the passes missing and exits 1, or a summary line.
"""

import re
import sys

# Nesting anchors of the textual pipelines, not passes.
ANCHORS = {"builtin.module", "func.func", "gpu.module", "any"}


def pipeline_passes(text):
    """The pass names of the fenced blocks of Pipelines.md, in order."""
    names = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        for line in block.splitlines():
            match = re.match(r"\s*([a-z][a-z0-9.-]*)(\{|\(|,|$)", line)
            if match and match.group(1) not in ANCHORS:
                if match.group(1) not in names:
                    names.append(match.group(1))
    return names


def main():
    pipelines, architecture = (open(path).read() for path in sys.argv[1:3])
    passes = pipeline_passes(pipelines)
    if not passes:
        print("no passes found in " + sys.argv[1])
        return 1
    named = set(re.findall(r"`([a-z][a-z0-9.-]*)`", architecture))
    missing = [name for name in passes if name not in named]
    for name in missing:
        print("not named in %s: %s" % (sys.argv[2], name))
    if missing:
        return 1
    print("every pass of the pipelines is named (%d passes)" % len(passes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
