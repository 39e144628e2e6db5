// The README's main command runs this example; it must reproduce the seed000
// known answers bit for bit on the CPU path.
// RUN: mx-run %mx_src_root/examples/seed000_gemm.mlir \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_bf16.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_bf16.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin --expect=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin \
// RUN:   | FileCheck %s

// CHECK: result #0 tensor<128x96xf32>: {{.*}}: bit-exact
// CHECK-COUNT-4: (exact): bit-exact
// CHECK: PASS
