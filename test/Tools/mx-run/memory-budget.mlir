// mx-run checks every buffer of the program (arguments, results and
// intermediates, after --preprocess too, and the buffers of the compiled
// gfx950 program) against a memory budget, --max-memory (default 16G), and
// names the op that would exceed it; it never runs into the allocation
// (issue 20: a layout padded to terabytes segfaulted in JIT code).

// A layout whose tiles pad the 33 x 224 operand to 10^6 x 1000064 values.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=nt_fp4 --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros \
// RUN:   --preprocess="mx-set-encodings,mx-materialize-encodings{target=#mx_test.resolver<1000000,1000000,1000064>}" | FileCheck %s --check-prefix=PADDED
// PADDED: memory-budget.mlir:[[@LINE+32]]:8: error: 'tensor.empty' result #0 ('tensor<1x1x1000000x1000064xf4E2M1FN>') needs 500032000000 bytes: over the memory budget of 17179869184 bytes per buffer (mx-run --max-memory)
// PADDED: exit code 2

// An intermediate over a small budget: the 64 x 64 f32 product.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=intermediate --max-memory=8K --arg=zeros --arg=zeros | FileCheck %s --check-prefix=SMALL
// SMALL: memory-budget.mlir:[[@LINE+38]]:8: error: 'tensor.empty' result #0 ('tensor<64x64xf32>') needs 16384 bytes: over the memory budget of 8192 bytes per buffer (mx-run --max-memory)
// SMALL: exit code 2
// The same within the budget.
// RUN: mx-run %s --entry=intermediate --max-memory=16K --arg=zeros --arg=zeros --print 2>&1 | FileCheck %s --check-prefix=FITS
// FITS-NOT: error
// FITS: result #0 tensor<1x1xf32>

// Arguments too (sub-byte elements count packed: 33 x 224 fp4 are 3696 bytes).
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=nt_fp4 --max-memory=2K --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros | FileCheck %s --check-prefix=ARG2
// ARG2: error: argument #0 of @nt_fp4 ('tensor<33x224xf4E2M1FN>') needs 3696 bytes: over the memory budget of 2048 bytes per buffer
// ARG2: exit code 2

// The compiled gfx950 program's buffers: the packed, padded tiles.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=nt_fp4 --backend=gfx950-emu --max-memory=7K --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros | FileCheck %s --check-prefix=EMU
// EMU: error: 'memref.alloc' result #0 ({{.+}}) needs {{[0-9]+}} bytes: over the memory budget of 7168 bytes per buffer (mx-run --max-memory)
// EMU: exit code 2

// Bad values.
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=intermediate --max-memory=0 --arg=zeros --arg=zeros | FileCheck %s --check-prefix=BAD
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=intermediate --max-memory=12Q --arg=zeros --arg=zeros | FileCheck %s --check-prefix=BAD
// RUN: %python %S/Inputs/exit_code.py mx-run %s --entry=intermediate --max-memory=99999999999T --arg=zeros --arg=zeros | FileCheck %s --check-prefix=BAD
// BAD: error: invalid --max-memory '{{.+}}' (a positive number of bytes with an optional K, M, G or T suffix)
// BAD: exit code 2

func.func @nt_fp4(%a: tensor<33x224xf4E2M1FN>, %b: tensor<47x224xf4E2M1FN>,
    %sa: tensor<33x7xf8E8M0FNU>, %sb: tensor<47x7xf8E8M0FNU>,
    %c: tensor<33x47xf32>) -> tensor<33x47xf32> {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<33x224xf4E2M1FN>, tensor<47x224xf4E2M1FN>,
                            tensor<33x7xf8E8M0FNU>, tensor<47x7xf8E8M0FNU>)
      outs(%c : tensor<33x47xf32>) -> tensor<33x47xf32>
  return %r : tensor<33x47xf32>
}

func.func @intermediate(%a: tensor<64x1xf32>, %b: tensor<1x64xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = linalg.matmul ins(%a, %b : tensor<64x1xf32>, tensor<1x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tensor.extract_slice %p[0, 0] [1, 1] [1, 1] : tensor<64x64xf32> to tensor<1x1xf32>
  return %s : tensor<1x1xf32>
}
