// The software-pipelined ukernel K loop unrolled by 2 with the accumulators
// in AGPRs (mx-gfx950-pipeline options unroll-k=2 and
// reserve-accumulator-agprs=always), bit-exact against the independent
// reference on random data (every finite code, per-block scales, a normal
// accumulator; the reference rounds per MFMA in the ukernel's K order):
// loop trip counts even (K tiles 5: 4 iterations), odd (K tiles 4: 3
// iterations, a remainder iteration) and zero (one K tile), fp4 x fp4 and
// fp4 x fp8 (the pipelined pairs), both intrinsics, and private B fragments
// (one wave along M).

// DEFINE: %{run} = mx-run %s --backend=gfx950-emu --compare=reference --seed=11
// DEFINE: %{codes} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal
// DEFINE: %{unroll} = unroll-k=2 reserve-accumulator-agprs=always

// RUN: %{run} --entry=fp4_fp4_k640 %{codes} --gfx950-options="%{unroll} intrinsics-m=4 intrinsics-n=4 intrinsics-k=1" | FileCheck %s
// RUN: %{run} --entry=fp4_fp4_k512 %{codes} --gfx950-options="%{unroll} intrinsics-m=4 intrinsics-n=4 intrinsics-k=1" | FileCheck %s
// RUN: %{run} --entry=fp4_fp4_k512 %{codes} --gfx950-options="%{unroll} intrinsics-m=2 intrinsics-n=2 intrinsics-k=4" | FileCheck %s
// RUN: %{run} --entry=fp4_fp4_k640 %{codes} --gfx950-options="%{unroll} intrinsic=32x32x64" | FileCheck %s
// RUN: %{run} --entry=fp4_fp4_k640 %{codes} --gfx950-options="%{unroll} intrinsics-m=1 intrinsics-n=4 intrinsics-k=4 subgroups-n=1" | FileCheck %s
// RUN: %{run} --entry=fp4_fp8_k640 %{codes} --gfx950-options="%{unroll} intrinsics-m=4 intrinsics-n=4 intrinsics-k=1" | FileCheck %s
// RUN: %{run} --entry=fp4_fp8_k640 %{codes} --gfx950-options="%{unroll}" | FileCheck %s

// From zero-filled accumulators and at least 16 K steps the register
// schedule (no options: the defaults) unrolls the loop by 2 with AGPRs and
// peels its first K step (peel_first_k): K tiles 16 (the peeled step, 7
// unrolled iterations, the last step) and 17 (a remainder iteration), f32
// and bf16 results, fp4 x fp4 and fp4 x fp8; on the emulator and, for the
// code LLVM makes of it, the ISA executor. Not split along K (split-k=1:
// mx-split-k would split these small GEMMs).
// DEFINE: %{zero} = --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales
// DEFINE: %{small} = split-k=1 intrinsics-m=4 intrinsics-n=4 intrinsics-k=1
// RUN: %{run} --entry=zero_fp4_fp4_k2048 %{zero} --gfx950-options="%{small}" | FileCheck %s
// RUN: %{run} --entry=zero_fp4_fp4_k2048 %{zero} --gfx950-options="%{small}" --backend=gfx950-isa | FileCheck %s
// RUN: %{run} --entry=zero_fp4_fp4_k2176_bf16 %{zero} --gfx950-options="%{small}" | FileCheck %s
// RUN: %{run} --entry=zero_fp4_fp4_k2176_bf16 %{zero} --gfx950-options="%{small}" --backend=gfx950-isa | FileCheck %s
// RUN: %{run} --entry=zero_fp4_fp8_k2048 %{zero} --gfx950-options="%{small}" | FileCheck %s
// Private B with one row in the first half (intrinsics_m = 2): all of B's
// loads after row 0, the scales' after row 1 (the copies' row); 8 K steps,
// every stage used twice, on the emulator and the ISA executor.
// RUN: %{run} --entry=zero_fp4_fp4_k2048 %{zero} --gfx950-options="split-k=1 intrinsics-m=2 intrinsics-n=4 intrinsics-k=2 subgroups-m=1" | FileCheck %s
// RUN: %{run} --entry=zero_fp4_fp4_k2048 %{zero} --gfx950-options="split-k=1 intrinsics-m=2 intrinsics-n=4 intrinsics-k=2 subgroups-m=1" --backend=gfx950-isa | FileCheck %s

// CHECK: result #0 {{.*}}: bit-exact
// CHECK-NOT: FAIL
// CHECK: PASS

// The unrolled loop steps by 2 K tiles; the kernel asks LLVM for one AGPR
// per accumulator value (4 x 4 intrinsics of 4 values).
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu %{unroll} intrinsics-m=4 intrinsics-n=4 intrinsics-k=1" | FileCheck %s --check-prefix=IR
// IR-LABEL: gpu.func @fp4_fp4_k640_mma0(
//  IR-SAME:   passthrough = {{\[\[}}"amdgpu-agpr-alloc", "64"]]
//      IR:   scf.for %{{.+}} = %c0 to %c4 step %c2
// From zero: the first K step peeled, then the loop from step 1 (K tiles
// 16: 7 iterations), the accumulators in AGPRs too; with fewer K steps,
// no register schedule.
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu %{small}" | FileCheck %s --check-prefix=ZERO
// ZERO-LABEL: gpu.func @zero_fp4_fp4_k2048_mma0(
//  ZERO-SAME:   passthrough = {{\[\[}}"amdgpu-agpr-alloc", "64"]]
//  ZERO-NOT:    scf.for
//  ZERO-COUNT-16: amdgpu.scaled_mfma
//  ZERO-NOT:    amdgpu.scaled_mfma
//      ZERO:    scf.for %{{.+}} = %c1 to %c15 step %c2
// ZERO-LABEL: gpu.func @zero_fp4_fp4_k1920_mma0(
//   ZERO-NOT:   passthrough
//       ZERO:   scf.for %{{.+}} = %c0 to %c14 step %c1

#nt = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
       affine_map<(m, n, k) -> (m, n)>]

func.func @fp4_fp4_k640(%a: tensor<48x640xf4E2M1FN>, %b: tensor<40x640xf4E2M1FN>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%a, %b, %sa, %sb : tensor<48x640xf4E2M1FN>, tensor<40x640xf4E2M1FN>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @fp4_fp4_k512(%a: tensor<48x512xf4E2M1FN>, %b: tensor<40x512xf4E2M1FN>,
    %sa: tensor<48x16xf8E8M0FNU>, %sb: tensor<40x16xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%a, %b, %sa, %sb : tensor<48x512xf4E2M1FN>, tensor<40x512xf4E2M1FN>,
                            tensor<48x16xf8E8M0FNU>, tensor<40x16xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @fp4_fp8_k640(%a: tensor<48x640xf4E2M1FN>, %b: tensor<40x640xf8E4M3FN>,
    %sa: tensor<48x20xf8E8M0FNU>, %sb: tensor<40x20xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%a, %b, %sa, %sb : tensor<48x640xf4E2M1FN>, tensor<40x640xf8E4M3FN>,
                            tensor<48x20xf8E8M0FNU>, tensor<40x20xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}


func.func @zero_fp4_fp4_k2048(%a: tensor<48x2048xf4E2M1FN>, %b: tensor<40x2048xf4E2M1FN>,
    %sa: tensor<48x64xf8E8M0FNU>, %sb: tensor<40x64xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%a, %b, %sa, %sb : tensor<48x2048xf4E2M1FN>, tensor<40x2048xf4E2M1FN>,
                            tensor<48x64xf8E8M0FNU>, tensor<40x64xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_fp4_fp4_k2176_bf16(%a: tensor<48x2176xf4E2M1FN>, %b: tensor<40x2176xf4E2M1FN>,
    %sa: tensor<48x68xf8E8M0FNU>, %sb: tensor<40x68xf8E8M0FNU>) -> tensor<48x40xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%a, %b, %sa, %sb : tensor<48x2176xf4E2M1FN>, tensor<40x2176xf4E2M1FN>,
                            tensor<48x68xf8E8M0FNU>, tensor<40x68xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  %t = arith.truncf %r : tensor<48x40xf32> to tensor<48x40xbf16>
  return %t : tensor<48x40xbf16>
}

func.func @zero_fp4_fp4_k1920(%a: tensor<48x1920xf4E2M1FN>, %b: tensor<40x1920xf4E2M1FN>,
    %sa: tensor<48x60xf8E8M0FNU>, %sb: tensor<40x60xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%a, %b, %sa, %sb : tensor<48x1920xf4E2M1FN>, tensor<40x1920xf4E2M1FN>,
                            tensor<48x60xf8E8M0FNU>, tensor<40x60xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func @zero_fp4_fp8_k2048(%a: tensor<48x2048xf4E2M1FN>, %b: tensor<40x2048xf8E4M3FN>,
    %sa: tensor<48x64xf8E8M0FNU>, %sb: tensor<40x64xf8E8M0FNU>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%a, %b, %sa, %sb : tensor<48x2048xf4E2M1FN>, tensor<40x2048xf8E4M3FN>,
                            tensor<48x64xf8E8M0FNU>, tensor<40x64xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}
