// On a gfx950 GPU (MI350X/MI355X) through the HIP runtime: the seed000
// vectors bit for bit, the seed GEMM's timing, and the arithmetic probes.
// Unsupported without one: the lit feature hip-device needs libamdhip64.so
// (or $MX_HIP_LIBRARY) to show a device and amdgpu-arch to list a gfx950
// (test/lit.cfg.py).
// REQUIRES: hip-device

// The README's example end to end on the GPU: quantize (EVEN scales,
// ties-away) and GEMM, every result equal to the recorded vectors.
// RUN: mx-run %mx_src_root/examples/seed000_gemm.mlir --backend=hip \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_bf16.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_bf16.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin --expect=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin \
// RUN:   | FileCheck %s --check-prefix=EXAMPLE
// EXAMPLE: comparing @seed000_gemm on hip with --expect
// EXAMPLE: result #0 tensor<128x96xf32>: {{.*}}: bit-exact
// EXAMPLE-COUNT-4: (exact): bit-exact
// EXAMPLE: PASS

// The recorded fp4 operands on both intrinsics, against the known C and the
// reference (per-instruction rounding in the kernel's K order).
// DEFINE: %{seed000} = %S/../Integration/CPU/seed000-matmul.mlir --backend=hip
// DEFINE: %{m128} = --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros
// RUN: mx-run %{seed000} --entry=gemm_128x96x512 %{m128} --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin | FileCheck %s --check-prefix=KNOWN
// RUN: mx-run %{seed000} --entry=gemm_128x96x512 %{m128} --gfx950-options="intrinsic=32x32x64" --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin | FileCheck %s --check-prefix=KNOWN
// RUN: mx-run %{seed000} --entry=gemm_64x64x256 --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m64n64k256/B_fp4.bin --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m64n64k256/B_e8m0.bin --arg=zeros --expect=file:%testdata/mxfp4-seed000/m64n64k256/C_f32.bin | FileCheck %s --check-prefix=KNOWN
// RUN: mx-run %{seed000} --entry=gemm_128x96x512 %{m128} --compare=reference | FileCheck %s --check-prefix=KNOWN
// KNOWN: result #0 tensor<{{.+}}xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// KNOWN: PASS

// The seed GEMM, 10000 x 16384 x 16384 MXFP4 (examples/seed_gemm_gfx950.mlir):
// every launch and the whole program timed (20 runs after a warm-up). The
// figures are for bench/README.md and the performance model
// (bench/mx_perf_model.py isa ISA --measured FILE), not a pass/fail threshold.
// RUN: mx-run %mx_src_root/examples/seed_gemm_gfx950.mlir --entry=seed_gemm --backend=hip \
// RUN:   --arg=random:codes --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=random:scales,lo=120,hi=130 --arg=zeros \
// RUN:   --repeat=20 > %t.seed-timing
// RUN: FileCheck %s --check-prefix=TIMING < %t.seed-timing
// TIMING: hip @seed_gemm launch #{{[0-9]+}} @seed_gemm_mma0::@seed_gemm_mma0: min {{[0-9.]+}} us, median {{[0-9.]+}} us, max {{[0-9.]+}} us (20 runs), {{[0-9.]+}} TFLOP/s
// TIMING: hip-timing {{.*}}"kernel":"@seed_gemm_mma0::@seed_gemm_mma0"
// TIMING: hip @seed_gemm end to end: {{.*}} TFLOP/s
// TIMING: hip-timing {{.*}}"flops":5368709120000,{{.*}}"kernel":"end to end"

// The arithmetic probes: what the hardware gives next to both models (the
// table shows which one each probe matches; no expectation is imposed).
// RUN: %python %mx_src_root/bench/mfma_probes.py --backend=hip --mx-run mx-run | FileCheck %s --check-prefix=PROBES
// PROBES: probe           exact            cdna3-grouped    tells apart  gfx950
// PROBES: inf-acc
