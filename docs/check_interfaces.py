#!/usr/bin/env python3
"""Checks that a doc names every method of the attribute interfaces an ODS
file declares: `check_interfaces.py DOC TD...` prints each interface
method the doc does not mention (as `name(`) and exits 1 if there is any."""
import re
import sys

STRING = r'"(?:[^"\\]|\\.)*"'
METHOD = re.compile(r'InterfaceMethod<\s*(?:' + STRING + r'\s*)+,\s*' +
                    STRING + r',\s*"(\w+)"')


def main():
    doc = open(sys.argv[1], encoding="utf-8").read()
    methods = []
    for td in sys.argv[2:]:
        methods += METHOD.findall(open(td, encoding="utf-8").read())
    missing = [m for m in methods if f"{m}(" not in doc]
    for name in missing:
        print(f"not named in {sys.argv[1]}: {name}")
    if missing or not methods:
        return 1
    print(f"every interface method is named ({len(methods)} methods)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
