//===- LinalgToGPU.cpp - convert-linalg-to-gpu-dispatches -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Conversion/LinalgToGPU/LinalgToGPU.h"

#include "ThreadStores.h"

#include "mx/Dialect/MX/IR/MXDialect.h"

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

#include <numeric>

namespace mlir::mx {
#define GEN_PASS_DEF_CONVERTLINALGTOGPUDISPATCHES
#include "mx/Conversion/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;
using namespace mlir::mx::detail;

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
/// thread (or whole rows of the innermost loops, up to 64 bytes), stored at
/// once. The points may span the innermost `groupRank`
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
    int64_t inner = product;
    product *= *size;
    if (product % want == 0) {
      // Whole rows of the inner loops when a chunk would split one (24-byte
      // fp6 rows: 48 bytes), so the chunk is a box (SourceRuns needs it).
      int64_t rows = std::lcm(want, inner);
      chunking.vector =
          want % inner != 0 && product % rows == 0 && rows <= 4 * want ? rows
                                                                       : want;
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

namespace {
/// A linear function of the loop indices: `constant` + sum over loops d of
/// `coeffs[d]` * d.
struct LinearIndex {
  SmallVector<int64_t> coeffs;
  int64_t constant = 0;
};

/// How a thread reads the one buffer its body loads from in runs of
/// `length` consecutive elements of the buffer's innermost dimension, one
/// `vector.load` each (issue 33: relayouts move >= 16 bytes per lane and
/// access). The thread owns a box of iteration points: its chunk of the
/// output (ThreadChunking) times `extents[d]` consecutive points of each
/// outer loop d (1 where not enlarged). `load` is that memref.load in the
/// body; its last index is `unclamped`, or `maxsi(minsi(unclamped, N - 1),
/// 0)` when `clamped` (N the buffer's innermost size: the pad of a fused
/// pack). A point's position in its run is the sum of `runCoeffs[d]` times
/// its offset in the box along loop d; the points with equal offsets along
/// the other loops share one run.
struct SourceRuns {
  memref::LoadOp load;
  Value unclamped;
  /// The values `unclamped` takes over the loops (static sizes), if known.
  std::optional<std::pair<int64_t, int64_t>> range;
  bool clamped = false;
  int64_t length = 1;
  SmallVector<int64_t> extents;
  SmallVector<int64_t> runCoeffs;
};
} // namespace

/// `value`, computed in the body of `op`, as a linear function of the loop
/// indices (through linalg.index, constants, affine.linearize_index with a
/// static basis, and integer add, sub and multiply by a constant), or
/// nullopt.
static std::optional<LinearIndex> getLinearIndex(linalg::LinalgOp op,
                                                 Value value) {
  unsigned numLoops = op.getNumLoops();
  auto constant = [&](int64_t c) {
    LinearIndex result{SmallVector<int64_t>(numLoops, 0), c};
    return result;
  };
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return constant(*c);
  Operation *def = value.getDefiningOp();
  if (!def || def->getParentRegion() != &op->getRegion(0))
    return std::nullopt;
  auto combine = [&](Value lhs, Value rhs,
                     int64_t sign) -> std::optional<LinearIndex> {
    std::optional<LinearIndex> l = getLinearIndex(op, lhs);
    std::optional<LinearIndex> r = getLinearIndex(op, rhs);
    if (!l || !r)
      return std::nullopt;
    for (unsigned d = 0; d < numLoops; ++d)
      l->coeffs[d] += sign * r->coeffs[d];
    l->constant += sign * r->constant;
    return l;
  };
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    LinearIndex result = constant(0);
    result.coeffs[index.getDim()] = 1;
    return result;
  }
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return combine(add.getLhs(), add.getRhs(), 1);
  if (auto sub = dyn_cast<arith::SubIOp>(def))
    return combine(sub.getLhs(), sub.getRhs(), -1);
  if (auto mul = dyn_cast<arith::MulIOp>(def)) {
    Value lhs = mul.getLhs(), rhs = mul.getRhs();
    std::optional<int64_t> factor = getConstantIntValue(rhs);
    if (!factor) {
      std::swap(lhs, rhs);
      factor = getConstantIntValue(rhs);
    }
    std::optional<LinearIndex> l;
    if (!factor || !(l = getLinearIndex(op, lhs)))
      return std::nullopt;
    for (int64_t &c : l->coeffs)
      c *= *factor;
    l->constant *= *factor;
    return l;
  }
  auto linearize = dyn_cast<affine::AffineLinearizeIndexOp>(def);
  if (!linearize || !linearize.getDynamicBasis().empty())
    return std::nullopt;
  // Index i's stride: the product of the basis entries after it.
  ArrayRef<int64_t> basis = linearize.getStaticBasis();
  ValueRange indices = linearize.getMultiIndex();
  LinearIndex result = constant(0);
  int64_t stride = 1;
  for (int64_t i = indices.size() - 1; i >= 0; --i) {
    std::optional<LinearIndex> term = getLinearIndex(op, indices[i]);
    if (!term)
      return std::nullopt;
    for (unsigned d = 0; d < numLoops; ++d)
      result.coeffs[d] += stride * term->coeffs[d];
    result.constant += stride * term->constant;
    if (i > 0)
      stride *= basis[basis.size() - (indices.size() - i)];
  }
  return result;
}

/// Whether `value`, computed in the body of `op`, depends on the index of a
/// loop d with `loops[d]` (or on a block argument).
static bool dependsOnLoops(linalg::LinalgOp op, Value value,
                           ArrayRef<bool> loops) {
  if (isa<BlockArgument>(value))
    return value.getParentRegion() == &op->getRegion(0);
  Operation *def = value.getDefiningOp();
  if (def->getParentRegion() != &op->getRegion(0))
    return false;
  if (auto index = dyn_cast<linalg::IndexOp>(def))
    return loops[index.getDim()];
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnLoops(op, operand, loops);
  });
}

/// The box extents of a thread's output chunk along the innermost
/// `groupRank` loops, or nullopt when the chunk's `vector` consecutive
/// points of the group are not a box (e.g. 16 points of rows of 6).
static std::optional<SmallVector<int64_t>>
getChunkExtents(ArrayRef<OpFoldResult> sizes, const ThreadChunking &chunking) {
  int64_t rank = sizes.size();
  SmallVector<int64_t> extents(rank, 1);
  int64_t inner = 1;
  for (int64_t d = rank - chunking.groupRank + 1; d < rank; ++d) {
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (!size)
      return std::nullopt;
    extents[d] = *size;
    inner *= *size;
  }
  if (chunking.vector % inner != 0)
    return std::nullopt;
  extents[rank - chunking.groupRank] = chunking.vector / inner;
  return extents;
}

/// The runs of the last index `linear` (over `sizes`, the thread's chunk of
/// `chunkExtents`) of at least `want` elements: the loops whose coefficients
/// make consecutive positions (1, then the product of the extents so far),
/// taken from the chunk or enlarged to the extent the run needs; every other
/// coefficient and the constant a multiple of the run's length, so runs
/// start aligned.
static std::optional<SourceRuns> chooseRunLoops(const LinearIndex &linear,
                                                ArrayRef<OpFoldResult> sizes,
                                                ArrayRef<int64_t> chunkExtents,
                                                int64_t groupBegin,
                                                int64_t want) {
  int64_t rank = sizes.size();
  SourceRuns runs;
  runs.extents.assign(rank, 1);
  runs.runCoeffs.assign(rank, 0);
  SmallVector<bool> isRun(rank, false);
  while (runs.length < want || runs.length % want != 0) {
    int64_t d = -1;
    for (int64_t e = 0; e < rank; ++e) {
      if (linear.coeffs[e] != runs.length || isRun[e])
        continue;
      if (d >= 0)
        return std::nullopt;
      d = e;
    }
    std::optional<int64_t> size =
        d < 0 ? std::nullopt : getConstantIntValue(sizes[d]);
    if (!size)
      return std::nullopt;
    int64_t extent = chunkExtents[d];
    if (d < groupBegin) {
      // The fewest points of loop d that end the run on a multiple of
      // `want`, else all of them.
      extent = *size;
      for (int64_t e = 1; e < *size; ++e)
        if (*size % e == 0 && runs.length * e >= want &&
            runs.length * e % want == 0) {
          extent = e;
          break;
        }
      runs.extents[d] = extent;
    }
    isRun[d] = true;
    runs.runCoeffs[d] = runs.length;
    runs.length *= extent;
    // A loop only partly in the run must be its last one.
    if (extent < *size && (runs.length < want || runs.length % want != 0))
      return std::nullopt;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (!isRun[d] && linear.coeffs[d] % runs.length != 0)
      return std::nullopt;
  if (linear.constant % runs.length != 0)
    return std::nullopt;
  return runs;
}

/// The least and greatest values of `linear` over the loop `sizes`, or
/// nullopt unless all are static and positive.
static std::optional<std::pair<int64_t, int64_t>>
getRange(const LinearIndex &linear, ArrayRef<OpFoldResult> sizes) {
  int64_t min = linear.constant, max = linear.constant;
  for (auto [coeff, size] : llvm::zip_equal(linear.coeffs, sizes)) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant || *constant <= 0)
      return std::nullopt;
    int64_t last = coeff * (*constant - 1);
    min += std::min<int64_t>(last, 0);
    max += std::max<int64_t>(last, 0);
  }
  return std::make_pair(min, max);
}

/// The SourceRuns of `op`'s body when it loads one buffer, its last index
/// (possibly clamped to the buffer) linear in the loop indices, its other
/// indices independent of the run's loops, and a thread's box of points at
/// most 256; otherwise nullopt (each point then loads its own element).
static std::optional<SourceRuns>
chooseSourceRuns(linalg::LinalgOp op, ArrayRef<OpFoldResult> sizes,
                 const ThreadChunking &chunking) {
  if (chunking.vector == 1)
    return std::nullopt;
  SmallVector<memref::LoadOp> loads;
  op.getBlock()->walk([&](memref::LoadOp load) { loads.push_back(load); });
  if (loads.size() != 1)
    return std::nullopt;
  memref::LoadOp load = loads.front();
  MemRefType type = load.getMemRefType();
  unsigned bits = type.getElementTypeBitWidth();
  if (type.getRank() == 0 || !type.getLayout().isIdentity() || bits % 8 != 0 ||
      bits > 128 || type.isDynamicDim(type.getRank() - 1))
    return std::nullopt;
  int64_t innermost = type.getShape().back();
  Value last = load.getIndices().back();
  Value unclamped = last;
  bool clamped = false;
  // maxsi(minsi(x, N - 1), 0): the clamp of a fused pack's pad.
  if (auto max = last.getDefiningOp<arith::MaxSIOp>()) {
    auto min = max.getLhs().getDefiningOp<arith::MinSIOp>();
    if (min && isConstantIntValue(max.getRhs(), 0) &&
        isConstantIntValue(min.getRhs(), innermost - 1)) {
      unclamped = min.getLhs();
      clamped = true;
    }
  }
  std::optional<LinearIndex> linear = getLinearIndex(op, unclamped);
  std::optional<SmallVector<int64_t>> chunkExtents =
      getChunkExtents(sizes, chunking);
  if (!linear || !chunkExtents)
    return std::nullopt;
  int64_t groupBegin = sizes.size() - chunking.groupRank;
  std::optional<SourceRuns> runs = chooseRunLoops(*linear, sizes, *chunkExtents,
                                                  groupBegin, 16 / (bits / 8));
  if (!runs || innermost % runs->length != 0)
    return std::nullopt;
  int64_t points = chunking.vector;
  for (int64_t extent : runs->extents)
    points *= extent;
  SmallVector<bool> runLoops =
      llvm::map_to_vector(runs->runCoeffs, [](int64_t c) { return c != 0; });
  if (points > 256 || llvm::any_of(load.getIndices().drop_back(), [&](Value v) {
        return dependsOnLoops(op, v, runLoops);
      }))
    return std::nullopt;
  runs->load = load;
  runs->unclamped = unclamped;
  // A clamp that no point reaches (static loop sizes keep the unclamped
  // index inside the buffer) needs no run past the buffer's end.
  runs->range = getRange(*linear, sizes);
  runs->clamped = clamped && !(runs->range && runs->range->first >= 0 &&
                               runs->range->second <= innermost - 1);
  return runs;
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
/// their memrefs) and returns the values it yields. `replace`, if given,
/// supplies the value of a one-result body op instead of a clone (null:
/// clone it).
static SmallVector<Value>
cloneBodyAt(OpBuilder &b, Location loc, linalg::LinalgOp op,
            ArrayRef<Value> ivs,
            function_ref<Value(Operation &, IRMapping &)> replace = nullptr,
            function_ref<bool(OpOperand &)> skipLoad = nullptr) {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (!isa<MemRefType>(operand.get().getType())) {
      mapping.map(arg, operand.get());
      continue;
    }
    if (!op.payloadUsesValueFromOperand(&operand) ||
        (skipLoad && skipLoad(operand)))
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
    if (replace && bodyOp.getNumResults() == 1) {
      if (Value value = replace(bodyOp, mapping)) {
        mapping.map(bodyOp.getResult(0), value);
        continue;
      }
    }
    b.clone(bodyOp, mapping);
  }
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return llvm::map_to_vector(yield.getValues(), [&](Value value) {
    return mapping.lookupOrDefault(value);
  });
}

SmallVector<Value> mx::emitLinalgBodyAt(OpBuilder &b, Location loc,
                                        linalg::LinalgOp op,
                                        ArrayRef<Value> ivs) {
  return cloneBodyAt(b, loc, op, ivs);
}

/// The constant value of `cmp` when it compares the run's unclamped index
/// with a constant and every value of its range gives the same answer (the
/// pad's bounds check of an index that stays in bounds), else null.
static Value foldRangeCompare(OpBuilder &b, Location loc,
                              const SourceRuns &runs, arith::CmpIOp cmp) {
  std::optional<int64_t> bound = getConstantIntValue(cmp.getRhs());
  if (!runs.range || cmp.getLhs() != runs.unclamped || !bound)
    return Value();
  auto [min, max] = *runs.range;
  bool below = max < *bound, above = min >= *bound;
  std::optional<bool> result;
  if (cmp.getPredicate() == arith::CmpIPredicate::slt && (below || above))
    result = below;
  if (cmp.getPredicate() == arith::CmpIPredicate::sge && (below || above))
    result = above;
  if (!result)
    return Value();
  return arith::ConstantIntOp::create(b, loc, *result, 1).getResult();
}

/// The run of `runs` that starts `offset` elements before the point whose
/// body is being cloned (`mapping`): one vector.load of the buffer. When the
/// last index is clamped, a run wholly past either end of the buffer (the
/// pad) reads the clamped element, as every point of it would.
static Value loadRun(OpBuilder &b, Location loc, const SourceRuns &runs,
                     int64_t offset, IRMapping &mapping) {
  memref::LoadOp load = runs.load;
  Value start = mapping.lookupOrDefault(runs.unclamped);
  if (offset != 0)
    start = arith::SubIOp::create(
        b, loc, start, arith::ConstantIndexOp::create(b, loc, offset));
  SmallVector<Value> indices =
      llvm::map_to_vector(load.getIndices().drop_back(), [&](Value index) {
        return mapping.lookupOrDefault(index);
      });
  int64_t length = runs.length;
  int64_t innermost = load.getMemRefType().getShape().back();
  Value index = start;
  if (runs.clamped) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value last = arith::ConstantIndexOp::create(b, loc, innermost - length);
    index = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, start, last), zero);
  }
  indices.push_back(index);
  auto type = VectorType::get({length}, load.getType());
  Value run = vector::LoadOp::create(
      b, loc, type, mapping.lookupOrDefault(load.getMemRef()), indices);
  if (!runs.clamped)
    return run;
  // Runs start aligned and the buffer holds whole runs, so a run is either
  // inside the buffer or wholly past one end.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value last = arith::ConstantIndexOp::create(b, loc, innermost - length);
  Value before =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, start, zero);
  Value after =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, start, last);
  auto edge = [&](int64_t position) -> Value {
    return vector::BroadcastOp::create(
        b, loc, type, vector::ExtractOp::create(b, loc, run, position));
  };
  Value clampedRun =
      arith::SelectOp::create(b, loc, after, edge(length - 1), run);
  return arith::SelectOp::create(b, loc, before, edge(0), clampedRun);
}

/// Emits a thread's work: the body once per point of its box (the output
/// chunk from the thread's first point `base`, an offset into the innermost
/// group, for each offset along the outer loops that `runs` enlarges), its
/// source runs loaded once, and the chunks stored. `chunk` holds the
/// thread's indices over the chunked loops.
static void emitThreadPoints(OpBuilder &b, Location loc, linalg::LinalgOp op,
                             ArrayRef<OpFoldResult> sizes,
                             const ThreadChunking &chunking,
                             const std::optional<SourceRuns> &runs,
                             ArrayRef<Value> chunk) {
  int64_t vector = chunking.vector;
  int64_t rank = sizes.size();
  int64_t groupBegin = rank - chunking.groupRank;
  SmallVector<int64_t> extents =
      runs ? runs->extents : SmallVector<int64_t>(rank, 1);
  Value base;
  if (vector > 1)
    base = arith::MulIOp::create(
        b, loc, chunk.back(), arith::ConstantIndexOp::create(b, loc, vector));
  ArrayRef<OpFoldResult> groupSizes = sizes.take_back(chunking.groupRank);
  SmallVector<int64_t> outerExtents(
      ArrayRef<int64_t>(extents).take_front(vector > 1 ? groupBegin : 0));
  SmallVector<int64_t> groupExtents(rank, 1);
  if (runs)
    groupExtents = *getChunkExtents(sizes, chunking);
  SmallVector<Value> outerBase(chunk);
  for (auto [d, extent] : llvm::enumerate(outerExtents))
    if (extent > 1)
      outerBase[d] = arith::MulIOp::create(
          b, loc, chunk[d], arith::ConstantIndexOp::create(b, loc, extent));
  int64_t outerPoints = 1;
  for (int64_t extent : outerExtents)
    outerPoints *= extent;
  DenseMap<int64_t, Value> loadedRuns;
  // Inits stored only where a condition holds (getKeptDestinationSelect).
  SmallVector<arith::SelectOp> kept;
  for (int64_t i = 0, e = op.getNumDpsInits(); i < e; ++i)
    kept.push_back(getKeptDestinationSelect(op, i));
  auto skipLoad = [&](OpOperand &operand) {
    return op.isDpsInit(&operand) &&
           kept[operand.getOperandNumber() - op.getNumDpsInputs()];
  };
  SmallVector<Value> written(op.getDpsInits());
  for (int64_t outer = 0; outer < outerPoints; ++outer) {
    SmallVector<int64_t> offsets(rank, 0);
    for (int64_t d = outerExtents.size() - 1, rest = outer; d >= 0; --d) {
      offsets[d] = rest % outerExtents[d];
      rest /= outerExtents[d];
    }
    SmallVector<Value> prefix(outerBase);
    for (auto [d, offset] : llvm::enumerate(outerExtents))
      if (offsets[d] > 0)
        prefix[d] = arith::AddIOp::create(
            b, loc, outerBase[d],
            arith::ConstantIndexOp::create(b, loc, offsets[d]));
    SmallVector<SmallVector<Value>> yielded(op.getNumDpsInits());
    SmallVector<SmallVector<Value>> conditions(op.getNumDpsInits());
    for (int64_t lane = 0; lane < vector; ++lane) {
      for (int64_t d = rank - 1, rest = lane; d >= groupBegin && runs; --d) {
        offsets[d] = rest % groupExtents[d];
        rest /= groupExtents[d];
      }
      SmallVector<Value> ivs =
          getPointIndices(b, loc, prefix, base, lane, chunking, groupSizes);
      // The point's run: its offsets along the other loops of the box; its
      // position in it: the run loops' offsets times their coefficients.
      auto replace = [&](Operation &bodyOp, IRMapping &mapping) {
        for (auto [i, select] : llvm::enumerate(kept)) {
          if (select && &bodyOp == select.getOperation()) {
            conditions[i].push_back(
                mapping.lookupOrDefault(select.getCondition()));
            return mapping.lookupOrDefault(select.getTrueValue());
          }
        }
        if (!runs)
          return Value();
        if (auto cmp = dyn_cast<arith::CmpIOp>(bodyOp))
          return foldRangeCompare(b, loc, *runs, cmp);
        if (&bodyOp != static_cast<Operation *>(runs->load))
          return Value();
        int64_t key = 0, position = 0;
        for (int64_t d = 0; d < rank; ++d) {
          int64_t extent = d < groupBegin ? extents[d] : groupExtents[d];
          position += runs->runCoeffs[d] * offsets[d];
          key = key * extent + (runs->runCoeffs[d] ? 0 : offsets[d]);
        }
        Value &run = loadedRuns[key];
        if (!run)
          run = loadRun(b, loc, *runs, position, mapping);
        return vector::ExtractOp::create(b, loc, run, position).getResult();
      };
      for (auto [i, value] :
           llvm::enumerate(cloneBodyAt(b, loc, op, ivs, replace, skipLoad)))
        yielded[i].push_back(value);
    }
    for (auto [values, pointConditions, init] :
         llvm::zip_equal(yielded, conditions, op.getDpsInitsMutable())) {
      if (vector > 1) {
        storeVector(b, loc, values, init.get(), prefix, base, chunking,
                    pointConditions, written);
        continue;
      }
      OpBuilder::InsertionGuard guard(b);
      if (!pointConditions.empty())
        b.setInsertionPointToStart(
            scf::IfOp::create(b, loc, pointConditions.front()).thenBlock());
      SmallVector<Value> indices =
          applyMap(b, loc, op.getMatchingIndexingMap(&init), chunk);
      memref::StoreOp::create(b, loc, values.front(), init.get(), indices);
    }
  }
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
  std::optional<SourceRuns> runs = chooseSourceRuns(op, *sizes, chunking);
  int64_t rank = sizes->size();
  int64_t groupBegin = rank - chunking.groupRank;
  // A thread's points: `extents[d]` consecutive points of each outer loop d
  // (more than one where source runs enlarge it) times its output chunk.
  SmallVector<int64_t> extents =
      runs ? runs->extents : SmallVector<int64_t>(rank, 1);
  SmallVector<OpFoldResult> chunkSizes(*sizes);
  if (vector > 1) {
    chunkSizes.resize(groupBegin);
    chunkSizes.push_back(b.getIndexAttr(chunking.groupSize / vector));
    for (int64_t d = 0; d < groupBegin; ++d)
      if (extents[d] > 1)
        chunkSizes[d] =
            b.getIndexAttr(*getConstantIntValue((*sizes)[d]) / extents[d]);
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

  emitThreadPoints(b, loc, op, *sizes, chunking, runs, chunk);
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
      // A consumer that runs in its GEMM's kernel is the GEMM lowering's.
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->hasAttr(mx::MXDialect::kColumnConsumerAttrName) ||
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
