// mx.scaled_contraction on the CPU path against the independent reference
// (the reference evaluator permutes each operand to [batch, M, K] x [batch, N, K]
// following the indexing maps and calls the reference scaled matmul).
//
// Exact-integer data (element codes whose values are integers, per-block
// distinct scales in [120, 134], integer acc): every product and partial sum is
// exact in f64, so results must be bit-identical. Random codes: both sides sum
// exact products in f64 and round once to f32; stated tolerance rtol=1e-6.

// DEFINE: %{exact} = --seed=3 --arg=random:int,lo=-4,hi=4 --arg=random:int,lo=-4,hi=4 --arg=random:scales --arg=random:scales --arg=random:int,lo=-8,hi=8 --compare=reference
// DEFINE: %{codes} = --seed=5 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal --compare=reference --rtol=1e-6

// RUN: mx-run %s --entry=nt_fp4 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=nn_fp8 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=nt_fp8_fp4 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=nt_fp6 %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=batched_odd %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=transposed_acc %{exact} | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --entry=nt_fp4 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: mx-run %s --entry=nn_fp8 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: mx-run %s --entry=nt_fp8_fp4 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: mx-run %s --entry=nt_fp6 %{codes} | FileCheck %s --check-prefix=CODES
// RUN: mx-run %s --entry=batched_odd %{codes} | FileCheck %s --check-prefix=CODES

// EXACT: result #0 tensor<{{.+}}xf32>: {{.*}}mismatches=0/{{.*}}: bit-exact
// EXACT: PASS
// CODES: result #0 tensor<{{.+}}xf32>: {{.*}}mismatches=0/
// CODES: PASS

func.func @nt_fp4(%a: tensor<48x256xf4E2M1FN>, %b: tensor<40x256xf4E2M1FN>,
                  %sa: tensor<48x8xf8E8M0FNU>, %sb: tensor<40x8xf8E8M0FNU>,
                  %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x256xf4E2M1FN>, tensor<40x256xf4E2M1FN>,
                            tensor<48x8xf8E8M0FNU>, tensor<40x8xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @nn_fp8(%a: tensor<32x128xf8E4M3FN>, %b: tensor<128x24xf8E5M2>,
                  %sa: tensor<32x4xf8E8M0FNU>, %sb: tensor<4x24xf8E8M0FNU>,
                  %c: tensor<32x24xf32>) -> tensor<32x24xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x128xf8E4M3FN>, tensor<128x24xf8E5M2>,
                            tensor<32x4xf8E8M0FNU>, tensor<4x24xf8E8M0FNU>)
      outs(%c : tensor<32x24xf32>) -> tensor<32x24xf32>
  return %r : tensor<32x24xf32>
}

func.func @nt_fp8_fp4(%a: tensor<16x192xf8E4M3FN>, %b: tensor<64x192xf4E2M1FN>,
                      %sa: tensor<16x6xf8E8M0FNU>, %sb: tensor<64x6xf8E8M0FNU>,
                      %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x192xf8E4M3FN>, tensor<64x192xf4E2M1FN>,
                            tensor<16x6xf8E8M0FNU>, tensor<64x6xf8E8M0FNU>)
      outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

func.func @nt_fp6(%a: tensor<20x96xf6E2M3FN>, %b: tensor<12x96xf6E3M2FN>,
                  %sa: tensor<20x3xf8E8M0FNU>, %sb: tensor<12x3xf8E8M0FNU>,
                  %c: tensor<20x12xf32>) -> tensor<20x12xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<20x96xf6E2M3FN>, tensor<12x96xf6E3M2FN>,
                            tensor<20x3xf8E8M0FNU>, tensor<12x3xf8E8M0FNU>)
      outs(%c : tensor<20x12xf32>) -> tensor<20x12xf32>
  return %r : tensor<20x12xf32>
}

// Batched, odd M and N, K-major rhs (K x N per batch).
func.func @batched_odd(%a: tensor<3x33x160xf8E5M2>, %b: tensor<3x160x17xf6E2M3FN>,
                       %sa: tensor<3x33x5xf8E8M0FNU>, %sb: tensor<3x5x17xf8E8M0FNU>,
                       %c: tensor<3x33x17xf32>) -> tensor<3x33x17xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, k, n)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b, %sa, %sb : tensor<3x33x160xf8E5M2>, tensor<3x160x17xf6E2M3FN>,
                            tensor<3x33x5xf8E8M0FNU>, tensor<3x5x17xf8E8M0FNU>)
      outs(%c : tensor<3x33x17xf32>) -> tensor<3x33x17xf32>
  return %r : tensor<3x33x17xf32>
}

// The result is N x M: the acc map transposes.
func.func @transposed_acc(%a: tensor<8x64xf4E2M1FN>, %b: tensor<24x64xf8E4M3FN>,
                          %sa: tensor<8x2xf8E8M0FNU>, %sb: tensor<24x2xf8E8M0FNU>,
                          %c: tensor<24x8xf32>) -> tensor<24x8xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (n, m)>]
      ins(%a, %b, %sa, %sb : tensor<8x64xf4E2M1FN>, tensor<24x64xf8E4M3FN>,
                            tensor<8x2xf8E8M0FNU>, tensor<24x2xf8E8M0FNU>)
      outs(%c : tensor<24x8xf32>) -> tensor<24x8xf32>
  return %r : tensor<24x8xf32>
}
