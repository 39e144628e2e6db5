// mx-opt must reject malformed input with a diagnostic and a non-zero exit
// code, never crash (`not` fails on a crash; `not --crash` would be needed).

// RUN: not mx-opt %S/Inputs/garbage.txt 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: garbage.txt:1:1: error: custom op 'this' is unknown

// RUN: not mx-opt %S/Inputs/truncated.txt 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: truncated.txt:11:38: error: expected ')' in dimensional identifier list

// RUN: not mx-opt %S/Inputs/binary.bin 2>&1 | FileCheck %s --check-prefix=BINARY
// BINARY: binary.bin:1:1: error: unexpected character

// RUN: not mx-opt %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: mx-opt: error: cannot read the input '{{.*}}does-not-exist.mlir': No such file or directory

// Only a regular file (or standard input) is read (issue 37): a device would
// be read without end and a FIFO without a writer blocks; both are refused
// before opening. (`timeout` fails the test instead of hanging.)
// RUN: not mx-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: mx-opt: error: cannot read the input '/dev/zero': not a regular file (a device, a FIFO or a directory has no size to check before reading)
// RUN: rm -f %t.fifo && mkfifo %t.fifo
// RUN: timeout 60 not mx-opt %t.fifo 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: mx-opt: error: cannot read the input '{{.*}}.fifo': not a regular file
// RUN: not mx-opt - < %S/Inputs/garbage.txt 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>:1:1: error: custom op 'this' is unknown

// RUN: not mx-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// UNKNOWN: error: custom op 'mx.frobnicate' is unknown
func.func @unknown_custom_op(%x: tensor<4xf32>) {
  mx.frobnicate %x : tensor<4xf32>
  return
}

// -----

// UNKNOWN: error: unregistered operation 'mx.frobnicate' found in dialect ('mx') that does not allow unknown operations
"mx.frobnicate"() : () -> ()

// -----

// UNKNOWN: error: operation being parsed with an unregistered dialect
"nope.op"() : () -> ()

// -----

// UNKNOWN: error: 'mx.quantize' op requires attribute 'axis'
func.func @missing_attribute(%x: tensor<4x64xf32>) {
  %e, %s = "mx.quantize"(%x) <{rounding = 0 : i32, scale = 0 : i32}> : (tensor<4x64xf32>) -> (tensor<4x64xf4E2M1FN>, tensor<4x2xf8E8M0FNU>)
  return
}

// -----

// UNKNOWN: error: 'mx.scaled_contraction' op expected 5 operands, but found 2
func.func @wrong_operand_count(%a: tensor<16x64xf4E2M1FN>, %c: tensor<16x16xf32>) {
  %r = "mx.scaled_contraction"(%a, %c) <{indexing_maps = []}> : (tensor<16x64xf4E2M1FN>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}
