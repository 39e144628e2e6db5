// The seed000 MXFP4 known-answer vectors: bf16 A (M x K) and B (N x K)
// quantized rowwise with the EVEN scale rule and ties-away rounding must give
// the recorded fp4 bytes and E8M0 scales bit for bit, on the compiled CPU path
// and on the independent reference.

// RUN: mx-run %s --entry=quantize_64x256 --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_bf16.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m64n64k256/A_fp4.bin --expect=file:%testdata/mxfp4-seed000/m64n64k256/A_e8m0.bin \
// RUN:   | FileCheck %s
// RUN: mx-run %s --entry=quantize_64x256 --arg=file:%testdata/mxfp4-seed000/m64n64k256/B_bf16.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m64n64k256/B_fp4.bin --expect=file:%testdata/mxfp4-seed000/m64n64k256/B_e8m0.bin \
// RUN:   | FileCheck %s
// RUN: mx-run %s --entry=quantize_128x512 --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_bf16.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --expect=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin \
// RUN:   | FileCheck %s
// RUN: mx-run %s --entry=quantize_96x512 --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_bf16.bin \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin --expect=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin \
// RUN:   | FileCheck %s
// The reference evaluator agrees too.
// RUN: mx-run %s --entry=quantize_64x256 --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_bf16.bin --compare=reference \
// RUN:   | FileCheck %s

// CHECK: result #0 tensor<{{.+}}xf4E2M1FN>: {{.*}}mismatches=0/{{.*}}: bit-exact
// CHECK: result #1 tensor<{{.+}}xf8E8M0FNU>: {{.*}}mismatches=0/{{.*}}: bit-exact
// CHECK: PASS

func.func @quantize_64x256(%x: tensor<64x256xbf16>) -> (tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<64x256xbf16> -> tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
  return %e, %s : tensor<64x256xf4E2M1FN>, tensor<64x8xf8E8M0FNU>
}

func.func @quantize_128x512(%x: tensor<128x512xbf16>) -> (tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<128x512xbf16> -> tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
  return %e, %s : tensor<128x512xf4E2M1FN>, tensor<128x16xf8E8M0FNU>
}

func.func @quantize_96x512(%x: tensor<96x512xbf16>) -> (tensor<96x512xf4E2M1FN>, tensor<96x16xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(even) rounding(ties_away)
      : tensor<96x512xbf16> -> tensor<96x512xf4E2M1FN>, tensor<96x16xf8E8M0FNU>
  return %e, %s : tensor<96x512xf4E2M1FN>, tensor<96x16xf8E8M0FNU>
}
