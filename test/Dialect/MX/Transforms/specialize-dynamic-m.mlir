// RUN: mx-opt %s -split-input-file --mx-specialize-dynamic-m="target=#mx_gfx950.target<require_ukernel=true>" | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-specialize-dynamic-m | FileCheck %s --check-prefix=NO-TARGET

// A dynamic M: one version per gfx950 M bucket (M <= 16, M <= 64) with the
// layout resolved for the bound pinned, and the original for larger M,
// chosen by M at run time. The elementwise consumer (bias, bf16) goes into
// every version; the tensor.dim of the result reads the accumulator's.

// For N = 256 and K = 1024 both buckets resolve to one-intrinsic tiles (the
// most workgroups), K steps of 4 intrinsics (whole scale groups).
//       CHECK: #[[L:.+]] = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_k = 4,
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<?x1024xf4E2M1FN>, {{.+}}, %[[C:[^:]+]]: tensor<?x256xf32>, %[[BIAS:[^:]+]]: tensor<256xf32>)
//       CHECK:   %[[EMPTY:.+]] = tensor.empty(%{{.+}}) : tensor<?x256xbf16>
//       CHECK:   %[[M:.+]] = tensor.dim %[[C]], %{{.+}} : tensor<?x256xf32>
//       CHECK:   %[[C16:.+]] = arith.constant 16 : index
//       CHECK:   %[[SMALL:.+]] = arith.cmpi ule, %[[M]], %[[C16]] : index
//       CHECK:   %[[R:.+]] = scf.if %[[SMALL]] -> (tensor<?x256xbf16>) {
//       CHECK:     %[[R16:.+]] = mx.scaled_contraction {{.+}} outs(%[[C]] : tensor<?x256xf32>) {mx.layout = #[[L]], mx.m_bound = 16 : i64}
//       CHECK:     %[[T16:.+]] = linalg.generic {{.+}} ins(%[[R16]], %[[BIAS]] : {{.+}}) outs(%[[EMPTY]] : tensor<?x256xbf16>)
//       CHECK:     scf.yield %[[T16]] : tensor<?x256xbf16>
//       CHECK:   } else {
//       CHECK:     %[[C64:.+]] = arith.constant 64 : index
//       CHECK:     %[[MID:.+]] = arith.cmpi ule, %[[M]], %[[C64]] : index
//       CHECK:     %[[R2:.+]] = scf.if %[[MID]] -> (tensor<?x256xbf16>) {
//       CHECK:       mx.scaled_contraction {{.+}} {mx.layout = #[[L]], mx.m_bound = 64 : i64}
//       CHECK:       linalg.generic
//       CHECK:     } else {
//       CHECK:       %[[RG:.+]] = mx.scaled_contraction {{.+}} outs(%[[C]] : tensor<?x256xf32>) -> tensor<?x256xf32>
//       CHECK:       %[[TG:.+]] = linalg.generic {{.+}} ins(%[[RG]], %[[BIAS]] : {{.+}})
//       CHECK:       scf.yield %[[TG]]
//       CHECK:     }
//       CHECK:     scf.yield %[[R2]]
//       CHECK:   }
//       CHECK:   return %[[R]] : tensor<?x256xbf16>
// NO-TARGET-LABEL: func.func @dynamic
//   NO-TARGET-NOT:   scf.if
func.func @dynamic(%a: tensor<?x1024xf4E2M1FN>, %b: tensor<256x1024xf4E2M1FN>,
                   %sa: tensor<?x32xf8E8M0FNU>, %sb: tensor<256x32xf8E8M0FNU>,
                   %c: tensor<?x256xf32>, %bias: tensor<256xf32>) -> tensor<?x256xbf16> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x1024xf4E2M1FN>, tensor<256x1024xf4E2M1FN>,
                            tensor<?x32xf8E8M0FNU>, tensor<256x32xf8E8M0FNU>)
      outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  %i0 = arith.constant 0 : index
  %m = tensor.dim %r, %i0 : tensor<?x256xf32>
  %e = tensor.empty(%m) : tensor<?x256xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<?x256xf32>, tensor<256xf32>) outs(%e : tensor<?x256xbf16>) {
  ^bb0(%x: f32, %y: f32, %o: bf16):
    %s = arith.addf %x, %y : f32
    %v = arith.truncf %s : f32 to bf16
    linalg.yield %v : bf16
  } -> tensor<?x256xbf16>
  return %t : tensor<?x256xbf16>
}

// -----

// Static M, or a dynamic N: nothing to version.
// CHECK-LABEL: func.func @static_m
//   CHECK-NOT:   scf.if
// CHECK-LABEL: func.func @dynamic_n
//   CHECK-NOT:   scf.if
func.func @static_m(%a: tensor<8x1024xf4E2M1FN>, %b: tensor<256x1024xf4E2M1FN>,
                    %sa: tensor<8x32xf8E8M0FNU>, %sb: tensor<256x32xf8E8M0FNU>,
                    %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<8x1024xf4E2M1FN>, tensor<256x1024xf4E2M1FN>,
                            tensor<8x32xf8E8M0FNU>, tensor<256x32xf8E8M0FNU>)
      outs(%c : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}
func.func @dynamic_n(%a: tensor<8x1024xf4E2M1FN>, %b: tensor<?x1024xf4E2M1FN>,
                     %sa: tensor<8x32xf8E8M0FNU>, %sb: tensor<?x32xf8E8M0FNU>,
                     %c: tensor<8x?xf32>) -> tensor<8x?xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<8x1024xf4E2M1FN>, tensor<?x1024xf4E2M1FN>,
                            tensor<8x32xf8E8M0FNU>, tensor<?x32xf8E8M0FNU>)
      outs(%c : tensor<8x?xf32>) -> tensor<8x?xf32>
  return %r : tensor<8x?xf32>
}
