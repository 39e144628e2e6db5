// The README's main command runs this example: seed000 from bf16 on the
// gfx950 wave emulator, A quantized by the fused quantize kernel into the
// GEMM's operand layout. The GEMM result and the quantized A (written by the
// same kernel in the plain layout) must equal the recorded C_f32, A_fp4 and
// A_e8m0 bit for bit, and the reference on random data (special values are
// covered by test/Integration/GFX950/emulator-quantize.mlir: with the
// largest bf16 in A, f32 GEMM partial sums overflow where the reference's
// double sum does not).
// RUN: mx-run %mx_src_root/examples/seed000_gemm_bf16_gfx950.mlir --entry=seed000_gemm_bf16 --backend=gfx950-emu \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_bf16.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin \
// RUN:   | FileCheck %s
// RUN: mx-run %mx_src_root/examples/seed000_gemm_bf16_gfx950.mlir --entry=seed000_gemm_bf16_c --backend=gfx950-emu \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_bf16.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin | FileCheck %s --check-prefix=ONLYC
// RUN: mx-run %mx_src_root/examples/seed000_gemm_bf16_gfx950.mlir --entry=seed000_gemm_bf16 --backend=gfx950-emu --seed=9 \
// RUN:   --arg=random:normal,std=4 --arg=random:codes --arg=random:scales,lo=120,hi=130 --arg=zeros \
// RUN:   --compare=reference | FileCheck %s --check-prefix=REF

// CHECK: result #0 tensor<128x96xf32>: {{.*}}: bit-exact
// CHECK: result #1 tensor<128x512xf4E2M1FN>: {{.*}}mismatches=0/65536 (exact): bit-exact
// CHECK: result #2 tensor<128x16xf8E8M0FNU>: {{.*}}mismatches=0/2048 (exact): bit-exact
// CHECK: PASS

// ONLYC: result #0 tensor<128x96xf32>: {{.*}}: bit-exact
// ONLYC: PASS

// REF-COUNT-3: : bit-exact
// REF: PASS
