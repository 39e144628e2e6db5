// Results the CPU backend must copy out correctly: an argument returned as
// is or updated in place, one value returned twice, constants (global
// memory), rank-0 and empty tensors, a dynamic result shape, a transposed
// copy and results that share one allocation.

// RUN: mx-run %s --entry=aliasing --arg=fill:2 --arg=fill:3 --print | FileCheck %s --check-prefix=ALIAS
// ALIAS:      result #0 tensor<2x3xf32> = [2, 2, 2, 2, 2, 2]
// ALIAS-NEXT: result #1 tensor<2x3xf32> = [5, 5, 5, 5, 5, 5]
// ALIAS-NEXT: result #2 tensor<2x3xf32> = [5, 5, 5, 5, 5, 5]
// ALIAS-NEXT: result #3 tensor<2x3xf32> = [-1, 0.5, 7, -1, 0.5, 7]
// ALIAS-NEXT: result #4 tensor<i64> = [-9]

// RUN: %python %S/Inputs/make_data.py %t
// RUN: mx-run %s --entry=shapes --arg=zeros --arg=file:%t/iota_3x4_i16.bin --print | FileCheck %s --check-prefix=SHAPES
// SHAPES:      result #0 tensor<0x4xf32> = []
// SHAPES-NEXT: result #1 tensor<3x4xi16> = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
// SHAPES-NEXT: result #2 tensor<3x4xi16> = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
// SHAPES-NEXT: result #3 tensor<4x3xi16> = [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]

// RUN: not mx-run %s --entry=shapes --arg=zeros --arg=fill:7 --expect=zeros --expect=fill:7 --expect=fill:7 --expect=fill:7 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: --expect #1: result #1 of @shapes (tensor<?x4xi16>) has a dynamic shape; --expect needs a static result type

// Two results computed into one buffer by CSE: both must be read before
// anything is freed.
// RUN: mx-run %s --entry=shared --arg=fill:1 --print | FileCheck %s --check-prefix=SHARED
// SHARED:      result #0 tensor<4xf32> = [2, 2, 2, 2]
// SHARED-NEXT: result #1 tensor<4xf32> = [2, 2, 2, 2]

func.func @aliasing(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i64>) {
  %sum = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%b : tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = arith.constant dense<[[-1.0, 0.5, 7.0], [-1.0, 0.5, 7.0]]> : tensor<2x3xf32>
  %i = arith.constant dense<-9> : tensor<i64>
  return %a, %sum, %sum, %c, %i : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i64>
}

func.func @shapes(%empty: tensor<0x4xf32>, %x: tensor<3x4xi16>) -> (tensor<0x4xf32>, tensor<?x4xi16>, tensor<3x4xi16>, tensor<4x3xi16>) {
  %d = tensor.cast %x : tensor<3x4xi16> to tensor<?x4xi16>
  %e = tensor.empty() : tensor<4x3xi16>
  %t = linalg.transpose ins(%x : tensor<3x4xi16>) outs(%e : tensor<4x3xi16>) permutation = [1, 0]
  return %empty, %d, %x, %t : tensor<0x4xf32>, tensor<?x4xi16>, tensor<3x4xi16>, tensor<4x3xi16>
}

func.func @shared(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4xf32>
  %r0 = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %r1 = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}
