// Each transform.mx.gfx950.* op calls the function its pass drives: run on
// the pass's own test input, a script of the op gives the pass's IR exactly.
//
// RUN: mx-opt %S/../Transforms/quantize-in-gemm.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/quantize-in-gemm-schedule.mlir" --transform-interpreter > %t.qig.transform
// RUN: mx-opt %S/../Transforms/quantize-in-gemm.mlir -split-input-file --pass-pipeline='builtin.module(func.func(mx-gfx950-quantize-in-gemm))' > %t.qig.passes
// RUN: diff %t.qig.passes %t.qig.transform
// RUN: FileCheck %s --check-prefix=QIG < %t.qig.transform
//
// RUN: mx-opt %S/../Transforms/reserve-accumulator-agprs.mlir --transform-preload-library="transform-library-paths=%p/Inputs/reserve-accumulator-agprs-schedule.mlir" --transform-interpreter > %t.agprs.transform
// RUN: mx-opt %S/../Transforms/reserve-accumulator-agprs.mlir --pass-pipeline='builtin.module(gpu.module(mx-gfx950-reserve-accumulator-agprs))' > %t.agprs.passes
// RUN: diff %t.agprs.passes %t.agprs.transform
// RUN: FileCheck %s --check-prefix=AGPRS < %t.agprs.transform
//
// RUN: mx-opt %S/../Transforms/lds-copy-alias-scopes.mlir --transform-preload-library="transform-library-paths=%p/Inputs/lds-copy-alias-scopes-schedule.mlir" --transform-interpreter > %t.scopes.transform
// RUN: mx-opt %S/../Transforms/lds-copy-alias-scopes.mlir --pass-pipeline='builtin.module(gpu.module(mx-gfx950-lds-copy-alias-scopes))' > %t.scopes.passes
// RUN: diff %t.scopes.passes %t.scopes.transform
// RUN: FileCheck %s --check-prefix=SCOPES < %t.scopes.transform

// The scripts did rewrite (the diffs alone would pass if neither did):
// QIG: in_consumer
// AGPRS: amdgpu-agpr-alloc
// SCOPES: description = "copies to LDS"
