// The launch budget (issue 37): a launch of more workgroups than
// --max-workgroups (default 2^24) is refused before it runs, on the emulator,
// on the HIP backend and in the HIP backend's --dry-run plan, with the kernel
// and its grid named. seed000_gemm's quantize kernel has 16 workgroups of 256
// threads and its GEMM 2 (the fake HIP runtime's launch log in
// hip-runtime.mlir).

// DEFINE: %{seed000} = %mx_src_root/examples/seed000_gemm.mlir --arg=zeros --arg=zeros --arg=zeros

// RUN: %python %S/Inputs/exit_code.py mx-run %{seed000} --backend=gfx950-emu --max-workgroups=15 | FileCheck %s --check-prefix=REFUSED
// RUN: %python %S/Inputs/exit_code.py mx-run %{seed000} --backend=hip --dry-run --max-workgroups=15 | FileCheck %s --check-prefix=REFUSED
// RUN: %python %S/Inputs/exit_code.py env MX_HIP_LIBRARY=%fake_hip mx-run %{seed000} --backend=hip --max-workgroups=15 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: {{.*}}: the launch of @seed000_gemm_quantize0::@seed000_gemm_quantize0 with grid [16, 1, 1] and block [256, 1, 1] has 16 workgroups, more than the launch budget of 15 workgroups
// REFUSED: exit code 2

// At the bound, the launches run.
// RUN: %python %S/Inputs/exit_code.py mx-run %{seed000} --backend=gfx950-emu --max-workgroups=16 | FileCheck %s --check-prefix=FITS
// FITS-NOT: error
// FITS: exit code 0

// RUN: not mx-run %{seed000} --backend=gfx950-emu --max-workgroups=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: mx-run: error: --max-workgroups must be positive

// The grid of a quantize kernel comes from its destination maps: issue 37's
// reproducer (`k floordiv 64` made `k floordiv 2147483648` in
// emulator-quantize-library-layouts.mlir) gave 134,217,728 workgroups and
// emulated for hours. Its map is now rejected by the verifier.
// RUN: sed 's/k floordiv 64/k floordiv 2147483648/' %mx_src_root/test/Integration/GFX950/emulator-quantize-library-layouts.mlir > %t.mlir
// RUN: %python %S/Inputs/exit_code.py mx-run %t.mlir --entry=aiter_shuffled --backend=gfx950-emu --arg=zeros | FileCheck %s --check-prefix=REPRODUCER
// REPRODUCER: error: 'mx.quantize_into' op elements destination #0 has 32768 elements but its map covers [64, 17179869184] points
// REPRODUCER: exit code 2
