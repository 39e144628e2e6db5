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

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Dialect/MX/Transforms/QuantizeArith.h"
#include "mx/Target/GFX950/Passes.h"

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
#include "mx/Target/GFX950/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;
using namespace mlir::mx;

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

/// Evaluates every result of `map` at `coords`.
static SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ValueRange coords) {
  SmallVector<Value> results;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    results.push_back(
        affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), coords));
  return results;
}

static LogicalResult lowerQuantize(QuantizeIntoOp op, int64_t workgroupSize,
                                   StringRef kernelName) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  auto inputType = cast<MemRefType>(op.getInput().getType());
  if (!inputType.hasStaticShape())
    return op.emitOpError() << "needs a static input shape on gfx950";
  ArrayRef<int64_t> shape = inputType.getShape();
  int64_t rank = shape.size();
  int64_t axis = op.getAxis();
  auto elementType = cast<FloatType>(op.getElementType());
  int64_t bits = elementType.getWidth();
  ElementFormat format = ElementFormat::get(elementType);
  // Codes per packed group and its bytes: fp4 2 -> 1, fp6 4 -> 3, fp8 1 -> 1.
  int64_t groupCodes = bits == 4 ? 2 : bits == 6 ? 4 : 1;
  int64_t groupBytes = groupCodes * bits / 8;

  // Destinations and the kernel's domain (the union of their padded
  // domains and the input).
  SmallVector<Destination> dests;
  KernelPlan plan;
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
    if (!type.getElementType().isInteger(8) || !type.hasStaticShape() ||
        !type.getLayout().isIdentity())
      return op.emitOpError()
             << "destination #" << index
             << " must be a static i8 memref with the identity layout on "
                "gfx950 (run mx-pack-to-bytes), got "
             << type;
    FailureOr<SmallVector<int64_t>> domain = op.getPaddedDomain(index);
    if (failed(domain))
      return op.emitOpError()
             << "has an invalid map for destination #" << index;
    dest.domain = *domain;
    if (dest.isScales)
      dest.domain[axis] *= kBlockSize;
    for (int64_t d = 0; d < rank; ++d)
      plan.domain[d] = std::max(plan.domain[d], dest.domain[d]);
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
  if (plan.packDim >= 0 && plan.domain[plan.packDim] % plan.packWidth != 0)
    return op.emitOpError() << "the padded size of dimension " << plan.packDim
                            << " is not a multiple of " << plan.packWidth
                            << " (the codes per packed byte group)";
  for (int64_t d = 0; d < rank; ++d)
    if (d == axis ? plan.domain[d] % kBlockSize != 0 : false)
      return op.emitOpError() << "padded size along the axis is not a "
                                 "multiple of 32";

  // Threads: one per (packWidth blocks) of the domain, row-major.
  SmallVector<int64_t> threadsPerDim(plan.domain);
  threadsPerDim[axis] /= kBlockSize;
  if (plan.packDim >= 0)
    threadsPerDim[plan.packDim] /= plan.packWidth;
  int64_t total = 1;
  for (int64_t n : threadsPerDim)
    total *= n;
  OpBuilder b(op);
  if (total == 0) {
    op.erase();
    return success();
  }
  auto cIndex = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value one = cIndex(1);
  auto launch = gpu::LaunchOp::create(
      b, loc, cIndex(llvm::divideCeil(total, workgroupSize)), one, one,
      cIndex(workgroupSize), one, one);
  launch.setFunctionAttr(FlatSymbolRefAttr::get(ctx, kernelName));
  launch.setModuleAttr(FlatSymbolRefAttr::get(ctx, kernelName));
  b.setInsertionPointToStart(&launch.getBody().front());
  Value id = arith::AddIOp::create(b, loc,
                                   arith::MulIOp::create(b, loc,
                                                         launch.getBlockIds().x,
                                                         cIndex(workgroupSize)),
                                   launch.getThreadIds().x);
  Value live = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id,
                                     cIndex(total));
  auto guard = scf::IfOp::create(b, loc, live, /*withElseRegion=*/false);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(guard.thenBlock());

  // The thread's first point.
  SmallVector<Value> base;
  if (rank == 1) {
    base.push_back(id);
  } else {
    auto delinearize = affine::AffineDelinearizeIndexOp::create(
        b, loc, id, ArrayRef<int64_t>(threadsPerDim));
    base.assign(delinearize.getResults().begin(),
                delinearize.getResults().end());
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t step = d == axis           ? kBlockSize
                   : d == plan.packDim ? plan.packWidth
                                       : 1;
    if (step != 1)
      base[d] = arith::MulIOp::create(b, loc, base[d], cIndex(step));
  }
  auto ult = [&](Value v, int64_t bound) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                                 cIndex(bound));
  };
  auto andAll = [&](ArrayRef<Value> conditions) -> Value {
    Value result;
    for (Value c : conditions)
      result = result ? arith::AndIOp::create(b, loc, result, c) : c;
    return result;
  };

  MXArithBuilder mx(b, loc);
  Type f32 = b.getF32Type();
  Type codeType = b.getIntegerType(bits);
  Type i8 = b.getI8Type();
  bool vectorLoad = axis == rank - 1 && inputType.getLayout().isIdentity();
  int64_t columns = plan.packDim >= 0 ? plan.packWidth : 1;
  // codes[column][k]: the i8 code of element k of the column's block;
  // scaleBytes[column]: its scale byte (padding applied per destination).
  SmallVector<SmallVector<Value>> codes(columns);
  SmallVector<Value> scaleBytes(columns), inBounds(columns);
  SmallVector<SmallVector<Value>> columnBase(columns);
  for (int64_t column = 0; column < columns; ++column) {
    SmallVector<Value> coords(base);
    if (column != 0)
      coords[plan.packDim] =
          arith::AddIOp::create(b, loc, coords[plan.packDim], cIndex(column));
    columnBase[column] = coords;
    // In bounds of the input: the load position is clamped too, so that it
    // is in bounds whatever the condition.
    SmallVector<Value> conditions, clamped;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t limit = d == axis ? shape[d] - kBlockSize : shape[d] - 1;
      if (plan.domain[d] > shape[d]) {
        conditions.push_back(ult(coords[d], shape[d]));
        clamped.push_back(
            arith::MinUIOp::create(b, loc, coords[d], cIndex(limit)));
      } else {
        clamped.push_back(coords[d]);
      }
    }
    Value valid = conditions.empty() ? Value() : andAll(conditions);
    inBounds[column] = valid;
    // The block's 32 values, loaded only by threads inside the input (a
    // padding thread reads nothing and quantizes zeros).
    auto blockType = VectorType::get({kBlockSize}, inputType.getElementType());
    auto loadBlock = [&]() -> Value {
      if (vectorLoad)
        return vector::LoadOp::create(b, loc, blockType, op.getInput(),
                                      clamped);
      SmallVector<Value> elements;
      for (int64_t k = 0; k < kBlockSize; ++k) {
        SmallVector<Value> at(clamped);
        at[axis] = arith::AddIOp::create(b, loc, at[axis], cIndex(k));
        elements.push_back(memref::LoadOp::create(b, loc, op.getInput(), at));
      }
      return vector::FromElementsOp::create(b, loc, blockType, elements);
    };
    Value block;
    if (valid) {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{blockType}, valid,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, loadBlock());
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::ConstantOp::create(
              b, loc,
              DenseElementsAttr::get(
                  blockType, b.getZeroAttr(blockType.getElementType())))});
      block = ifOp.getResult(0);
    } else {
      block = loadBlock();
    }
    SmallVector<Value> values;
    for (int64_t k = 0; k < kBlockSize; ++k)
      values.push_back(vector::ExtractOp::create(b, loc, block, k));
    Value amax;
    for (Value &v : values) {
      if (v.getType() != f32)
        v = arith::ExtFOp::create(b, loc, f32, v);
      Value magnitude = math::AbsFOp::create(b, loc, v);
      amax =
          amax ? arith::MaximumFOp::create(b, loc, amax, magnitude) : magnitude;
    }
    Value scale = mx.computeScale(amax, op.getScale(), format);
    scaleBytes[column] = arith::BitcastOp::create(b, loc, i8, scale);
    for (Value v : values) {
      Value code =
          mx.quantizeElement(v, scale, elementType, format, op.getRounding());
      code = arith::BitcastOp::create(b, loc, codeType, code);
      if (bits < 8)
        code = arith::ExtUIOp::create(b, loc, i8, code);
      codes[column].push_back(code);
    }
  }

  // Stores, masked where the kernel's domain exceeds the destination's.
  auto maskedStore = [&](const Destination &dest, ArrayRef<Value> coords,
                         function_ref<void()> store) {
    SmallVector<Value> conditions;
    for (int64_t d = 0; d < rank; ++d)
      if (plan.domain[d] > dest.domain[d])
        conditions.push_back(ult(coords[d], dest.domain[d]));
    if (conditions.empty())
      return store();
    auto ifOp = scf::IfOp::create(b, loc, andAll(conditions),
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    store();
  };
  for (const Destination &dest : dests) {
    if (dest.isScales) {
      for (int64_t column = 0; column < columns; ++column) {
        SmallVector<Value> coords(columnBase[column]);
        maskedStore(dest, coords, [&] {
          SmallVector<Value> blockCoords(coords);
          blockCoords[axis] =
              arith::DivUIOp::create(b, loc, coords[axis], cIndex(kBlockSize));
          Value byte = scaleBytes[column];
          if (inBounds[column])
            byte = arith::SelectOp::create(
                b, loc, inBounds[column], byte,
                arith::ConstantOp::create(b, loc,
                                          b.getIntegerAttr(i8, dest.padding)));
          memref::StoreOp::create(b, loc, byte, dest.buffer,
                                  applyMap(b, loc, dest.map, blockCoords));
        });
      }
      continue;
    }
    // Elements: the innermost destination index counts groups of
    // `groupCodes` codes, stored as `groupBytes` bytes.
    auto type = cast<MemRefType>(dest.buffer.getType());
    int64_t innerSize = type.getShape().back() * 8 / bits;
    AffineMap map = dest.map;
    AffineExpr inner = map.getResults().back();
    map = map.replace(inner, inner.floorDiv(groupCodes) * groupBytes,
                      map.getNumDims(), 0);
    auto run = getInnermostRun(dest.map.getResults().back(), innerSize);
    // A group of bytes from `groupCodes` codes (little-endian bit stream).
    auto packGroup = [&](ArrayRef<Value> group) {
      SmallVector<Value> bytes;
      if (groupCodes == 1)
        return SmallVector<Value>{group[0]};
      Type i32 = b.getI32Type();
      Value word = mx.i32(0);
      for (auto [j, code] : llvm::enumerate(group))
        word = arith::OrIOp::create(
            b, loc, word,
            arith::ShLIOp::create(b, loc,
                                  arith::ExtUIOp::create(b, loc, i32, code),
                                  mx.i32(int64_t(j) * bits)));
      for (int64_t j = 0; j < groupBytes; ++j)
        bytes.push_back(arith::TruncIOp::create(
            b, loc, i8, arith::ShRUIOp::create(b, loc, word, mx.i32(8 * j))));
      return bytes;
    };
    auto storeBytes = [&](ArrayRef<Value> bytes, ArrayRef<Value> coords) {
      SmallVector<Value> at = applyMap(b, loc, map, coords);
      if (bytes.size() == 1) {
        memref::StoreOp::create(b, loc, bytes[0], dest.buffer, at);
        return;
      }
      Value vec = vector::FromElementsOp::create(
          b, loc, VectorType::get({int64_t(bytes.size())}, i8), bytes);
      vector::StoreOp::create(b, loc, vec, dest.buffer, at);
    };
    if (run && run->first == axis) {
      // Runs of consecutive codes along the axis are consecutive bytes.
      int64_t runCodes = groupCodes;
      if (run->second % kBlockSize == 0)
        runCodes = kBlockSize;
      else if (kBlockSize % run->second == 0)
        runCodes = run->second;
      for (int64_t column = 0; column < columns; ++column) {
        for (int64_t start = 0; start < kBlockSize; start += runCodes) {
          SmallVector<Value> coords(columnBase[column]);
          coords[axis] =
              arith::AddIOp::create(b, loc, coords[axis], cIndex(start));
          maskedStore(dest, coords, [&] {
            SmallVector<Value> bytes;
            for (int64_t g = start; g < start + runCodes; g += groupCodes)
              llvm::append_range(
                  bytes,
                  packGroup(
                      ArrayRef<Value>(codes[column]).slice(g, groupCodes)));
            storeBytes(bytes, coords);
          });
        }
      }
      continue;
    }
    // Otherwise each element position k of the axis holds one group made
    // of the columns' codes (fp8: one code per column).
    for (int64_t k = 0; k < kBlockSize; ++k) {
      for (int64_t column = 0; column < columns; column += groupCodes) {
        SmallVector<Value> coords(columnBase[column]);
        coords[axis] = arith::AddIOp::create(b, loc, coords[axis], cIndex(k));
        maskedStore(dest, coords, [&] {
          SmallVector<Value> group;
          for (int64_t j = 0; j < groupCodes; ++j)
            group.push_back(codes[column + j][k]);
          storeBytes(packGroup(group), coords);
        });
      }
    }
  }
  op.erase();
  return success();
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
      if (op.getResults().empty())
        ops.push_back(op);
    });
    StringRef funcName = getOperation().getSymName();
    for (auto [index, op] : llvm::enumerate(ops)) {
      std::string name = (funcName + "_quantize" + Twine(index)).str();
      if (failed(lowerQuantize(op, workgroupSize, name)))
        return signalPassFailure();
    }
  }
};
} // namespace
