// mx-run --backend=hip's runtime path without a GPU: the HIP runtime is
// loaded with dlopen, so a missing library or device is a clear error with
// exit code 2, and a stand-in library (test/lib/FakeHIP, chosen with
// MX_HIP_LIBRARY or --hip-library) runs the whole path: code objects loaded,
// buffers copied, each launch with the plan's grid, block and packed kernel
// arguments, and --repeat's event timing (the fake's clock advances 1 us per
// launch; kernels do not execute there, so no results are checked).

// DEFINE: %{seed000} = %mx_src_root/examples/seed000_gemm.mlir --backend=hip --arg=zeros --arg=zeros --arg=zeros

// No library where MX_HIP_LIBRARY points: the path tried and why it failed.
// RUN: %python %S/Inputs/exit_code.py env MX_HIP_LIBRARY=%t.missing/libamdhip64.so mx-run %{seed000} | FileCheck %s --check-prefix=NO-LIBRARY
// NO-LIBRARY: error: no HIP runtime: could not load the HIP runtime library from $MX_HIP_LIBRARY; tried:
// NO-LIBRARY-NEXT: {{.*}}.missing/libamdhip64.so: {{.*}}No such file or directory
// NO-LIBRARY-NEXT: (install ROCm 7 or later with gfx950 support, or name the library with --hip-library=PATH or $MX_HIP_LIBRARY)
// NO-LIBRARY: exit code 2
// RUN: %python %S/Inputs/exit_code.py env MX_HIP_LIBRARY=%fake_hip mx-run %{seed000} --hip-library=%t.missing/libamdhip64.so | FileCheck %s --check-prefix=OPTION
// OPTION: error: no HIP runtime: could not load the HIP runtime library from --hip-library; tried:
// OPTION: exit code 2

// A runtime without a device: what HIP_VISIBLE_DEVICES showed.
// RUN: %python %S/Inputs/exit_code.py env MX_HIP_LIBRARY=%fake_hip MX_FAKE_HIP_DEVICES=0 HIP_VISIBLE_DEVICES=7 mx-run %{seed000} | FileCheck %s --check-prefix=NO-DEVICE
// NO-DEVICE: error: no HIP device: {{.*}}libMXFakeHIP.so found no GPU (hipGetDeviceCount: hipErrorNoDevice; HIP_VISIBLE_DEVICES=7, ROCR_VISIBLE_DEVICES unset)
// NO-DEVICE: exit code 2

// Without --hip-library or MX_HIP_LIBRARY, the versioned sonames are tried
// too (issue 37: Debian's ROCm 5.2 ships only libamdhip64.so.5): the fake
// runtime as libamdhip64.so.5 on the loader's path is found. (Assumes no
// libamdhip64.so of the system's comes first.)
// RUN: rm -rf %t.lib && mkdir -p %t.lib && ln -s %fake_hip %t.lib/libamdhip64.so.5
// RUN: %python %S/Inputs/exit_code.py env LD_LIBRARY_PATH=%t.lib ROCM_PATH=%t.lib MX_FAKE_HIP_DEVICES=0 mx-run %{seed000} | FileCheck %s --check-prefix=SONAME
// SONAME: error: no HIP device: libamdhip64.so.5 found no GPU
// SONAME: exit code 2

// A library that is not a HIP runtime.
// RUN: %python %S/Inputs/exit_code.py mx-run %{seed000} --hip-library=libm.so.6 | FileCheck %s --check-prefix=NOT-HIP
// NOT-HIP: error: no HIP runtime: libm.so.6 lacks the HIP functions hipInit, hipGetDeviceCount,
// NOT-HIP: exit code 2

// The launches, in the plan's order with the plan's sizes and values
// (test/Tools/mx-run/hip-dry-run.mlir): the memref descriptors' pointers,
// offsets, sizes and strides.
// RUN: env MX_HIP_LIBRARY=%fake_hip mx-run %{seed000} 2>&1 | FileCheck %s --check-prefix=LAUNCHES
// LAUNCHES: fake-hip: launch seed000_gemm_quantize0 grid 16x1x1 block 256x1x1 shared 0 kernargs 912 bytes: ptr ptr 0 128 512 512 1 ptr ptr 0 1 2 2 4 2 4 16 16 32768 16384 8192 2048 1024 256 16 1 ptr ptr 0 128 256 256 1
// LAUNCHES-NEXT: fake-hip: launch seed000_gemm_mma0 grid 2x1x1 block 256x1x1 shared 0 kernargs 632 bytes: ptr ptr 0 128 96 96 1 ptr ptr 0 1 2 2 4 2 4 16 16
// LAUNCHES-NOT: fake-hip

// --repeat: each launch once to run, once to warm up (--warmup=1) and
// three times timed, then the sequence once to warm up and three times
// timed. TFLOP/s from the MFMA work of a launch (256 MFMAs of 2*16*16*128)
// and from the useful 2 M N K end to end; GB/s from the bytes viewed.
// RUN: env MX_HIP_LIBRARY=%fake_hip mx-run %{seed000} --repeat=3 2>%t.log | FileCheck %s --check-prefix=REPEAT
// RUN: grep -c "fake-hip: launch seed000_gemm_mma0" %t.log | FileCheck %s --check-prefix=COUNT
// COUNT: 9
// REPEAT: hip @seed000_gemm launch #0 @seed000_gemm_quantize0::@seed000_gemm_quantize0: min 1.000 us, median 1.000 us, max 1.000 us (3 runs), 359.9 GB/s
// REPEAT-NEXT: hip-timing {"block":[256,1,1],"bytes":359936,"entry":"seed000_gemm","flops":0,"gbps":{{.*}},"grid":[16,1,1],"kernel":"@seed000_gemm_quantize0::@seed000_gemm_quantize0","launch":0,"max_us":{{.*}},"median_us":{{.*}},"min_us":{{.*}},"repeat":3,"tflops":0}
// REPEAT-NEXT: hip @seed000_gemm launch #1 @seed000_gemm_mma0::@seed000_gemm_mma0: min 1.000 us, median 1.000 us, max 1.000 us (3 runs), 16.777 TFLOP/s, 118.8 GB/s
// REPEAT-NEXT: hip-timing {"block":[256,1,1],"bytes":118784,"entry":"seed000_gemm","flops":16777216,
// REPEAT-NEXT: hip @seed000_gemm end to end: min 2.000 us, median 2.000 us, max 2.000 us (3 runs), 6.291 TFLOP/s, 223.0 GB/s
// REPEAT-NEXT: hip-timing {"bytes":445952,"entry":"seed000_gemm","flops":12582912,{{.*}}"kernel":"end to end","launch":-1,
