// The seed000 GEMM C = dequant(A) @ dequant(B)^T from the recorded fp4 bytes
// and E8M0 scales (B is N x K: the NT layout), on the compiled CPU path.
// C_f32 was computed by PyTorch in f32; its summation order is unknown, but for
// these vectors every dot product happens to be exactly representable in f32
// (each recorded value equals the exact sum of the dequantized products), so
// any correct implementation reproduces it bit for bit and the test demands
// that. The reference library's result must match bit for bit as well.

// RUN: mx-run %s --entry=gemm_64x64x256 \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m64n64k256/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m64n64k256/B_e8m0.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m64n64k256/C_f32.bin | FileCheck %s --check-prefix=KNOWN
// RUN: mx-run %s --entry=gemm_128x96x512 \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin | FileCheck %s --check-prefix=KNOWN
// RUN: mx-run %s --entry=gemm_128x96x512 \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros \
// RUN:   --compare=reference | FileCheck %s --check-prefix=REF

// KNOWN: result #0 tensor<{{.+}}xf32>: {{.*}}mismatches=0/{{.*}}: bit-exact
// KNOWN: PASS
// REF: result #0 tensor<128x96xf32>: {{.*}}: bit-exact
// REF: PASS

func.func @gemm_64x64x256(%a: tensor<64x256xf4E2M1FN>, %b: tensor<64x256xf4E2M1FN>,
                          %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<64x8xf8E8M0FNU>,
                          %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<64x256xf4E2M1FN>,
                            tensor<64x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
      outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @gemm_128x96x512(%a: tensor<128x512xf4E2M1FN>, %b: tensor<96x512xf4E2M1FN>,
                           %sa: tensor<128x16xf8E8M0FNU>, %sb: tensor<96x16xf8E8M0FNU>,
                           %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<128x512xf4E2M1FN>, tensor<96x512xf4E2M1FN>,
                            tensor<128x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>)
      outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %r : tensor<128x96xf32>
}
