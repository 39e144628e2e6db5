// RUN: mx-opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),gpu-module-to-binary{format=isa})' \
// RUN:   | FileCheck %s
// RUN: mx-opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),gpu-module-to-binary{format=isa},mx-gfx950-kernel-report)' \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=REPORT
// A code object (HSACO) needs ld.lld: the ROCDL serializer runs
// <toolkit>/llvm/bin/ld.lld, so point the toolkit at lld-22.
// RUN: rm -rf %t && mkdir -p %t/llvm/bin && ln -s %llvm_tools_dir/ld.lld %t/llvm/bin/ld.lld
// RUN: mx-opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx950}),gpu-module-to-binary{format=bin toolkit=%t})' \
// RUN:   | FileCheck %s --check-prefix=HSACO

// HSACO: gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx950">, bin = "\7FELF

// The gfx950 ISA path mx relies on, on a hand-specialized prototype of the
// data-tiled fp4 ukernel (one wave, 16x16x128, intrinsics_m = intrinsics_n =
// intrinsics_k = 2; see docs/design/gfx950-codegen.md): operands are read as
// byte views of the swizzled tiles (vector<16xi8> -> vector<32xi4> ->
// vector<32xf4E2M1FN>), each lane's 2x2 scale bytes come from one dword and
// are selected with scalesIdx, and the accumulators stay in registers across
// the K loop. The ISA text's AMDHSA metadata must show no scratch and no
// spills, and the loop body must hold the 8 scaled MFMAs fed by 8 16-byte
// data loads and 2 dword scale loads.

// The kernel report reads the same numbers from the metadata and the code.
// REPORT-LABEL: gpu.binary @k
// REPORT-NEXT: kernel uk
// REPORT-NEXT:   vgprs: {{[1-9][0-9]*}}
// REPORT-NEXT:   agprs: 0
// REPORT-NEXT:   sgprs: {{[0-9]+}}
// REPORT-NEXT:   lds_bytes: 0
// REPORT-NEXT:   scratch_bytes: 0
// REPORT-NEXT:   vgpr_spills: 0
// REPORT-NEXT:   sgpr_spills: 0
// REPORT-NEXT:   max_workgroup_size: 64
// REPORT-NEXT:   waves_per_simd: 8
// REPORT-NEXT:   code_bytes: {{[1-9][0-9]*}}
// REPORT-NEXT:   instructions: {{[0-9]+}}
// REPORT-NEXT:   mfma: 8
// REPORT-NEXT:   mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 8
// REPORT:        main_loop.mfma: 8
// REPORT-NEXT:   main_loop.mfma.v_mfma_scale_f32_16x16x128_f8f6f4: 8
// REPORT-NEXT:   main_loop.global_loads: 10
// REPORT-NEXT:   main_loop.lds_loads: 0

// CHECK: gpu.binary @k
// The loop: 2 scale dwords and 8 x 16 bytes of data per lane and K step.
// CHECK-SAME: .LBB0_2:
// CHECK-COUNT-2: global_load_dword v{{[0-9]+}}, v
// CHECK-COUNT-8: global_load_dwordx4
// Byte 0 of both scale registers, then bytes selected through op_sel.
// CHECK-SAME: v_mfma_scale_f32_16x16x128_f8f6f4 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v{{[0-9]+}}, v{{[0-9]+}} op_sel_hi:[0,0,0] cbsz:4 blgp:4
// CHECK-COUNT-7: v_mfma_scale_f32_16x16x128_f8f6f4
// CHECK-NOT: v_mfma
// CHECK-SAME: s_cbranch_scc1 .LBB0_2
// CHECK-SAME: .amdhsa_private_segment_fixed_size 0
// CHECK-SAME: .private_segment_fixed_size: 0
// CHECK-SAME: .sgpr_spill_count: 0
// CHECK-SAME: .vgpr_spill_count: 0

module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx950">] {
    gpu.func @uk(%lhs: memref<?x2x2x64x16xi8, 1>, %rhs: memref<?x2x2x64x16xi8, 1>,
                 %ls: memref<?x64x4xi8, 1>, %rs: memref<?x64x4xi8, 1>,
                 %acc: memref<2x2x64x4xf32, 1>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %lane = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ko = memref.dim %lhs, %c0 : memref<?x2x2x64x16xi8, 1>
      %a00 = vector.load %acc[%c0, %c0, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      %a01 = vector.load %acc[%c0, %c1, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      %a10 = vector.load %acc[%c1, %c0, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      %a11 = vector.load %acc[%c1, %c1, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      %r:4 = scf.for %k = %c0 to %ko step %c1 iter_args(%x00 = %a00, %x01 = %a01, %x10 = %a10, %x11 = %a11) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
        %la00 = vector.load %lhs[%k, %c0, %c0, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %la01 = vector.load %lhs[%k, %c0, %c1, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %la10 = vector.load %lhs[%k, %c1, %c0, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %la11 = vector.load %lhs[%k, %c1, %c1, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %lb00 = vector.load %rhs[%k, %c0, %c0, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %lb01 = vector.load %rhs[%k, %c0, %c1, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %lb10 = vector.load %rhs[%k, %c1, %c0, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %lb11 = vector.load %rhs[%k, %c1, %c1, %lane, %c0] : memref<?x2x2x64x16xi8, 1>, vector<16xi8>
        %sa8 = vector.load %ls[%k, %lane, %c0] : memref<?x64x4xi8, 1>, vector<4xi8>
        %sb8 = vector.load %rs[%k, %lane, %c0] : memref<?x64x4xi8, 1>, vector<4xi8>
        %sa = arith.bitcast %sa8 : vector<4xi8> to vector<4xf8E8M0FNU>
        %sb = arith.bitcast %sb8 : vector<4xi8> to vector<4xf8E8M0FNU>
        %A00 = vector.bitcast %la00 : vector<16xi8> to vector<32xi4>
        %B00 = vector.bitcast %lb00 : vector<16xi8> to vector<32xi4>
        %A01 = vector.bitcast %la01 : vector<16xi8> to vector<32xi4>
        %B01 = vector.bitcast %lb01 : vector<16xi8> to vector<32xi4>
        %A10 = vector.bitcast %la10 : vector<16xi8> to vector<32xi4>
        %B10 = vector.bitcast %lb10 : vector<16xi8> to vector<32xi4>
        %A11 = vector.bitcast %la11 : vector<16xi8> to vector<32xi4>
        %B11 = vector.bitcast %lb11 : vector<16xi8> to vector<32xi4>
        %fa00 = arith.bitcast %A00 : vector<32xi4> to vector<32xf4E2M1FN>
        %fa01 = arith.bitcast %A01 : vector<32xi4> to vector<32xf4E2M1FN>
        %fa10 = arith.bitcast %A10 : vector<32xi4> to vector<32xf4E2M1FN>
        %fa11 = arith.bitcast %A11 : vector<32xi4> to vector<32xf4E2M1FN>
        %fb00 = arith.bitcast %B00 : vector<32xi4> to vector<32xf4E2M1FN>
        %fb01 = arith.bitcast %B01 : vector<32xi4> to vector<32xf4E2M1FN>
        %fb10 = arith.bitcast %B10 : vector<32xi4> to vector<32xf4E2M1FN>
        %fb11 = arith.bitcast %B11 : vector<32xi4> to vector<32xf4E2M1FN>
        // (im, in, ik): scale byte index = im*2 + ik for lhs, in*2 + ik for rhs.
        %y00 = amdgpu.scaled_mfma 16x16x128 (%sa[0] * %fa00) * (%sb[0] * %fb00) + %x00 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        %z00 = amdgpu.scaled_mfma 16x16x128 (%sa[1] * %fa01) * (%sb[1] * %fb01) + %y00 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        %y01 = amdgpu.scaled_mfma 16x16x128 (%sa[0] * %fa00) * (%sb[2] * %fb10) + %x01 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        %z01 = amdgpu.scaled_mfma 16x16x128 (%sa[1] * %fa01) * (%sb[3] * %fb11) + %y01 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        %y10 = amdgpu.scaled_mfma 16x16x128 (%sa[2] * %fa10) * (%sb[0] * %fb00) + %x10 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        %z10 = amdgpu.scaled_mfma 16x16x128 (%sa[3] * %fa11) * (%sb[1] * %fb01) + %y10 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        %y11 = amdgpu.scaled_mfma 16x16x128 (%sa[2] * %fa10) * (%sb[2] * %fb10) + %x11 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        %z11 = amdgpu.scaled_mfma 16x16x128 (%sa[3] * %fa11) * (%sb[3] * %fb11) + %y11 : vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf8E8M0FNU>, vector<32xf4E2M1FN>, vector<4xf32>
        scf.yield %z00, %z01, %z10, %z11 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      }
      vector.store %r#0, %acc[%c0, %c0, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      vector.store %r#1, %acc[%c0, %c1, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      vector.store %r#2, %acc[%c1, %c0, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      vector.store %r#3, %acc[%c1, %c1, %lane, %c0] : memref<2x2x64x4xf32, 1>, vector<4xf32>
      gpu.return
    }
  }
}
