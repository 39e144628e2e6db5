// RUN: mx-opt %s --mx-pack-to-bytes | FileCheck %s

// mx-pack-to-bytes: MX element and scale tensors become i8 tensors of the
// same shape except the innermost dimension, which counts bytes: fp8 and
// E8M0 one byte per element, fp4 two elements per byte, fp6 four elements
// per three bytes (element i in bits [w*i, w*i + w) of the row's
// little-endian byte string). Non-MX tensors are untouched.

// Arguments and results keep their logical type in mx.packed_type.
// CHECK-LABEL: func.func @signature
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<64x128xi8> {mx.packed_type = tensor<64x256xf4E2M1FN>},
//  CHECK-SAME:    %[[B:[^:]+]]: tensor<8x48xi8> {mx.packed_type = tensor<8x64xf6E2M3FN>},
//  CHECK-SAME:    %[[C:[^:]+]]: tensor<4x32xi8> {mx.packed_type = tensor<4x32xf8E4M3FN>},
//  CHECK-SAME:    %[[S:[^:]+]]: tensor<4x2xi8> {mx.packed_type = tensor<4x2xf8E8M0FNU>},
//  CHECK-SAME:    %[[F:[^:]+]]: tensor<4x4xf32>)
//  CHECK-SAME:   -> (tensor<64x128xi8> {mx.packed_type = tensor<64x256xf4E2M1FN>}, tensor<8x48xi8> {mx.packed_type = tensor<8x64xf6E2M3FN>},
//  CHECK-SAME:       tensor<4x32xi8> {mx.packed_type = tensor<4x32xf8E4M3FN>}, tensor<4x2xi8> {mx.packed_type = tensor<4x2xf8E8M0FNU>}, tensor<4x4xf32>)
//  CHECK-NEXT:   return %[[A]], %[[B]], %[[C]], %[[S]], %[[F]] :
func.func @signature(%a: tensor<64x256xf4E2M1FN>, %b: tensor<8x64xf6E2M3FN>,
                     %c: tensor<4x32xf8E4M3FN>, %s: tensor<4x2xf8E8M0FNU>,
                     %f: tensor<4x4xf32>)
    -> (tensor<64x256xf4E2M1FN>, tensor<8x64xf6E2M3FN>, tensor<4x32xf8E4M3FN>,
        tensor<4x2xf8E8M0FNU>, tensor<4x4xf32>) {
  return %a, %b, %c, %s, %f : tensor<64x256xf4E2M1FN>, tensor<8x64xf6E2M3FN>,
      tensor<4x32xf8E4M3FN>, tensor<4x2xf8E8M0FNU>, tensor<4x4xf32>
}

// The relayout chain of one fp4 operand (what mx-lower-relayouts makes of a
// linalg.pack): the padding of the innermost dimension, the expanded
// innermost size and the tensor.empty all count bytes (56 -> 28, 128 -> 64).
// CHECK-LABEL: func.func @relayout
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<30x100xi8> {mx.packed_type = tensor<30x200xf4E2M1FN>})
//  CHECK-SAME:   -> (tensor<2x2x16x64xi8> {mx.packed_type = tensor<2x2x16x128xf4E2M1FN>})
//       CHECK:   %[[Z:.+]] = arith.constant 0 : i8
//       CHECK:   %[[P:.+]] = tensor.pad %[[A]] low[0, 0] high[2, 28]
//       CHECK:     tensor.yield %[[Z]] : i8
//       CHECK:   } : tensor<30x100xi8> to tensor<32x128xi8>
//       CHECK:   %[[X:.+]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2, 3]] output_shape [2, 16, 2, 64] : tensor<32x128xi8> into tensor<2x16x2x64xi8>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x2x16x64xi8>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<2x16x2x64xi8>) outs(%[[E]] : tensor<2x2x16x64xi8>) permutation = [0, 2, 1, 3]
//       CHECK:   return %[[T]] : tensor<2x2x16x64xi8>
func.func @relayout(%a: tensor<30x200xf4E2M1FN>) -> tensor<2x2x16x128xf4E2M1FN> {
  %zero = arith.constant 0.0 : f4E2M1FN
  %p = tensor.pad %a low[0, 0] high[2, 56] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f4E2M1FN
  } : tensor<30x200xf4E2M1FN> to tensor<32x256xf4E2M1FN>
  %x = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [2, 16, 2, 128]
      : tensor<32x256xf4E2M1FN> into tensor<2x16x2x128xf4E2M1FN>
  %e = tensor.empty() : tensor<2x2x16x128xf4E2M1FN>
  %t = linalg.transpose ins(%x : tensor<2x16x2x128xf4E2M1FN>)
      outs(%e : tensor<2x2x16x128xf4E2M1FN>) permutation = [0, 2, 1, 3]
  return %t : tensor<2x2x16x128xf4E2M1FN>
}

// Constants are packed at compile time. fp4 codes: 0.5 = 1, 1.0 = 2,
// 2.0 = 4, 3.0 = 5, 4.0 = 6, -6.0 = 0xF; the first element is the low
// nibble: [1.0, 2.0] = 0x42 = 66, [-6.0, 0.5] = 0x1F = 31, [3.0, 4.0] = 0x65.
// Each row starts on a byte. A splat 1.0 is 0x22 = 34 in every byte.
// fp6 E2M3 1.0 = 0b001000: four of them are bits 0x208208, bytes 08 82 20.
// E8M0 1.0, 2.0, 0.5 = 0x7F, 0x80, 0x7E; E4M3 1.0 = 0x38, -2.0 = 0xC0.
// CHECK-LABEL: func.func @constants
//  CHECK-SAME:   -> (tensor<1x2xi8> {mx.packed_type = tensor<1x4xf4E2M1FN>}, tensor<2x1xi8> {mx.packed_type = tensor<2x2xf4E2M1FN>}, tensor<4x4xi8> {mx.packed_type = tensor<4x8xf4E2M1FN>}, tensor<1x3xi8> {mx.packed_type = tensor<1x4xf6E2M3FN>}, tensor<3xi8> {mx.packed_type = tensor<3xf8E8M0FNU>}, tensor<2xi8> {mx.packed_type = tensor<2xf8E4M3FN>})
//   CHECK-DAG:   %[[C0:.+]] = arith.constant dense<{{\[\[}}66, 31]]> : tensor<1x2xi8>
//   CHECK-DAG:   %[[C1:.+]] = arith.constant dense<{{\[\[}}66], [101]]> : tensor<2x1xi8>
//   CHECK-DAG:   %[[C2:.+]] = arith.constant dense<34> : tensor<4x4xi8>
//   CHECK-DAG:   %[[C3:.+]] = arith.constant dense<{{\[\[}}8, -126, 32]]> : tensor<1x3xi8>
//   CHECK-DAG:   %[[C4:.+]] = arith.constant dense<[127, -128, 126]> : tensor<3xi8>
//   CHECK-DAG:   %[[C5:.+]] = arith.constant dense<[56, -64]> : tensor<2xi8>
//       CHECK:   return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]] :
func.func @constants() -> (tensor<1x4xf4E2M1FN>, tensor<2x2xf4E2M1FN>,
    tensor<4x8xf4E2M1FN>, tensor<1x4xf6E2M3FN>, tensor<3xf8E8M0FNU>,
    tensor<2xf8E4M3FN>) {
  %0 = arith.constant dense<[[1.0, 2.0, -6.0, 0.5]]> : tensor<1x4xf4E2M1FN>
  %1 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf4E2M1FN>
  %2 = arith.constant dense<1.0> : tensor<4x8xf4E2M1FN>
  %3 = arith.constant dense<1.0> : tensor<1x4xf6E2M3FN>
  %4 = arith.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf8E8M0FNU>
  %5 = arith.constant dense<[1.0, -2.0]> : tensor<2xf8E4M3FN>
  return %0, %1, %2, %3, %4, %5 : tensor<1x4xf4E2M1FN>, tensor<2x2xf4E2M1FN>,
      tensor<4x8xf4E2M1FN>, tensor<1x4xf6E2M3FN>, tensor<3xf8E8M0FNU>,
      tensor<2xf8E4M3FN>
}

// Padding values become the byte that repeats the code: fp4 1.0 (code 2) is
// 0x22 = 34, fp6 may only pad with 0 (low 4 and high 4 fp6 are 3 bytes each),
// an E8M0 scale 1.0 is 127, an E4M3 1.0 is 56. For byte types the padding
// of every dimension is unchanged.
// CHECK-LABEL: func.func @pads
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<4x3xi8> {{.*}}, %[[B:[^:]+]]: tensor<4x6xi8> {{.*}}, %[[S:[^:]+]]: tensor<3x2xi8> {{.*}}, %[[C:[^:]+]]: tensor<4x5xi8> {{.*}})
//       CHECK:   %[[V34:.+]] = arith.constant 34 : i8
//       CHECK:   %[[PA:.+]] = tensor.pad %[[A]] low[0, 0] high[0, 1]
//       CHECK:     tensor.yield %[[V34]] : i8
//       CHECK:   } : tensor<4x3xi8> to tensor<4x4xi8>
//       CHECK:   %[[V0:.+]] = arith.constant 0 : i8
//       CHECK:   %[[PB:.+]] = tensor.pad %[[B]] low[0, 3] high[0, 3]
//       CHECK:     tensor.yield %[[V0]] : i8
//       CHECK:   } : tensor<4x6xi8> to tensor<4x12xi8>
//       CHECK:   %[[V127:.+]] = arith.constant 127 : i8
//       CHECK:   %[[PS:.+]] = tensor.pad %[[S]] low[0, 0] high[1, 2]
//       CHECK:     tensor.yield %[[V127]] : i8
//       CHECK:   } : tensor<3x2xi8> to tensor<4x4xi8>
//       CHECK:   %[[V56:.+]] = arith.constant 56 : i8
//       CHECK:   %[[PC:.+]] = tensor.pad %[[C]] low[0, 1] high[0, 2]
//       CHECK:     tensor.yield %[[V56]] : i8
//       CHECK:   } : tensor<4x5xi8> to tensor<4x8xi8>
//       CHECK:   return %[[PA]], %[[PB]], %[[PS]], %[[PC]] :
func.func @pads(%a: tensor<4x6xf4E2M1FN>, %b: tensor<4x8xf6E2M3FN>,
                %s: tensor<3x2xf8E8M0FNU>, %c: tensor<4x5xf8E4M3FN>)
    -> (tensor<4x8xf4E2M1FN>, tensor<4x16xf6E2M3FN>, tensor<4x4xf8E8M0FNU>,
        tensor<4x8xf8E4M3FN>) {
  %one = arith.constant 1.0 : f4E2M1FN
  %pa = tensor.pad %a low[0, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f4E2M1FN
  } : tensor<4x6xf4E2M1FN> to tensor<4x8xf4E2M1FN>
  %zero6 = arith.constant 0.0 : f6E2M3FN
  %pb = tensor.pad %b low[0, 4] high[0, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero6 : f6E2M3FN
  } : tensor<4x8xf6E2M3FN> to tensor<4x16xf6E2M3FN>
  %ones = arith.constant 1.0 : f8E8M0FNU
  %ps = tensor.pad %s low[0, 0] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %ones : f8E8M0FNU
  } : tensor<3x2xf8E8M0FNU> to tensor<4x4xf8E8M0FNU>
  %one8 = arith.constant 1.0 : f8E4M3FN
  %pc = tensor.pad %c low[0, 1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one8 : f8E4M3FN
  } : tensor<4x5xf8E4M3FN> to tensor<4x8xf8E4M3FN>
  return %pa, %pb, %ps, %pc : tensor<4x8xf4E2M1FN>, tensor<4x16xf6E2M3FN>,
      tensor<4x4xf8E8M0FNU>, tensor<4x8xf8E4M3FN>
}

// Slices cut the innermost dimension in bytes (element 128 = byte 64); a
// rank-reducing slice may drop outer unit dimensions.
// CHECK-LABEL: func.func @slices
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<1x64x128xi8> {{.*}}, %[[D:[^:]+]]: tensor<64x256xi8> {{.*}})
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[A]][0, 0, 64] [1, 64, 64] [1, 1, 1] : tensor<1x64x128xi8> to tensor<64x64xi8>
//       CHECK:   %[[I:.+]] = tensor.insert_slice %[[S]] into %[[D]][0, 32] [64, 64] [1, 1] : tensor<64x64xi8> into tensor<64x256xi8>
//       CHECK:   return %[[I]]
func.func @slices(%a: tensor<1x64x256xf4E2M1FN>, %d: tensor<64x512xf4E2M1FN>)
    -> tensor<64x512xf4E2M1FN> {
  %s = tensor.extract_slice %a[0, 0, 128] [1, 64, 128] [1, 1, 1]
      : tensor<1x64x256xf4E2M1FN> to tensor<64x128xf4E2M1FN>
  %r = tensor.insert_slice %s into %d[0, 64] [64, 128] [1, 1]
      : tensor<64x128xf4E2M1FN> into tensor<64x512xf4E2M1FN>
  return %r : tensor<64x512xf4E2M1FN>
}

// CHECK-LABEL: func.func @reshapes
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<2x16x2x64xi8> {mx.packed_type = tensor<2x16x2x128xf4E2M1FN>})
//  CHECK-SAME:   -> (tensor<?x128xi8> {mx.packed_type = tensor<?x256xf4E2M1FN>})
//       CHECK:   %[[C:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2, 3]] : tensor<2x16x2x64xi8> into tensor<32x128xi8>
//       CHECK:   %[[D:.+]] = tensor.cast %[[C]] : tensor<32x128xi8> to tensor<?x128xi8>
//       CHECK:   return %[[D]]
func.func @reshapes(%a: tensor<2x16x2x128xf4E2M1FN>) -> tensor<?x256xf4E2M1FN> {
  %c = tensor.collapse_shape %a [[0, 1], [2, 3]]
      : tensor<2x16x2x128xf4E2M1FN> into tensor<32x256xf4E2M1FN>
  %d = tensor.cast %c : tensor<32x256xf4E2M1FN> to tensor<?x256xf4E2M1FN>
  return %d : tensor<?x256xf4E2M1FN>
}

// Dynamic sizes: a new innermost size is converted to bytes (n * 4 / 8 for
// fp4), and tensor.dim of the packed innermost dimension back to elements
// (bytes * 8 / 4); other dimensions are unchanged.
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<?x?xi8> {mx.packed_type = tensor<?x?xf4E2M1FN>}, %[[N:[^:]+]]: index)
//  CHECK-SAME:   -> (index, index, tensor<4x?xi8> {mx.packed_type = tensor<4x?xf4E2M1FN>})
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//       CHECK:   %[[D0:.+]] = tensor.dim %[[A]], %[[C0]] : tensor<?x?xi8>
//       CHECK:   %[[D1:.+]] = tensor.dim %[[A]], %[[C1]] : tensor<?x?xi8>
//       CHECK:   %[[BITS:.+]] = arith.constant 4 : index
//       CHECK:   %[[EIGHT:.+]] = arith.constant 8 : index
//       CHECK:   %[[M:.+]] = arith.muli %[[D1]], %[[EIGHT]] : index
//       CHECK:   %[[ELEMS:.+]] = arith.divui %[[M]], %[[BITS]] : index
//       CHECK:   %[[BITS2:.+]] = arith.constant 4 : index
//       CHECK:   %[[EIGHT2:.+]] = arith.constant 8 : index
//       CHECK:   %[[NB:.+]] = arith.muli %[[N]], %[[BITS2]] : index
//       CHECK:   %[[BYTES:.+]] = arith.divui %[[NB]], %[[EIGHT2]] : index
//       CHECK:   %[[E:.+]] = tensor.empty(%[[BYTES]]) : tensor<4x?xi8>
//       CHECK:   return %[[D0]], %[[ELEMS]], %[[E]]
func.func @dynamic(%a: tensor<?x?xf4E2M1FN>, %n: index)
    -> (index, index, tensor<4x?xf4E2M1FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf4E2M1FN>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf4E2M1FN>
  %e = tensor.empty(%n) : tensor<4x?xf4E2M1FN>
  return %d0, %d1, %e : index, index, tensor<4x?xf4E2M1FN>
}

// One byte per element: fp8 transposes may move the innermost dimension.
// CHECK-LABEL: func.func @fp8_transpose
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<4x32xi8> {mx.packed_type = tensor<4x32xf8E4M3FN>})
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<32x4xi8>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[A]] : tensor<4x32xi8>) outs(%[[E]] : tensor<32x4xi8>) permutation = [1, 0]
//       CHECK:   return %[[T]]
func.func @fp8_transpose(%a: tensor<4x32xf8E4M3FN>) -> tensor<32x4xf8E4M3FN> {
  %e = tensor.empty() : tensor<32x4xf8E4M3FN>
  %t = linalg.transpose ins(%a : tensor<4x32xf8E4M3FN>)
      outs(%e : tensor<32x4xf8E4M3FN>) permutation = [1, 0]
  return %t : tensor<32x4xf8E4M3FN>
}

// Sub-byte transposes that move the innermost dimension (an fp4 or fp6
// weight stored K x N) move values: one linalg.generic over the output bytes
// assembles each from the two values whose bits it holds, each gathered
// from its source bytes (two, as a 6-bit value may straddle them).
// CHECK-LABEL: func.func @fp4_transpose
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<4x16xi8> {mx.packed_type = tensor<4x32xf4E2M1FN>})
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<32x2xi8>
//       CHECK:   %[[T:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} outs(%[[E]] : tensor<32x2xi8>)
//       CHECK:     linalg.index 0
//       CHECK:     linalg.index 1
//       CHECK:     tensor.extract %[[A]]
//       CHECK:     tensor.extract %[[A]]
//       CHECK:     tensor.extract %[[A]]
//       CHECK:     tensor.extract %[[A]]
//   CHECK-NOT:     tensor.extract
//       CHECK:     linalg.yield %{{.+}} : i8
//       CHECK:   return %[[T]]
func.func @fp4_transpose(%a: tensor<4x32xf4E2M1FN>) -> tensor<32x4xf4E2M1FN> {
  %e = tensor.empty() : tensor<32x4xf4E2M1FN>
  %t = linalg.transpose ins(%a : tensor<4x32xf4E2M1FN>)
      outs(%e : tensor<32x4xf4E2M1FN>) permutation = [1, 0]
  return %t : tensor<32x4xf4E2M1FN>
}

// CHECK-LABEL: func.func @fp6_transpose
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<2x8x24xi8> {mx.packed_type = tensor<2x8x32xf6E2M3FN>})
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<32x2x6xi8>
//       CHECK:   linalg.generic {{.*}} outs(%[[E]] : tensor<32x2x6xi8>)
func.func @fp6_transpose(%a: tensor<2x8x32xf6E2M3FN>) -> tensor<32x2x8xf6E2M3FN> {
  %e = tensor.empty() : tensor<32x2x8xf6E2M3FN>
  %t = linalg.transpose ins(%a : tensor<2x8x32xf6E2M3FN>)
      outs(%e : tensor<32x2x8xf6E2M3FN>) permutation = [2, 0, 1]
  return %t : tensor<32x2x8xf6E2M3FN>
}

// mx.tiled_scaled_mma takes the bytes (fp4 lane: 32 values = 16 bytes, fp6:
// 24 bytes); the f32 accumulator is untouched.
#layout = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f6E2M3FN, interleave_m = [lhs_scales], interleave_n = [rhs_scales], interleave_k = [lhs_scales, rhs_scales]>
// CHECK-LABEL: func.func @tiled_mma
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<4x2x4x16x16xi8> {{.*}}, %[[B:[^:]+]]: tensor<2x2x4x16x24xi8> {{.*}}, %[[SA:[^:]+]]: tensor<4x2x4x16xi8> {{.*}}, %[[SB:[^:]+]]: tensor<2x2x4x16xi8> {{.*}}, %[[C:[^:]+]]: tensor<4x2x4x16x4xf32>)
//  CHECK-SAME:   -> tensor<4x2x4x16x4xf32>
//       CHECK:   %[[R:.+]] = mx.tiled_scaled_mma ins(%[[A]], %[[B]], %[[SA]], %[[SB]] : tensor<4x2x4x16x16xi8>, tensor<2x2x4x16x24xi8>, tensor<4x2x4x16xi8>, tensor<2x2x4x16xi8>) outs(%[[C]] : tensor<4x2x4x16x4xf32>)
//       CHECK:   return %[[R]]
func.func @tiled_mma(%a: tensor<4x2x4x16x32xf4E2M1FN>, %b: tensor<2x2x4x16x32xf6E2M3FN>,
                     %sa: tensor<4x2x4x16xf8E8M0FNU>, %sb: tensor<2x2x4x16xf8E8M0FNU>,
                     %c: tensor<4x2x4x16x4xf32>) -> tensor<4x2x4x16x4xf32> {
  %r = mx.tiled_scaled_mma ins(%a, %b, %sa, %sb
      : tensor<4x2x4x16x32xf4E2M1FN>, tensor<2x2x4x16x32xf6E2M3FN>,
        tensor<4x2x4x16xf8E8M0FNU>, tensor<2x2x4x16xf8E8M0FNU>)
      outs(%c : tensor<4x2x4x16x4xf32>) layout = #layout -> tensor<4x2x4x16x4xf32>
  return %r : tensor<4x2x4x16x4xf32>
}

// Declarations (nothing calls them) and functions without MX data are left
// alone.
// CHECK-LABEL: func.func private @external(tensor<4x8xf4E2M1FN>) -> tensor<4x8xf4E2M1FN>
func.func private @external(%a: tensor<4x8xf4E2M1FN>) -> tensor<4x8xf4E2M1FN>

// CHECK-LABEL: func.func @no_mx
//  CHECK-SAME:   (%{{.+}}: tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @no_mx(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %a : tensor<4x8xf32>
}

// One byte per element: slices of fp8 and E8M0 data may drop the innermost
// dimension or stride it; they are the same in bytes.
// CHECK-LABEL: func.func @byte_slices
//  CHECK-SAME:   (%[[A:.+]]: tensor<4x1xi8> {mx.packed_type = tensor<4x1xf8E8M0FNU>}, %[[B:.+]]: tensor<4x8xi8> {mx.packed_type = tensor<4x8xf8E4M3FN>})
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[A]][0, 0] [4, 1] [1, 1] : tensor<4x1xi8> to tensor<4xi8>
//       CHECK:   %[[T:.+]] = tensor.extract_slice %[[B]][0, 1] [4, 4] [1, 2] : tensor<4x8xi8> to tensor<4x4xi8>
//       CHECK:   return %[[S]], %[[T]] : tensor<4xi8>, tensor<4x4xi8>
func.func @byte_slices(%a: tensor<4x1xf8E8M0FNU>, %b: tensor<4x8xf8E4M3FN>)
    -> (tensor<4xf8E8M0FNU>, tensor<4x4xf8E4M3FN>) {
  %s = tensor.extract_slice %a[0, 0] [4, 1] [1, 1] : tensor<4x1xf8E8M0FNU> to tensor<4xf8E8M0FNU>
  %t = tensor.extract_slice %b[0, 1] [4, 4] [1, 2] : tensor<4x8xf8E4M3FN> to tensor<4x4xf8E4M3FN>
  return %s, %t : tensor<4xf8E8M0FNU>, tensor<4x4xf8E4M3FN>
}

// mx.gather_row_tiles moves whole rows: the same gather of rows of bytes.
// CHECK-LABEL: func.func @gather_row_tiles
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<40x64xi8> {mx.packed_type = tensor<40x128xf4E2M1FN>}, %[[T:[^:]+]]: tensor<7x3xi32>)
//       CHECK:   %[[G:.+]] = mx.gather_row_tiles %[[A]][%[[T]]] tile_rows = 16 : tensor<40x64xi8>, tensor<7x3xi32> -> tensor<112x64xi8>
//       CHECK:   return %[[G]] : tensor<112x64xi8>
func.func @gather_row_tiles(%a: tensor<40x128xf4E2M1FN>, %t: tensor<7x3xi32>) -> tensor<112x128xf4E2M1FN> {
  %g = mx.gather_row_tiles %a[%t] tile_rows = 16 : tensor<40x128xf4E2M1FN>, tensor<7x3xi32> -> tensor<112x128xf4E2M1FN>
  return %g : tensor<112x128xf4E2M1FN>
}

// mx.gather_rows moves whole rows too.
// CHECK-LABEL: func.func @gather_rows
//  CHECK-SAME:   (%[[A:[^:]+]]: tensor<10x64xi8> {mx.packed_type = tensor<10x128xf4E2M1FN>}, %[[IDS:[^:]+]]: tensor<64xi32>)
//       CHECK:   %[[G:.+]] = mx.gather_rows %[[A]][%[[IDS]]] divisor = 2 : tensor<10x64xi8>, tensor<64xi32> -> tensor<64x64xi8>
//       CHECK:   return %[[G]] : tensor<64x64xi8>
func.func @gather_rows(%a: tensor<10x128xf4E2M1FN>, %ids: tensor<64xi32>) -> tensor<64x128xf4E2M1FN> {
  %g = mx.gather_rows %a[%ids] divisor = 2 : tensor<10x128xf4E2M1FN>, tensor<64xi32> -> tensor<64x128xf4E2M1FN>
  return %g : tensor<64x128xf4E2M1FN>
}
