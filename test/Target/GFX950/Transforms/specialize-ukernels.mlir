// RUN: mx-opt %s --split-input-file --mx-gfx950-specialize-ukernels | FileCheck %s --check-prefix=IR
// RUN: mx-opt %s --split-input-file --pass-pipeline='builtin.module(mx-gfx950-specialize-ukernels,gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),gpu-module-to-binary{format=isa},mx-gfx950-kernel-report)' \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=REPORT

// Specializing the embedded ukernels for several tile configurations and
// compiling them to gfx950 code. The kernels are what
// mx-gfx950-lower-tiled-mma launches: static tile views (the ukernels take
// the subgroup counts from them), the wave index made wave-uniform, and an
// LDS buffer for two K steps of the workgroup's A and B tiles. After
// specialization the unroll loops are gone: the prologue copies K steps 0
// and 1 into LDS (amdgpu.gather_to_lds, split over the waves) and reads step
// 0's B fragments and the first half of its A fragments; each K iteration
// waits for its copies and meets the other waves at a barrier, then runs
// its MFMAs row by row (each taking its scale byte through scalesIdx from a
// 4-byte group in registers), reading the next step's fragments after the
// rows of the first half, and one row into the second half meets the other
// waves again and copies step k + 2 (sched_barriers keep that order); the
// last K step runs after the loop without copies.
// The code has no scratch and no spills, and fits LDS and the instruction
// cache. The kernels are lowered as mx-gfx950-pipeline lowers them
// (expand-strided-metadata, lower-affine, scf-to-cf, gpu-to-rocdl).

// 2 x 2 waves of 4 x 4 intrinsics, 2 K steps: 128 x 128 x 256 tiles, 32
// MFMAs per K step and wave. Per K step the workgroup stages 16 A and 16 B
// fragments of 1 KiB (32 KiB, 64 KiB double-buffered), 8 copies per wave.
// IR-LABEL: gpu.func @matmul_4x4x2
//   IR-NOT:   func.call
//       IR:   memref.alloca() : memref<4x4x4xf32, 5>
//       IR:   scf.if
// The copies read a buffer resource of one K step of the tile (its base
// the step: a scalar advance), at fixed per-lane offsets.
//   IR-COUNT-16: amdgpu.gather_to_lds %{{.+}}[%c0, %{{.+}}] : vector<16xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, memref<65536xi8, #gpu.address_space<workgroup>>
//   IR-NOT:   amdgpu.gather_to_lds
// Two stages: the wave waits for all its copies and its LDS reads, then
// meets the others at a barrier without a fence.
//       IR:   amdgpu.memory_counter_wait load(0) ds(0)
//  IR-NEXT:   rocdl.s.barrier
// Step 0's 8 B fragments and its A fragments of rows 0 and 1.
//   IR-COUNT-12: vector.load %{{.+}} {alignment = 16 : i64} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//       IR:   scf.for
//   IR-NOT:   scf.
//       IR:   amdgpu.fat_raw_buffer_cast %{{.+}} boundsCheck(false) resetOffset
//       IR:   amdgpu.memory_counter_wait load(0) ds(0)
//  IR-NEXT:   rocdl.s.barrier
// Row 0: its 8 MFMAs (B's fragment and scale byte first: the MFMA computes
// D^T = B A^T), K half by K half (the accumulators come from memory): A's
// scale byte 0 with B's intrinsics 0-3 (bytes 0 and 2 of two groups), then
// byte 1, so that each accumulator's two MFMAs are 4 apart; then the A
// fragments of row 0 (step k + 1) and row 2 (step k).
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[0] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[2] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[0] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[2] * %{{[^ ]+}}) * (%{{[^ ]+}}[0] * %{{[^ ]+}})
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{[^ ]+}}[1] * %{{[^ ]+}}) * (%{{[^ ]+}}[1] * %{{[^ ]+}})
//   IR-COUNT-3: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//   IR-COUNT-4: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   amdgpu.sched_barrier allow = <none>
// Row 1: rows 1 and 3.
//   IR-COUNT-8: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//   IR-COUNT-4: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//       IR:   amdgpu.sched_barrier allow = <none>
// Row 2: the barrier and the copies of step k + 2; row 3 reads nothing.
//   IR-COUNT-8: amdgpu.scaled_mfma
//   IR-NOT:   vector.load %{{.+}} : memref<65536xi8
//       IR:   amdgpu.lds_barrier
//   IR-COUNT-8: amdgpu.gather_to_lds
//       IR:   amdgpu.sched_barrier allow = <none>
//   IR-COUNT-8: amdgpu.scaled_mfma
//   IR-NOT:   vector.load %{{.+}} : memref<65536xi8
//       IR:   amdgpu.sched_barrier allow = <none>
// Then the 8 B fragments of step k + 1.
//   IR-COUNT-8: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-NOT:   amdgpu.scaled_mfma
// The last K step: the A fragments of rows 2 and 3, its MFMAs, and the wait
// for the (repeated) copies of the last iteration.
//       IR:   scf.if
//   IR-COUNT-4: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-NOT:   amdgpu.gather_to_lds
//   IR-COUNT-32: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   amdgpu.memory_counter_wait load(0)
//       IR:   gpu.return
//   IR-NOT: mx_uk_

// The main loop: 8 copies and 16 LDS reads per wave, and only the 2 wide
// scale loads (8 + 8 bytes per lane) of the next step from global memory;
// under 10000 bytes of code.
// REPORT-LABEL: kernel matmul_4x4x2
//       REPORT:   lds_bytes: 65536
//  REPORT-NEXT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   code_bytes: {{[0-9]{1,4}$}}
//       REPORT:   main_loop.mfma: 32
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 32
//  REPORT-NEXT:   main_loop.global_loads: 2
//  REPORT-NEXT:   main_loop.lds_loads: 16
//  REPORT-NEXT:   main_loop.direct_to_lds_loads: 8
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @matmul_4x4x2(%lhs: memref<?x2x4x2x64x16xi8, 1>, %rhs: memref<?x2x4x2x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x2x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<?x2x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      // The lane's accumulators, loaded before and stored after the call
      // (as mx-gfx950-lower-tiled-mma does for a data-tiled acc).
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
          vector.store %v, %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %zero) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The seed shape's layout: 4 waves (1 x 4) of 16 x 4 intrinsics, 2 K steps,
// 256 accumulators per lane (the AGPRs take part of them), 128 MFMAs per K
// step and wave, still without scratch or spills. Per K step the workgroup
// stages its 32 A fragments (32 KiB per stage; the LDS allocation still
// counts B, so four stages fit), 8 copies per wave; each wave reads all 32
// A fragments from LDS and loads its own 8 B fragments from global memory.
// IR-LABEL: gpu.func @matmul_16x4x2
// Four stages: step k is in stage k mod 4, and the waits (after the
// prologue's copies of steps 0-2, and at the top of each iteration) leave
// the 8 copies of the last step issued in flight.
//       IR:   amdgpu.memory_counter_wait load(8) ds(0)
//  IR-NEXT:   rocdl.s.barrier
//       IR:   scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
//       IR:     amdgpu.memory_counter_wait load(8) ds(0)
//  IR-NEXT:     rocdl.s.barrier
//  IR-NEXT:     arith.remui %[[K]], %c4 : index
// One wave per M (subgroups_m = 1): each wave's B fragments are its own, so
// they go from global memory straight to registers, one step ahead (four
// loads in each of rows 0 and 1, with step k + 1's scales in row 1), and
// only A is staged through LDS (8 copies per wave). Rows 0-7: 8 MFMAs and 4
// A reads each; rows 8-15: 8 MFMAs and one copy into the fourth stage each,
// without a barrier and without LDS reads.
//   IR-COUNT-8: amdgpu.scaled_mfma
//   IR-COUNT-4: vector.load %{{.+}} : memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
//   IR-COUNT-4: vector.load %{{.+}} : memref<131072xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// Row 0 spreads the step's address arithmetic and its B loads over its 8
// MFMAs.
//   IR-COUNT-8: rocdl.sched.group.barrier 6, 3, 0
//      IR-NEXT:   rocdl.sched.group.barrier 32, 1, 0
//      IR-NEXT:   rocdl.sched.group.barrier 8, 1, 0
//      IR-NEXT:   amdgpu.sched_barrier
// Row 1: the other four B loads, the scales, one of each per MFMA.
//   IR-COUNT-8: amdgpu.scaled_mfma
//   IR-COUNT-4: vector.load %{{.+}} : memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>, vector<16xi8>
//   IR-COUNT-4: vector.load %{{.+}} : memref<131072xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//       IR:   vector.load %{{.+}} : memref<?x?x64x?xi8
//   IR-COUNT-8: rocdl.sched.group.barrier 32, 1, 0
//      IR-NEXT:   rocdl.sched.group.barrier 8, 1, 0
//      IR-NEXT:   amdgpu.sched_barrier
//   IR-COUNT-6: amdgpu.sched_barrier
//   IR-COUNT-8: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.lds_barrier
//   IR-NOT:   vector.load %{{.+}} : memref<?x?x64x?xi8
//   IR-NOT:   vector.load %{{.+}} : memref<131072xi8
//       IR:   amdgpu.gather_to_lds %{{.+}}, %arg5[%{{.+}}]
//  IR-NEXT:   amdgpu.sched_barrier
//   IR-COUNT-7: amdgpu.scaled_mfma
//   IR-NOT:   vector.load %{{.+}} : memref<131072xi8
//       IR:   amdgpu.gather_to_lds %{{.+}}, %arg5[%{{.+}}]
//  IR-NEXT:   amdgpu.sched_barrier
//   IR-COUNT-48: amdgpu.scaled_mfma
//   IR-NOT:   vector.load %{{.+}} : memref<131072xi8
//       IR:   amdgpu.gather_to_lds %{{.+}}, %arg5[%{{.+}}]
//  IR-NEXT:   amdgpu.sched_barrier
//   IR-NOT:   amdgpu.gather_to_lds
//       IR:   scf.if

// REPORT-LABEL: kernel matmul_16x4x2
//       REPORT:   agprs: {{[1-9][0-9]*}}
//       REPORT:   lds_bytes: 131072
//  REPORT-NEXT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   waves_per_simd: 1
// Under 30000 bytes: within the 32 KiB instruction cache.
//  REPORT-NEXT:   code_bytes: {{([0-9]{1,4}|[12][0-9]{4})$}}
//       REPORT:   main_loop.mfma: 128
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 128
// 32 + 8 scale bytes per lane in 3 loads, and 8 B fragments.
//  REPORT-NEXT:   main_loop.global_loads: 11
//  REPORT-NEXT:   main_loop.lds_loads: 32
//  REPORT-NEXT:   main_loop.direct_to_lds_loads: 8
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @matmul_16x4x2(%lhs: memref<?x1x16x2x64x16xi8, 1>, %rhs: memref<?x4x4x2x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<131072xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 4 : index
      %im = arith.constant 16 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x1x16x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<?x4x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<131072xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      // The lane's accumulators start at zero (zero_acc) and are stored
      // after the call (as mx-gfx950-lower-tiled-mma does).
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %c1) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The MXFP8 (E4M3) ukernel on the 4x4x2 tile of 2 x 2 waves: the same 32
// MFMAs per K step and wave, on 32-byte lane fragments, staged as two 1 KiB
// halves each (two copies per fragment, two 16-byte LDS reads per lane
// joined by a vector.shuffle of 32-bit words, so that LLVM keeps the
// fragment in eight 32-bit registers): 32 KiB of A and 32 KiB of B per K
// step.
// IR-LABEL: gpu.func @matmul_fp8_4x4x2
//       IR:   scf.for
//       IR:   %[[LO:.+]] = vector.load %{{.+}} : memref<131072xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//  IR-NEXT:   %[[HI:.+]] = vector.load %{{.+}} : memref<131072xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//  IR-NEXT:   %[[LO32:.+]] = vector.bitcast %[[LO]] : vector<16xi8> to vector<4xi32>
//  IR-NEXT:   %[[HI32:.+]] = vector.bitcast %[[HI]] : vector<16xi8> to vector<4xi32>
//  IR-NEXT:   %[[W:.+]] = vector.shuffle %[[LO32]], %[[HI32]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi32>, vector<4xi32>
//  IR-NEXT:   vector.bitcast %[[W]] : vector<8xi32> to vector<32xi8>
//   IR-COUNT-30: vector.load %{{.+}} : memref<131072xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-COUNT-16: amdgpu.gather_to_lds %{{.+}} : vector<16xi8>, memref<?x?xi8, strided<[?, 1]>, #amdgpu.address_space<fat_raw_buffer>>
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[0] * %{{.+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf8E8M0FNU>
//   IR-COUNT-31: amdgpu.scaled_mfma
//   IR-NOT:   scf.
//       IR:   amdgpu.lds_barrier

// REPORT-LABEL: kernel matmul_fp8_4x4x2
//       REPORT:   lds_bytes: 131072
//  REPORT-NEXT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   main_loop.mfma: 32
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 32
//  REPORT-NEXT:   main_loop.global_loads: 2
//  REPORT-NEXT:   main_loop.lds_loads: 32
//  REPORT-NEXT:   main_loop.direct_to_lds_loads: 16
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @matmul_fp8_4x4x2(%lhs: memref<?x2x4x2x64x32xi8, 1>, %rhs: memref<?x2x4x2x64x32xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<131072xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x2x4x2x64x32xi8, 1> to memref<?x?x?x?x64x32xi8, 1>
      %b = memref.cast %rhs : memref<?x2x4x2x64x32xi8, 1> to memref<?x?x?x?x64x32xi8, 1>
      %l = memref.cast %lds : memref<131072xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      // The lane's accumulators, loaded before and stored after the call
      // (as mx-gfx950-lower-tiled-mma does for a data-tiled acc).
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
          vector.store %v, %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %zero) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f8E4M3FN}}
          : (memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The mixed MXFP8 (E4M3) x MXFP4 (E2M1) ukernel on the 4x4x2 tile of 2 x 2
// waves: 32-byte lhs fragments in two halves, 16-byte rhs fragments; 32 KiB
// of A and 16 KiB of B per K step, 12 copies per wave.
// IR-LABEL: gpu.func @matmul_fp8_fp4_4x4x2
//       IR:   scf.for
//   IR-COUNT-24: vector.load %{{.+}} : memref<98304xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-COUNT-12: amdgpu.gather_to_lds
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[0] * %{{.+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>
//   IR-COUNT-31: amdgpu.scaled_mfma
//   IR-NOT:   scf.
//       IR:   amdgpu.lds_barrier

// REPORT-LABEL: kernel matmul_fp8_fp4_4x4x2
//       REPORT:   lds_bytes: 98304
//  REPORT-NEXT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   main_loop.mfma: 32
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 32
//  REPORT-NEXT:   main_loop.global_loads: 2
//  REPORT-NEXT:   main_loop.lds_loads: 24
//  REPORT-NEXT:   main_loop.direct_to_lds_loads: 12
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @matmul_fp8_fp4_4x4x2(%lhs: memref<?x2x4x2x64x32xi8, 1>, %rhs: memref<?x2x4x2x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<98304xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x2x4x2x64x32xi8, 1> to memref<?x?x?x?x64x32xi8, 1>
      %b = memref.cast %rhs : memref<?x2x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<98304xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      // The lane's accumulators, loaded before and stored after the call
      // (as mx-gfx950-lower-tiled-mma does for a data-tiled acc).
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
          vector.store %v, %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %zero) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f4E2M1FN}}
          : (memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The MXFP4 32x32x64 ukernel on 2 x 2 intrinsics with 4 K steps (each of 64,
// two scale blocks) on 2 x 2 waves: 128 x 128 x 256 tiles, 16 MFMAs per K
// step and wave, 4 x 16 accumulators per lane; 16 + 16 fragments per K step.
// IR-LABEL: gpu.func @matmul_32x32x64_2x2x4
//       IR:   memref.alloca() : memref<2x2x16xf32, 5>
//       IR:   scf.for
//       IR:   rocdl.s.barrier
// Row 0 (the first half): 8 MFMAs, then the 8 A reads; row 1: 8 MFMAs,
// the barrier and the copies of step k + 2; then the 8 B reads.
//       IR:   amdgpu.scaled_mfma 32x32x64 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[0] * %{{.+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<16xf32>
//   IR-COUNT-7: amdgpu.scaled_mfma 32x32x64
//   IR-COUNT-8: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//       IR:   amdgpu.sched_barrier
//   IR-COUNT-8: amdgpu.scaled_mfma 32x32x64
//       IR:   amdgpu.lds_barrier
//   IR-COUNT-8: amdgpu.gather_to_lds
//   IR-NOT:   scf.
//       IR:   amdgpu.sched_barrier
//   IR-COUNT-8: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>

// REPORT-LABEL: kernel matmul_32x32x64_2x2x4
//       REPORT:   lds_bytes: 65536
//  REPORT-NEXT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   main_loop.mfma: 16
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 16
//  REPORT-NEXT:   main_loop.global_loads: 2
//  REPORT-NEXT:   main_loop.lds_loads: 16
//  REPORT-NEXT:   main_loop.direct_to_lds_loads: 8
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @matmul_32x32x64_2x2x4(%lhs: memref<?x2x2x4x64x16xi8, 1>, %rhs: memref<?x2x2x4x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x16xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 2 : index
      %in = arith.constant 2 : index
      %ik = arith.constant 4 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x2x2x4x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<?x2x2x4x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      // The lane's accumulators, loaded before and stored after the call
      // (as mx-gfx950-lower-tiled-mma does for a data-tiled acc).
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x16xf32, 5>
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x16xf32, 1>, vector<16xf32>
          vector.store %v, %accs[%i, %j, %zero] : memref<?x?x16xf32, 5>, vector<16xf32>
        } {mx.unroll}
      } {mx.unroll}
      %accs_d = memref.cast %accs : memref<?x?x16xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %zero) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_32x32x64", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x16xf32, 5>, vector<16xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x16xf32, 1>, vector<16xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The same call asking for the next step's first-half rows of A read late
// (mx.ukernel.late_next_rows, a register schedule's late_next_rows): row 0
// reads only step k's row 1 (4 fragments), row 1 step k + 1's row 0 (4
// fragments) before the barrier and the copies, where by default row 0
// reads both (8, @matmul_32x32x64_2x2x4).
// IR-LABEL: gpu.func @late_next_rows
//       IR:   scf.for
//       IR:   rocdl.s.barrier
//   IR-COUNT-8: amdgpu.scaled_mfma 32x32x64
//   IR-COUNT-4: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-NOT:   vector.load
//       IR:   amdgpu.sched_barrier
//   IR-COUNT-8: amdgpu.scaled_mfma 32x32x64
//   IR-COUNT-4: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-NOT:   vector.load
//       IR:   amdgpu.lds_barrier
//   IR-COUNT-8: amdgpu.gather_to_lds
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @late_next_rows(%lhs: memref<?x2x2x4x64x16xi8, 1>, %rhs: memref<?x2x2x4x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x16xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 2 : index
      %in = arith.constant 2 : index
      %ik = arith.constant 4 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x2x2x4x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<?x2x2x4x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      // The lane's accumulators, loaded before and stored after the call
      // (as mx-gfx950-lower-tiled-mma does for a data-tiled acc).
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x16xf32, 5>
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x16xf32, 1>, vector<16xf32>
          vector.store %v, %accs[%i, %j, %zero] : memref<?x?x16xf32, 5>, vector<16xf32>
        } {mx.unroll}
      } {mx.unroll}
      %accs_d = memref.cast %accs : memref<?x?x16xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %zero) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_32x32x64", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}, mx.ukernel.late_next_rows}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x16xf32, 5>, vector<16xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x16xf32, 1>, vector<16xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The caller branches before the call (as mx-gfx950-lower-tiled-mma does
// for the edge tiles of an accumulator in the user's layout): the
// ukernel's private arrays are hoisted with the caller's to the top of the
// kernel, ahead of the scf.if, because LLVM promotes only the allocas of a
// function's entry block to registers (behind the branch they would stay
// in scratch memory).
// IR-LABEL: gpu.func @after_branch
//   IR-NOT:   scf.if
//       IR:   memref.alloca() : memref<4x4x4xf32, 5>
//   IR-NOT:   scf.if
//       IR:   memref.alloca() : memref<4x2xvector<32xf4E2M1FN>, 5>
//   IR-NOT:   scf.if
//       IR:   memref.alloca() : memref<2xvector<1xi32>, 5>
//       IR:   scf.if
//   IR-NOT:   memref.alloca
//       IR:   gpu.return
// REPORT-LABEL: kernel after_branch
//       REPORT:   lds_bytes: 65536
//  REPORT-NEXT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @after_branch(%lhs: memref<?x2x4x2x64x16xi8, 1>, %rhs: memref<?x2x4x2x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %zero = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x2x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<?x2x4x2x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      // The accumulators start at zero in the first column of tiles and are
      // loaded elsewhere.
      %block = gpu.block_id x
      %first = arith.cmpi eq, %block, %zero : index
      scf.if %first {
        %z = arith.constant dense<0.0> : vector<4xf32>
        scf.for %i = %zero to %im step %c1 {
          scf.for %j = %zero to %in step %c1 {
            vector.store %z, %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          } {mx.unroll}
        } {mx.unroll}
      } else {
        scf.for %i = %zero to %im step %c1 {
          scf.for %j = %zero to %in step %c1 {
            %v = vector.load %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
            vector.store %v, %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          } {mx.unroll}
        } {mx.unroll}
      }
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %zero) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// A call that asks for its K loop's first iteration peeled
// (mx.ukernel.peel_first_k, a register schedule's peel_first_k) before the
// unroll by 2: step 0 runs in front of the loop (under a guard: the number
// of K steps is dynamic here), so that its MFMAs read the accumulators'
// +0.0 stores, not a loop-carried value; the unrolled loop starts at step
// 1, its remainder loop follows, then the last step.
// IR-LABEL: gpu.func @peeled
//       IR:   %[[LAST:.+]] = arith.subi %{{.+}}, %c1 : index
//       IR:   %[[ANY:.+]] = arith.cmpi sgt, %[[LAST]], %c0 : index
//  IR-NEXT:   scf.if %[[ANY]] {
//   IR-COUNT-16: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   }
//       IR:   scf.for %{{.+}} = %c1 to %{{.+}} step %c2 {
//   IR-COUNT-32: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   }
//  IR-NEXT:   scf.for %{{.+}} = %{{.+}} to %[[LAST]] step %c1 {
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @peeled(%lhs: memref<?x1x4x1x64x16xi8, 1>, %rhs: memref<?x4x4x1x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 4 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 1 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x1x4x1x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<?x4x4x1x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %c1) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}, mx.ukernel.unroll_k = 2 : i64, mx.ukernel.peel_first_k}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The same call with 17 static K steps, asking for whole unrolls only
// (mx.ukernel.unroll_whole_k, a register schedule's unroll_remainder =
// false): after the peeled step 15 iterations remain, which 2 does not
// divide, so the loop is not unrolled (steps 1 to 15, one per iteration;
// the last, 16, after it), and no remainder runs after it.
// IR-LABEL: gpu.func @whole_unroll
//       IR:   %[[C16:.+]] = arith.constant 16 : index
//   IR-COUNT-16: amdgpu.scaled_mfma
//   IR-NOT:   scf.for
//       IR:   scf.for %{{.+}} = %c1 to %[[C16]] step %c1 {
//   IR-COUNT-16: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   }
//   IR-NOT:   scf.for
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @whole_unroll(%lhs: memref<17x1x4x1x64x16xi8, 1>, %rhs: memref<17x4x4x1x64x16xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 4 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 1 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<17x1x4x1x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %b = memref.cast %rhs : memref<17x4x4x1x64x16xi8, 1> to memref<?x?x?x?x64x16xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %c1) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f4E2M1FN, rhs_type = f4E2M1FN}, mx.ukernel.unroll_k = 2 : i64, mx.ukernel.peel_first_k, mx.ukernel.unroll_whole_k}
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// Wide A (fp8, one wave along M, B private: the pipelined schedule) on 4 x
// 1 x 1 intrinsics: by the ukernel's rule A is read 4 rows ahead (20 MFMA
// slots at 2 per fp8 MFMA, at most the tile's 4 rows), so the prologue
// after the first barrier reads 4 fragments (two 16-byte LDS reads each)
// before the K loop.
// IR-LABEL: gpu.func @wide_a_rule
//       IR:   rocdl.s.barrier
//  IR-NEXT:   scf.if
//   IR-COUNT-8: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-NOT:   vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//       IR:   scf.for
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @wide_a_rule(%lhs: memref<?x1x4x1x64x32xi8, 1>, %rhs: memref<?x4x1x1x64x32xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 4 : index
      %im = arith.constant 4 : index
      %in = arith.constant 1 : index
      %ik = arith.constant 1 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x1x4x1x64x32xi8, 1> to memref<?x?x?x?x64x32xi8, 1>
      %b = memref.cast %rhs : memref<?x4x1x1x64x32xi8, 1> to memref<?x?x?x?x64x32xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %c1) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f8E4M3FN}}
          : (memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}

// -----

// The same call asking for one row read ahead (mx.ukernel.lookahead_rows,
// a register schedule's lookahead_rows): the constant replaces the rule,
// and the prologue reads one fragment.
// IR-LABEL: gpu.func @wide_a_one_row
//       IR:   rocdl.s.barrier
//  IR-NEXT:   scf.if
//   IR-COUNT-2: vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//   IR-NOT:   vector.load %{{.+}} : memref<65536xi8, #gpu.address_space<workgroup>>, vector<16xi8>
//       IR:   scf.for
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma(
        memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?xf32, 5>,
        memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index)
    gpu.func @wide_a_one_row(%lhs: memref<?x1x4x1x64x32xi8, 1>, %rhs: memref<?x4x1x1x64x32xi8, 1>,
        %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>, %acc: memref<?x?x?x?x64x4xf32, 1>)
        workgroup(%lds : memref<65536xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 4 : index
      %im = arith.constant 4 : index
      %in = arith.constant 1 : index
      %ik = arith.constant 1 : index
      %zero = arith.constant 0 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      %a = memref.cast %lhs : memref<?x1x4x1x64x32xi8, 1> to memref<?x?x?x?x64x32xi8, 1>
      %b = memref.cast %rhs : memref<?x4x1x1x64x32xi8, 1> to memref<?x?x?x?x64x32xi8, 1>
      %l = memref.cast %lds : memref<65536xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
      %c1 = arith.constant 1 : index
      %accs = memref.alloca(%im, %in) : memref<?x?x4xf32, 5>
      %accs_d = memref.cast %accs : memref<?x?x4xf32, 5> to memref<?x?x?xf32, 5>
      func.call @mx_uk_scaled_mma(%a, %b, %ls, %rs, %accs_d, %l, %wm, %wn, %lane, %im, %in, %ik, %c1) {mx.ukernel.type_parameters = {intrinsic = "mfma_scale_16x16x128", lhs_type = f8E4M3FN, rhs_type = f8E4M3FN}, mx.ukernel.lookahead_rows = 1 : i64}
          : (memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?xf32, 5>, memref<?xi8, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index) -> ()
      scf.for %i = %zero to %im step %c1 {
        scf.for %j = %zero to %in step %c1 {
          %v = vector.load %accs[%i, %j, %zero] : memref<?x?x4xf32, 5>, vector<4xf32>
          vector.store %v, %acc[%wm, %wn, %i, %j, %lane, %zero] : memref<?x?x?x?x64x4xf32, 1>, vector<4xf32>
        } {mx.unroll}
      } {mx.unroll}
      gpu.return
    }
  }
}
