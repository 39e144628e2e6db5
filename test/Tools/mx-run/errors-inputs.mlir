// Argument data that cannot be used: the error names the option, the
// argument, its type and the problem, and mx-run exits with code 2.

// RUN: %python %S/Inputs/make_data.py %t

// RUN: %python %S/Inputs/exit_code.py mx-run %s --arg=file:%t/missing.bin --arg=zeros | FileCheck %s --check-prefix=MISSING
// MISSING: mx-run: error: --arg #0 for argument #0 of @f (tensor<4x8xf32>): cannot read the file '{{.*}}missing.bin': No such file or directory
// MISSING-NEXT: exit code 2
// RUN: not mx-run %s --arg=file:%t --arg=zeros 2>&1 | FileCheck %s --check-prefix=DIRECTORY
// DIRECTORY: mx-run: error: --arg #0 for argument #0 of @f (tensor<4x8xf32>): cannot read the file '{{.*}}': not a regular file

// The size of a raw file is known (4 x 8 x 4 bytes; 4 x 64 fp4 elements, two
// per byte): checked before it is read.
// RUN: not mx-run %s --arg=file:%t/short.bin --arg=zeros 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: mx-run: error: --arg #0 for argument #0 of @f (tensor<4x8xf32>): cannot read the file '{{.*}}short.bin': the file has 100 bytes, expected 128
// RUN: not mx-run %s --arg=zeros --arg=file:%t/short.bin 2>&1 | FileCheck %s --check-prefix=SIZE-FP4
// SIZE-FP4: mx-run: error: --arg #1 for argument #1 of @f (tensor<4x64xf4E2M1FN>): cannot read the file '{{.*}}short.bin': the file has 100 bytes, expected 128

// Only regular files are read (issue 37): a device would be read without end
// and a FIFO without a writer blocks; both are refused before opening, and
// so is such an input program. (`timeout` fails the test instead of hanging.)
// RUN: not mx-run %s --arg=file:/dev/zero --arg=zeros 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: mx-run: error: --arg #0 for argument #0 of @f (tensor<4x8xf32>): cannot read the file '/dev/zero': not a regular file (a device, a FIFO or a directory has no size to check before reading)
// RUN: not mx-run %s --arg=zeros --arg=npy:/dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE-NPY
// DEVICE-NPY: mx-run: error: --arg #1 for argument #1 of @f (tensor<4x64xf4E2M1FN>): cannot read the file '/dev/zero': not a regular file
// RUN: rm -f %t.fifo && mkfifo %t.fifo
// RUN: timeout 60 not mx-run %s --arg=file:%t.fifo --arg=zeros 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: mx-run: error: --arg #0 for argument #0 of @f (tensor<4x8xf32>): cannot read the file '{{.*}}.fifo': not a regular file
// RUN: timeout 60 not mx-run %s --arg=zeros --arg=zeros --expect=npy:%t.fifo 2>&1 | FileCheck %s --check-prefix=FIFO-EXPECT
// FIFO-EXPECT: mx-run: error: --expect #0 for result #0 of @f (tensor<4x8xf32>): cannot read the file '{{.*}}.fifo': not a regular file
// RUN: timeout 60 not mx-run %t.fifo --arg=zeros 2>&1 | FileCheck %s --check-prefix=FIFO-INPUT
// FIFO-INPUT: mx-run: error: cannot read the input '{{.*}}.fifo': not a regular file
// RUN: not mx-run /dev/zero --arg=zeros 2>&1 | FileCheck %s --check-prefix=DEVICE-INPUT
// DEVICE-INPUT: mx-run: error: cannot read the input '/dev/zero': not a regular file
// A .npy file is read up to 8 bytes per element (the widest dtype) and a 1 MiB
// header: 4 x 8 x 8 + 1048576 = 1048832 bytes for tensor<4x8xf32>.
// RUN: rm -f %t.big.npy && truncate -s 1048833 %t.big.npy
// RUN: not mx-run %s --arg=npy:%t.big.npy --arg=zeros 2>&1 | FileCheck %s --check-prefix=NPY-LARGE
// NPY-LARGE: mx-run: error: --arg #0 for argument #0 of @f (tensor<4x8xf32>): cannot read the file '{{.*}}big.npy': the file has 1048833 bytes, more than the 1048832 read

// RUN: not mx-run %s --arg=npy:%t/garbage.npy --arg=zeros 2>&1 | FileCheck %s --check-prefix=NPY-MAGIC
// NPY-MAGIC: mx-run: error: --arg #0 for argument #0 of @f (tensor<4x8xf32>): npy file '{{.*}}garbage.npy': not a .npy file (bad magic string)
// RUN: not mx-run %s --arg=npy:%t/f8.npy --arg=zeros 2>&1 | FileCheck %s --check-prefix=NPY-DTYPE
// NPY-DTYPE: npy file '{{.*}}f8.npy': dtype '<f8' does not match tensor<4x8xf32> (expected '<f4')
// RUN: not mx-run %s --arg=npy:%t/wrong_shape.npy --arg=zeros 2>&1 | FileCheck %s --check-prefix=NPY-SHAPE
// NPY-SHAPE: npy file '{{.*}}wrong_shape.npy': shape (8, 4) does not match tensor<4x8xf32> (expected (4, 8))
// RUN: not mx-run %s --arg=zeros --arg=npy:%t/fp4_codes.npy 2>&1 | FileCheck %s --check-prefix=NPY-CODES-SHAPE
// NPY-CODES-SHAPE: npy file '{{.*}}fp4_codes.npy': shape (2, 64) does not match tensor<4x64xf4E2M1FN> (expected (4, 64) with one code per element, or packed codes of shape (4, 32) or (128,))
// RUN: not mx-run %S/Inputs/codes.txt --arg=npy:%t/bad_codes.npy 2>&1 | FileCheck %s --check-prefix=NPY-CODES
// NPY-CODES: npy file '{{.*}}bad_codes.npy': code 0x10 at index [0, 0] does not fit in 4 bits

// Values the element type cannot hold, generators that do not fit the type.
// RUN: not mx-run %s --arg=zeros --arg=fill:0x10 2>&1 | FileCheck %s --check-prefix=FILL-BITS
// FILL-BITS: --arg #1 for argument #1 of @f (tensor<4x64xf4E2M1FN>): fill bits 0x10 do not fit in the 4 bits of f4E2M1FN
// RUN: not mx-run %s --arg=zeros --arg=fill:nan 2>&1 | FileCheck %s --check-prefix=FILL-NAN
// FILL-NAN: --arg #1 for argument #1 of @f (tensor<4x64xf4E2M1FN>): fill value nan is not representable in f4E2M1FN
// RUN: not mx-run %s --arg=random:codes --arg=zeros 2>&1 | FileCheck %s --check-prefix=CODES
// CODES: --arg #0 for argument #0 of @f (tensor<4x8xf32>): random:codes needs an MX element type or f8E8M0FNU, not tensor<4x8xf32>
// RUN: not mx-run %s --arg=zeros --arg=random:scales 2>&1 | FileCheck %s --check-prefix=SCALES
// SCALES: --arg #1 for argument #1 of @f (tensor<4x64xf4E2M1FN>): random:scales needs element type f8E8M0FNU, not tensor<4x64xf4E2M1FN>
// RUN: not mx-run %s --arg=zeros --arg=random:int,lo=5,hi=5 2>&1 | FileCheck %s --check-prefix=INT
// INT: --arg #1 for argument #1 of @f (tensor<4x64xf4E2M1FN>): random:int: no f4E2M1FN value is an integer in [5, 5]
// RUN: not mx-run %s --arg=random:int,lo=0,hi=1e9 --arg=zeros 2>&1 | FileCheck %s --check-prefix=INT-RANGE
// INT-RANGE: random:int range [0, 1000000000] is not exactly representable in f32 (integers up to 16777216)
// RUN: not mx-run %s --arg=zeros --arg=random:uniform,specials=0.1 2>&1 | FileCheck %s --check-prefix=SPECIALS
// SPECIALS: specials= is only supported for f16, bf16, f32 and f64 tensors, not tensor<4x64xf4E2M1FN>

// An --expect file is checked against the result type the same way.
// RUN: not mx-run %s --arg=zeros --arg=zeros --expect=file:%t/short.bin 2>&1 | FileCheck %s --check-prefix=EXPECT
// EXPECT: mx-run: error: --expect #0 for result #0 of @f (tensor<4x8xf32>): cannot read the file '{{.*}}short.bin': the file has 100 bytes, expected 128

// RUN: not mx-run %s --arg=zeros --arg=zeros --out=%t/no/such/dir/out.bin 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: mx-run: error: --out #0: cannot write '{{.*}}out.bin': No such file or directory

func.func @f(%x: tensor<4x8xf32>, %c: tensor<4x64xf4E2M1FN>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
