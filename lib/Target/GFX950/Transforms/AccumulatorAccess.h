//===- AccumulatorAccess.h - GEMM kernels' accumulator accesses -*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How the launch of mx-gfx950-lower-tiled-mma loads a lane's accumulators
// before the ukernel call and stores them (through the op's epilogue) after
// it. Private to lib/Target/GFX950/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_TARGET_GFX950_TRANSFORMS_ACCUMULATORACCESS_H
#define MX_LIB_TARGET_GFX950_TRANSFORMS_ACCUMULATORACCESS_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/Builders.h"

#include <memory>

namespace mlir::mx::gfx950::detail {

/// Emits the loads and stores of a lane's accumulator vectors (i, j) from
/// and to the accumulator of one mx.tiled_scaled_mma, given the wave
/// (waveM, waveN) and the lane, at the builder's insertion point.
class AccumulatorAccess {
public:
  virtual ~AccumulatorAccess();

  /// The lane's accumulator vector (i, j).
  virtual Value load(int64_t i, int64_t j, Value waveM, Value waveN,
                     Value lane) = 0;
  /// Stores `v` as the lane's accumulator vector (i, j).
  virtual void store(int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
                     Value v) = 0;
  /// Emits `body`, the loads (stores) of all vectors: once, or for stores
  /// whose width depends on where the tile lies, once in each branch of a
  /// workgroup-uniform scf.if.
  /// Called once before forStores (and, to share it, before forLoads), with
  /// the wave and lane indices every access then gets: an access may load
  /// up front what the accesses need (a routed GEMM's row ids, all loaded
  /// before the first store: a load after a store to another buffer cannot
  /// be moved above it, so loading each id before its row's store costs one
  /// memory latency per row; the checks of the loaded ids are emitted at
  /// the accesses, so that only the loads come first).
  virtual void prepareAccesses(Value waveM, Value waveN, Value lane) {}
  virtual void forLoads(function_ref<void()> body) { body(); }
  virtual void forStores(function_ref<void()> body) { body(); }
};

/// Whole vectors of `view`, the ukernel's view of the workgroup's tile of a
/// data-tiled (swizzled) accumulator.
std::unique_ptr<AccumulatorAccess>
createSwizzledAccumulatorAccess(OpBuilder &b, Location loc,
                                DataTiledLayoutAttr layout, Value view);

/// The accumulator of `op` in the user's layout ([B.., M, N]) for the
/// workgroup at tile (mIndex, nIndex) of batch `batch`: runs of consecutive
/// columns of a row in each lane's values, through a bounds-checked buffer,
/// masked at the edges, with the op's epilogue cloned per value before the
/// store. Emits the buffers at the builder's insertion point.
/// With `groupRows` (a grouped GEMM: the tile's first row in acc and its
/// row count), the tile's rows are those rows instead of tile `mIndex`'s;
/// with `rowIds` too (a routed GEMM), tile row r is row
/// rowIds[mIndex * tile rows + r] of acc.
std::unique_ptr<AccumulatorAccess> createUserLayoutAccumulatorAccess(
    OpBuilder &b, TiledScaledMMAOp op, DataTiledLayoutAttr layout,
    ValueRange batch, Value mIndex, Value nIndex,
    std::pair<Value, Value> groupRows = {}, Value rowIds = {});

/// `memref` cast to global memory (same shape and layout): how a kernel
/// addresses its buffers.
Value createGlobalCast(OpBuilder &b, Location loc, Value memref);

/// The i32 at `index` of the 1-d `memref`, as a (signed) index, and whether
/// it lies in [0, `bound`): a routed GEMM's row id or a block's expert.
std::pair<Value, Value> loadIdInRange(OpBuilder &b, Location loc, Value memref,
                                      Value index, Value bound);

/// loadIdInRange's result from the i32 it loaded.
std::pair<Value, Value> idInRange(OpBuilder &b, Location loc, Value loaded,
                                  Value bound);

/// A grouped GEMM's M tile: its group (the expert whose rhs tiles it
/// reads), its rows of acc (createUserLayoutAccumulatorAccess's
/// `groupRows`: first row and count; for a routed GEMM its first position
/// in the row ids and the tile's rows), and the rows it computes (none for
/// a tile of a group outside [0, E)).
struct GroupedTile {
  Value group;
  std::pair<Value, Value> rows;
  Value computedRows;
};

/// The tile `mIndex` of `op` (memref form, tile_groups): read from the tile
/// table (`table`, `op`'s cast to global memory: (group, first row,
/// count) per tile) or, routed, from its block's expert.
GroupedTile loadGroupedTile(OpBuilder &b, Location loc, TiledScaledMMAOp op,
                            DataTiledLayoutAttr layout, Value table,
                            Value mIndex);

} // namespace mlir::mx::gfx950::detail

#endif // MX_LIB_TARGET_GFX950_TRANSFORMS_ACCUMULATORACCESS_H
