// Data tiling on the CPU path (2/2): fp6, batched, dynamic sizes, constant weights.
//
// The data-tiled program (mx-set-encodings + mx-materialize-encodings with the
// layout options below, then the CPU path) must give bit-identical results to
// the untiled mx.scaled_contraction evaluated by the independent reference,
// on exact-integer data with per-block distinct scales (every product and
// partial sum is exact). Random codes (CODES) are compared with
// --sum-tol=1.2e-7, relative to |acc| + sum|a*b| (not to |want|): the CPU
// path sums the exact products in f64 in K order and rounds once to f32;
// the reference sums each block of 32 exactly, the blocks in f64, and rounds
// once. Each is within K 2^-53 (|acc| + sum|a*b|) of the exact sum before its
// rounding (u = 2^-24 of the result after it), so they differ by at most
// (2u + 2K 2^-53) (|acc| + sum|a*b|) <= 1.2e-7 x (|acc| + sum|a*b|) for
// K < 2^20: at most one f32 rounding step apart, and only where the exact
// sum lies near a rounding boundary. A wrong layout, block or scale is off
// by whole products and fails.
// Sizes are not multiples of the tiles, so the packs pad (zero data, scale
// 1.0), and the unpack slices the result back.

// RUN: mx-run %s --entry=nt_fp8_fp4 --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64,intrinsics_k=2,subgroups_n=2,intrinsics_m=3>}" | FileCheck %s
// RUN: mx-run %s --entry=nt_fp6 --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsics_m=2,intrinsics_n=2,intrinsics_k=2,subgroups_m=2>}" | FileCheck %s
// RUN: mx-run %s --entry=nt_fp6 --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64>}" | FileCheck %s
// RUN: mx-run %s --entry=batched --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target}" | FileCheck %s
// RUN: mx-run %s --entry=batched --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64,intrinsics_k=2,subgroups_n=2,intrinsics_m=3>}" | FileCheck %s
// RUN: mx-run %s --entry=dynamic --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target}" | FileCheck %s
// RUN: mx-run %s --entry=dynamic --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsics_m=2,intrinsics_n=2,intrinsics_k=2,subgroups_m=2>}" | FileCheck %s
// RUN: mx-run %s --entry=dynamic --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64>}" | FileCheck %s
// RUN: mx-run %s --entry=nt_fp8_fp4 --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal \
// RUN:   --compare=reference --sum-tol=1.2e-7 --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target}" | FileCheck %s --check-prefix=CODES
// RUN: mx-run %s --entry=constant_weights --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsics_m=2,intrinsics_n=2,intrinsics_k=2,subgroups_m=2>}" | FileCheck %s
// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target" | FileCheck %s --check-prefix=FOLDED

// The weights are relaid out at compile time: no pack of the constants remains.
// FOLDED-LABEL: func.func @constant_weights
// FOLDED: linalg.pack %arg0
// FOLDED: %[[W:.+]] = arith.constant dense<{{.+}}> : tensor<1x1x{{[0-9x]+}}xf4E2M1FN>
// FOLDED: linalg.pack %arg1
// FOLDED: %[[WS:.+]] = arith.constant dense<{{.+}}> : tensor<1x1x{{[0-9x]+}}xf8E8M0FNU>
// FOLDED: linalg.pack %arg2
// FOLDED-NOT: linalg.pack
// FOLDED: mx.tiled_scaled_mma ins(%{{.+}}, %[[W]], %{{.+}}, %[[WS]] :

// CHECK: result #0 tensor<{{.+}}xf32>: {{.*}}mismatches=0/{{.*}}: bit-exact
// CHECK: PASS
// CODES: result #0 tensor<{{.+}}xf32>: {{.*}}mismatches=0/
// CODES: PASS

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
func.func @nn_fp8(%a: tensor<40x160xf8E4M3FN>, %b: tensor<160x24xf8E5M2>,
    %sa: tensor<40x5xf8E8M0FNU>, %sb: tensor<5x24xf8E8M0FNU>,
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x160xf8E4M3FN>, tensor<160x24xf8E5M2>,
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
func.func @nt_fp6(%a: tensor<20x128xf6E2M3FN>, %b: tensor<36x128xf6E3M2FN>,
    %sa: tensor<20x4xf8E8M0FNU>, %sb: tensor<36x4xf8E8M0FNU>,
    %c: tensor<20x36xf32>) -> tensor<20x36xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<20x128xf6E2M3FN>, tensor<36x128xf6E3M2FN>,
                            tensor<20x4xf8E8M0FNU>, tensor<36x4xf8E8M0FNU>)
      outs(%c : tensor<20x36xf32>) -> tensor<20x36xf32>
  return %r : tensor<20x36xf32>
}

// Batched, with a K-major rhs per batch.
func.func @batched(%a: tensor<2x20x128xf4E2M1FN>, %b: tensor<2x128x24xf6E2M3FN>,
    %sa: tensor<2x20x4xf8E8M0FNU>, %sb: tensor<2x4x24xf8E8M0FNU>,
    %c: tensor<2x20x24xf32>) -> tensor<2x20x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, k, n)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b, %sa, %sb : tensor<2x20x128xf4E2M1FN>, tensor<2x128x24xf6E2M3FN>,
                            tensor<2x20x4xf8E8M0FNU>, tensor<2x4x24xf8E8M0FNU>)
      outs(%c : tensor<2x20x24xf32>) -> tensor<2x20x24xf32>
  return %r : tensor<2x20x24xf32>
}

// Dynamic M, N and K: the data-tiled program sizes its tiles at run time.
func.func @dynamic(%a0: tensor<33x224xf4E2M1FN>, %b0: tensor<47x224xf8E4M3FN>,
    %sa0: tensor<33x7xf8E8M0FNU>, %sb0: tensor<47x7xf8E8M0FNU>,
    %c0: tensor<33x47xf32>) -> tensor<?x?xf32> {
  %a = tensor.cast %a0 : tensor<33x224xf4E2M1FN> to tensor<?x?xf4E2M1FN>
  %b = tensor.cast %b0 : tensor<47x224xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sa = tensor.cast %sa0 : tensor<33x7xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  %sb = tensor.cast %sb0 : tensor<47x7xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  %c = tensor.cast %c0 : tensor<33x47xf32> to tensor<?x?xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<?x?xf4E2M1FN>, tensor<?x?xf8E4M3FN>,
                            tensor<?x?xf8E8M0FNU>, tensor<?x?xf8E8M0FNU>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Constant weights (N x K) and their scales: relaid out at compile time.
func.func @constant_weights(%a: tensor<24x64xf8E5M2>, %sa: tensor<24x2xf8E8M0FNU>,
    %c: tensor<24x16xf32>) -> tensor<24x16xf32> {
  %b = arith.constant dense<[[-4.0, -2.0, -3.0, 3.0, 1.0, -3.0, -3.0, 4.0, -6.0, 2.0, -4.0, -2.0, 0.0, -6.0, -3.0, -3.0, -4.0, -3.0, 4.0, -2.0, -6.0, -3.0, 0.0, 4.0, -1.0, 0.0, 6.0, 4.0, -2.0, 4.0, 4.0, 4.0, -3.0, -6.0, 3.0, -2.0, 0.0, 6.0, -1.0, 2.0, 6.0, -3.0, -2.0, 6.0, -1.0, 0.0, -4.0, -3.0, 4.0, 3.0, 6.0, -3.0, -4.0, -3.0, -3.0, 4.0, -4.0, 3.0, 3.0, 0.0, 3.0, -1.0, -4.0, 0.0],
      [0.0, 0.0, -3.0, -2.0, -2.0, -4.0, -2.0, 0.0, -1.0, 4.0, -6.0, 6.0, 3.0, 3.0, 0.0, -2.0, 2.0, 1.0, 0.0, 6.0, -4.0, 0.0, 0.0, 1.0, -6.0, -3.0, 4.0, -6.0, 1.0, -3.0, 6.0, 0.0, 1.0, 0.0, 0.0, -2.0, 6.0, -3.0, 1.0, -4.0, -4.0, -4.0, 1.0, -3.0, -2.0, -1.0, 4.0, -3.0, -6.0, 2.0, 0.0, 4.0, 2.0, -1.0, -2.0, -2.0, 1.0, 6.0, -3.0, 6.0, 4.0, 0.0, 0.0, -1.0],
      [-4.0, -2.0, 4.0, 2.0, 2.0, -2.0, -4.0, 1.0, -2.0, -3.0, -3.0, -1.0, 0.0, 0.0, -4.0, -2.0, 2.0, -3.0, 0.0, -2.0, -4.0, 0.0, 0.0, -1.0, -4.0, 1.0, -3.0, -6.0, -1.0, -3.0, 4.0, 4.0, 6.0, 2.0, -1.0, 0.0, 0.0, 6.0, 3.0, 2.0, 0.0, -2.0, 0.0, 1.0, 6.0, 2.0, -4.0, -2.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, -2.0, -2.0, 1.0, 0.0, -1.0, 0.0, -3.0, -2.0, -6.0, 0.0],
      [-2.0, 3.0, 1.0, -4.0, 0.0, -1.0, -1.0, 2.0, -6.0, 1.0, -1.0, -2.0, -1.0, 3.0, 0.0, -2.0, -6.0, 3.0, 4.0, 4.0, 0.0, 2.0, -2.0, 0.0, 4.0, 0.0, 4.0, -4.0, -1.0, 2.0, 4.0, 1.0, -1.0, 0.0, -4.0, 4.0, 6.0, -1.0, 3.0, 1.0, 2.0, 6.0, 0.0, -4.0, 1.0, -2.0, 6.0, 4.0, 1.0, 4.0, 0.0, 1.0, -2.0, 1.0, -3.0, 6.0, 3.0, -4.0, -4.0, -2.0, -2.0, -1.0, -3.0, -3.0],
      [3.0, -2.0, 1.0, 1.0, -3.0, 0.0, 2.0, -3.0, -1.0, 4.0, 0.0, -2.0, -1.0, 1.0, -2.0, 4.0, 6.0, 1.0, 3.0, 0.0, -4.0, 1.0, 0.0, 0.0, -4.0, 6.0, 0.0, 4.0, 3.0, 4.0, 0.0, -3.0, 2.0, 4.0, 2.0, 0.0, 3.0, -4.0, -2.0, -3.0, 6.0, 6.0, -3.0, -2.0, -6.0, 4.0, 3.0, 4.0, -3.0, -6.0, 6.0, -3.0, -6.0, 2.0, 0.0, -2.0, 6.0, 6.0, 1.0, 2.0, 1.0, 4.0, -2.0, -6.0],
      [0.0, 0.0, 0.0, -4.0, -6.0, -3.0, 4.0, 1.0, -1.0, 2.0, 0.0, 3.0, -1.0, 6.0, 2.0, -3.0, 1.0, 2.0, 6.0, -2.0, -6.0, -4.0, 2.0, 1.0, 1.0, -6.0, -4.0, 4.0, -4.0, 3.0, -1.0, -6.0, 2.0, 3.0, 0.0, -6.0, 0.0, -1.0, 2.0, 0.0, 0.0, -4.0, -1.0, -3.0, 2.0, 0.0, 0.0, -3.0, -3.0, 3.0, -1.0, -2.0, 4.0, 1.0, 6.0, 2.0, 4.0, -1.0, 0.0, 0.0, 2.0, 4.0, 1.0, 1.0],
      [0.0, -3.0, -6.0, -4.0, 2.0, 0.0, 6.0, 0.0, -4.0, -4.0, 0.0, 0.0, 0.0, 0.0, 6.0, -6.0, 6.0, -6.0, 3.0, 6.0, 2.0, -1.0, -4.0, -2.0, 4.0, -2.0, 4.0, -6.0, 6.0, -6.0, 6.0, -2.0, 0.0, 0.0, -3.0, 0.0, -4.0, 4.0, 0.0, 0.0, -4.0, -3.0, -3.0, 0.0, 0.0, 2.0, -2.0, -3.0, -6.0, 2.0, -2.0, 0.0, 0.0, 1.0, -2.0, 4.0, 4.0, 0.0, -6.0, 4.0, -2.0, -1.0, 3.0, 0.0],
      [2.0, -4.0, 0.0, 6.0, 3.0, 2.0, 2.0, 6.0, -4.0, -1.0, 6.0, 2.0, -3.0, 3.0, 2.0, 0.0, -1.0, -4.0, 4.0, 1.0, 2.0, 3.0, 3.0, 4.0, 0.0, -2.0, -4.0, 0.0, -3.0, 0.0, 6.0, -1.0, 0.0, 0.0, -6.0, -4.0, 0.0, 3.0, 1.0, -4.0, 1.0, 3.0, 4.0, -3.0, -2.0, 1.0, -6.0, 4.0, 0.0, 4.0, 0.0, 3.0, -1.0, 6.0, -4.0, -2.0, 4.0, 4.0, 4.0, 4.0, 3.0, 1.0, 4.0, -4.0],
      [-2.0, -3.0, -2.0, 3.0, 6.0, 0.0, 0.0, 2.0, 2.0, 6.0, 2.0, 3.0, -3.0, 1.0, 1.0, -1.0, 2.0, -4.0, 3.0, 4.0, 6.0, 6.0, 3.0, 3.0, -6.0, 3.0, 0.0, -1.0, -1.0, -6.0, 0.0, 1.0, 0.0, 6.0, 0.0, -3.0, -4.0, -4.0, 2.0, -6.0, -6.0, 6.0, -2.0, 1.0, 6.0, -1.0, -3.0, -6.0, 2.0, 3.0, -4.0, 0.0, -3.0, -1.0, 3.0, 3.0, -4.0, 3.0, 0.0, 6.0, 0.0, 2.0, -1.0, 2.0],
      [-3.0, -1.0, 1.0, 4.0, -4.0, -3.0, 2.0, 6.0, 2.0, 1.0, 2.0, 1.0, 1.0, -6.0, 4.0, 0.0, 4.0, -6.0, -2.0, 3.0, 0.0, -1.0, 1.0, -6.0, -4.0, -6.0, -1.0, -4.0, 3.0, 0.0, -2.0, 0.0, -2.0, 2.0, 0.0, -2.0, 1.0, -2.0, -6.0, -2.0, 0.0, -2.0, 1.0, 4.0, -2.0, 0.0, -3.0, 6.0, 0.0, 2.0, -4.0, 0.0, 6.0, -4.0, 3.0, -6.0, 4.0, 4.0, 2.0, -6.0, 4.0, 0.0, -1.0, -1.0],
      [2.0, -2.0, 4.0, 3.0, -3.0, -6.0, 0.0, 4.0, -4.0, 3.0, -1.0, -4.0, -6.0, -3.0, 2.0, 1.0, -3.0, 3.0, -4.0, -2.0, 6.0, -4.0, -6.0, -3.0, -3.0, -3.0, 2.0, 3.0, 4.0, 0.0, -3.0, -6.0, 0.0, -4.0, -4.0, 4.0, 4.0, 3.0, -4.0, 0.0, 1.0, 0.0, 3.0, 2.0, -4.0, 3.0, 2.0, 2.0, 6.0, -6.0, 0.0, 6.0, -4.0, -4.0, 2.0, -4.0, -3.0, -3.0, -3.0, 0.0, -2.0, 6.0, -6.0, 6.0],
      [2.0, 6.0, -3.0, 3.0, -4.0, 2.0, -1.0, -3.0, 0.0, -6.0, -1.0, 3.0, 1.0, -4.0, -2.0, -3.0, 6.0, -4.0, 0.0, -3.0, -6.0, -2.0, 0.0, -1.0, 4.0, -4.0, -3.0, 0.0, -6.0, -1.0, 3.0, -4.0, -3.0, -4.0, -6.0, 0.0, 0.0, -2.0, 2.0, 1.0, -4.0, 4.0, 4.0, 4.0, -6.0, 6.0, 1.0, 2.0, 1.0, 4.0, 1.0, -6.0, 2.0, -2.0, 2.0, 3.0, 4.0, 0.0, -1.0, 1.0, 0.0, -4.0, 6.0, -4.0],
      [-4.0, 3.0, 0.0, -1.0, 0.0, 3.0, 6.0, -4.0, -6.0, -1.0, 1.0, 1.0, 2.0, -1.0, 6.0, -2.0, 4.0, 0.0, 1.0, 0.0, 4.0, -4.0, 3.0, 4.0, 0.0, 1.0, -6.0, 0.0, 6.0, -6.0, -4.0, 0.0, -3.0, -6.0, 6.0, -6.0, -1.0, 6.0, 4.0, -2.0, -6.0, -6.0, -3.0, 6.0, 3.0, 3.0, -6.0, -1.0, -3.0, -3.0, -3.0, 1.0, 0.0, -3.0, 1.0, -4.0, -4.0, 4.0, 1.0, -2.0, -2.0, -3.0, -4.0, -1.0],
      [3.0, -4.0, -4.0, 0.0, 4.0, 3.0, 2.0, 0.0, 0.0, 2.0, 1.0, 0.0, 3.0, 4.0, -4.0, 0.0, 0.0, 2.0, 4.0, -6.0, 4.0, -3.0, -4.0, 2.0, -1.0, 2.0, -1.0, -4.0, -3.0, 4.0, 2.0, 2.0, 0.0, -6.0, -2.0, 4.0, 4.0, 0.0, -2.0, 0.0, -2.0, 1.0, 0.0, 6.0, 0.0, 1.0, -4.0, 2.0, 4.0, 0.0, 2.0, 0.0, 3.0, -4.0, -6.0, 1.0, -1.0, -4.0, -4.0, -6.0, 3.0, 0.0, 3.0, 4.0],
      [1.0, 0.0, 0.0, -2.0, 0.0, 0.0, 0.0, -1.0, 2.0, -3.0, 2.0, 6.0, -1.0, -1.0, 4.0, 4.0, 2.0, -3.0, 0.0, 6.0, 2.0, -6.0, 1.0, 4.0, 4.0, 4.0, 1.0, 6.0, 4.0, 4.0, 2.0, 0.0, -3.0, 2.0, -4.0, 1.0, 2.0, -3.0, 0.0, -2.0, -2.0, -2.0, 0.0, 2.0, 4.0, -1.0, -2.0, -6.0, -1.0, 3.0, 1.0, -6.0, -4.0, 2.0, 3.0, 4.0, 0.0, -3.0, -4.0, -4.0, -6.0, -1.0, 3.0, -4.0],
      [-6.0, 6.0, 0.0, 3.0, 1.0, 0.0, 3.0, 4.0, 2.0, -4.0, 4.0, 3.0, -2.0, -6.0, 0.0, -4.0, 3.0, 1.0, 0.0, -1.0, 0.0, -1.0, -6.0, -3.0, 0.0, 0.0, -4.0, 2.0, -4.0, -4.0, -3.0, -2.0, 4.0, 1.0, -1.0, 0.0, -4.0, 0.0, 2.0, 0.0, -4.0, -4.0, -1.0, -1.0, -2.0, 0.0, 6.0, 0.0, 1.0, 0.0, 2.0, -4.0, -3.0, -1.0, 0.0, -1.0, -6.0, 0.0, -2.0, 4.0, 1.0, -6.0, 1.0, 2.0]]> : tensor<16x64xf4E2M1FN>
  %sb = arith.constant dense<[[2.0, 8.0], [4.0, 4.0], [0.125, 4.0], [0.5, 8.0], [2.0, 0.25], [0.125, 0.5], [0.125, 4.0], [1.0, 16.0], [1.0, 2.0], [2.0, 4.0], [8.0, 2.0], [2.0, 2.0], [4.0, 8.0], [16.0, 0.0625], [2.0, 0.25], [1.0, 0.25]]> : tensor<16x2xf8E8M0FNU>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<24x64xf8E5M2>, tensor<16x64xf4E2M1FN>,
                            tensor<24x2xf8E8M0FNU>, tensor<16x2xf8E8M0FNU>)
      outs(%c : tensor<24x16xf32>) -> tensor<24x16xf32>
  return %r : tensor<24x16xf32>
}
