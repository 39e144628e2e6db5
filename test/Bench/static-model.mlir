// The deterministic headline figures of README.md and bench/README.md
// (bench/check_figures.sh prints them next to the timings): the static
// performance model's prediction for the seed MXFP4 GEMM and for 16384^3
// with the default configuration (C += A x B, f32 result), its main-loop
// cycles against the MFMA pipe's, the other instructions per MFMA, zero
// scratch and spills, and the seed program's two dispatches (one relayout
// dispatch, one GEMM). A change to any of them fails here, so that the docs
// are corrected with it.
//
// RUN: python3 %mx_src_root/bench/ukernel_static_metrics.py --mx-opt %mx_tools_dir/mx-opt --shapes "seed,16384^3" --configs default --repeat 1 --acc arg --result f32 | FileCheck %s
//
// CHECK:  shape {{.*}} scratch spills waves/SIMD code B disp relayout MB o/MFMA LDS B/clk cyc/iter pred us PF/s
// CHECK-NEXT: seed 10000x16384x16384 {{.*}}16x16x128 16x4x2 w1x4 256x256x256 {{.*}} 0 0 {{.*}} 2 {{[0-9.]+}} 0.78 85 4288/4096 987 5.44
// CHECK-NEXT: 16384^3 16384x16384x16384 {{.*}}16x16x128 16x4x2 w1x4 256x256x256 {{.*}} 0 0 {{.*}} 2 {{[0-9.]+}} 0.78 85 4288/4096 1580 5.57
