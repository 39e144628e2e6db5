// Weights packed once on the CPU path: the data-tiled program with its
// weights' relayouts hoisted into packing functions (--preprocess with
// mx-hoist-argument-relayouts) runs the packing functions on the logical
// weights, then the entry on the packed ones, bit-exact against the
// reference's evaluation of the logical program. NT fp4 (sizes not multiples
// of the tile: the packs pad) and NN fp8 (the weight K x N: its relayout
// transposes). The gfx950 pipeline hoists by itself:
// test/Integration/GFX950/prepacked-weights.mlir.

// DEFINE: %{ints} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference
// DEFINE: %{codes} = --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal --compare=reference --sum-tol=1.2e-7
// DEFINE: %{tile} = --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target},mx-hoist-argument-relayouts"
// RUN: mx-run %s --entry=nt_fp4 %{ints} %{tile} | FileCheck %s
// RUN: mx-run %s --entry=nt_fp4 %{codes} %{tile} | FileCheck %s --check-prefix=CODES
// RUN: mx-run %s --entry=nn_fp8 %{ints} %{tile} | FileCheck %s
// RUN: mx-run %s --entry=nn_fp8 %{ints} --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_gfx950.target<intrinsic=mfma_scale_32x32x64>},mx-hoist-argument-relayouts" | FileCheck %s
// CHECK: mismatches=0/{{[0-9]+}}{{.*}}: bit-exact
// CHECK: PASS
// CODES: PASS

// The preprocessed program: the entry takes the packed weights.
// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target" --mx-hoist-argument-relayouts | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @nt_fp4
//  IR-SAME: tensor<{{[0-9x]+}}xf4E2M1FN> {mx.prepacked_by = @nt_fp4_prepack_1}
//  IR-SAME: tensor<{{[0-9x]+}}xf8E8M0FNU> {mx.prepacked_by = @nt_fp4_prepack_3}
// IR: func.func @nt_fp4_prepack_1(%{{[^:]+}}: tensor<47x224xf4E2M1FN>)
// IR: func.func @nt_fp4_prepack_3(%{{[^:]+}}: tensor<47x7xf8E8M0FNU>)
// IR-LABEL: func.func @nn_fp8
//  IR-SAME: {mx.prepacked_by = @nn_fp8_prepack_1}
// IR: func.func @nn_fp8_prepack_1(%[[W:[^:]+]]: tensor<160x24xf8E5M2>)
// IR: linalg.transpose
// IR: return

func.func @nt_fp4(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN> {mx.prepack},
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU> {mx.prepack},
    %c: tensor<33x47xf32>) -> tensor<33x47xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  return %r : tensor<33x47xf32>
}
func.func @nn_fp8(%a: tensor<40x160xf8E4M3FN>, %b: tensor<160x24xf8E5M2> {mx.prepack},
    %sa: tensor<40x5xf8E8M0FNU>, %sb: tensor<5x24xf8E8M0FNU> {mx.prepack},
    %c: tensor<40x24xf32>) -> tensor<40x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<40x160xf8E4M3FN>, tensor<160x24xf8E5M2>,
                            tensor<40x5xf8E8M0FNU>, tensor<5x24xf8E8M0FNU>)
      outs(%c : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
