// mx-run --backend=gfx950-emu: a program the gfx950 pipeline cannot compile,
// or bad pipeline options, give a diagnostic and exit code 2, never a crash.

// Invalid mx-gfx950-pipeline options.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=nt_fp4 --backend=gfx950-emu --gfx950-options="frobnicate=1" \
// RUN:   --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: error: invalid mx-gfx950-pipeline options 'frobnicate=1'
// OPTIONS: exit code 2

// One intrinsic per tile: no gfx950 ukernel serves the layout, and the reason
// is given per ukernel.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=nt_fp8_e5m2 --backend=gfx950-emu \
// RUN:   --gfx950-options="intrinsics-m=1 intrinsics-n=1 intrinsics-k=1" \
// RUN:   --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros | FileCheck %s --check-prefix=NO-UKERNEL
// NO-UKERNEL: error: 'mx.set_encoding' op no gfx950 ukernel serves 'f8E4M3FN' x 'f8E5M2' with these options (require-ukernel)
// NO-UKERNEL: note: ukernels rejected it:
// NO-UKERNEL: mx_uk_scaled_mma: intrinsics_m/n * intrinsics_k must be multiples of 4
// NO-UKERNEL: error: the gfx950 pipeline (mx-gfx950-pipeline) failed on the module containing @nt_fp8_e5m2
// NO-UKERNEL: exit code 2

// An fp4 weight given as K x N with an odd N: its rows are not whole bytes.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=nn_fp4 --backend=gfx950-emu \
// RUN:   --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros | FileCheck %s --check-prefix=NN-FP4
// NN-FP4: error: 'func.func' op cannot store 'tensor<128x33xf4E2M1FN>' packed: its innermost dimension (33 x 4 bits) is not whole bytes
// NN-FP4: exit code 2

// A zero-sized M (issue 20: used to report "offset 0 is out-of-bounds: 0 >= 0").
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=zero_m --backend=gfx950-emu \
// RUN:   --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros | FileCheck %s --check-prefix=ZERO-M
// ZERO-M: error: 'mx.set_encoding' op has a zero-sized M dimension: gfx950 kernels need M, N and K of at least 1
// ZERO-M: exit code 2

func.func @zero_m(%a: tensor<0x128xf4E2M1FN>, %b: tensor<32x128xf4E2M1FN>,
    %sa: tensor<0x4xf8E8M0FNU>, %sb: tensor<32x4xf8E8M0FNU>,
    %c: tensor<0x32xf32>) -> tensor<0x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<0x128xf4E2M1FN>, tensor<32x128xf4E2M1FN>,
                            tensor<0x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>)
      outs(%c : tensor<0x32xf32>) -> tensor<0x32xf32>
  return %r : tensor<0x32xf32>
}

func.func @nt_fp4(%a: tensor<32x128xf4E2M1FN>, %b: tensor<32x128xf4E2M1FN>,
    %sa: tensor<32x4xf8E8M0FNU>, %sb: tensor<32x4xf8E8M0FNU>,
    %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x128xf4E2M1FN>, tensor<32x128xf4E2M1FN>,
                            tensor<32x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>)
      outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

func.func @nt_fp8_e5m2(%a: tensor<32x128xf8E4M3FN>, %b: tensor<32x128xf8E5M2>,
    %sa: tensor<32x4xf8E8M0FNU>, %sb: tensor<32x4xf8E8M0FNU>,
    %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x128xf8E4M3FN>, tensor<32x128xf8E5M2>,
                            tensor<32x4xf8E8M0FNU>, tensor<32x4xf8E8M0FNU>)
      outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

func.func @nn_fp4(%a: tensor<32x128xf4E2M1FN>, %b: tensor<128x33xf4E2M1FN>,
    %sa: tensor<32x4xf8E8M0FNU>, %sb: tensor<4x33xf8E8M0FNU>,
    %c: tensor<32x33xf32>) -> tensor<32x33xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<32x128xf4E2M1FN>, tensor<128x33xf4E2M1FN>,
                            tensor<32x4xf8E8M0FNU>, tensor<4x33xf8E8M0FNU>)
      outs(%c : tensor<32x33xf32>) -> tensor<32x33xf32>
  return %r : tensor<32x33xf32>
}
