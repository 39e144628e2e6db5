// Entries whose arguments name their packing function (`mx.prepacked_by`,
// mx-hoist-argument-relayouts) must name a function definition of the module
// taking the logical tensor and returning the argument's type; an argument
// marked `mx.prepack` that the gfx950 pipeline cannot pack once is an error
// of the pipeline. Each gives an error and exit code 2, never a crash.

// RUN: not mx-run %s --entry=unknown --arg=zeros 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: 'mx.prepacked_by' of argument #0 of @unknown (@nowhere) must name a function definition of the module taking the logical tensor and returning the packed one
// RUN: not mx-run %s --entry=two_args --arg=zeros 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: error: 'mx.prepacked_by' of argument #0 of @two_args (@pack_two) must name a function definition
// RUN: not mx-run %s --entry=wrong_type --arg=zeros 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: argument #0 of @wrong_type ('tensor<4x8xf32>') is packed by @pack, which returns 'tensor<2x16xf32>'
// RUN: not mx-run %s --entry=not_symbol --arg=zeros 2>&1 | FileCheck %s --check-prefix=SYMBOL
// SYMBOL: error: 'mx.prepacked_by' of argument #0 of @not_symbol ("pack") must name a function definition
// A valid one runs the packing function (here it doubles and flattens),
// then the entry (which returns the packed argument), on the CPU path and in
// the reference evaluator.
// RUN: python3 -c "import struct, sys; open(sys.argv[1], 'wb').write(struct.pack('<32f', *range(32)))" %t.iota
// RUN: mx-run %s --entry=valid --arg=file:%t.iota --print | FileCheck %s --check-prefix=VALID
// RUN: mx-run %s --entry=valid --backend=reference --arg=file:%t.iota --print | FileCheck %s --check-prefix=VALID
// RUN: mx-run %s --entry=valid --arg=random:int,lo=0,hi=9 --compare=reference | FileCheck %s --check-prefix=SAME
// VALID: result #0 tensor<32xf32> = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, ... (16 more)]
// SAME: bit-exact
// SAME: PASS
// RUN: not mx-run %s --entry=other_use --backend=gfx950-emu --arg=zeros --arg=zeros --arg=zeros --arg=zeros --arg=zeros 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: argument #1 of @other_use (marked 'mx.prepack') is used by 'func.return', which is not a relayout: only an argument whose uses
// OTHER: error: the gfx950 pipeline (mx-gfx950-pipeline) failed on the module containing @other_use

func.func @unknown(%x: tensor<4x8xf32> {mx.prepacked_by = @nowhere}) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}

func.func @pack_two(%x: tensor<2x16xf32>, %y: tensor<2x16xf32>) -> tensor<4x8xf32> {
  %r = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 1, 16] : tensor<2x16xf32> into tensor<2x1x16xf32>
  %c = tensor.collapse_shape %r [[0, 1, 2]] : tensor<2x1x16xf32> into tensor<32xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
func.func @two_args(%x: tensor<4x8xf32> {mx.prepacked_by = @pack_two}) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}

func.func @pack(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
  return %e : tensor<2x16xf32>
}
func.func @wrong_type(%x: tensor<4x8xf32> {mx.prepacked_by = @pack}) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
func.func @not_symbol(%x: tensor<2x16xf32> {mx.prepacked_by = "pack"}) -> tensor<2x16xf32> {
  return %x : tensor<2x16xf32>
}
func.func @double(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %d = arith.addf %x, %x : tensor<4x8xf32>
  %c = tensor.collapse_shape %d [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  return %c : tensor<32xf32>
}
func.func @valid(%x: tensor<32xf32> {mx.prepacked_by = @double}) -> tensor<32xf32> {
  return %x : tensor<32xf32>
}

func.func @other_use(%a: tensor<16x128xf4E2M1FN>, %b: tensor<16x128xf4E2M1FN> {mx.prepack},
    %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<16x4xf8E8M0FNU>,
    %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x128xf4E2M1FN>) {
  %r = mx.scaled_contraction
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b, %sa, %sb : tensor<16x128xf4E2M1FN>, tensor<16x128xf4E2M1FN>,
                            tensor<16x4xf8E8M0FNU>, tensor<16x4xf8E8M0FNU>)
      outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r, %b : tensor<16x16xf32>, tensor<16x128xf4E2M1FN>
}
