// RUN: mx-opt %s --convert-mx-to-linalg --canonicalize --split-input-file | FileCheck %s

// mx.quantize_into on the CPU path: an mx.quantize of the input, then a loop
// nest per destination over its padded domain. An i8 destination of fp4 codes
// is filled in codes first, then packed two codes per byte (low nibble first).

// CHECK-LABEL: func.func @fp4_bytes
//  CHECK-SAME: (%[[X:.*]]: tensor<2x64xf32>)
//       CHECK:   %[[BYTES:.*]] = tensor.empty() : tensor<2x32xi8>
//       CHECK:   %[[CODES:.*]] = linalg.generic {{.*}} ins(%[[X]], %{{.*}} : tensor<2x64xf32>, tensor<2x2xf8E8M0FNU>)
//       CHECK:   %[[EMPTY:.*]] = tensor.empty() : tensor<2x64xf4E2M1FN>
//       CHECK:   %[[FILLED:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[EMPTY]]) -> (tensor<2x64xf4E2M1FN>)
//       CHECK:     tensor.extract %[[CODES]]
//       CHECK:   %[[PACKED:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[BYTES]]) -> (tensor<2x32xi8>)
//       CHECK:     scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
//       CHECK:       %[[FIRST:.*]] = affine.apply #{{.*}}(%[[J]])
//       CHECK:       %[[LO:.*]] = tensor.extract %[[FILLED]][%{{.*}}, %[[FIRST]]]
//       CHECK:       %[[LOBITS:.*]] = arith.bitcast %[[LO]] : f4E2M1FN to i4
//       CHECK:       %[[SECOND:.*]] = arith.addi %[[FIRST]], %{{.*}}
//       CHECK:       %[[HI:.*]] = tensor.extract %[[FILLED]][%{{.*}}, %[[SECOND]]]
//       CHECK:       %[[HIBITS:.*]] = arith.bitcast %[[HI]] : f4E2M1FN to i4
//       CHECK:       %[[LOWORD:.*]] = arith.extui %[[LOBITS]] : i4 to i32
//       CHECK:       %[[HIWORD:.*]] = arith.extui %[[HIBITS]] : i4 to i32
//       CHECK:       %[[SHIFTED:.*]] = arith.shli %[[HIWORD]], %{{.*}} : i32
//       CHECK:       %[[WORD:.*]] = arith.ori %[[LOWORD]], %[[SHIFTED]] : i32
//       CHECK:       %[[BYTE:.*]] = arith.trunci %[[WORD]] : i32 to i8
//       CHECK:       tensor.insert %[[BYTE]] into %[[ACC]][%{{.*}}, %[[J]]] : tensor<2x32xi8>
//       CHECK:   return %[[PACKED]]
func.func @fp4_bytes(%x: tensor<2x64xf32>) -> tensor<2x32xi8> {
  %e0 = tensor.empty() : tensor<2x32xi8>
  %a = mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<2x64xf32> -> f4E2M1FN
      elements(%e0 : tensor<2x32xi8>) maps [affine_map<(m, k) -> (m, k)>]
      scales() maps [] padding []
      -> tensor<2x32xi8>
  return %a : tensor<2x32xi8>
}

// -----

// Memrefs: the input is read through bufferization.to_tensor, the filled
// destination written with bufferization.materialize_in_destination; the
// dynamic sizes come from the buffers, the input's bounding the reads and the
// destination's the padded domain.

// CHECK-LABEL: func.func @memref_scales
//  CHECK-SAME: (%[[X:.*]]: memref<?x64xf32>, %[[S:.*]]: memref<?x2xi8>)
//       CHECK:   %[[XT:.*]] = bufferization.to_tensor %[[X]] restrict : memref<?x64xf32> to tensor<?x64xf32>
//       CHECK:   %[[ROWS:.*]] = memref.dim %[[X]], %{{.*}}
//       CHECK:   %[[SCALES:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x2xf8E8M0FNU>)
//       CHECK:   %[[DESTROWS:.*]] = memref.dim %[[S]], %{{.*}}
//       CHECK:   %[[FILLED:.*]] = scf.for %[[M:.*]] = %{{.*}} to %[[DESTROWS]]
//       CHECK:       %[[IN:.*]] = arith.cmpi ult, %[[M]], %[[ROWS]] : index
//       CHECK:       %[[BOTH:.*]] = arith.andi %[[IN]], %{{.*}} : i1
//       CHECK:       %[[V:.*]] = tensor.extract %[[SCALES]]
//       CHECK:       arith.select %[[BOTH]], %[[V]], %{{.*}} : f8E8M0FNU
//       CHECK:   %[[BYTES:.*]] = scf.for
//       CHECK:       arith.bitcast %{{.*}} : f8E8M0FNU to i8
//       CHECK:   bufferization.materialize_in_destination %[[BYTES]] in restrict writable %[[S]] : (tensor<?x2xi8>, memref<?x2xi8>) -> ()
//   CHECK-NOT:   mx.quantize_into
func.func @memref_scales(%x: memref<?x64xf32>, %s: memref<?x2xi8>) {
  mx.quantize_into %x axis(1) scale(floor) rounding(nearest_even)
      : memref<?x64xf32> -> f8E4M3FN
      elements() maps []
      scales(%s : memref<?x2xi8>) maps [affine_map<(m, kb) -> (m, kb)>] padding [127]
  return
}

// -----

// Gathered by row ids (divisor 2): logical row i reads the codes and scale
// of row ids[i] / 2 of the quantized input; an id outside [0, 8) (or a row
// past the ids) gives code 0 and the scale padding.
// CHECK-LABEL: func.func @gathered
//  CHECK-SAME: (%[[X:.*]]: tensor<4x64xf32>, %[[IDS:.*]]: tensor<6xi32>)
//   CHECK-DAG:   %[[PAD:.*]] = arith.constant 1.000000e+00 : f8E8M0FNU
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f4E2M1FN
//       CHECK:   %[[CODES:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x64xf4E2M1FN>)
//       CHECK:   %[[E:.*]] = scf.for %[[I:.*]] = %c0 to %c8
//       CHECK:     scf.for %[[K:.*]] = %c0 to %c64
//       CHECK:       %[[ROWOK:.*]] = arith.cmpi ult, %[[I]], %c6 : index
//       CHECK:       %[[IN:.*]] = arith.andi %[[ROWOK]], %{{.*}} : i1
//       CHECK:       %[[AT:.*]] = arith.select %[[IN]], %[[I]], %c0 : index
//       CHECK:       %[[ID:.*]] = tensor.extract %[[IDS]][%[[AT]]] : tensor<6xi32>
//       CHECK:       %[[IDX:.*]] = arith.index_cast %[[ID]] : i32 to index
//       CHECK:       %[[SRC:.*]] = arith.divsi %[[IDX]], %c2 : index
//       CHECK:       %[[CLAMP:.*]] = arith.minsi %[[SRC]], %c3 : index
//       CHECK:       %[[ROW:.*]] = arith.maxsi %[[CLAMP]], %c0 : index
//       CHECK:       %[[VALID:.*]] = arith.andi %[[IN]], %{{.*}} : i1
//       CHECK:       %[[R:.*]] = arith.select %[[VALID]], %[[ROW]], %c0 : index
//       CHECK:       %[[CODE:.*]] = tensor.extract %[[CODES]][%[[R]], %{{.*}}] : tensor<4x64xf4E2M1FN>
//       CHECK:       %[[V:.*]] = arith.select %[[VALID]], %[[CODE]], %[[ZERO]] : f4E2M1FN
//       CHECK:       tensor.insert %[[V]] into %{{.*}}[%[[I]], %[[K]]] : tensor<8x64xf4E2M1FN>
//       CHECK:   %[[S:.*]] = scf.for
//       CHECK:       tensor.extract %[[IDS]]
//       CHECK:       %[[SC:.*]] = arith.select %{{.*}}, %{{.*}}, %[[PAD]] : f8E8M0FNU
//       CHECK:       tensor.insert %[[SC]] into %{{.*}} : tensor<8x2xf8E8M0FNU>
//       CHECK:   return %[[E]], %[[S]]
func.func @gathered(%x: tensor<4x64xf32>, %ids: tensor<6xi32>)
    -> (tensor<8x64xf4E2M1FN>, tensor<8x2xf8E8M0FNU>) {
  %e0 = tensor.empty() : tensor<8x64xf4E2M1FN>
  %s0 = tensor.empty() : tensor<8x2xf8E8M0FNU>
  %e, %s = mx.quantize_into %x gather(%ids : tensor<6xi32> divisor = 2) axis(1) scale(floor)
      rounding(nearest_even) : tensor<4x64xf32> -> f4E2M1FN
      elements(%e0 : tensor<8x64xf4E2M1FN>) maps [affine_map<(m, k) -> (m, k)>]
      scales(%s0 : tensor<8x2xf8E8M0FNU>) maps [affine_map<(m, k) -> (m, k)>] padding [127]
      -> tensor<8x64xf4E2M1FN>, tensor<8x2xf8E8M0FNU>
  return %e, %s : tensor<8x64xf4E2M1FN>, tensor<8x2xf8E8M0FNU>
}
