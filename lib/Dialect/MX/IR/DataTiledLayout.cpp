//===- DataTiledLayout.cpp - swizzles of #mx.data_tiled_layout ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one function that computes the swizzle of every operand of a
// data-tiled layout (DESIGN.md, "Layouts are data"): the target's intrinsic
// gives the distribution of one intrinsic tile over lanes and values
// (ScaledMMAIntrinsicAttrInterface::getIntrinsicSwizzle); the layout adds
// its subgroup and unroll dimensions around it and moves the interleaved
// unroll dimensions between the lanes and the values. No target is named
// here.
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mx;

using Kind = TileSwizzle::Kind;

/// The sizes of the tile of `role` in a contraction tile of M x N x K
/// elements: [M, K] (lhs), [N, K] (rhs), [M, K/32] (lhs_scales), [N, K/32]
/// (rhs_scales), [M, N] (result).
static SmallVector<int64_t, 2> getRoleTileSizes(OperandRole role, int64_t m,
                                                int64_t n, int64_t k) {
  switch (role) {
  case OperandRole::lhs:
    return {m, k};
  case OperandRole::rhs:
    return {n, k};
  case OperandRole::lhs_scales:
    return {m, k / kBlockSize};
  case OperandRole::rhs_scales:
    return {n, k / kBlockSize};
  case OperandRole::result:
    return {m, n};
  }
  llvm_unreachable("unknown operand role");
}

/// The sizes of the intrinsic tile of `role` (see
/// ScaledMMAIntrinsicAttrInterface::getIntrinsicSwizzle).
static SmallVector<int64_t, 2>
getIntrinsicTileSizes(ScaledMMAIntrinsicAttrInterface intrinsic,
                      OperandRole role) {
  auto [m, n, k] = intrinsic.getMNKShape();
  return getRoleTileSizes(role, m, n, k);
}

static Type getRoleElementType(MLIRContext *ctx, Type lhsType, Type rhsType,
                               OperandRole role) {
  switch (role) {
  case OperandRole::lhs:
    return lhsType;
  case OperandRole::rhs:
    return rhsType;
  case OperandRole::lhs_scales:
  case OperandRole::rhs_scales:
    return Float8E8M0FNUType::get(ctx);
  case OperandRole::result:
    return Float32Type::get(ctx);
  }
  llvm_unreachable("unknown operand role");
}

LogicalResult
mlir::mx::verifyScaledMMAIntrinsic(function_ref<InFlightDiagnostic()> emitError,
                                   ScaledMMAIntrinsicAttrInterface intrinsic,
                                   Type lhsType, Type rhsType) {
  auto [m, n, k] = intrinsic.getMNKShape();
  if (m < 1 || n < 1 || k < kBlockSize || k % kBlockSize)
    return emitError() << "intrinsic " << intrinsic << " has the shape " << m
                       << "x" << n << "x" << k
                       << " (expected M, N >= 1 and K a multiple of "
                       << kBlockSize << ")";
  int64_t lanes = intrinsic.getSubgroupSize();
  if (lanes < 1)
    return emitError() << "intrinsic " << intrinsic << " has a subgroup of "
                       << lanes << " lanes";
  for (OperandRole role :
       {OperandRole::lhs, OperandRole::rhs, OperandRole::lhs_scales,
        OperandRole::rhs_scales, OperandRole::result}) {
    auto fail = [&]() {
      return emitError() << "intrinsic " << intrinsic << "'s swizzle of "
                         << stringifyOperandRole(role) << " ";
    };
    TileSwizzle swizzle = intrinsic.getIntrinsicSwizzle(
        role,
        getRoleElementType(intrinsic.getContext(), lhsType, rhsType, role));
    SmallVector<int64_t, 2> tile = getIntrinsicTileSizes(intrinsic, role);
    if (swizzle.expandShape.size() != tile.size())
      return fail() << "has " << swizzle.expandShape.size()
                    << " dimension groups, expected " << tile.size();
    for (auto [group, size] : llvm::zip_equal(swizzle.expandShape, tile)) {
      int64_t product = 1;
      for (const TileSwizzle::Dim &dim : group)
        product *= dim.size;
      if (product != size)
        return fail() << "expands a dimension of size " << size << " into "
                      << product << " elements";
    }
    SmallVector<TileSwizzle::Dim> dims = swizzle.getExpandedDims();
    SmallVector<int64_t> sorted(swizzle.permutation);
    llvm::sort(sorted);
    if (sorted != llvm::to_vector(llvm::seq<int64_t>(0, dims.size())))
      return fail() << "has no permutation of its " << dims.size()
                    << " expanded dimensions";
    int64_t laneProduct = 1;
    bool seenValue = false;
    for (int64_t index : swizzle.permutation) {
      TileSwizzle::Dim dim = dims[index];
      if (dim.kind != Kind::Lane && dim.kind != Kind::Internal)
        return fail() << "has a dimension that is neither a lane nor a value";
      if (dim.kind == Kind::Lane && seenValue)
        return fail() << "puts a lane dimension after a value dimension";
      seenValue |= dim.kind == Kind::Internal;
      if (dim.kind == Kind::Lane)
        laneProduct *= dim.size;
    }
    if (laneProduct > lanes)
      return fail() << "spreads over " << laneProduct << " lanes, more than "
                    << lanes;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DataTiledLayoutAttr: TiledLayoutAttrInterface
//===----------------------------------------------------------------------===//

std::tuple<int64_t, int64_t, int64_t>
DataTiledLayoutAttr::getTileSizes() const {
  auto [m, n, k] = getIntrinsic().getMNKShape();
  return {getSubgroupsM() * getIntrinsicsM() * m,
          getSubgroupsN() * getIntrinsicsN() * n, getIntrinsicsK() * k};
}

SmallVector<int64_t>
DataTiledLayoutAttr::getInnerTileSizes(OperandRole role) const {
  auto [m, n, k] = getTileSizes();
  SmallVector<int64_t, 2> sizes = getRoleTileSizes(role, m, n, k);
  return SmallVector<int64_t>(sizes.begin(), sizes.end());
}

Type DataTiledLayoutAttr::getElementType(OperandRole role) const {
  return getRoleElementType(getContext(), getLhsType(), getRhsType(), role);
}

namespace {
/// The dimensions that a layout adds in front of one dimension group of the
/// intrinsic's swizzle: subgroups, then intrinsic unrolls.
struct Prefix {
  int64_t subgroups;
  int64_t unroll;
  /// Which unroll dimension (0 = M, 1 = N, 2 = K) `unroll` counts.
  unsigned unrollDim;
};
} // namespace

TileSwizzle DataTiledLayoutAttr::getSwizzle(OperandRole role) const {
  TileSwizzle intrinsic =
      getIntrinsic().getIntrinsicSwizzle(role, getElementType(role));
  // Rows (M or N) get the subgroups and unroll of their dimension; the
  // second dimension is K (no subgroups) or, for the result, N.
  Prefix rows, cols;
  switch (role) {
  case OperandRole::lhs:
  case OperandRole::lhs_scales:
    rows = {getSubgroupsM(), getIntrinsicsM(), 0};
    cols = {1, getIntrinsicsK(), 2};
    break;
  case OperandRole::rhs:
  case OperandRole::rhs_scales:
    rows = {getSubgroupsN(), getIntrinsicsN(), 1};
    cols = {1, getIntrinsicsK(), 2};
    break;
  case OperandRole::result:
    rows = {getSubgroupsM(), getIntrinsicsM(), 0};
    cols = {getSubgroupsN(), getIntrinsicsN(), 1};
    break;
  }
  assert(intrinsic.expandShape.size() == 2 && "a verified intrinsic swizzle");

  // Number the expanded dimensions, unit ones included: per group, the
  // subgroup, the unroll, then the intrinsic's own dimensions.
  SmallVector<TileSwizzle::Dim> dims;
  SmallVector<SmallVector<int64_t>> groups(2);
  int64_t subgroupDims[2], unrollDims[2];
  SmallVector<int64_t> intrinsicDims;
  for (auto [g, prefix] : llvm::enumerate(std::array<Prefix, 2>{rows, cols})) {
    subgroupDims[g] = dims.size();
    groups[g].push_back(dims.size());
    dims.push_back({Kind::Subgroup, prefix.subgroups});
    unrollDims[g] = dims.size();
    groups[g].push_back(dims.size());
    dims.push_back({Kind::Intrinsic, prefix.unroll});
    for (const TileSwizzle::Dim &dim : intrinsic.expandShape[g]) {
      intrinsicDims.push_back(dims.size());
      groups[g].push_back(dims.size());
      dims.push_back(dim);
    }
  }

  // Subgroups, the unrolls that are not interleaved, the intrinsic's lanes,
  // the interleaved unrolls, the intrinsic's values.
  SmallVector<int64_t> order = {subgroupDims[0], subgroupDims[1]};
  std::array<Prefix, 2> prefixes = {rows, cols};
  for (unsigned g = 0; g < 2; ++g)
    if (!isInterleaved(role, prefixes[g].unrollDim))
      order.push_back(unrollDims[g]);
  auto firstValue = llvm::find_if(intrinsic.permutation, [&](int64_t i) {
    return dims[intrinsicDims[i]].kind == Kind::Internal;
  });
  for (int64_t i : llvm::make_range(intrinsic.permutation.begin(), firstValue))
    order.push_back(intrinsicDims[i]);
  for (unsigned g = 0; g < 2; ++g)
    if (isInterleaved(role, prefixes[g].unrollDim))
      order.push_back(unrollDims[g]);
  for (int64_t i : llvm::make_range(firstValue, intrinsic.permutation.end()))
    order.push_back(intrinsicDims[i]);

  // Leave out the unit dimensions and renumber the others.
  SmallVector<int64_t> renumbered(dims.size(), -1);
  TileSwizzle swizzle;
  int64_t next = 0;
  for (const SmallVector<int64_t> &group : groups) {
    SmallVector<TileSwizzle::Dim> kept;
    for (int64_t d : group) {
      if (dims[d].size == 1)
        continue;
      renumbered[d] = next++;
      kept.push_back(dims[d]);
    }
    swizzle.expandShape.push_back(kept);
  }
  for (int64_t d : order)
    if (renumbered[d] >= 0)
      swizzle.permutation.push_back(renumbered[d]);
  return swizzle;
}
