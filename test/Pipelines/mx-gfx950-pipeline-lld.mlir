// output=hsaco links with an ld.lld found when the pipeline runs: the lld
// option, else next to the LLVM tools, else on PATH; a missing or failing
// linker is a diagnostic that names it.
// RUN: mx-opt %s --mx-gfx950-pipeline="output=hsaco lld=%llvm_tools_dir/ld.lld" | FileCheck %s --check-prefix=GIVEN
// RUN: mx-opt %s --mx-gfx950-pipeline=output=hsaco | FileCheck %s --check-prefix=GIVEN
// RUN: not mx-opt %s --mx-gfx950-pipeline="output=hsaco lld=%t.missing/ld.lld" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING -DMISSING=%t.missing/ld.lld
// RUN: not mx-opt %s --mx-gfx950-pipeline="output=hsaco lld=%S/mx-gfx950-pipeline-lld.mlir" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-EXECUTABLE
// RUN: not mx-opt %s --mx-gfx950-pipeline="output=hsaco lld=%llvm_tools_dir/not" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAILING

// GIVEN: gpu.binary @gemm_mma0 [#gpu.object<#rocdl.target<chip = "gfx950">, bin = "\7FELF
// MISSING: error: cannot link gfx950 code objects: ld.lld not found (looked for [[MISSING]]); install lld (Debian: lld-{{[0-9]+}}) or give its path with the lld option
// NOT-EXECUTABLE: error: cannot link gfx950 code objects: ld.lld not found (looked for {{.*}}mx-gfx950-pipeline-lld.mlir)
// `not ld.lld -shared ...` exits 1: a failing link names the linker.
// FAILING: error: linking the code object of @gemm_relayout0_generic with {{.*}}/not failed

func.func @gemm(%a: tensor<64x256xf4E2M1FN>, %b: tensor<64x256xf4E2M1FN>,
                %sa: tensor<64x8xf8E8M0FNU>, %sb: tensor<64x8xf8E8M0FNU>,
                %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<64x256xf4E2M1FN>, tensor<64x256xf4E2M1FN>,
                             tensor<64x8xf8E8M0FNU>, tensor<64x8xf8E8M0FNU>)
      outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
