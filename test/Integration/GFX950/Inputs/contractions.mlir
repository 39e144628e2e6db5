// Functions for the executing gfx950 emulator tests (emulator-*.mlir).

func.func @nt_fp4(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>,
    %c: tensor<33x47xf32>) -> tensor<33x47xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  return %r : tensor<33x47xf32>
}

// The result transposed ((m, n, k) -> (n, m)): it cannot stay in the
// user's layout (the GEMM reads and writes [M, N]), so it is relaid out.
func.func @nt_fp4_result_nm(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>,
    %c: tensor<47x33xf32>) -> tensor<47x33xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (n, m)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<47x33xf32>) -> tensor<47x33xf32>
  return %r : tensor<47x33xf32>
}

// Several K tiles: the ukernel's K loop runs more than once.
func.func @nt_fp4_deep(%a: tensor<40x1024xf4E2M1FN>, %b: tensor<72x1024xf4E2M1FN>,
    %sa: tensor<40x32xf8E8M0FNU>, %sb: tensor<72x32xf8E8M0FNU>,
    %c: tensor<40x72xf32>) -> tensor<40x72xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x1024xf4E2M1FN>, tensor<72x1024xf4E2M1FN>,
                            tensor<40x32xf8E8M0FNU>, tensor<72x32xf8E8M0FNU>)
      outs(%c : tensor<40x72xf32>) -> tensor<40x72xf32>
  return %r : tensor<40x72xf32>
}

func.func @nt_fp8(%a: tensor<40x160xf8E4M3FN>, %b: tensor<24x160xf8E4M3FN>,
    %sa: tensor<40x5xf8E8M0FNU>, %sb: tensor<24x5xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x160xf8E4M3FN>, tensor<24x160xf8E4M3FN>,
                            tensor<40x5xf8E8M0FNU>, tensor<24x5xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

// fp8 weights as K x N: bytes, so the relayout may transpose them.
func.func @nn_fp8(%a: tensor<40x160xf8E4M3FN>, %b: tensor<160x24xf8E4M3FN>,
    %sa: tensor<40x5xf8E8M0FNU>, %sb: tensor<5x24xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x160xf8E4M3FN>, tensor<160x24xf8E4M3FN>,
                            tensor<40x5xf8E8M0FNU>, tensor<5x24xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}

func.func @nt_fp8_fp4(%a: tensor<17x96xf8E4M3FN>, %b: tensor<65x96xf4E2M1FN>,
    %sa: tensor<17x3xf8E8M0FNU>, %sb: tensor<65x3xf8E8M0FNU>,
    %c: tensor<17x65xf32>) -> tensor<17x65xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<17x96xf8E4M3FN>, tensor<65x96xf4E2M1FN>,
                            tensor<17x3xf8E8M0FNU>, tensor<65x3xf8E8M0FNU>)
      outs(%c : tensor<17x65xf32>) -> tensor<17x65xf32>
  return %r : tensor<17x65xf32>
}

func.func @batched_fp4(%a: tensor<2x20x128xf4E2M1FN>, %b: tensor<2x24x128xf4E2M1FN>,
    %sa: tensor<2x20x4xf8E8M0FNU>, %sb: tensor<2x24x4xf8E8M0FNU>,
    %c: tensor<2x20x24xf32>) -> tensor<2x20x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b, %sa, %sb : tensor<2x20x128xf4E2M1FN>, tensor<2x24x128xf4E2M1FN>,
                            tensor<2x20x4xf8E8M0FNU>, tensor<2x24x4xf8E8M0FNU>)
      outs(%c : tensor<2x20x24xf32>) -> tensor<2x20x24xf32>
  return %r : tensor<2x20x24xf32>
}

// Dynamic M, N and K inside the function.
func.func @dynamic_fp4(%a0: tensor<33x224xf4E2M1FN>, %b0: tensor<47x224xf4E2M1FN>,
    %sa0: tensor<33x7xf8E8M0FNU>, %sb0: tensor<47x7xf8E8M0FNU>,
    %c0: tensor<33x47xf32>) -> tensor<?x?xf32> {
  %a = tensor.cast %a0 : tensor<33x224xf4E2M1FN> to tensor<?x?xf4E2M1FN>
  %b = tensor.cast %b0 : tensor<47x224xf4E2M1FN> to tensor<?x?xf4E2M1FN>
  %sa = tensor.cast %sa0 : tensor<33x7xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  %sb = tensor.cast %sb0 : tensor<47x7xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  %c = tensor.cast %c0 : tensor<33x47xf32> to tensor<?x?xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x?xf4E2M1FN>, tensor<?x?xf4E2M1FN>,
                            tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Constant fp4 weights (N x K): relaid out and packed at compile time.
func.func @constant_fp4(%a: tensor<24x64xf4E2M1FN>, %sa: tensor<24x2xf8E8M0FNU>,
    %c: tensor<24x16xf32>) -> tensor<24x16xf32> {
  %b = arith.constant dense<[
      [3.0, -1.0, 4.0, 0.0, 0.5, -0.5, -3.0, 0.0, 1.5, 0.0, -0.5, -4.0, 4.0, -0.5, 1.5, -0.5, 4.0, 0.0, -0.5, 1.5, 0.0, -4.0, 0.0, -1.5, 0.0, -1.0, -2.0, -4.0, 1.0, -0.5, 2.0, -1.0, -0.5, -1.5, -3.0, -0.5, -0.5, 0.0, 1.5, 6.0, 4.0, -3.0, -6.0, -6.0, -3.0, 2.0, -1.5, 1.0, -1.5, -0.5, -2.0, 6.0, 3.0, -6.0, -2.0, 0.5, 0.5, 4.0, 1.0, -3.0, 1.0, 6.0, 4.0, 0.0],
      [4.0, 4.0, 4.0, -0.5, -6.0, 4.0, 0.0, 1.5, 0.5, -1.5, 6.0, -1.0, -0.5, -3.0, 0.0, -0.5, 0.0, 1.0, -0.5, 3.0, 0.0, 0.5, 1.5, -4.0, -1.0, 2.0, -3.0, 3.0, -6.0, 0.5, -0.5, 6.0, 6.0, -6.0, 6.0, -2.0, -0.5, 1.0, -0.5, 3.0, -2.0, 6.0, 1.0, 0.0, -1.5, 3.0, -1.0, 0.0, -2.0, 0.5, 2.0, -3.0, 1.0, -3.0, 1.5, -3.0, 1.5, -1.5, -1.5, 4.0, 1.5, -1.5, 6.0, 3.0],
      [0.0, 3.0, -6.0, -4.0, -1.0, -1.0, 0.0, -6.0, -1.0, 0.0, -1.0, 1.0, -1.0, 6.0, -0.5, 0.0, -3.0, 6.0, -0.5, 0.0, 1.5, -1.5, 2.0, 0.0, 0.5, 6.0, 0.0, -0.5, 6.0, 3.0, -1.5, -2.0, -6.0, 6.0, -1.5, 2.0, -1.5, -6.0, -1.0, -4.0, 0.5, -4.0, -6.0, -3.0, -0.5, 1.5, -4.0, 0.5, 1.5, -2.0, 0.5, 1.0, 3.0, -1.0, -2.0, 1.0, 6.0, 1.5, -0.5, -4.0, 6.0, -1.0, 1.5, 1.0],
      [0.0, 0.0, 0.0, -1.5, 6.0, 1.5, -6.0, 0.5, 4.0, 6.0, 4.0, 2.0, -1.5, -1.5, 3.0, -1.5, 1.0, 4.0, 3.0, 0.0, 1.0, 0.0, 0.5, 2.0, 4.0, 1.0, 0.0, 0.5, 4.0, 2.0, 1.5, 2.0, 0.0, -6.0, 1.0, 1.0, -2.0, -6.0, 0.0, -2.0, 3.0, -3.0, -3.0, -1.5, 0.0, 2.0, 1.5, -3.0, 1.0, 0.0, -3.0, 4.0, 0.5, -6.0, 2.0, -1.5, 1.5, 0.0, 0.5, -2.0, 0.5, -1.0, -4.0, 0.0],
      [1.5, -0.5, 1.0, 3.0, 2.0, -2.0, -1.0, 0.0, 6.0, 0.0, -6.0, -2.0, -0.5, -1.5, -6.0, 2.0, -2.0, 6.0, -6.0, -6.0, 0.5, -1.5, -2.0, 0.5, 6.0, 0.0, 2.0, 6.0, 0.5, 6.0, 2.0, -4.0, 1.5, -1.5, 0.5, 0.5, -1.0, -2.0, 3.0, -1.0, -2.0, -0.5, -3.0, 1.5, 6.0, -6.0, 4.0, 0.0, 1.0, 0.0, -6.0, -6.0, -4.0, 2.0, -1.0, -4.0, 3.0, 4.0, -3.0, -0.5, -3.0, 0.0, -3.0, -3.0],
      [1.5, 3.0, -2.0, -1.5, 0.0, -4.0, 4.0, 4.0, -1.5, -4.0, 2.0, -3.0, 0.0, 6.0, 2.0, -3.0, -1.0, -1.5, -0.5, -2.0, 1.5, 4.0, -4.0, -6.0, -4.0, -2.0, 0.0, -1.0, 0.0, -4.0, 6.0, -6.0, 0.0, -0.5, 4.0, -6.0, 6.0, 1.5, 0.5, -1.5, 1.0, -1.0, 0.5, 6.0, -0.5, 0.0, 0.0, -1.0, 1.5, 0.0, -2.0, 1.0, -2.0, -4.0, -0.5, -0.5, -0.5, 2.0, 1.5, -4.0, -2.0, 1.5, 0.0, 0.0],
      [6.0, -1.0, -0.5, 0.0, 0.5, -2.0, -0.5, 3.0, -4.0, -0.5, -1.5, 4.0, -3.0, 2.0, 4.0, 0.5, 0.0, -6.0, -1.5, -3.0, 6.0, -1.5, -3.0, -3.0, 6.0, 0.0, 4.0, 1.5, 4.0, 0.0, 4.0, 0.0, 6.0, -0.5, 0.0, -2.0, -1.5, -0.5, -3.0, 3.0, 2.0, -3.0, 0.0, 2.0, 3.0, -2.0, 2.0, 0.0, 0.5, 0.0, -1.5, 0.5, 6.0, 6.0, -4.0, -2.0, -4.0, -6.0, 1.0, 6.0, 1.0, 0.0, 2.0, -1.0],
      [-2.0, 0.0, -0.5, 3.0, -1.5, 0.0, 3.0, 3.0, -1.0, 0.0, 1.5, 2.0, 0.0, -1.5, 0.0, 3.0, -4.0, -3.0, 1.0, -2.0, 0.5, 1.5, 0.0, -6.0, 6.0, -0.5, -4.0, 0.5, 4.0, -1.0, -0.5, -1.0, 4.0, -2.0, -4.0, -2.0, 2.0, 4.0, 0.0, 2.0, 3.0, -4.0, 4.0, 0.0, 3.0, 1.5, 4.0, -4.0, -1.5, 0.0, -4.0, 1.0, -4.0, -0.5, -0.5, 4.0, -3.0, -6.0, 1.0, 1.0, 0.0, 0.0, -1.0, -4.0],
      [-1.0, -3.0, 4.0, -3.0, 0.5, -6.0, 0.0, 0.0, 1.0, 0.5, -3.0, -0.5, 0.0, -4.0, 1.0, 0.0, 0.5, 0.5, -1.5, -1.0, 6.0, -2.0, -1.0, -1.5, -0.5, -3.0, -2.0, 1.0, 3.0, -2.0, 6.0, -1.0, -2.0, 6.0, -1.5, -2.0, -1.5, 3.0, 3.0, 0.0, -1.5, -1.0, -4.0, 1.0, 2.0, -3.0, 4.0, -1.0, 2.0, 0.5, 0.0, 3.0, -6.0, 0.5, -2.0, -4.0, -3.0, 2.0, -4.0, 3.0, 1.0, -3.0, -3.0, 0.5],
      [4.0, 1.0, 2.0, 0.5, -2.0, 0.0, -6.0, 0.0, 4.0, 4.0, -6.0, 0.5, 6.0, 1.0, -1.5, -0.5, -2.0, -1.5, 0.0, 0.5, 3.0, 2.0, 0.0, -2.0, -4.0, -2.0, 2.0, -1.5, -0.5, 0.0, -1.0, -2.0, -1.5, 1.5, -1.0, -3.0, 1.5, 4.0, 3.0, 1.5, -4.0, -6.0, -6.0, 0.0, 0.0, 4.0, 1.5, -2.0, 1.5, -4.0, 0.5, -1.0, -1.0, 0.0, 0.0, 0.5, -0.5, -1.0, -3.0, 1.0, 0.0, 0.0, 0.0, 1.0],
      [2.0, 1.0, -2.0, -1.5, 1.5, -6.0, -1.0, -0.5, -0.5, -6.0, 0.5, 3.0, 3.0, 0.5, -4.0, -4.0, 0.5, -4.0, 0.0, 3.0, -1.5, 2.0, 2.0, -4.0, -1.0, 4.0, 1.5, 6.0, 1.0, 0.0, 3.0, 3.0, -1.0, -6.0, 3.0, -1.0, -6.0, 6.0, 2.0, 1.5, -1.0, -3.0, -6.0, 1.5, -1.5, 2.0, 2.0, -1.0, 1.0, 1.5, -3.0, -3.0, 1.0, -1.5, 3.0, -1.5, 2.0, 0.5, 1.0, -0.5, 1.5, 4.0, 1.0, 1.0],
      [-3.0, 3.0, 4.0, 6.0, -1.5, 1.0, 4.0, -0.5, -3.0, 0.0, 2.0, -2.0, -4.0, -4.0, 0.0, 0.0, -0.5, -4.0, 4.0, 3.0, -2.0, 0.5, 1.5, 2.0, 4.0, 1.5, 4.0, 6.0, -1.5, 1.0, 1.0, 0.5, -1.5, 6.0, 1.5, -1.0, -3.0, -4.0, -6.0, -2.0, -1.0, -6.0, -3.0, -1.5, 2.0, 4.0, -2.0, 4.0, -1.0, 6.0, 0.0, 2.0, -3.0, -1.5, 2.0, -3.0, 6.0, 6.0, -4.0, 0.5, 3.0, 1.0, -2.0, 4.0],
      [6.0, -6.0, -1.0, 0.0, -1.5, -4.0, 1.0, 3.0, -0.5, 3.0, -3.0, -6.0, 1.5, 2.0, 4.0, -3.0, -4.0, -2.0, 0.0, 2.0, 2.0, -3.0, -6.0, -4.0, 3.0, -2.0, -3.0, -1.5, -6.0, 0.5, -3.0, 1.5, -3.0, 2.0, -1.0, -0.5, 0.0, -4.0, 4.0, 0.0, -4.0, 2.0, 0.5, 0.0, 0.0, -1.5, 6.0, 0.0, -4.0, 1.0, -0.5, 1.5, 0.0, -6.0, -1.0, 0.5, 1.0, 0.0, -4.0, 0.5, 0.0, 3.0, -1.0, -2.0],
      [3.0, -6.0, -6.0, -1.0, 1.0, -0.5, 3.0, -1.0, 4.0, 6.0, -4.0, 6.0, -2.0, 3.0, -2.0, -2.0, 0.0, -3.0, 0.0, -1.0, 2.0, -4.0, -1.5, 4.0, 4.0, 4.0, -1.5, 6.0, -2.0, 0.0, -3.0, 2.0, 2.0, -4.0, 1.0, 0.0, 2.0, -1.0, -1.0, -2.0, -6.0, 3.0, -0.5, 6.0, 4.0, 1.5, 1.5, 2.0, 0.0, -4.0, -6.0, -1.5, -2.0, 0.0, 4.0, -6.0, 0.5, -3.0, -0.5, 1.5, -4.0, 2.0, 3.0, -6.0],
      [0.0, 0.0, -2.0, -6.0, 0.0, -0.5, 1.0, -3.0, 0.0, 1.5, -2.0, -6.0, -0.5, -6.0, -3.0, -3.0, 2.0, 4.0, 0.5, -3.0, -6.0, 4.0, -1.0, 6.0, -1.5, 1.0, 0.0, 6.0, -1.5, 0.0, -1.0, 1.5, 0.5, -3.0, -1.0, 6.0, -0.5, 4.0, 0.0, -0.5, 6.0, 3.0, -3.0, -1.5, -6.0, 0.5, -3.0, -1.0, -3.0, 1.5, 0.0, 1.0, 6.0, -1.0, -6.0, 1.0, -2.0, 4.0, -4.0, 1.5, -1.0, 0.0, 2.0, -2.0],
      [0.0, -4.0, 6.0, 1.0, -2.0, -1.5, 1.0, 3.0, 0.0, 1.0, 3.0, 0.0, -3.0, -6.0, -0.5, 0.5, 3.0, 1.5, 3.0, 4.0, 0.0, 2.0, 0.5, 6.0, -6.0, 0.0, 1.0, 0.0, 1.5, -0.5, -1.5, 1.0, -1.0, -0.5, 2.0, 2.0, 0.0, 0.0, 0.5, 1.5, 2.0, 0.0, 6.0, -1.5, 6.0, -0.5, 3.0, 0.5, 1.0, 0.0, 2.0, -0.5, 6.0, -6.0, -2.0, 0.5, -0.5, 0.5, 4.0, 1.0, -1.5, -1.5, 1.0, -6.0]]> : tensor<16x64xf4E2M1FN>
  %sb = arith.constant dense<[[1.0, 2.0], [0.5, 4.0], [2.0, 0.25], [1.0, 1.0], [8.0, 0.5], [0.25, 2.0], [4.0, 1.0], [0.5, 0.5],
                              [2.0, 2.0], [1.0, 0.125], [16.0, 1.0], [1.0, 8.0], [0.5, 2.0], [2.0, 4.0], [0.25, 0.25], [1.0, 0.5]]> : tensor<16x2xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<24x64xf4E2M1FN>, tensor<16x64xf4E2M1FN>,
                            tensor<24x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<24x16xf32>) -> tensor<24x16xf32>
  return %r : tensor<24x16xf32>
}

// Sizes that are multiples of the 128 x 128 x 256 tiles of the layout the
// test pins: the relayouts pad nothing.
func.func @nt_fp4_aligned(%a: tensor<128x512xf4E2M1FN>, %b: tensor<128x512xf4E2M1FN>,
    %sa: tensor<128x16xf8E8M0FNU>, %sb: tensor<128x16xf8E8M0FNU>,
    %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<128x512xf4E2M1FN>,
                            tensor<128x16xf8E8M0FNU>, tensor<128x16xf8E8M0FNU>)
      outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
