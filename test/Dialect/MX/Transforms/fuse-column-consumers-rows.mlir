// RUN: mx-opt %s --mx-fuse-column-consumers=max-strip-elements=256 | FileCheck %s --check-prefix=ROWS
// RUN: mx-opt %s --mx-fuse-column-consumers | FileCheck %s --check-prefix=STRIP

// The weighted combine of a routed GEMM (20 tokens, top 2: y [40, 128],
// N tiles of 16: 8 strips of 20 x 16 = 320 outputs). Each output row t
// reads rows 2t and 2t + 1, a row group of 2. Above max-strip-elements the
// combine is computed row by row: mx.column_consumer = 2, and the counters
// are one per strip and one per output row and strip, 8 x (1 + 20) = 168.
// Within it (the default, 4096) the strip's last wave computes the strip:
// one counter per strip.
#l = #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN>
// ROWS-LABEL: func.func @combine
//       ROWS:   %[[EMPTY:.+]] = tensor.empty() : tensor<168xi32>
//       ROWS:   %[[COUNTERS:.+]] = linalg.fill ins(%{{.+}} : i32) outs(%[[EMPTY]] : tensor<168xi32>)
//       ROWS:   linalg.generic
//  ROWS-SAME:       %[[COUNTERS]] : {{.*}}tensor<168xi32>)
//  ROWS-SAME:       attrs = {mx.column_consumer = 2 : i64}
// STRIP-LABEL: func.func @combine
//       STRIP:   tensor.empty() : tensor<8xi32>
//       STRIP:   attrs = {mx.column_consumer}
func.func @combine(%a: tensor<8x2x4x16x32xf4E2M1FN>, %b: tensor<5x8x2x4x16x32xf4E2M1FN>,
                   %sa: tensor<8x2x4x16xf8E8M0FNU>, %sb: tensor<5x8x2x4x16xf8E8M0FNU>,
                   %experts: tensor<4xi32>, %ids: tensor<128xi32>, %w: tensor<20x2xf32>) -> tensor<20x128xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x128xf32>) -> tensor<40x128xf32>
  %y = mx.tiled_scaled_mma
      ins(%a, %b, %sa, %sb : tensor<8x2x4x16x32xf4E2M1FN>, tensor<5x8x2x4x16x32xf4E2M1FN>,
                            tensor<8x2x4x16xf8E8M0FNU>, tensor<5x8x2x4x16xf8E8M0FNU>)
      tile_groups(%experts : tensor<4xi32>) row_ids(%ids : tensor<128xi32>)
      outs(%c : tensor<40x128xf32>) layout = #l zero_acc -> tensor<40x128xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [20, 2, 128] : tensor<40x128xf32> into tensor<20x2x128xf32>
  %o = tensor.empty() : tensor<20x128xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(t, n) -> (t, 0, n)>, affine_map<(t, n) -> (t, 1, n)>,
                                        affine_map<(t, n) -> (t, 0)>, affine_map<(t, n) -> (t, 1)>, affine_map<(t, n) -> (t, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y3, %y3, %w, %w : tensor<20x2x128xf32>, tensor<20x2x128xf32>, tensor<20x2xf32>, tensor<20x2xf32>) outs(%o : tensor<20x128xbf16>) {
  ^bb0(%v0: f32, %v1: f32, %c0: f32, %c1: f32, %out: bf16):
    %p0 = arith.mulf %c0, %v0 : f32
    %p1 = arith.mulf %c1, %v1 : f32
    %s = arith.addf %p0, %p1 : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<20x128xbf16>
  return %g : tensor<20x128xbf16>
}
