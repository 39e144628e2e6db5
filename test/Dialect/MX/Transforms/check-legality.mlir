// RUN: mx-opt %s -split-input-file -verify-diagnostics \
// RUN:   --mx-check-legality="pipeline=p stage=input illegal-dialects=gpu illegal-ops=arith.scaling_truncf mx-element-computations=true hint=why" \
// RUN:   | FileCheck %s --check-prefix=INPUT

// A legal program is left as it is.
// INPUT-LABEL: func.func @legal
// INPUT: arith.addf
func.func @legal(%a: f32) -> f32 {
  %r = arith.addf %a, %a : f32
  return %r : f32
}

// -----

// An illegal op by name, with the hint as a note.
func.func @scaling_truncf(%a: f32, %s: f8E8M0FNU) -> f4E2M1FN {
  // expected-error @below {{p (input): 'arith.scaling_truncf' cannot be lowered by p}}
  // expected-note @below {{why}}
  %r = arith.scaling_truncf %a, %s : f32, f8E8M0FNU to f4E2M1FN
  return %r : f4E2M1FN
}

// -----

// An illegal dialect; the ops inside an illegal op are not reported again.
module attributes {gpu.container_module} {
  // expected-error @below {{p (input): 'gpu.module' belongs to the 'gpu' dialect, which p does not take here}}
  // expected-note @below {{why}}
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Computations on MX element values (here f8E8M0FNU) outside mx ops; a
// bitcast and a select of them only move bits. Only the first op of each
// name is reported.
func.func @mx_values(%a: f32, %b: f32, %c: i1) -> (i8, f8E8M0FNU) {
  // expected-error @below {{p (input): 'arith.truncf' computes on f8E8M0FNU values outside mx ops, which p cannot lower}}
  // expected-note @below {{why}}
  %e = arith.truncf %a : f32 to f8E8M0FNU
  %f = arith.truncf %b : f32 to f8E8M0FNU
  %s = arith.select %c, %e, %f : f8E8M0FNU
  %i = arith.bitcast %e : f8E8M0FNU to i8
  return %i, %s : i8, f8E8M0FNU
}
