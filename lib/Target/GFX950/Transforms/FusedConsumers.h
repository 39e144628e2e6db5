//===- FusedConsumers.h - ops a GEMM's kernel computes too ------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops mx-gfx950-lower-tiled-mma computes in a GEMM's kernel besides the
// GEMM: an in_consumer quantize of its A, and a linalg.generic marked
// mx.column_consumer (mx-fuse-column-consumers) at the kernel's end.
// Private to lib/Target/GFX950/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_TARGET_GFX950_TRANSFORMS_FUSEDCONSUMERS_H
#define MX_LIB_TARGET_GFX950_TRANSFORMS_FUSEDCONSUMERS_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::mx::gfx950::detail {

/// The generic marked mx.column_consumer that reads `op`'s accumulator
/// (directly or through views), if any (null if none): the first after `op`
/// in its block, its operands' definitions moved before `op` so that `op`'s
/// launch can take them. Fails with a diagnostic if it cannot be `op`'s.
FailureOr<linalg::GenericOp> takeColumnConsumer(TiledScaledMMAOp op);

/// The in_consumer quantize that writes `op`'s A and A scales, if any: the
/// last one before `op` in its block (bufferization may give two GEMMs'
/// quantized A one buffer, e.g. a routed gate_up and down of equal tiles).
QuantizeIntoOp getQuantizeInConsumer(TiledScaledMMAOp op);

/// Fails with a diagnostic if an in_consumer quantize outside the kernels,
/// or a generic marked mx.column_consumer, is left in `root` (no GEMM took
/// it: it would never run).
LogicalResult checkFusedConsumersTaken(Operation *root);

/// The GEMM kernel's tile, as the column consumer at its end sees it.
struct ColumnConsumerTile {
  /// Waves per workgroup, the tile's rows and columns, the N tiles.
  int64_t waves, tileM, tileN, tilesN;
  /// The workgroup's M and N tile.
  Value mIndex, nIndex;
  /// With a row group (the consumer's mx.column_consumer = k: each output
  /// row combines k rows of the accumulator): k, the routed GEMM's row ids
  /// and the accumulator's rows; else 0.
  int64_t rowGroup = 0;
  Value rowIds;
  int64_t accRows = 0;
};

/// Emits, at `b` in `launch` (grid (No, Mo, ..)), the end of a GEMM kernel
/// whose sums are stored: each wave counts itself on its strip's counter
/// (the consumer's last input); the wave that completes the count resets it
/// and computes `consumer`'s output at the strip's columns. With a row
/// group, each output row is computed by the wave that completes its count
/// of rows (or, when some row is named by no id, by the strip's last wave).
void createColumnConsumer(OpBuilder &b, Location loc, gpu::LaunchOp launch,
                          linalg::GenericOp consumer,
                          const ColumnConsumerTile &tile);

} // namespace mlir::mx::gfx950::detail

#endif // MX_LIB_TARGET_GFX950_TRANSFORMS_FUSEDCONSUMERS_H
