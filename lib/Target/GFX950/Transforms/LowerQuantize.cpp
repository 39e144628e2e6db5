//===- LowerQuantize.cpp - mx-gfx950-lower-quantize -----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mx.quantize_into on memrefs -> one gpu.launch whose threads each quantize
// one block of 32 input elements (or the few neighbouring blocks whose codes
// share destination bytes) and store codes and scale bytes into every
// destination through its map. The arithmetic is QuantizeArith's, shared
// with the CPU path.
//
//===----------------------------------------------------------------------===//

#include "KernelNames.h"
#include "QuantizeProducer.h"

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/QuantizeArith.h"
#include "mx/Support/CheckedArith.h"
#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Target/GFX950/Transforms/Transforms.h"
#include "mx/Target/GFX950/UKernels/QuantizeBlock.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950LOWERQUANTIZE
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using mlir::mx::gfx950::detail::applyMap;
using mlir::mx::gfx950::detail::onlyAllocates;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

namespace {
/// What the kernel needs to know about one destination.
struct Destination {
  Value buffer;
  AffineMap map;
  /// The padded domain of the map, in element coordinates of the input
  /// (the scales' axis multiplied by 32).
  SmallVector<int64_t> domain;
  bool isScales;
  int64_t padding = 0;
};

/// The static plan of a quantize kernel.
struct KernelPlan {
  SmallVector<int64_t> domain;
  /// Logical dimension along which a thread takes `packWidth` neighbouring
  /// blocks (their codes share destination bytes), or -1.
  int64_t packDim = -1;
  int64_t packWidth = 1;
};
} // namespace

/// The dimension and modulus of the innermost result `expr` of an elements
/// map: `d` (modulus: the innermost size) or `d mod b`.
static std::optional<std::pair<int64_t, int64_t>>
getInnermostRun(AffineExpr expr, int64_t innerSize) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return std::make_pair(int64_t(dim.getPosition()), innerSize);
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || binary.getKind() != AffineExprKind::Mod)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(binary.getLHS());
  auto modulus = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (!dim || !modulus)
    return std::nullopt;
  return std::make_pair(int64_t(dim.getPosition()), modulus.getValue());
}

/// A checked quantize and the plan of its kernel.
struct QuantizePlan {
  QuantizeIntoOp op;
  /// Whether the codes come from gfx950's packed scaled conversions
  /// (fp4 codes in runs along the axis of every destination; nearest-even,
  /// or ties-away from bf16).
  bool packedConversions = false;
  SmallVector<int64_t> shape;
  SmallVector<Destination> dests;
  KernelPlan plan;
};

/// Checks \p op and plans its kernel: destinations, padded domain, packing,
/// and whether the packed conversions compute its codes (when
/// \p packedConversions allows and they give exactly its rounding).
static FailureOr<QuantizePlan> planQuantize(QuantizeIntoOp op,
                                            bool packedConversions) {
  auto inputType = cast<MemRefType>(op.getInput().getType());
  if (inputType.isDynamicDim(op.getAxis()))
    return op.emitOpError() << "needs a static size along the axis on gfx950";
  QuantizePlan p;
  p.op = op;
  p.shape = op.getLogicalShape();
  ArrayRef<int64_t> shape = p.shape;
  int64_t rank = shape.size();
  int64_t axis = op.getAxis();
  auto elementType = cast<FloatType>(op.getElementType());
  int64_t bits = elementType.getWidth();
  int64_t groupCodes = getGroupCodes(bits);

  // Destinations and the kernel's domain (the union of their padded
  // domains and the input).
  SmallVector<Destination> &dests = p.dests;
  KernelPlan &plan = p.plan;
  plan.domain.assign(shape.begin(), shape.end());
  unsigned numElements = op.getElements().size();
  for (auto [index, buffer] : llvm::enumerate(op.getDpsInits())) {
    Destination dest;
    dest.buffer = buffer;
    dest.map = op.getDestinationMap(index);
    dest.isScales = index >= numElements;
    if (dest.isScales)
      dest.padding = op.getScalePadding()[index - numElements];
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.getElementType().isInteger(8) || !type.getLayout().isIdentity())
      return op.emitOpError()
             << "destination #" << index
             << " must be an i8 memref with the identity layout on "
                "gfx950 (run mx-pack-to-bytes), got "
             << type;
    FailureOr<SmallVector<int64_t>> domain = op.getPaddedDomain(index);
    if (failed(domain))
      return op.emitOpError()
             << "has an invalid map for destination #" << index;
    dest.domain = *domain;
    if (dest.isScales)
      dest.domain[axis] *= kBlockSize;
    // A dynamic input size is the kernel's (no padding there): the
    // destination must cover exactly it.
    for (int64_t d = 0; d < rank; ++d) {
      if (ShapedType::isDynamic(shape[d]) !=
          ShapedType::isDynamic(dest.domain[d]))
        return op.emitOpError()
               << "destination #" << index
               << " must be dynamic exactly where the input is on gfx950 "
                  "(dimension "
               << d << ")";
      if (ShapedType::isStatic(shape[d]))
        plan.domain[d] = std::max(plan.domain[d], dest.domain[d]);
    }
    if (!dest.isScales && groupCodes > 1 &&
        type.isDynamicDim(type.getRank() - 1))
      return op.emitOpError()
             << "cannot pack " << elementType << " codes into destination #"
             << index << " with a dynamic innermost size on gfx950";
    if (!dest.isScales && groupCodes > 1) {
      int64_t innerSize = type.getShape().back() * 8 / bits;
      auto run = getInnermostRun(dest.map.getResults().back(), innerSize);
      if (!run || run->second % groupCodes != 0 ||
          (run->first != axis && plan.packDim >= 0 &&
           plan.packDim != run->first))
        return op.emitOpError()
               << "cannot pack " << elementType << " codes into the bytes of "
               << "destination #" << index << " (map "
               << AffineMapAttr::get(dest.map)
               << "): its innermost dimension must be `d` or `d mod b` with b "
               << "a multiple of " << groupCodes
               << ", and one logical dimension for all destinations";
      if (run->first != axis) {
        plan.packDim = run->first;
        plan.packWidth = groupCodes;
      }
    }
    dests.push_back(std::move(dest));
  }
  if (plan.packDim >= 0 && ShapedType::isDynamic(shape[plan.packDim]))
    return op.emitOpError()
           << "cannot pack " << elementType << " codes along dimension "
           << plan.packDim << ", whose size is dynamic, on gfx950";
  if (plan.packDim >= 0 && plan.domain[plan.packDim] % plan.packWidth != 0)
    return op.emitOpError() << "the padded size of dimension " << plan.packDim
                            << " is not a multiple of " << plan.packWidth
                            << " (the codes per packed byte group)";
  for (int64_t d = 0; d < rank; ++d)
    if (d == axis ? plan.domain[d] % kBlockSize != 0 : false)
      return op.emitOpError() << "padded size along the axis is not a "
                                 "multiple of 32";
  // v_cvt_scalef32_pk_fp4_* divide by the scale and round to nearest even,
  // saturating: the op's nearest_even fp4 codes, and its ties_away ones for
  // bf16 input (see emitBlocks).
  p.packedConversions =
      packedConversions && plan.packDim < 0 &&
      canUsePackedConversions(cast<FloatType>(op.getElementType()),
                              op.getRounding(), inputType.getElementType());
  return p;
}

/// The loads of a block: its 32 values (a vector) from its first point.
using BlockLoader =
    function_ref<Value(OpBuilder &b, ArrayRef<Value> clampedCoords)>;
/// What else is done with a block once loaded (or zero, outside the input).
using BlockHook =
    function_ref<void(OpBuilder &b, ArrayRef<Value> coords, Value block)>;

namespace {
/// One block of a thread, quantized: a thread quantizes one block, or one
/// per column of the plan's packed dimension.
struct QuantizedColumn {
  /// The block's first point.
  SmallVector<Value> coords;
  /// Whether the block is inside the input (null: always).
  Value inBounds;
  /// The i8 code of each of its elements.
  SmallVector<Value> codes;
  /// With packed conversions, its element bytes (fp4: two codes per byte,
  /// in order along the axis).
  SmallVector<Value> packedBytes;
  /// Its scale byte (padding applied per destination).
  Value scaleByte;
};
} // namespace

static Value createIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Whether `v` < `bound`, unsigned.
static Value createULT(OpBuilder &b, Location loc, Value v, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                               createIndex(b, loc, bound));
}

/// The conjunction of (non-empty) `conditions`.
static Value createAnd(OpBuilder &b, Location loc, ArrayRef<Value> conditions) {
  Value result;
  for (Value c : conditions)
    result = result ? arith::AndIOp::create(b, loc, result, c) : c;
  return result;
}

/// The block of \p p at \p coords loaded by \p load (zeros outside the
/// input: only threads inside it load), passed to \p onBlock, and quantized.
static QuantizedColumn quantizeColumn(OpBuilder &b, Location loc,
                                      const QuantizePlan &p,
                                      ArrayRef<Value> coords, BlockLoader load,
                                      BlockHook onBlock) {
  QuantizeIntoOp op = p.op;
  ArrayRef<int64_t> shape = p.shape;
  int64_t axis = op.getAxis();
  auto inputType = cast<MemRefType>(op.getInput().getType());
  QuantizedColumn column;
  column.coords.assign(coords.begin(), coords.end());
  // In bounds of the input: the load position is clamped too, so that it
  // is in bounds whatever the condition.
  SmallVector<Value> conditions, clamped;
  for (int64_t d = 0, rank = shape.size(); d < rank; ++d) {
    // (Padding only where both sizes are static: a dynamic size is the
    // kernel's own.)
    if (ShapedType::isStatic(shape[d]) && p.plan.domain[d] > shape[d]) {
      int64_t limit = d == axis ? shape[d] - kBlockSize : shape[d] - 1;
      conditions.push_back(createULT(b, loc, coords[d], shape[d]));
      clamped.push_back(arith::MinUIOp::create(b, loc, coords[d],
                                               createIndex(b, loc, limit)));
    } else {
      clamped.push_back(coords[d]);
    }
  }
  if (Value ids = op.getIds()) {
    // A gathered row: read the input row of its id (clamped), if any.
    // (A static count: a fused producer's buffer, the input, is erased.)
    Value rows = ShapedType::isStatic(inputType.getDimSize(0))
                     ? createIndex(b, loc, inputType.getDimSize(0))
                     : memref::DimOp::create(b, loc, op.getInput(), 0);
    Value id = memref::LoadOp::create(b, loc, ids, clamped[0]);
    auto [row, inInput] =
        buildGatheredSourceRow(b, loc, id, *op.getDivisor(), rows);
    conditions.push_back(inInput);
    clamped[0] = row;
  }
  Value valid = conditions.empty() ? Value() : createAnd(b, loc, conditions);
  column.inBounds = valid;
  // The block's 32 values, loaded only by threads inside the input (a
  // padding thread reads nothing and quantizes zeros).
  auto blockType = VectorType::get({kBlockSize}, inputType.getElementType());
  Value block;
  if (valid) {
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{blockType}, valid,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, load(b, clamped));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(
                blockType, b.getZeroAttr(blockType.getElementType())))});
    block = ifOp.getResult(0);
  } else {
    block = load(b, clamped);
  }
  if (onBlock)
    onBlock(b, coords, block);
  QuantizedBlock quantized =
      quantizeBlock(b, loc, block, op.getScale(), op.getRounding(),
                    cast<FloatType>(op.getElementType()), p.packedConversions);
  column.scaleByte = quantized.scaleByte;
  column.codes = std::move(quantized.codes);
  column.packedBytes = std::move(quantized.packedBytes);
  return column;
}

/// Emits \p store, masked where the plan's domain exceeds \p dest's at
/// \p coords.
static void createMaskedStore(OpBuilder &b, Location loc, const QuantizePlan &p,
                              const Destination &dest, ArrayRef<Value> coords,
                              function_ref<void()> store) {
  SmallVector<Value> conditions;
  for (int64_t d = 0, rank = p.shape.size(); d < rank; ++d)
    if (p.plan.domain[d] > dest.domain[d])
      conditions.push_back(createULT(b, loc, coords[d], dest.domain[d]));
  if (conditions.empty())
    return store();
  auto ifOp = scf::IfOp::create(b, loc, createAnd(b, loc, conditions),
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  store();
}

/// Stores the scale byte of each of \p columns into the scales destination
/// \p dest (its padding byte for a block outside the input).
static void storeScales(OpBuilder &b, Location loc, const QuantizePlan &p,
                        const Destination &dest,
                        ArrayRef<QuantizedColumn> columns) {
  int64_t axis = QuantizeIntoOp(p.op).getAxis();
  for (const QuantizedColumn &column : columns) {
    SmallVector<Value> coords(column.coords);
    createMaskedStore(b, loc, p, dest, coords, [&] {
      SmallVector<Value> blockCoords(coords);
      blockCoords[axis] = arith::DivUIOp::create(
          b, loc, coords[axis], createIndex(b, loc, kBlockSize));
      Value byte = column.scaleByte;
      if (column.inBounds)
        byte = arith::SelectOp::create(
            b, loc, column.inBounds, byte,
            arith::ConstantOp::create(
                b, loc, b.getIntegerAttr(b.getI8Type(), dest.padding)));
      memref::StoreOp::create(b, loc, byte, dest.buffer,
                              applyMap(b, loc, dest.map, blockCoords));
    });
  }
}

/// Stores the codes of \p columns into the elements destination \p dest:
/// its innermost index counts groups of `groupCodes` codes, stored as
/// `groupBytes` bytes.
static void storeElements(OpBuilder &b, Location loc, const QuantizePlan &p,
                          const Destination &dest,
                          ArrayRef<QuantizedColumn> columns) {
  QuantizeIntoOp op = p.op;
  int64_t axis = op.getAxis();
  int64_t bits = cast<FloatType>(op.getElementType()).getWidth();
  int64_t groupCodes = getGroupCodes(bits);
  int64_t groupBytes = groupCodes * bits / 8;
  auto type = cast<MemRefType>(dest.buffer.getType());
  int64_t innerSize = type.getShape().back() * 8 / bits;
  AffineMap map = dest.map;
  AffineExpr inner = map.getResults().back();
  map = map.replace(inner, inner.floorDiv(groupCodes) * groupBytes,
                    map.getNumDims(), 0);
  auto run = getInnermostRun(dest.map.getResults().back(), innerSize);
  // A group of bytes from `groupCodes` codes (little-endian bit stream).
  auto packGroup = [&](ArrayRef<Value> group) {
    return packCodes(b, loc, group, bits);
  };
  auto storeBytes = [&](ArrayRef<Value> bytes, ArrayRef<Value> coords) {
    SmallVector<Value> at = applyMap(b, loc, map, coords);
    if (bytes.size() == 1) {
      memref::StoreOp::create(b, loc, bytes[0], dest.buffer, at);
      return;
    }
    Value vec = vector::FromElementsOp::create(
        b, loc, VectorType::get({int64_t(bytes.size())}, b.getI8Type()), bytes);
    vector::StoreOp::create(b, loc, vec, dest.buffer, at);
  };
  if (run && run->first == axis) {
    // Runs of consecutive codes along the axis are consecutive bytes.
    int64_t runCodes = groupCodes;
    if (run->second % kBlockSize == 0)
      runCodes = kBlockSize;
    else if (kBlockSize % run->second == 0)
      runCodes = run->second;
    for (const QuantizedColumn &column : columns) {
      for (int64_t start = 0; start < kBlockSize; start += runCodes) {
        SmallVector<Value> coords(column.coords);
        coords[axis] = arith::AddIOp::create(b, loc, coords[axis],
                                             createIndex(b, loc, start));
        createMaskedStore(b, loc, p, dest, coords, [&] {
          SmallVector<Value> bytes;
          for (int64_t g = start; g < start + runCodes; g += groupCodes)
            llvm::append_range(
                bytes,
                p.packedConversions
                    ? SmallVector<Value>{column.packedBytes[g / 2]}
                    : packGroup(
                          ArrayRef<Value>(column.codes).slice(g, groupCodes)));
          storeBytes(bytes, coords);
        });
      }
    }
    return;
  }
  // Otherwise each element position k of the axis holds one group made
  // of the columns' codes (fp8: one code per column).
  int64_t numColumns = columns.size();
  for (int64_t k = 0; k < kBlockSize; ++k) {
    for (int64_t column = 0; column < numColumns; column += groupCodes) {
      SmallVector<Value> coords(columns[column].coords);
      coords[axis] =
          arith::AddIOp::create(b, loc, coords[axis], createIndex(b, loc, k));
      createMaskedStore(b, loc, p, dest, coords, [&] {
        SmallVector<Value> group;
        for (int64_t j = 0; j < groupCodes; ++j)
          group.push_back(columns[column + j].codes[k]);
        storeBytes(packGroup(group), coords);
      });
    }
  }
}

/// A thread's work at \p base (its first point): its block(s) loaded by
/// \p load (zeros outside the input), quantized, and stored into every
/// destination of \p p, masked where the plan's domain exceeds the
/// destination's.
static void emitBlocks(OpBuilder &b, Location loc, const QuantizePlan &p,
                       ArrayRef<Value> base, BlockLoader load,
                       BlockHook onBlock = nullptr) {
  const KernelPlan &plan = p.plan;
  int64_t numColumns = plan.packDim >= 0 ? plan.packWidth : 1;
  SmallVector<QuantizedColumn> columns;
  for (int64_t column = 0; column < numColumns; ++column) {
    SmallVector<Value> coords(base);
    if (column != 0)
      coords[plan.packDim] = arith::AddIOp::create(b, loc, coords[plan.packDim],
                                                   createIndex(b, loc, column));
    columns.push_back(quantizeColumn(b, loc, p, coords, load, onBlock));
  }
  for (const Destination &dest : p.dests) {
    if (dest.isScales)
      storeScales(b, loc, p, dest, columns);
    else
      storeElements(b, loc, p, dest, columns);
  }
}

/// The global-memory loader of \p op's input: one vector load of 32 values
/// when the axis is the innermost unit-stride dimension, else 32 loads.
static Value loadGlobalBlock(OpBuilder &b, Location loc, QuantizeIntoOp op,
                             ArrayRef<Value> clamped) {
  auto inputType = cast<MemRefType>(op.getInput().getType());
  int64_t rank = inputType.getRank(), axis = op.getAxis();
  auto blockType = VectorType::get({kBlockSize}, inputType.getElementType());
  if (axis == rank - 1 && inputType.getLayout().isIdentity())
    return vector::LoadOp::create(b, loc, blockType, op.getInput(), clamped);
  SmallVector<Value> elements;
  for (int64_t k = 0; k < kBlockSize; ++k) {
    SmallVector<Value> at(clamped);
    at[axis] = arith::AddIOp::create(b, loc, at[axis],
                                     arith::ConstantIndexOp::create(b, loc, k));
    elements.push_back(memref::LoadOp::create(b, loc, op.getInput(), at));
  }
  return vector::FromElementsOp::create(b, loc, blockType, elements);
}

/// Checks what the plan does not: \p op is on memrefs, has a kernel of its
/// own, and \p options are valid.
static LogicalResult checkLowerable(QuantizeIntoOp op,
                                    const LowerQuantizeOptions &options) {
  if (!op.getResults().empty())
    return op.emitOpError() << "must be bufferized before the gfx950 lowering "
                               "(it is on tensors)";
  if (op.getInConsumer())
    return op.emitOpError()
           << "is marked in_consumer: the GEMM kernel that reads it quantizes "
              "it (mx-gfx950-lower-tiled-mma)";
  int64_t workgroupSize = options.workgroupSize;
  if (workgroupSize <= 0 || workgroupSize % 64 != 0 || workgroupSize > 1024)
    return op.emitOpError() << "workgroup-size must be a multiple of 64 in "
                               "[64, 1024], got "
                            << workgroupSize;
  return success();
}

/// The threads per dimension of the kernel of \p plan: one per
/// (packWidth blocks) of the domain; a dynamic dimension (neither the axis
/// nor packed) is dynamic.
static SmallVector<int64_t> getThreadsPerDim(const KernelPlan &plan,
                                             int64_t axis) {
  SmallVector<int64_t> threadsPerDim(plan.domain);
  threadsPerDim[axis] /= kBlockSize;
  if (plan.packDim >= 0)
    threadsPerDim[plan.packDim] /= plan.packWidth;
  return threadsPerDim;
}

/// The thread count, `staticTotal` times the run-time sizes of the dynamic
/// dimensions of \p threadsPerDim (those of \p op's input), and the basis
/// that delinearizes a thread's index (\p threadBasis).
static Value createThreadCount(OpBuilder &b, Location loc, QuantizeIntoOp op,
                               ArrayRef<int64_t> threadsPerDim,
                               int64_t staticTotal,
                               SmallVectorImpl<OpFoldResult> &threadBasis) {
  Value total = createIndex(b, loc, staticTotal);
  for (auto [d, n] : llvm::enumerate(threadsPerDim)) {
    if (ShapedType::isStatic(n)) {
      threadBasis.push_back(b.getIndexAttr(n));
      continue;
    }
    Value size = d == 0 && op.getIds()
                     ? memref::DimOp::create(b, loc, op.getIds(), 0)
                     : memref::DimOp::create(b, loc, op.getInput(), d);
    threadBasis.push_back(size);
    total = arith::MulIOp::create(b, loc, total, size);
  }
  return total;
}

/// The first point of thread \p id of the kernel of \p plan.
static SmallVector<Value> createThreadBase(OpBuilder &b, Location loc,
                                           const KernelPlan &plan, int64_t axis,
                                           Value id,
                                           ArrayRef<OpFoldResult> threadBasis) {
  int64_t rank = plan.domain.size();
  SmallVector<Value> base;
  if (rank == 1) {
    base.push_back(id);
  } else {
    auto delinearize =
        affine::AffineDelinearizeIndexOp::create(b, loc, id, threadBasis);
    base.assign(delinearize.getResults().begin(),
                delinearize.getResults().end());
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t step = d == axis           ? kBlockSize
                   : d == plan.packDim ? plan.packWidth
                                       : 1;
    if (step != 1)
      base[d] =
          arith::MulIOp::create(b, loc, base[d], createIndex(b, loc, step));
  }
  return base;
}

FailureOr<gpu::LaunchOp>
mlir::mx::gfx950::lowerQuantize(RewriterBase &rewriter, QuantizeIntoOp op,
                                const LowerQuantizeOptions &options,
                                StringRef kernelName) {
  if (failed(checkLowerable(op, options)))
    return failure();
  FailureOr<QuantizePlan> planned = planQuantize(op, options.packedConversions);
  if (failed(planned))
    return failure();
  std::string name = kernelName.empty()
                         ? gfx950::detail::getUnusedKernelName(op, "quantize")
                         : kernelName.str();
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  const KernelPlan &plan = planned->plan;
  int64_t axis = op.getAxis(), workgroupSize = options.workgroupSize;
  SmallVector<int64_t> threadsPerDim = getThreadsPerDim(plan, axis);
  std::optional<int64_t> threads = getCheckedProduct(
      llvm::filter_to_vector(threadsPerDim, ShapedType::isStatic));
  if (!threads)
    return op.emitOpError() << "needs more than 2^63 threads";
  int64_t staticTotal = *threads;
  if (staticTotal == 0) {
    rewriter.eraseOp(op);
    return gpu::LaunchOp();
  }
  OpBuilder::InsertionGuard insertionGuard(rewriter);
  rewriter.setInsertionPoint(op);
  RewriterBase &b = rewriter;
  SmallVector<OpFoldResult> threadBasis;
  Value total =
      createThreadCount(b, loc, op, threadsPerDim, staticTotal, threadBasis);
  // No launch of an empty grid (a dynamic size may be 0).
  if (!llvm::all_of(threadsPerDim, ShapedType::isStatic)) {
    auto nonEmpty = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, total,
                              createIndex(b, loc, 0)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(nonEmpty.thenBlock());
  }
  Value one = createIndex(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc,
      arith::CeilDivUIOp::create(b, loc, total,
                                 createIndex(b, loc, workgroupSize)),
      one, one, createIndex(b, loc, workgroupSize), one, one);
  launch.setFunctionAttr(FlatSymbolRefAttr::get(ctx, name));
  launch.setModuleAttr(FlatSymbolRefAttr::get(ctx, name));
  b.setInsertionPointToStart(&launch.getBody().front());
  Value id = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            createIndex(b, loc, workgroupSize)),
      launch.getThreadIds().x);
  Value live =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id, total);
  auto guard = scf::IfOp::create(b, loc, live, /*withElseRegion=*/false);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(guard.thenBlock());

  SmallVector<Value> base =
      createThreadBase(b, loc, plan, axis, id, threadBasis);
  // An elementwise producer of the input is computed here, block by block.
  linalg::GenericOp producer = detail::getFusableProducer(op);
  emitBlocks(
      b, loc, *planned, base, [&](OpBuilder &b, ArrayRef<Value> clamped) {
        return producer
                   ? detail::emitProducerBlock(b, loc, producer, axis, clamped)
                   : loadGlobalBlock(b, loc, op, clamped);
      });
  Value input = op.getInput();
  rewriter.eraseOp(op);
  if (producer) {
    rewriter.eraseOp(producer);
    rewriter.eraseOp(input.getDefiningOp());
  }
  return launch;
}

bool mlir::mx::gfx950::canLowerRowsAndColumnsTogether(QuantizeIntoOp first,
                                                      QuantizeIntoOp second) {
  if (first->getBlock() != second->getBlock() || first.getIds() ||
      second.getIds() || first.getInput() != second.getInput() ||
      !first->isBeforeInBlock(second) ||
      first.getInput().getType() != second.getInput().getType())
    return false;
  auto type = cast<MemRefType>(first.getInput().getType());
  if (type.getRank() != 2 || !type.hasStaticShape() ||
      first.getAxis() == second.getAxis())
    return false;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode())
    if (!onlyAllocates(op))
      return false;
  return true;
}

/// One phase of the rows-and-columns kernel at the tile at \p tileBase (of
/// \p tile): the threads of the blocks of \p p in the tile, each at its
/// first point.
static void emitTilePhase(OpBuilder &b, Location loc, const QuantizePlan &p,
                          ArrayRef<int64_t> tile, ArrayRef<Value> tileBase,
                          Value thread, BlockLoader load, BlockHook onBlock) {
  int64_t axis = QuantizeIntoOp(p.op).getAxis();
  SmallVector<int64_t> units(2), steps(2);
  for (int64_t d = 0; d < 2; ++d) {
    steps[d] = d == axis             ? kBlockSize
               : d == p.plan.packDim ? p.plan.packWidth
                                     : 1;
    units[d] = tile[d] / steps[d];
  }
  auto guard = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread,
                            createIndex(b, loc, units[0] * units[1])),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(guard.thenBlock());
  auto unit = affine::AffineDelinearizeIndexOp::create(
      b, loc, thread, ArrayRef<int64_t>(units));
  SmallVector<Value> base;
  for (int64_t d = 0; d < 2; ++d)
    base.push_back(arith::AddIOp::create(
        b, loc, tileBase[d],
        arith::MulIOp::create(b, loc, unit.getResult(d),
                              createIndex(b, loc, steps[d]))));
  emitBlocks(b, loc, p, base, load, onBlock);
}

/// The position of \p coords in the tile at \p tileBase.
static SmallVector<Value> createTileLocal(OpBuilder &b, Location loc,
                                          ArrayRef<Value> tileBase,
                                          ArrayRef<Value> coords) {
  return SmallVector<Value>{
      arith::SubIOp::create(b, loc, coords[0], tileBase[0]),
      arith::SubIOp::create(b, loc, coords[1], tileBase[1])};
}

/// The column block of 32 rows at tile position \p at from \p lds.
static Value loadLDSColumnBlock(OpBuilder &b, Location loc, Value lds,
                                ArrayRef<Value> at) {
  auto ldsType = cast<MemRefType>(lds.getType());
  SmallVector<Value> elements;
  for (int64_t k = 0; k < kBlockSize; ++k)
    elements.push_back(memref::LoadOp::create(
        b, loc, lds,
        ValueRange{arith::AddIOp::create(b, loc, at[0], createIndex(b, loc, k)),
                   at[1]}));
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({kBlockSize}, ldsType.getElementType()),
      elements);
}

FailureOr<gpu::LaunchOp> mlir::mx::gfx950::lowerQuantizeRowsAndColumns(
    RewriterBase &rewriter, QuantizeIntoOp rowsOp, QuantizeIntoOp colsOp,
    const LowerQuantizeOptions &options, StringRef kernelName) {
  if (failed(checkLowerable(rowsOp, options)) ||
      failed(checkLowerable(colsOp, options)))
    return failure();
  FailureOr<QuantizePlan> rows =
      planQuantize(rowsOp, options.packedConversions);
  FailureOr<QuantizePlan> cols =
      planQuantize(colsOp, options.packedConversions);
  if (failed(rows) || failed(cols))
    return failure();
  // At the later of the two (the earlier one's destinations exist there).
  Operation *at = rowsOp->isBeforeInBlock(colsOp) ? colsOp : rowsOp;
  std::string name = kernelName.empty()
                         ? gfx950::detail::getUnusedKernelName(at, "quantize")
                         : kernelName.str();
  Location loc = colsOp.getLoc();
  MLIRContext *ctx = colsOp.getContext();
  int64_t workgroupSize = options.workgroupSize;
  int64_t tile[2] = {kBlockSize, workgroupSize};
  SmallVector<int64_t> domain(2);
  for (int64_t d = 0; d < 2; ++d)
    domain[d] = llvm::alignTo(
        std::max(rows->plan.domain[d], cols->plan.domain[d]), tile[d]);
  rows->plan.domain = domain;
  cols->plan.domain = domain;
  int64_t tilesPerDim[2] = {domain[0] / tile[0], domain[1] / tile[1]};
  std::optional<int64_t> checkedTiles = getCheckedProduct(tilesPerDim);
  if (!checkedTiles)
    return colsOp.emitOpError() << "needs more than 2^63 tiles";
  int64_t tiles = *checkedTiles;
  if (tiles == 0) {
    rewriter.eraseOp(rowsOp);
    rewriter.eraseOp(colsOp);
    return gpu::LaunchOp();
  }
  OpBuilder::InsertionGuard insertionGuard(rewriter);
  rewriter.setInsertionPoint(at);
  RewriterBase &b = rewriter;
  auto inputType = cast<MemRefType>(rowsOp.getInput().getType());
  auto ldsType =
      MemRefType::get({tile[0], tile[1]}, inputType.getElementType(),
                      MemRefLayoutAttrInterface(),
                      gpu::AddressSpaceAttr::get(
                          ctx, gpu::GPUDialect::getWorkgroupAddressSpace()));
  Value one = createIndex(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, createIndex(b, loc, tiles), one, one,
      createIndex(b, loc, workgroupSize), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, /*workgroupAttributions=*/TypeRange{ldsType});
  launch.setFunctionAttr(FlatSymbolRefAttr::get(ctx, name));
  launch.setModuleAttr(FlatSymbolRefAttr::get(ctx, name));
  Value lds = launch.getWorkgroupAttributions().front();
  b.setInsertionPointToStart(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&launch.getBody().front());

  auto tileIds = affine::AffineDelinearizeIndexOp::create(
      b, loc, launch.getBlockIds().x, ArrayRef<int64_t>(tilesPerDim));
  SmallVector<Value> tileBase = {
      arith::MulIOp::create(b, loc, tileIds.getResult(0),
                            createIndex(b, loc, tile[0])),
      arith::MulIOp::create(b, loc, tileIds.getResult(1),
                            createIndex(b, loc, tile[1]))};
  Value thread = launch.getThreadIds().x;
  // Rows: from global memory; every block (zeros outside the input) is
  // also kept in LDS.
  emitTilePhase(
      b, loc, *rows, tile, tileBase, thread,
      [&](OpBuilder &b, ArrayRef<Value> clamped) {
        return loadGlobalBlock(b, loc, rowsOp, clamped);
      },
      [&](OpBuilder &b, ArrayRef<Value> coords, Value block) {
        vector::StoreOp::create(b, loc, block, lds,
                                createTileLocal(b, loc, tileBase, coords));
      });
  gpu::BarrierOp::create(b, loc);
  // Columns: from LDS.
  emitTilePhase(
      b, loc, *cols, tile, tileBase, thread,
      [&](OpBuilder &b, ArrayRef<Value> clamped) -> Value {
        return loadLDSColumnBlock(b, loc, lds,
                                  createTileLocal(b, loc, tileBase, clamped));
      },
      nullptr);
  rewriter.eraseOp(rowsOp);
  rewriter.eraseOp(colsOp);
  return launch;
}

/// The pairs of \p ops (in order) that one kernel lowers together, each op
/// mapped to its partner.
static DenseMap<Operation *, QuantizeIntoOp>
getRowsAndColumnsPartners(ArrayRef<QuantizeIntoOp> ops) {
  DenseMap<Operation *, QuantizeIntoOp> partner;
  for (auto [i, first] : llvm::enumerate(ops)) {
    if (partner.count(first))
      continue;
    for (QuantizeIntoOp second : ops.drop_front(i + 1))
      if (!partner.count(second) &&
          canLowerRowsAndColumnsTogether(first, second)) {
        partner[first] = second;
        partner[second] = first;
        break;
      }
  }
  return partner;
}

namespace {
struct LowerQuantizePass
    : public gfx950::impl::MXGFX950LowerQuantizeBase<LowerQuantizePass> {
  using Base::Base;

  void runOnOperation() override {
    if (workgroupSize <= 0 || workgroupSize % 64 != 0 || workgroupSize > 1024) {
      getOperation().emitError()
          << "mx-gfx950-lower-quantize: workgroup-size must be a multiple of "
             "64 in [64, 1024], got "
          << static_cast<int64_t>(workgroupSize);
      return signalPassFailure();
    }
    SmallVector<QuantizeIntoOp> ops;
    getOperation().walk([&](QuantizeIntoOp op) {
      // A quantize computed by its consumer's kernel gets none of its own
      // (mx-gfx950-lower-tiled-mma lowers it with the GEMM).
      if (op.getResults().empty() && !op.getInConsumer())
        ops.push_back(op);
    });
    StringRef funcName = getOperation().getSymName();
    // Rows and columns of the same input: one kernel for both.
    DenseMap<Operation *, QuantizeIntoOp> partner =
        getRowsAndColumnsPartners(ops);
    LowerQuantizeOptions options{workgroupSize, packedConversions};
    IRRewriter rewriter(&getContext());
    int64_t index = 0;
    DenseSet<Operation *> lowered;
    for (QuantizeIntoOp op : ops) {
      if (lowered.contains(op))
        continue; // Lowered with its partner.
      auto it = partner.find(op);
      std::string name = (funcName + "_quantize" + Twine(index++)).str();
      if (it == partner.end()) {
        if (failed(lowerQuantize(rewriter, op, options, name)))
          return signalPassFailure();
        continue;
      }
      QuantizeIntoOp other = it->second;
      lowered.insert(other);
      QuantizeIntoOp rowsOp = op.getAxis() == 1 ? op : other;
      QuantizeIntoOp colsOp = op.getAxis() == 1 ? other : op;
      if (failed(lowerQuantizeRowsAndColumns(rewriter, rowsOp, colsOp, options,
                                             name)))
        return signalPassFailure();
    }
  }
};
} // namespace
