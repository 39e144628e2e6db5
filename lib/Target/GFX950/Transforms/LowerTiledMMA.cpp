//===- LowerTiledMMA.cpp - mx-gfx950-lower-tiled-mma ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One workgroup per output tile; its waves call the selected ukernel on views
// of the workgroup's tiles and on the workgroup's LDS staging buffer.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/UKernels/QuantizeInGEMM.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950LOWERTILEDMMA
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

/// The widest access of one lane (a dwordx4).
static constexpr int64_t kMaxAccessBytes = 16;

namespace {
/// How a lane's accumulator vector (i, j) is loaded from and stored to the
/// op's accumulator, given the wave (waveM, waveN) and the lane.
struct AccumulatorStore {
  std::function<Value(int64_t i, int64_t j, Value waveM, Value waveN,
                      Value lane)>
      load;
  std::function<void(int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
                     Value v)>
      store;
  /// Emit `body`, the loads (stores) of all vectors: once, or for stores
  /// whose width depends on where the tile lies, once in each branch of a
  /// workgroup-uniform scf.if.
  std::function<void(function_ref<void()> body)> forLoads =
      [](function_ref<void()> body) { body(); };
  std::function<void(function_ref<void()> body)> forStores =
      [](function_ref<void()> body) { body(); };
};

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

/// Builds the launch of one mx.tiled_scaled_mma.
class TiledMMALowering {
public:
  TiledMMALowering(TiledScaledMMAOp op, DataTiledLayoutAttr layout)
      : op(op), layout(layout), b(op), loc(op.getLoc()) {}

  /// With `quantize` (an in_consumer quantize writing A and its scales),
  /// the ukernel quantizes A from the quantize's input itself.
  LogicalResult run(ModuleOp module, StringRef ukernel, StringRef kernelName,
                    QuantizeIntoOp quantize = {});

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The size of dimension `d` of `memref` (a constant if static).
  Value dim(Value memref, int64_t d) {
    int64_t size = cast<MemRefType>(memref.getType()).getDimSize(d);
    if (ShapedType::isStatic(size))
      return index(size);
    return memref::DimOp::create(b, loc, memref, d);
  }
  /// A view of the workgroup's tile of `memref` in the ukernel's shape:
  /// the outer indices `outer` select the tile, `withKo` keeps the K tile
  /// dimension in front.
  Value tileView(Value memref, OperandRole role, ValueRange outer, bool withKo);
  /// The view of the unquantized A of the workgroup at `outer` ([B.., Mo])
  /// that a ukernel quantizing A reads, [Ko, tile] with the lanes split
  /// (see ukernels/gfx950/mx_uk_scaled_mma_quantized_lhs.mlir), through a
  /// bounds-checked buffer of the whole input (a row past M reads 0).
  FailureOr<Value> quantizedLhsView(QuantizeIntoOp quantize,
                                    const QuantizedLhsSource &source,
                                    ValueRange outer);
  /// Loads and stores of the accumulators of the workgroup at tile (mIndex,
  /// nIndex) of batch `batch` in `acc`: whole vectors in the swizzled tile,
  /// or runs of consecutive columns (getAccessRuns) in the user's layout,
  /// masked at the edges.
  /// With `groupRows` (a grouped GEMM: the tile's first row in `acc` and its
  /// row count), the tile's rows are those rows instead of tile `mIndex`'s;
  /// with `rowIds` too (a routed GEMM), tile row r is row
  /// rowIds[mIndex * tile rows + r] of `acc`.
  AccumulatorStore getAccumulatorStore(Value acc, ValueRange batch,
                                       Value mIndex, Value nIndex,
                                       bool userLayout,
                                       std::pair<Value, Value> groupRows = {},
                                       Value rowIds = {});
  /// The accesses of the accumulators in the user's layout `type`: runs of
  /// consecutive columns of a row in each lane's vectors, of at most
  /// kMaxAccessBytes of f32 and of `type`'s element type, where the
  /// innermost stride is 1; one value each otherwise.
  SmallVector<AccessRun> getAccessRuns(MemRefType type);
  /// The coordinates (row, column) in the workgroup's result tile of value
  /// `t` of accumulator vector (i, j) of lane `lane` of wave (waveM, waveN):
  /// the ukernel's view of the tile, linearized, is the swizzled tile of
  /// the layout, whose swizzle (mx::TileSwizzle) is undone. The view's
  /// dimensions are merged swizzled dimensions, so the coordinates are the
  /// sum of those of each index alone.
  std::pair<Value, Value> getTileCoords(Value waveM, Value waveN, Value i,
                                        Value j, Value lane, Value t);
  /// The same for constant indices.
  std::pair<int64_t, int64_t> getTileCoords(ArrayRef<int64_t> viewPosition);

  TiledScaledMMAOp op;
  DataTiledLayoutAttr layout;
  OpBuilder b;
  Location loc;
};
} // namespace

Value TiledMMALowering::tileView(Value memref, OperandRole role,
                                 ValueRange outer, bool withKo) {
  auto type = cast<MemRefType>(memref.getType());
  // Everything after the outer indices is contiguous: [Ko?, tile...].
  SmallVector<int64_t> tileShape = getUKernelTileShape(layout, role);
  int64_t tileSize = 1;
  for (int64_t size : tileShape)
    tileSize *= size;

  // Element offset of the tile: row-major linearization of `outer` over the
  // leading dimensions, times everything behind them.
  int64_t numOuter = outer.size();
  Value inner = index(tileSize);
  Value ko;
  if (withKo) {
    ko = dim(memref, numOuter);
    inner = arith::MulIOp::create(b, loc, inner, ko);
  }
  Value linear = index(0);
  for (int64_t d = 0; d < numOuter; ++d)
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, dim(memref, d)),
        outer[d]);
  Value offset = arith::MulIOp::create(b, loc, linear, inner);

  auto global = MemRefType::get(type.getShape(), type.getElementType(),
                                MemRefLayoutAttrInterface(),
                                b.getI64IntegerAttr(kGlobalAddressSpace));
  Value globalMemRef =
      memref::MemorySpaceCastOp::create(b, loc, global, memref);

  SmallVector<int64_t> shape = tileShape;
  SmallVector<OpFoldResult> sizes;
  if (withKo)
    shape.insert(shape.begin(), type.getDimSize(numOuter));
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  for (auto [d, size] : llvm::enumerate(shape))
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(ko)
                                                : b.getIndexAttr(size));
  SmallVector<OpFoldResult> strideFolds = llvm::map_to_vector(
      strides, [&](int64_t s) -> OpFoldResult { return b.getIndexAttr(s); });
  auto viewType = MemRefType::get(
      shape, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides),
      b.getI64IntegerAttr(kGlobalAddressSpace));
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, globalMemRef, OpFoldResult(offset), sizes, strideFolds);
}

FailureOr<Value>
TiledMMALowering::quantizedLhsView(QuantizeIntoOp quantize,
                                   const QuantizedLhsSource &source,
                                   ValueRange outer) {
  Value input = quantize.getInput();
  auto type = cast<MemRefType>(input.getType());
  SmallVector<int64_t> inputStrides;
  int64_t inputOffset;
  if (failed(type.getStridesAndOffset(inputStrides, inputOffset)) ||
      llvm::any_of(inputStrides, ShapedType::isDynamic))
    return op.emitOpError() << "quantizes A in the kernel from " << type
                            << ", which needs static strides";
  Value global = memref::MemorySpaceCastOp::create(
      b, loc,
      MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(),
                      b.getI64IntegerAttr(kGlobalAddressSpace)),
      input);
  Value buffer = amdgpu::FatRawBufferCastOp::create(
      b, loc, global, /*validBytes=*/Value(), /*cacheSwizzleStride=*/Value(),
      /*boundsCheck=*/true, /*resetOffset=*/true);
  // Each destination dimension steps along one input dimension.
  SmallVector<int64_t> strides =
      llvm::map_to_vector(source.steps, [&](std::pair<unsigned, int64_t> step) {
        return inputStrides[step.first] * step.second;
      });
  Value offset = index(0);
  for (auto [index, stride] : llvm::zip(outer, strides))
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, index, this->index(stride)));
  // The ukernel's view [Ko, sm, im, ik, G, R, 32], its dimensions those
  // of the destination (a unit dimension the swizzle drops: size 1).
  auto destType = cast<MemRefType>(quantize.getElements()[0].getType());
  SmallVector<int64_t> viewShape, viewStrides;
  for (int64_t d : source.viewDims) {
    viewShape.push_back(d < 0 ? 1 : destType.getDimSize(d));
    viewStrides.push_back(d < 0 ? 0 : strides[d]);
  }
  viewShape.back() = kBlockSize;
  auto bufferType = cast<MemRefType>(buffer.getType());
  auto viewType = MemRefType::get(
      viewShape, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, viewStrides),
      bufferType.getMemorySpace());
  SmallVector<OpFoldResult> sizes = llvm::map_to_vector(
      viewShape, [&](int64_t s) -> OpFoldResult { return b.getIndexAttr(s); });
  SmallVector<OpFoldResult> strideFolds =
      llvm::map_to_vector(viewStrides, [&](int64_t s) -> OpFoldResult {
        return b.getIndexAttr(s);
      });
  return memref::ReinterpretCastOp::create(
             b, loc, viewType, buffer, OpFoldResult(offset), sizes, strideFolds)
      .getResult();
}

AccumulatorStore TiledMMALowering::getAccumulatorStore(
    Value acc, ValueRange batch, Value mIndex, Value nIndex, bool userLayout,
    std::pair<Value, Value> groupRows, Value rowIds) {
  int64_t accPerLane = getIntrinsicInfo(layout.getIntrinsic()).accPerLane;
  auto vectorType = VectorType::get({accPerLane}, b.getF32Type());
  if (!userLayout) {
    SmallVector<Value> outer(batch);
    outer.push_back(mIndex);
    outer.push_back(nIndex);
    Value view = tileView(acc, OperandRole::result, outer, false);
    auto indices = [this](int64_t i, int64_t j, Value waveM, Value waveN,
                          Value lane) {
      return SmallVector<Value>{waveM,    waveN, index(i),
                                index(j), lane,  index(0)};
    };
    return {[=](int64_t i, int64_t j, Value waveM, Value waveN, Value lane) {
              return vector::LoadOp::create(b, loc, vectorType, view,
                                            indices(i, j, waveM, waveN, lane))
                  .getResult();
            },
            [=](int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
                Value v) {
              vector::StoreOp::create(b, loc, v, view,
                                      indices(i, j, waveM, waveN, lane));
            }};
  }

  // The user's layout, through a bounds-checked buffer of the batch's
  // M x N matrix, so that a row past M is out of range: its loads read 0
  // and its stores are dropped by the hardware. The lane's values of
  // vector (i, j) are runs (getAccessRuns): run values t0 + u at (row + dr,
  // col + dc + u), (row, col) where the lane's value 0 of vector (0, 0) is
  // and (dr, dc) constants. A run (or value) whose first column is past N
  // gets row M instead of row, which puts it out of range too.
  auto type = cast<MemRefType>(acc.getType());
  auto globalType =
      MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(),
                      b.getI64IntegerAttr(kGlobalAddressSpace));
  Value matrix = memref::MemorySpaceCastOp::create(b, loc, globalType, acc);
  unsigned numBatch = batch.size();
  Value rows = dim(acc, numBatch), cols = dim(acc, numBatch + 1);
  if (numBatch > 0) {
    SmallVector<OpFoldResult> offsets(batch.begin(), batch.end());
    offsets.append({b.getIndexAttr(0), b.getIndexAttr(0)});
    SmallVector<OpFoldResult> sizes(numBatch, b.getIndexAttr(1));
    sizes.append({memref::getMixedSize(b, loc, matrix, numBatch),
                  memref::getMixedSize(b, loc, matrix, numBatch + 1)});
    SmallVector<OpFoldResult> strides(numBatch + 2, b.getIndexAttr(1));
    auto sliceType = memref::SubViewOp::inferRankReducedResultType(
        type.getShape().take_back(2), cast<MemRefType>(matrix.getType()),
        offsets, sizes, strides);
    matrix = memref::SubViewOp::create(b, loc, cast<MemRefType>(sliceType),
                                       matrix, offsets, sizes, strides);
  }
  // Only the workgroup's rows: the buffer's base is the tile's first row
  // (its address computed in 64 bits), so its 32-bit range and offsets hold
  // for results of any size (a buffer of the whole matrix would overflow
  // past 4 GiB). Rows are relative to the tile from here on; a row past M
  // is past the view's rows.
  TileSizes tile = getTileSizes(layout);
  Value rowBase, tileRows;
  // The row of acc of tile row `row` (the identity but for a routed GEMM).
  std::function<Value(Value)> rowOf = [](Value row) { return row; };
  if (rowIds) {
    // A routed GEMM's tile: its rows are anywhere in acc, so the buffer is
    // the whole matrix (its offsets are 32-bit: acc must stay below 4 GiB,
    // which the caller checks) and each row is looked up; a row past the
    // tile's count or outside acc is row M, outside the buffer.
    rowBase = index(0);
    tileRows = rows;
    auto idsType = cast<MemRefType>(rowIds.getType());
    Value ids = memref::MemorySpaceCastOp::create(
        b, loc,
        MemRefType::get(idsType.getShape(), idsType.getElementType(),
                        idsType.getLayout(),
                        b.getI64IntegerAttr(kGlobalAddressSpace)),
        rowIds);
    Value first = arith::MulIOp::create(b, loc, mIndex, index(tile.m));
    Value count = groupRows.second;
    rowOf = [=](Value row) -> Value {
      Value id = arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          memref::LoadOp::create(
              b, loc, ids,
              ValueRange{arith::AddIOp::create(b, loc, first, row)}));
      Value valid = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, count),
          arith::AndIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, id,
                                    index(0)),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, id,
                                    rows)));
      return arith::SelectOp::create(b, loc, valid, id, rows);
    };
  } else if (groupRows.first) {
    // A grouped GEMM's tile: the rows its table entry names (within acc).
    rowBase = groupRows.first;
    tileRows = groupRows.second;
  } else {
    rowBase = arith::MulIOp::create(b, loc, mIndex, index(tile.m));
    tileRows = arith::MinUIOp::create(
        b, loc, index(tile.m), arith::SubIOp::create(b, loc, rows, rowBase));
  }
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
  Value buffer = amdgpu::FatRawBufferCastOp::create(
      b, loc, matrix, /*validBytes=*/Value(), /*cacheSwizzleStride=*/Value(),
      /*boundsCheck=*/true, /*resetOffset=*/true);
  // The epilogue's inputs, bounds-checked too: the values past M or N read
  // 0 (they are computed, but their stores are dropped).
  SmallVector<Value> epilogueInputs;
  for (Value input : op.getEpilogueInputs()) {
    auto inputType = cast<MemRefType>(input.getType());
    Value global = memref::MemorySpaceCastOp::create(
        b, loc,
        MemRefType::get(inputType.getShape(), inputType.getElementType(),
                        inputType.getLayout(),
                        b.getI64IntegerAttr(kGlobalAddressSpace)),
        input);
    epilogueInputs.push_back(amdgpu::FatRawBufferCastOp::create(
        b, loc, global, /*validBytes=*/Value(), /*cacheSwizzleStride=*/Value(),
        /*boundsCheck=*/true, /*resetOffset=*/true));
  }
  SmallVector<Value> batchIndices(batch);
  // The value stored for sum `x` at result position (row, col).
  auto epilogue = [=](Value x, Value row, Value col) -> Value {
    if (!op.hasEpilogue())
      return x;
    SmallVector<Value> position = batchIndices;
    position.push_back(row);
    position.push_back(col);
    Block &body = op.getEpilogueBlock();
    IRMapping mapping;
    mapping.map(body.getArgument(0), x);
    for (auto [i, input] : llvm::enumerate(epilogueInputs)) {
      AffineMap map =
          cast<AffineMapAttr>(op.getEpilogueMapsAttr()[i]).getValue();
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
  };
  Value colBase = arith::MulIOp::create(b, loc, nIndex, index(tile.n));
  Type storedType = type.getElementType();
  SmallVector<AccessRun> runs = getAccessRuns(type);
  // A run may straddle column N (part of it in its row, part past the
  // row's end, where the next row is) only when its columns are not
  // aligned to its length or N is not a static multiple of it. Then the
  // workgroups whose tile lies inside N store whole runs and the others
  // (the last column of tiles) value by value, chosen by a
  // workgroup-uniform branch around all stores (forStores).
  int64_t staticCols = type.getDimSize(numBatch + 1);
  bool mayStraddle = llvm::any_of(runs, [&](const AccessRun &run) {
    return run.length > 1 &&
           (!run.aligned || ShapedType::isDynamic(staticCols) ||
            staticCols % run.length != 0);
  });
  enum class Mode { Masked, Inside, ByValue };
  auto mode = std::make_shared<Mode>(Mode::Masked);
  auto forStores = [=](function_ref<void()> body) {
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
      *mode = blockMode;
      body();
    }
    *mode = Mode::Masked;
  };
  // The position (row, col) of the lane's value 0 of vector (0, 0); the
  // runs are at constant offsets from it (the view's dimensions are merged
  // swizzled dimensions, so positions add up).
  auto getBase = [=](Value waveM, Value waveN, Value lane) {
    Value zero = index(0);
    auto [r, c] = getTileCoords(waveM, waveN, zero, zero, lane, zero);
    Value col = arith::AddIOp::create(b, loc, colBase, c);
    return std::make_pair(r, col);
  };
  // Column `u` of a run starting at `col`.
  auto column = [=](Value col, int64_t u) -> Value {
    return u ? arith::AddIOp::create(b, loc, col, index(u)).getResult() : col;
  };
  // Row `row` (of the tile) where column `col` is inside the matrix, else
  // the tile's row count: out of the buffer's range, so the access is
  // dropped (a load reads 0).
  auto mask = [=](Value row, Value col) -> Value {
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, cols);
    return arith::SelectOp::create(b, loc, inside, row, tileRows);
  };
  // Accesses `run` at (row, col): as one vector (`vectorAccess(row, col)`,
  // the row masked by the run's first column unless the tile is inside N),
  // or value by value, each masked (`valueAccess(u, row, col + u)`, whose
  // results `pack` combines into what vectorAccess returns).
  auto accessRun = [=](const AccessRun &run, Value row, Value col,
                       function_ref<Value(Value, Value)> vectorAccess,
                       function_ref<Value(int64_t, Value, Value)> valueAccess,
                       function_ref<Value(ArrayRef<Value>)> pack) -> Value {
    if (run.length > 1 && *mode == Mode::Inside)
      return vectorAccess(row, col);
    if (run.length > 1 && *mode == Mode::Masked)
      return vectorAccess(mask(row, col), col);
    SmallVector<Value> results;
    for (int64_t u = 0; u < run.length; ++u) {
      Value c = column(col, u);
      if (Value result = valueAccess(u, mask(row, c), c))
        results.push_back(result);
    }
    return pack(results);
  };
  // Calls `body` with each run of vector (i, j) of the lane and its first
  // position (row, col).
  auto forEachRun =
      [=](int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
          function_ref<void(const AccessRun &, Value row, Value col)> body) {
        auto [row0, col0] = getBase(waveM, waveN, lane);
        for (const AccessRun &run : runs) {
          if (run.i != i || run.j != j)
            continue;
          Value row = rowOf(arith::AddIOp::create(b, loc, row0, index(run.dr)));
          Value col = arith::AddIOp::create(b, loc, col0, index(run.dc));
          body(run, row, col);
        }
      };
  auto load = [=](int64_t i, int64_t j, Value waveM, Value waveN,
                  Value lane) -> Value {
    Value v = arith::ConstantOp::create(
        b, loc, vectorType, DenseElementsAttr::get(vectorType, 0.0f));
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
  };
  auto store = [=](int64_t i, int64_t j, Value waveM, Value waveN, Value lane,
                   Value v) {
    forEachRun(i, j, waveM, waveN, lane,
               [&](const AccessRun &run, Value row, Value col) {
                 // The epilogue, value by value, at each value's position (rows
                 // and columns past M or N compute values that are not stored).
                 SmallVector<Value> values;
                 for (int64_t u = 0; u < run.length; ++u) {
                   Value x = vector::ExtractOp::create(b, loc, v, run.t0 + u);
                   values.push_back(
                       epilogue(x, arith::AddIOp::create(b, loc, rowBase, row),
                                column(col, u)));
                 }
                 accessRun(
                     run, row, col,
                     [&](Value r, Value c) -> Value {
                       auto runType = VectorType::get({run.length}, storedType);
                       Value packed = vector::FromElementsOp::create(
                           b, loc, runType, values);
                       vector::StoreOp::create(b, loc, packed, buffer,
                                               ValueRange{r, c});
                       return {};
                     },
                     [&](int64_t u, Value r, Value c) -> Value {
                       memref::StoreOp::create(b, loc, values[u], buffer,
                                               ValueRange{r, c});
                       return {};
                     },
                     [](ArrayRef<Value>) { return Value(); });
               });
  };
  // Loads where runs may straddle N go value by value everywhere: the same
  // branch before the K loop makes LLVM spill (53 VGPRs on the seed layout
  // with dynamic M and N).
  auto forLoads = [=](function_ref<void()> body) {
    if (!mayStraddle)
      return body();
    *mode = Mode::ByValue;
    body();
    *mode = Mode::Masked;
  };
  return {load, store, forLoads, forStores};
}

SmallVector<AccessRun> TiledMMALowering::getAccessRuns(MemRefType type) {
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
        auto [dr, dc] = getTileCoords({0, 0, i, j, 0, t});
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
        laneCols.push_back(getTileCoords({waveM, waveN, 0, 0, lane, 0}).second);
  int64_t tileN = getTileSizes(layout).n;
  for (AccessRun &run : runs)
    run.aligned = tileN % run.length == 0 && run.dc % run.length == 0 &&
                  llvm::all_of(laneCols, [&](int64_t col) {
                    return col % run.length == 0;
                  });
  return runs;
}

std::pair<int64_t, int64_t>
TiledMMALowering::getTileCoords(ArrayRef<int64_t> viewPosition) {
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

std::pair<Value, Value> TiledMMALowering::getTileCoords(Value waveM,
                                                        Value waveN, Value i,
                                                        Value j, Value lane,
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

LogicalResult TiledMMALowering::run(ModuleOp module, StringRef ukernel,
                                    StringRef kernelName,
                                    QuantizeIntoOp quantize) {
  std::optional<QuantizedLhsSource> quantizedLhs;
  if (quantize) {
    std::string reason;
    FailureOr<QuantizedLhsSource> source =
        analyzeQuantizedLhs(quantize, op, reason);
    if (failed(source))
      return op.emitOpError()
             << "cannot quantize A in the kernel (its in_consumer quantize): "
             << reason;
    quantizedLhs = std::move(*source);
  }
  SmallVector<Value> operands = {op.getLhs(), op.getRhs(), op.getLhsScales(),
                                 op.getRhsScales(), op.getAcc()};
  const OperandRole roles[] = {OperandRole::lhs, OperandRole::rhs,
                               OperandRole::lhs_scales, OperandRole::rhs_scales,
                               OperandRole::result};
  unsigned numBatch = op.getNumBatchDims();
  bool userLayoutAcc = op.hasUserLayoutAcc();
  bool grouped = op.isGrouped();
  // A routed GEMM's rows go anywhere in acc, through one buffer of 32-bit
  // offsets.
  if (op.getRowIds()) {
    auto accType = cast<MemRefType>(op.getAcc().getType());
    int64_t bytes = accType.getElementTypeBitWidth() / 8;
    for (int64_t size : accType.getShape())
      bytes = ShapedType::isDynamic(size) ? bytes : bytes * size;
    if (bytes >= (int64_t(1) << 32))
      return op.emitOpError()
             << "with row_ids, acc (" << accType << ") must be smaller than "
             << "4 GiB: its rows are addressed through one buffer of 32-bit "
                "offsets";
  }
  // With tile_groups, rhs and rhs_scales lead with the group dimension.
  auto groupDims = [&](OperandRole role) -> unsigned {
    return grouped &&
                   (role == OperandRole::rhs || role == OperandRole::rhs_scales)
               ? 1
               : 0;
  };
  for (auto [value, role] : llvm::zip_equal(operands, roles)) {
    auto type = cast<MemRefType>(value.getType());
    // An accumulator in the user's layout is read and written value by
    // value, through any strides.
    if (role == OperandRole::result && userLayoutAcc)
      continue;
    // A quantized in the kernel is read from the quantize's input.
    if (quantizedLhs &&
        (role == OperandRole::lhs || role == OperandRole::lhs_scales))
      continue;
    if (!type.getLayout().isIdentity())
      return op.emitOpError()
             << stringifyOperandRole(role)
             << " must have an identity layout to be lowered to a gfx950 "
                "ukernel call, got "
             << type;
    if (role != OperandRole::result && !type.getElementType().isInteger(8))
      return op.emitOpError()
             << stringifyOperandRole(role) << " holds " << type.getElementType()
             << "; run mx-pack-to-bytes before bufferization so the "
                "ukernel gets (packed) bytes";
    // The tile in memory must be exactly the ukernel's view of it.
    int64_t expected = 1, actual = 1;
    for (int64_t size : getUKernelTileShape(layout, role))
      expected *= size;
    for (int64_t size :
         type.getShape().drop_front(numBatch + 2 + groupDims(role)))
      actual *= size;
    if (expected != actual)
      return op.emitOpError()
             << stringifyOperandRole(role) << " tiles hold " << actual
             << " elements, the ukernel views " << expected;
  }
  FailureOr<FunctionType> ukernelType =
      getUKernelFunctionType(op.getContext(), ukernel);
  if (failed(ukernelType))
    return op.emitOpError() << "cannot load ukernel '" << ukernel << "'";
  bool hasTypeParameters = hasUKernelTypeParameters(op.getContext(), ukernel);

  // The ukernels stage one K step of the workgroup's A and B tiles through
  // LDS, double-buffered (the scales go to registers); the one quantizing A
  // stages the quantized A of a K step (getQuantizedLhsStageBytes).
  int64_t stageBytes = quantizedLhs ? getQuantizedLhsStageBytes(layout)
                                    : getUKernelStageBytes(layout);
  int64_t ldsBytes = 2 * stageBytes;
  if (ldsBytes > kLDSBytes)
    return op.emitOpError()
           << "the layout " << layout << " stages " << stageBytes
           << " bytes of A and B per K step through LDS, double-buffered "
           << ldsBytes << " bytes: more than the " << kLDSBytes
           << " bytes of LDS of a gfx950 workgroup; pick a smaller tile "
              "(intrinsics_m/n/k, subgroups_m/n)";
  if (ldsBytes > getLayoutCost(layout).ldsBytes)
    return op.emitOpError()
           << "the layout " << layout << " stages " << ldsBytes
           << " bytes through LDS, more than the "
           << getLayoutCost(layout).ldsBytes
           << " bytes the layout resolver budgets for it (getLayoutCost)";

  // Grid (No, Mo, batch), one thread per lane of each subgroup.
  Value lhs = op.getLhs(), acc = op.getAcc();
  Value one = index(1);
  Value batch = one;
  for (unsigned d = 0; d < numBatch; ++d)
    batch = arith::MulIOp::create(b, loc, batch, dim(acc, d));
  Value mo = dim(lhs, numBatch),
        no = dim(op.getRhs(), numBatch + groupDims(OperandRole::rhs));
  int64_t subgroupsN = layout.getSubgroupsN();
  int64_t threads = kWaveSize * layout.getSubgroupsM() * subgroupsN;
  auto ldsType = MemRefType::get(
      {ldsBytes}, b.getI8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::GPUDialect::getWorkgroupAddressSpace()));
  auto launch = gpu::LaunchOp::create(
      b, loc, no, mo, batch, index(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{},
      /*workgroupAttributions=*/TypeRange{ldsType});
  launch.setFunctionAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  launch.setModuleAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  b.setInsertionPointToStart(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&launch.getBody().front());

  // Workgroup indices: batch (delinearized), Mo, No.
  SmallVector<Value> batchIndices;
  if (numBatch == 1) {
    batchIndices.push_back(launch.getBlockIds().z);
  } else if (numBatch > 1) {
    SmallVector<OpFoldResult> basis;
    for (unsigned d = 0; d < numBatch; ++d)
      basis.push_back(dim(acc, d));
    auto delinearize = affine::AffineDelinearizeIndexOp::create(
        b, loc, launch.getBlockIds().z, basis);
    batchIndices.assign(delinearize.getResults().begin(),
                        delinearize.getResults().end());
  }
  Value mIndex = launch.getBlockIds().y, nIndex = launch.getBlockIds().x;
  auto outer = [&](Value tileIndex) {
    SmallVector<Value> indices = batchIndices;
    indices.push_back(tileIndex);
    return indices;
  };
  // A grouped GEMM: the workgroup's M tile names its group (whose rhs tiles
  // it reads) and its rows of acc; a tile without rows does nothing (a
  // workgroup-uniform branch around the rest).
  SmallVector<Value> rhsOuter = outer(nIndex);
  std::pair<Value, Value> groupRows;
  if (grouped) {
    Value table = op.getTileGroups();
    auto tableType = cast<MemRefType>(table.getType());
    table = memref::MemorySpaceCastOp::create(
        b, loc,
        MemRefType::get(tableType.getShape(), tableType.getElementType(),
                        tableType.getLayout(),
                        b.getI64IntegerAttr(kGlobalAddressSpace)),
        table);
    auto field = [&](int64_t f) -> Value {
      Value v =
          memref::LoadOp::create(b, loc, table, ValueRange{mIndex, index(f)});
      return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
    };
    Value group = field(0);
    groupRows = {field(1), field(2)};
    rhsOuter = {group, nIndex};
    Value hasRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          groupRows.second, index(0));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), hasRows,
                                  /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  Value wave =
      arith::DivUIOp::create(b, loc, launch.getThreadIds().x, index(kWaveSize));
  Value lane =
      arith::RemUIOp::create(b, loc, launch.getThreadIds().x, index(kWaveSize));
  Value waveM = arith::DivUIOp::create(b, loc, wave, index(subgroupsN));
  Value waveN = arith::RemUIOp::create(b, loc, wave, index(subgroupsN));

  // The lane's accumulators, a private array the ukernel works on: this
  // function loads them before the call (unless they start at zero) and
  // stores them after it, in the result's layout.
  int64_t accPerLane = getIntrinsicInfo(layout.getIntrinsic()).accPerLane;
  auto accVectorType = VectorType::get({accPerLane}, b.getF32Type());
  auto accsType = MemRefType::get(
      {layout.getIntrinsicsM(), layout.getIntrinsicsN(), accPerLane},
      b.getF32Type(), MemRefLayoutAttrInterface(),
      b.getI64IntegerAttr(kPrivateAddressSpace));
  Value accs = memref::AllocaOp::create(b, loc, accsType);
  AccumulatorStore store =
      getAccumulatorStore(acc, batchIndices, mIndex, nIndex, userLayoutAcc,
                          groupRows, op.getRowIds());
  int64_t intrinsicsM = layout.getIntrinsicsM();
  int64_t intrinsicsN = layout.getIntrinsicsN();
  if (!op.getZeroAcc())
    store.forLoads([&] {
      for (int64_t i = 0; i < intrinsicsM; ++i)
        for (int64_t j = 0; j < intrinsicsN; ++j) {
          Value v = store.load(i, j, waveM, waveN, lane);
          vector::StoreOp::create(b, loc, v, accs,
                                  ValueRange{index(i), index(j), index(0)});
        }
    });

  // The operand views (with their names for diagnostics): the tiles, the
  // accumulators and the LDS staging buffer; for a ukernel quantizing A,
  // the unquantized A, B's tiles and the accumulators.
  SmallVector<Value> args;
  SmallVector<StringRef> argNames;
  if (quantizedLhs) {
    FailureOr<Value> source =
        quantizedLhsView(quantize, *quantizedLhs, outer(mIndex));
    if (failed(source))
      return failure();
    args = {
        *source, tileView(op.getRhs(), OperandRole::rhs, rhsOuter, true),
        tileView(op.getRhsScales(), OperandRole::rhs_scales, rhsOuter, true),
        accs, launch.getWorkgroupAttributions().front()};
    argNames = {"unquantized lhs", "rhs", "rhs_scales", "accumulators",
                "LDS staging"};
  } else {
    args = {
        tileView(lhs, OperandRole::lhs, outer(mIndex), true),
        tileView(op.getRhs(), OperandRole::rhs, rhsOuter, true),
        tileView(op.getLhsScales(), OperandRole::lhs_scales, outer(mIndex),
                 true),
        tileView(op.getRhsScales(), OperandRole::rhs_scales, rhsOuter, true),
        accs,
        launch.getWorkgroupAttributions().front()};
    argNames = {"lhs",        "rhs",          "lhs_scales",
                "rhs_scales", "accumulators", "LDS staging"};
  }
  if (ukernelType->getNumInputs() != args.size() + 7)
    return op.emitOpError() << "ukernel '" << ukernel
                            << "' has an unexpected signature " << *ukernelType;
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type expected = ukernelType->getInput(i);
    if (!memref::CastOp::areCastCompatible(arg.getType(), expected))
      return op.emitOpError()
             << "the " << argNames[i] << " view " << arg.getType()
             << " does not cast to the ukernel's " << expected;
    arg = memref::CastOp::create(b, loc, expected, arg);
  }

  args.push_back(waveM);
  args.push_back(waveN);
  args.push_back(lane);
  args.push_back(index(layout.getIntrinsicsM()));
  args.push_back(index(layout.getIntrinsicsN()));
  args.push_back(index(layout.getIntrinsicsK()));
  args.push_back(index(op.getZeroAcc() ? 1 : 0));

  // A private declaration of the ukernel, for the call to verify until
  // mx-gfx950-specialize-ukernels replaces it.
  if (!module.lookupSymbol(ukernel)) {
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
    auto declaration =
        func::FuncOp::create(moduleBuilder, loc, ukernel, *ukernelType);
    declaration.setPrivate();
  }
  auto call = func::CallOp::create(b, loc, ukernel, TypeRange(), args);
  if (hasTypeParameters) {
    std::optional<LhsQuantization> quantization;
    if (quantize)
      quantization = LhsQuantization{
          cast<MemRefType>(quantize.getInput().getType()).getElementType(),
          quantize.getScale(), quantize.getRounding()};
    call->setAttr(kUKernelTypeParameters,
                  getUKernelTypeParameters(layout, quantization));
  }
  // The register schedule the ukernel's data gives this configuration: the
  // unroll of its K loop, and the accumulators in AGPRs.
  RegisterSchedule schedule =
      getRegisterSchedule(op.getContext(), ukernel, layout, op.getZeroAcc());
  if (schedule.unrollK > 1)
    call->setAttr(kUKernelUnrollK, b.getI64IntegerAttr(schedule.unrollK));
  if (schedule.accumulatorAGPRs)
    accs.getDefiningOp()->setAttr(kAccumulatorAGPRs, b.getUnitAttr());

  // The accumulators out, addressed with the lane index recomputed
  // (gpu.lane_id): sharing the prologue's addresses would keep one register
  // pair per accumulator group alive through the K loop.
  Value laneOut = gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr);
  store.forStores([&] {
    for (int64_t i = 0; i < intrinsicsM; ++i)
      for (int64_t j = 0; j < intrinsicsN; ++j) {
        Value v =
            vector::LoadOp::create(b, loc, accVectorType, accs,
                                   ValueRange{index(i), index(j), index(0)});
        store.store(i, j, waveM, waveN, laneOut, v);
      }
  });
  op.erase();
  if (quantize)
    quantize.erase();
  return success();
}

/// The in_consumer quantize that writes `op`'s A and A scales, if any.
static QuantizeIntoOp getQuantizeInConsumer(TiledScaledMMAOp op) {
  for (Operation *user : op.getLhs().getUsers()) {
    auto quantize = dyn_cast<QuantizeIntoOp>(user);
    if (quantize && quantize.getInConsumer() &&
        quantize.getElements() == ValueRange{op.getLhs()} &&
        quantize.getScales() == ValueRange{op.getLhsScales()})
      return quantize;
  }
  return {};
}

namespace {
struct LowerTiledMMAPass
    : public mx::gfx950::impl::MXGFX950LowerTiledMMABase<LowerTiledMMAPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<TiledScaledMMAOp> ops;
    module.walk([&](TiledScaledMMAOp op) {
      if (!op->getParentOfType<gpu::GPUModuleOp>())
        ops.push_back(op);
    });
    // Contractions are numbered per function: @f_mma0, @f_mma1, @g_mma0.
    llvm::StringMap<unsigned> counts;
    for (TiledScaledMMAOp op : ops) {
      if (!op.getResults().empty()) {
        op.emitOpError() << "must be bufferized before the gfx950 lowering "
                            "(it is on tensors)";
        return signalPassFailure();
      }
      DataTiledLayoutAttr layout = getDataTiledLayout(op.getLayout());
      if (!layout) {
        op.emitOpError() << "needs a #mx.data_tiled_layout for gfx950, got "
                         << op.getLayout();
        return signalPassFailure();
      }
      QuantizeIntoOp quantize = getQuantizeInConsumer(op);
      UKernelSelection selection = selectUKernel(layout, bool(quantize));
      if (!selection.name) {
        InFlightDiagnostic diag =
            op.emitOpError()
            << "no gfx950 ukernel serves the layout " << layout
            << "; pick another layout (mx.layout or mx-materialize-encodings "
               "options)";
        diag.attachNote() << "ukernels rejected it:\n" << selection.rejections;
        return signalPassFailure();
      }
      auto func = op->getParentOfType<FunctionOpInterface>();
      StringRef funcName = func ? func.getName() : StringRef("mx");
      std::string name = (funcName + "_mma" + Twine(counts[funcName]++)).str();
      if (failed(TiledMMALowering(op, layout)
                     .run(module, *selection.name, name, quantize)))
        return signalPassFailure();
    }
    // A quantize left to a consumer that did not compute it would never run.
    WalkResult result = module.walk([&](QuantizeIntoOp quantize) {
      if (!quantize.getInConsumer() ||
          quantize->getParentOfType<gpu::GPUModuleOp>())
        return WalkResult::advance();
      quantize.emitOpError()
          << "is marked in_consumer, but no mx.tiled_scaled_mma reads its "
             "elements as A and its scales as A's scales to quantize it";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
  }
};
} // namespace
