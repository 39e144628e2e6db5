// The seed000 MXFP4 vectors end to end on the gfx950 path: the recorded fp4
// bytes and E8M0 scales (quantized on the host by the seed's EVEN/ties-away
// recipe, see test/Integration/CPU/seed000-quantize.mlir) are packed and
// relaid out by the generated dispatches, multiplied by the specialized
// 16x16x128 ukernel on the wave emulator, and the result must equal the
// recorded C_f32 bit for bit (every dot product of these vectors is exact in
// f32, see test/Integration/CPU/seed000-matmul.mlir) and the reference.

// RUN: mx-run %S/../CPU/seed000-matmul.mlir --entry=gemm_64x64x256 --backend=gfx950-emu \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m64n64k256/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m64n64k256/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m64n64k256/B_e8m0.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m64n64k256/C_f32.bin | FileCheck %s --check-prefix=KNOWN
// RUN: mx-run %S/../CPU/seed000-matmul.mlir --entry=gemm_128x96x512 --backend=gfx950-emu \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros \
// RUN:   --expect=file:%testdata/mxfp4-seed000/m128n96k512/C_f32.bin | FileCheck %s --check-prefix=KNOWN
// RUN: mx-run %S/../CPU/seed000-matmul.mlir --entry=gemm_128x96x512 --backend=gfx950-emu --gfx950-options="intrinsic=32x32x64" \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_fp4.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_fp4.bin \
// RUN:   --arg=file:%testdata/mxfp4-seed000/m128n96k512/A_e8m0.bin --arg=file:%testdata/mxfp4-seed000/m128n96k512/B_e8m0.bin --arg=zeros \
// RUN:   --compare=reference | FileCheck %s --check-prefix=REF

// KNOWN: comparing @{{.+}} on gfx950-{{emu|isa}} with --expect
// KNOWN: result #0 tensor<{{.+}}xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/{{[0-9]+}} (rtol=0, atol=0): bit-exact
// KNOWN: PASS
// REF: comparing @gemm_128x96x512 on gfx950-{{emu|isa}} with the reference evaluator
// REF: result #0 tensor<128x96xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/12288 (rtol=0, atol=0): bit-exact
// REF: PASS
