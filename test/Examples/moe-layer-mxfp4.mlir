// The MXFP4 MoE layer example (issue 38): examples/moe_layer_mxfp4.mlir is
// the current rendering of bench/moe_layer.py's program, and the layer (T =
// 33 tokens, 8 experts with expert 5 empty, top 2, H = 512, I = 256) runs
// on the CPU path, the gfx950 wave emulator and the ISA executor bit-exact
// against the independent reference evaluator and against the numpy
// reference of the layer in bench/moe_layer.py (written from the
// definitions; its tolerance, stated there, is not needed: bit-exact).
// REQUIRES: mx-python
// RUN: %mx_python %mx_src_root/bench/moe_layer.py example | diff %mx_src_root/examples/moe_layer_mxfp4.mlir -
// DEFINE: %{check} = env MX_LIBRARY=%mx_capi_library PYTHONPATH=%mx_src_root/python %mx_python %mx_src_root/bench/moe_layer.py check --threads=2
// RUN: %{check} --backend=cpu | FileCheck %s
// RUN: %{check} --backend=gfx950-emu | FileCheck %s
// RUN: %{check} --backend=gfx950-isa | FileCheck %s
// The layer's dispatches per call: the tokens' quantize (writing the rows
// gathered by the sorted ids into gate_up's A layout; at this small shape
// the resolver's gate_up tile gives a wave more than one A fragment per K
// step, so mx-gfx950-quantize-in-gemm's auto mode leaves the quantize a
// dispatch); gate_up, which looks up each tile's expert itself and, its
// result being read only at the rows the sorted ids name (by the
// intermediate's gathered quantize), needs no zero fill; the intermediate's
// quantize computes SwiGLU (and writes the +0 counters of down's column
// strips); down, whose kernel also computes the weighted combine
// (mx-fuse-column-consumers: the last wave of each strip of N tiles combines
// the strip's columns), and whose accumulator needs no zero fill either:
// the routed GEMMs say that the sorted ids name every routed row
// (all_rows_named, as moe_align_block_size does), so the kernel writes
// every row from zero. 4 dispatches.
// RUN: mx-opt %mx_src_root/examples/moe_layer_mxfp4.mlir --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=DISPATCH
// DISPATCH-LABEL: func.func @moe_layer(
//   DISPATCH-NOT:   gpu.launch_func
//       DISPATCH:   gpu.launch_func @moe_layer_quantize0::@moe_layer_quantize0
//   DISPATCH-NOT:   gpu.launch_func
//       DISPATCH:   gpu.launch_func @moe_layer_mma0::@moe_layer_mma0
//   DISPATCH-NOT:   gpu.launch_func
//       DISPATCH:   gpu.launch_func @moe_layer_quantize1::@moe_layer_quantize1
//   DISPATCH-NOT:   gpu.launch_func
//       DISPATCH:   gpu.launch_func @moe_layer_mma1::@moe_layer_mma1
//   DISPATCH-NOT:   gpu.launch_func
//       DISPATCH:   return
// With column-consumer-elements=0 the combine stays a dispatch of its own.
// RUN: mx-opt %mx_src_root/examples/moe_layer_mxfp4.mlir --mx-gfx950-pipeline="output=gpu column-consumer-elements=0" | FileCheck %s --check-prefix=UNFUSED
//     UNFUSED:   gpu.launch_func @moe_layer_mma1::@moe_layer_mma1
// UNFUSED-NOT:   gpu.launch_func
//     UNFUSED:   gpu.launch_func @moe_layer_relayout0_generic::@moe_layer_relayout0_generic
// The numpy comparison can fail: token 0's router weights swapped.
// RUN: not %{check} --backend=cpu --control | FileCheck %s --check-prefix=CONTROL

// CHECK: result #0 tensor<33x512xbf16>: {{.*}}mismatches=0/16896{{.*}}: bit-exact
// CHECK-NEXT: PASS
// CHECK-NEXT: numpy reference: 16896/16896 bit-exact
// CHECK-NEXT: numpy reference: PASS

// CONTROL: numpy reference: FAIL
