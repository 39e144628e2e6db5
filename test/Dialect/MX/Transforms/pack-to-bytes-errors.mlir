// RUN: mx-opt %s --mx-pack-to-bytes -split-input-file -verify-diagnostics

// Every way mx-pack-to-bytes refuses a program: sub-byte data may only be
// moved in whole bytes, and only by the ops it knows.

// A transpose of packed fp6 data moves values, but its result rows (here 2
// values, 12 bits) must still be whole bytes.
func.func @transpose_to_partial_bytes(%b: tensor<2x8xf6E2M3FN>) -> tensor<8x2xf6E2M3FN> {
  // expected-error @below {{'tensor.empty' op has an innermost size or offset of 2 'f6E2M3FN' elements (12 bits), which is not a whole number of bytes}}
  %e = tensor.empty() : tensor<8x2xf6E2M3FN>
  %t = linalg.transpose ins(%b : tensor<2x8xf6E2M3FN>) outs(%e : tensor<8x2xf6E2M3FN>) permutation = [1, 0]
  return %t : tensor<8x2xf6E2M3FN>
}

// -----

// A nonzero fp6 code does not repeat within a byte (fp4 codes do).
func.func @fp6_nonzero_pad(%a: tensor<4x4xf6E2M3FN>) -> tensor<4x8xf6E2M3FN> {
  %one = arith.constant 1.0 : f6E2M3FN
  // expected-error @below {{'tensor.pad' op pads a packed 'f6E2M3FN' tensor with a nonzero value, which does not repeat within a byte}}
  %p = tensor.pad %a low[0, 0] high[0, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f6E2M3FN
  } : tensor<4x4xf6E2M3FN> to tensor<4x8xf6E2M3FN>
  return %p : tensor<4x8xf6E2M3FN>
}

// -----

// Padding one fp4 element on each side cuts a byte.
func.func @pad_not_byte_boundary(%a: tensor<4x2xf4E2M1FN>) -> tensor<4x4xf4E2M1FN> {
  %zero = arith.constant 0.0 : f4E2M1FN
  // expected-error @below {{'tensor.pad' op has an innermost size or offset of 1 'f4E2M1FN' elements (4 bits), which is not a whole number of bytes}}
  %p = tensor.pad %a low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f4E2M1FN
  } : tensor<4x2xf4E2M1FN> to tensor<4x4xf4E2M1FN>
  return %p : tensor<4x4xf4E2M1FN>
}

// -----

func.func @pad_non_constant(%a: tensor<4x2xf4E2M1FN>, %v: f4E2M1FN) -> tensor<4x4xf4E2M1FN> {
  // expected-error @below {{'tensor.pad' op pads a packed 'f4E2M1FN' tensor with a non-constant value; only constants are supported}}
  %p = tensor.pad %a low[0, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f4E2M1FN
  } : tensor<4x2xf4E2M1FN> to tensor<4x4xf4E2M1FN>
  return %p : tensor<4x4xf4E2M1FN>
}

// -----

func.func @slice_not_byte_boundary(%a: tensor<4x8xf4E2M1FN>) -> tensor<4x2xf4E2M1FN> {
  // expected-error @below {{'tensor.extract_slice' op has an innermost size or offset of 1 'f4E2M1FN' elements (4 bits), which is not a whole number of bytes}}
  %s = tensor.extract_slice %a[0, 1] [4, 2] [1, 1] : tensor<4x8xf4E2M1FN> to tensor<4x2xf4E2M1FN>
  return %s : tensor<4x2xf4E2M1FN>
}

// -----

func.func @slice_strided(%a: tensor<4x8xf4E2M1FN>) -> tensor<4x4xf4E2M1FN> {
  // expected-error @below {{'tensor.extract_slice' op slices the innermost dimension of a packed 'f4E2M1FN' tensor with a non-unit stride or drops it (packed elements move in whole bytes)}}
  %s = tensor.extract_slice %a[0, 0] [4, 4] [1, 2] : tensor<4x8xf4E2M1FN> to tensor<4x4xf4E2M1FN>
  return %s : tensor<4x4xf4E2M1FN>
}

// -----

func.func @insert_not_byte_boundary(%a: tensor<4x2xf4E2M1FN>, %d: tensor<4x8xf4E2M1FN>) -> tensor<4x8xf4E2M1FN> {
  // expected-error @below {{'tensor.insert_slice' op has an innermost size or offset of 3 'f4E2M1FN' elements (12 bits), which is not a whole number of bytes}}
  %r = tensor.insert_slice %a into %d[0, 3] [4, 2] [1, 1] : tensor<4x2xf4E2M1FN> into tensor<4x8xf4E2M1FN>
  return %r : tensor<4x8xf4E2M1FN>
}

// -----

func.func @expand_not_whole_bytes(%a: tensor<4x8xf4E2M1FN>) -> tensor<4x8x1xf4E2M1FN> {
  // expected-error @below {{'tensor.expand_shape' op cannot store 'tensor<4x8x1xf4E2M1FN>' packed: its innermost dimension (1 x 4 bits) is not whole bytes}}
  %x = tensor.expand_shape %a [[0], [1, 2]] output_shape [4, 8, 1] : tensor<4x8xf4E2M1FN> into tensor<4x8x1xf4E2M1FN>
  return %x : tensor<4x8x1xf4E2M1FN>
}

// -----

// expected-error @below {{'func.func' op cannot store 'tensor<4x3xf4E2M1FN>' packed: its innermost dimension (3 x 4 bits) is not whole bytes}}
func.func @odd_argument(%a: tensor<4x3xf4E2M1FN>) -> tensor<4x3xf4E2M1FN> {
  return %a : tensor<4x3xf4E2M1FN>
}

// -----

// expected-error @below {{'func.func' op cannot store the 0-d tensor 'tensor<f8E4M3FN>' packed}}
func.func @zero_d(%a: tensor<f8E4M3FN>) -> tensor<f8E4M3FN> {
  return %a : tensor<f8E4M3FN>
}

// -----

func.func @empty_not_whole_bytes() -> tensor<4x3xf4E2M1FN> {
  // expected-error @below {{'tensor.empty' op has an innermost size or offset of 3 'f4E2M1FN' elements (12 bits), which is not a whole number of bytes}}
  %e = tensor.empty() : tensor<4x3xf4E2M1FN>
  return %e : tensor<4x3xf4E2M1FN>
}

// -----

func.func @pack_not_lowered(%a: tensor<32x256xf4E2M1FN>) -> tensor<2x2x16x128xf4E2M1FN> {
  %e = tensor.empty() : tensor<2x2x16x128xf4E2M1FN>
  // expected-error @below {{'linalg.pack' op on an MX tensor must be lowered (mx-lower-relayouts) before packing to bytes}}
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [16, 128] into %e
      : tensor<32x256xf4E2M1FN> -> tensor<2x2x16x128xf4E2M1FN>
  return %p : tensor<2x2x16x128xf4E2M1FN>
}

// -----

// Ops other than the relayout ops cannot produce or consume MX bytes.
func.func @unsupported_producer() -> tensor<4x8xf4E2M1FN> {
  %one = arith.constant 1.0 : f4E2M1FN
  %e = tensor.empty() : tensor<4x8xf4E2M1FN>
  // expected-error @below {{'linalg.fill' op cannot operate on 'f4E2M1FN' data stored as bytes (mx-pack-to-bytes supports the relayout ops, mx.gather_rows, mx.gather_row_tiles, mx.tiled_scaled_mma and mx.quantize_into)}}
  %f = linalg.fill ins(%one : f4E2M1FN) outs(%e : tensor<4x8xf4E2M1FN>) -> tensor<4x8xf4E2M1FN>
  return %f : tensor<4x8xf4E2M1FN>
}

// -----

func.func @unsupported_consumer(%a: tensor<4x8xf4E2M1FN>) -> f4E2M1FN {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'tensor.extract' op cannot consume MX data stored as bytes}}
  %x = tensor.extract %a[%c0, %c0] : tensor<4x8xf4E2M1FN>
  return %x : f4E2M1FN
}

// -----

// tensor.dim of the innermost dimension is rewritten (bytes -> elements);
// with a dynamic index the pass cannot tell which dimension it is.
func.func @dim_dynamic_index(%a: tensor<4x8xf4E2M1FN>, %i: index) -> index {
  // expected-error @below {{'tensor.dim' op with a dynamic index on MX data stored as bytes}}
  %d = tensor.dim %a, %i : tensor<4x8xf4E2M1FN>
  return %d : index
}

// -----

// A called function keeps its signature, so it cannot take MX tensors.
// expected-error @below {{'func.func' op is called in the module and takes or returns MX tensors; storing them as bytes would change its signature under its callers}}
func.func @callee(%a: tensor<4x8xf4E2M1FN>) -> tensor<4x8xf4E2M1FN> {
  return %a : tensor<4x8xf4E2M1FN>
}
func.func @caller(%a: tensor<4x8xf4E2M1FN>) -> tensor<4x8xf4E2M1FN> {
  %r = func.call @callee(%a) : (tensor<4x8xf4E2M1FN>) -> tensor<4x8xf4E2M1FN>
  return %r : tensor<4x8xf4E2M1FN>
}

// -----

// Constants must be dense elements to be repacked.
func.func @resource_constant() -> tensor<2x2xf8E4M3FN> {
  // expected-error @below {{'arith.constant' op cannot pack a non-dense or dynamic 'tensor<2x2xf8E4M3FN>' constant}}
  %c = arith.constant dense_resource<blob> : tensor<2x2xf8E4M3FN>
  return %c : tensor<2x2xf8E4M3FN>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x0100000038384040"
    }
  }
#-}
