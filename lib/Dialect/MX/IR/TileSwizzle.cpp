//===- TileSwizzle.cpp - data-tiled inner tile rearrangements -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/TileSwizzle.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"

using namespace mlir;
using namespace mlir::mx;

SmallVector<TileSwizzle::Dim> TileSwizzle::getExpandedDims() const {
  SmallVector<Dim> dims;
  for (const SmallVector<Dim> &group : expandShape)
    llvm::append_range(dims, group);
  return dims;
}

SmallVector<int64_t> TileSwizzle::getExpandedShape() const {
  return llvm::map_to_vector(getExpandedDims(),
                             [](const Dim &dim) { return dim.size; });
}

SmallVector<int64_t> TileSwizzle::getSwizzledShape() const {
  SmallVector<int64_t> expanded = getExpandedShape();
  return llvm::map_to_vector(permutation,
                             [&](int64_t i) { return expanded[i]; });
}

SmallVector<int64_t>
TileSwizzle::getTileCoords(ArrayRef<int64_t> position) const {
  assert(position.size() == permutation.size() && "position rank mismatch");
  SmallVector<int64_t> expanded(position.size());
  for (auto [j, p] : llvm::enumerate(permutation))
    expanded[p] = position[j];
  SmallVector<int64_t> coords;
  int64_t e = 0;
  for (const SmallVector<Dim> &group : expandShape) {
    int64_t value = 0;
    for (const Dim &dim : group)
      value = value * dim.size + expanded[e++];
    coords.push_back(value);
  }
  return coords;
}

SmallVector<SmallVector<int64_t, 2>>
TileSwizzle::getReassociation(unsigned numOuterDims) const {
  SmallVector<SmallVector<int64_t, 2>> result;
  for (unsigned d = 0; d < numOuterDims; ++d)
    result.push_back({d});
  int64_t next = numOuterDims;
  for (const SmallVector<Dim> &group : expandShape) {
    SmallVector<int64_t, 2> indices;
    for (size_t i = 0; i < group.size(); ++i)
      indices.push_back(next++);
    result.push_back(indices);
  }
  return result;
}

StringRef mx::stringifyKind(TileSwizzle::Kind kind) {
  switch (kind) {
  case TileSwizzle::Kind::Subgroup:
    return "subgroup";
  case TileSwizzle::Kind::Intrinsic:
    return "intrinsic";
  case TileSwizzle::Kind::Lane:
    return "lane";
  case TileSwizzle::Kind::Internal:
    return "internal";
  }
  return "?";
}

llvm::raw_ostream &mx::operator<<(llvm::raw_ostream &os, const TileSwizzle &s) {
  os << "expand [";
  llvm::interleaveComma(s.expandShape, os, [&](const auto &group) {
    os << "[";
    llvm::interleaveComma(group, os, [&](const TileSwizzle::Dim &dim) {
      os << stringifyKind(dim.kind) << ":" << dim.size;
    });
    os << "]";
  });
  os << "] permutation [";
  llvm::interleaveComma(s.permutation, os);
  os << "]";
  return os;
}
