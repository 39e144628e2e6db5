// Command-line mistakes get one clear error line and exit code 2.

// RUN: %python %S/Inputs/exit_code.py mx-run 2>&1 | FileCheck %s --check-prefix=NO-INPUT
// NO-INPUT: mx-run: error: no input file (usage: mx-run FILE.mlir --arg=SPEC ...; see --help)
// NO-INPUT-NEXT: exit code 2

// RUN: %python %S/Inputs/exit_code.py mx-run %s --frobnicate | FileCheck %s --check-prefix=UNKNOWN-OPTION
// UNKNOWN-OPTION: Unknown command line argument '--frobnicate'
// UNKNOWN-OPTION: exit code 2

// RUN: %python %S/Inputs/exit_code.py mx-run %S/Inputs/does-not-exist.mlir --arg=zeros | FileCheck %s --check-prefix=MISSING
// MISSING: mx-run: error: cannot read the input '{{.*}}does-not-exist.mlir': No such file or directory
// MISSING-NEXT: exit code 2

// RUN: %python %S/Inputs/exit_code.py mx-run %S/Inputs/garbage.txt --arg=zeros | FileCheck %s --check-prefix=PARSE
// PARSE: garbage.txt:1:1: error: custom op 'this' is unknown
// PARSE: exit code 2

// RUN: not mx-run %s --backend=gfx950 --arg=zeros --arg=zeros 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: mx-run: error: unknown backend 'gfx950' (available: cpu, gfx950-emu, gfx950-isa, hip, reference)
// RUN: not mx-run %s --compare=golden --arg=zeros --arg=zeros 2>&1 | FileCheck %s --check-prefix=COMPARE
// COMPARE: mx-run: error: unknown --compare value 'golden' (expected 'reference')
// RUN: not mx-run %s --rtol=-1 --arg=zeros --arg=zeros 2>&1 | FileCheck %s --check-prefix=TOLERANCE
// TOLERANCE: mx-run: error: --rtol, --atol and --sum-tol must be finite and non-negative
// RUN: not mx-run %s --opt-level=4 --arg=zeros --arg=zeros 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: mx-run: error: --opt-level must be 0, 1, 2 or 3

// The same --out path twice would write one result over another (issue 37).
// RUN: not mx-run %s --arg=zeros --arg=zeros --out=%t.same --out=%t.same 2>&1 | FileCheck %s --check-prefix=SAME-OUT
// SAME-OUT: mx-run: error: --out #1 '{{.*}}.same' names the file of --out #0 (each result needs a file of its own)
// RUN: rm -rf %t.dir && mkdir -p %t.dir && touch %t.dir/out
// RUN: not mx-run %s --arg=zeros --arg=zeros --out=%t.dir/out --out=%t.dir/./out 2>&1 | FileCheck %s --check-prefix=SAME-FILE
// SAME-FILE: mx-run: error: --out #1 '{{.*}}/./out' names the file of --out #0

// Counts of --arg, --out and --expect.
// RUN: not mx-run %s --arg=zeros 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: mx-run: error: @two_in_one_out takes 2 argument(s) but 1 --arg option(s) were given
// RUN: not mx-run %s --arg=zeros --arg=zeros --arg=zeros 2>&1 | FileCheck %s --check-prefix=ARGS3
// ARGS3: mx-run: error: @two_in_one_out takes 2 argument(s) but 3 --arg option(s) were given
// RUN: not mx-run %s --arg=zeros --arg=zeros --out=%t.a --out=%t.b 2>&1 | FileCheck %s --check-prefix=OUTS
// OUTS: mx-run: error: @two_in_one_out has 1 result(s) but 2 --out option(s) were given
// RUN: not mx-run %s --arg=zeros --arg=zeros --expect=zeros --expect=zeros 2>&1 | FileCheck %s --check-prefix=EXPECTS
// EXPECTS: mx-run: error: @two_in_one_out has 1 result(s) but 2 --expect option(s) were given

// Malformed SPECs name the option and the problem.
// RUN: not mx-run %s --arg=zeros --arg=ones 2>&1 | FileCheck %s --check-prefix=SPEC1
// SPEC1: mx-run: error: --arg #1: malformed argument spec 'ones' (expected file:PATH, npy:PATH, random:KIND[,key=value...], zeros or fill:VALUE)
// RUN: not mx-run %s --arg=zeros --arg=bin:x 2>&1 | FileCheck %s --check-prefix=SPEC2
// SPEC2: mx-run: error: --arg #1: unknown argument spec kind 'bin' in 'bin:x' (expected file:PATH, npy:PATH, random:KIND[,key=value...], zeros or fill:VALUE)
// RUN: not mx-run %s --arg=random:gaussian --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC3
// SPEC3: mx-run: error: --arg #0: unknown random kind 'gaussian' in 'random:gaussian' (expected uniform, normal, int, codes or scales)
// RUN: not mx-run %s --arg=random:uniform,mean=3 --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC4
// SPEC4: mx-run: error: --arg #0: unknown key 'mean' for random:uniform in 'random:uniform,mean=3' (expected lo, hi, specials, seed)
// RUN: not mx-run %s --arg=random:int,lo=1,hi=x --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC5
// SPEC5: mx-run: error: --arg #0: malformed number 'x' for 'hi' in 'random:int,lo=1,hi=x'
// RUN: not mx-run %s --arg=random:uniform,lo=3,hi=1 --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC6
// SPEC6: mx-run: error: --arg #0: lo (3) is greater than hi (1) in 'random:uniform,lo=3,hi=1'
// RUN: not mx-run %s --arg=fill:one --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC7
// SPEC7: mx-run: error: --arg #0: malformed fill value 'one' in 'fill:one' (expected a number within the range of f64, or 0xHEX bits)
// A number past the range of f64 is not infinity (issue 37); "inf" is.
// RUN: not mx-run %s --arg=fill:1e400 --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC-RANGE
// SPEC-RANGE: mx-run: error: --arg #0: malformed fill value '1e400' in 'fill:1e400' (expected a number within the range of f64, or 0xHEX bits)
// RUN: not mx-run %s --arg=fill:-1e400 --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC-RANGE-NEG
// SPEC-RANGE-NEG: mx-run: error: --arg #0: malformed fill value '-1e400' in 'fill:-1e400'
// RUN: not mx-run %s --arg=random:uniform,lo=0,hi=1e400 --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC-RANGE-KEY
// SPEC-RANGE-KEY: mx-run: error: --arg #0: malformed number '1e400' for 'hi' in 'random:uniform,lo=0,hi=1e400'
// RUN: mx-run %s --arg=fill:inf --arg=fill:1 --print | FileCheck %s --check-prefix=INF
// INF: result #0{{.*}}inf
// RUN: not mx-run %s --arg=file: --arg=zeros 2>&1 | FileCheck %s --check-prefix=SPEC8
// SPEC8: mx-run: error: --arg #0: missing path in 'file:'
// RUN: not mx-run %s --arg=zeros --arg=zeros --expect=random:uniform 2>&1 | FileCheck %s --check-prefix=SPEC9
// SPEC9: mx-run: error: --expect #0: 'random:uniform' is random; expected file:PATH, npy:PATH, zeros or fill:VALUE
// RUN: not mx-run %s --arg=zeros --arg=zeros --expect=npy 2>&1 | FileCheck %s --check-prefix=SPEC10
// SPEC10: mx-run: error: --expect #0: malformed argument spec 'npy'

func.func @two_in_one_out(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
