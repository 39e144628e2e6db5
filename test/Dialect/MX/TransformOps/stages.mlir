// Each transform.mx.* op calls the function its pass drives: run on the
// pass's own test input, a script of the op gives the pass's IR exactly
// (and the same remarks, which -verify-diagnostics checks where the pass
// test expects them).
//
// RUN: mx-opt %S/../Transforms/split-k.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/split-k-schedule.mlir" --transform-interpreter > %t.split-k.transform
// RUN: mx-opt %S/../Transforms/split-k.mlir -split-input-file --mx-split-k="target=#mx_gfx950.target<split_k=2>" > %t.split-k.passes
// RUN: diff %t.split-k.passes %t.split-k.transform
// RUN: FileCheck %s --check-prefix=SPLIT-K < %t.split-k.transform
//
// RUN: mx-opt %S/../Transforms/fuse-quantize-relayouts.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/fuse-quantize-relayouts-schedule.mlir" --transform-interpreter > %t.fqr.transform
// RUN: mx-opt %S/../Transforms/fuse-quantize-relayouts.mlir -split-input-file --mx-set-encodings --mx-materialize-encodings="target=#mx_gfx950.target<require_ukernel=true>" --mx-fuse-quantize-relayouts > %t.fqr.passes
// RUN: diff %t.fqr.passes %t.fqr.transform
// RUN: FileCheck %s --check-prefix=FQR < %t.fqr.transform
//
// RUN: mx-opt %S/../Transforms/fuse-epilogues.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/fuse-epilogues-schedule.mlir" --transform-interpreter -verify-diagnostics > %t.epilogues.transform
// RUN: mx-opt %S/../Transforms/fuse-epilogues.mlir -split-input-file --mx-fuse-epilogues -verify-diagnostics > %t.epilogues.passes
// RUN: diff %t.epilogues.passes %t.epilogues.transform
// RUN: FileCheck %s --check-prefix=EPILOGUE < %t.epilogues.transform
//
// RUN: mx-opt %S/../Transforms/fuse-relayouts.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/fuse-relayouts-schedule.mlir" --transform-interpreter > %t.relayouts.transform
// RUN: mx-opt %S/../Transforms/fuse-relayouts.mlir -split-input-file --mx-fuse-relayouts > %t.relayouts.passes
// RUN: diff %t.relayouts.passes %t.relayouts.transform
// RUN: FileCheck %s --check-prefix=RELAYOUTS < %t.relayouts.transform

// The scripts did rewrite (the diffs alone would pass if neither did):
// SPLIT-K: mx.split_k
// FQR: mx.quantize_into
// EPILOGUE: mx.tiled_scaled_mma {{.*}}epilogue
// RELAYOUTS: linalg.generic
// RELAYOUTS-NOT: tensor.expand_shape
