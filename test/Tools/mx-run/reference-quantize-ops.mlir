// The reference evaluator on the scalar ops of IREE/torch-style quantization
// bodies (linalg.generic), run alone (--backend=reference) on inputs written
// here, against answers derived by hand from upstream MLIR 22's op
// definitions (ReferenceScalar.cpp states them). Results are printed as
// decoded values.
//
// f4E2M1FN codes 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6 (sign in bit 3; no Inf
// or NaN); f8E8M0FNU byte e is 2^(e - 127), 0xFF NaN.

// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<8f',1.0,1.5,3.9,0.0,1e-40,float('inf'),float('nan'),-2.0))" %t.e8m0
// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<8f',0.5,1.25,0.625,100,-0.75,float('inf'),float('nan'),0.1))" %t.fp4
// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<4f',1.0,float('nan'),-3.0,2.0))" %t.amax
// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<4f',-1.0,2.0,float('nan'),-0.0))" %t.relu
// RUN: %python -c "import sys; open(sys.argv[1],'wb').write(bytes([0x7f,0x80,0xff,0x00]))" %t.bytes

// arith.truncf to f8E8M0FNU keeps the f32 exponent (arith-expand's
// lowering, checked with mlir-opt --arith-expand="include-f8e8m0=true"):
// 1.0 and 1.5 -> 127 (2^0 = 1); 3.9 -> 128 (2); 0 and the denormal 1e-40 ->
// 0 (2^-127 = 5.87747175e-39); Inf and NaN -> 0xFF (NaN); -2.0 -> 128 (the
// sign is dropped). The same through the IREE-style bit trick (bitcast to
// i32, shrui 23, andi 255, trunci, bitcast) and on a tensor.
// RUN: mx-run %s --backend=reference --entry=truncf_e8m0 --arg=file:%t.e8m0 --print | FileCheck %s --check-prefix=E8M0
// RUN: mx-run %s --backend=reference --entry=exponent_bits --arg=file:%t.e8m0 --print | FileCheck %s --check-prefix=E8M0
// RUN: mx-run %s --backend=reference --entry=truncf_e8m0_tensor --arg=file:%t.e8m0 --print | FileCheck %s --check-prefix=E8M0
// E8M0: result #0 tensor<8xf8E8M0FNU> = [1, 1, 2, 5.87747175e-39, 5.87747175e-39, nan, nan, 2]

// arith.scaling_truncf with scale byte 0x7E (2^-1): x / 2^-1 = 2x rounded to
// f4E2M1FN. 0.5 -> 1; 1.25 -> 2.5, a tie of 2 (even) and 3; 0.625 -> 1.25,
// a tie of 1 (even) and 1.5; 100 -> 200 and Inf saturate to 6; -0.75 ->
// -1.5; NaN -> +0 (fp4 has no NaN); 0.1 -> 0.2 -> 0. to_nearest_away takes
// 3 and 1.5 at the ties.
// RUN: mx-run %s --backend=reference --entry=scaling_truncf_fp4 --arg=file:%t.fp4 --arg=fill:0x7e --print | FileCheck %s --check-prefix=FP4
// FP4: result #0 tensor<8xf4E2M1FN> = [1, 2, 1, 6, -1.5, 6, 0, 0]
// RUN: mx-run %s --backend=reference --entry=scaling_truncf_fp4_away --arg=file:%t.fp4 --arg=fill:0x7e --print | FileCheck %s --check-prefix=AWAY
// AWAY: result #0 tensor<8xf4E2M1FN> = [1, 3, 1.5, 6, -1.5, 6, 0, 0]

// An f32 scale is first truncated to E8M0 (its exponent): 3.0 -> 2^1, so
// x / 2; f8E4M3FN (3 mantissa bits): 0.5 -> 0.25, 1.25 -> 0.625, 0.625 ->
// 0.3125, -0.75 -> -0.375 (all exact); 100 -> 50 = 1.5625 x 2^5, a tie of
// 1.5 (even) and 1.625: 48; Inf saturates to 448; NaN is NaN (0x7f); 0.1 ->
// 0.05 = 1.6 x 2^-5 -> 1.625 x 2^-5 = 0.05078125.
// RUN: mx-run %s --backend=reference --entry=scaling_truncf_fp8_f32_scale --arg=file:%t.fp4 --arg=fill:3.0 --print | FileCheck %s --check-prefix=FP8
// FP8: result #0 tensor<8xf8E4M3FN> = [0.25, 0.625, 0.3125, 48, -0.375, 448, nan, 0.05078125]

// fp6 and E5M2 with scale 2^0. f6E2M3FN (max 7.5, subnormals in steps of
// 2^-3): 100 and Inf -> 7.5, NaN -> +0, 0.1 -> 0.125. f6E3M2FN (max 28,
// subnormals in steps of 2^-4): 100 -> 28, 0.1 (between 0.0625 and 0.125)
// -> 0.125. f8E5M2 (2 mantissa bits, max 57344, saturating as the OCP
// conversion does): 100 = 1.5625 x 2^6 -> 1.5 x 2^6 = 96, Inf -> 57344,
// NaN -> NaN, 0.1 = 1.6 x 2^-4 -> 1.5 x 2^-4 = 0.09375.
// RUN: mx-run %s --backend=reference --entry=scaling_truncf_others --arg=file:%t.fp4 --arg=fill:1 --print | FileCheck %s --check-prefix=OTHERS
// OTHERS: result #0 tensor<8xf6E2M3FN> = [0.5, 1.25, 0.625, 7.5, -0.75, 7.5, 0, 0.125]
// OTHERS: result #1 tensor<8xf6E3M2FN> = [0.5, 1.25, 0.625, 28, -0.75, 28, 0, 0.125]
// OTHERS: result #2 tensor<8xf8E5M2> = [0.5, 1.25, 0.625, 96, -0.75, 57344, nan, 0.09375]

// arith.truncf to MX element types rounds to nearest even as APFloat
// converts (upstream's folder): 100 -> E4M3FN 96 (1.5625 x 2^6, a tie of
// 1.5 and 1.625: even) and E5M2 96 (1.5625 -> 1.5); beyond the range IEEE
// overflow gives Inf, which E4M3FN lacks (NaN), while fp4 (finite only)
// saturates to 6; NaN -> NaN, or +0 for fp4 (no NaN code). Not OCP's
// saturating conversion: that is arith.scaling_truncf's.
// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<4f',100.0,1e6,1.25,float('nan')))" %t.trunc
// RUN: mx-run %s --backend=reference --entry=truncf_mx --arg=file:%t.trunc --print | FileCheck %s --check-prefix=TRUNC
// TRUNC: result #0 tensor<4xf4E2M1FN> = [6, 6, 1, 0]
// TRUNC-NEXT: result #1 tensor<4xf8E4M3FN> = [96, nan, 1.25, nan]
// TRUNC-NEXT: result #2 tensor<4xf8E5M2> = [96, inf, 1.25, nan]

// amax with arith.maxnumf ignores NaN (|x| = 1, NaN, 3, 2 -> 3);
// arith.maximumf propagates it.
// RUN: mx-run %s --backend=reference --entry=amax --arg=file:%t.amax --print | FileCheck %s --check-prefix=AMAX
// AMAX: result #0 tensor<1xf32> = [3]
// AMAX: result #1 tensor<1xf32> = [nan]

// cmpf + select (relu): ogt is false for NaN and -0.
// RUN: mx-run %s --backend=reference --entry=relu --arg=file:%t.relu --print | FileCheck %s --check-prefix=RELU
// RELU: result #0 tensor<4xf32> = [0, 2, 0, 0]

// arith.bitcast f8E8M0FNU <-> i8: bytes 0x7f, 0x80, 0xff, 0x00 are the i8
// 127, -128, -1, 0 and back.
// RUN: mx-run %s --backend=reference --entry=bitcasts --arg=file:%t.bytes --print | FileCheck %s --check-prefix=BITCAST
// BITCAST: result #0 tensor<4xi8> = [127, -128, -1, 0]
// BITCAST: result #1 tensor<4xf8E8M0FNU> = [1, 2, nan, 5.87747175e-39]

// A whole OCP quantization written upstream's way (amax per block of 32 with
// math.absf + arith.maxnumf, scale = truncf(amax) to E8M0 minus emax = 2 for
// fp4 on the i8 bits, arith.scaling_truncf to nearest-even) is the FLOOR
// rule of mx.quantize: on normal random data (amax normal, so the exponent
// is floor(log2(amax))) the evaluation of its body equals mx.quantize's
// (ref::quantize, code written apart from the scalar ops') bit for bit.
// RUN: mx-run %s --backend=reference --entry=upstream_quantize --seed=7 --arg=random:normal,std=3 --out=%t.q --out=%t.s
// RUN: mx-run %s --backend=reference --entry=mx_quantize --seed=7 --arg=random:normal,std=3 --expect=file:%t.q --expect=file:%t.s | FileCheck %s --check-prefix=OCP
// OCP: result #0 tensor<4x32xf4E2M1FN>: {{.*}} mismatches=0/128 (exact): bit-exact
// OCP-NEXT: result #1 tensor<4x1xf8E8M0FNU>: {{.*}} mismatches=0/4 (exact): bit-exact
// OCP-NEXT: PASS

// A wrong answer fails, naming the element: 0.5 / 2^-1 is 1 (code 0x2), not
// 0.5 (code 0x1), at [0].
// RUN: not mx-run %s --backend=reference --entry=scaling_truncf_fp4 --arg=file:%t.fp4 --arg=fill:0x7e --expect=fill:0.5 | FileCheck %s --check-prefix=WRONG
// WRONG: result #0 tensor<8xf4E2M1FN>: {{.*}} mismatches=8/8 (exact): FAIL
// WRONG-NEXT: at [0]: got 1 (0x2), want 0.5 (0x1)
// WRONG: FAIL

// Rounding modes other than the two of MX conversions are refused.
// RUN: not mx-run %s --backend=reference --entry=scaling_truncf_upward --arg=fill:1 --arg=fill:1 2>&1 | FileCheck %s --check-prefix=UPWARD
// UPWARD: error: reference evaluator: arith.scaling_truncf with rounding mode upward (expected to_nearest_even or to_nearest_away)

#id = affine_map<(d0) -> (d0)>

func.func @truncf_e8m0(%x: tensor<8xf32>) -> tensor<8xf8E8M0FNU> {
  %e = tensor.empty() : tensor<8xf8E8M0FNU>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf8E8M0FNU>) {
  ^bb0(%a: f32, %o: f8E8M0FNU):
    %s = arith.truncf %a : f32 to f8E8M0FNU
    linalg.yield %s : f8E8M0FNU
  } -> tensor<8xf8E8M0FNU>
  return %r : tensor<8xf8E8M0FNU>
}

func.func @exponent_bits(%x: tensor<8xf32>) -> tensor<8xf8E8M0FNU> {
  %e = tensor.empty() : tensor<8xf8E8M0FNU>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf8E8M0FNU>) {
  ^bb0(%a: f32, %o: f8E8M0FNU):
    %c23 = arith.constant 23 : i32
    %c255 = arith.constant 255 : i32
    %i = arith.bitcast %a : f32 to i32
    %sh = arith.shrui %i, %c23 : i32
    %m = arith.andi %sh, %c255 : i32
    %t = arith.trunci %m : i32 to i8
    %s = arith.bitcast %t : i8 to f8E8M0FNU
    linalg.yield %s : f8E8M0FNU
  } -> tensor<8xf8E8M0FNU>
  return %r : tensor<8xf8E8M0FNU>
}

func.func @truncf_e8m0_tensor(%x: tensor<8xf32>) -> tensor<8xf8E8M0FNU> {
  %r = arith.truncf %x : tensor<8xf32> to tensor<8xf8E8M0FNU>
  return %r : tensor<8xf8E8M0FNU>
}

func.func @scaling_truncf_fp4(%x: tensor<8xf32>, %s: tensor<8xf8E8M0FNU>) -> tensor<8xf4E2M1FN> {
  %e = tensor.empty() : tensor<8xf4E2M1FN>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<8xf32>, tensor<8xf8E8M0FNU>) outs(%e : tensor<8xf4E2M1FN>) {
  ^bb0(%a: f32, %b: f8E8M0FNU, %o: f4E2M1FN):
    %q = arith.scaling_truncf %a, %b : f32, f8E8M0FNU to f4E2M1FN
    linalg.yield %q : f4E2M1FN
  } -> tensor<8xf4E2M1FN>
  return %r : tensor<8xf4E2M1FN>
}

func.func @scaling_truncf_fp4_away(%x: tensor<8xf32>, %s: tensor<8xf8E8M0FNU>) -> tensor<8xf4E2M1FN> {
  %r = arith.scaling_truncf %x, %s to_nearest_away : tensor<8xf32>, tensor<8xf8E8M0FNU> to tensor<8xf4E2M1FN>
  return %r : tensor<8xf4E2M1FN>
}

func.func @scaling_truncf_fp8_f32_scale(%x: tensor<8xf32>, %s: tensor<8xf32>) -> tensor<8xf8E4M3FN> {
  %e = tensor.empty() : tensor<8xf8E4M3FN>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf8E4M3FN>) {
  ^bb0(%a: f32, %b: f32, %o: f8E4M3FN):
    %q = arith.scaling_truncf %a, %b : f32, f32 to f8E4M3FN
    linalg.yield %q : f8E4M3FN
  } -> tensor<8xf8E4M3FN>
  return %r : tensor<8xf8E4M3FN>
}

func.func @scaling_truncf_others(%x: tensor<8xf32>, %s: tensor<8xf8E8M0FNU>)
    -> (tensor<8xf6E2M3FN>, tensor<8xf6E3M2FN>, tensor<8xf8E5M2>) {
  %a = arith.scaling_truncf %x, %s : tensor<8xf32>, tensor<8xf8E8M0FNU> to tensor<8xf6E2M3FN>
  %b = arith.scaling_truncf %x, %s : tensor<8xf32>, tensor<8xf8E8M0FNU> to tensor<8xf6E3M2FN>
  %c = arith.scaling_truncf %x, %s : tensor<8xf32>, tensor<8xf8E8M0FNU> to tensor<8xf8E5M2>
  return %a, %b, %c : tensor<8xf6E2M3FN>, tensor<8xf6E3M2FN>, tensor<8xf8E5M2>
}

func.func @amax(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, affine_map<(d0) -> (0)>, affine_map<(d0) -> (0)>],
                         iterator_types = ["reduction"]}
      ins(%x : tensor<4xf32>) outs(%init, %init : tensor<1xf32>, tensor<1xf32>) {
  ^bb0(%a: f32, %m: f32, %n: f32):
    %abs = math.absf %a : f32
    %0 = arith.maxnumf %m, %abs : f32
    %1 = arith.maximumf %n, %abs : f32
    linalg.yield %0, %1 : f32, f32
  } -> (tensor<1xf32>, tensor<1xf32>)
  return %r#0, %r#1 : tensor<1xf32>, tensor<1xf32>
}

func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a, %zero : f32
    %s = arith.select %c, %a, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @bitcasts(%x: tensor<4xf8E8M0FNU>) -> (tensor<4xi8>, tensor<4xf8E8M0FNU>) {
  %e = tensor.empty() : tensor<4xi8>
  %i = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf8E8M0FNU>) outs(%e : tensor<4xi8>) {
  ^bb0(%a: f8E8M0FNU, %o: i8):
    %b = arith.bitcast %a : f8E8M0FNU to i8
    linalg.yield %b : i8
  } -> tensor<4xi8>
  %back = arith.bitcast %i : tensor<4xi8> to tensor<4xf8E8M0FNU>
  return %i, %back : tensor<4xi8>, tensor<4xf8E8M0FNU>
}

func.func @scaling_truncf_upward(%x: tensor<8xf32>, %s: tensor<8xf8E8M0FNU>) -> tensor<8xf4E2M1FN> {
  %r = arith.scaling_truncf %x, %s upward : tensor<8xf32>, tensor<8xf8E8M0FNU> to tensor<8xf4E2M1FN>
  return %r : tensor<8xf4E2M1FN>
}

func.func @upstream_quantize(%x: tensor<4x32xf32>) -> (tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %amax = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x32xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32):
    %abs = math.absf %a : f32
    %max = arith.maxnumf %m, %abs : f32
    linalg.yield %max : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x1xf8E8M0FNU>
  %scales = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%amax : tensor<4xf32>) outs(%e1 : tensor<4x1xf8E8M0FNU>) {
  ^bb0(%a: f32, %o: f8E8M0FNU):
    %emax = arith.constant 2 : i8
    %t = arith.truncf %a : f32 to f8E8M0FNU
    %i = arith.bitcast %t : f8E8M0FNU to i8
    %d = arith.subi %i, %emax : i8
    %s = arith.bitcast %d : i8 to f8E8M0FNU
    linalg.yield %s : f8E8M0FNU
  } -> tensor<4x1xf8E8M0FNU>
  %e2 = tensor.empty() : tensor<4x32xf4E2M1FN>
  %q = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %scales : tensor<4x32xf32>, tensor<4x1xf8E8M0FNU>) outs(%e2 : tensor<4x32xf4E2M1FN>) {
  ^bb0(%a: f32, %s: f8E8M0FNU, %o: f4E2M1FN):
    %v = arith.scaling_truncf %a, %s : f32, f8E8M0FNU to f4E2M1FN
    linalg.yield %v : f4E2M1FN
  } -> tensor<4x32xf4E2M1FN>
  return %q, %scales : tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>
}

func.func @mx_quantize(%x: tensor<4x32xf32>) -> (tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>) {
  %e, %s = mx.quantize %x axis(1) scale(floor) rounding(nearest_even)
      : tensor<4x32xf32> -> tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>
  return %e, %s : tensor<4x32xf4E2M1FN>, tensor<4x1xf8E8M0FNU>
}

func.func @truncf_mx(%x: tensor<4xf32>) -> (tensor<4xf4E2M1FN>, tensor<4xf8E4M3FN>, tensor<4xf8E5M2>) {
  %0 = arith.truncf %x : tensor<4xf32> to tensor<4xf4E2M1FN>
  %1 = arith.truncf %x : tensor<4xf32> to tensor<4xf8E4M3FN>
  %2 = arith.truncf %x : tensor<4xf32> to tensor<4xf8E5M2>
  return %0, %1, %2 : tensor<4xf4E2M1FN>, tensor<4xf8E4M3FN>, tensor<4xf8E5M2>
}
