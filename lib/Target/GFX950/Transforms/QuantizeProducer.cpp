//===- QuantizeProducer.cpp - elementwise producers of a quantize ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "QuantizeProducer.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::mx;

bool gfx950::detail::onlyAllocates(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](MemoryEffects::EffectInstance &instance) {
    return isa<MemoryEffects::Allocate>(instance.getEffect());
  });
}

linalg::GenericOp gfx950::detail::getFusableProducer(QuantizeIntoOp op) {
  Value input = op.getInput();
  auto alloc = input.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != op->getBlock() ||
      !llvm::hasNItems(input.getUses(), 2))
    return {};
  linalg::GenericOp producer;
  for (Operation *user : input.getUsers())
    if (user != op.getOperation())
      producer = dyn_cast<linalg::GenericOp>(user);
  if (!producer || producer->getBlock() != op->getBlock() ||
      !producer->isBeforeInBlock(op) || !producer.hasPureBufferSemantics() ||
      producer.getNumDpsInits() != 1 || producer.getDpsInits()[0] != input ||
      producer.getNumParallelLoops() != producer.getNumLoops())
    return {};
  if (!llvm::all_of(producer.getRegion().front().without_terminator(),
                    [](Operation &nested) {
                      return isMemoryEffectFree(&nested) &&
                             nested.getNumRegions() == 0;
                    }))
    return {};
  OpOperand &init = producer.getDpsInitsMutable()[0];
  if (!producer.getMatchingIndexingMap(&init).isIdentity() ||
      !producer.getMatchingBlockArgument(&init).use_empty())
    return {};
  for (OpOperand *operand : producer.getDpsInputOperands())
    if (!isa<MemRefType>(operand->get().getType()) ||
        !producer.getMatchingIndexingMap(operand).isProjectedPermutation(
            /*allowZeroInResults=*/true))
      return {};
  for (Operation *between = producer->getNextNode(); between != op;
       between = between->getNextNode())
    if (!gfx950::detail::onlyAllocates(between))
      return {};
  return producer;
}

SmallVector<Value> gfx950::detail::applyMap(OpBuilder &b, Location loc,
                                            AffineMap map, ValueRange coords) {
  SmallVector<Value> results;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    results.push_back(
        affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), coords));
  return results;
}

/// Whether `operand`'s values along `axis` are 32 consecutive elements of
/// its innermost, unit-stride dimension (one vector load).
static bool isVectorLoad(linalg::GenericOp producer, OpOperand *operand,
                         int64_t axis) {
  AffineMap map = producer.getMatchingIndexingMap(operand);
  auto type = cast<MemRefType>(operand->get().getType());
  if (map.getNumResults() == 0)
    return false;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != axis)
    return false;
  for (AffineExpr expr : map.getResults().drop_back())
    if (expr.isFunctionOfDim(axis))
      return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

Value gfx950::detail::emitProducerBlock(OpBuilder &b, Location loc,
                                        linalg::GenericOp producer,
                                        int64_t axis, ArrayRef<Value> coords) {
  // Each input's 32 values at the block's points.
  SmallVector<SmallVector<Value>> inputs;
  for (OpOperand *operand : producer.getDpsInputOperands()) {
    AffineMap map = producer.getMatchingIndexingMap(operand);
    Type elementType = getElementTypeOrSelf(operand->get().getType());
    SmallVector<Value> values;
    if (isVectorLoad(producer, operand, axis)) {
      Value vector = vector::LoadOp::create(
          b, loc, VectorType::get({kBlockSize}, elementType), operand->get(),
          gfx950::detail::applyMap(b, loc, map, coords));
      for (int64_t k = 0; k < kBlockSize; ++k)
        values.push_back(vector::ExtractOp::create(b, loc, vector, k));
    } else {
      for (int64_t k = 0; k < kBlockSize; ++k) {
        SmallVector<Value> point(coords);
        point[axis] = arith::AddIOp::create(
            b, loc, point[axis], arith::ConstantIndexOp::create(b, loc, k));
        values.push_back(memref::LoadOp::create(
            b, loc, operand->get(),
            gfx950::detail::applyMap(b, loc, map, point)));
      }
    }
    inputs.push_back(std::move(values));
  }
  // The body at each point.
  Block &body = producer.getRegion().front();
  SmallVector<Value> results;
  for (int64_t k = 0; k < kBlockSize; ++k) {
    SmallVector<Value> point(coords);
    point[axis] = arith::AddIOp::create(
        b, loc, point[axis], arith::ConstantIndexOp::create(b, loc, k));
    IRMapping mapping;
    for (auto [i, values] : llvm::enumerate(inputs))
      mapping.map(body.getArgument(i), values[k]);
    for (Operation &nested : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
        mapping.map(index.getResult(), point[index.getDim()]);
        continue;
      }
      b.clone(nested, mapping);
    }
    results.push_back(mapping.lookupOrDefault(
        cast<linalg::YieldOp>(body.getTerminator()).getOperand(0)));
  }
  Type outputType = getElementTypeOrSelf(producer.getDpsInits()[0].getType());
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({kBlockSize}, outputType), results);
}
