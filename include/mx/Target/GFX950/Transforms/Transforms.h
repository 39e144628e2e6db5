//===- Transforms.h - gfx950 target rewrites --------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rewrites of the gfx950 target's pipeline stages, for a downstream
// compiler to call inside its own pipeline. Each mx-gfx950-* pass (Passes.td,
// which documents the rewrites in full) is a thin driver over one of these;
// the option structs carry the passes' options, with the same defaults.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_TRANSFORMS_TRANSFORMS_H
#define MX_TARGET_GFX950_TRANSFORMS_TRANSFORMS_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mx::gfx950 {

//===----------------------------------------------------------------------===//
// mx-gfx950-quantize-in-gemm (relayouts, on tensors)
//===----------------------------------------------------------------------===//

/// mx-gfx950-quantize-in-gemm's decision for every mx.quantize_into on
/// tensors under `root` (a function) whose only destinations are the A and A
/// scales of one mx.tiled_scaled_mma: marks it `in_consumer` where the GEMM
/// kernel quantizes A itself. `mode` is "auto" (the heuristic), "always"
/// (wherever the kernel can; a warning where it cannot) or "never"; any
/// other mode is an error at `root`.
LogicalResult quantizeInGEMM(Operation *root, StringRef mode = "auto");

//===----------------------------------------------------------------------===//
// mx-gfx950-lower-quantize (dispatches, on memrefs)
//===----------------------------------------------------------------------===//

/// The options of mx-gfx950-lower-quantize.
struct LowerQuantizeOptions {
  /// Threads per workgroup of the quantize kernels (a multiple of 64 in
  /// [64, 1024]).
  int64_t workgroupSize = 256;
  /// Compute fp4 codes (nearest-even; ties-away from bf16) with
  /// v_cvt_scalef32_pk_fp4_* (amdgpu.packed_scaled_trunc).
  bool packedConversions = true;
};

/// mx.quantize_into on memrefs (not `in_consumer`) -> one gpu.launch whose
/// threads each quantize one block of 32 input elements (or the neighbouring
/// blocks whose codes share destination bytes) and store codes and scale
/// bytes into every destination. The launch's kernel is named `kernelName`,
/// by default `<function>_quantize<n>` with the first n no launch of the
/// enclosing function uses. `op` is erased; the result is a null launch when
/// the op's domain is statically empty (nothing to run). On failure an error
/// is emitted at `op` and the IR is unchanged.
FailureOr<gpu::LaunchOp> lowerQuantize(RewriterBase &rewriter,
                                       QuantizeIntoOp op,
                                       const LowerQuantizeOptions &options = {},
                                       StringRef kernelName = "");

/// Whether `first` and `second` (later in the same block) quantize the same
/// static 2-D input along its two axes with nothing between them but
/// allocations and pure ops, so that lowerQuantizeRowsAndColumns may lower
/// both at once.
bool canLowerRowsAndColumnsTogether(QuantizeIntoOp first,
                                    QuantizeIntoOp second);

/// `rowsOp` (axis 1) and `colsOp` (axis 0) of the same input (see
/// canLowerRowsAndColumnsTogether) -> one gpu.launch at the later of the two
/// that reads the input once: each workgroup quantizes the row blocks of a
/// tile of 32 rows x `workgroupSize` columns from global memory, keeps the
/// values in LDS, and after a barrier quantizes the tile's column blocks
/// from LDS. Both ops are erased; naming and the null launch as for
/// lowerQuantize.
FailureOr<gpu::LaunchOp> lowerQuantizeRowsAndColumns(
    RewriterBase &rewriter, QuantizeIntoOp rowsOp, QuantizeIntoOp colsOp,
    const LowerQuantizeOptions &options = {}, StringRef kernelName = "");

//===----------------------------------------------------------------------===//
// mx-gfx950-lower-tiled-mma (dispatches, on memrefs)
//===----------------------------------------------------------------------===//

/// The options of mx-gfx950-lower-tiled-mma (which has none yet).
struct LowerTiledMMAOptions {};

/// mx.tiled_scaled_mma on memrefs -> one gpu.launch over output tiles whose
/// waves call the selected ukernel (mx::gfx950::selectUKernel) on views of
/// the workgroup's tiles; a private declaration of the ukernel is added to
/// the enclosing module if it has none, for
/// mx-gfx950-specialize-ukernels to replace. An `in_consumer` quantize that
/// writes the op's A and A scales is lowered with it (the ukernel quantizes
/// A) and erased. The launch's kernel is named `kernelName`, by default
/// `<function>_mma<n>` with the first n no launch of the enclosing function
/// uses. On failure an error is emitted at `op`; the IR may have changed.
FailureOr<gpu::LaunchOp>
lowerTiledScaledMMA(RewriterBase &rewriter, TiledScaledMMAOp op,
                    const LowerTiledMMAOptions &options = {},
                    StringRef kernelName = "");

//===----------------------------------------------------------------------===//
// mx-gfx950-specialize-ukernels (ukernels, in gpu.launch bodies)
//===----------------------------------------------------------------------===//

/// The options of mx-gfx950-specialize-ukernels.
struct SpecializeUKernelsOptions {
  /// Unroll factor of the ukernels' K loops marked mx.unroll_k (0: the
  /// factor each call asks for, mx.ukernel.unroll_k; 1: none).
  int64_t unrollK = 0;
};

/// Replaces every ukernel call under `root` by a specialized copy of the
/// ukernel: type parameters bound, tile parameters folded, loops marked
/// mx.unroll fully unrolled and K loops unrolled as `options` says, static
/// allocas hoisted; ukernel declarations under `root` left without uses are
/// erased. On failure an error is emitted (at the call where the problem
/// comes from a ukernel's body).
LogicalResult specializeUKernels(Operation *root,
                                 const SpecializeUKernelsOptions &options = {});

/// The folds specializeUKernels applies besides canonicalization: a scale
/// byte extracted from a 4-byte scale vector feeds the MFMA through its byte
/// selector, and unsigned comparisons with zero fold.
void populateSpecializeUKernelsPatterns(RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// mx-gfx950-reserve-accumulator-agprs (kernels, gpu.module)
//===----------------------------------------------------------------------===//

/// Gives each gpu.func of `module` that runs amdgpu.scaled_mfma and has
/// private f32 arrays marked mx.accumulator_agprs (with `all`, any of them)
/// the "amdgpu-agpr-alloc" passthrough attribute for their values (at most
/// the 256 AGPRs; with `all`, a warning where not every value fits or there
/// is no such array).
void reserveAccumulatorAGPRs(gpu::GPUModuleOp module, bool all = false);

//===----------------------------------------------------------------------===//
// mx-gfx950-lds-copy-alias-scopes (ROCDL, gpu.module)
//===----------------------------------------------------------------------===//

/// In every LLVM function of `module` with LDS copies and an explicit wait
/// that leaves some loads in flight, or an explicit wait for all loads right
/// before a workgroup barrier without a fence (the kernel orders its copies
/// before the reads itself), puts the copies and the LDS loads in two alias
/// scopes that do not alias, so that LLVM does not wait for the copies
/// before each LDS read.
void setLDSCopyAliasScopes(gpu::GPUModuleOp module);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_TRANSFORMS_TRANSFORMS_H
