// RUN: mx-opt %s -split-input-file -verify-diagnostics \
// RUN:   --mx-check-legality="pipeline=q stage=output legal-dialects=func,memref,gpu skip=gpu.module illegal-ops=memref.dealloc" \
// RUN:   -o /dev/null

// The output check of a pipeline: only ops of the legal dialects are left
// (builtin always is); the regions of skipped ops are not looked into.
// CHECK-LABEL: func.func @host
// CHECK: memref.load
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      %c0 = index.constant 0
      gpu.return
    }
  }
  func.func @host(%a: memref<4xf32>) -> f32 {
    %c0 = index.constant 0
    // expected-error @above {{q (output): 'index.constant' was not lowered by q}}
    %v = memref.load %a[%c0] : memref<4xf32>
    return %v : f32
  }
}

// -----

// An illegal op of a legal dialect.
func.func @dealloc(%a: memref<4xf32>) {
  // expected-error @below {{q (output): 'memref.dealloc' cannot be lowered by q}}
  memref.dealloc %a : memref<4xf32>
  return
}
