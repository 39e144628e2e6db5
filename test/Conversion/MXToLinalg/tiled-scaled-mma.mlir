// RUN: mx-opt %s --convert-mx-to-linalg --split-input-file | FileCheck %s

// The host lowering of mx.tiled_scaled_mma: unswizzle and unpack every
// operand to its canonical plain form (padded size), contract, then pack and
// swizzle the result again; the contraction itself lowers as usual.

// CHECK-LABEL: func.func @tiled
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<4x2x4x16x32xf4E2M1FN>, {{.*}}, %[[C:[^:]+]]: tensor<4x3x4x16x4xf32>)
//       CHECK:   %[[TA:.+]] = linalg.transpose ins(%[[A]] : tensor<4x2x4x16x32xf4E2M1FN>) outs(%{{.+}} : tensor<4x2x16x4x32xf4E2M1FN>) permutation = [0, 1, 3, 2, 4]
//       CHECK:   %[[CA:.+]] = tensor.collapse_shape %[[TA]] {{\[}}[0], [1], [2], [3, 4]] : tensor<4x2x16x4x32xf4E2M1FN> into tensor<4x2x16x128xf4E2M1FN>
//       CHECK:   %[[PA:.+]] = linalg.unpack %[[CA]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %{{.+}} : tensor<4x2x16x128xf4E2M1FN> -> tensor<64x256xf4E2M1FN>
//       CHECK:   linalg.unpack {{.*}} -> tensor<48x256xf4E2M1FN>
//       CHECK:   linalg.unpack {{.*}} -> tensor<64x8xf8E8M0FNU>
//       CHECK:   linalg.unpack {{.*}} -> tensor<48x8xf8E8M0FNU>
//       CHECK:   %[[PC:.+]] = linalg.unpack {{.*}} -> tensor<64x48xf32>
//       CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[PA]], {{.*}} outs(
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} outs(%[[PC]] : tensor<64x48xf32>)
//       CHECK:   %[[P:.+]] = linalg.pack %[[R]] {{.*}} inner_tiles = [16, 16] {{.*}} -> tensor<4x3x16x16xf32>
//       CHECK:   %[[X:.+]] = tensor.expand_shape %[[P]]
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<4x3x16x4x4xf32>) outs(%{{.+}} : tensor<4x3x4x16x4xf32>) permutation = [0, 1, 3, 2, 4]
//       CHECK:   return %[[T]]
func.func @tiled(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                 %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                 %c: tensor<4x3x4x16x4xf32>) -> tensor<4x3x4x16x4xf32> {
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x3x4x16x4xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// -----

// zero_acc: the plain accumulator is a +0.0 fill, the destination is not
// unpacked.
// CHECK-LABEL: func.func @tiled_zero_acc
//   CHECK-NOT:   linalg.unpack {{.*}} -> tensor<64x48xf32>
//       CHECK:   %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<64x48xf32>)
//       CHECK:   linalg.generic {{.*}} outs(%[[Z]] : tensor<64x48xf32>)
func.func @tiled_zero_acc(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                          %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>)
    -> tensor<4x3x4x16x4xf32> {
  %e = tensor.empty() : tensor<4x3x4x16x4xf32>
  %r = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>,
                            tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%e : tensor<4x3x4x16x4xf32>)
      layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
      zero_acc -> tensor<4x3x4x16x4xf32>
  return %r : tensor<4x3x4x16x4xf32>
}

// -----

// The accumulator in the user's layout (60 x 40 of 4 x 3 tiles of 16) with
// an epilogue: the padded rows and columns of the operands are cut off, the
// sums go to a zero-filled f32 tensor, and the epilogue is a linalg.generic
// over them that writes acc.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// CHECK-LABEL: func.func @user_layout_epilogue
//  CHECK-SAME:   %[[BIAS:[^:]+]]: tensor<40xf32>, %[[OUT:[^:]+]]: tensor<60x40xbf16>
//       CHECK:   %[[A:.+]] = tensor.extract_slice %{{.+}}[0, 0] [60, 256] [1, 1] : tensor<64x256xf4E2M1FN> to tensor<60x256xf4E2M1FN>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<60x40xf32>
//       CHECK:   %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<60x40xf32>)
//       CHECK:   %[[W:.+]] = linalg.generic {{.*}} ins(%[[Z]] : tensor<60x40xf32>)
//       CHECK:   %[[S:.+]] = linalg.generic {{.*}} ins(%[[A]], {{.*}} outs(%[[W]] : tensor<60x40xf64>)
//       CHECK:   %[[N:.+]] = linalg.generic {{.*}} ins(%[[S]] : tensor<60x40xf64>)
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel"]}
//  CHECK-SAME:     ins(%[[N]], %[[BIAS]] : tensor<60x40xf32>, tensor<40xf32>) outs(%[[OUT]] : tensor<60x40xbf16>)
//       CHECK:     arith.addf
//       CHECK:     arith.truncf
//       CHECK:     linalg.yield %{{.+}} : bf16
//       CHECK:   return %[[R]]
func.func @user_layout_epilogue(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<3x2x4x16x32xf4E2M1FN>,
                                %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<3x2x4x16xf8E8M0FNU>,
                                %bias: tensor<40xf32>, %out: tensor<60x40xbf16>) -> tensor<60x40xbf16> {
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb : tensor<4x2x4x16x32xf4E2M1FN>, tensor<3x2x4x16x32xf4E2M1FN>, tensor<4x2x4x16xf8E8M0FNU>, tensor<3x2x4x16xf8E8M0FNU>)
      outs(%out : tensor<60x40xbf16>) layout = #l zero_acc
      epilogue ins(%bias : tensor<40xf32>) maps [affine_map<(m, n) -> (n)>] {
  ^bb0(%s: f32, %x: f32, %o: bf16):
    %t = arith.addf %s, %x : f32
    %u = arith.truncf %t : f32 to bf16
    mx.yield %u : bf16
  } -> tensor<60x40xbf16>
  return %r : tensor<60x40xbf16>
}
