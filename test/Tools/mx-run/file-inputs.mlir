// Arguments from raw files (file:) and .npy files (npy:), results checked
// against known answers computed independently by Inputs/make_data.py.

// RUN: %python %S/Inputs/make_data.py %t
// RUN: mx-run %s --entry=add --arg=file:%t/add_a.bin --arg=file:%t/add_b.bin \
// RUN:   --expect=file:%t/add_c.bin | FileCheck %s --check-prefix=ADD
// RUN: mx-run %s --entry=add --arg=npy:%t/add_a.npy --arg=npy:%t/add_b_v2.npy \
// RUN:   --expect=npy:%t/add_c.npy | FileCheck %s --check-prefix=ADD

// ADD:      comparing @add on cpu with --expect:
// ADD-NEXT: result #0 tensor<4x8xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/32 (rtol=0, atol=0): bit-exact
// ADD-NEXT: PASS

// bf16 from .npy (<u2 bit patterns) and from a raw file, f32 accumulator,
// an f32 and an i8 result.
// RUN: mx-run %s --entry=matmul --arg=npy:%t/mm_a.npy --arg=file:%t/mm_b.bin --arg=file:%t/mm_c0.bin \
// RUN:   --expect=npy:%t/mm_c.npy --expect=npy:%t/mm_c_i8.npy | FileCheck %s --check-prefix=MATMUL
// RUN: mx-run %s --entry=matmul --arg=npy:%t/mm_a.npy --arg=file:%t/mm_b.bin --arg=file:%t/mm_c0.bin \
// RUN:   --expect=npy:%t/mm_c.npy --expect=file:%t/mm_c_i8.bin | FileCheck %s --check-prefix=MATMUL

// MATMUL:      result #0 tensor<4x3xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/12 (rtol=0, atol=0): bit-exact
// MATMUL-NEXT: result #1 tensor<4x3xi8>: max_abs_err=0 max_rel_err=0 mismatches=0/12 (exact): bit-exact
// MATMUL-NEXT: PASS

func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

#id = affine_map<(i, j) -> (i, j)>
func.func @matmul(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>, %c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xi8>) {
  %ea = tensor.empty() : tensor<4x8xf32>
  %fa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xbf16>) outs(%ea : tensor<4x8xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %y = arith.extf %x : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %eb = tensor.empty() : tensor<8x3xf32>
  %fb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x3xbf16>) outs(%eb : tensor<8x3xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %y = arith.extf %x : bf16 to f32
    linalg.yield %y : f32
  } -> tensor<8x3xf32>
  %r = linalg.matmul ins(%fa, %fb : tensor<4x8xf32>, tensor<8x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  %ei = tensor.empty() : tensor<4x3xi8>
  %i = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4x3xf32>) outs(%ei : tensor<4x3xi8>) {
  ^bb0(%x: f32, %o: i8):
    %y = arith.fptosi %x : f32 to i8
    linalg.yield %y : i8
  } -> tensor<4x3xi8>
  return %r, %i : tensor<4x3xf32>, tensor<4x3xi8>
}
