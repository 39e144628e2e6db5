// Programs mx-run cannot run: unsupported signatures, ops the CPU pipeline
// leaves behind, unresolved symbols and ops the reference evaluator does not
// know. Each gives an error at the source location and exit code 2.

// RUN: not mx-run %s --entry=scalar --arg=zeros 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: errors-program.mlir:[[@LINE+14]]:1: error: argument #0 of @scalar has type 'f32'; only ranked tensors are supported
// RUN: not mx-run %s --entry=memref --arg=zeros 2>&1 | FileCheck %s --check-prefix=MEMREF
// MEMREF: error: argument #0 of @memref has type 'memref<4xf32>'; only ranked tensors are supported
// RUN: not mx-run %s --entry=unranked --arg=zeros 2>&1 | FileCheck %s --check-prefix=UNRANKED
// UNRANKED: error: argument #0 of @unranked has type 'tensor<*xf32>'; only ranked tensors are supported
// RUN: not mx-run %s --entry=index --arg=zeros 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: error: argument #0 of @index ('tensor<4xindex>') has an unsupported element type 'index' (supported: i1, i8, i16, i32, i64, f16, bf16, f32, f64, f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2, f8E8M0FNU)
// RUN: not mx-run %s --entry=unsigned --arg=zeros 2>&1 | FileCheck %s --check-prefix=UNSIGNED
// UNSIGNED: error: result #0 of @unsigned ('tensor<4xui8>') has an unsupported element type 'ui8'
// RUN: not mx-run %s --entry=dynamic --arg=zeros 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: argument #0 of @dynamic has the dynamic shape 'tensor<?x4xf32>'; arguments must have static shapes
// RUN: not mx-run %s --entry=huge --arg=zeros 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: argument #0 of @huge ('tensor<100000x100000x100000xf32>') is too large: mx-run handles at most 17179869184 bytes per tensor

func.func @scalar(%x: f32) -> f32 {
  return %x : f32
}
func.func @memref(%x: memref<4xf32>) {
  return
}
func.func @unranked(%x: tensor<*xf32>) {
  return
}
func.func @index(%x: tensor<4xindex>) {
  return
}
func.func @unsigned(%x: tensor<4xf32>) -> tensor<4xui8> {
  %c = arith.constant dense<1> : tensor<4xui8>
  return %c : tensor<4xui8>
}
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
func.func @huge(%x: tensor<100000x100000x100000xf32>) {
  return
}

// An op that no pass of the CPU pipeline lowers: the pipeline's input check
// names it (mx-run's own check of the lowered module is the backstop).
// RUN: not mx-run %S/Inputs/leftover-op.txt --arg=zeros 2>&1 | FileCheck %s --check-prefix=LEFTOVER
// LEFTOVER: leftover-op.txt:3:8: error: mx-cpu-pipeline (input): 'gpu.thread_id' belongs to the 'gpu' dialect, which mx-cpu-pipeline does not take here

// A GPU op with unknown memory effects (the CPU pipeline's buffer
// deallocation could not place frees around it): the input check refuses it
// before.
// RUN: not mx-run %S/Inputs/unknown-effects.txt --arg=zeros 2>&1 | FileCheck %s --check-prefix=EFFECTS
// EFFECTS: unknown-effects.txt:3:3: error: mx-cpu-pipeline (input): 'amdgpu.lds_barrier' belongs to the 'amdgpu' dialect
// EFFECTS: error: the CPU pipeline (mx-cpu-pipeline) failed to lower the module containing @f

// A call to a function that exists nowhere.
// RUN: not mx-run %S/Inputs/external-call.txt --entry=caller --arg=zeros 2>&1 | FileCheck %s --check-prefix=SYMBOL
// SYMBOL: Symbols not found: [ mx_run_test_no_such_function ]
// SYMBOL: external-call.txt:{{[0-9]+}}:1: error: cannot call @caller: Failed to materialize symbols

// The reference evaluator knows mx ops, dense constants, tensor.empty and
// func.return only.
// RUN: mx-run %S/Inputs/single-function.txt --arg=zeros --compare=reference 2>&1 | FileCheck %s --check-prefix=REFERENCE-OK
// REFERENCE-OK: PASS
// RUN: not mx-run %S/Inputs/linalg-add.txt --arg=zeros --compare=reference 2>&1 | FileCheck %s --check-prefix=REFERENCE
// REFERENCE: linalg-add.txt:4:8: error: reference evaluator does not support 'linalg.add'
