// GEMMs from zero with activation epilogues, written as users write them:
// SiLU x / (1 + exp(-x)) and GELU-tanh 0.5 x (1 + tanh(sqrt(2/pi) (x +
// 0.044715 x^3))) in a linalg.generic (f32 or bf16 result), SiLU as
// elementwise ops on tensors, and SwiGLU silu(gate) * up over the two halves
// of N of one GEMM (which stays a separate dispatch).
// Used by ../emulator-activations.mlir and ../../CPU/activations.mlir.

#id = affine_map<(m, n) -> (m, n)>
func.func @silu_f32(%a: tensor<33x256xf4E2M1FN>, %b: tensor<47x256xf8E4M3FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<47x8xf8E8M0FNU>) -> tensor<33x47xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf4E2M1FN>, tensor<47x256xf8E4M3FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<47x8xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<33x47xf32>) outs(%e : tensor<33x47xf32>) {
  ^bb0(%x: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %x : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %silu = arith.divf %x, %den : f32
    linalg.yield %silu : f32
  } -> tensor<33x47xf32>
  return %o : tensor<33x47xf32>
}

func.func @silu_bf16(%a: tensor<33x256xf4E2M1FN>, %b: tensor<47x256xf8E4M3FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<47x8xf8E8M0FNU>) -> tensor<33x47xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf4E2M1FN>, tensor<47x256xf8E4M3FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<47x8xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %eb = tensor.empty() : tensor<33x47xbf16>
  %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<33x47xf32>) outs(%eb : tensor<33x47xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %x : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %silu = arith.divf %x, %den : f32
    %t = arith.truncf %silu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x47xbf16>
  return %o : tensor<33x47xbf16>
}

func.func @gelu_f32(%a: tensor<33x256xf4E2M1FN>, %b: tensor<47x256xf8E4M3FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<47x8xf8E8M0FNU>) -> tensor<33x47xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf4E2M1FN>, tensor<47x256xf8E4M3FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<47x8xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<33x47xf32>) outs(%e : tensor<33x47xf32>) {
  ^bb0(%x: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %cx3 = arith.mulf %k1, %x3 : f32
    %inner = arith.addf %x, %cx3 : f32
    %u = arith.mulf %k0, %inner : f32
    %th = math.tanh %u : f32
    %p = arith.addf %one, %th : f32
    %hx = arith.mulf %half, %x : f32
    %gelu = arith.mulf %hx, %p : f32
    linalg.yield %gelu : f32
  } -> tensor<33x47xf32>
  return %o : tensor<33x47xf32>
}

func.func @gelu_bf16(%a: tensor<33x256xf4E2M1FN>, %b: tensor<47x256xf8E4M3FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<47x8xf8E8M0FNU>) -> tensor<33x47xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf4E2M1FN>, tensor<47x256xf8E4M3FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<47x8xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %eb = tensor.empty() : tensor<33x47xbf16>
  %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<33x47xf32>) outs(%eb : tensor<33x47xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %cx3 = arith.mulf %k1, %x3 : f32
    %inner = arith.addf %x, %cx3 : f32
    %u = arith.mulf %k0, %inner : f32
    %th = math.tanh %u : f32
    %p = arith.addf %one, %th : f32
    %hx = arith.mulf %half, %x : f32
    %gelu = arith.mulf %hx, %p : f32
    %t = arith.truncf %gelu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x47xbf16>
  return %o : tensor<33x47xbf16>
}

func.func @silu_tensor_ops(%a: tensor<33x256xf4E2M1FN>, %b: tensor<47x256xf8E4M3FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<47x8xf8E8M0FNU>) -> tensor<33x47xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x47xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x47xf32>) -> tensor<33x47xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf4E2M1FN>, tensor<47x256xf8E4M3FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<47x8xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  %ones = arith.constant dense<1.0> : tensor<33x47xf32>
  %neg = arith.negf %r : tensor<33x47xf32>
  %exp = math.exp %neg : tensor<33x47xf32>
  %den = arith.addf %exp, %ones : tensor<33x47xf32>
  %silu = arith.divf %r, %den : tensor<33x47xf32>
  %t = arith.truncf %silu : tensor<33x47xf32> to tensor<33x47xbf16>
  return %t : tensor<33x47xbf16>
}

func.func @swiglu_bf16(%a: tensor<33x256xf4E2M1FN>, %b: tensor<94x256xf8E4M3FN>,
    %sa: tensor<33x8xf8E8M0FNU>, %sb: tensor<94x8xf8E8M0FNU>) -> tensor<33x47xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x94xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x94xf32>) -> tensor<33x94xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x256xf4E2M1FN>, tensor<94x256xf8E4M3FN>,
                            tensor<33x8xf8E8M0FNU>, tensor<94x8xf8E8M0FNU>)
      outs(%c : tensor<33x94xf32>) -> tensor<33x94xf32>
  %eb = tensor.empty() : tensor<33x47xbf16>
  // The gate and up halves of N (torch.chunk(2, dim=-1)).
  %gate = tensor.extract_slice %r[0, 0] [33, 47] [1, 1] : tensor<33x94xf32> to tensor<33x47xf32>
  %upper = tensor.extract_slice %r[0, 47] [33, 47] [1, 1] : tensor<33x94xf32> to tensor<33x47xf32>
  %o = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %upper : tensor<33x47xf32>, tensor<33x47xf32>) outs(%eb : tensor<33x47xbf16>) {
  ^bb0(%x: f32, %up: f32, %out: bf16):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %x : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %silu = arith.divf %x, %den : f32
    %glu = arith.mulf %silu, %up : f32
    %t = arith.truncf %glu : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<33x47xbf16>
  return %o : tensor<33x47xbf16>
}
