// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches{workgroup-size=100}))' -verify-diagnostics
// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches{workgroup-size=0}))' -verify-diagnostics
// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches{workgroup-size=-64}))' -verify-diagnostics
// RUN: mx-opt %s --pass-pipeline='builtin.module(func.func(convert-linalg-to-gpu-dispatches{workgroup-size=2048}))' -verify-diagnostics

// The workgroup size must be whole waves (64 lanes) and at most 1024
// threads; the diagnostic names the value given.

// expected-error-re @below {{convert-linalg-to-gpu-dispatches: workgroup-size must be a multiple of 64 in [64, 1024], got {{(100|0|-64|2048)$}}}}
func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
