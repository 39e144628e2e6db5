// DEFINE: %{k32} = split-k=1 intrinsic=32x32x64 intrinsics-m=8 intrinsics-n=2 intrinsics-k=2 subgroups-m=1 subgroups-n=4
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=gpu %{k32}" | FileCheck %s
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=rocdl %{k32}" | FileCheck %s --check-prefix=ROCDL
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=isa %{k32}" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// RUN: mx-opt %s -split-input-file --mx-gfx950-pipeline="output=isa %{k32}" | FileCheck %s --check-prefix=ISA

// Wide A (fp6, fp8) on the resolver's 32x32x64 tile for large GEMMs (8 x 2
// x 2 intrinsics on 1 x 4 waves, the pipelined schedule): the ukernel's
// register schedule reads A a whole K step (8 rows) ahead
// (mx.ukernel.lookahead_rows = 8) instead of its rule's one row when the
// accumulators come from memory, so the prologue after the first barrier
// reads 8 rows x 2 intrinsics along K of fragments before the K loop; from
// zero fp6 A does too (fp8 A keeps one row: 8 spilled at 3 or 4 K steps).
// The K loop tells LLVM not to unroll it
// (mx-attach-loop-annotations puts the ukernel's llvm.loop_annotation on
// its back edge): at 7 K steps, as here, LLVM unrolled it fully and
// spilled, with one row ahead as well as with a step. No scratch or
// spills. LLVM reads each fp6 fragment's 8-byte half with a ds_read_b64 of
// its own: merged into a ds_read2st64_b64, the halves of two fragments cost
// register copies at the end of every iteration.
// ISA-NOT: ds_read2st64_b64
//     ISA: ds_read_b64
// ISA-NOT: ds_read2st64_b64

// fp8 x fp8, C += A x B: two 16-byte LDS reads per fragment.
// CHECK-LABEL: gpu.module @fp8_mma0
//       CHECK:   rocdl.s.barrier
//   CHECK-COUNT-32: vector.load %{{.+}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   CHECK-NOT:   vector.load %{{.+}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
// ROCDL-DAG: #[[UNROLL:.+]] = #llvm.loop_unroll<disable = true>
// ROCDL-DAG: #[[LOOP:.+]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// ROCDL-LABEL: gpu.module @fp8_mma0
//       ROCDL:   llvm.br ^{{.+}} {loop_annotation = #[[LOOP]]}
//   ROCDL-NOT:   loop_annotation
//       ROCDL:   llvm.return
// REPORT-LABEL: kernel fp8_mma0
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
func.func @fp8(%a: tensor<256x896xf8E4M3FN>, %b: tensor<256x896xf8E4M3FN>,
               %sa: tensor<256x28xf8E8M0FNU>, %sb: tensor<256x28xf8E8M0FNU>,
               %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x896xf8E4M3FN>, tensor<256x896xf8E4M3FN>,
                            tensor<256x28xf8E8M0FNU>, tensor<256x28xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// fp6 x fp4, C += A x B: a 16-byte and an 8-byte LDS read per fragment.
// CHECK-LABEL: gpu.module @fp6_fp4_mma0
//       CHECK:   rocdl.s.barrier
//   CHECK-COUNT-16: vector.load %{{.+}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>, vector<8xi8>
//   CHECK-NOT:   vector.load %{{.+}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
// ROCDL-LABEL: gpu.module @fp6_fp4_mma0
//       ROCDL:   llvm.br ^{{.+}} {loop_annotation = #{{.+}}}
// REPORT-LABEL: kernel fp6_fp4_mma0
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
func.func @fp6_fp4(%a: tensor<256x896xf6E2M3FN>, %b: tensor<256x896xf4E2M1FN>,
                   %sa: tensor<256x28xf8E8M0FNU>, %sb: tensor<256x28xf8E8M0FNU>,
                   %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x896xf6E2M3FN>, tensor<256x896xf4E2M1FN>,
                            tensor<256x28xf8E8M0FNU>, tensor<256x28xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// fp6 x fp6 from zero: a step ahead as well, the unroll disabled too.
// CHECK-LABEL: gpu.module @fp6_zero_mma0
//       CHECK:   rocdl.s.barrier
//   CHECK-COUNT-16: vector.load %{{.+}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>, vector<8xi8>
//   CHECK-NOT:   vector.load %{{.+}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
// ROCDL-LABEL: gpu.module @fp6_zero_mma0
//       ROCDL:   llvm.br ^{{.+}} {loop_annotation = #{{.+}}}
// REPORT-LABEL: kernel fp6_zero_mma0
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
func.func @fp6_zero(%a: tensor<256x896xf6E2M3FN>, %b: tensor<256x896xf6E2M3FN>,
                    %sa: tensor<256x28xf8E8M0FNU>, %sb: tensor<256x28xf8E8M0FNU>)
    -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x896xf6E2M3FN>, tensor<256x896xf6E2M3FN>,
                            tensor<256x28xf8E8M0FNU>, tensor<256x28xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
