// RUN: mlir-opt %S/../Target/GFX950/TransformOps/lower-to-ukernel.mlir --load-dialect-plugin=%mx_plugin \
// RUN:   --transform-preload-library="transform-library-paths=%S/../Target/GFX950/TransformOps/Inputs/lower-to-ukernel-schedule.mlir" \
// RUN:   --transform-interpreter > %t.plugin
// RUN: mx-opt %S/../Target/GFX950/TransformOps/lower-to-ukernel.mlir \
// RUN:   --transform-preload-library="transform-library-paths=%S/../Target/GFX950/TransformOps/Inputs/lower-to-ukernel-schedule.mlir" \
// RUN:   --transform-interpreter > %t.mx
// RUN: diff %t.mx %t.plugin
// RUN: FileCheck %s < %t.plugin

// The transform.mx.* ops load with the dialect plugin: upstream mlir-opt runs
// the gfx950 ukernel stages as a transform script (the one
// test/Target/GFX950/TransformOps/lower-to-ukernel.mlir runs) and gives
// mx-opt's IR exactly.

// CHECK-LABEL: func.func @quantize_then_gemm
//       CHECK:   amdgpu.scaled_mfma
