// RUN: mx-opt %s | mx-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mx-opt %s --canonicalize | FileCheck %s

// mx_gfx950.wait_lds prints and parses back; canonicalization turns a
// constant count in the LDS counter's range [0, 15] into
// amdgpu.memory_counter_wait ds(N) and keeps a dynamic or out-of-range one
// (one function each: consecutive amdgpu.memory_counter_wait ops merge).

// ROUNDTRIP-LABEL: func.func @dynamic(
//  ROUNDTRIP-SAME:     %[[N:.+]]: index)
//       ROUNDTRIP:   mx_gfx950.wait_lds %[[N]]
// CHECK-LABEL: func.func @dynamic(
//  CHECK-SAME:     %[[N:.+]]: index)
//  CHECK-NEXT:   mx_gfx950.wait_lds %[[N]]
func.func @dynamic(%n: index) {
  mx_gfx950.wait_lds %n
  return
}

// CHECK-LABEL: func.func @zero(
//  CHECK-NEXT:   amdgpu.memory_counter_wait ds(0)
//  CHECK-NEXT:   return
func.func @zero() {
  %c0 = arith.constant 0 : index
  mx_gfx950.wait_lds %c0
  return
}

// CHECK-LABEL: func.func @largest(
//  CHECK-NEXT:   amdgpu.memory_counter_wait ds(15)
//  CHECK-NEXT:   return
func.func @largest() {
  %c15 = arith.constant 15 : index
  mx_gfx950.wait_lds %c15
  return
}

// CHECK-LABEL: func.func @too_many(
//  CHECK-NEXT:   %[[C16:.+]] = arith.constant 16 : index
//  CHECK-NEXT:   mx_gfx950.wait_lds %[[C16]]
func.func @too_many() {
  %c16 = arith.constant 16 : index
  mx_gfx950.wait_lds %c16
  return
}

// CHECK-LABEL: func.func @negative(
//  CHECK-NEXT:   %[[CM1:.+]] = arith.constant -1 : index
//  CHECK-NEXT:   mx_gfx950.wait_lds %[[CM1]]
func.func @negative() {
  %cm1 = arith.constant -1 : index
  mx_gfx950.wait_lds %cm1
  return
}

// After a wait for loads, the two merge into one wait of both counters.
// CHECK-LABEL: func.func @with_loads(
//  CHECK-NEXT:   amdgpu.memory_counter_wait load(4) ds(5)
//  CHECK-NEXT:   return
func.func @with_loads() {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  mx_gfx950.wait_loads %c4
  mx_gfx950.wait_lds %c5
  return
}
