// The LDS of a GEMM launch (getUKernelLDSBytes): two K steps of A and B
// fragments, then a ring of two K steps of A's scales, which the pipelined
// schedule copies once per workgroup when several waves along N share them,
// where the ring fits the 160 KiB and leaves as many workgroups per CU.
//
// 1 x 4 waves of 2 x 2 x 8 fp4 intrinsics (a tuned decode tile): 16 + 64
// fragments of 1 KiB per K step (160 KiB) and 1 KiB of A's scales: no room
// for the ring, 163840 bytes; the ukernel does not stage A's scales for
// tiles of fewer than 4 intrinsics along M (decode: they cost more than
// they save).
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa split-k=1 intrinsic=16x16x128 intrinsics-m=2 intrinsics-n=2 intrinsics-k=8 subgroups-m=1 subgroups-n=4" \
// RUN:   --mx-gfx950-kernel-report -o /dev/null | FileCheck %s --check-prefix=FULL
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu split-k=1 intrinsic=16x16x128 intrinsics-m=2 intrinsics-n=2 intrinsics-k=8 subgroups-m=1 subgroups-n=4" \
// RUN:   | FileCheck %s --check-prefix=FULL-GPU
// FULL-LABEL: kernel ring_mma0
//       FULL:   lds_bytes: 163840
//  FULL-NEXT:   scratch_bytes: 0
//  FULL-NEXT:   vgpr_spills: 0
// FULL-GPU-LABEL: gpu.func @ring_mma0
//   FULL-GPU-NOT:   amdgpu.gather_to_lds {{.+}} : vector<4xi8>
//       FULL-GPU:   gpu.return
//
// 1 x 4 waves of 16 x 4 x 1 fp4 intrinsics (the seed's tile with one
// intrinsic per K step): 16 + 16 fragments (64 KiB for two K steps) and 2 x
// 1 KiB of A's scales.
// RUN: mx-opt %s --mx-gfx950-pipeline="output=isa split-k=1 intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=1 subgroups-m=1 subgroups-n=4" \
// RUN:   --mx-gfx950-kernel-report -o /dev/null | FileCheck %s --check-prefix=RING
// RING-LABEL: kernel ring_mma0
//       RING:   lds_bytes: 67584
//  RING-NEXT:   scratch_bytes: 0
//  RING-NEXT:   vgpr_spills: 0
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu split-k=1 intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=1 subgroups-m=1 subgroups-n=4" \
// RUN:   | FileCheck %s --check-prefix=RING-GPU
// RING-GPU-LABEL: gpu.func @ring_mma0
//       RING-GPU:   amdgpu.gather_to_lds {{.+}} : vector<4xi8>

func.func @ring(%a: tensor<48x896xf4E2M1FN>, %b: tensor<40x896xf4E2M1FN>,
    %sa: tensor<48x28xf8E8M0FNU>, %sb: tensor<40x28xf8E8M0FNU>,
    %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<48x896xf4E2M1FN>, tensor<40x896xf4E2M1FN>,
                            tensor<48x28xf8E8M0FNU>, tensor<40x28xf8E8M0FNU>)
      outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}
