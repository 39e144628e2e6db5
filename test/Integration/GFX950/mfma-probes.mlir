// The arithmetic probes of the scaled MFMA (bench/mfma_probes.py) on the
// emulator: under each arithmetic model every probe gives the value derived
// by hand in the script, and the probes that tell the models apart do. On a
// gfx950 GPU, `bench/mfma_probes.py --backend=hip` shows which model the
// hardware follows (test/Hardware/hip-gfx950.mlir).

// RUN: %python %mx_src_root/bench/mfma_probes.py --check --mx-run mx-run | FileCheck %s
// RUN: %python %mx_src_root/bench/mfma_probes.py --check --mx-run mx-run --intrinsic=32x32x64 | FileCheck %s

// CHECK: probe           exact            cdna3-grouped    tells apart
// CHECK-NEXT: baseline        1                1                no
// CHECK-NEXT: align-width     4096.000488      4096             yes
// CHECK-NEXT: halves          4096.000488      4096.000488      no
// CHECK-NEXT: group-of-16     4096.000488      4096             yes
// CHECK-NEXT: group-order     4096.000488      4096.000488      no
// CHECK-NEXT: acc-truncation  5.000000477      5                yes
// CHECK-NEXT: acc-drop        4096.000488      4096             yes
// CHECK-NEXT: acc-large       4096.000488      4096.000488      no
// CHECK-NEXT: floor-negative  4096             4095.999756      yes
// CHECK-NEXT: f32-subnormal   7.174648137e-43  7.174648137e-43  no
// CHECK-NEXT: e4m3-subnormal  0.001953125      0.001953125      no
// CHECK-NEXT: scale-extremes  2                2                no
// CHECK-NEXT: overflow        inf              inf              no
// CHECK-NEXT: nan-scale       nan              nan              no
// CHECK-NEXT: nan-element     nan              nan              no
// CHECK-NEXT: inf-acc         -inf             -inf             no
// CHECK-NEXT: PASS
