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
#include "llvm/Support/CheckedArithmetic.h"

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

namespace {
/// How the iteration points of an op are dealt out to threads: each thread
/// owns `vector` consecutive points of the loop order, spanning the
/// innermost `groupRank` loops (of `groupSize` points in all) when `vector`
/// is above 1.
struct ThreadChunking {
  int64_t vector = 1;
  int64_t groupRank = 1;
  int64_t groupSize = 1;
};
} // namespace

/// The loop sizes of `op`, or a diagnostic if a loop does not start at 0
/// with unit stride.
static FailureOr<SmallVector<OpFoldResult>> getLoopSizes(OpBuilder &b,
                                                         linalg::LinalgOp op) {
  SmallVector<OpFoldResult> sizes;
  for (const Range &range : op.createLoopRanges(b, op.getLoc())) {
    if (!isConstantIntValue(range.offset, 0) ||
        !isConstantIntValue(range.stride, 1))
      return op->emitOpError() << "has a loop range that does not start at 0 "
                                  "with unit stride";
    sizes.push_back(range.size);
  }
  return sizes;
}

/// Threads own `vector` consecutive points of the loop order when `op`
/// writes one buffer in loop order (identity map and layout): 16 bytes per
/// thread, stored at once. The points may span the innermost `groupRank`
/// loops (static sizes whose product `vector` divides), e.g. a [.., 16, 2]
/// scale tile: one 16-byte run covers 8 x 2 points.
static ThreadChunking chooseThreadChunking(linalg::LinalgOp op,
                                           ArrayRef<OpFoldResult> sizes) {
  ThreadChunking chunking;
  if (op.getNumDpsInits() != 1 || sizes.empty())
    return chunking;
  OpOperand &init = op.getDpsInitsMutable()[0];
  auto type = cast<MemRefType>(init.get().getType());
  unsigned bits = type.getElementTypeBitWidth();
  if (!op.getMatchingIndexingMap(&init).isIdentity() ||
      !type.getLayout().isIdentity() || bits % 8 != 0 || bits > 128)
    return chunking;
  int64_t want = 16 / (bits / 8);
  // The shortest static suffix whose size is a multiple of `want`, else the
  // innermost size's largest power-of-two divisor up to it.
  int64_t product = 1;
  for (int64_t d = sizes.size() - 1; d >= 0 && want > 1; --d) {
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (!size || *size == 0 || !llvm::checkedMul(product, *size))
      break;
    product *= *size;
    if (product % want == 0) {
      chunking.vector = want;
      chunking.groupRank = sizes.size() - d;
      chunking.groupSize = product;
      return chunking;
    }
  }
  std::optional<int64_t> inner = getConstantIntValue(sizes.back());
  if (inner && *inner > 0) {
    for (int64_t v = want / 2; v > 1; v /= 2)
      if (*inner % v == 0) {
        chunking.vector = v;
        chunking.groupSize = *inner;
        break;
      }
  }
  return chunking;
}

/// A gpu.launch of ceil(`total` / `workgroupSize`) workgroups of
/// `workgroupSize` threads whose body, at `b`'s insertion point on return,
/// is guarded by `id < total` (`id` the global thread id).
static gpu::LaunchOp createGuardedLaunch(OpBuilder &b, Location loc,
                                         Value total, int64_t workgroupSize,
                                         StringRef kernelName, Value &id) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value wgSize = arith::ConstantIndexOp::create(b, loc, workgroupSize);
  Value grid = arith::CeilDivUIOp::create(b, loc, total, wgSize);
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one, wgSize, one, one);
  if (!kernelName.empty()) {
    launch.setFunctionAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
    launch.setModuleAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  }
  b.setInsertionPointToStart(&launch.getBody().front());
  // The workgroup size as a constant: gpu.block_dim would become a call
  // into the ROCm device library (__ockl_get_local_size).
  id = arith::AddIOp::create(
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
  return launch;
}

/// The loop indices of point `lane` of a thread's chunk: `chunk` with its
/// last index replaced by `base + lane` (delinearized over the innermost
/// group of `groupSizes` when it spans several loops).
static SmallVector<Value> getPointIndices(OpBuilder &b, Location loc,
                                          ArrayRef<Value> chunk, Value base,
                                          int64_t lane,
                                          const ThreadChunking &chunking,
                                          ArrayRef<OpFoldResult> groupSizes) {
  SmallVector<Value> ivs(chunk);
  if (chunking.vector == 1)
    return ivs;
  Value point =
      lane == 0
          ? base
          : arith::AddIOp::create(b, loc, base,
                                  arith::ConstantIndexOp::create(b, loc, lane))
                .getResult();
  ivs.pop_back();
  if (chunking.groupRank == 1) {
    ivs.push_back(point);
    return ivs;
  }
  auto delinearize = affine::AffineDelinearizeIndexOp::create(
      b, loc, point, groupSizes, /*hasOuterBound=*/true);
  ivs.append(delinearize.getResults().begin(), delinearize.getResults().end());
  return ivs;
}

/// Clones the body of `op` for the point `ivs` (its operands loaded from
/// their memrefs) and returns the values it yields.
static SmallVector<Value> cloneBodyAt(OpBuilder &b, Location loc,
                                      linalg::LinalgOp op,
                                      ArrayRef<Value> ivs) {
  Block *body = op.getBlock();
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
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return llvm::map_to_vector(yield.getValues(), [&](Value value) {
    return mapping.lookupOrDefault(value);
  });
}

/// Stores `values`, the thread's `vector` points of the identity-mapped
/// `dest`, as one vector at `base` of the innermost group collapsed into
/// one dimension.
static void storeVector(OpBuilder &b, Location loc, ArrayRef<Value> values,
                        Value dest, ArrayRef<Value> chunk, Value base,
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
  auto vectorType =
      VectorType::get({chunking.vector}, values.front().getType());
  Value packed = vector::FromElementsOp::create(b, loc, vectorType, values);
  vector::StoreOp::create(b, loc, packed, dest, indices);
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
  FailureOr<SmallVector<OpFoldResult>> sizes = getLoopSizes(b, op);
  if (failed(sizes))
    return failure();
  ThreadChunking chunking = chooseThreadChunking(op, *sizes);
  int64_t vector = chunking.vector;
  SmallVector<OpFoldResult> chunkSizes(*sizes);
  if (vector > 1) {
    chunkSizes.resize(sizes->size() - chunking.groupRank);
    chunkSizes.push_back(b.getIndexAttr(chunking.groupSize / vector));
  }

  // The number of threads.
  std::optional<int64_t> staticTotal = 1;
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (OpFoldResult size : chunkSizes) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    // (Unknown, as for a dynamic size, past 2^63: the launch then counts
    // the threads at run time.)
    staticTotal = constant && staticTotal
                      ? llvm::checkedMul(*staticTotal, *constant)
                      : std::nullopt;
    total = arith::MulIOp::create(
        b, loc, total, getValueOrCreateConstantIndexOp(b, loc, size));
  }
  if (staticTotal == 0) {
    op->erase();
    return success();
  }

  OpBuilder::InsertionGuard guard(b);
  Value id;
  createGuardedLaunch(b, loc, total, workgroupSize, kernelName, id);
  SmallVector<Value> chunk;
  if (chunkSizes.size() == 1) {
    chunk.push_back(id);
  } else if (!chunkSizes.empty()) {
    auto delinearize =
        affine::AffineDelinearizeIndexOp::create(b, loc, id, chunkSizes);
    chunk.assign(delinearize.getResults().begin(),
                 delinearize.getResults().end());
  }

  // The body once per point of the thread's chunk, from the thread's first
  // point (`base`, an offset into the innermost group).
  SmallVector<SmallVector<Value>> yielded(op.getNumDpsInits());
  Value base;
  if (vector > 1)
    base = arith::MulIOp::create(
        b, loc, chunk.back(), arith::ConstantIndexOp::create(b, loc, vector));
  ArrayRef<OpFoldResult> groupSizes =
      ArrayRef<OpFoldResult>(*sizes).take_back(chunking.groupRank);
  for (int64_t lane = 0; lane < vector; ++lane) {
    SmallVector<Value> ivs =
        getPointIndices(b, loc, chunk, base, lane, chunking, groupSizes);
    for (auto [i, value] : llvm::enumerate(cloneBodyAt(b, loc, op, ivs)))
      yielded[i].push_back(value);
  }
  for (auto [values, init] :
       llvm::zip_equal(yielded, op.getDpsInitsMutable())) {
    if (vector > 1) {
      storeVector(b, loc, values, init.get(), chunk, base, chunking);
      continue;
    }
    SmallVector<Value> indices =
        applyMap(b, loc, op.getMatchingIndexingMap(&init), chunk);
    memref::StoreOp::create(b, loc, values.front(), init.get(), indices);
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
