//===- LowerTiledMMA.cpp - mx-gfx950-lower-tiled-mma ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One workgroup per output tile; its waves call the selected ukernel on views
// of the workgroup's tiles and on the workgroup's LDS staging buffer. The
// accumulators' loads and stores are AccumulatorAccess's.
//
//===----------------------------------------------------------------------===//

#include "AccumulatorAccess.h"
#include "FusedConsumers.h"
#include "KernelNames.h"

#include "mx/Support/CheckedArith.h"
#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/Transforms/Transforms.h"
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
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950LOWERTILEDMMA
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;
using mlir::mx::gfx950::detail::AccumulatorAccess;

namespace {
/// Builds the launch of one mx.tiled_scaled_mma, at the rewriter's insertion
/// point.
class TiledMMALowering {
public:
  /// With `quantize` (an in_consumer quantize writing A and its scales),
  /// the ukernel quantizes A from the quantize's input itself.
  /// With `columnConsumer` (a generic marked mx.column_consumer that reads
  /// the accumulator), the kernel computes it too.
  TiledMMALowering(RewriterBase &rewriter, TiledScaledMMAOp op,
                   DataTiledLayoutAttr layout, QuantizeIntoOp quantize,
                   linalg::GenericOp columnConsumer)
      : b(rewriter), op(op), layout(layout), loc(op.getLoc()),
        quantize(quantize), columnConsumer(columnConsumer) {}

  /// Replaces the op (and the quantize) by a launch of kernel `kernelName`
  /// whose waves call `ukernel`.
  FailureOr<gpu::LaunchOp> run(StringRef ukernel, StringRef kernelName);

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// The size of dimension `d` of `memref` (a constant if static).
  Value dim(Value memref, int64_t d) {
    int64_t size = cast<MemRefType>(memref.getType()).getDimSize(d);
    if (ShapedType::isStatic(size))
      return index(size);
    return memref::DimOp::create(b, loc, memref, d);
  }
  /// With tile_groups, rhs and rhs_scales lead with the group dimension.
  unsigned groupDims(OperandRole role) {
    return op.isGrouped() &&
                   (role == OperandRole::rhs || role == OperandRole::rhs_scales)
               ? 1
               : 0;
  }
  /// The outer indices of the workgroup's tile `tileIndex` of an operand
  /// without a group dimension: [B.., tileIndex].
  SmallVector<Value> outer(Value tileIndex) const {
    SmallVector<Value> indices = batchIndices;
    indices.push_back(tileIndex);
    return indices;
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
  /// For a quantize that gathers rows by id: the input row the lane reads
  /// in the fragment of rows (M subgroup `sg`, intrinsic `i`) of the tile
  /// at `outer`: logical row r of `source.gatheredRowDims`, input row
  /// `ids[r] / divisor` (mx::buildGatheredSourceRow); for a padding id, or
  /// r past the ids, the row past the input's last, which the
  /// bounds-checked buffer reads as zeros (code 0 once quantized, as the
  /// quantize kernel writes there).
  Value getGatheredRow(QuantizeIntoOp quantize,
                       const QuantizedLhsSource &source, ValueRange outer,
                       int64_t sg, int64_t i);
  /// getGatheredRow for row `fragmentRow` of the fragment of rows (instead
  /// of the lane's), and whether that row holds an input row.
  std::pair<Value, Value> getGatheredRowAt(QuantizeIntoOp quantize,
                                           const QuantizedLhsSource &source,
                                           ValueRange outer, int64_t sg,
                                           int64_t i, Value fragmentRow);
  /// The ukernel quantizing A's active_rows_log2: for a tile of one
  /// fragment of rows gathered by id, log2 of the least power of two that
  /// covers its rows up to the last that holds an input row (0 for none);
  /// -1 otherwise (each lane quantizes its own row's blocks).
  Value getActiveRowsLog2(const QuantizedLhsSource &source, ValueRange outer);
  /// The ukernel quantizing A's row_offsets: with rows gathered by id, the
  /// element offset of the lane's input row in each fragment of rows of the
  /// tile at `outer` ([subgroups_m * intrinsics_m]); empty otherwise.
  Value createRowOffsets(const QuantizedLhsSource &source, ValueRange outer);
  /// The ukernel quantizing A's k_blocks: with K padded, the blocks of a
  /// row of A from the workgroup's first K position (a split of K starts
  /// past the others') that the input holds, at least 0; -1 when K is not
  /// padded.
  Value getKBlocks();
  /// `memref` in the global address space (the kernel's buffers).
  Value toGlobal(Value memref) {
    return gfx950::detail::createGlobalCast(b, loc, memref);
  }

  /// Checks that the operands are what the ukernel views (and analyzes the
  /// quantize).
  LogicalResult checkOperands();
  /// The bytes of LDS the ukernel stages A and B through, checked against
  /// the workgroup's LDS and the layout's budget.
  FailureOr<int64_t> getLDSBytes();
  /// Creates the launch, grid (No, Mo, batch) with one thread per lane of
  /// each subgroup, and sets the insertion point at the start of its body.
  void createLaunch(int64_t ldsBytes, StringRef kernelName);
  /// The workgroup's indices: batch (delinearized), Mo, No.
  void createWorkgroupIndices();
  /// A grouped GEMM: the workgroup's M tile names its group (whose rhs tiles
  /// it reads) and its rows of acc, from the tile table or (routed) the
  /// block experts; a tile without rows does nothing (a workgroup-uniform
  /// branch around the rest) but for createEmptyTileStores.
  void createGroupLookup();
  /// A grouped GEMM from an unfilled zero (zero_empty_tiles), in a tile
  /// that computes nothing: +0.0 (through the epilogue) stored in the rows
  /// of acc the tile's row ids name (routed), or its rows in the table.
  void createEmptyTileStores();
  /// The wave's subgroup (waveM, waveN) and the lane.
  void createWaveIndices();
  /// The loads and stores of the accumulators (emits their buffers).
  std::unique_ptr<AccumulatorAccess> createAccumulatorAccess();
  /// The K steps of the ukernel's K loop (the operands' Ko), when static.
  std::optional<int64_t> getStaticKSteps();
  /// The ukernel's operands, the views cast to its types: the tiles, the
  /// accumulators and the LDS staging buffer; for a ukernel quantizing A,
  /// the unquantized A, B's tiles and the accumulators.
  FailureOr<SmallVector<Value>> createUKernelViews(StringRef ukernel,
                                                   FunctionType ukernelType);
  /// The call of `ukernel` on `args` and the scalar operands, with its type
  /// parameters and register schedule, and a private declaration of the
  /// ukernel in the module for the call to verify until
  /// mx-gfx950-specialize-ukernels replaces it.
  void createUKernelCall(StringRef ukernel, FunctionType ukernelType,
                         SmallVector<Value> args);

  RewriterBase &b;
  TiledScaledMMAOp op;
  DataTiledLayoutAttr layout;
  Location loc;
  QuantizeIntoOp quantize;
  linalg::GenericOp columnConsumer;
  std::optional<QuantizedLhsSource> quantizedLhs;
  /// getActiveRowsLog2 of the tile, once computed (row_offsets reads it).
  Value activeRowsLog2;

  gpu::LaunchOp launch;
  SmallVector<Value> batchIndices;
  Value mIndex, nIndex;
  /// The outer indices of the workgroup's rhs tiles.
  SmallVector<Value> rhsOuter;
  /// A grouped GEMM's tile: its first row in acc and its row count.
  std::pair<Value, Value> groupRows;
  Value waveM, waveN, lane;
  /// The lane's accumulators, a private array the ukernel works on.
  Value accs;
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

Value TiledMMALowering::getGatheredRow(QuantizeIntoOp quantize,
                                       const QuantizedLhsSource &source,
                                       ValueRange outer, int64_t sg,
                                       int64_t i) {
  // The lane's row: lane = K group * rows + row.
  Value laneRow = arith::RemUIOp::create(
      b, loc, lane, index(getIntrinsicInfo(layout.getIntrinsic()).m));
  return getGatheredRowAt(quantize, source, outer, sg, i, laneRow).first;
}

std::pair<Value, Value> TiledMMALowering::getGatheredRowAt(
    QuantizeIntoOp quantize, const QuantizedLhsSource &source, ValueRange outer,
    int64_t sg, int64_t i, Value fragmentRow) {
  Value logical = index(0);
  for (auto [d, rows] : source.gatheredRowDims) {
    Value position;
    if (d < int64_t(outer.size()))
      position = outer[d];
    else if (d == source.viewDims[1])
      position = index(sg);
    else if (d == source.viewDims[2])
      position = index(i);
    else
      position = fragmentRow;
    logical = arith::AddIOp::create(
        b, loc, logical, arith::MulIOp::create(b, loc, position, index(rows)));
  }
  Value ids = toGlobal(quantize.getIds());
  Value count = dim(ids, 0);
  Value inIds =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, logical, count);
  Value last = arith::SubIOp::create(b, loc, count, index(1));
  Value id = memref::LoadOp::create(
      b, loc, ids, ValueRange{arith::MinUIOp::create(b, loc, logical, last)});
  Value rows = dim(quantize.getInput(), 0);
  auto [row, inInput] =
      buildGatheredSourceRow(b, loc, id, *quantize.getDivisor(), rows);
  Value valid = arith::AndIOp::create(b, loc, inIds, inInput);
  return {arith::SelectOp::create(b, loc, valid, row, rows), valid};
}

Value TiledMMALowering::getActiveRowsLog2(const QuantizedLhsSource &source,
                                          ValueRange outer) {
  if (activeRowsLog2)
    return activeRowsLog2;
  if (!quantize.getIds() ||
      layout.getSubgroupsM() * layout.getIntrinsicsM() != 1)
    return activeRowsLog2 = index(-1);
  int64_t fragmentRows = getIntrinsicInfo(layout.getIntrinsic()).m;
  // The rows up to the last that holds an input row, rounded up to a power
  // of two (the ukernel shifts by its log2): the same for every lane (a
  // load of each row's id, once per workgroup).
  Value log2 = index(0);
  for (int64_t r = 0; r < fragmentRows; ++r) {
    Value valid =
        getGatheredRowAt(quantize, source, outer, 0, 0, index(r)).second;
    log2 = arith::SelectOp::create(b, loc, valid,
                                   index(llvm::Log2_64_Ceil(r + 1)), log2);
  }
  return activeRowsLog2 = log2;
}

Value TiledMMALowering::createRowOffsets(const QuantizedLhsSource &source,
                                         ValueRange outer) {
  int64_t sm = layout.getSubgroupsM(), im = layout.getIntrinsicsM();
  int64_t count = quantize.getIds() ? sm * im : 0;
  auto type =
      MemRefType::get({count}, b.getIndexType(), MemRefLayoutAttrInterface(),
                      b.getI64IntegerAttr(kPrivateAddressSpace));
  Value offsets = memref::AllocaOp::create(b, loc, type);
  if (!count)
    return offsets;
  int64_t rowStride = cast<MemRefType>(quantize.getInput().getType())
                          .getStridesAndOffset()
                          .first[0];
  // One fragment of rows: the lane quantizes blocks of row lane mod
  // 2^active_rows_log2 (mx_uk_scaled_mma_quantized_lhs).
  if (count == 1) {
    Value active = arith::ShLIOp::create(b, loc, index(1),
                                         getActiveRowsLog2(source, outer));
    Value laneRow = arith::AndIOp::create(
        b, loc, lane, arith::SubIOp::create(b, loc, active, index(1)));
    Value row = getGatheredRowAt(quantize, source, outer, 0, 0, laneRow).first;
    Value offset = arith::MulIOp::create(b, loc, row, index(rowStride));
    memref::StoreOp::create(b, loc, offset, offsets, index(0));
    return offsets;
  }
  for (int64_t sg = 0; sg < sm; ++sg)
    for (int64_t i = 0; i < im; ++i) {
      Value row = getGatheredRow(quantize, source, outer, sg, i);
      Value offset = arith::MulIOp::create(b, loc, row, index(rowStride));
      memref::StoreOp::create(b, loc, offset, offsets, index(sg * im + i));
    }
  return offsets;
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
  Value buffer = amdgpu::FatRawBufferCastOp::create(
      b, loc, toGlobal(input), /*validBytes=*/Value(),
      /*cacheSwizzleStride=*/Value(),
      /*boundsCheck=*/true, /*resetOffset=*/true);
  // Each destination dimension steps along one input dimension.
  SmallVector<int64_t> strides =
      llvm::map_to_vector(source.steps, [&](std::pair<unsigned, int64_t> step) {
        return inputStrides[step.first] * step.second;
      });
  if (quantize.getIds()) {
    // (The row past the last must lie past the whole buffer.)
    if (inputStrides[1] != 1 || inputStrides[0] < type.getDimSize(1))
      return op.emitOpError()
             << "quantizes A in the kernel from rows of " << type
             << " gathered by id, which needs rows one after another";
    for (auto [d, rows] : source.gatheredRowDims)
      strides[d] = 0;
  }
  Value offset = index(0);
  for (auto [index, stride] : llvm::zip(outer, strides))
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, index, this->index(stride)));
  // The ukernel's view [Ko, sm, im, ik, G, R, 32], its dimensions those
  // of the destination (a unit dimension the swizzle drops: size 1).
  // Gathered rows: R indexed by the element offset of the lane's input row
  // (row_offsets), up to the row past the input's last.
  auto destType = cast<MemRefType>(quantize.getElements()[0].getType());
  SmallVector<int64_t> viewShape, viewStrides;
  for (int64_t d : source.viewDims) {
    viewShape.push_back(d < 0 ? 1 : destType.getDimSize(d));
    viewStrides.push_back(d < 0 ? 0 : strides[d]);
  }
  if (quantize.getIds()) {
    viewShape[5] = (type.getDimSize(0) + 1) * inputStrides[0];
    viewStrides[5] = 1;
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

Value TiledMMALowering::getKBlocks() {
  if (!quantizedLhs->kBlocks)
    return index(-1);
  Value blocks = index(*quantizedLhs->kBlocks);
  unsigned axis = quantize.getAxis();
  bool split = false;
  for (auto [position, step] : llvm::zip(outer(mIndex), quantizedLhs->steps)) {
    if (step.first != axis || step.second == 0)
      continue;
    Value before = arith::MulIOp::create(b, loc, position,
                                         index(step.second / kBlockSize));
    blocks = arith::SubIOp::create(b, loc, blocks, before);
    split = true;
  }
  return split ? arith::MaxSIOp::create(b, loc, blocks, index(0)) : blocks;
}

LogicalResult TiledMMALowering::checkOperands() {
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
  // A routed GEMM's rows go anywhere in acc, through one buffer of 32-bit
  // offsets.
  if (op.getRowIds()) {
    auto accType = cast<MemRefType>(op.getAcc().getType());
    int64_t bytes = accType.getElementTypeBitWidth() / 8;
    for (int64_t size : accType.getShape())
      bytes = ShapedType::isDynamic(size)
                  ? bytes
                  : llvm::checkedMul(bytes, size).value_or(INT64_MAX);
    if (bytes >= (int64_t(1) << 32))
      return op.emitOpError()
             << "with row_ids, acc (" << accType << ") must be smaller than "
             << "4 GiB: its rows are addressed through one buffer of 32-bit "
                "offsets";
  }
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
    // (-1: a dynamic size, or more than 2^63 elements.)
    int64_t expected =
        getCheckedProduct(getUKernelTileShape(layout, role)).value_or(-1);
    int64_t actual = getCheckedProduct(type.getShape().drop_front(
                                           numBatch + 2 + groupDims(role)))
                         .value_or(-1);
    if (expected != actual)
      return op.emitOpError()
             << stringifyOperandRole(role) << " tiles hold " << actual
             << " elements, the ukernel views " << expected;
  }
  return success();
}

FailureOr<int64_t> TiledMMALowering::getLDSBytes() {
  // The ukernels stage one K step of the workgroup's A and B tiles through
  // LDS, double-buffered (and, where it fits, A's scales:
  // getUKernelLDSBytes); the one quantizing A stages the quantized A of a K
  // step (getQuantizedLhsStageBytes).
  int64_t stageBytes = quantizedLhs ? getQuantizedLhsStageBytes(layout)
                                    : getUKernelStageBytes(layout);
  int64_t ldsBytes = quantizedLhs ? 2 * stageBytes : getUKernelLDSBytes(layout);
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
  return ldsBytes;
}

void TiledMMALowering::createLaunch(int64_t ldsBytes, StringRef kernelName) {
  unsigned numBatch = op.getNumBatchDims();
  Value lhs = op.getLhs(), acc = op.getAcc();
  Value one = index(1);
  Value batch = one;
  for (unsigned d = 0; d < numBatch; ++d)
    batch = arith::MulIOp::create(b, loc, batch, dim(acc, d));
  Value mo = dim(lhs, numBatch),
        no = dim(op.getRhs(), numBatch + groupDims(OperandRole::rhs));
  int64_t threads = kWaveSize * layout.getSubgroupsM() * layout.getSubgroupsN();
  auto ldsType = MemRefType::get(
      {ldsBytes}, b.getI8Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(),
                                 gpu::GPUDialect::getWorkgroupAddressSpace()));
  launch = gpu::LaunchOp::create(
      b, loc, no, mo, batch, index(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{},
      /*workgroupAttributions=*/TypeRange{ldsType});
  launch.setFunctionAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  launch.setModuleAttr(FlatSymbolRefAttr::get(b.getContext(), kernelName));
  b.setInsertionPointToStart(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&launch.getBody().front());
}

void TiledMMALowering::createWorkgroupIndices() {
  unsigned numBatch = op.getNumBatchDims();
  if (numBatch == 1) {
    batchIndices.push_back(launch.getBlockIds().z);
  } else if (numBatch > 1) {
    SmallVector<OpFoldResult> basis;
    for (unsigned d = 0; d < numBatch; ++d)
      basis.push_back(dim(op.getAcc(), d));
    auto delinearize = affine::AffineDelinearizeIndexOp::create(
        b, loc, launch.getBlockIds().z, basis);
    batchIndices.assign(delinearize.getResults().begin(),
                        delinearize.getResults().end());
  }
  mIndex = launch.getBlockIds().y;
  nIndex = launch.getBlockIds().x;
  rhsOuter = outer(nIndex);
}

void TiledMMALowering::createGroupLookup() {
  gfx950::detail::GroupedTile tile = gfx950::detail::loadGroupedTile(
      b, loc, op, layout, toGlobal(op.getTileGroups()), mIndex);
  Value group = tile.group, computedRows = tile.computedRows;
  groupRows = tile.rows;
  rhsOuter = {group, nIndex};
  Value hasRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        computedRows, index(0));
  // A grouped GEMM from zero whose accumulator is not filled writes +0.0 in
  // the rows a tile without rows names (zero_empty_tiles): the row ids of
  // its tile (routed), or its rows in the table.
  bool storeEmpty = op.getZeroEmptyTiles();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), hasRows,
                                /*withElseRegion=*/storeEmpty);
  if (storeEmpty) {
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    createEmptyTileStores();
  }
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
}

void TiledMMALowering::createEmptyTileStores() {
  std::pair<Value, Value> tileRows = groupRows;
  if (op.getRowIds()) {
    groupRows = {tileRows.first,
                 index(layout.getInnerTileSizes(OperandRole::lhs)[0])};
  } else {
    // A table's tile of no rows at all stores nothing.
    Value named = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        groupRows.second, index(0));
    auto stores = scf::IfOp::create(b, loc, TypeRange(), named,
                                    /*withElseRegion=*/false);
    b.setInsertionPoint(stores.thenBlock()->getTerminator());
  }
  createWaveIndices();
  std::unique_ptr<AccumulatorAccess> access = createAccumulatorAccess();
  groupRows = tileRows;
  int64_t accPerLane = getIntrinsicInfo(layout.getIntrinsic()).accPerLane;
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(VectorType::get({accPerLane}, b.getF32Type())));
  access->prepareAccesses(waveM, waveN, lane);
  access->forStores([&] {
    for (int64_t i = 0; i < layout.getIntrinsicsM(); ++i)
      for (int64_t j = 0; j < layout.getIntrinsicsN(); ++j)
        access->store(i, j, waveM, waveN, lane, zero);
  });
}

void TiledMMALowering::createWaveIndices() {
  Value wave =
      arith::DivUIOp::create(b, loc, launch.getThreadIds().x, index(kWaveSize));
  lane =
      arith::RemUIOp::create(b, loc, launch.getThreadIds().x, index(kWaveSize));
  int64_t subgroupsN = layout.getSubgroupsN();
  waveM = arith::DivUIOp::create(b, loc, wave, index(subgroupsN));
  waveN = arith::RemUIOp::create(b, loc, wave, index(subgroupsN));
}

std::unique_ptr<AccumulatorAccess> TiledMMALowering::createAccumulatorAccess() {
  if (op.hasUserLayoutAcc())
    return gfx950::detail::createUserLayoutAccumulatorAccess(
        b, op, layout, batchIndices, mIndex, nIndex, groupRows, op.getRowIds());
  SmallVector<Value> indices(batchIndices);
  indices.push_back(mIndex);
  indices.push_back(nIndex);
  Value view = tileView(op.getAcc(), OperandRole::result, indices, false);
  return gfx950::detail::createSwizzledAccumulatorAccess(b, loc, layout, view);
}

std::optional<int64_t> TiledMMALowering::getStaticKSteps() {
  // The operands' K tile dimension follows the outer indices of a tile
  // (tileView's Ko).
  auto rhs = cast<MemRefType>(op.getRhs().getType());
  int64_t steps = rhs.getDimSize(rhsOuter.size());
  if (ShapedType::isDynamic(steps))
    return std::nullopt;
  return steps;
}

FailureOr<SmallVector<Value>>
TiledMMALowering::createUKernelViews(StringRef ukernel,
                                     FunctionType ukernelType) {
  SmallVector<Value> args;
  SmallVector<StringRef> argNames;
  if (quantizedLhs) {
    FailureOr<Value> source =
        quantizedLhsView(quantize, *quantizedLhs, outer(mIndex));
    if (failed(source))
      return failure();
    args = {
        *source,
        tileView(op.getRhs(), OperandRole::rhs, rhsOuter, true),
        tileView(op.getRhsScales(), OperandRole::rhs_scales, rhsOuter, true),
        accs,
        launch.getWorkgroupAttributions().front(),
        createRowOffsets(*quantizedLhs, outer(mIndex))};
    argNames = {"unquantized lhs", "rhs",         "rhs_scales",
                "accumulators",    "LDS staging", "row offsets"};
  } else {
    args = {
        tileView(op.getLhs(), OperandRole::lhs, outer(mIndex), true),
        tileView(op.getRhs(), OperandRole::rhs, rhsOuter, true),
        tileView(op.getLhsScales(), OperandRole::lhs_scales, outer(mIndex),
                 true),
        tileView(op.getRhsScales(), OperandRole::rhs_scales, rhsOuter, true),
        accs,
        launch.getWorkgroupAttributions().front()};
    argNames = {"lhs",        "rhs",          "lhs_scales",
                "rhs_scales", "accumulators", "LDS staging"};
  }
  // The scalars of createUKernelCall: 7, and k_blocks and active_rows_log2
  // for one quantizing A.
  if (ukernelType.getNumInputs() != args.size() + (quantizedLhs ? 9 : 7))
    return op.emitOpError() << "ukernel '" << ukernel
                            << "' has an unexpected signature " << ukernelType;
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type expected = ukernelType.getInput(i);
    if (!memref::CastOp::areCastCompatible(arg.getType(), expected))
      return op.emitOpError()
             << "the " << argNames[i] << " view " << arg.getType()
             << " does not cast to the ukernel's " << expected;
    arg = memref::CastOp::create(b, loc, expected, arg);
  }
  return args;
}

void TiledMMALowering::createUKernelCall(StringRef ukernel,
                                         FunctionType ukernelType,
                                         SmallVector<Value> args) {
  args.push_back(waveM);
  args.push_back(waveN);
  args.push_back(lane);
  if (quantizedLhs) {
    args.push_back(getKBlocks());
    args.push_back(getActiveRowsLog2(*quantizedLhs, outer(mIndex)));
  }
  args.push_back(index(layout.getIntrinsicsM()));
  args.push_back(index(layout.getIntrinsicsN()));
  args.push_back(index(layout.getIntrinsicsK()));
  args.push_back(index(op.getZeroAcc() ? 1 : 0));

  auto module = op->getParentOfType<ModuleOp>();
  if (!module.lookupSymbol(ukernel)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto declaration = func::FuncOp::create(b, loc, ukernel, ukernelType);
    declaration.setPrivate();
  }
  auto call = func::CallOp::create(b, loc, ukernel, TypeRange(), args);
  if (hasUKernelTypeParameters(op.getContext(), ukernel)) {
    std::optional<LhsQuantization> quantization;
    if (quantize)
      quantization = LhsQuantization{
          cast<MemRefType>(quantize.getInput().getType()).getElementType(),
          quantize.getScale(), quantize.getRounding()};
    call->setAttr(kUKernelTypeParameters,
                  getUKernelTypeParameters(layout, quantization));
  }
  // The register schedule the ukernel's data gives this configuration: the
  // unroll of its K loop, the accumulators in AGPRs, how many rows of A are
  // read ahead.
  RegisterSchedule schedule = getRegisterSchedule(
      op.getContext(), ukernel, layout, op.getZeroAcc(), getStaticKSteps());
  if (schedule.unrollK > 1)
    call->setAttr(kUKernelUnrollK, b.getI64IntegerAttr(schedule.unrollK));
  if (schedule.peelFirstK)
    call->setAttr(kUKernelPeelFirstK, b.getUnitAttr());
  if (schedule.unrollK > 1 && !schedule.unrollRemainder)
    call->setAttr(kUKernelUnrollWholeK, b.getUnitAttr());
  if (schedule.lookaheadRows > 0)
    call->setAttr(kUKernelLookaheadRows,
                  b.getI64IntegerAttr(schedule.lookaheadRows));
  if (schedule.lateNextRows)
    call->setAttr(kUKernelLateNextRows, b.getUnitAttr());
  if (schedule.accumulatorAGPRs)
    accs.getDefiningOp()->setAttr(kAccumulatorAGPRs, b.getUnitAttr());
}

FailureOr<gpu::LaunchOp> TiledMMALowering::run(StringRef ukernel,
                                               StringRef kernelName) {
  if (failed(checkOperands()))
    return failure();
  FailureOr<FunctionType> ukernelType =
      getUKernelFunctionType(op.getContext(), ukernel);
  if (failed(ukernelType))
    return op.emitOpError() << "cannot load ukernel '" << ukernel << "'";
  FailureOr<int64_t> ldsBytes = getLDSBytes();
  if (failed(ldsBytes))
    return failure();

  createLaunch(*ldsBytes, kernelName);
  createWorkgroupIndices();
  if (op.isGrouped())
    createGroupLookup();
  createWaveIndices();

  // The lane's accumulators: loaded before the call (unless they start at
  // zero) and stored after it, in the result's layout.
  int64_t accPerLane = getIntrinsicInfo(layout.getIntrinsic()).accPerLane;
  auto accVectorType = VectorType::get({accPerLane}, b.getF32Type());
  auto accsType = MemRefType::get(
      {layout.getIntrinsicsM(), layout.getIntrinsicsN(), accPerLane},
      b.getF32Type(), MemRefLayoutAttrInterface(),
      b.getI64IntegerAttr(kPrivateAddressSpace));
  accs = memref::AllocaOp::create(b, loc, accsType);
  std::unique_ptr<AccumulatorAccess> access = createAccumulatorAccess();
  int64_t intrinsicsM = layout.getIntrinsicsM();
  int64_t intrinsicsN = layout.getIntrinsicsN();
  // A routed GEMM's rows are looked up in its row ids (a global load each,
  // one register per fragment of rows) once, before the accumulators' loads
  // and the K loop: looked up after it, their latency came after the last
  // MFMA (a routed decode tile: about 800 of its 6,800 cycles on the timing
  // model).
  Value laneOut;
  if (op.getRowIds()) {
    laneOut = lane;
    access->prepareAccesses(waveM, waveN, lane);
  }
  if (!op.getZeroAcc())
    access->forLoads([&] {
      for (int64_t i = 0; i < intrinsicsM; ++i)
        for (int64_t j = 0; j < intrinsicsN; ++j) {
          Value v = access->load(i, j, waveM, waveN, lane);
          vector::StoreOp::create(b, loc, v, accs,
                                  ValueRange{index(i), index(j), index(0)});
        }
    });

  FailureOr<SmallVector<Value>> views =
      createUKernelViews(ukernel, *ukernelType);
  if (failed(views))
    return failure();
  createUKernelCall(ukernel, *ukernelType, std::move(*views));

  // The accumulators out, addressed (but for a routed GEMM's, above) with
  // the lane index recomputed (gpu.lane_id): sharing the prologue's
  // addresses would keep one register pair per accumulator group alive
  // through the K loop.
  if (!laneOut) {
    laneOut = gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr);
    access->prepareAccesses(waveM, waveN, laneOut);
  }
  access->forStores([&] {
    for (int64_t i = 0; i < intrinsicsM; ++i)
      for (int64_t j = 0; j < intrinsicsN; ++j) {
        Value v =
            vector::LoadOp::create(b, loc, accVectorType, accs,
                                   ValueRange{index(i), index(j), index(0)});
        access->store(i, j, waveM, waveN, laneOut, v);
      }
  });
  if (columnConsumer) {
    b.setInsertionPoint(launch.getBody().front().getTerminator());
    gfx950::detail::ColumnConsumerTile tile;
    tile.waves = layout.getSubgroupsM() * layout.getSubgroupsN();
    tile.tileM = layout.getInnerTileSizes(OperandRole::result)[0];
    tile.tileN = layout.getInnerTileSizes(OperandRole::result)[1];
    tile.tilesN = cast<MemRefType>(op.getAcc().getType()).getDimSize(1);
    tile.tilesN = llvm::divideCeil(tile.tilesN, tile.tileN);
    tile.mIndex = mIndex;
    tile.nIndex = nIndex;
    if (auto group = columnConsumer->getAttrOfType<IntegerAttr>(
            MXDialect::kColumnConsumerAttrName)) {
      tile.rowGroup = group.getInt();
      tile.rowIds = op.getRowIds();
      tile.accRows = cast<MemRefType>(op.getAcc().getType()).getDimSize(0);
    }
    gfx950::detail::createColumnConsumer(b, loc, launch, columnConsumer, tile);
    b.eraseOp(columnConsumer);
  }
  b.eraseOp(op);
  if (quantize)
    b.eraseOp(quantize);
  return launch;
}

FailureOr<gpu::LaunchOp> mlir::mx::gfx950::lowerTiledScaledMMA(
    RewriterBase &rewriter, TiledScaledMMAOp op,
    const LowerTiledMMAOptions &options, StringRef kernelName) {
  if (!op.getResults().empty())
    return op.emitOpError() << "must be bufferized before the gfx950 lowering "
                               "(it is on tensors)";
  DataTiledLayoutAttr layout = getDataTiledLayout(op.getLayout());
  if (!layout)
    return op.emitOpError() << "needs a #mx.data_tiled_layout for gfx950, got "
                            << op.getLayout();
  QuantizeIntoOp quantize = gfx950::detail::getQuantizeInConsumer(op);
  UKernelSelection selection = selectUKernel(layout, bool(quantize));
  if (!selection.name) {
    InFlightDiagnostic diag =
        op.emitOpError()
        << "no gfx950 ukernel serves the layout " << layout
        << "; pick another layout (mx.layout or mx-materialize-encodings "
           "options)";
    diag.attachNote() << "ukernels rejected it:\n" << selection.rejections;
    return failure();
  }
  std::string name = kernelName.empty()
                         ? gfx950::detail::getUnusedKernelName(op, "mma")
                         : kernelName.str();
  FailureOr<linalg::GenericOp> columnConsumer =
      gfx950::detail::takeColumnConsumer(op);
  if (failed(columnConsumer))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  return TiledMMALowering(rewriter, op, layout, quantize, *columnConsumer)
      .run(*selection.name, name);
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
    IRRewriter rewriter(&getContext());
    for (TiledScaledMMAOp op : ops) {
      auto func = op->getParentOfType<FunctionOpInterface>();
      StringRef funcName = func ? func.getName() : StringRef("mx");
      std::string name = (funcName + "_mma" + Twine(counts[funcName]++)).str();
      if (failed(lowerTiledScaledMMA(rewriter, op, {}, name)))
        return signalPassFailure();
    }
    // A quantize or a column consumer left to a GEMM that did not compute
    // it would never run.
    if (failed(gfx950::detail::checkFusedConsumersTaken(module)))
      return signalPassFailure();
  }
};
} // namespace
