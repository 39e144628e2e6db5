// One full-K workgroup tile of the seed GEMM (10000x16384x16384 MXFP4, B as
// N x K; examples/seed_gemm_gfx950.mlir): the 256x256x16384 slice at the
// seed layout, 16x16x128 with intrinsics 16x4x2 on 1x4 waves (256x256x256
// workgroup tiles). One workgroup of 4 waves runs the whole K loop, 64 K
// tiles of 128 MFMAs per wave: 32768 MFMAs, with the relayout dispatches
// around it, on the wave emulator, compared with the reference.
//
// Exact data: elements in {0, +-1, +-2}, per-block distinct scales in
// [2^-1, 2^1], integer C in [-8, 8]: every product is a multiple of 2^-2 of
// magnitude at most 16, so every partial sum is a multiple of 2^-2 below
// 2^18 + 8, exact in f32; the emulator's rounding after each MFMA cannot
// differ from the reference's single rounding, and the results must be
// bit-identical.

// RUN: mx-run %s --backend=gfx950-emu --compare=reference --seed=16384 --emu-stats \
// RUN:   --gfx950-options="intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=2 subgroups-m=1 subgroups-n=4" \
// RUN:   --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-2,hi=2 \
// RUN:   --arg=random:scales,lo=126,hi=128 --arg=random:scales,lo=126,hi=128 \
// RUN:   --arg=random:int,lo=-8,hi=8 | FileCheck %s

// CHECK: gfx950-{{emu|isa}} @seed_tile: {{[0-9]+}} launches ({{[0-9]+}} kernels), {{[0-9]+}} workgroups, 32768 MFMAs
// CHECK: result #0 tensor<256x256xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/65536 (rtol=0, atol=0): bit-exact
// CHECK: PASS

func.func @seed_tile(%a: tensor<256x16384xf4E2M1FN>, %b: tensor<256x16384xf4E2M1FN>,
                     %sa: tensor<256x512xf8E8M0FNU>, %sb: tensor<256x512xf8E8M0FNU>,
                     %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x16384xf4E2M1FN>, tensor<256x16384xf4E2M1FN>,
                            tensor<256x512xf8E8M0FNU>, tensor<256x512xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
