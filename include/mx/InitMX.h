//===- InitMX.h - registration of mx and its dependencies -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Embedders call registerMXDialects() on their DialectRegistry; tools such as
// mx-opt additionally call the pass registration functions, which fill MLIR's
// global pass registry (command-line only state).
//
//===----------------------------------------------------------------------===//

#ifndef MX_INITMX_H
#define MX_INITMX_H

namespace mlir {
class DialectRegistry;

namespace mx {

/// Inserts the mx dialect and the interface models of its ops.
void registerMXDialects(DialectRegistry &registry);

/// Inserts the upstream dialects that mx pipelines consume or produce (func,
/// arith, math, affine, tensor, linalg, memref, bufferization, scf, vector,
/// gpu, amdgpu, rocdl, llvm, transform) together with their interface models
/// (bufferization, tiling, conversion to LLVM, translation to LLVM IR) and
/// transform-dialect extensions.
void registerPipelineDialects(DialectRegistry &registry);

/// Registers the mx passes and pipelines for textual pass pipelines.
void registerMXPasses();

/// Registers the upstream passes mx pipelines are built from, so that tools
/// can run every stage on its own.
void registerPipelineUpstreamPasses();

} // namespace mx
} // namespace mlir

#endif // MX_INITMX_H
