// The reference evaluator's tensor.collapse_shape and tensor.expand_shape
// (the reshapes mx-raise-scaled-matmul introduces): the row-major data is
// unchanged, static sizes from the type, dynamic ones from the values the
// evaluator knows (tensor.dim). Compared bit for bit with the CPU backend,
// on distinct random integers so that any reordering shows.

// RUN: mx-run %s --entry=reshapes --seed=1 --arg=random:int,lo=-1000,hi=1000 --compare=reference | FileCheck %s
// CHECK: result #0 tensor<6x4xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/24 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: result #1 tensor<2x3x4xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/24 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: result #2 tensor<2x12xf32>: max_abs_err=0 max_rel_err=0 mismatches=0/24 (rtol=0, atol=0): bit-exact
// CHECK-NEXT: PASS

// A known answer: [[0, 1], [2, 3]] collapsed to 4 and expanded to 1x4 is
// [[0, 1, 2, 3]]; the reference must say so, element by element (a reversed
// expectation fails there).
// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<4f',0,1,2,3))" %t.iota
// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<4f',3,2,1,0))" %t.reversed
// RUN: mx-run %s --entry=known --arg=file:%t.iota --compare=reference --expect=file:%t.iota | FileCheck %s --check-prefix=KNOWN
// KNOWN: comparing @known on cpu with the reference evaluator:
// KNOWN-NEXT: result #0 tensor<1x4xf32>: {{.*}} mismatches=0/4 (rtol=0, atol=0): bit-exact
// KNOWN-NEXT: comparing @known on cpu with --expect:
// KNOWN-NEXT: result #0 tensor<1x4xf32>: {{.*}} mismatches=0/4 (rtol=0, atol=0): bit-exact
// KNOWN-NEXT: PASS
// RUN: not mx-run %s --entry=known --arg=file:%t.iota --expect=file:%t.reversed | FileCheck %s --check-prefix=REVERSED
// REVERSED: at [0, 0]: got 0, want 3

// The note, abs sums and bounds of a reassociated reduction go through
// reshapes, as through tensor.cast.
// RUN: mx-run %s --entry=reshaped_matmul --seed=2 --arg=random:codes --arg=random:codes --arg=random:scales --arg=random:scales --arg=random:normal --compare=reference | FileCheck %s --check-prefix=MATMUL
// MATMUL: note: result #0: the reduction of linalg.generic at {{.*}}reference-reshapes.mlir:[[#@LINE+24]]:8 is reassociated by mx-raise-scaled-matmul: compared with its exact sum within 1.79e-07 x (|acc| + sum|a*b|)
// MATMUL-NEXT: result #0 tensor<2x2x2xf32>: {{.*}} mismatches=0/8
// MATMUL: PASS

func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x4xf32>, tensor<2x12xf32>) {
  %c0 = arith.constant 0 : index
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %d = tensor.dim %x, %c0 : tensor<2x3x4xf32>
  %ad = tensor.cast %a : tensor<6x4xf32> to tensor<?x4xf32>
  %b = tensor.expand_shape %ad [[0, 1], [2]] output_shape [%d, 3, 4] : tensor<?x4xf32> into tensor<?x3x4xf32>
  %s = tensor.cast %b : tensor<?x3x4xf32> to tensor<2x3x4xf32>
  %c = tensor.collapse_shape %s [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  return %a, %s, %c : tensor<6x4xf32>, tensor<2x3x4xf32>, tensor<2x12xf32>
}

func.func @known(%x: tensor<2x2xf32>) -> tensor<1x4xf32> {
  %a = tensor.collapse_shape %x [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %b = tensor.expand_shape %a [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  return %b : tensor<1x4xf32>
}

func.func @reshaped_matmul(%A: tensor<2x1x32xf4E2M1FN>, %B: tensor<4x1x32xf4E2M1FN>,
    %As: tensor<2x1xf8E8M0FNU>, %Bs: tensor<4x1xf8E8M0FNU>,
    %C: tensor<2x4xf32>) -> tensor<2x2x2xf32> {
  %0 = linalg.generic {
    indexing_maps = [affine_map<(m, n, ko, kb) -> (m, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (n, ko, kb)>,
                     affine_map<(m, n, ko, kb) -> (m, ko)>,
                     affine_map<(m, n, ko, kb) -> (n, ko)>,
                     affine_map<(m, n, ko, kb) -> (m, n)>],
    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
  } ins(%A, %B, %As, %Bs : tensor<2x1x32xf4E2M1FN>, tensor<4x1x32xf4E2M1FN>, tensor<2x1xf8E8M0FNU>, tensor<4x1xf8E8M0FNU>) outs(%C : tensor<2x4xf32>) {
  ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<2x4xf32>
  %1 = tensor.collapse_shape %0 [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %2 = tensor.expand_shape %1 [[0, 1, 2]] output_shape [2, 2, 2] : tensor<8xf32> into tensor<2x2x2xf32>
  return %2 : tensor<2x2x2xf32>
}
