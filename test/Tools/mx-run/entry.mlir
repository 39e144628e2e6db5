// Choosing the function to run: --entry=NAME, or the module's only function
// definition (declarations do not count).

// RUN: mx-run %s --entry=twice --arg=fill:2 --print | FileCheck %s --check-prefix=TWICE
// TWICE: result #0 tensor<2xf32> = [4, 4]
// RUN: mx-run %s --entry=same --arg=fill:2 --print | FileCheck %s --check-prefix=SAME
// SAME: result #0 tensor<2xf32> = [2, 2]

// RUN: not mx-run %s --arg=fill:2 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: entry.mlir:0:0: error: the module has 2 function definitions; choose the entry function with --entry=NAME (available: @twice, @same)
// RUN: not mx-run %s --entry=thrice --arg=fill:2 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: no function definition named 'thrice' in the module (available: @twice, @same)
// RUN: not mx-run %s --entry=external --arg=fill:2 2>&1 | FileCheck %s --check-prefix=DECLARATION
// DECLARATION: error: no function definition named 'external' in the module (available: @twice, @same)

// RUN: mx-run %S/Inputs/single-function.txt --arg=fill:3 --print | FileCheck %s --check-prefix=SINGLE
// SINGLE: result #0 tensor<3xi32> = [3, 3, 3]

func.func @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.add ins(%x, %x : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @same(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

func.func private @external(%x: tensor<2xf32>) -> tensor<2xf32>
