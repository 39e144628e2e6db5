// The MXFP8 training-step example (issue 34, seed 002's recipe): the
// forward, grad-input and grad-weight GEMMs of one linear layer, each
// operand quantized along that GEMM's K (x and w along K, dy and w along N,
// dy and x along M), run bit-exact against the independent reference
// evaluator on the CPU path, the gfx950 wave emulator and the ISA executor
// (random normal bf16 inputs and inputs with specials: the RCEIL scales and
// saturation of f8E4M3FN).
// DEFINE: %{args} = --seed=2 --arg=random:normal --arg=random:normal --arg=random:normal --compare=reference
// DEFINE: %{specials} = --seed=4 --arg=random:normal,std=300,specials=0.02 --arg=random:normal,std=0.01 --arg=random:normal,std=1000 --compare=reference
// RUN: mx-run %mx_src_root/examples/mxfp8_training_step.mlir --backend=cpu %{args} | FileCheck %s
// RUN: mx-run %mx_src_root/examples/mxfp8_training_step.mlir --backend=gfx950-emu %{args} | FileCheck %s
// RUN: mx-run %mx_src_root/examples/mxfp8_training_step.mlir --backend=gfx950-isa %{args} | FileCheck %s
// RUN: mx-run %mx_src_root/examples/mxfp8_training_step.mlir --backend=gfx950-emu %{specials} | FileCheck %s

// CHECK: result #0 tensor<64x96xbf16>: {{.*}}mismatches=0/6144{{.*}}: bit-exact
// CHECK: result #1 tensor<64x128xbf16>: {{.*}}mismatches=0/8192{{.*}}: bit-exact
// CHECK: result #2 tensor<96x128xf32>: {{.*}}mismatches=0/12288{{.*}}: bit-exact
// CHECK-NEXT: PASS

// Six dispatches: each bf16 input quantized along both axes by one kernel,
// straight into the GEMMs' operand layouts, and the three GEMMs; no
// relayout.
// RUN: mx-opt %mx_src_root/examples/mxfp8_training_step.mlir --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=DISPATCH
// DISPATCH-LABEL: func.func @training_step
//       DISPATCH:   gpu.launch_func @training_step_quantize{{[0-9]+}}::
//       DISPATCH:   gpu.launch_func @training_step_mma0::
//       DISPATCH:   gpu.launch_func @training_step_quantize{{[0-9]+}}::
//       DISPATCH:   gpu.launch_func @training_step_mma1::
//       DISPATCH:   gpu.launch_func @training_step_quantize{{[0-9]+}}::
//       DISPATCH:   gpu.launch_func @training_step_mma2::
//   DISPATCH-NOT:   gpu.launch_func
