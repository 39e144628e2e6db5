// RUN: mx-opt %s --mx-merge-gpu-launches --split-input-file | FileCheck %s

// Two independent relayouts (each reads an argument and writes its own new
// buffer), with the second's allocation between them: one launch over
// 8 + 2 blocks; blocks 8 and 9 run the second body as its blocks 0 and 1.
// CHECK-LABEL: func.func @independent
//  CHECK-SAME:   (%[[A:[^:]+]]: memref<2048xi8>, %[[S:[^:]+]]: memref<512xi8>)
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : index
//       CHECK:   %[[OA:.+]] = memref.alloc() : memref<2048xi8>
//       CHECK:   %[[OS:.+]] = memref.alloc() : memref<512xi8>
//       CHECK:   %[[G:.+]] = arith.addi %[[C8]], %[[C2]] : index
//       CHECK:   gpu.launch blocks(%[[BX:[^,]+]], {{.*}}) in (%{{[^ ]+}} = %[[G]], {{.*}} threads({{.*}}) in (%{{[^ ]+}} = %{{.+}}, {{.*}}) module(@k0) function(@k0)
//       CHECK:     %[[FIRST:.+]] = arith.cmpi ult, %[[BX]], %[[C8]] : index
//       CHECK:     scf.if %[[FIRST]] {
//       CHECK:       memref.load %[[A]]
//       CHECK:       memref.store %{{.+}}, %[[OA]]
//       CHECK:     } else {
//       CHECK:       %[[BX2:.+]] = arith.subi %[[BX]], %[[C8]] : index
//       CHECK:       arith.muli %[[BX2]]
//       CHECK:       memref.load %[[S]]
//       CHECK:       memref.store %{{.+}}, %[[OS]]
//       CHECK:     }
//       CHECK:     gpu.terminator
//   CHECK-NOT:   gpu.launch
//       CHECK:   return
func.func @independent(%a: memref<2048xi8>, %s: memref<512xi8>) -> (memref<2048xi8>, memref<512xi8>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %oa = memref.alloc() : memref<2048xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) module(@k0) function(@k0) {
    %base = arith.muli %bx, %c256 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %a[%i] : memref<2048xi8>
    memref.store %v, %oa[%i] : memref<2048xi8>
    gpu.terminator
  }
  %os = memref.alloc() : memref<512xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) module(@k1) function(@k1) {
    %base = arith.muli %bx, %c256 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %s[%i] : memref<512xi8>
    memref.store %v, %os[%i] : memref<512xi8>
    gpu.terminator
  }
  return %oa, %os : memref<2048xi8>, memref<512xi8>
}

// -----

// The second launch reads what the first writes: they stay apart.
// CHECK-LABEL: func.func @dependent
//       CHECK:   gpu.launch
//       CHECK:   gpu.launch
func.func @dependent(%a: memref<256xi8>) -> memref<256xi8> {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %t = memref.alloc() : memref<256xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xi8>
    memref.store %v, %t[%tx] : memref<256xi8>
    gpu.terminator
  }
  %o = memref.alloc() : memref<256xi8>
  %view = memref.subview %t[0] [256] [1] : memref<256xi8> to memref<256xi8, strided<[1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %view[%tx] : memref<256xi8, strided<[1]>>
    memref.store %v, %o[%tx] : memref<256xi8>
    gpu.terminator
  }
  return %o : memref<256xi8>
}

// -----

// Writes into function arguments, which may alias the other launch's
// argument; different block sizes; an op with effects in between: no merge.
// CHECK-LABEL: func.func @not_merged
//       CHECK:   gpu.launch
//       CHECK:   gpu.launch
//       CHECK:   gpu.launch
//       CHECK:   memref.copy
//       CHECK:   gpu.launch
func.func @not_merged(%a: memref<256xi8>, %b: memref<256xi8>, %c: memref<256xi8>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xi8>
    memref.store %v, %b[%tx] : memref<256xi8>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %c[%tx] : memref<256xi8>
    %t = memref.alloca() : memref<1xi8>
    memref.store %v, %t[%c1] : memref<1xi8>
    gpu.terminator
  }
  %o = memref.alloc() : memref<256xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %v = memref.load %c[%tx] : memref<256xi8>
    memref.store %v, %o[%tx] : memref<256xi8>
    gpu.terminator
  }
  memref.copy %a, %o : memref<256xi8> to memref<256xi8>
  %p = memref.alloc() : memref<256xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %v = memref.load %c[%tx] : memref<256xi8>
    memref.store %v, %p[%tx] : memref<256xi8>
    gpu.terminator
  }
  return
}
