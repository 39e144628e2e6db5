// RUN: mx-opt %s --convert-mx-to-linalg --canonicalize | FileCheck %s

// The offsets are checked first (0 <= offsets[0], offsets[e] <= offsets[e+1]
// <= T); only consistent offsets run the loop over the experts, each a
// contraction of its rows of lhs/acc (dynamic slices) with its weights
// (rank-reducing slices); otherwise the runner's reporter is called and acc
// is returned unchanged.

// CHECK-LABEL: func.func private @mx_report_invalid_routing(i32)
// CHECK-LABEL: func.func @grouped
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<40x64xf8E4M3FN>, %[[B:[^:]+]]: tensor<3x24x64xf4E2M1FN>, %[[SA:[^:]+]]: tensor<40x2xf8E8M0FNU>, %[[SB:[^:]+]]: tensor<3x24x2xf8E8M0FNU>, %[[OFF:[^:]+]]: tensor<4xi32>, %[[ACC:[^:]+]]: tensor<40x24xf32>)
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[T:.+]] = arith.constant 40 : index
//   CHECK-DAG:   %[[E:.+]] = arith.constant 3 : index
//   CHECK-DAG:   %[[OFFSETS:.+]] = arith.constant 0 : i32
//       CHECK:   %[[FIRST32:.+]] = tensor.extract %[[OFF]][%[[C0]]]
//       CHECK:   %[[FIRST:.+]] = arith.index_cast %[[FIRST32]] : i32 to index
//       CHECK:   %[[NONNEG:.+]] = arith.cmpi sge, %[[FIRST]], %[[C0]]
//       CHECK:   %[[ORDERED:.+]] = scf.for %[[I:.+]] = %[[C0]] to %[[E]] step %[[C1]] iter_args(%[[OK:.+]] = %[[NONNEG]]) -> (i1)
//       CHECK:     arith.cmpi sle
//       CHECK:     arith.cmpi sle, %{{.+}}, %[[T]]
//       CHECK:   %[[FIRSTIN:.+]] = arith.cmpi sle, %[[FIRST]], %[[T]]
//       CHECK:   %[[VALID:.+]] = arith.andi %[[ORDERED]], %[[FIRSTIN]]
//       CHECK:   %[[R:.+]] = scf.if %[[VALID]] -> (tensor<40x24xf32>)
//       CHECK:     scf.for %[[X:.+]] = %[[C0]] to %[[E]] step %[[C1]] iter_args(%[[CUR:.+]] = %[[ACC]]) -> (tensor<40x24xf32>)
//       CHECK:       %[[LO32:.+]] = tensor.extract %[[OFF]][%[[X]]]
//       CHECK:       %[[LO:.+]] = arith.index_cast %[[LO32]]
//       CHECK:       %[[HI32:.+]] = tensor.extract %[[OFF]]
//       CHECK:       %[[HI:.+]] = arith.index_cast %[[HI32]]
//       CHECK:       %[[ROWS:.+]] = arith.subi %[[HI]], %[[LO]]
//       CHECK:       %[[GACC:.+]] = tensor.extract_slice %[[CUR]][%[[LO]], 0] [%[[ROWS]], 24] [1, 1] : tensor<40x24xf32> to tensor<?x24xf32>
//       CHECK:       %[[GA:.+]] = tensor.extract_slice %[[A]][%[[LO]], 0] [%[[ROWS]], 64] [1, 1] : tensor<40x64xf8E4M3FN> to tensor<?x64xf8E4M3FN>
//       CHECK:       %[[GB:.+]] = tensor.extract_slice %[[B]][%[[X]], 0, 0] [1, 24, 64] [1, 1, 1] : tensor<3x24x64xf4E2M1FN> to tensor<24x64xf4E2M1FN>
//       CHECK:       %[[GSA:.+]] = tensor.extract_slice %[[SA]][%[[LO]], 0] [%[[ROWS]], 2] [1, 1] : tensor<40x2xf8E8M0FNU> to tensor<?x2xf8E8M0FNU>
//       CHECK:       %[[GSB:.+]] = tensor.extract_slice %[[SB]][%[[X]], 0, 0] [1, 24, 2] [1, 1, 1] : tensor<3x24x2xf8E8M0FNU> to tensor<24x2xf8E8M0FNU>
//       CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[GA]], %[[GB]], %[[GSA]], %[[GSB]] :
//       CHECK:       %[[SUM:.+]] = linalg.generic {{.+}} outs(%[[GACC]] : tensor<?x24xf32>)
//       CHECK:       %[[NEW:.+]] = tensor.insert_slice %[[SUM]] into %[[CUR]][%[[LO]], 0] [%[[ROWS]], 24] [1, 1]
//       CHECK:       scf.yield %[[NEW]]
//       CHECK:   } else {
//       CHECK:     func.call @mx_report_invalid_routing(%[[OFFSETS]]) : (i32) -> ()
//       CHECK:     scf.yield %[[ACC]]
//       CHECK:   return %[[R]]
func.func @grouped(%a: tensor<40x64xf8E4M3FN>, %b: tensor<3x24x64xf4E2M1FN>,
                   %sa: tensor<40x2xf8E8M0FNU>, %sb: tensor<3x24x2xf8E8M0FNU>,
                   %offsets: tensor<4xi32>, %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x64xf8E4M3FN>, tensor<3x24x64xf4E2M1FN>,
                            tensor<40x2xf8E8M0FNU>, tensor<3x24x2xf8E8M0FNU>)
      offsets(%offsets : tensor<4xi32>)
      outs(%acc : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
