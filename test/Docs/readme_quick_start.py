#!/usr/bin/env python3
# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the commands of the README's "Quick start" that use the built tools
(the code blocks naming build/bin/), with build/bin/ replaced by TOOLS, from
ROOT. Prints each command's last output line; exits 1 if one fails.

With --python PY LIBRARY, runs the section's ```python blocks instead, each
as one program of the Python PY from ROOT, with the package of ROOT/python
and the C API library LIBRARY (MX_LIBRARY).

Usage: readme_quick_start.py ROOT TOOLS [--python PY LIBRARY]
"""
import os
import re
import subprocess
import sys


def quick_start(readme):
    return readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]


def python_blocks(readme):
    return re.findall(r"```python\n(.*?)```", quick_start(readme), re.S)


def run_all(runs, what, echo=False, **kwargs):
    """Runs each subprocess.run argument of `runs` (with `kwargs`), printing
    its exit status and last line (all its output with `echo`); stops at the
    first failure."""
    ran = 0
    for args in runs:
        result = subprocess.run(args, capture_output=True, text=True, **kwargs)
        out = (result.stdout + result.stderr).strip().splitlines()
        print("exit %d: %s" % (result.returncode, out[-1] if out else ""))
        if result.returncode != 0:
            print("\n".join(out[-20:]))
            return 1
        if echo:
            print("\n".join(out))
        ran += 1
    print("ran %d README %s" % (ran, what))
    return 0 if ran else 1


def run_python(root, python, library, readme):
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "python"),
               MX_LIBRARY=library)
    return run_all(([python, "-c", block] for block in python_blocks(readme)),
                   "Python blocks", echo=True, cwd=root, env=env)


def commands(readme):
    section = quick_start(readme)
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        if "build/bin/" not in block:
            continue
        joined = re.sub(r"\\\n\s*", "", block)
        for line in joined.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                yield line


def main():
    root, tools = sys.argv[1], sys.argv[2]
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    if len(sys.argv) == 6 and sys.argv[3] == "--python":
        return run_python(root, sys.argv[4], sys.argv[5], readme)
    prefix = tools.rstrip("/") + "/"
    return run_all((command.replace("build/bin/", prefix)
                    for command in commands(readme)),
                   "commands", shell=True, cwd=root)

if __name__ == "__main__":
    sys.exit(main())
