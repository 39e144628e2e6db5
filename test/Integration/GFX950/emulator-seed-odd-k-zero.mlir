// fp4 x fp4 from zero on the seed tile (16 x 4 x 2 intrinsics on 1 x 4
// waves, K steps of 256) at odd K step counts: the register schedule peels
// the first step and unrolls the K loop by 2 only where 2 divides what is
// left (unroll_remainder = false; bench/README.md, "The seed tile from zero
// at odd K step counts"). With 17 K steps (15 iterations after the peel)
// the loop is not unrolled; the unrolled loop's straight-line remainder
// spilled 56 VGPRs there with a bf16 result, and the ISA executor refused
// its scratch. With 18 the loop is unrolled. Bit for bit against the
// independent reference on random codes and per-block scales, f32 and bf16
// results. (The ISA-executor variant of this file, ctest
// lit-gfx950-isa-*, runs the same lines on the code object.)

// DEFINE: %{run} = mx-run %s --backend=gfx950-emu --compare=reference --seed=31
// DEFINE: %{data} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{seed} = --gfx950-options="split-k=1 intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=2 subgroups-m=1 subgroups-n=4"

// RUN: %{run} --entry=zero_17 %{data} %{seed} | FileCheck %s
// RUN: %{run} --entry=zero_17_bf16 %{data} %{seed} | FileCheck %s --check-prefix=BF16
// RUN: %{run} --entry=zero_18_bf16 %{data} %{seed} | FileCheck %s --check-prefix=BF16

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS
// BF16: result #0 tensor<48x40xbf16>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// BF16-NEXT: PASS

func.func @zero_17(%a: tensor<48x4352xf4E2M1FN>, %b: tensor<40x4352xf4E2M1FN>,
    %sa: tensor<48x136xf8E8M0FNU>, %sb: tensor<40x136xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x4352xf4E2M1FN>, tensor<40x4352xf4E2M1FN>,
                            tensor<48x136xf8E8M0FNU>, tensor<40x136xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_17_bf16(%a: tensor<48x4352xf4E2M1FN>, %b: tensor<40x4352xf4E2M1FN>,
    %sa: tensor<48x136xf8E8M0FNU>, %sb: tensor<40x136xf8E8M0FNU>) -> tensor<48x40xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x4352xf4E2M1FN>, tensor<40x4352xf4E2M1FN>,
                            tensor<48x136xf8E8M0FNU>, tensor<40x136xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  %t = arith.truncf %r : tensor<48x40xf32> to tensor<48x40xbf16>
  return %t : tensor<48x40xbf16>
}

func.func @zero_18_bf16(%a: tensor<48x4608xf4E2M1FN>, %b: tensor<40x4608xf4E2M1FN>,
    %sa: tensor<48x144xf8E8M0FNU>, %sb: tensor<40x144xf8E8M0FNU>) -> tensor<48x40xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x4608xf4E2M1FN>, tensor<40x4608xf4E2M1FN>,
                            tensor<48x144xf8E8M0FNU>, tensor<40x144xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  %t = arith.truncf %r : tensor<48x40xf32> to tensor<48x40xbf16>
  return %t : tensor<48x40xbf16>
}
