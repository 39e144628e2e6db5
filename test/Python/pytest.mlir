// The Python package's pytest suite (python/tests) against this build's C
// API library: seed000 compiled and run on the gfx950 emulator and the ISA
// executor bit-exact against the reference and the recorded answers, the
// quantize/dequantize and layout entry points, every pipeline option, and
// bad input raising exceptions.
// REQUIRES: mx-python
// RUN: env MX_LIBRARY=%mx_capi_library MX_TOOLS_DIR=%mx_tools_dir %mx_python -m pytest -q -p no:cacheprovider %mx_src_root/python/tests | FileCheck %s
// CHECK: {{[0-9]+}} passed
// CHECK-NOT: failed
