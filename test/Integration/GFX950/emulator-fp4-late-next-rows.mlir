// fp4 x fp4 on 32x32x64 with few K steps: the register schedule's
// `late_next_rows` (at most 8 static K steps) has fp4 A read the next K
// step's first-half rows in the second half of the step, which kept the
// resolver's 32x32x64 tile (8 x 2 x 4 intrinsics on 1 x 4 waves, a K step of
// 256) from spilling at 2 and 5 K steps from memory and 4 from zero
// (bench/README.md, "fp4 x fp4 on 32x32x64 without spills"). Bit for bit
// against the independent reference on random codes and per-block scales:
// from memory at 2, 5 and 8 K steps (5 = stages + 2 wraps the three-stage
// ring and reaches the clamp of the K loop's copies) and at 9 (the default
// reads), from zero at 4 and 7; and the 8 x 2 x 2 tile (a K step of 128)
// at 4 steps from memory. The mx-opt lines compile the 4096 x 4096 x 1280
// GEMM (5 K steps) that spilled 64 VGPRs and the split-K GEMM @split_zero,
// and check that nothing spills or uses scratch (the implicit checks); and
// that the 8 K steps of @mem_8 read the next step's rows in the
// second half (the late reads: 4 rows of 4 fragments, each a ds_read_b128,
// behind the copies of a later step), which 9 K steps (@mem_9) do not.
// (The ISA-executor variant of this file, ctest lit-gfx950-isa-*, runs the
// same lines on the code object.)

// DEFINE: %{run} = mx-run %s --backend=gfx950-emu --compare=reference --seed=29
// DEFINE: %{mem} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{zero} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{pins} = split-k=1 intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 subgroups-m=1 subgroups-n=4
// DEFINE: %{tile} = --gfx950-options="%{pins} intrinsics-k=4"

// RUN: %{run} --entry=mem_2 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=mem_5 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=mem_8 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=mem_9 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=zero_4 %{zero} %{tile} | FileCheck %s
// RUN: %{run} --entry=zero_7 %{zero} %{tile} | FileCheck %s
// RUN: %{run} --entry=mem_2 %{mem} --gfx950-options="%{pins} intrinsics-k=2" | FileCheck %s --check-prefix=TWO-K

// RUN: mx-opt %s --mx-gfx950-pipeline="%{pins} intrinsics-k=4 output=isa" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// RUN: mx-opt %s --mx-gfx950-pipeline="%{pins} intrinsics-k=4 output=isa" | FileCheck %s --check-prefix=LATE
// The resolver's split along K of a 1024 x 1024 x 16384 GEMM from zero
// (parts of 4 K steps, which start from zero) spilled 2 VGPRs.
// RUN: mx-opt %s --mx-gfx950-pipeline="intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 intrinsics-k=4 subgroups-m=1 subgroups-n=4 output=isa" \
// RUN:   --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=SPLIT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// REPORT-LABEL: kernel spilled_mma0
//       REPORT:   vgpr_spills: 0

// SPLIT-LABEL: kernel split_zero_mma0
//       SPLIT:   vgpr_spills: 0

// In the K loop (.LBB0_1) of @mem_8 an LDS read follows the copies of a
// later step; in @mem_9's none does.
// LATE-LABEL: gpu.binary @mem_8_mma0
//  LATE-SAME: {{\.LBB0_1:.*offen lds.*ds_read_b128.*s_cbranch_scc1 \.LBB0_1}}
// LATE-LABEL: gpu.binary @mem_9_mma0
//  LATE-SAME: .LBB0_1:
//  LATE-SAME: offen lds
//   LATE-NOT: ds_read_b128
//  LATE-SAME: s_cbranch_scc1 .LBB0_1

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS
// TWO-K: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// TWO-K-NEXT: PASS

func.func @mem_2(%a: tensor<48x512xf4E2M1FN>, %b: tensor<40x512xf4E2M1FN>,
    %sa: tensor<48x16xf8E8M0FNU>, %sb: tensor<40x16xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x512xf4E2M1FN>, tensor<40x512xf4E2M1FN>,
                            tensor<48x16xf8E8M0FNU>, tensor<40x16xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @mem_5(%a: tensor<48x1280xf4E2M1FN>, %b: tensor<40x1280xf4E2M1FN>,
    %sa: tensor<48x40xf8E8M0FNU>, %sb: tensor<40x40xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1280xf4E2M1FN>, tensor<40x1280xf4E2M1FN>,
                            tensor<48x40xf8E8M0FNU>, tensor<40x40xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @mem_8(%a: tensor<48x2048xf4E2M1FN>, %b: tensor<40x2048xf4E2M1FN>,
    %sa: tensor<48x64xf8E8M0FNU>, %sb: tensor<40x64xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2048xf4E2M1FN>, tensor<40x2048xf4E2M1FN>,
                            tensor<48x64xf8E8M0FNU>, tensor<40x64xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @mem_9(%a: tensor<48x2304xf4E2M1FN>, %b: tensor<40x2304xf4E2M1FN>,
    %sa: tensor<48x72xf8E8M0FNU>, %sb: tensor<40x72xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x2304xf4E2M1FN>, tensor<40x2304xf4E2M1FN>,
                            tensor<48x72xf8E8M0FNU>, tensor<40x72xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}


func.func @zero_4(%a: tensor<48x1024xf4E2M1FN>, %b: tensor<40x1024xf4E2M1FN>,
    %sa: tensor<48x32xf8E8M0FNU>, %sb: tensor<40x32xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1024xf4E2M1FN>, tensor<40x1024xf4E2M1FN>,
                            tensor<48x32xf8E8M0FNU>, tensor<40x32xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_7(%a: tensor<48x1792xf4E2M1FN>, %b: tensor<40x1792xf4E2M1FN>,
    %sa: tensor<48x56xf8E8M0FNU>, %sb: tensor<40x56xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1792xf4E2M1FN>, tensor<40x1792xf4E2M1FN>,
                            tensor<48x56xf8E8M0FNU>, tensor<40x56xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @spilled(%a: tensor<4096x1280xf4E2M1FN>, %b: tensor<4096x1280xf4E2M1FN>,
    %sa: tensor<4096x40xf8E8M0FNU>, %sb: tensor<4096x40xf8E8M0FNU>,
    %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<4096x1280xf4E2M1FN>, tensor<4096x1280xf4E2M1FN>,
                            tensor<4096x40xf8E8M0FNU>, tensor<4096x40xf8E8M0FNU>)
      outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}

func.func @split_zero(%a: tensor<1024x16384xf4E2M1FN>, %b: tensor<1024x16384xf4E2M1FN>,
    %sa: tensor<1024x512xf8E8M0FNU>, %sb: tensor<1024x512xf8E8M0FNU>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<1024x16384xf4E2M1FN>, tensor<1024x16384xf4E2M1FN>,
                            tensor<1024x512xf8E8M0FNU>, tensor<1024x512xf8E8M0FNU>)
      outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
