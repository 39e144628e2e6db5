//! bad-args
func.func @two_in_one_out(%a: tensor<4xf32>, %b: tensor<4x64xf4E2M1FN>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
