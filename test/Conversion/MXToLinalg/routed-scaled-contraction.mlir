// RUN: mx-opt %s --convert-mx-to-linalg --canonicalize | FileCheck %s

// mx.routed_scaled_contraction on the host: a loop over the blocks of
// sorted_ids; a block whose expert is in [0, E) gathers its rows' tokens,
// token scales and accumulator rows (generics from mx.gather_rows),
// contracts them with the expert's weights (rank-reducing slices), and
// inserts each valid row of the sum at its routed row (0 <= id < T * top_k).
// A first loop over the positions marks the rows that positions name (id
// in [0, T * top_k), in any block); a row named twice calls the runner's
// reporter (code 1) and returns acc unchanged.

// CHECK-LABEL: func.func private @mx_report_invalid_routing(i32)
// CHECK-LABEL: func.func @routed
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<10x128xf4E2M1FN>, %[[W:[^:]+]]: tensor<4x24x128xf4E2M1FN>, %[[SA:[^:]+]]: tensor<10x4xf8E8M0FNU>, %[[SW:[^:]+]]: tensor<4x24x4xf8E8M0FNU>, %[[IDS:[^:]+]]: tensor<64xi32>, %[[EXPERTS:[^:]+]]: tensor<4xi32>, %[[ACC:[^:]+]]: tensor<20x24xf32>)
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C20:.+]] = arith.constant 20 : index
//   CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : index
//   CHECK-DAG:   %[[REPEATED:.+]] = arith.constant 1 : i32
//       CHECK:   %[[UNMARKED:.+]] = linalg.fill ins(%{{.+}} : i8) outs(%{{.+}} : tensor<20xi8>)
//       CHECK:   %[[CHECK:.+]]:2 = scf.for %[[P:.+]] = %{{.+}} to %[[C64]] step %{{.+}} iter_args(%[[MARKS:.+]] = %[[UNMARKED]], %[[OK:.+]] = %{{.+}}) -> (tensor<20xi8>, i1)
//   CHECK-NOT:     tensor.extract %[[EXPERTS]]
//       CHECK:     %[[PID32:.+]] = tensor.extract %[[IDS]][%[[P]]]
//       CHECK:     %[[PID:.+]] = arith.index_cast %[[PID32]]
//       CHECK:     scf.if %{{.+}} -> (tensor<20xi8>, i1)
//       CHECK:       %[[MARK:.+]] = tensor.extract %[[MARKS]][%[[PID]]]
//       CHECK:       %[[FIRST:.+]] = arith.cmpi eq, %[[MARK]]
//       CHECK:       %[[MARKED:.+]] = tensor.insert %{{.+}} into %[[MARKS]][%[[PID]]]
//       CHECK:       %[[STILL:.+]] = arith.andi %[[OK]], %[[FIRST]]
//       CHECK:       scf.yield %[[MARKED]], %[[STILL]]
//       CHECK:   %[[R:.+]] = scf.if %[[CHECK]]#1 -> (tensor<20x24xf32>)
//       CHECK:   scf.for %[[BLOCK:.+]] = %{{.+}} to %[[C4]] step %{{.+}} iter_args(%[[CUR:.+]] = %[[ACC]]) -> (tensor<20x24xf32>)
//       CHECK:     %[[E32:.+]] = tensor.extract %[[EXPERTS]][%[[BLOCK]]] : tensor<4xi32>
//       CHECK:     %[[E:.+]] = arith.index_cast %[[E32]] : i32 to index
//       CHECK:     %[[IN:.+]] = scf.if %{{.+}} -> (tensor<20x24xf32>)
//       CHECK:       %[[BIDS:.+]] = tensor.extract_slice %[[IDS]][%{{.+}}] [16] [1] : tensor<64xi32> to tensor<16xi32>
//       CHECK:       tensor.extract_slice %[[W]][%[[E]], 0, 0] [1, 24, 128] [1, 1, 1] : tensor<4x24x128xf4E2M1FN> to tensor<24x128xf4E2M1FN>
//       CHECK:       %[[SUM:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<16x24xf32>)
//       CHECK:       scf.for %[[ROW:.+]] = %{{.+}} to %[[C16]] step %{{.+}} iter_args(%[[INNER:.+]] = %[[CUR]]) -> (tensor<20x24xf32>)
//       CHECK:         %[[ID32:.+]] = tensor.extract %[[BIDS]][%[[ROW]]] : tensor<16xi32>
//       CHECK:         %[[ID:.+]] = arith.index_cast %[[ID32]] : i32 to index
//       CHECK:         arith.cmpi slt, %[[ID]], %[[C20]] : index
//       CHECK:         scf.if
//       CHECK:           %[[ONE:.+]] = tensor.extract_slice %[[SUM]][%[[ROW]], 0] [1, 24] [1, 1]
//       CHECK:           tensor.insert_slice %[[ONE]] into %[[INNER]][%[[ID]], 0] [1, 24] [1, 1]
//       CHECK:       } else {
//       CHECK:         scf.yield %[[CUR]] : tensor<20x24xf32>
//       CHECK:   } else {
//       CHECK:     func.call @mx_report_invalid_routing(%[[REPEATED]]) : (i32) -> ()
//       CHECK:     scf.yield %[[ACC]]
//       CHECK:   return %[[R]]
func.func @routed(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                  %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
                  %ids: tensor<64xi32>, %experts: tensor<4xi32>,
                  %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}

// all_rows_named: the first loop also counts the rows it marks; the blocks
// run only when no row is named twice and all 20 are named, else the
// reporter gets code 1 (named twice) or 2 (some row unnamed).
// CHECK-LABEL: func.func @routed_all_rows_named
//  CHECK-SAME:   %[[ACC:[^:]+]]: tensor<20x24xf32>)
//   CHECK-DAG:   %[[C20:.+]] = arith.constant 20 : index
//   CHECK-DAG:   %[[REPEATED:.+]] = arith.constant 1 : i32
//   CHECK-DAG:   %[[UNNAMED:.+]] = arith.constant 2 : i32
//       CHECK:   %[[CHECK:.+]]:3 = scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %[[COUNT:.+]] = %{{.+}}) -> (tensor<20xi8>, i1, index)
//       CHECK:       %[[FIRST:.+]] = arith.cmpi eq
//       CHECK:       %[[NEW:.+]] = arith.index_castui %[[FIRST]] : i1 to index
//       CHECK:       %[[NEXT:.+]] = arith.addi %[[COUNT]], %[[NEW]]
//       CHECK:       scf.yield %{{.+}}, %{{.+}}, %[[NEXT]]
//       CHECK:   %[[ALL:.+]] = arith.cmpi eq, %[[CHECK]]#2, %[[C20]]
//       CHECK:   %[[VALID:.+]] = arith.andi %[[CHECK]]#1, %[[ALL]]
//       CHECK:   %[[R:.+]] = scf.if %[[VALID]] -> (tensor<20x24xf32>)
//       CHECK:   } else {
//       CHECK:     scf.if %[[CHECK]]#1 {
//       CHECK:       func.call @mx_report_invalid_routing(%[[UNNAMED]]) : (i32) -> ()
//       CHECK:     } else {
//       CHECK:       func.call @mx_report_invalid_routing(%[[REPEATED]]) : (i32) -> ()
//       CHECK:     scf.yield %[[ACC]]
//       CHECK:   return %[[R]]
func.func @routed_all_rows_named(%a: tensor<10x128xf4E2M1FN>, %w: tensor<4x24x128xf4E2M1FN>,
                                 %sa: tensor<10x4xf8E8M0FNU>, %sw: tensor<4x24x4xf8E8M0FNU>,
                                 %ids: tensor<64xi32>, %experts: tensor<4xi32>,
                                 %acc: tensor<20x24xf32>) -> tensor<20x24xf32> {
  %r = mx.routed_scaled_contraction top_k = 2
      ins(%a, %w, %sa, %sw : tensor<10x128xf4E2M1FN>, tensor<4x24x128xf4E2M1FN>,
                            tensor<10x4xf8E8M0FNU>, tensor<4x24x4xf8E8M0FNU>)
      routing(%ids, %experts : tensor<64xi32>, tensor<4xi32>)
      outs(%acc : tensor<20x24xf32>) {all_rows_named} -> tensor<20x24xf32>
  return %r : tensor<20x24xf32>
}
