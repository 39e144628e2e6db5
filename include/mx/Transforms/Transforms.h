//===- Transforms.h - rewrites of the generic stages ------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The rewrite of every stage in lib/Transforms (upstream ops only), as
// patterns and functions a downstream compiler calls inside its own
// pipeline; each pass of this folder is a thin driver over one of them.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TRANSFORMS_TRANSFORMS_H
#define MX_TRANSFORMS_TRANSFORMS_H

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpu {
class LaunchOp;
} // namespace gpu

namespace mx {

/// mx-lower-relayouts: adds the patterns that lower linalg.pack and
/// linalg.unpack to tensor.pad + tensor.expand_shape + linalg.transpose and
/// their inverse (linalg::lowerPack, linalg::lowerUnPack).
void populateLowerRelayoutsPatterns(RewritePatternSet &patterns);

/// mx-memref-copy-to-linalg: adds the pattern that rewrites memref.copy into
/// linalg.copy.
void populateMemRefCopyToLinalgPatterns(RewritePatternSet &patterns);

/// Gives each use of a tensor.empty under \p root by an op of the empty's
/// own block, but the first, a clone of its own, so that bufferization gives
/// each destination built on it a buffer (mx-split-empty-tensors).
void splitEmptyTensors(Operation *root);

/// mx-merge-gpu-launches: merges runs of independent gpu.launch ops of
/// `block` (same block size, no memref that one writes and the other
/// accesses, only movable ops between them) into one launch each, whose
/// grid runs the launches' bodies one after the other.
void mergeGPULaunches(Block &block);

/// mx-gpu-modules-to-binaries: serializes the gpu.modules directly under
/// `op` in parallel, each for every target it has, into `compilationTarget`
/// form, and replaces each with a gpu.binary in its place. Diagnostics come
/// in the modules' order whatever the threads.
LogicalResult
serializeGPUModulesToBinaries(Operation *op,
                              gpu::CompilationTarget compilationTarget);

/// The compilation target a `format` of mx-gpu-modules-to-binaries names
/// (isa, bin, llvm, fatbin); nullopt for any other.
std::optional<gpu::CompilationTarget> parseCompilationTarget(StringRef format);

} // namespace mx
} // namespace mlir

#endif // MX_TRANSFORMS_TRANSFORMS_H
