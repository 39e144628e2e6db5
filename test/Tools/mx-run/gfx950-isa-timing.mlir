// The ISA executor's timing mode (--timing-model) on a 256x256 tile of the
// seed GEMM over K = 2048 with the seed's layout pins: the GEMM kernel's
// K loop has K / 512 = 4 steps of 256 scaled MFMAs per wave (4 waves of a
// 256x256 tile, 16x16x128 each: 256 * 256 * 512 / (4 * 16 * 16 * 128)), of
// which the software pipeline peels one, so the loop body runs 3 times;
// 1024 MFMAs per wave in all; one workgroup per CU (its LDS), one round over
// the CUs; the JSON report says the same; the results stay bit-exact. Bad
// options are refused.

// RUN: mx-run %s --backend=gfx950-isa --timing-model --timing-json=%t.json \
// RUN:   --gfx950-options="intrinsic=16x16x128 intrinsics-m=16 intrinsics-n=4 intrinsics-k=2 subgroups-m=1 subgroups-n=4 split-k=1" \
// RUN:   --compare=reference --arg=random:int,lo=-2,hi=2 --arg=random:int,lo=-2,hi=2 \
// RUN:   --arg=random:scales,lo=126,hi=128 --arg=random:scales,lo=126,hi=128 \
// RUN:   --arg=random:int,lo=-8,hi=8 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// CHECK: timing tile_mma0: 1 workgroup(s) of 4 waves on one CU: {{[0-9]+}} cycles; main loop 3 iterations, {{[0-9.]+}} cycles and 256 MFMAs per wave each in the steady state
// CHECK-NEXT: timing tile_mma0: per wave {{[0-9]+}} instructions, 1024 MFMAs (16384 pipe cycles;
// CHECK: timing tile_mma0: the largest stalls per wave: {{[0-9]+}} cycles at pc 0x{{[0-9a-f]+}}: s_waitcnt
// CHECK: timing tile_mma0: the launch: 1 workgroups in 1 round(s) over the CUs:
// CHECK: bit-exact
// JSON: "kernel":"tile_mma0"
// JSON-SAME: "loop_iterations":3
// JSON-SAME: "mfmas_per_iteration":256
// JSON-SAME: "top_stalls":[{"at":"pc

// RUN: not mx-run %s --backend=gfx950-emu --timing-model --arg=zeros 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: --isa-code-object, --isa-hazards and --timing-model need --backend=gfx950-isa
// RUN: not mx-run %s --backend=gfx950-isa --timing-constant=LDSBanks=32 --arg=zeros 2>&1 | FileCheck %s --check-prefix=NOMODEL
// NOMODEL: --timing-constant and --timing-json need --timing-model
// RUN: not mx-run %s --backend=gfx950-isa --timing-model --timing-constant=NoSuch=1 --arg=zeros 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: --timing-constant: no machine constant 'NoSuch' (mx-isa --machine-constants lists them)
// RUN: not mx-run %s --backend=gfx950-isa --timing-model --timing-constant=LDSBanks=many --arg=zeros 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: --timing-constant: expected NAME=VALUE with a number >= 0, got 'LDSBanks=many'

// RUN: mx-isa --machine-constants | FileCheck %s --check-prefix=TABLE
// TABLE: GlobalLatency{{ +}}global_latency{{ +}}1000 cycles{{ +}}Assumed
// TABLE: Efficiency {{.+}}Calibrated

func.func @tile(%a: tensor<256x2048xf4E2M1FN>, %b: tensor<256x2048xf4E2M1FN>,
                %sa: tensor<256x64xf8E8M0FNU>, %sb: tensor<256x64xf8E8M0FNU>,
                %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<256x2048xf4E2M1FN>, tensor<256x2048xf4E2M1FN>,
                            tensor<256x64xf8E8M0FNU>, tensor<256x64xf8E8M0FNU>)
      outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
