//===- TileSwizzle.h - data-tiled inner tile rearrangements -----*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_TILESWIZZLE_H
#define MX_DIALECT_MX_IR_TILESWIZZLE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mx {

/// A rearrangement of a data tile, equivalent to `tensor.expand_shape`
/// followed by `linalg.transpose`: every dimension of the inner tile is
/// expanded into `expandShape[i]` (outermost first), and the expanded
/// dimensions, numbered in order, are then permuted so that dimension `j` of
/// the result is expanded dimension `permutation[j]`.
struct TileSwizzle {
  /// What an expanded dimension enumerates, for distribution and for humans.
  enum class Kind {
    /// Waves (subgroups) of a workgroup.
    Subgroup,
    /// Unrolled instances of the intrinsic within one wave.
    Intrinsic,
    /// Lanes of a wave.
    Lane,
    /// Values held by one lane.
    Internal,
  };
  struct Dim {
    Kind kind;
    int64_t size;
  };

  SmallVector<SmallVector<Dim>> expandShape;
  SmallVector<int64_t> permutation;

  /// The expanded dimensions in order.
  SmallVector<Dim> getExpandedDims() const;
  /// The shape after expand_shape (before the permutation).
  SmallVector<int64_t> getExpandedShape() const;
  /// The shape of the swizzled tile.
  SmallVector<int64_t> getSwizzledShape() const;
  /// The coordinates in the unswizzled inner tile of the element at
  /// `position` of the swizzled tile: undo the permutation, then linearize
  /// each expanded group.
  SmallVector<int64_t> getTileCoords(ArrayRef<int64_t> position) const;
  /// Reassociation of the expand_shape, offset by `numOuterDims` leading
  /// dimensions that are kept as they are.
  SmallVector<SmallVector<int64_t, 2>>
  getReassociation(unsigned numOuterDims) const;
};

StringRef stringifyKind(TileSwizzle::Kind kind);
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const TileSwizzle &s);

} // namespace mlir::mx

#endif // MX_DIALECT_MX_IR_TILESWIZZLE_H
