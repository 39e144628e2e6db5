// --print shows every result: its type and its first values (16 by default,
// --print-limit=N, 0 for all), decoded for MX element and scale types.

// RUN: mx-run %s --arg=fill:1.5 --arg=fill:0x9 --arg=fill:0x7c --print | FileCheck %s
// CHECK:      result #0 tensor<4x5xf32> = [1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, ... (4 more)]
// CHECK-NEXT: result #1 tensor<3xf4E2M1FN> = [-0.5, -0.5, -0.5]
// CHECK-NEXT: result #2 tensor<2xf8E8M0FNU> = [0.125, 0.125]
// CHECK-NEXT: result #3 tensor<2x2xi8> = [-7, -7, -7, -7]
// CHECK-NOT: PASS

// RUN: mx-run %s --arg=fill:1.5 --arg=fill:0x9 --arg=fill:0x7c --print --print-limit=2 | FileCheck %s --check-prefix=LIMIT
// LIMIT: result #0 tensor<4x5xf32> = [1.5, 1.5, ... (18 more)]
// RUN: mx-run %s --arg=fill:1.5 --arg=fill:0x9 --arg=fill:0x7c --print --print-limit=0 | FileCheck %s --check-prefix=ALL
// ALL: result #0 tensor<4x5xf32> = [1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5]

// Without --print, --compare or --expect nothing is printed.
// RUN: mx-run %s --arg=fill:1.5 --arg=fill:0x9 --arg=fill:0x7c | count 0

func.func @show(%x: tensor<4x5xf32>, %c: tensor<3xf4E2M1FN>, %s: tensor<2xf8E8M0FNU>) -> (tensor<4x5xf32>, tensor<3xf4E2M1FN>, tensor<2xf8E8M0FNU>, tensor<2x2xi8>) {
  %i = arith.constant dense<-7> : tensor<2x2xi8>
  return %x, %c, %s, %i : tensor<4x5xf32>, tensor<3xf4E2M1FN>, tensor<2xf8E8M0FNU>, tensor<2x2xi8>
}
