// RUN: mx-opt %s -split-input-file -verify-diagnostics --mx-hoist-argument-relayouts

// A weight that is also used as it is cannot be packed once.

// expected-error @+1 {{argument #0 of @other_use (marked 'mx.prepack') is used by 'func.return', which is not a relayout: only an argument whose uses are all its data-tiling relayout}}
func.func @other_use(%w: tensor<32x256xf4E2M1FN> {mx.prepack})
    -> (tensor<32x8x32xf4E2M1FN>, tensor<32x256xf4E2M1FN>) {
  %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 8, 32]
      : tensor<32x256xf4E2M1FN> into tensor<32x8x32xf4E2M1FN>
  // expected-note @+1 {{used here}}
  return %x, %w : tensor<32x8x32xf4E2M1FN>, tensor<32x256xf4E2M1FN>
}

// -----

// Two layouts of one weight.

// expected-error @+1 {{argument #0 of @two_layouts (marked 'mx.prepack') is relaid out into 2 tensors that the function uses (e.g. two layouts); it can be packed once only into one}}
func.func @two_layouts(%w: tensor<32x256xf4E2M1FN> {mx.prepack})
    -> (tensor<32x8x32xf4E2M1FN>, tensor<32x4x64xf4E2M1FN>) {
  %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 8, 32]
      : tensor<32x256xf4E2M1FN> into tensor<32x8x32xf4E2M1FN>
  %y = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 4, 64]
      : tensor<32x256xf4E2M1FN> into tensor<32x4x64xf4E2M1FN>
  return %x, %y : tensor<32x8x32xf4E2M1FN>, tensor<32x4x64xf4E2M1FN>
}

// -----

// A relaid-out tensor that is relaid out further is also used.

// expected-error @+1 {{is relaid out into 2 tensors that the function uses}}
func.func @middle_used(%w: tensor<32x256xf4E2M1FN> {mx.prepack})
    -> (tensor<32x8x32xf4E2M1FN>, tensor<8x32x32xf4E2M1FN>) {
  %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 8, 32]
      : tensor<32x256xf4E2M1FN> into tensor<32x8x32xf4E2M1FN>
  %e = tensor.empty() : tensor<8x32x32xf4E2M1FN>
  %t = linalg.transpose ins(%x : tensor<32x8x32xf4E2M1FN>)
      outs(%e : tensor<8x32x32xf4E2M1FN>) permutation = [1, 0, 2]
  return %x, %t : tensor<32x8x32xf4E2M1FN>, tensor<8x32x32xf4E2M1FN>
}

// -----

// expected-error @+1 {{argument #0 of @unused (marked 'mx.prepack') has no relayout that the function uses: nothing to pack}}
func.func @unused(%w: tensor<32x256xf4E2M1FN> {mx.prepack}) {
  return
}

// -----

// The relayout's destination comes from another argument.

// expected-error @+1 {{argument #0 of @other_input (marked 'mx.prepack') cannot be packed on its own: its relayout reads another block argument}}
func.func @other_input(%w: tensor<32x256xf4E2M1FN> {mx.prepack},
                       %e: tensor<256x32xf4E2M1FN>) -> tensor<256x32xf4E2M1FN> {
  %t = linalg.transpose ins(%w : tensor<32x256xf4E2M1FN>)
      outs(%e : tensor<256x32xf4E2M1FN>) permutation = [1, 0]
  return %t : tensor<256x32xf4E2M1FN>
}

// -----

// expected-error @+1 {{'mx.prepack' of argument #0 must be a unit attribute, got 1 : i64}}
func.func @not_unit(%w: tensor<32x256xf4E2M1FN> {mx.prepack = 1}) {
  return
}

// -----

// expected-error @+1 {{argument #0 of @scalar (marked 'mx.prepack') has type 'f32'; only ranked tensors are relaid out}}
func.func @scalar(%w: f32 {mx.prepack}) {
  return
}

// -----

// A called function: its caller passes the logical tensor.

// expected-error @+1 {{@callee has arguments marked 'mx.prepack' but is called in the module: its callers would have to pass the packed tensors}}
func.func @callee(%w: tensor<32x256xf4E2M1FN> {mx.prepack}) -> tensor<32x8x32xf4E2M1FN> {
  %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 8, 32]
      : tensor<32x256xf4E2M1FN> into tensor<32x8x32xf4E2M1FN>
  return %x : tensor<32x8x32xf4E2M1FN>
}
func.func @caller(%w: tensor<32x256xf4E2M1FN>) -> tensor<32x8x32xf4E2M1FN> {
  %x = func.call @callee(%w) : (tensor<32x256xf4E2M1FN>) -> tensor<32x8x32xf4E2M1FN>
  return %x : tensor<32x8x32xf4E2M1FN>
}

// -----

// Relaid out in a region (as mx-specialize-dynamic-m's versions per M bucket
// are, each with a layout of its own).

// expected-error @+1 {{argument #0 of @in_region (marked 'mx.prepack') is relaid out inside 'scf.if' (e.g. once per M bucket of mx-specialize-dynamic-m, each bucket with its own layout): it can be packed once only where the function's body relays it out}}
func.func @in_region(%w: tensor<32x256xf4E2M1FN> {mx.prepack}, %small: i1)
    -> tensor<32x8x32xf4E2M1FN> {
  %r = scf.if %small -> tensor<32x8x32xf4E2M1FN> {
    // expected-note @+1 {{used here}}
    %x = tensor.expand_shape %w [[0], [1, 2]] output_shape [32, 8, 32]
        : tensor<32x256xf4E2M1FN> into tensor<32x8x32xf4E2M1FN>
    scf.yield %x : tensor<32x8x32xf4E2M1FN>
  } else {
    %y = tensor.empty() : tensor<32x8x32xf4E2M1FN>
    scf.yield %y : tensor<32x8x32xf4E2M1FN>
  }
  return %r : tensor<32x8x32xf4E2M1FN>
}
