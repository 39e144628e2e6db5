// The layout the resolver picks (restricted to layouts a ukernel serves).
// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" | FileCheck %s --check-prefix=LAYOUT
// Each stop of mx-gfx950-pipeline (split-k=1: one GEMM dispatch; splitting
// its K loop is mx-gfx950-pipeline-split-k.mlir's subject).
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu split-k=1" \
// RUN:   | FileCheck %s --check-prefix=GPU --implicit-check-not=mx.scaled --implicit-check-not=mx.tiled --implicit-check-not=mx_uk_
// RUN: mx-opt %s --mx-gfx950-pipeline="output=rocdl split-k=1" | FileCheck %s --check-prefix=ROCDL
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa split-k=1" | FileCheck %s --check-prefix=ISA
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa split-k=1" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// RUN: mx-opt %s --mx-gfx950-pipeline="output=hsaco split-k=1" | FileCheck %s --check-prefix=HSACO
// Options reach the passes: pinned layout parameters, relayout workgroup size.
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu split-k=1 intrinsics-m=4 intrinsics-n=4 subgroups-m=2 subgroups-n=2 relayout-workgroup-size=128" \
// RUN:   | FileCheck %s --check-prefix=PINNED
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa split-k=1 intrinsics-m=4 intrinsics-n=4 subgroups-m=2 subgroups-n=2" --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=PINNED-REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"

// An MXFP4 GEMM with B as N x K (the weight layout), 256 x 256 x 8192:
// one workgroup tile, 32 K steps.

// 256 x 256 x 256 tiles on 1 x 4 waves, each wave 256 x 64: 16 x 4
// intrinsics, 2 of them along K (one 128-byte row of fp4 per K step).
// LAYOUT: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4,

// output=gpu: the host function takes and returns buffers; MX data are bytes
// (fp4 rows of 8192 values are 4096 bytes) and keep their logical type in
// mx.packed_type. Each operand is relaid out into the tiled buffer [Mo, Ko,
// <tile>] that the contraction reads (lhs: [1, 32, 16 im, 2 ik, 4 g, 16 r,
// 16 bytes]), all of them by one dispatch; the contraction is one launch of
// 1 x 1 workgroups of 4 waves, which reads C and writes the result in
// place, in the user's layout.
//   GPU-LABEL: func.func @nt_fp4
//    GPU-SAME:   (%[[A:[^:]+]]: memref<256x4096xi8> {mx.packed_type = tensor<256x8192xf4E2M1FN>},
//    GPU-SAME:    %[[B:[^:]+]]: memref<256x4096xi8> {mx.packed_type = tensor<256x8192xf4E2M1FN>},
//    GPU-SAME:    %[[SA:[^:]+]]: memref<256x256xi8> {mx.packed_type = tensor<256x256xf8E8M0FNU>},
//    GPU-SAME:    %[[SB:[^:]+]]: memref<256x256xi8> {mx.packed_type = tensor<256x256xf8E8M0FNU>},
//    GPU-SAME:    %[[C:[^:]+]]: memref<256x256xf32>) -> memref<256x256xf32>
//     GPU-DAG:   %[[ONE:.+]] = arith.constant 1 : index
//     GPU-DAG:   %[[WG:.+]] = arith.constant 256 : index
// The operands' relayouts are independent: one dispatch runs them all
// (mx-merge-gpu-launches), its grid the sum of theirs.
//         GPU:   gpu.launch_func @[[RA:nt_fp4_relayout[0-9]+_[a-z]+]]::@[[RA]] blocks in ({{.*}}) threads in (%[[WG]], %[[ONE]], %[[ONE]])
//    GPU-SAME:     args(%[[A]] : memref<256x4096xi8>, %[[TA:[^ ]+]] : memref<1x32x16x2x4x16x16xi8>, %[[B]] : memref<256x4096xi8>, %[[TB:[^ ]+]] : memref<1x32x4x4x2x4x16x16xi8>,
//    GPU-SAME:          %[[SA]] : memref<256x256xi8>, %[[TSA:[^ ]+]] : memref<1x32x4x16x16x2xi8>, %[[SB]] : memref<256x256xi8>, %[[TSB:[^ ]+]] : memref<1x32x4x4x16x4x2xi8>)
//         GPU:   gpu.launch_func @nt_fp4_mma0::@nt_fp4_mma0 blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[WG]], %[[ONE]], %[[ONE]])
//    GPU-SAME:     args(%[[C]] : memref<256x256xf32>, %[[TA]] : memref<1x32x16x2x4x16x16xi8>, %[[TB]] : memref<1x32x4x4x2x4x16x16xi8>, %[[TSA]] : memref<1x32x4x16x16x2xi8>, %[[TSB]] : memref<1x32x4x4x16x4x2xi8>)
//     GPU-NOT:   gpu.launch_func
//         GPU:   return %[[C]] : memref<256x256xf32>
// One gpu.module per dispatch, for gfx950. The contraction kernel is the
// specialized ukernel: a loop over the 32 K steps with 16 x 4 x 2 = 128
// scaled MFMAs on fp4 fragments per step and wave.
//         GPU:   gpu.module @[[RA]] [#rocdl.target<chip = "gfx950">]
//         GPU:     gpu.func @[[RA]](%{{[^:]+}}: memref<256x4096xi8>, %{{[^:]+}}: memref<1x32x16x2x4x16x16xi8>, {{.*}}) kernel
//   GPU-LABEL:   gpu.module @nt_fp4_mma0 [#rocdl.target<chip = "gfx950">]
//         GPU:     gpu.func @nt_fp4_mma0({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, passthrough = [{{\[}}"amdgpu-agpr-alloc", "256"]]}
// The ukernel stages A through LDS in four stages (B goes from global
// memory straight to registers) and peels the last of the 32 K steps; its
// register schedule for this configuration unrolls the K loop by 2 (and
// keeps the accumulators in AGPRs). The loop runs 30 steps of 128 MFMAs,
// two per iteration, one barrier each (the wait before it leaves the 8
// copies of the previous step in flight, and it has no fence), the LDS
// reads of the next step after each of the first 8 rows of 8, then the
// direct-to-LDS copies of the step three ahead (into the fourth stage: no
// barrier); then step 31 (the
// unroll's remainder), and the last step without copies.
//         GPU:      %[[PAIRS:.+]] = arith.constant 30 : index
//         GPU:      scf.for %{{.+}} = %{{.+}} to %[[PAIRS]] step %{{.+}} {
//         GPU:        amdgpu.memory_counter_wait load(8) ds(0)
//    GPU-NEXT:        rocdl.s.barrier
//   GPU-COUNT-72:       amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:        rocdl.s.barrier
//     GPU-NOT:        amdgpu.lds_barrier
//         GPU:        amdgpu.gather_to_lds
//   GPU-COUNT-56:       amdgpu.scaled_mfma 16x16x128
//         GPU:        amdgpu.memory_counter_wait load(8) ds(0)
//    GPU-NEXT:        rocdl.s.barrier
//   GPU-COUNT-72:       amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:        rocdl.s.barrier
//     GPU-NOT:        amdgpu.lds_barrier
//         GPU:        amdgpu.gather_to_lds
//   GPU-COUNT-56:       amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:        amdgpu.scaled_mfma
//         GPU:      }
//   GPU-COUNT-128:      amdgpu.scaled_mfma 16x16x128
//   GPU-COUNT-128:      amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:      amdgpu.gather_to_lds
//         GPU:     gpu.return

// output=rocdl: kernels in the LLVM and ROCDL dialects, the host unchanged.
//       ROCDL: gpu.launch_func @nt_fp4_mma0::@nt_fp4_mma0
// ROCDL-LABEL: gpu.module @nt_fp4_mma0 [#rocdl.target<chip = "gfx950">]
//       ROCDL:   llvm.func @nt_fp4_mma0({{.*}}) attributes {gpu.kernel, {{.*}}rocdl.flat_work_group_size = "256,256", rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 256, 1, 1>}
// fp4 operands are 16-byte vectors (vector<4xi32>), 4 accumulators per lane;
// 256 MFMAs in the K loop (unrolled by 2), 128 in its remainder step and
// 128 in the peeled last K step.
// ROCDL-COUNT-512: rocdl.mfma.scale.f32.16x16x128.f8f6f4 {{.*}} : (vector<4xi32>, vector<4xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
//   ROCDL-NOT:   rocdl.mfma.scale
//       ROCDL:   llvm.return

// output=isa: gpu.binary ops holding gfx950 assembly; the MFMAs read fp4
// for both operands (cbsz:4 blgp:4).
// ISA: gpu.binary @nt_fp4_mma0 [#gpu.object<#rocdl.target<chip = "gfx950">, assembly = "{{.*}}.amdgcn_target \22amdgcn-amd-amdhsa--gfx950\22{{.*}}v_mfma_scale_f32_16x16x128_f8f6f4 {{[^\\]*}} cbsz:4 blgp:4

// The kernel report of output=isa: no scratch, no spills (in any kernel:
// see the implicit checks), LDS within 160 KiB, code within the 32 KiB
// instruction cache, and the main loop issues the layout's 16 x 4 x 2 = 128
// MFMAs per wave and K step, two K steps per iteration (the register
// schedule's unroll).
//  REPORT-LABEL: kernel nt_fp4_mma0
//        REPORT:   lds_bytes: {{([0-9]{1,5}|1[0-5][0-9]{4}|16[0-2][0-9]{3}|163[0-7][0-9]{2}|1638[0-3][0-9]|163840)$}}
//   REPORT-NEXT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//   REPORT-NEXT:   max_workgroup_size: 256
//   REPORT-NEXT:   waves_per_simd: {{[1-9][0-9]*$}}
//   REPORT-NEXT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8])$}}
//        REPORT:   main_loop.mfma: 256
//   REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 256

// output=hsaco: code objects (ELF64, little endian, OS ABI AMDGPU HSA (0x40),
// a shared object (ET_DYN = 3) for EM_AMDGPU (0xE0)).
// HSACO: gpu.binary @nt_fp4_mma0 [#gpu.object<#rocdl.target<chip = "gfx950">, bin = "\7FELF\02\01\01@{{\\[0-9A-F][0-9A-F]}}\00\00\00\00\00\00\00\03\00\E0\00

// Pinned 4 x 4 intrinsics on 2 x 2 waves: 128 x 128 tiles, a 2 x 2 grid;
// the operands' relayout dispatch has 128 threads per workgroup.
//   PINNED-DAG: %[[C2:.+]] = arith.constant 2 : index
//   PINNED-DAG: %[[C128:.+]] = arith.constant 128 : index
//   PINNED-DAG: %[[C256:.+]] = arith.constant 256 : index
//   PINNED-DAG: %[[C1:.+]] = arith.constant 1 : index
//       PINNED: gpu.launch_func @nt_fp4_relayout{{[0-9]+}}_{{[a-z]+}}::@{{.+}} threads in (%[[C128]], %[[C1]], %[[C1]])
//       PINNED: gpu.launch_func @nt_fp4_mma0::@nt_fp4_mma0 blocks in (%[[C2]], %[[C2]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
//   PINNED-NOT: gpu.launch_func
// 4 x 4 x 2 = 32 MFMAs per wave and K step, two K steps per main-loop
// iteration (the register schedule's unroll).
// PINNED-REPORT-LABEL: kernel nt_fp4_mma0
//       PINNED-REPORT:   main_loop.mfma: 64
func.func @nt_fp4(%a: tensor<256x8192xf4E2M1FN>, %b: tensor<256x8192xf4E2M1FN>,
                  %sa: tensor<256x256xf8E8M0FNU>, %sb: tensor<256x256xf8E8M0FNU>,
                  %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x8192xf4E2M1FN>, tensor<256x8192xf4E2M1FN>,
                            tensor<256x256xf8E8M0FNU>, tensor<256x256xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
