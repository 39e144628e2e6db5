// The README's main command runs mx-opt on this example; keep it valid.
// RUN: mx-opt %mx_src_root/examples/mxfp4_gemm.mlir -verify-roundtrip | FileCheck %s

// CHECK-LABEL: func.func @mxfp4_gemm
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<64x256xbf16>, %[[B:[^:]+]]: tensor<64x256xbf16>, %[[C:[^:]+]]: tensor<64x64xf32>)
//       CHECK:   %[[QA:.+]], %[[SA:.+]] = mx.quantize %[[A]] axis(1) scale(even) rounding(ties_away)
//       CHECK:   %[[QB:.+]], %[[SB:.+]] = mx.quantize %[[B]] axis(1) scale(even) rounding(ties_away)
//       CHECK:   %[[R:.+]] = mx.scaled_contraction
//  CHECK-SAME:     ins(%[[QA]], %[[QB]], %[[SA]], %[[SB]] :
//  CHECK-SAME:     outs(%[[C]] : tensor<64x64xf32>)
//       CHECK:   return %[[R]]
