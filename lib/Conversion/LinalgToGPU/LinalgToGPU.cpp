//===- LinalgToGPU.cpp - convert-linalg-to-gpu-dispatches -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Conversion/LinalgToGPU/LinalgToGPU.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::mx {
#define GEN_PASS_DEF_CONVERTLINALGTOGPUDISPATCHES
#include "mx/Conversion/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

/// The indices `map` selects from the loop indices `ivs`.
static SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

LogicalResult mx::convertLinalgOpToGPUDispatch(OpBuilder &b,
                                               linalg::LinalgOp op,
                                               int64_t workgroupSize,
                                               StringRef kernelName) {
  if (!op.hasPureBufferSemantics())
    return op->emitOpError() << "must work on memrefs to become a dispatch";
  if (op.getNumParallelLoops() != op.getNumLoops())
    return op->emitOpError()
           << "has reduction iterators; only elementwise linalg ops become "
              "one-thread-per-element dispatches";
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  SmallVector<OpFoldResult> sizes;
  for (const Range &range : ranges) {
    if (!isConstantIntValue(range.offset, 0) ||
        !isConstantIntValue(range.stride, 1))
      return op->emitOpError() << "has a loop range that does not start at 0 "
                                  "with unit stride";
    sizes.push_back(range.size);
  }

  // Threads own `vector` consecutive points of the loop order when the op
  // writes one buffer in loop order (identity map and layout): 16 bytes per
  // thread, stored at once. The points may span the innermost `groupRank`
  // loops (static sizes whose product `vector` divides), e.g. a [.., 16, 2]
  // scale tile: one 16-byte run covers 8 x 2 points.
  int64_t vector = 1;
  int64_t groupRank = 1, groupSize = 1;
  if (op.getNumDpsInits() == 1 && !sizes.empty()) {
    OpOperand &init = op.getDpsInitsMutable()[0];
    auto type = cast<MemRefType>(init.get().getType());
    unsigned bits = type.getElementTypeBitWidth();
    if (op.getMatchingIndexingMap(&init).isIdentity() &&
        type.getLayout().isIdentity() && bits % 8 == 0 && bits <= 128) {
      int64_t want = 16 / (bits / 8);
      // The shortest static suffix whose size is a multiple of `want`, else
      // the innermost size's largest power-of-two divisor up to it.
      int64_t product = 1;
      for (int64_t d = sizes.size() - 1; d >= 0 && want > 1; --d) {
        std::optional<int64_t> size = getConstantIntValue(sizes[d]);
        if (!size || *size == 0)
          break;
        product *= *size;
        if (product % want == 0) {
          vector = want;
          groupRank = sizes.size() - d;
          groupSize = product;
          break;
        }
      }
      std::optional<int64_t> inner = getConstantIntValue(sizes.back());
      if (vector == 1 && inner && *inner > 0) {
        for (int64_t v = want / 2; v > 1; v /= 2)
          if (*inner % v == 0) {
            vector = v;
            groupSize = *inner;
            break;
          }
      }
    }
  }
  SmallVector<OpFoldResult> chunkSizes(sizes);
  if (vector > 1) {
    chunkSizes.resize(sizes.size() - groupRank);
    chunkSizes.push_back(b.getIndexAttr(groupSize / vector));
  }

  // The number of threads, and the grid that covers them.
  std::optional<int64_t> staticTotal = 1;
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (OpFoldResult size : chunkSizes) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (constant && staticTotal)
      *staticTotal *= *constant;
    else
      staticTotal.reset();
    total = arith::MulIOp::create(
        b, loc, total, getValueOrCreateConstantIndexOp(b, loc, size));
  }
  if (staticTotal == 0) {
    op->erase();
    return success();
  }
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value wgSize = arith::ConstantIndexOp::create(b, loc, workgroupSize);
  Value grid = arith::CeilDivUIOp::create(b, loc, total, wgSize);
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one, wgSize, one, one);
  if (!kernelName.empty()) {
    launch.setFunctionAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
    launch.setModuleAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  }

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  // The workgroup size as a constant: gpu.block_dim would become a call
  // into the ROCm device library (__ockl_get_local_size).
  Value id = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc, launch.getBlockIds().x,
          arith::ConstantIndexOp::create(b, loc, workgroupSize)),
      launch.getThreadIds().x);
  Value inBounds =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id, total);
  auto guardIf = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  gpu::TerminatorOp::create(b, loc);

  b.setInsertionPointToStart(guardIf.thenBlock());
  SmallVector<Value> chunk;
  if (chunkSizes.size() == 1) {
    chunk.push_back(id);
  } else if (!chunkSizes.empty()) {
    auto delinearize =
        affine::AffineDelinearizeIndexOp::create(b, loc, id, chunkSizes);
    chunk.assign(delinearize.getResults().begin(),
                 delinearize.getResults().end());
  }

  // The body once per point of the thread's chunk.
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<SmallVector<Value>> yielded(yield.getNumOperands());
  // The thread's first point, as an offset into the innermost group.
  Value base;
  if (vector > 1)
    base = arith::MulIOp::create(
        b, loc, chunk.back(), arith::ConstantIndexOp::create(b, loc, vector));
  ArrayRef<OpFoldResult> groupSizes =
      ArrayRef<OpFoldResult>(sizes).take_back(groupRank);
  for (int64_t lane = 0; lane < vector; ++lane) {
    SmallVector<Value> ivs(chunk);
    if (vector > 1) {
      Value point =
          lane == 0
              ? base
              : arith::AddIOp::create(
                    b, loc, base, arith::ConstantIndexOp::create(b, loc, lane))
                    .getResult();
      ivs.pop_back();
      if (groupRank == 1) {
        ivs.push_back(point);
      } else {
        auto delinearize = affine::AffineDelinearizeIndexOp::create(
            b, loc, point, groupSizes, /*hasOuterBound=*/true);
        ivs.append(delinearize.getResults().begin(),
                   delinearize.getResults().end());
      }
    }
    IRMapping mapping;
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      if (!isa<MemRefType>(operand.get().getType())) {
        mapping.map(arg, operand.get());
        continue;
      }
      if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand))
        continue;
      SmallVector<Value> indices =
          applyMap(b, loc, op.getMatchingIndexingMap(&operand), ivs);
      mapping.map(arg, memref::LoadOp::create(b, loc, operand.get(), indices));
    }
    for (Operation &bodyOp : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
        mapping.map(index.getResult(), ivs[index.getDim()]);
        continue;
      }
      b.clone(bodyOp, mapping);
    }
    for (auto [i, value] : llvm::enumerate(yield.getValues()))
      yielded[i].push_back(mapping.lookupOrDefault(value));
  }
  for (auto [values, init] :
       llvm::zip_equal(yielded, op.getDpsInitsMutable())) {
    if (vector == 1) {
      SmallVector<Value> indices =
          applyMap(b, loc, op.getMatchingIndexingMap(&init), chunk);
      memref::StoreOp::create(b, loc, values.front(), init.get(), indices);
      continue;
    }
    // The identity-mapped init with its innermost group collapsed into one
    // dimension: the thread's points are `vector` consecutive elements there.
    Value dest = init.get();
    int64_t rank = cast<MemRefType>(dest.getType()).getRank();
    if (groupRank > 1) {
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < rank - groupRank; ++d)
        groups.push_back({d});
      groups.emplace_back();
      for (int64_t d = rank - groupRank; d < rank; ++d)
        groups.back().push_back(d);
      dest = memref::CollapseShapeOp::create(b, loc, dest, groups);
    }
    SmallVector<Value> indices(ArrayRef<Value>(chunk).drop_back());
    indices.push_back(base);
    auto vectorType = VectorType::get({vector}, values.front().getType());
    Value packed = vector::FromElementsOp::create(b, loc, vectorType, values);
    vector::StoreOp::create(b, loc, packed, dest, indices);
  }
  op->erase();
  return success();
}

namespace {
struct ConvertLinalgToGPUDispatchesPass
    : public mx::impl::ConvertLinalgToGPUDispatchesBase<
          ConvertLinalgToGPUDispatchesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (workgroupSize <= 0 || workgroupSize % 64 != 0 || workgroupSize > 1024) {
      getOperation().emitError()
          << "convert-linalg-to-gpu-dispatches: workgroup-size must be a "
             "multiple of 64 in [64, 1024], got "
          << static_cast<int64_t>(workgroupSize);
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<gpu::LaunchOp>() ||
          !op.hasPureBufferSemantics() ||
          op.getNumParallelLoops() != op.getNumLoops())
        return;
      ops.push_back(op);
    });
    OpBuilder builder(&getContext());
    StringRef funcName = getOperation().getSymName();
    for (auto [index, op] : llvm::enumerate(ops)) {
      // e.g. @f_relayout3_transpose for the fourth dispatch of @f.
      std::string name = (funcName + "_relayout" + Twine(index) + "_" +
                          op->getName().stripDialect())
                             .str();
      if (failed(mx::convertLinalgOpToGPUDispatch(builder, op, workgroupSize,
                                                  name)))
        return signalPassFailure();
    }
  }
};
} // namespace
