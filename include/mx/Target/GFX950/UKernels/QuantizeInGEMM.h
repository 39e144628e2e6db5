//===- QuantizeInGEMM.h - A quantized by the GEMM ukernel -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// When the GEMM kernel can quantize its A tiles itself (the ukernel
// mx_uk_scaled_mma_quantized_lhs) instead of reading them from a quantize
// dispatch: the checks, shared by mx-gfx950-quantize-in-gemm (which decides)
// and mx-gfx950-lower-tiled-mma (which builds the kernel), and the view of
// the unquantized input the ukernel reads.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_UKERNELS_QUANTIZEINGEMM_H
#define MX_TARGET_GFX950_UKERNELS_QUANTIZEINGEMM_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include <string>

namespace mlir::mx::gfx950 {

/// How the elements destination of a quantize reads its input: for each
/// destination dimension, the input dimension it steps along and by how
/// many input elements (the inverse of the elements map, a data-tiled
/// layout's pack and swizzle).
struct QuantizedLhsSource {
  SmallVector<std::pair<unsigned, int64_t>> steps;
  /// The destination dimension of each dimension of the ukernel's view,
  /// [Ko, subgroups_m, intrinsics_m, intrinsics_k, K group, row, 32] (-1
  /// for one the swizzle drops because its size is 1).
  SmallVector<int64_t> viewDims;
  /// With a quantize that gathers rows by id: the destination dimensions
  /// that step along the gathered (logical) rows and how many rows one step
  /// moves: the outer M tile, the M subgroups and intrinsics and the lane's
  /// row. Each lane then reads one input row per fragment of rows (M
  /// subgroup and intrinsic), `ids[logical row] / divisor`, which the
  /// caller resolves.
  SmallVector<std::pair<int64_t, int64_t>> gatheredRowDims;
  /// With K padded to the K tile: the blocks of 32 values of an input row
  /// (the ukernel's k_blocks counts those from a workgroup's first; blocks
  /// past them are quantized from zeros); std::nullopt when K is not
  /// padded.
  std::optional<int64_t> kBlocks;
};

/// Whether `quantize` (on tensors or memrefs), whose elements and scales
/// destinations are A and A's scales of `op`, can be computed by `op`'s
/// ukernel: fp4 A from bf16 values along K, a ukernel that
/// quantizes A for the layout, K padded (if at all) by whole blocks in the
/// K tile's order (the ukernel reads the padding's blocks as zeros), an
/// input under 2 GiB, and maps
/// that put every block where the ukernel's lanes read it (checked by
/// evaluating them). A grouped (routed) GEMM's A must be rows gathered by
/// the quantize's ids (each lane reads one row through the ids per fragment
/// of rows). On failure `reason` says why.
FailureOr<QuantizedLhsSource> analyzeQuantizedLhs(QuantizeIntoOp quantize,
                                                  TiledScaledMMAOp op,
                                                  std::string &reason);

} // namespace mlir::mx::gfx950

#endif // MX_TARGET_GFX950_UKERNELS_QUANTIZEINGEMM_H
