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

  // Threads own `vector` consecutive points of the innermost loop when the
  // op writes one buffer in loop order (identity map and layout) and the
  // innermost size allows it: 16 bytes per thread, stored at once.
  int64_t vector = 1;
  if (op.getNumDpsInits() == 1 && !sizes.empty()) {
    OpOperand &init = op.getDpsInitsMutable()[0];
    auto type = cast<MemRefType>(init.get().getType());
    unsigned bits = type.getElementTypeBitWidth();
    std::optional<int64_t> inner = getConstantIntValue(sizes.back());
    if (op.getMatchingIndexingMap(&init).isIdentity() &&
        type.getLayout().isIdentity() && bits % 8 == 0 && bits <= 128 &&
        inner) {
      for (int64_t v = 16 / (bits / 8); v > 1; v /= 2)
        if (*inner % v == 0) {
          vector = v;
          break;
        }
    }
  }
  SmallVector<OpFoldResult> chunkSizes(sizes);
  if (vector > 1)
    chunkSizes.back() =
        b.getIndexAttr(*getConstantIntValue(sizes.back()) / vector);

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
  SmallVector<Value> first;
  Value base;
  if (vector > 1)
    base = arith::MulIOp::create(
        b, loc, chunk.back(), arith::ConstantIndexOp::create(b, loc, vector));
  for (int64_t lane = 0; lane < vector; ++lane) {
    SmallVector<Value> ivs(chunk);
    if (vector > 1)
      ivs.back() =
          lane == 0
              ? base
              : arith::AddIOp::create(
                    b, loc, base, arith::ConstantIndexOp::create(b, loc, lane));
    if (lane == 0)
      first = ivs;
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
    SmallVector<Value> indices =
        applyMap(b, loc, op.getMatchingIndexingMap(&init), first);
    if (vector == 1) {
      memref::StoreOp::create(b, loc, values.front(), init.get(), indices);
      continue;
    }
    auto vectorType = VectorType::get({vector}, values.front().getType());
    Value packed = vector::FromElementsOp::create(b, loc, vectorType, values);
    vector::StoreOp::create(b, loc, packed, init.get(), indices);
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
