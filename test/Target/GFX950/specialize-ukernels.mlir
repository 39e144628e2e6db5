// RUN: mx-opt %s --split-input-file --mx-gfx950-specialize-ukernels | FileCheck %s --check-prefix=IR
// RUN: mx-opt %s --split-input-file --pass-pipeline='builtin.module(mx-gfx950-specialize-ukernels,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),gpu-module-to-binary{format=isa},mx-gfx950-kernel-report)' \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=REPORT

// Specializing the embedded MXFP4 16x16x128 ukernel for two tile
// configurations and compiling them to gfx950 code: the unroll loops
// disappear, every MFMA takes its scale byte through scalesIdx from a 4-byte
// scale group, the K loop stays, and the code has no scratch and no spills.

// 2 x 2 waves of 4 x 4 intrinsics, 2 K steps: 128 x 128 x 256 tiles,
// 32 MFMAs per K step and wave.
// IR-LABEL: gpu.func @matmul_4x4x2
//   IR-NOT:   func.call
//       IR:   memref.alloca() : memref<4x4xvector<4xf32>, 5>
//       IR:   scf.for
//   IR-NOT:   scf.for
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[0] * %{{.+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[1] * %{{.+}}) * (%{{.+}}[1] * %{{.+}})
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[2] * %{{.+}})
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[1] * %{{.+}}) * (%{{.+}}[3] * %{{.+}})
//   IR-COUNT-28: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   gpu.return
//   IR-NOT: mx_uk_

// REPORT-LABEL: kernel matmul_4x4x2
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   main_loop.mfma: 32
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 32
// 16 data fragments of 16 bytes, and each lane's 8 + 8 scale bytes in one
// load each.
//  REPORT-NEXT:   main_loop.global_loads: 18
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?x?x64x4xf32, 1>,
        index, index, index, index, index, index)
    gpu.func @matmul_4x4x2(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?x?x64x4xf32, 1>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      func.call @mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN(%lhs, %rhs, %ls, %rs, %acc, %wm, %wn, %lane, %im, %in, %ik)
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?x?x64x4xf32, 1>, index, index, index, index, index, index) -> ()
      gpu.return
    }
  }
}

// -----

// The seed shape's layout: 4 waves (1 x 4) of 16 x 4 intrinsics, 2 K steps,
// 256 accumulators per lane (the AGPRs take part of them), 128 MFMAs per K
// step and wave, still without scratch or spills.
// REPORT-LABEL: kernel matmul_16x4x2
//       REPORT:   agprs: {{[1-9][0-9]*}}
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   waves_per_simd: 1
//       REPORT:   main_loop.mfma: 128
// 40 data fragments; 32 + 8 scale bytes per lane in 3 loads.
//       REPORT:   main_loop.global_loads: 43
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?x?x64x4xf32, 1>,
        index, index, index, index, index, index)
    gpu.func @matmul_16x4x2(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?x?x64x4xf32, 1>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 4 : index
      %im = arith.constant 16 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      func.call @mx_uk_scaled_mma_16x16x128_f4E2M1FN_f4E2M1FN(%lhs, %rhs, %ls, %rs, %acc, %wm, %wn, %lane, %im, %in, %ik)
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?x?x64x4xf32, 1>, index, index, index, index, index, index) -> ()
      gpu.return
    }
  }
}

// -----

// The MXFP8 (E4M3) ukernel on the 4x4x2 tile of 2 x 2 waves: the same 32
// MFMAs per K step and wave, on 32-byte lane fragments (two 16-value K
// chunks each).
// IR-LABEL: gpu.func @matmul_fp8_4x4x2
//   IR-NOT:   func.call
//       IR:   scf.for
//   IR-NOT:   scf.for
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[0] * %{{.+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf8E8M0FNU>
//   IR-COUNT-31: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   gpu.return

// REPORT-LABEL: kernel matmul_fp8_4x4x2
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   main_loop.mfma: 32
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 32
// 16 data fragments of 32 bytes, each in 2 x global_load_dwordx4, and each
// lane's 8 + 8 scale bytes in one load each.
//  REPORT-NEXT:   main_loop.global_loads: 34
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma_16x16x128_f8E4M3FN_f8E4M3FN(
        memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?x?x64x4xf32, 1>,
        index, index, index, index, index, index)
    gpu.func @matmul_fp8_4x4x2(%lhs: memref<?x?x?x?x64x32xi8, 1>, %rhs: memref<?x?x?x?x64x32xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?x?x64x4xf32, 1>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      func.call @mx_uk_scaled_mma_16x16x128_f8E4M3FN_f8E4M3FN(%lhs, %rhs, %ls, %rs, %acc, %wm, %wn, %lane, %im, %in, %ik)
          : (memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x32xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?x?x64x4xf32, 1>, index, index, index, index, index, index) -> ()
      gpu.return
    }
  }
}

// -----

// The mixed MXFP8 (E4M3) x MXFP4 (E2M1) ukernel on the 4x4x2 tile of 2 x 2
// waves: 32 MFMAs per K step and wave, on 32-byte lhs and 16-byte rhs lane
// fragments.
// IR-LABEL: gpu.func @matmul_fp8_fp4_4x4x2
//   IR-NOT:   func.call
//       IR:   scf.for
//   IR-NOT:   scf.for
//       IR:   amdgpu.scaled_mfma 16x16x128 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[0] * %{{.+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf8E4M3FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>
//   IR-COUNT-31: amdgpu.scaled_mfma
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   gpu.return

// REPORT-LABEL: kernel matmul_fp8_fp4_4x4x2
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   main_loop.mfma: 32
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 32
// 8 lhs fragments of 32 bytes in 2 x global_load_dwordx4 each, 8 rhs
// fragments of 16 bytes in one each, and each lane's 8 + 8 scale bytes in
// one load each: 16 + 8 + 2.
//  REPORT-NEXT:   main_loop.global_loads: 26
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma_16x16x128_f8E4M3FN_f4E2M1FN(
        memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?x?x64x4xf32, 1>,
        index, index, index, index, index, index)
    gpu.func @matmul_fp8_fp4_4x4x2(%lhs: memref<?x?x?x?x64x32xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?x?x64x4xf32, 1>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 4 : index
      %in = arith.constant 4 : index
      %ik = arith.constant 2 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      func.call @mx_uk_scaled_mma_16x16x128_f8E4M3FN_f4E2M1FN(%lhs, %rhs, %ls, %rs, %acc, %wm, %wn, %lane, %im, %in, %ik)
          : (memref<?x?x?x?x64x32xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?x?x64x4xf32, 1>, index, index, index, index, index, index) -> ()
      gpu.return
    }
  }
}

// -----

// The MXFP4 32x32x64 ukernel on 2 x 2 intrinsics with 4 K steps (each of 64,
// two scale blocks) on 2 x 2 waves: 128 x 128 x 256 tiles, 16 MFMAs per K
// step and wave, 4 x 16 accumulators per lane.
// IR-LABEL: gpu.func @matmul_32x32x64_2x2x4
//   IR-NOT:   func.call
//       IR:   memref.alloca() : memref<2x2xvector<16xf32>, 5>
//       IR:   scf.for
//   IR-NOT:   scf.for
//       IR:   amdgpu.scaled_mfma 32x32x64 (%{{.+}}[0] * %{{.+}}) * (%{{.+}}[0] * %{{.+}}) + %{{.+}} : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<16xf32>
//   IR-COUNT-15: amdgpu.scaled_mfma 32x32x64
//   IR-NOT:   amdgpu.scaled_mfma
//       IR:   gpu.return

// REPORT-LABEL: kernel matmul_32x32x64_2x2x4
//       REPORT:   scratch_bytes: 0
//  REPORT-NEXT:   vgpr_spills: 0
//  REPORT-NEXT:   sgpr_spills: 0
//       REPORT:   main_loop.mfma: 16
//  REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_32x32x64_f8f6f4: 16
// 8 + 8 data fragments of 16 bytes (2 x 4 per operand), and each lane's
// 2 x 4 = 8 lhs and 8 rhs scale bytes in one load each: 16 + 2.
//  REPORT-NEXT:   main_loop.global_loads: 18
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    func.func private @mx_uk_scaled_mma_32x32x64_f4E2M1FN_f4E2M1FN(
        memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>,
        memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x?x?x64x16xf32, 1>,
        index, index, index, index, index, index)
    gpu.func @matmul_32x32x64_2x2x4(%lhs: memref<?x?x?x?x64x16xi8, 1>, %rhs: memref<?x?x?x?x64x16xi8, 1>,
                     %ls: memref<?x?x64x?xi8, 1>, %rs: memref<?x?x64x?xi8, 1>,
                     %acc: memref<?x?x?x?x64x16xf32, 1>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %cwn = arith.constant 2 : index
      %im = arith.constant 2 : index
      %in = arith.constant 2 : index
      %ik = arith.constant 4 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wm = arith.divui %wave, %cwn : index
      %wn = arith.remui %wave, %cwn : index
      func.call @mx_uk_scaled_mma_32x32x64_f4E2M1FN_f4E2M1FN(%lhs, %rhs, %ls, %rs, %acc, %wm, %wn, %lane, %im, %in, %ik)
          : (memref<?x?x?x?x64x16xi8, 1>, memref<?x?x?x?x64x16xi8, 1>, memref<?x?x64x?xi8, 1>, memref<?x?x64x?xi8, 1>,
             memref<?x?x?x?x64x16xf32, 1>, index, index, index, index, index, index) -> ()
      gpu.return
    }
  }
}
