//===- Relayout.h - pack + swizzle of data-tiled operands -------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Builds the relayout between a plain tensor and its data-tiled form
// (linalg.pack + tensor.expand_shape + linalg.transpose, and the inverse)
// from a TiledLayoutAttrInterface layout. Used by mx-materialize-encodings
// and by the CPU lowering of mx.tiled_scaled_mma.
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_TRANSFORMS_RELAYOUT_H
#define MX_DIALECT_MX_TRANSFORMS_RELAYOUT_H

#include "mx/Dialect/MX/IR/MXOps.h"

namespace mlir::mx {

/// How one tensor is packed into tiles and swizzled.
struct RelayoutInfo {
  /// Source dimensions that are tiled, in inner-tile order.
  SmallVector<int64_t> innerDimsPos;
  /// Source dimension of each outer (tile index) dimension.
  SmallVector<int64_t> outerDimsPerm;
  /// Inner tile sizes (unswizzled).
  SmallVector<int64_t> innerTiles;
  /// Rearrangement of the inner tile.
  TileSwizzle swizzle;
  /// Padding element (typed): zero data, or scale byte 0x7F (1.0) so that
  /// padding never produces NaN.
  TypedAttr paddingValue;
};

/// The relayout of the tensor an encoding describes, under `layout`: outer
/// tile dimensions ordered [batch.., M or N, K] ([batch.., M, N] for the
/// result) whatever the user's indexing map.
RelayoutInfo getRelayoutInfo(EncodingAttr encoding,
                             TiledLayoutAttrInterface layout);

/// The relayout of a tensor already in canonical order ([batch.., M or N, K]
/// or [batch.., M, N]) of `rank` dimensions.
RelayoutInfo getCanonicalRelayoutInfo(unsigned rank, OperandRole role,
                                      Type elementType,
                                      TiledLayoutAttrInterface layout);

/// Plain tensor -> data-tiled tensor. A static constant source is relaid
/// out at compile time into a new constant.
Value packAndSwizzle(OpBuilder &b, Location loc, Value source,
                     const RelayoutInfo &info);

/// Data-tiled tensor -> plain tensor of `resultType` (`dynamicDims` are its
/// dynamic sizes, in order).
Value unswizzleAndUnpack(OpBuilder &b, Location loc, Value tiled,
                         const RelayoutInfo &info, RankedTensorType resultType,
                         ValueRange dynamicDims);

} // namespace mlir::mx

#endif // MX_DIALECT_MX_TRANSFORMS_RELAYOUT_H
