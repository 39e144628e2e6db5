// RUN: mx-opt %s --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" | FileCheck %s --check-prefix=LAYOUT
// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=GPU
// RUN: mx-opt %s --mx-gfx950-pipeline=output=isa --mx-gfx950-kernel-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT --implicit-check-not="scratch_bytes: {{[1-9]}}" --implicit-check-not="spills: {{[1-9]}}"
// RUN: mx-opt %s --mx-gfx950-pipeline=output=isa | FileCheck %s --check-prefix=ISA
// RUN: mx-opt %s --mx-gfx950-pipeline=output=isa | FileCheck %s --check-prefix=STORES --implicit-check-not=global_load_ubyte

// The seed workload: MXFP4 GEMM 10000 x 16384 x 16384, B (the weights) as
// N x K, scales 10000 x 512 and 16384 x 512, compiled for gfx950 end to end.

// 256 x 256 x 256 tiles on 1 x 4 waves (each wave 256 x 64: 16 x 4
// intrinsics x 2 along K, 256 accumulators per lane).
// LAYOUT: #mx.data_tiled_layout<intrinsic = #mx_gfx950.scaled_mfma<16x16x128>, lhs_type = f4E2M1FN, rhs_type = f4E2M1FN, intrinsics_m = 16, intrinsics_n = 4, intrinsics_k = 2, subgroups_n = 4,

// M = 10000 is padded to 40 tiles of 256 rows; N = 16384 is 64 tiles, K =
// 16384 is 64 K steps. The contraction is a 64 x 40 grid of 256-thread
// workgroups.
//   GPU-LABEL: func.func @seed
//    GPU-SAME:   (%[[A:[^:]+]]: memref<10000x8192xi8> {mx.packed_type = tensor<10000x16384xf4E2M1FN>},
//    GPU-SAME:    %[[B:[^:]+]]: memref<16384x8192xi8> {mx.packed_type = tensor<16384x16384xf4E2M1FN>},
//    GPU-SAME:    %[[SA:[^:]+]]: memref<10000x512xi8> {mx.packed_type = tensor<10000x512xf8E8M0FNU>},
//    GPU-SAME:    %[[SB:[^:]+]]: memref<16384x512xi8> {mx.packed_type = tensor<16384x512xf8E8M0FNU>},
//    GPU-SAME:    %[[C:[^:]+]]: memref<10000x16384xf32>) -> memref<10000x16384xf32>
//     GPU-DAG:   %[[ONE:.+]] = arith.constant 1 : index
//     GPU-DAG:   %[[WG:.+]] = arith.constant 256 : index
//     GPU-DAG:   %[[MO:.+]] = arith.constant 40 : index
//     GPU-DAG:   %[[NO:.+]] = arith.constant 64 : index
// One dispatch relays out A, B and their scales, then the GEMM reads C and
// writes the result in place (in the user's row-major layout): 2 dispatches.
//         GPU:   gpu.launch_func @[[RA:seed_relayout[0-9]+_[a-z]+]]::@[[RA]] {{.*}} args(%[[A]] : memref<10000x8192xi8>, %[[TA:[^ ]+]] : memref<40x64x16x2x4x16x16xi8>,
//    GPU-SAME:     %[[B]] : memref<16384x8192xi8>, %[[TB:[^ ]+]] : memref<64x64x4x4x2x4x16x16xi8>, %[[SA]] : memref<10000x512xi8>, %[[TSA:[^ ]+]] : memref<40x64x4x16x16x2xi8>,
//    GPU-SAME:     %[[SB]] : memref<16384x512xi8>, %[[TSB:[^ ]+]] : memref<64x64x4x4x16x4x2xi8>
//         GPU:   gpu.launch_func @seed_mma0::@seed_mma0 blocks in (%[[NO]], %[[MO]], %[[ONE]]) threads in (%[[WG]], %[[ONE]], %[[ONE]])
//    GPU-SAME:     args(%[[C]] : memref<10000x16384xf32>, %[[TA]] : memref<40x64x16x2x4x16x16xi8>, %[[TB]] : memref<64x64x4x4x2x4x16x16xi8>, %[[TSA]] : memref<40x64x4x16x16x2xi8>, %[[TSB]] : memref<64x64x4x4x16x4x2xi8>)
//     GPU-NOT:   gpu.launch_func
//         GPU:   return %[[C]] : memref<10000x16384xf32>
// The padded rows of A read as fp4 zeros, those of its scales as 1.0
// (0x7F), never NaN; blocks past A's run the next relayout. Each thread
// reads 16 consecutive bytes of its source per load and writes 16 bytes
// (one lane's fragment row) per store: A's thread one run of a row; a
// scale thread 8 rows of 16 scales (two K tiles of 8) for 8 fragment rows
// of 8 x 2 scales (issue 33: no byte loads).
//         GPU:   gpu.module @[[RA]]
//         GPU:     %[[ZERO:.+]] = arith.constant 0 : i8
//         GPU:     %[[ONESCALE:.+]] = arith.constant 127 : i8
//     GPU-NOT:     memref.load
//         GPU:     %[[RUNA:.+]] = vector.load %{{.+}} : memref<10000x8192xi8>, vector<16xi8>
//    GPU-NEXT:     %[[VA:.+]] = vector.extract %[[RUNA]][0] : i8 from vector<16xi8>
//    GPU-NEXT:     %[[PA:.+]] = arith.select %{{.+}}, %[[VA]], %[[ZERO]] : i8
//         GPU:     %[[FA:.+]] = vector.from_elements %[[PA]], {{.*}} : vector<16xi8>
//    GPU-NEXT:     vector.store %[[FA]], %{{.+}} : memref<40x64x16x2x4x16x16xi8>, vector<16xi8>
//     GPU-NOT:     memref.load
//         GPU:     %[[RUNB:.+]] = vector.load %{{.+}} : memref<16384x8192xi8>, vector<16xi8>
//    GPU-NEXT:     vector.store %[[RUNB]], %{{.+}} : memref<64x64x4x4x2x4x16x16xi8>, vector<16xi8>
//     GPU-NOT:     memref.load
//         GPU:     %[[RUNSA:.+]] = vector.load %{{.+}} : memref<10000x512xi8>, vector<16xi8>
//    GPU-NEXT:     %[[VSA:.+]] = vector.extract %[[RUNSA]][0] : i8 from vector<16xi8>
//    GPU-NEXT:     %[[PSA:.+]] = arith.select %{{.+}}, %[[VSA]], %[[ONESCALE]] : i8
//         GPU:     %[[VSA4:.+]] = vector.extract %[[RUNSA]][4] : i8 from vector<16xi8>
//    GPU-NEXT:     arith.select %{{.+}}, %[[VSA4]], %[[ONESCALE]] : i8
// GPU-COUNT-7:     vector.load %{{.+}} : memref<10000x512xi8>, vector<16xi8>
// GPU-COUNT-8:     vector.store %{{.+}} : memref<40x64x4x16x32xi8>, vector<16xi8>
//     GPU-NOT:     memref.load
// GPU-COUNT-8:     vector.load %{{.+}} : memref<16384x512xi8>, vector<16xi8>
// GPU-COUNT-8:     vector.store %{{.+}} : memref<64x64x4x4x128xi8>, vector<16xi8>
//     GPU-NOT:     memref.load
//         GPU:   gpu.module @seed_mma0 [#rocdl.target<chip = "gfx950">]
// The ukernel stages A through LDS in four stages (B goes from global
// memory straight to registers) and peels the last of the 64 K steps; its
// register schedule for this configuration unrolls the K loop by 2 (and
// keeps the accumulators in AGPRs). The loop runs 62 steps of 128 MFMAs,
// two per iteration, one barrier each (the wait before it leaves the 8
// copies of the previous step in flight, and it has no fence), the LDS
// reads of the next step after each of the first 8 rows of 8, then the
// direct-to-LDS copies of the step three ahead (into the fourth stage: no
// barrier); then step 63 (the
// unroll's remainder), and the last step without copies.
//         GPU:    %[[PAIRS:.+]] = arith.constant 62 : index
//         GPU:    scf.for %{{.+}} = %{{.+}} to %[[PAIRS]] step %{{.+}} {
//         GPU:      amdgpu.memory_counter_wait load(8) ds(0)
//    GPU-NEXT:      rocdl.s.barrier
//   GPU-COUNT-72:     amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:      rocdl.s.barrier
//     GPU-NOT:      amdgpu.lds_barrier
//         GPU:      amdgpu.gather_to_lds
//   GPU-COUNT-56:     amdgpu.scaled_mfma 16x16x128
//         GPU:      amdgpu.memory_counter_wait load(8) ds(0)
//    GPU-NEXT:      rocdl.s.barrier
//   GPU-COUNT-72:     amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:      rocdl.s.barrier
//     GPU-NOT:      amdgpu.lds_barrier
//         GPU:      amdgpu.gather_to_lds
//   GPU-COUNT-56:     amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:      amdgpu.scaled_mfma
//         GPU:    }
//   GPU-COUNT-128:    amdgpu.scaled_mfma 16x16x128
//   GPU-COUNT-128:    amdgpu.scaled_mfma 16x16x128
//     GPU-NOT:    amdgpu.gather_to_lds

// No scratch and no spills (in any kernel), the 256 accumulators in AGPRs,
// LDS within 160 KiB, code within 32 KiB, and two K steps of 16 x 4 x 2 =
// 128 scaled MFMAs per main-loop iteration (the register schedule's
// unroll). C is
// read and written in place, 4 consecutive f32 of a row per lane and
// instruction: 16 x 4 intrinsics per wave, one buffer_load_dwordx4 and one
// buffer_store_dwordx4 each (N = 16384 is a multiple of 4: no edge path).
// In the GEMM kernel's ISA, each barrier of the K loop (two per iteration)
// and of its prologue waits for all but the 8 copies of the last K step
// issued (and for the wave's LDS reads): s_waitcnt vmcnt(8) lgkmcnt(0),
// at most an MFMA, then s_barrier, with no wait for every load before it.
// The relayout kernel's loads and stores are all 16 bytes a lane: A's and
// B's run, 8 runs of each scale operand, and as many stores; no byte loads
// (there were 32 global_load_ubyte).
//     ISA-LABEL: gpu.binary @seed_relayout0_generic
//       ISA-NOT: global_load_ubyte
// ISA-COUNT-18: global_load_dwordx4
//       ISA-NOT: global_load_{{[a-z]}}
//  STORES-LABEL: gpu.binary @seed_relayout0_generic
//    STORES-NOT: global_store_{{byte|short}}
// STORES-COUNT-18: global_store_dwordx4
//    STORES-NOT: global_store_
//  STORES-LABEL: gpu.binary @seed_mma0
//     ISA-LABEL: gpu.binary @seed_mma0
// ISA-COUNT-3: s_waitcnt vmcnt(8) lgkmcnt(0)\0A\09{{(v_mfma[^\\]*\\0A\\09)?}}s_barrier
//       ISA-NOT: gpu.binary
//           ISA: .end_amdgpu_metadata

//  REPORT-LABEL: kernel seed_mma0
//        REPORT:   agprs: 256
//        REPORT:   lds_bytes: {{([0-9]{1,5}|1[0-5][0-9]{4}|16[0-2][0-9]{3}|163[0-7][0-9]{2}|1638[0-3][0-9]|163840)$}}
//   REPORT-NEXT:   scratch_bytes: 0
//   REPORT-NEXT:   vgpr_spills: 0
//   REPORT-NEXT:   sgpr_spills: 0
//   REPORT-NEXT:   max_workgroup_size: 256
//   REPORT-NEXT:   waves_per_simd: {{[1-9][0-9]*$}}
//   REPORT-NEXT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8])$}}
//        REPORT:   global_stores: 64
//   REPORT-NEXT:   global_stores.buffer_store_dwordx4: 64
//   REPORT-NEXT:   main_loop.instructions
//        REPORT:   main_loop.mfma: 256
//   REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 256
//        REPORT:   main_loop.global_stores: 0
func.func @seed(%a: tensor<10000x16384xf4E2M1FN>, %b: tensor<16384x16384xf4E2M1FN>,
                %sa: tensor<10000x512xf8E8M0FNU>, %sb: tensor<16384x512xf8E8M0FNU>,
                %c: tensor<10000x16384xf32>) -> tensor<10000x16384xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<10000x16384xf4E2M1FN>, tensor<16384x16384xf4E2M1FN>,
                            tensor<10000x512xf8E8M0FNU>, tensor<16384x512xf8E8M0FNU>)
      outs(%c : tensor<10000x16384xf32>) -> tensor<10000x16384xf32>
  return %r : tensor<10000x16384xf32>
}
