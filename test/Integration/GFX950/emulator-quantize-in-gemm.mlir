// GEMMs whose kernel quantizes its A tiles itself from bf16
// (mx-gfx950-quantize-in-gemm, the ukernel mx_uk_scaled_mma_quantized_lhs),
// bit-exact on the wave emulator against the independent reference (which
// quantizes A, then multiplies), for every scale rule and rounding, both
// intrinsics, split K, two waves along M, padded rows, K padded to the K
// tile, and fp8 B; then
// seed000 from its recorded bf16 activations against the recorded C_f32.

// DEFINE: %{args} = --arg=random:normal,std=100,specials=0.02 --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:normal
// RUN: mx-run %s --backend=gfx950-emu --entry=floor_nearest --seed=1 %{args} --gfx950-options=quantize-in-gemm=always --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=floor_nearest --seed=2 %{args} --gfx950-options="quantize-in-gemm=always split-k=2" --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=floor_nearest --seed=3 %{args} --gfx950-options="quantize-in-gemm=always intrinsic=32x32x64 split-k=4" --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=floor_nearest --seed=4 %{args} --gfx950-options="quantize-in-gemm=always intrinsics-m=2 subgroups-m=2 subgroups-n=1" --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=ceil_ties_away --seed=5 %{args} --gfx950-options=quantize-in-gemm=always --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=even_ties_away --seed=6 %{args} --gfx950-options=quantize-in-gemm=always --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=rceil_nearest --seed=7 %{args} --gfx950-options=quantize-in-gemm=always --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=fp8_weights --seed=8 --arg=random:normal,std=100,specials=0.02 --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:normal --gfx950-options=quantize-in-gemm=always --compare=reference | FileCheck %s --check-prefix=EXACT
// K = 1440 padded to the K tile (45 blocks of 32: the last K tile holds 13
// of 16, or with 32x32x64 and K tiles of 256, 5 of 8): the kernel reads the
// padding's blocks as zeros, whole K or split (the last split's blocks
// counted from its first). Where the view reads a row's padding, the next
// row's values lie; rows 6 and 17 are +Inf (NaN scales, so NaN rows), so
// a kernel that quantized the padding from them would make rows 5 and 16
// NaN too (B's padding is zeros, which hides any finite values).
// DEFINE: %{padded} = --arg=random:normal,std=100 --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:normal
// RUN: mx-run %s --backend=gfx950-emu --entry=padded_k --seed=10 %{padded} --gfx950-options=quantize-in-gemm=always --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=padded_k --seed=11 %{padded} --gfx950-options="quantize-in-gemm=always split-k=3" --compare=reference | FileCheck %s --check-prefix=EXACT
// RUN: mx-run %s --backend=gfx950-emu --entry=padded_k --seed=12 %{padded} --gfx950-options="quantize-in-gemm=always intrinsic=32x32x64 intrinsics-k=4 split-k=2" --compare=reference | FileCheck %s --check-prefix=EXACT

// Random normal activations with specials (NaN, Inf, zeros of both signs,
// subnormals), quantized in the kernel: the f32 sums match the reference,
// which rounds after every MFMA in the same K order, bit for bit.
// EXACT: result #0 {{.*}}: bit-exact
// EXACT-NOT: FAIL
// EXACT: PASS

// Which kernels run: with quantize-in-gemm=always only the GEMM (the
// weights are constants, folded at compile time); never adds the quantize
// dispatch. The contest's 4x2880x512 shape gets the in-GEMM quantize from
// the heuristic alone (16 rows against N tiles of 64).
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu quantize-in-gemm=always" | FileCheck %s --check-prefix=ALWAYS
// RUN: mx-opt %s --mx-gfx950-pipeline="output=gpu quantize-in-gemm=never" | FileCheck %s --check-prefix=NEVER
// RUN: mx-opt %s --mx-gfx950-pipeline=output=gpu | FileCheck %s --check-prefix=AUTO
// ALWAYS-LABEL: func.func @constant_weights
//   ALWAYS-NOT:   gpu.launch_func
//       ALWAYS:   gpu.launch_func @constant_weights_mma0::@constant_weights_mma0 {{.*}}%arg0 : memref<4x512xbf16>
//   ALWAYS-NOT:   gpu.launch_func
//       ALWAYS:   return
// NEVER-LABEL: func.func @constant_weights
//       NEVER:   gpu.launch_func @constant_weights_quantize0
//       NEVER:   gpu.launch_func @constant_weights_mma0
// AUTO-LABEL: func.func @constant_weights
//   AUTO-NOT:   gpu.launch_func @constant_weights_quantize
//       AUTO:   gpu.launch_func @constant_weights_mma0
// RUN: mx-run %s --backend=gfx950-emu --entry=constant_weights --seed=9 --arg=random:normal,std=100,specials=0.02 --compare=reference | FileCheck %s --check-prefix=EXACT

// Seed000 from bf16 with the A quantize in the GEMM: bit-exact against the
// recorded C_f32 of the seed's own kernels.
// RUN: mx-run %mx_src_root/examples/seed000_gemm_bf16_gfx950.mlir --entry=seed000_gemm_bf16_c --backend=gfx950-emu --gfx950-options=quantize-in-gemm=always \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_bf16.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin | FileCheck %s --check-prefix=EXACT
// RUN: mx-opt %mx_src_root/examples/seed000_gemm_bf16_gfx950.mlir --mx-gfx950-pipeline="output=gpu quantize-in-gemm=always" | FileCheck %s --check-prefix=SEED
// SEED-LABEL: func.func @seed000_gemm_bf16_c
//   SEED-NOT:   gpu.launch_func {{.*}}quantize
//       SEED:   gpu.launch_func @seed000_gemm_bf16_c_mma0::@seed000_gemm_bf16_c_mma0 {{.*}}memref<128x512xbf16>
//   SEED-NOT:   gpu.launch_func
//       SEED:   return

#nt = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
       affine_map<(m, n, k) -> (m, n)>]

// 20 rows (2 M tiles of 16, the second padded) x 200 x 1024.
func.func @floor_nearest(%a: tensor<20x1024xbf16>, %b: tensor<200x1024xf4E2M1FN>,
                         %sb: tensor<200x32xf8E8M0FNU>, %c: tensor<20x200xf32>) -> tensor<20x200xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(floor) rounding(nearest_even)
      : tensor<20x1024xbf16> -> tensor<20x1024xf4E2M1FN>, tensor<20x32xf8E8M0FNU>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%qa, %b, %sa, %sb : tensor<20x1024xf4E2M1FN>, tensor<200x1024xf4E2M1FN>,
                             tensor<20x32xf8E8M0FNU>, tensor<200x32xf8E8M0FNU>)
      outs(%c : tensor<20x200xf32>) -> tensor<20x200xf32>
  return %r : tensor<20x200xf32>
}

func.func @ceil_ties_away(%a: tensor<20x1024xbf16>, %b: tensor<200x1024xf4E2M1FN>,
                          %sb: tensor<200x32xf8E8M0FNU>, %c: tensor<20x200xf32>) -> tensor<20x200xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(ceil) rounding(ties_away)
      : tensor<20x1024xbf16> -> tensor<20x1024xf4E2M1FN>, tensor<20x32xf8E8M0FNU>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%qa, %b, %sa, %sb : tensor<20x1024xf4E2M1FN>, tensor<200x1024xf4E2M1FN>,
                             tensor<20x32xf8E8M0FNU>, tensor<200x32xf8E8M0FNU>)
      outs(%c : tensor<20x200xf32>) -> tensor<20x200xf32>
  return %r : tensor<20x200xf32>
}

func.func @even_ties_away(%a: tensor<20x1024xbf16>, %b: tensor<200x1024xf4E2M1FN>,
                          %sb: tensor<200x32xf8E8M0FNU>, %c: tensor<20x200xf32>) -> tensor<20x200xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<20x1024xbf16> -> tensor<20x1024xf4E2M1FN>, tensor<20x32xf8E8M0FNU>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%qa, %b, %sa, %sb : tensor<20x1024xf4E2M1FN>, tensor<200x1024xf4E2M1FN>,
                             tensor<20x32xf8E8M0FNU>, tensor<200x32xf8E8M0FNU>)
      outs(%c : tensor<20x200xf32>) -> tensor<20x200xf32>
  return %r : tensor<20x200xf32>
}

func.func @rceil_nearest(%a: tensor<20x1024xbf16>, %b: tensor<200x1024xf4E2M1FN>,
                         %sb: tensor<200x32xf8E8M0FNU>, %c: tensor<20x200xf32>) -> tensor<20x200xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(rceil) rounding(nearest_even)
      : tensor<20x1024xbf16> -> tensor<20x1024xf4E2M1FN>, tensor<20x32xf8E8M0FNU>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%qa, %b, %sa, %sb : tensor<20x1024xf4E2M1FN>, tensor<200x1024xf4E2M1FN>,
                             tensor<20x32xf8E8M0FNU>, tensor<200x32xf8E8M0FNU>)
      outs(%c : tensor<20x200xf32>) -> tensor<20x200xf32>
  return %r : tensor<20x200xf32>
}

// fp8 weights (the kernel's B operand of 32 bytes per lane).
func.func @fp8_weights(%a: tensor<20x1024xbf16>, %b: tensor<200x1024xf8E4M3FN>,
                       %sb: tensor<200x32xf8E8M0FNU>, %c: tensor<20x200xf32>) -> tensor<20x200xf32> {
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<20x1024xbf16> -> tensor<20x1024xf4E2M1FN>, tensor<20x32xf8E8M0FNU>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%qa, %b, %sa, %sb : tensor<20x1024xf4E2M1FN>, tensor<200x1024xf8E4M3FN>,
                             tensor<20x32xf8E8M0FNU>, tensor<200x32xf8E8M0FNU>)
      outs(%c : tensor<20x200xf32>) -> tensor<20x200xf32>
  return %r : tensor<20x200xf32>
}

// 20 x 200 x 1440: K padded to the K tile; rows 6 and 17 made +Inf.
func.func @padded_k(%x: tensor<20x1440xbf16>, %b: tensor<200x1440xf4E2M1FN>,
                    %sb: tensor<200x45xf8E8M0FNU>, %c: tensor<20x200xf32>) -> tensor<20x200xf32> {
  %inf = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0x7F80, 0.0, 0.0, 0.0,
                               0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0x7F80, 0.0, 0.0]> : tensor<20xbf16>
  %e = tensor.empty() : tensor<20x1440xbf16>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %inf : tensor<20x1440xbf16>, tensor<20xbf16>) outs(%e : tensor<20x1440xbf16>) {
  ^bb0(%v: bf16, %w: bf16, %o: bf16):
    %vf = arith.extf %v : bf16 to f32
    %wf = arith.extf %w : bf16 to f32
    %yf = arith.addf %vf, %wf : f32
    %y = arith.truncf %yf : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<20x1440xbf16>
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<20x1440xbf16> -> tensor<20x1440xf4E2M1FN>, tensor<20x45xf8E8M0FNU>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%qa, %b, %sa, %sb : tensor<20x1440xf4E2M1FN>, tensor<200x1440xf4E2M1FN>,
                             tensor<20x45xf8E8M0FNU>, tensor<200x45xf8E8M0FNU>)
      outs(%c : tensor<20x200xf32>) -> tensor<20x200xf32>
  return %r : tensor<20x200xf32>
}

// The contest's 4x2880x512 (bf16 A, pre-quantized fp4 B, bf16 C) with
// constant weights, whose encoding folds at compile time (splat here: the
// entries above check B's layout).
func.func @constant_weights(%a: tensor<4x512xbf16>) -> tensor<4x2880xbf16> {
  %b = arith.constant dense<-1.5> : tensor<2880x512xf4E2M1FN>
  %sb = arith.constant dense<0.5> : tensor<2880x16xf8E8M0FNU>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2880xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2880xf32>) -> tensor<4x2880xf32>
  %qa, %sa = mx.quantize %a axis(1) scale(even) rounding(ties_away)
      : tensor<4x512xbf16> -> tensor<4x512xf4E2M1FN>, tensor<4x16xf8E8M0FNU>
  %r = mx.scaled_contraction indexing_maps = #nt
      ins(%qa, %b, %sa, %sb : tensor<4x512xf4E2M1FN>, tensor<2880x512xf4E2M1FN>,
                             tensor<4x16xf8E8M0FNU>, tensor<2880x16xf8E8M0FNU>)
      outs(%c : tensor<4x2880xf32>) -> tensor<4x2880xf32>
  %t = arith.truncf %r : tensor<4x2880xf32> to tensor<4x2880xbf16>
  return %t : tensor<4x2880xbf16>
}
