#!/usr/bin/env python3
"""Checks that no C++ function under the given folders is longer than
--max-function-lines and no file longer than --max-file-lines (DESIGN.md,
"Patterns are the unit of reuse": a long function is a missing name).

Functions are found by brace matching on the source with comments, string
and character literals blanked out: a `{` that follows a `)` (possibly with
qualifiers such as `const`, `override` or a trailing return type) and is
not inside another function opens a function body; lambdas and blocks
inside a function count towards it. Prints one line per violation and
exits 1 if there is any.
"""
import argparse
import os
import re
import sys

QUALIFIERS = re.compile(
    r"\)\s*(?:const|override|final|noexcept|mutable|&|&&|"
    r"->\s*[\w:<>,\s\*&]+|\s)*$")
CONTROL = re.compile(r"\b(if|for|while|switch|catch)\s*\(.*\)$")


def blank(text):
    """`text` with comments and literals replaced by spaces (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i) + 2
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if not m:
                out.append(text[i])
                i += 1
                continue
            j = text.find(")" + m.group(1) + '"', i) + len(m.group(1)) + 2
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < n and text[j] != quote:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            out.append(text[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    return "".join(out)


def functions(path):
    """(first line, line count) of each function body in `path`."""
    text = blank(open(path, encoding="utf-8").read())
    stack, line, found = [], 1, []
    for i, ch in enumerate(text):
        if ch == "\n":
            line += 1
        elif ch == "{":
            before = text[max(0, i - 300):i].rstrip()
            last = before.split("\n")[-1].strip()
            is_function = (QUALIFIERS.search(before) is not None and
                           not CONTROL.search(last) and
                           "fn" not in (kind for kind, _ in stack))
            stack.append(("fn" if is_function else "block", line))
        elif ch == "}" and stack:
            kind, start = stack.pop()
            if kind == "fn":
                found.append((start, line - start + 1))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--max-function-lines", type=int, default=120)
    parser.add_argument("--max-file-lines", type=int, default=900)
    args = parser.parse_args()
    violations, files = [], 0
    for folder in args.folders:
        for root, _, names in sorted(os.walk(folder)):
            for name in sorted(names):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(root, name)
                files += 1
                lines = open(path, encoding="utf-8").read().count("\n")
                if lines > args.max_file_lines:
                    violations.append(f"{path}: file of {lines} lines "
                                      f"(at most {args.max_file_lines})")
                for start, count in functions(path):
                    if count > args.max_function_lines:
                        violations.append(
                            f"{path}:{start}: function of {count} lines "
                            f"(at most {args.max_function_lines})")
    for violation in violations:
        print(violation)
    if violations:
        return 1
    print(f"{files} files: no function over {args.max_function_lines} "
          f"lines, no file over {args.max_file_lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
