#!/usr/bin/env python3
"""Extracts one kernel module's gfx950 assembly from mx-opt's output=isa IR
and applies one mutation, for the ISA executor's mutation tests.

  mutate.py IR MODULE MUTATION OUT.s

MUTATION is one of
  none                   the assembly as LLVM wrote it;
  delete:REGEX:N         delete the N-th (0-based) instruction line matching
                         REGEX (a Python regex on the instruction text);
  hoist:REGEX:N:ABOVE    move the N-th line matching REGEX above the closest
                         preceding line matching ABOVE;
  replace:REGEX:N:TEXT   replace the N-th line matching REGEX (directives
                         included) by TEXT.
Prints the mutated line(s) to stderr. Exits 1 if no line matches.
"""

import re
import sys


def kernel_assembly(ir, module):
    match = re.search(r"gpu\.binary @" + re.escape(module) +
                      r"\s.*?assembly = \"(.*?)\">", ir, re.S)
    if not match:
        sys.exit("no gpu.binary @%s with assembly" % module)
    text = match.group(1)
    return re.sub(r"\\([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), text)


def instruction_lines(lines, regex):
    pattern = re.compile(regex)
    return [i for i, line in enumerate(lines)
            if line.startswith("\t") and not line.startswith("\t.") and
            pattern.search(line)]


def main():
    ir_path, module, mutation, out_path = sys.argv[1:5]
    lines = kernel_assembly(open(ir_path).read(), module).split("\n")
    kind, _, rest = mutation.partition(":")
    if kind == "delete":
        regex, n = rest.rsplit(":", 1)
        hits = instruction_lines(lines, regex)
        if int(n) >= len(hits):
            sys.exit("only %d lines match %r" % (len(hits), regex))
        sys.stderr.write("deleted: %s\n" % lines[hits[int(n)]].strip())
        del lines[hits[int(n)]]
    elif kind == "hoist":
        regex, n, above = rest.split(":")
        hits = instruction_lines(lines, regex)
        if int(n) >= len(hits):
            sys.exit("only %d lines match %r" % (len(hits), regex))
        index = hits[int(n)]
        targets = [i for i in instruction_lines(lines, above) if i < index]
        if not targets:
            sys.exit("no line matching %r before it" % above)
        line = lines.pop(index)
        lines.insert(targets[-1], line)
        sys.stderr.write("hoisted: %s above %s\n" %
                         (line.strip(), lines[targets[-1] + 1].strip()))
    elif kind == "replace":
        regex, n, text = rest.split(":", 2)
        hits = instruction_lines(lines, regex)
        if int(n) >= len(hits):
            sys.exit("only %d lines match %r" % (len(hits), regex))
        sys.stderr.write("replaced: %s\n" % lines[hits[int(n)]].strip())
        lines[hits[int(n)]] = "\t" + text
    elif kind != "none":
        sys.exit("unknown mutation " + mutation)
    open(out_path, "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
