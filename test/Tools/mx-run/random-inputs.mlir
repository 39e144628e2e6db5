// random: arguments: the generated values are checked by an independent
// script (Inputs/check_outputs.py) after a round trip through the program and
// --out, and the data are deterministic for a given seed.

// DEFINE: %{args} = --arg=random:int,lo=-3,hi=3 --arg=random:int,lo=-2,hi=4 --arg=random:scales --arg=random:int,lo=-100,hi=100
// DEFINE: %{expect} = --expect=file:%t/a.bin --expect=file:%t/b.bin --expect=file:%t/s.bin --expect=file:%t/i.bin
// DEFINE: %{seeded} = --arg=random:uniform,lo=-4,hi=4,specials=0.1,seed=11 --arg=random:normal,std=3,seed=12 --arg=random:codes,seed=13 --arg=random:uniform,lo=-50,hi=50,seed=14

// RUN: rm -rf %t && mkdir -p %t
// RUN: mx-run %s --seed=3 %{args} --out=%t/a.bin --out=%t/b.bin --out=%t/s.bin --out=%t/i.bin
// RUN: %python %S/Inputs/check_outputs.py random %t | FileCheck %s --check-prefix=VALUES

// VALUES: ok: f32 integers in [-3, 3]
// VALUES: ok: f32 covers all 7 integers
// VALUES: ok: fp4 file has 256 bytes (two codes per byte)
// VALUES: ok: fp4 values are integers in [-2, 4]
// VALUES: ok: scales in [120, 134]
// VALUES: ok: neighbouring scales differ
// VALUES: ok: i8 values spread over [-100, 100]
// VALUES-NOT: BAD

// The same seed gives the same data; another seed does not.
// RUN: mx-run %s --seed=3 %{args} %{expect} | FileCheck %s --check-prefix=SAME
// RUN: not mx-run %s --seed=4 %{args} %{expect} | FileCheck %s --check-prefix=OTHER

// SAME-COUNT-4: : bit-exact
// SAME: PASS
// OTHER: result #0 tensor<16x16xf32>: {{.*}}: FAIL
// OTHER: FAIL

// An explicit seed= does not depend on --seed.
// RUN: mx-run %s --seed=1 %{seeded} --out=%t/n.bin --out=%t/u.bin --out=%t/c.bin --out=%t/x.bin
// RUN: mx-run %s --seed=2 %{seeded} --expect=file:%t/n.bin --expect=file:%t/u.bin --expect=file:%t/c.bin \
// RUN:   --expect=file:%t/x.bin | FileCheck %s --check-prefix=SAME

func.func @echo(%a: tensor<16x16xf32>, %b: tensor<8x64xf4E2M1FN>, %s: tensor<8x2xf8E8M0FNU>, %i: tensor<64xi8>)
    -> (tensor<16x16xf32>, tensor<8x64xf4E2M1FN>, tensor<8x2xf8E8M0FNU>, tensor<64xi8>) {
  return %a, %b, %s, %i : tensor<16x16xf32>, tensor<8x64xf4E2M1FN>, tensor<8x2xf8E8M0FNU>, tensor<64xi8>
}
