#!/usr/bin/env python3
# Part of the mx project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that a C test calls every function the mx C API exports: each
MLIR_CAPI_EXPORTED declaration of ROOT/include/mx-c/*.h (and the dialect
handle of MLIR_DECLARE_CAPI_DIALECT_REGISTRATION) must be called in the C
file TEST. Prints the functions found and exits 1 naming any that is not
called, so a function added to a header without a test fails here.

Usage: check_capi_coverage.py ROOT TEST.c
"""
import glob
import os
import re
import sys


def exported_functions(root):
    """{name: header} of every function the mx C headers export."""
    functions = {}
    for header in sorted(glob.glob(os.path.join(root, "include", "mx-c",
                                                "*.h"))):
        with open(header, encoding="utf-8") as f:
            text = f.read()
        # Comments could mention the macro; declarations never are in one.
        text = re.sub(r"//.*", "", text)
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        for declaration in re.findall(r"MLIR_CAPI_EXPORTED\b([^;{]*?)\(",
                                      text):
            name = re.findall(r"(\w+)\s*$", declaration)[0]
            functions[name] = os.path.basename(header)
        for _, namespace in re.findall(
                r"MLIR_DECLARE_CAPI_DIALECT_REGISTRATION\(\s*(\w+)\s*,"
                r"\s*(\w+)\s*\)", text):
            functions["mlirGetDialectHandle__%s__" % namespace] = \
                os.path.basename(header)
    return functions


def main():
    root, test = sys.argv[1], sys.argv[2]
    functions = exported_functions(root)
    with open(test, encoding="utf-8") as f:
        source = re.sub(r"//.*", "", f.read())
    missing = []
    for name, header in sorted(functions.items()):
        if re.search(r"\b%s\s*\(" % re.escape(name), source):
            print("called: %s (%s)" % (name, header))
        else:
            missing.append("%s (%s)" % (name, header))
    if not functions:
        print("error: no exported function found under include/mx-c")
        return 1
    for name in missing:
        print("error: %s does not call %s" % (os.path.basename(test), name))
    print("%d of %d exported functions called" %
          (len(functions) - len(missing), len(functions)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
