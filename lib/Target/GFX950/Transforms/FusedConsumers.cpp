//===- FusedConsumers.cpp - ops a GEMM's kernel computes too --------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops a mx-gfx950-lower-tiled-mma kernel computes besides its GEMM: the
// in_consumer quantize of its A (in the ukernel), and the linalg.generic
// marked mx.column_consumer (at the kernel's end, in the last wave of each
// strip of N tiles, found by counting the waves on the strip's counter).
//
//===----------------------------------------------------------------------===//

#include "FusedConsumers.h"
#include "AccumulatorAccess.h"
#include "QuantizeProducer.h"

#include "mx/Conversion/LinalgToGPU/LinalgToGPU.h"
#include "mx/Target/GFX950/GFX950.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;
using namespace mlir::mx::gfx950::detail;

QuantizeIntoOp gfx950::detail::getQuantizeInConsumer(TiledScaledMMAOp op) {
  QuantizeIntoOp last;
  for (Operation *user : op.getLhs().getUsers()) {
    auto quantize = dyn_cast<QuantizeIntoOp>(user);
    if (quantize && quantize.getInConsumer() &&
        quantize.getElements() == ValueRange{op.getLhs()} &&
        quantize.getScales() == ValueRange{op.getLhsScales()} &&
        quantize->getBlock() == op->getBlock() &&
        quantize->isBeforeInBlock(op) &&
        (!last || last->isBeforeInBlock(quantize)))
      last = quantize;
  }
  return last;
}

/// The marked generic after `op` that reads its accumulator, if any.
static linalg::GenericOp getColumnConsumer(TiledScaledMMAOp op) {
  Value acc = op.getAcc();
  for (Operation &next :
       llvm::make_range(std::next(op->getIterator()), op->getBlock()->end())) {
    auto generic = dyn_cast<linalg::GenericOp>(&next);
    if (!generic || !generic->hasAttr(MXDialect::kColumnConsumerAttrName))
      continue;
    for (Value input : generic.getDpsInputs()) {
      Value root = input;
      while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
        root = view.getViewSource();
      if (root == acc)
        return generic;
    }
  }
  return {};
}

/// Moves the ops that define `value` in `op`'s block after `op` (views of
/// buffers, casts, allocations) before `op`; fails if one reads, writes or
/// frees memory.
static LogicalResult hoistDefinitionBefore(Value value, Operation *op) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != op->getBlock() || def->isBeforeInBlock(op))
    return success();
  if (!isa<ViewLikeOpInterface>(def) && !onlyAllocates(def))
    return failure();
  for (Value operand : def->getOperands())
    if (failed(hoistDefinitionBefore(operand, op)))
      return failure();
  def->moveBefore(op);
  return success();
}

FailureOr<linalg::GenericOp>
gfx950::detail::takeColumnConsumer(TiledScaledMMAOp op) {
  linalg::GenericOp consumer = getColumnConsumer(op);
  if (!consumer)
    return consumer;
  if (!op.hasUserLayoutAcc() || op.getNumBatchDims() != 0 ||
      consumer.getNumDpsInits() != 1 ||
      !cast<MemRefType>(consumer.getDpsInits()[0].getType()).hasStaticShape())
    return consumer.emitOpError()
           << "is marked " << MXDialect::kColumnConsumerAttrName
           << ", but its GEMM has no accumulator in the user's layout "
              "without batch dimensions, or its output is not static";
  // Its last input holds one counter per N tile.
  int64_t n = cast<MemRefType>(op.getAcc().getType()).getShape().back();
  int64_t tileN = op.getLayout().getInnerTileSizes(OperandRole::result)[1];
  int64_t tiles = ShapedType::isDynamic(n)
                      ? ShapedType::kDynamic
                      : static_cast<int64_t>(llvm::divideCeil(n, tileN));
  // With a row group k (a routed GEMM whose output rows each combine k rows
  // of the accumulator), also one counter per output row and N tile.
  auto rowGroup =
      consumer->getAttrOfType<IntegerAttr>(MXDialect::kColumnConsumerAttrName);
  auto outType = cast<MemRefType>(consumer.getDpsInits()[0].getType());
  if (rowGroup &&
      (rowGroup.getInt() <= 0 || !op.getRowIds() || outType.getRank() != 2 ||
       !cast<MemRefType>(op.getAcc().getType()).hasStaticShape()))
    return consumer.emitOpError()
           << "is marked " << MXDialect::kColumnConsumerAttrName << " = "
           << rowGroup.getInt()
           << " (rows per output row), but its GEMM is not routed with a "
              "static accumulator, or its output is not 2-d";
  if (rowGroup && !ShapedType::isDynamic(tiles))
    tiles *= 1 + outType.getDimSize(0);
  auto countersType =
      dyn_cast<MemRefType>(consumer.getDpsInputs().back().getType());
  if (!countersType || !countersType.getElementType().isInteger(32) ||
      countersType.getRank() != 1 || ShapedType::isDynamic(tiles) ||
      countersType.getDimSize(0) != tiles)
    return consumer.emitOpError()
           << "is marked " << MXDialect::kColumnConsumerAttrName
           << ", but its last input is not a memref of one i32 counter per N "
              "tile of its GEMM (and, with rows per output row, per output "
              "row and N tile)";
  for (Value operand : consumer->getOperands())
    if (failed(hoistDefinitionBefore(operand, op)))
      return consumer.emitOpError()
             << "is marked " << MXDialect::kColumnConsumerAttrName
             << ", but an operand is computed after its GEMM";
  return consumer;
}

LogicalResult gfx950::detail::checkFusedConsumersTaken(Operation *root) {
  WalkResult result = root->walk([&](Operation *op) {
    auto quantize = dyn_cast<QuantizeIntoOp>(op);
    if (quantize && quantize.getInConsumer() &&
        !quantize->getParentOfType<gpu::GPUModuleOp>()) {
      quantize.emitOpError()
          << "is marked in_consumer, but no mx.tiled_scaled_mma reads its "
             "elements as A and its scales as A's scales to quantize it";
      return WalkResult::interrupt();
    }
    if (isa<linalg::GenericOp>(op) &&
        op->hasAttr(MXDialect::kColumnConsumerAttrName)) {
      op->emitOpError() << "is marked " << MXDialect::kColumnConsumerAttrName
                        << ", but no mx.tiled_scaled_mma before it writes "
                           "the result it reads";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Emits the count of the wave on its strip's counter `counters[nIndex]`
/// (by lane 0, `isLane0`) and returns whether the wave is the strip's last:
/// the launch's M tiles times `waves` count it.
static Value createLastWaveOfStrip(OpBuilder &b, Location loc,
                                   gpu::LaunchOp launch, Value counters,
                                   Value nIndex, Value isLane0, int64_t waves) {
  Type i32 = b.getI32Type();
  auto i32Const = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  // Lane 0 counts the wave (an acquire-release read-modify-write: the
  // wave's stores are visible before the count, and the other waves' after
  // the last count).
  auto count = scf::IfOp::create(b, loc, TypeRange{i32}, isLane0,
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(count.thenBlock());
    Value old =
        memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                    i32Const(1), counters, ValueRange{nIndex});
    scf::YieldOp::create(b, loc, old);
    b.setInsertionPointToStart(count.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{i32Const(0)});
  }
  Value counted = gpu::SubgroupBroadcastOp::create(
      b, loc, count.getResult(0), i32Const(0),
      gpu::BroadcastTypeAttr::get(b.getContext(),
                                  gpu::BroadcastType::specific_lane));
  // (The launch's M tile count, not gpu.grid_dim: its ROCDL lowering is a
  // call into the device library.)
  Value total = arith::MulIOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, i32, launch.getGridSizeY()),
      i32Const(waves));
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, counted,
      arith::SubIOp::create(b, loc, total, i32Const(1)));
}

/// Emits the strip's output elements of `columnConsumer` (its rows, or only
/// row `fixedRow` of a 2-d output, times the `tileN` columns of N tile
/// `nIndex`), computed by the lanes of one wave.
static void createStripElements(OpBuilder &b, Location loc,
                                linalg::GenericOp columnConsumer, int64_t tileN,
                                Value nIndex, Value laneId,
                                Value fixedRow = {}) {
  OpBuilder::InsertionGuard guard(b);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // The strip's output elements, (rows of the output) x (tileN columns),
  // dealt to the lanes in rounds of `unroll` elements each: a round's loads
  // are unconditional (at indices clamped into the output) so that they
  // can all be in flight together, and only the stores are guarded.
  Value out = columnConsumer.getDpsInits()[0];
  ArrayRef<int64_t> shape = cast<MemRefType>(out.getType()).getShape();
  int64_t n = shape.back();
  int64_t rows = 1;
  for (int64_t size : shape.drop_back())
    rows *= size;
  if (fixedRow)
    rows = 1;
  int64_t elements = rows * tileN;
  int64_t perLane = llvm::divideCeil(elements, kWaveSize);
  int64_t unroll = std::min<int64_t>(perLane, 16);
  Value firstColumn = arith::MulIOp::create(b, loc, nIndex, index(tileN));
  auto loop = scf::ForOp::create(b, loc, index(0), index(elements),
                                 index(kWaveSize * unroll));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  SmallVector<std::pair<SmallVector<Value>, Value>> points;
  SmallVector<Value> values;
  for (int64_t u = 0; u < unroll; ++u) {
    Value element = arith::AddIOp::create(
        b, loc, loop.getInductionVar(),
        arith::AddIOp::create(b, loc, laneId, index(u * kWaveSize)));
    Value row = arith::DivUIOp::create(b, loc, element, index(tileN));
    Value column = arith::AddIOp::create(
        b, loc, firstColumn,
        arith::RemUIOp::create(b, loc, element, index(tileN)));
    Value valid = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                              index(rows)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column,
                              index(n)));
    row = arith::MinUIOp::create(b, loc, row, index(rows - 1));
    column = arith::MinUIOp::create(b, loc, column, index(n - 1));
    SmallVector<Value> ivs;
    if (fixedRow) {
      ivs.push_back(fixedRow);
    } else if (shape.size() > 1) {
      SmallVector<int64_t> basis(shape.drop_back());
      auto delinearize = affine::AffineDelinearizeIndexOp::create(
          b, loc, row, ArrayRef<int64_t>(basis));
      ivs.append(delinearize.getResults().begin(),
                 delinearize.getResults().end());
    }
    ivs.push_back(column);
    values.push_back(mx::emitLinalgBodyAt(b, loc, columnConsumer, ivs)[0]);
    points.push_back({ivs, valid});
  }
  for (auto [point, value] : llvm::zip(points, values)) {
    auto store = scf::IfOp::create(b, loc, TypeRange(), point.second,
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(store.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, value, out, point.first);
  }
}

/// Emits, for each lane of the wave whose `done` is set, the strip's
/// columns of output row `row` of that lane (lanes below `lanes`), one lane
/// after the other.
static void createDoneRows(OpBuilder &b, Location loc,
                           linalg::GenericOp consumer, int64_t tileN,
                           Value nIndex, Value laneId, Value done, Value row,
                           int64_t lanes) {
  OpBuilder::InsertionGuard guard(b);
  Type i32 = b.getI32Type();
  auto attr = gpu::BroadcastTypeAttr::get(b.getContext(),
                                          gpu::BroadcastType::specific_lane);
  Value doneI32 = arith::ExtUIOp::create(b, loc, i32, done);
  Value rowI32 = arith::IndexCastOp::create(b, loc, i32, row);
  auto loop =
      scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                         arith::ConstantIndexOp::create(b, loc, lanes),
                         arith::ConstantIndexOp::create(b, loc, 1));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value lane = arith::IndexCastOp::create(b, loc, i32, loop.getInductionVar());
  Value flag = gpu::SubgroupBroadcastOp::create(b, loc, doneI32, lane, attr);
  Value laneRow = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      gpu::SubgroupBroadcastOp::create(b, loc, rowI32, lane, attr));
  auto ifDone = scf::IfOp::create(
      b, loc, TypeRange(),
      arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, flag,
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0))),
      /*withElseRegion=*/false);
  b.setInsertionPoint(ifDone.thenBlock()->getTerminator());
  createStripElements(b, loc, consumer, tileN, nIndex, laneId, laneRow);
}

/// The index of output row `row`'s counter of the strip: after the strips'
/// counters, one per output row and strip.
static Value getRowCounter(OpBuilder &b, Location loc,
                           const ColumnConsumerTile &tile, Value row) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  return arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc,
                            arith::AddIOp::create(b, loc, row, index(1)),
                            index(tile.tilesN)),
      tile.nIndex);
}

/// The output rows a wave's lanes completed (`done`, `row`), for the lanes
/// below `lanes`.
struct DoneRows {
  Value done, row;
  int64_t lanes;
};

/// With a row group (each output row combines k rows of the accumulator
/// named by the routed GEMM's row ids): every wave counts each of its
/// tile's rows on its output row's counter of the strip (after the strip's
/// own counters); a lane whose count completes the row's (k rows x `waves`)
/// is done: the wave computes that row's strip (createDoneRows).
static SmallVector<DoneRows> createRowCounts(OpBuilder &b, Location loc,
                                             const ColumnConsumerTile &tile,
                                             Value counters, Value laneId) {
  SmallVector<DoneRows> doneRows;
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Type i32 = b.getI32Type();
  Value rowIds = createGlobalCast(b, loc, tile.rowIds);
  int64_t numIds = cast<MemRefType>(rowIds.getType()).getDimSize(0);
  int64_t target = tile.rowGroup * tile.waves;
  for (int64_t first = 0; first < tile.tileM; first += kWaveSize) {
    Value r = arith::AddIOp::create(b, loc, laneId, index(first));
    Value pos = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, tile.mIndex, index(tile.tileM)),
        r);
    Value inTile = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r,
                              index(tile.tileM)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos,
                              index(numIds)));
    auto [idIn, idValid] = loadIdInRange(
        b, loc, rowIds, arith::MinUIOp::create(b, loc, pos, index(numIds - 1)),
        index(tile.accRows));
    Value valid = arith::AndIOp::create(b, loc, inTile, idValid);
    Value row = arith::DivUIOp::create(
        b, loc, arith::SelectOp::create(b, loc, valid, idIn, index(0)),
        index(tile.rowGroup));
    Value counter = getRowCounter(b, loc, tile, row);
    auto count = scf::IfOp::create(b, loc, TypeRange{i32}, valid,
                                   /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(count.thenBlock());
      Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
      scf::YieldOp::create(b, loc,
                           ValueRange{memref::AtomicRMWOp::create(
                               b, loc, arith::AtomicRMWKind::addi, one,
                               counters, ValueRange{counter})});
      b.setInsertionPointToStart(count.elseBlock());
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::ConstantOp::create(
                               b, loc, b.getI32IntegerAttr(0))});
    }
    Value done = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              count.getResult(0),
                              arith::ConstantOp::create(
                                  b, loc, b.getI32IntegerAttr(target - 1))));
    doneRows.push_back(
        {done, row, std::min<int64_t>(kWaveSize, tile.tileM - first)});
  }
  return doneRows;
}

/// In the strip's last wave, with a row group: the output rows whose count
/// is incomplete (a row no id names keeps the accumulator's value, and no
/// wave completed its count) are computed here; every row's counter goes
/// back to +0.
static void createRowSweep(OpBuilder &b, Location loc,
                           linalg::GenericOp consumer,
                           const ColumnConsumerTile &tile, Value counters,
                           Value laneId) {
  OpBuilder::InsertionGuard guard(b);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t rows =
      cast<MemRefType>(consumer.getDpsInits()[0].getType()).getDimSize(0);
  int64_t target = tile.rowGroup * tile.waves;
  for (int64_t first = 0; first < rows; first += kWaveSize) {
    Value row = arith::AddIOp::create(b, loc, laneId, index(first));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          row, index(rows));
    row = arith::MinUIOp::create(b, loc, row, index(rows - 1));
    Value counter = getRowCounter(b, loc, tile, row);
    Value count = memref::LoadOp::create(b, loc, counters, ValueRange{counter});
    Value incomplete = arith::AndIOp::create(
        b, loc, inRange,
        arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ne, count,
            arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(target))));
    auto reset = scf::IfOp::create(b, loc, TypeRange(), inRange,
                                   /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(reset.thenBlock()->getTerminator());
      memref::StoreOp::create(
          b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
          counters, ValueRange{counter});
    }
    createDoneRows(b, loc, consumer, tile.tileN, tile.nIndex, laneId,
                   incomplete, row, std::min<int64_t>(kWaveSize, rows - first));
  }
}

void gfx950::detail::createColumnConsumer(OpBuilder &b, Location loc,
                                          gpu::LaunchOp launch,
                                          linalg::GenericOp columnConsumer,
                                          const ColumnConsumerTile &tile) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value counters =
      createGlobalCast(b, loc, columnConsumer.getDpsInputs().back());
  Value laneId =
      arith::RemUIOp::create(b, loc, launch.getThreadIds().x, index(kWaveSize));
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, laneId, index(0));
  // The rows' counts first, then the strip's: the strip's last wave then
  // sees every row's final count. The rows this wave completed are
  // computed after both counts, so that the two atomics' latencies pass
  // back to back.
  SmallVector<DoneRows> doneRows;
  if (tile.rowGroup)
    doneRows = createRowCounts(b, loc, tile, counters, laneId);
  Value isLast = createLastWaveOfStrip(b, loc, launch, counters, tile.nIndex,
                                       isLane0, tile.waves);
  for (const DoneRows &rows : doneRows)
    createDoneRows(b, loc, columnConsumer, tile.tileN, tile.nIndex, laneId,
                   rows.done, rows.row, rows.lanes);
  auto last = scf::IfOp::create(b, loc, TypeRange(), isLast,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(last.thenBlock()->getTerminator());
  // The counter back to +0 for the next launch.
  auto reset = scf::IfOp::create(b, loc, TypeRange(), isLane0,
                                 /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(reset.thenBlock()->getTerminator());
    memref::StoreOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
        counters, ValueRange{tile.nIndex});
  }
  if (tile.rowGroup)
    createRowSweep(b, loc, columnConsumer, tile, counters, laneId);
  else
    createStripElements(b, loc, columnConsumer, tile.tileN, tile.nIndex,
                        laneId);
}
