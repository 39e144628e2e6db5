// A program whose call graph has a cycle has no bounded run (the exec
// fuzzer's self-recursive function ran forever in the CPU backend's JIT):
// mx-run refuses it on every backend with the cycle, exit code 2.

// RUN: not mx-run %s --entry=outer --arg=fill:1 --backend=cpu 2>&1 | FileCheck %s
// RUN: not mx-run %s --entry=outer --arg=fill:1 --backend=gfx950-emu 2>&1 | FileCheck %s
// RUN: not mx-run %s --entry=outer --arg=fill:1 --backend=gfx950-emu --compare=reference 2>&1 | FileCheck %s
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=outer --arg=fill:1 --backend=gfx950-isa | FileCheck %s --check-prefix=EXIT
// EXIT: exit code 2

// CHECK: errors-recursion.mlir:[[@LINE+12]]:8: error: recursive call: @ping -> @pong -> @ping; mx-run runs programs whose call graph has no cycle
// CHECK-NOT: error

func.func @outer(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @ping(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @ping(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @pong(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @pong(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @ping(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
