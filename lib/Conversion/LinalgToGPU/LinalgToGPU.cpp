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

  // The number of iteration points, and the grid that covers them.
  std::optional<int64_t> staticTotal = 1;
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (OpFoldResult size : sizes) {
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
  SmallVector<Value> ivs;
  if (sizes.size() == 1) {
    ivs.push_back(id);
  } else if (!sizes.empty()) {
    auto delinearize =
        affine::AffineDelinearizeIndexOp::create(b, loc, id, sizes);
    ivs.assign(delinearize.getResults().begin(),
               delinearize.getResults().end());
  }

  IRMapping mapping;
  Block *body = op.getBlock();
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
  for (auto [value, init] :
       llvm::zip_equal(yield.getValues(), op.getDpsInitsMutable())) {
    SmallVector<Value> indices =
        applyMap(b, loc, op.getMatchingIndexingMap(&init), ivs);
    memref::StoreOp::create(b, loc, mapping.lookupOrDefault(value), init.get(),
                            indices);
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
