//===- ThreadStores.cpp - a dispatch thread's stores ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ThreadStores.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::detail;

/// The identity-mapped `dest` with its innermost group collapsed into one
/// dimension, and the indices of the thread's chunk in it (`base` in the
/// collapsed dimension).
static std::pair<Value, SmallVector<Value>>
getChunkDestination(OpBuilder &b, Location loc, Value dest,
                    ArrayRef<Value> chunk, Value base,
                    const ThreadChunking &chunking) {
  int64_t rank = cast<MemRefType>(dest.getType()).getRank();
  int64_t groupRank = chunking.groupRank;
  if (groupRank > 1) {
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank - groupRank; ++d)
      groups.push_back({d});
    groups.emplace_back();
    for (int64_t d = rank - groupRank; d < rank; ++d)
      groups.back().push_back(d);
    dest = memref::CollapseShapeOp::create(b, loc, dest, groups);
  }
  SmallVector<Value> indices(chunk.drop_back());
  indices.push_back(base);
  return {dest, std::move(indices)};
}

/// How many ops deep computeSameValue compares (a row's condition through
/// the table read and the packing's index arithmetic is about 8).
static constexpr int kSameValueDepth = 24;

/// Whether `a` and `b`, computed for two points of a thread, are the same
/// value: the same SSA value, or results of the same pure op (or load of a
/// buffer the dispatch does not write, `written`) of such operands, up to
/// `depth` ops deep. The points' clones of a body compute what does not
/// depend on the point twice (canonicalization runs before CSE).
static bool computeSameValue(Value a, Value b, ArrayRef<Value> written,
                             int depth = kSameValueDepth) {
  if (a == b)
    return true;
  Operation *opA = a.getDefiningOp(), *opB = b.getDefiningOp();
  if (!opA || !opB || depth == 0 || opA->getNumRegions() ||
      opA->getName() != opB->getName() ||
      opA->getAttrDictionary() != opB->getAttrDictionary() ||
      opA->getNumOperands() != opB->getNumOperands() ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  auto load = dyn_cast<memref::LoadOp>(opA);
  if (load ? llvm::is_contained(written, load.getMemRef())
           : !isMemoryEffectFree(opA))
    return false;
  return llvm::all_of_zip(opA->getOperands(), opB->getOperands(),
                          [&](Value x, Value y) {
                            return computeSameValue(x, y, written, depth - 1);
                          });
}

void mx::detail::storeVector(OpBuilder &b, Location loc, ArrayRef<Value> values,
                             Value dest, ArrayRef<Value> chunk, Value base,
                             const ThreadChunking &chunking,
                             ArrayRef<Value> conditions,
                             ArrayRef<Value> written) {
  auto [collapsed, indices] =
      getChunkDestination(b, loc, dest, chunk, base, chunking);
  auto vectorType =
      VectorType::get({chunking.vector}, values.front().getType());
  auto storeAll = [&, &collapsed = collapsed, &indices = indices] {
    Value packed = vector::FromElementsOp::create(b, loc, vectorType, values);
    vector::StoreOp::create(b, loc, packed, collapsed, indices);
  };
  if (conditions.empty())
    return storeAll();
  OpBuilder::InsertionGuard guard(b);
  if (llvm::all_of(conditions.drop_front(), [&](Value condition) {
        return computeSameValue(condition, conditions.front(), written);
      })) {
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, conditions.front()).thenBlock());
    return storeAll();
  }
  Value all = conditions.front();
  for (Value condition : conditions.drop_front())
    all = arith::AndIOp::create(b, loc, all, condition);
  auto ifAll = scf::IfOp::create(b, loc, all, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifAll.thenBlock());
  storeAll();
  b.setInsertionPointToStart(ifAll.elseBlock());
  for (auto [lane, value, condition] : llvm::enumerate(values, conditions)) {
    auto ifPoint = scf::IfOp::create(b, loc, condition);
    OpBuilder::InsertionGuard pointGuard(b);
    b.setInsertionPointToStart(ifPoint.thenBlock());
    SmallVector<Value> pointIndices(indices);
    pointIndices.back() = arith::AddIOp::create(
        b, loc, indices.back(), arith::ConstantIndexOp::create(b, loc, lane));
    memref::StoreOp::create(b, loc, value, collapsed, pointIndices);
  }
}

arith::SelectOp mx::detail::getKeptDestinationSelect(linalg::LinalgOp op,
                                                     int64_t i) {
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  auto select = yield.getValues()[i].getDefiningOp<arith::SelectOp>();
  BlockArgument arg = op.getMatchingBlockArgument(op.getDpsInitOperand(i));
  if (!select || select->getBlock() != op.getBlock() ||
      !select.getCondition().getType().isInteger(1) ||
      select.getFalseValue() != arg || select.getTrueValue() == arg ||
      !llvm::all_of(arg.getUsers(),
                    [&](Operation *user) { return user == select; }))
    return {};
  return select;
}
