//===- AccumulatorAccess.cpp - GEMM kernels' accumulator accesses ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The loads and stores of a lane's accumulators in the launch of
// mx-gfx950-lower-tiled-mma: whole vectors of a data-tiled accumulator, or
// runs of consecutive columns of an accumulator in the user's layout.
//
//===----------------------------------------------------------------------===//

#include "AccumulatorAccess.h"

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;
using namespace mlir::mx::gfx950::detail;

/// The widest access of one lane (a dwordx4).
static constexpr int64_t kMaxAccessBytes = 16;

AccumulatorAccess::~AccumulatorAccess() = default;

namespace {
/// One access of a lane's accumulator vector (i, j) in the user's layout:
/// its values t0 .. t0 + length - 1 are consecutive columns of one row, at
/// (dr, dc + u) from the lane's value 0 of vector (0, 0).
struct AccessRun {
  int64_t i, j, t0, length, dr, dc;
  /// Whether every lane's first column of the run, in every tile, is a
  /// multiple of `length`, so that with N a multiple of it the run's columns
  /// are all inside the matrix or all past it.
  bool aligned;
};
} // namespace

/// The coordinates (row, column) in the workgroup's result tile of the
/// position `viewPosition` of the ukernel's view of the tile (wave m, wave
/// n, i, j, lane, value): the view, linearized, is the swizzled tile of the
/// layout, whose swizzle (mx::TileSwizzle) is undone.
static std::pair<int64_t, int64_t>
getTileCoords(DataTiledLayoutAttr layout, ArrayRef<int64_t> viewPosition) {
  SmallVector<int64_t> view = getUKernelTileShape(layout, OperandRole::result);
  TileSwizzle swizzle = getSwizzle(layout, OperandRole::result);
  int64_t linear = 0;
  for (auto [p, size] : llvm::zip_equal(viewPosition, view))
    linear = linear * size + p;
  SmallVector<int64_t> swizzled = swizzle.getSwizzledShape();
  SmallVector<int64_t> position(swizzled.size());
  for (int64_t d = int64_t(swizzled.size()) - 1; d >= 0; --d) {
    position[d] = linear % swizzled[d];
    linear /= swizzled[d];
  }
  SmallVector<int64_t> coords = swizzle.getTileCoords(position);
  return {coords[0], coords[1]};
}

/// The same at run time, for value `t` of accumulator vector (i, j) of lane
/// `lane` of wave (waveM, waveN). The view's dimensions are merged swizzled
/// dimensions, so the coordinates are the sum of those of each index alone.
static std::pair<Value, Value> createTileCoords(OpBuilder &b, Location loc,
                                                DataTiledLayoutAttr layout,
                                                Value waveM, Value waveN,
                                                Value i, Value j, Value lane,
                                                Value t) {
  SmallVector<int64_t> view = getUKernelTileShape(layout, OperandRole::result);
  TileSwizzle swizzle = getSwizzle(layout, OperandRole::result);
  SmallVector<int64_t> swizzled = swizzle.getSwizzledShape();
  auto foldSizes = [&](ArrayRef<int64_t> sizes) {
    return llvm::map_to_vector(sizes, [&](int64_t size) -> OpFoldResult {
      return b.getIndexAttr(size);
    });
  };
  Value linear = affine::AffineLinearizeIndexOp::create(
      b, loc, ValueRange{waveM, waveN, i, j, lane, t}, foldSizes(view),
      /*disjoint=*/true);
  ValueRange position = affine::AffineDelinearizeIndexOp::create(
                            b, loc, linear, foldSizes(swizzled),
                            /*hasOuterBound=*/true)
                            .getResults();
  // Expanded dimension permutation[d] is swizzled dimension d.
  SmallVector<Value> expanded(position.size());
  for (auto [d, source] : llvm::enumerate(swizzle.permutation))
    expanded[source] = position[d];
  SmallVector<Value> coords;
  unsigned next = 0;
  for (const SmallVector<TileSwizzle::Dim> &group : swizzle.expandShape) {
    SmallVector<int64_t> sizes = llvm::map_to_vector(
        group, [](const TileSwizzle::Dim &dim) { return dim.size; });
    ArrayRef<Value> indices(expanded.data() + next, group.size());
    next += group.size();
    coords.push_back(affine::AffineLinearizeIndexOp::create(
        b, loc, indices, foldSizes(sizes), /*disjoint=*/true));
  }
  return {coords[0], coords[1]};
}

/// The accesses of the accumulators in the user's layout `type`: runs of
/// consecutive columns of a row in each lane's vectors, of at most
/// kMaxAccessBytes of f32 and of `type`'s element type, where the
/// innermost stride is 1; one value each otherwise.
static SmallVector<AccessRun> getAccessRuns(DataTiledLayoutAttr layout,
                                            MemRefType type) {
  // Vectors of scalars of whole bytes, contiguous along N.
  int64_t maxLength = 1;
  SmallVector<int64_t> strides;
  int64_t offset;
  Type elementType = type.getElementType();
  if (elementType.isIntOrFloat() &&
      elementType.getIntOrFloatBitWidth() % 8 == 0 &&
      succeeded(type.getStridesAndOffset(strides, offset)) &&
      strides.back() == 1)
    maxLength = kMaxAccessBytes /
                std::max<int64_t>(4, elementType.getIntOrFloatBitWidth() / 8);
  SmallVector<int64_t> view = getUKernelTileShape(layout, OperandRole::result);
  SmallVector<AccessRun> runs;
  for (int64_t i = 0; i < view[2]; ++i)
    for (int64_t j = 0; j < view[3]; ++j)
      for (int64_t t = 0; t < view[5]; ++t) {
        auto [dr, dc] = getTileCoords(layout, {0, 0, i, j, 0, t});
        if (!runs.empty()) {
          AccessRun &last = runs.back();
          if (last.i == i && last.j == j && last.length < maxLength &&
              last.dr == dr && last.dc + last.length == dc) {
            ++last.length;
            continue;
          }
        }
        runs.push_back({i, j, t, 1, dr, dc, true});
      }
  // The first columns of the lanes' value 0 of vector (0, 0), per wave.
  SmallVector<int64_t> laneCols;
  for (int64_t waveM = 0; waveM < view[0]; ++waveM)
    for (int64_t waveN = 0; waveN < view[1]; ++waveN)
      for (int64_t lane = 0; lane < view[4]; ++lane)
        laneCols.push_back(
            getTileCoords(layout, {waveM, waveN, 0, 0, lane, 0}).second);
  int64_t tileN = getTileSizes(layout).n;
  for (AccessRun &run : runs)
    run.aligned = tileN % run.length == 0 && run.dc % run.length == 0 &&
                  llvm::all_of(laneCols, [&](int64_t col) {
                    return col % run.length == 0;
                  });
  return runs;
}

Value gfx950::detail::createGlobalCast(OpBuilder &b, Location loc,
                                       Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return memref::MemorySpaceCastOp::create(
      b, loc,
      MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(),
                      b.getI64IntegerAttr(kGlobalAddressSpace)),
      memref);
}

/// A bounds-checked buffer of `memref` (in global memory).
std::pair<Value, Value> gfx950::detail::loadIdInRange(OpBuilder &b,
                                                      Location loc,
                                                      Value memref, Value index,
                                                      Value bound) {
  return idInRange(
      b, loc, memref::LoadOp::create(b, loc, memref, ValueRange{index}), bound);
}

std::pair<Value, Value> gfx950::detail::idInRange(OpBuilder &b, Location loc,
                                                  Value loaded, Value bound) {
  Value id = arith::IndexCastOp::create(b, loc, b.getIndexType(), loaded);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value inRange = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, id, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, id, bound));
  return {id, inRange};
}

static Value createCheckedBuffer(OpBuilder &b, Location loc, Value memref) {
  return amdgpu::FatRawBufferCastOp::create(
      b, loc, memref, /*validBytes=*/Value(), /*cacheSwizzleStride=*/Value(),
      /*boundsCheck=*/true, /*resetOffset=*/true);
}

namespace {
/// Whole vectors of the ukernel's view of a swizzled tile.
class SwizzledAccess : public AccumulatorAccess {
public:
  SwizzledAccess(OpBuilder &b, Location loc, VectorType vectorType, Value view)
      : b(b), loc(loc), vectorType(vectorType), view(view) {}

  Value load(int64_t i, int64_t j, Value waveM, Value waveN,
             Value lane) override {
    return vector::LoadOp::create(b, loc, vectorType, view,
                                  indices(i, j, waveM, waveN, lane));
  }
  void store(int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
             Value v) override {
    vector::StoreOp::create(b, loc, v, view, indices(i, j, waveM, waveN, lane));
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  SmallVector<Value> indices(int64_t i, int64_t j, Value waveM, Value waveN,
                             Value lane) {
    return SmallVector<Value>{waveM, waveN, index(i), index(j), lane, index(0)};
  }

  OpBuilder &b;
  Location loc;
  VectorType vectorType;
  Value view;
};

/// The user's layout, through a bounds-checked buffer of the workgroup's
/// rows of the batch's M x N matrix, so that a row past M is out of range:
/// its loads read 0 and its stores are dropped by the hardware. The lane's
/// values of vector (i, j) are runs (getAccessRuns): run values t0 + u at
/// (row + dr, col + dc + u), (row, col) where the lane's value 0 of vector
/// (0, 0) is and (dr, dc) constants. A run (or value) whose first column is
/// past N gets row M instead of row, which puts it out of range too.
class UserLayoutAccess : public AccumulatorAccess {
public:
  UserLayoutAccess(OpBuilder &b, TiledScaledMMAOp op,
                   DataTiledLayoutAttr layout)
      : b(b), loc(op.getLoc()), op(op), layout(layout),
        tile(getTileSizes(layout)) {
    int64_t accPerLane = getIntrinsicInfo(layout.getIntrinsic()).accPerLane;
    vectorType = VectorType::get({accPerLane}, b.getF32Type());
  }

  /// Emits the buffers of the workgroup's accumulators and epilogue inputs
  /// (see createUserLayoutAccumulatorAccess).
  void initialize(ValueRange batch, Value mIndex, Value nIndex,
                  std::pair<Value, Value> groupRows, Value rowIds);

  Value load(int64_t i, int64_t j, Value waveM, Value waveN,
             Value lane) override;
  void store(int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
             Value v) override;
  void prepareAccesses(Value waveM, Value waveN, Value lane) override;
  void forLoads(function_ref<void()> body) override;
  void forStores(function_ref<void()> body) override;

private:
  /// How runs are accessed: masked by their first column (the default), as
  /// whole vectors (the tile lies inside N), or value by value.
  enum class Mode { Masked, Inside, ByValue };

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The size of dimension `d` of `memref` (a constant if static).
  Value dim(Value memref, int64_t d);
  /// The batch's M x N matrix of acc in global memory.
  Value createMatrix(ValueRange batch);
  /// Sets the tile's first row and row count (and for a routed GEMM, what
  /// rowOf looks rows up in).
  void createTileRows(Value mIndex, std::pair<Value, Value> groupRows,
                      Value rowIds);
  /// The row of acc of tile row `row` (the identity but for a routed GEMM).
  Value rowOf(Value row);
  /// The i32 row id of the tile's row `row` (a load of the row ids).
  Value loadRowId(Value row);
  /// rowOf(row) from its id as loadRowId loaded it.
  Value rowOfId(Value row, Value loaded);
  /// The value stored for sum `x` at result position (row, col).
  Value epilogue(Value x, Value row, Value col);
  /// The position (row, col) of the lane's value 0 of vector (0, 0); the
  /// runs are at constant offsets from it (the view's dimensions are merged
  /// swizzled dimensions, so positions add up).
  std::pair<Value, Value> getBase(Value waveM, Value waveN, Value lane);
  /// Column `u` of a run starting at `col`.
  Value column(Value col, int64_t u);
  /// Row `row` (of the tile) where column `col` is inside the matrix, else
  /// the tile's row count: out of the buffer's range, so the access is
  /// dropped (a load reads 0).
  Value mask(Value row, Value col);
  /// Accesses `run` at (row, col): as one vector (`vectorAccess(row, col)`,
  /// the row masked by the run's first column unless the tile is inside N),
  /// or value by value, each masked (`valueAccess(u, row, col + u)`, whose
  /// results `pack` combines into what vectorAccess returns).
  Value accessRun(const AccessRun &run, Value row, Value col,
                  function_ref<Value(Value, Value)> vectorAccess,
                  function_ref<Value(int64_t, Value, Value)> valueAccess,
                  function_ref<Value(ArrayRef<Value>)> pack);
  /// Calls `body` with each run of vector (i, j) of the lane and its first
  /// position (row, col).
  void
  forEachRun(int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
             function_ref<void(const AccessRun &, Value row, Value col)> body);

  OpBuilder &b;
  Location loc;
  TiledScaledMMAOp op;
  DataTiledLayoutAttr layout;
  TileSizes tile;
  VectorType vectorType;
  SmallVector<Value> batchIndices;
  /// The size of acc's M and N dimensions.
  Value rows, cols;
  /// The tile's first row in acc and its row count.
  Value rowBase, tileRows;
  /// A routed GEMM's row ids (in global memory), the tile's first entry and
  /// its row count.
  Value rowIds, firstRowId, rowCount;
  /// The rows prepareAccesses looked up: for the lane given there, at each
  /// row offset of the runs, the tile's row and its id as loaded (checked
  /// and selected at the accesses, so that only the loads come early).
  SmallVector<Value, 3> preparedLane;
  DenseMap<int64_t, std::pair<Value, Value>> preparedRows;
  Value buffer;
  SmallVector<Value> epilogueInputs;
  Value colBase;
  Type storedType;
  SmallVector<AccessRun> runs;
  bool mayStraddle = false;
  Mode mode = Mode::Masked;
};
} // namespace

Value UserLayoutAccess::dim(Value memref, int64_t d) {
  int64_t size = cast<MemRefType>(memref.getType()).getDimSize(d);
  if (ShapedType::isStatic(size))
    return index(size);
  return memref::DimOp::create(b, loc, memref, d);
}

Value UserLayoutAccess::createMatrix(ValueRange batch) {
  Value acc = op.getAcc();
  auto type = cast<MemRefType>(acc.getType());
  auto globalType =
      MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(),
                      b.getI64IntegerAttr(kGlobalAddressSpace));
  Value matrix = memref::MemorySpaceCastOp::create(b, loc, globalType, acc);
  unsigned numBatch = batch.size();
  rows = dim(acc, numBatch);
  cols = dim(acc, numBatch + 1);
  if (numBatch == 0)
    return matrix;
  SmallVector<OpFoldResult> offsets(batch.begin(), batch.end());
  offsets.append({b.getIndexAttr(0), b.getIndexAttr(0)});
  SmallVector<OpFoldResult> sizes(numBatch, b.getIndexAttr(1));
  sizes.append({memref::getMixedSize(b, loc, matrix, numBatch),
                memref::getMixedSize(b, loc, matrix, numBatch + 1)});
  SmallVector<OpFoldResult> strides(numBatch + 2, b.getIndexAttr(1));
  auto sliceType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().take_back(2), cast<MemRefType>(matrix.getType()), offsets,
      sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(sliceType), matrix,
                                   offsets, sizes, strides);
}

void UserLayoutAccess::createTileRows(Value mIndex,
                                      std::pair<Value, Value> groupRows,
                                      Value rowIdsArg) {
  if (rowIdsArg) {
    // A routed GEMM's tile: its rows are anywhere in acc, so the buffer is
    // the whole matrix (its offsets are 32-bit: acc must stay below 4 GiB,
    // which the caller checks) and each row is looked up; a row past the
    // tile's count or outside acc is row M, outside the buffer.
    rowBase = index(0);
    tileRows = rows;
    auto idsType = cast<MemRefType>(rowIdsArg.getType());
    rowIds = memref::MemorySpaceCastOp::create(
        b, loc,
        MemRefType::get(idsType.getShape(), idsType.getElementType(),
                        idsType.getLayout(),
                        b.getI64IntegerAttr(kGlobalAddressSpace)),
        rowIdsArg);
    firstRowId = arith::MulIOp::create(b, loc, mIndex, index(tile.m));
    rowCount = groupRows.second;
  } else if (groupRows.first) {
    // A grouped GEMM's tile: the rows its table entry names (within acc).
    rowBase = groupRows.first;
    tileRows = groupRows.second;
  } else {
    rowBase = arith::MulIOp::create(b, loc, mIndex, index(tile.m));
    tileRows = arith::MinUIOp::create(
        b, loc, index(tile.m), arith::SubIOp::create(b, loc, rows, rowBase));
  }
}

void UserLayoutAccess::initialize(ValueRange batch, Value mIndex, Value nIndex,
                                  std::pair<Value, Value> groupRows,
                                  Value rowIdsArg) {
  Value matrix = createMatrix(batch);
  // Only the workgroup's rows: the buffer's base is the tile's first row
  // (its address computed in 64 bits), so its 32-bit range and offsets hold
  // for results of any size (a buffer of the whole matrix would overflow
  // past 4 GiB). Rows are relative to the tile from here on; a row past M
  // is past the view's rows.
  createTileRows(mIndex, groupRows, rowIdsArg);
  {
    auto matrixType = cast<MemRefType>(matrix.getType());
    SmallVector<OpFoldResult> offsets = {rowBase, b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {tileRows, cols};
    SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
    auto rowsType =
        memref::SubViewOp::inferResultType(matrixType, offsets, sizes, strides);
    matrix = memref::SubViewOp::create(b, loc, cast<MemRefType>(rowsType),
                                       matrix, offsets, sizes, strides);
  }
  buffer = createCheckedBuffer(b, loc, matrix);
  // The epilogue's inputs, bounds-checked too: the values past M or N read
  // 0 (they are computed, but their stores are dropped).
  for (Value input : op.getEpilogueInputs())
    epilogueInputs.push_back(
        createCheckedBuffer(b, loc, createGlobalCast(b, loc, input)));
  batchIndices.assign(batch.begin(), batch.end());
  colBase = arith::MulIOp::create(b, loc, nIndex, index(tile.n));
  auto type = cast<MemRefType>(op.getAcc().getType());
  storedType = type.getElementType();
  runs = getAccessRuns(layout, type);
  // A run may straddle column N (part of it in its row, part past the
  // row's end, where the next row is) only when its columns are not
  // aligned to its length or N is not a static multiple of it. Then the
  // workgroups whose tile lies inside N store whole runs and the others
  // (the last column of tiles) value by value, chosen by a
  // workgroup-uniform branch around all stores (forStores).
  int64_t staticCols = type.getDimSize(batch.size() + 1);
  mayStraddle = llvm::any_of(runs, [&](const AccessRun &run) {
    return run.length > 1 &&
           (!run.aligned || ShapedType::isDynamic(staticCols) ||
            staticCols % run.length != 0);
  });
}

Value UserLayoutAccess::rowOf(Value row) {
  if (!rowIds)
    return row;
  return rowOfId(row, loadRowId(row));
}

Value UserLayoutAccess::loadRowId(Value row) {
  return memref::LoadOp::create(
      b, loc, rowIds,
      ValueRange{arith::AddIOp::create(b, loc, firstRowId, row)});
}

Value UserLayoutAccess::rowOfId(Value row, Value loaded) {
  auto [id, inAcc] = idInRange(b, loc, loaded, rows);
  Value valid = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rowCount),
      inAcc);
  return arith::SelectOp::create(b, loc, valid, id, rows);
}

Value UserLayoutAccess::epilogue(Value x, Value row, Value col) {
  if (!op.hasEpilogue())
    return x;
  SmallVector<Value> position = batchIndices;
  position.push_back(row);
  position.push_back(col);
  Block &body = op.getEpilogueBlock();
  IRMapping mapping;
  mapping.map(body.getArgument(0), x);
  for (auto [i, input] : llvm::enumerate(epilogueInputs)) {
    AffineMap map = cast<AffineMapAttr>(op.getEpilogueMapsAttr()[i]).getValue();
    SmallVector<Value> indices;
    for (AffineExpr expr : map.getResults())
      indices.push_back(position[cast<AffineDimExpr>(expr).getPosition()]);
    mapping.map(body.getArgument(i + 1),
                memref::LoadOp::create(b, loc, input, indices));
  }
  for (Operation &nested : body.without_terminator())
    b.clone(nested, mapping);
  return mapping.lookupOrDefault(
      cast<YieldOp>(body.getTerminator()).getValues()[0]);
}

std::pair<Value, Value> UserLayoutAccess::getBase(Value waveM, Value waveN,
                                                  Value lane) {
  Value zero = index(0);
  auto [r, c] =
      createTileCoords(b, loc, layout, waveM, waveN, zero, zero, lane, zero);
  Value col = arith::AddIOp::create(b, loc, colBase, c);
  return std::make_pair(r, col);
}

Value UserLayoutAccess::column(Value col, int64_t u) {
  return u ? arith::AddIOp::create(b, loc, col, index(u)).getResult() : col;
}

Value UserLayoutAccess::mask(Value row, Value col) {
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, cols);
  return arith::SelectOp::create(b, loc, inside, row, tileRows);
}

Value UserLayoutAccess::accessRun(
    const AccessRun &run, Value row, Value col,
    function_ref<Value(Value, Value)> vectorAccess,
    function_ref<Value(int64_t, Value, Value)> valueAccess,
    function_ref<Value(ArrayRef<Value>)> pack) {
  if (run.length > 1 && mode == Mode::Inside)
    return vectorAccess(row, col);
  if (run.length > 1 && mode == Mode::Masked)
    return vectorAccess(mask(row, col), col);
  SmallVector<Value> results;
  for (int64_t u = 0; u < run.length; ++u) {
    Value c = column(col, u);
    if (Value result = valueAccess(u, mask(row, c), c))
      results.push_back(result);
  }
  return pack(results);
}

void UserLayoutAccess::prepareAccesses(Value waveM, Value waveN, Value lane) {
  if (!rowIds)
    return;
  Value row0 = getBase(waveM, waveN, lane).first;
  preparedLane = {waveM, waveN, lane};
  for (const AccessRun &run : runs) {
    if (preparedRows.count(run.dr))
      continue;
    Value row = arith::AddIOp::create(b, loc, row0, index(run.dr));
    preparedRows[run.dr] = {row, loadRowId(row)};
  }
}

void UserLayoutAccess::forEachRun(
    int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
    function_ref<void(const AccessRun &, Value row, Value col)> body) {
  auto [row0, col0] = getBase(waveM, waveN, lane);
  bool prepared = preparedLane == ArrayRef<Value>{waveM, waveN, lane};
  for (const AccessRun &run : runs) {
    if (run.i != i || run.j != j)
      continue;
    Value row;
    if (prepared) {
      auto [offset, loaded] = preparedRows.lookup(run.dr);
      row = rowOfId(offset, loaded);
    } else {
      row = rowOf(arith::AddIOp::create(b, loc, row0, index(run.dr)));
    }
    Value col = arith::AddIOp::create(b, loc, col0, index(run.dc));
    body(run, row, col);
  }
}

Value UserLayoutAccess::load(int64_t i, int64_t j, Value waveM, Value waveN,
                             Value lane) {
  Value v = arith::ConstantOp::create(b, loc, vectorType,
                                      DenseElementsAttr::get(vectorType, 0.0f));
  forEachRun(
      i, j, waveM, waveN, lane,
      [&](const AccessRun &run, Value row, Value col) {
        auto runType = VectorType::get({run.length}, b.getF32Type());
        Value loaded = accessRun(
            run, row, col,
            [&](Value r, Value c) -> Value {
              return vector::LoadOp::create(b, loc, runType, buffer,
                                            ValueRange{r, c});
            },
            [&](int64_t, Value r, Value c) -> Value {
              return memref::LoadOp::create(b, loc, buffer, ValueRange{r, c});
            },
            [&](ArrayRef<Value> values) -> Value {
              return vector::FromElementsOp::create(b, loc, runType, values);
            });
        for (int64_t u = 0; u < run.length; ++u) {
          Value x = vector::ExtractOp::create(b, loc, loaded, u);
          v = vector::InsertOp::create(b, loc, x, v, run.t0 + u);
        }
      });
  return v;
}

void UserLayoutAccess::store(int64_t i, int64_t j, Value waveM, Value waveN,
                             Value lane, Value v) {
  forEachRun(
      i, j, waveM, waveN, lane,
      [&](const AccessRun &run, Value row, Value col) {
        // The epilogue, value by value, at each value's position (rows
        // and columns past M or N compute values that are not stored).
        SmallVector<Value> values;
        for (int64_t u = 0; u < run.length; ++u) {
          Value x = vector::ExtractOp::create(b, loc, v, run.t0 + u);
          values.push_back(epilogue(
              x, arith::AddIOp::create(b, loc, rowBase, row), column(col, u)));
        }
        accessRun(
            run, row, col,
            [&](Value r, Value c) -> Value {
              auto runType = VectorType::get({run.length}, storedType);
              Value packed =
                  vector::FromElementsOp::create(b, loc, runType, values);
              vector::StoreOp::create(b, loc, packed, buffer, ValueRange{r, c});
              return {};
            },
            [&](int64_t u, Value r, Value c) -> Value {
              memref::StoreOp::create(b, loc, values[u], buffer,
                                      ValueRange{r, c});
              return {};
            },
            [](ArrayRef<Value>) { return Value(); });
      });
}

void UserLayoutAccess::forLoads(function_ref<void()> body) {
  // Loads where runs may straddle N go value by value everywhere: the same
  // branch before the K loop makes LLVM spill (53 VGPRs on the seed layout
  // with dynamic M and N).
  if (!mayStraddle)
    return body();
  mode = Mode::ByValue;
  body();
  mode = Mode::Masked;
}

void UserLayoutAccess::forStores(function_ref<void()> body) {
  if (!mayStraddle)
    return body();
  Value end = arith::AddIOp::create(b, loc, colBase, index(tile.n));
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, cols);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), inside,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  for (auto [block, blockMode] :
       {std::make_pair(ifOp.thenBlock(), Mode::Inside),
        std::make_pair(ifOp.elseBlock(), Mode::ByValue)}) {
    b.setInsertionPoint(block->getTerminator());
    mode = blockMode;
    body();
  }
  mode = Mode::Masked;
}

std::unique_ptr<AccumulatorAccess>
mlir::mx::gfx950::detail::createSwizzledAccumulatorAccess(
    OpBuilder &b, Location loc, DataTiledLayoutAttr layout, Value view) {
  int64_t accPerLane = getIntrinsicInfo(layout.getIntrinsic()).accPerLane;
  auto vectorType = VectorType::get({accPerLane}, b.getF32Type());
  return std::make_unique<SwizzledAccess>(b, loc, vectorType, view);
}

std::unique_ptr<AccumulatorAccess>
mlir::mx::gfx950::detail::createUserLayoutAccumulatorAccess(
    OpBuilder &b, TiledScaledMMAOp op, DataTiledLayoutAttr layout,
    ValueRange batch, Value mIndex, Value nIndex,
    std::pair<Value, Value> groupRows, Value rowIds) {
  auto access = std::make_unique<UserLayoutAccess>(b, op, layout);
  access->initialize(batch, mIndex, nIndex, groupRows, rowIds);
  return access;
}

GroupedTile gfx950::detail::loadGroupedTile(OpBuilder &b, Location loc,
                                            TiledScaledMMAOp op,
                                            DataTiledLayoutAttr layout,
                                            Value table, Value mIndex) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto dim = [&](Value memref, int64_t d) -> Value {
    return b.createOrFold<memref::DimOp>(loc, memref, d);
  };
  Value experts = dim(op.getRhs(), 0);
  if (cast<MemRefType>(table.getType()).getRank() == 1) {
    // The block experts of a routed GEMM: the tile's expert is its block's,
    // and a tile of an expert outside [0, E) has no rows.
    int64_t tileRows = layout.getInnerTileSizes(OperandRole::lhs)[0];
    Value blockRows = arith::DivUIOp::create(b, loc, dim(op.getRowIds(), 0),
                                             dim(op.getTileGroups(), 0));
    Value first = arith::MulIOp::create(b, loc, mIndex, index(tileRows));
    auto [expert, valid] = loadIdInRange(
        b, loc, table, arith::DivUIOp::create(b, loc, first, blockRows),
        experts);
    Value rows =
        arith::SelectOp::create(b, loc, valid, index(tileRows), index(0));
    return {arith::SelectOp::create(b, loc, valid, expert, index(0)),
            {first, rows},
            rows};
  }
  auto field = [&](int64_t f) -> Value {
    Value v =
        memref::LoadOp::create(b, loc, table, ValueRange{mIndex, index(f)});
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  };
  // A tile of a group outside [0, E) (the rows outside every expert, in a
  // table for zero_empty_tiles) computes nothing.
  Value group = field(0);
  Value valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, group, experts);
  std::pair<Value, Value> rows = {field(1), field(2)};
  return {arith::SelectOp::create(b, loc, valid, group, index(0)), rows,
          arith::SelectOp::create(b, loc, valid, rows.second, index(0))};
}
