// The README's "Quick start" commands (compile a file for gfx950 with the
// kernel report, run a GEMM on the emulator against the reference) run as
// written, so the first screen a newcomer reads cannot rot.
// RUN: python3 %S/readme_quick_start.py %mx_src_root %mx_tools_dir | FileCheck %s
// CHECK: exit 0: {{.*}}global_stores
// CHECK: exit 0: PASS
// CHECK: ran 2 README commands
