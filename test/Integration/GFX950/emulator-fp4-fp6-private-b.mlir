// fp4 A x fp6 B on 16x16x128 with two intrinsics along K (16 x 4 x 2 on
// 1 x 4 waves, a K step of 256: a pinned tile, bench/README.md "fp4 x fp6
// on 16 x 4 x 2: only A staged"). Two K steps of A and B (32 + 64 KiB each) do not
// fit the LDS; B is private (one wave along M), so the launch gets four
// stages of A only (getUKernelLDSBytes: 131072 bytes and the ring of A's
// scales). Its register schedules read the next step's first-half rows of
// A late (late_next_rows), and the wait before the barrier at the top of an
// iteration leaves the late reads after the A scales' ring read in flight
// (mx_gfx950.wait_lds 14). Bit for bit against the independent reference
// on random codes and per-block scales, both fp6 formats: from memory at 5
// K steps (the schedule without the unroll), 6 (stages + 2: every stage of
// the ring and the clamp of the copies) and 7 (unrolled with a remainder),
// from zero with a bf16 result at 6 and 7. The mx-opt lines compile the
// 4096 x 4096 x 16384 GEMM with the tile: no spills or scratch (the
// implicit checks), 135168 bytes of LDS, and in the K loop the barrier
// after a wait that leaves 14 LDS reads in flight. (The ISA-executor
// variant of this file, ctest lit-gfx950-isa-*, runs the same lines on the
// code object.)

// DEFINE: %{run} = mx-run %s --backend=gfx950-emu --compare=reference --seed=37
// DEFINE: %{mem} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{zero} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{pins} = split-k=1 intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=2 subgroups-m=1 subgroups-n=4
// DEFINE: %{tile} = --gfx950-options="%{pins}"

// RUN: %{run} --entry=mem_5 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=mem_6 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=mem_7 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=mem_6_e3m2 %{mem} %{tile} | FileCheck %s
// RUN: %{run} --entry=zero_6 %{zero} %{tile} | FileCheck %s --check-prefix=BF16
// RUN: %{run} --entry=zero_7 %{zero} %{tile} | FileCheck %s --check-prefix=BF16

// RUN: mx-opt %s --mx-gfx950-pipeline="%{pins} output=isa" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// RUN: mx-opt %s --mx-gfx950-pipeline="%{pins} output=isa" | FileCheck %s --check-prefix=WAIT

// REPORT-LABEL: kernel large_mma0
//       REPORT:   lds_bytes: 135168
//       REPORT:   vgpr_spills: 0

// In the K loop of @large the barrier at the top of an iteration follows a
// wait that leaves the late reads of A in flight.
// WAIT-LABEL: gpu.binary @large_mma0
//  WAIT-SAME: {{\.LBB0_[0-9]+:.*s_waitcnt vmcnt\([0-9]+\) lgkmcnt\(14\)[^a-z]*s_barrier.*s_cbranch_vccnz \.LBB0_}}

// CHECK: result #0 tensor<48x40xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS
// BF16: result #0 tensor<48x40xbf16>: max_abs_err=0 max_rel_err=0 mismatches=0/1920 (rtol=0, atol=0): bit-exact
// BF16-NEXT: PASS


func.func @mem_5(%a: tensor<48x1280xf4E2M1FN>, %b: tensor<40x1280xf6E2M3FN>,
    %sa: tensor<48x40xf8E8M0FNU>, %sb: tensor<40x40xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1280xf4E2M1FN>, tensor<40x1280xf6E2M3FN>,
                            tensor<48x40xf8E8M0FNU>, tensor<40x40xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @mem_6(%a: tensor<48x1536xf4E2M1FN>, %b: tensor<40x1536xf6E2M3FN>,
    %sa: tensor<48x48xf8E8M0FNU>, %sb: tensor<40x48xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1536xf4E2M1FN>, tensor<40x1536xf6E2M3FN>,
                            tensor<48x48xf8E8M0FNU>, tensor<40x48xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @mem_7(%a: tensor<48x1792xf4E2M1FN>, %b: tensor<40x1792xf6E2M3FN>,
    %sa: tensor<48x56xf8E8M0FNU>, %sb: tensor<40x56xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1792xf4E2M1FN>, tensor<40x1792xf6E2M3FN>,
                            tensor<48x56xf8E8M0FNU>, tensor<40x56xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @mem_6_e3m2(%a: tensor<48x1536xf4E2M1FN>, %b: tensor<40x1536xf6E3M2FN>,
    %sa: tensor<48x48xf8E8M0FNU>, %sb: tensor<40x48xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1536xf4E2M1FN>, tensor<40x1536xf6E3M2FN>,
                            tensor<48x48xf8E8M0FNU>, tensor<40x48xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_6(%a: tensor<48x1536xf4E2M1FN>, %b: tensor<40x1536xf6E2M3FN>,
    %sa: tensor<48x48xf8E8M0FNU>, %sb: tensor<40x48xf8E8M0FNU>) -> tensor<48x40xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1536xf4E2M1FN>, tensor<40x1536xf6E2M3FN>,
                            tensor<48x48xf8E8M0FNU>, tensor<40x48xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  %t = arith.truncf %r : tensor<48x40xf32> to tensor<48x40xbf16>
  return %t : tensor<48x40xbf16>
}

func.func @zero_7(%a: tensor<48x1792xf4E2M1FN>, %b: tensor<40x1792xf6E2M3FN>,
    %sa: tensor<48x56xf8E8M0FNU>, %sb: tensor<40x56xf8E8M0FNU>) -> tensor<48x40xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x1792xf4E2M1FN>, tensor<40x1792xf6E2M3FN>,
                            tensor<48x56xf8E8M0FNU>, tensor<40x56xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  %t = arith.truncf %r : tensor<48x40xf32> to tensor<48x40xbf16>
  return %t : tensor<48x40xbf16>
}

func.func @large(%a: tensor<4096x16384xf4E2M1FN>, %b: tensor<4096x16384xf6E2M3FN>,
    %sa: tensor<4096x512xf8E8M0FNU>, %sb: tensor<4096x512xf8E8M0FNU>,
    %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<4096x16384xf4E2M1FN>, tensor<4096x16384xf6E2M3FN>,
                            tensor<4096x512xf8E8M0FNU>, tensor<4096x512xf8E8M0FNU>)
      outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
