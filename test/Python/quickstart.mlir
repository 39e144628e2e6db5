// The notebook-style example examples/python/quickstart.py runs as written:
// a bf16 activation quantized, the seed000 GEMM compiled and run on the
// gfx950 emulator bit-exact against the reference, the kernel report.
// REQUIRES: mx-python
// RUN: env MX_LIBRARY=%mx_capi_library PYTHONPATH=%mx_src_root/python %mx_python %mx_src_root/examples/python/quickstart.py | FileCheck %s
// CHECK: quantized A: (128, 256) uint8 scales (128, 16)
// CHECK: C: (128, 96) bit-exact against the reference
// CHECK: seed000_gemm_mma0 {{.*}} scratch 0 spills 0 mfma {{[1-9]}}
// CHECK: kernel seed000_gemm_mma0
