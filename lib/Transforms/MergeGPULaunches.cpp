//===- MergeGPULaunches.cpp - mx-merge-gpu-launches -----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Transforms/Passes.h"
#include "mx/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXMERGEGPULAUNCHES
#include "mx/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

/// The buffer `value` is a view of: its allocation or a block argument.
static Value getRoot(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
      value = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(op)) {
      value = cast.getSource();
      continue;
    }
    break;
  }
  return value;
}

namespace {
/// The buffers a launch reads and writes, by root; `unknown` when an op of
/// its body has effects that cannot be attributed.
struct Accesses {
  llvm::SmallPtrSet<Value, 4> reads, writes;
  bool unknown = false;

  explicit Accesses(gpu::LaunchOp launch) {
    launch.getBody().walk([&](Operation *op) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects) {
        if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
            !isa<gpu::TerminatorOp>(op))
          unknown = true;
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &effect : instances) {
        Value value = effect.getValue();
        if (!value) {
          if (!isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                  effect.getEffect()))
            unknown = true;
          continue;
        }
        Value root = getRoot(value);
        // Buffers local to the body do not matter.
        if (launch.getBody().isAncestor(root.getParentRegion()))
          continue;
        if (isa<MemoryEffects::Write>(effect.getEffect()))
          writes.insert(root);
        else if (isa<MemoryEffects::Read>(effect.getEffect()))
          reads.insert(root);
      }
    });
  }
};

/// Whether `a` and `b` may be the same buffer: the same root, or two block
/// arguments (function arguments may alias each other).
static bool mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  return isa<BlockArgument>(a) && isa<BlockArgument>(b);
}

/// Whether a launch that writes `writes` conflicts with one that accesses
/// `other`.
static bool conflicts(const llvm::SmallPtrSetImpl<Value> &writes,
                      const Accesses &other) {
  for (Value w : writes) {
    for (Value r : other.reads)
      if (mayAlias(w, r))
        return true;
    for (Value x : other.writes)
      if (mayAlias(w, x))
        return true;
  }
  return false;
}

/// Whether `launch` has the simple shape this pass merges: a 1-D grid and
/// block, no async dependencies and no attributions.
static bool isMergeable(gpu::LaunchOp launch) {
  auto isOne = [](Value v) { return matchPattern(v, m_One()); };
  return launch.getAsyncDependencies().empty() && !launch.getAsyncToken() &&
         !launch.getDynamicSharedMemorySize() &&
         launch.getWorkgroupAttributions().empty() &&
         launch.getPrivateAttributions().empty() && !launch.getClusterSizeX() &&
         isOne(launch.getGridSizeY()) && isOne(launch.getGridSizeZ()) &&
         isOne(launch.getBlockSizeY()) && isOne(launch.getBlockSizeZ());
}

/// Whether `a` and `b` are the same block size (the same value or equal
/// constants).
static bool sameSize(Value a, Value b) {
  if (a == b)
    return true;
  std::optional<int64_t> x = getConstantIntValue(a), y = getConstantIntValue(b);
  return x && y && *x == *y;
}

/// Clones the body of `from` (without its terminator) at `builder`, with its
/// block index x replaced by `blockX` and the other launch values by those
/// of `into`.
static void cloneBody(OpBuilder &builder, gpu::LaunchOp from,
                      gpu::LaunchOp into, Value blockX) {
  IRMapping mapping;
  gpu::KernelDim3 ids = from.getBlockIds(), newIds = into.getBlockIds();
  mapping.map(ids.x, blockX);
  mapping.map(ids.y, newIds.y);
  mapping.map(ids.z, newIds.z);
  gpu::KernelDim3 threads = from.getThreadIds(),
                  newThreads = into.getThreadIds();
  mapping.map(threads.x, newThreads.x);
  mapping.map(threads.y, newThreads.y);
  mapping.map(threads.z, newThreads.z);
  gpu::KernelDim3 grid = from.getGridSize();
  mapping.map(grid.x, from.getGridSizeX());
  mapping.map(grid.y, from.getGridSizeY());
  mapping.map(grid.z, from.getGridSizeZ());
  gpu::KernelDim3 block = from.getBlockSize(), newBlock = into.getBlockSize();
  mapping.map(block.x, newBlock.x);
  mapping.map(block.y, newBlock.y);
  mapping.map(block.z, newBlock.z);
  Block &body = from.getBody().front();
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
}

/// Replaces `first` and `second` by one launch running both.
static gpu::LaunchOp merge(gpu::LaunchOp first, gpu::LaunchOp second) {
  OpBuilder builder(first);
  Location loc = first.getLoc();
  Value gridFirst = first.getGridSizeX();
  Value total =
      arith::AddIOp::create(builder, loc, gridFirst, second.getGridSizeX());
  auto merged = gpu::LaunchOp::create(
      builder, loc, total, first.getGridSizeY(), first.getGridSizeZ(),
      first.getBlockSizeX(), first.getBlockSizeY(), first.getBlockSizeZ());
  merged.setFunctionAttr(first.getFunctionAttr());
  merged.setModuleAttr(first.getModuleAttr());
  OpBuilder body = OpBuilder::atBlockBegin(&merged.getBody().front());
  Value blockX = merged.getBlockIds().x;
  Value inFirst = arith::CmpIOp::create(body, loc, arith::CmpIPredicate::ult,
                                        blockX, gridFirst);
  auto branch = scf::IfOp::create(body, loc, inFirst, /*withElseRegion=*/true);
  OpBuilder thenBuilder = branch.getThenBodyBuilder();
  cloneBody(thenBuilder, first, merged, blockX);
  OpBuilder elseBuilder = branch.getElseBodyBuilder();
  Value secondX = arith::SubIOp::create(elseBuilder, loc, blockX, gridFirst);
  cloneBody(elseBuilder, second, merged, secondX);
  gpu::TerminatorOp::create(body, loc);
  first.erase();
  second.erase();
  return merged;
}

/// Whether `op`, between two launches, may move before the first: it has
/// no effects, or only allocates.
static bool isMovable(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Read>() &&
         !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Free>() && op->getNumRegions() == 0;
}

} // namespace

void mx::mergeGPULaunches(Block &block) {
  gpu::LaunchOp current;
  SmallVector<Operation *> between;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto launch = dyn_cast<gpu::LaunchOp>(&op);
    if (!launch) {
      if (current && isMovable(&op)) {
        between.push_back(&op);
      } else {
        current = {};
        between.clear();
      }
      continue;
    }
    if (!isMergeable(launch)) {
      current = {};
      between.clear();
      continue;
    }
    if (current && sameSize(current.getBlockSizeX(), launch.getBlockSizeX())) {
      Accesses a(current), b(launch);
      if (!a.unknown && !b.unknown && !conflicts(a.writes, b) &&
          !conflicts(b.writes, a)) {
        for (Operation *moved : between)
          moved->moveBefore(current);
        between.clear();
        current = merge(current, launch);
        continue;
      }
    }
    current = launch;
    between.clear();
  }
}

namespace {
struct MergeGPULaunchesPass
    : public mx::impl::MXMergeGPULaunchesBase<MergeGPULaunchesPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Block *block) { mx::mergeGPULaunches(*block); });
  }
};
} // namespace
