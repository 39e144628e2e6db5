// The README's Python example (the ```python block of "Quick start") runs as
// written: seed000 compiled for gfx950 and run on the emulator, compared
// with the reference (an exception would fail it), the GEMM kernel printed.
// REQUIRES: mx-python
// RUN: python3 %S/readme_quick_start.py %mx_src_root %mx_tools_dir --python %mx_python %mx_capi_library | FileCheck %s
// CHECK: exit 0:
// CHECK: Kernel(binary='seed000_gemm_mma0', {{.*}}scratch_bytes=0, vgpr_spills=0, sgpr_spills=0, {{.*}}mfmas={{[1-9]}}
// CHECK: ran 1 README Python blocks
