// Each transform.mx.* op (and transform.apply_patterns.mx.* pattern set)
// calls the function its pass drives: run on the
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
//
// RUN: mx-opt %S/../Transforms/specialize-dynamic-m.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/specialize-dynamic-m-schedule.mlir" --transform-interpreter > %t.dynm.transform
// RUN: mx-opt %S/../Transforms/specialize-dynamic-m.mlir -split-input-file --mx-specialize-dynamic-m="target=#mx_gfx950.target<require_ukernel=true>" > %t.dynm.passes
// RUN: diff %t.dynm.passes %t.dynm.transform
// RUN: FileCheck %s --check-prefix=DYNAMIC-M < %t.dynm.transform
//
// RUN: mx-opt %S/../Transforms/pack-to-bytes.mlir --transform-preload-library="transform-library-paths=%p/Inputs/pack-to-bytes-schedule.mlir" --transform-interpreter > %t.bytes.transform
// RUN: mx-opt %S/../Transforms/pack-to-bytes.mlir --mx-pack-to-bytes > %t.bytes.passes
// RUN: diff %t.bytes.passes %t.bytes.transform
// RUN: FileCheck %s --check-prefix=BYTES < %t.bytes.transform
//
// RUN: mx-opt %S/../../../Transforms/lower-relayouts.mlir --transform-preload-library="transform-library-paths=%p/Inputs/lower-relayouts-schedule.mlir" --transform-interpreter --canonicalize > %t.lower.transform
// RUN: mx-opt %S/../../../Transforms/lower-relayouts.mlir --mx-lower-relayouts --canonicalize > %t.lower.passes
// RUN: diff %t.lower.passes %t.lower.transform
// RUN: FileCheck %s --check-prefix=LOWER < %t.lower.transform
//
// RUN: mx-opt %S/../../../Transforms/memref-copy-to-linalg.mlir --transform-preload-library="transform-library-paths=%p/Inputs/memref-copy-to-linalg-schedule.mlir" --transform-interpreter > %t.copy.transform
// RUN: mx-opt %S/../../../Transforms/memref-copy-to-linalg.mlir --mx-memref-copy-to-linalg > %t.copy.passes
// RUN: diff %t.copy.passes %t.copy.transform
// RUN: FileCheck %s --check-prefix=COPY < %t.copy.transform
//
// RUN: mx-opt %S/../../../Conversion/MXToLinalg/mx-to-linalg.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/mx-to-linalg-schedule.mlir" --transform-interpreter > %t.cpu.transform
// RUN: mx-opt %S/../../../Conversion/MXToLinalg/mx-to-linalg.mlir -split-input-file --convert-mx-to-linalg > %t.cpu.passes
// RUN: diff %t.cpu.passes %t.cpu.transform
// RUN: FileCheck %s --check-prefix=CPU < %t.cpu.transform
//
// RUN: mx-opt %S/../../../Transforms/merge-gpu-launches.mlir -split-input-file --transform-preload-library="transform-library-paths=%p/Inputs/merge-gpu-launches-schedule.mlir" --transform-interpreter > %t.merge.transform
// RUN: mx-opt %S/../../../Transforms/merge-gpu-launches.mlir -split-input-file --mx-merge-gpu-launches > %t.merge.passes
// RUN: diff %t.merge.passes %t.merge.transform
// RUN: FileCheck %s --check-prefix=MERGE < %t.merge.transform

// The scripts did rewrite (the diffs alone would pass if neither did):
// SPLIT-K: mx.split_k
// FQR: mx.quantize_into
// EPILOGUE: mx.tiled_scaled_mma {{.*}}epilogue
// RELAYOUTS: linalg.generic
// RELAYOUTS-NOT: tensor.expand_shape
// DYNAMIC-M: scf.if
// BYTES: mx.packed_type
// LOWER-NOT: linalg.pack
// LOWER: linalg.transpose
// COPY-NOT: memref.copy
// COPY: linalg.copy
// CPU-LABEL: func.func @dequantize_fp4
// CPU-NOT: mx.dequantize
// CPU: linalg.generic
// MERGE: gpu.launch
