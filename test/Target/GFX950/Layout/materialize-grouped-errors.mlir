// RUN: mx-opt %s --split-input-file --mx-set-encodings \
// RUN:   --mx-materialize-encodings="target=#mx_gfx950.target" -verify-diagnostics

func.func @grouped_bad_pin(%a: tensor<40x64xf8E4M3FN>, %b: tensor<3x24x64xf8E4M3FN>,
                           %sa: tensor<40x2xf8E8M0FNU>, %sb: tensor<3x24x2xf8E8M0FNU>,
                           %offsets: tensor<4xindex>, %acc: tensor<40x24xf32>) -> tensor<40x24xf32> {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op 'mx.layout' must be a data-tiled layout (TiledLayoutAttrInterface), got 3 : i64}}
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x64xf8E4M3FN>, tensor<3x24x64xf8E4M3FN>,
                            tensor<40x2xf8E8M0FNU>, tensor<3x24x2xf8E8M0FNU>)
      offsets(%offsets : tensor<4xindex>)
      outs(%acc : tensor<40x24xf32>) {mx.layout = 3}
      -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

// -----

func.func @grouped_zero_n(%a: tensor<40x64xf8E4M3FN>, %b: tensor<3x0x64xf8E4M3FN>,
                          %sa: tensor<40x2xf8E8M0FNU>, %sb: tensor<3x0x2xf8E8M0FNU>,
                          %offsets: tensor<4xindex>, %acc: tensor<40x0xf32>) -> tensor<40x0xf32> {
  // expected-error @+1 {{'mx.grouped_scaled_contraction' op has a zero-sized N dimension: gfx950 kernels need M, N and K of at least 1}}
  %r = mx.grouped_scaled_contraction
      ins(%a, %b, %sa, %sb : tensor<40x64xf8E4M3FN>, tensor<3x0x64xf8E4M3FN>,
                            tensor<40x2xf8E8M0FNU>, tensor<3x0x2xf8E8M0FNU>)
      offsets(%offsets : tensor<4xindex>)
      outs(%acc : tensor<40x0xf32>) -> tensor<40x0xf32>
  return %r : tensor<40x0xf32>
}
