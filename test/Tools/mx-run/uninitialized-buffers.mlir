// What a program reads of a buffer it never wrote (the contents of a
// tensor.empty are undefined) is zero on the CPU backend, as in the reference
// evaluator, so that such runs are reproducible and comparable (the exec
// fuzzer compares them). A small buffer comes from recycled heap memory, which
// held other data before the runner's allocator zeroed it (without the
// zeroing this test fails; a large fresh allocation would be zero anyway).

// RUN: mx-run %s --entry=empty_small --compare=reference | FileCheck %s
// CHECK: result #0 {{.*}}: bit-exact
// CHECK: PASS

func.func @empty_small() -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  return %e : tensor<4x3xf32>
}
