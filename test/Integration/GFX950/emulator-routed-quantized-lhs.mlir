// The routed GEMMs of test/Integration/CPU/routed-quantized-lhs.mlir (tokens
// quantized in the program, then gathered by the sorted ids) on the wave
// emulator, bit-exact against the independent reference: the quantize
// kernel writes the gathered rows straight into the GEMM's A tiles (padding
// ids, the empty expert and the pack's padding rows give zero rows), so A
// needs no relayout dispatch of its own; an elementwise producer of the
// quantized rows is computed inside the quantize kernel at the gathered row.

// DEFINE: %{run} = mx-run %S/../CPU/routed-quantized-lhs.mlir --backend=gfx950-emu --compare=reference
// DEFINE: %{exact} = --seed=3 --arg=random:int,lo=-6,hi=6 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8
// RUN: %{run} --entry=routed_quantized %{exact} --print-launches | FileCheck %s --check-prefixes=CHECK,LAUNCH
// LAUNCH: launch #0 @routed_quantized_quantize0::@routed_quantized_quantize0
// LAUNCH-NOT: relayout{{.*}}generic
// LAUNCH: @routed_quantized_mma0::@routed_quantized_mma0
// RUN: %{run} --entry=routed_quantized --seed=5 --arg=random:normal --arg=random:codes --arg=random:scales --arg=random:normal | FileCheck %s
// RUN: %{run} --entry=routed_quantized_producer --seed=3 --arg=random:int,lo=-6,hi=6 --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8 --print-launches | FileCheck %s --check-prefixes=CHECK,PRODUCER
// PRODUCER: launch #0 @routed_quantized_producer_quantize0::@routed_quantized_producer_quantize0
// PRODUCER-NOT: generic
// PRODUCER: @routed_quantized_producer_mma0::@routed_quantized_producer_mma0
// The code object that LLVM makes of the same kernels, on the ISA executor.
// RUN: mx-run %S/../CPU/routed-quantized-lhs.mlir --backend=gfx950-isa --compare=reference --entry=routed_quantized %{exact} | FileCheck %s
// RUN: mx-run %S/../CPU/routed-quantized-lhs.mlir --backend=gfx950-isa --compare=reference --entry=routed_quantized_producer --seed=3 --arg=random:int,lo=-6,hi=6 --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8 | FileCheck %s
// CHECK: result #0 tensor<20x24xf32>: {{.*}}mismatches=0/480{{.*}}: bit-exact
// CHECK: PASS
