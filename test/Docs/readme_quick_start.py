#!/usr/bin/env python3
# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the commands of the README's "Quick start" that use the built tools
(the code blocks naming build/bin/), with build/bin/ replaced by TOOLS, from
ROOT. Prints each command's last output line; exits 1 if one fails.

Usage: readme_quick_start.py ROOT TOOLS
"""
import os
import re
import subprocess
import sys


def commands(readme):
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
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
    ran = 0
    for command in commands(readme):
        command = command.replace("build/bin/", tools.rstrip("/") + "/")
        result = subprocess.run(command, shell=True, cwd=root,
                                capture_output=True, text=True)
        out = (result.stdout + result.stderr).strip().splitlines()
        print("exit %d: %s" % (result.returncode, out[-1] if out else ""))
        if result.returncode != 0:
            print("\n".join(out[-20:]))
            return 1
        ran += 1
    print("ran %d README commands" % ran)
    return 0 if ran else 1


if __name__ == "__main__":
    sys.exit(main())
