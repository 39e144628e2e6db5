//===- MemoryViews.cpp - memref views in the wave emulator ----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Views of memory: memref.subview (offsets may differ per thread), reshapes
// (expand_shape, collapse_shape), reinterpret_cast, casts that keep the view,
// amdgpu.fat_raw_buffer_cast (a view with buffer semantics), memref.dim and
// extract_strided_metadata; every view checked against its result type at
// run time.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

void Interpreter::registerViewHandlers(HandlerTable &table) {
  table.add<memref::ReinterpretCastOp>(
      [](Interpreter &self, memref::ReinterpretCastOp op) {
        return self.execReinterpretCast(op);
      });
  table.add<memref::ExpandShapeOp>(
      [](Interpreter &self, memref::ExpandShapeOp op) {
        return self.execExpandShape(op);
      });
  table.add<memref::CollapseShapeOp>(
      [](Interpreter &self, memref::CollapseShapeOp op) {
        return self.execCollapseShape(op);
      });
  table.add<memref::ExtractStridedMetadataOp>(
      [](Interpreter &self, memref::ExtractStridedMetadataOp op) {
        return self.execExtractStridedMetadata(op);
      });
  // Casts that keep the view (address spaces, alignment, layouts).
  table.add<memref::CastOp, memref::MemorySpaceCastOp,
            memref::AssumeAlignmentOp>(
      [](Interpreter &self, Operation *op) -> LogicalResult {
        if (!isa<MemRefType>(op->getResult(0).getType()))
          return self.unsupportedType(op, op->getResult(0).getType());
        const MemView *view = self.getMem(op, op->getOperand(0));
        if (!view)
          return failure();
        return self.setView(op, op->getResult(0), *view);
      });
  table.add<memref::DimOp>(
      [](Interpreter &self, memref::DimOp dim) -> LogicalResult {
        const MemView *view = self.getMem(dim, dim.getSource());
        if (!view)
          return failure();
        FailureOr<int64_t> index =
            self.getUniformInt(dim, dim.getIndex(), "the dimension index");
        if (failed(index))
          return failure();
        if (*index < 0 || *index >= int64_t(view->sizes.size()))
          return self.fail(dim, "dimension index " + Twine(*index) +
                                    " out of range for rank " +
                                    Twine(view->sizes.size()));
        self.setReg(dim.getResult(),
                    self.uniformInt(dim.getType(), view->sizes[*index]));
        return success();
      });
  table.add<memref::SubViewOp>([](Interpreter &self, memref::SubViewOp op) {
    return self.execSubView(op);
  });
  table.add<amdgpu::FatRawBufferCastOp>(
      [](Interpreter &self, amdgpu::FatRawBufferCastOp op) {
        return self.execFatRawBufferCast(op);
      });
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::resolveMixed(Operation *op,
                                        ArrayRef<OpFoldResult> mixed,
                                        SmallVectorImpl<int64_t> &out,
                                        StringRef what) {
  for (OpFoldResult ofr : mixed) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      out.push_back(cast<IntegerAttr>(attr).getInt());
      continue;
    }
    FailureOr<int64_t> value = getUniformInt(op, cast<Value>(ofr), what);
    if (failed(value))
      return failure();
    out.push_back(*value);
  }
  return success();
}

LogicalResult Interpreter::setView(Operation *op, Value result, MemView view) {
  auto type = dyn_cast<MemRefType>(result.getType());
  if (!type)
    return unsupportedType(op, result.getType());
  for (int64_t size : view.sizes)
    if (size < 0)
      return fail(op, "negative size in the result shape " +
                          formatList(view.sizes));
  std::optional<int64_t> offset;
  if (!view.threadOffset)
    offset = view.offset;
  std::string mismatch =
      checkViewAgainstType(type, offset, view.sizes, view.strides);
  if (!mismatch.empty())
    return fail(op, "run-time " + mismatch);
  setMem(result, std::move(view));
  return success();
}

LogicalResult Interpreter::execSubView(memref::SubViewOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  SmallVector<int64_t> sizes, strides;
  if (failed(resolveMixed(op, op.getMixedSizes(), sizes, "a subview size")) ||
      failed(
          resolveMixed(op, op.getMixedStrides(), strides, "a subview stride")))
    return failure();
  SmallVector<OpFoldResult> mixedOffsets = op.getMixedOffsets();
  size_t rank = source->sizes.size();
  if (mixedOffsets.size() != rank || sizes.size() != rank ||
      strides.size() != rank)
    return fail(op, "rank mismatch");
  // Offsets may differ per thread (e.g. a tile per thread).
  SmallVector<int64_t> staticOffsets(rank, 0);
  SmallVector<const Reg *> offsetRegs(rank, nullptr);
  bool uniform = true;
  for (auto [d, ofr] : llvm::enumerate(mixedOffsets)) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      staticOffsets[d] = cast<IntegerAttr>(attr).getInt();
      continue;
    }
    offsetRegs[d] = getReg(op, cast<Value>(ofr));
    if (!offsetRegs[d])
      return failure();
    uniform &= offsetRegs[d]->uniform;
  }
  MemView result = *source;
  result.sizes.clear();
  result.strides.clear();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  for (size_t d = 0; d < rank; ++d) {
    if (dropped.test(d))
      continue;
    result.sizes.push_back(sizes[d]);
    result.strides.push_back(source->strides[d] * strides[d]);
  }
  std::shared_ptr<std::vector<int64_t>> perThread;
  if (!uniform)
    perThread = std::make_shared<std::vector<int64_t>>(numThreads, 0);
  SmallVector<int64_t> offsets(rank);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    int64_t delta = 0;
    for (size_t d = 0; d < rank; ++d) {
      offsets[d] =
          offsetRegs[d] ? readIndex(*offsetRegs[d], t) : staticOffsets[d];
      if (offsets[d] < 0 || sizes[d] < 0 ||
          (sizes[d] > 0 &&
           offsets[d] + (sizes[d] - 1) * strides[d] >= source->sizes[d]) ||
          (sizes[d] == 0 && offsets[d] > source->sizes[d]))
        return failThread(
            op, t, uniform,
            "subview offsets " + formatList(offsets) + ", sizes " +
                formatList(sizes) + ", strides " + formatList(strides) +
                " exceed the source shape " + formatList(source->sizes));
      delta += offsets[d] * source->strides[d];
    }
    if (uniform)
      result.offset += delta;
    else
      (*perThread)[t] =
          delta + (source->threadOffset ? (*source->threadOffset)[t] : 0);
  }
  if (perThread)
    result.threadOffset = std::move(perThread);
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult Interpreter::execFatRawBufferCast(amdgpu::FatRawBufferCastOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  MemView view = *source;
  if (view.threadStride != 0 || !view.storage->lds.empty())
    return fail(op, "only global memory can be viewed as a fat raw buffer "
                    "(not " +
                        view.storage->name + ")");
  // With resetOffset the buffer's base moves to the view's offset (which
  // must be the same for every thread: it becomes the descriptor's base
  // address), and the result's offset is 0.
  if (op.getResetOffset()) {
    if (view.threadOffset)
      return fail(op, "resetOffset with a memref offset that differs between "
                      "threads is not supported");
    view.baseOffset += view.offset;
    view.offset = 0;
  }
  // Without bounds checking the result is a plain view (an access outside
  // the view's shape is an error, not a buffer-unchecked access).
  if (!op.getBoundsCheck())
    return setView(op, op.getResult(), view);
  int64_t numRecords = 0;
  if (Value validBytes = op.getValidBytes()) {
    FailureOr<int64_t> value = getUniformInt(op, validBytes, "validBytes");
    if (failed(value))
      return failure();
    numRecords = *value;
  } else {
    // As the lowering computes num_records: one element past the greatest
    // valid index, max_d(sizes[d] * strides[d]) elements.
    numRecords = view.sizes.empty() ? 1 : 0;
    for (auto [size, stride] : llvm::zip(view.sizes, view.strides))
      numRecords = std::max(numRecords, size * stride);
    numRecords *= view.elemBytes;
  }
  if (numRecords < 0 || numRecords > int64_t(UINT32_MAX))
    return fail(op, "buffer size " + Twine(numRecords) +
                        " bytes does not fit in num_records (32 bits)");
  view.isBuffer = true;
  view.bufferBase = view.baseOffset * view.elemBytes;
  view.numRecords = numRecords;
  return setView(op, op.getResult(), view);
}

LogicalResult Interpreter::execReinterpretCast(memref::ReinterpretCastOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  SmallVector<int64_t> sizes, strides;
  if (failed(resolveMixed(op, op.getMixedSizes(), sizes, "a size")) ||
      failed(resolveMixed(op, op.getMixedStrides(), strides, "a stride")))
    return failure();
  // The offset is relative to the source's base (its allocation), not to
  // the source view; it may differ per thread.
  MemView result = *source;
  result.threadOffset.reset();
  result.sizes.assign(sizes.begin(), sizes.end());
  result.strides.assign(strides.begin(), strides.end());
  OpFoldResult offset = op.getMixedOffsets()[0];
  if (auto attr = dyn_cast<Attribute>(offset)) {
    result.offset = cast<IntegerAttr>(attr).getInt();
  } else {
    const Reg *reg = getReg(op, cast<Value>(offset));
    if (!reg)
      return failure();
    if (reg->uniform) {
      result.offset = readIndex(*reg, 0);
    } else {
      auto perThread = std::make_shared<std::vector<int64_t>>(numThreads, 0);
      for (int64_t t = 0; t < numThreads; ++t)
        if (isActive(t))
          (*perThread)[t] = readIndex(*reg, t);
      result.offset = 0;
      result.threadOffset = std::move(perThread);
    }
  }
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult Interpreter::execExpandShape(memref::ExpandShapeOp op) {
  const MemView *source = getMem(op, op.getSrc());
  if (!source)
    return failure();
  SmallVector<int64_t> shape;
  if (failed(
          resolveMixed(op, op.getMixedOutputShape(), shape, "an output size")))
    return failure();
  MemView result = *source;
  result.sizes.assign(shape.begin(), shape.end());
  result.strides.assign(shape.size(), 0);
  for (auto [sourceDim, group] :
       llvm::enumerate(op.getReassociationIndices())) {
    if (sourceDim >= source->sizes.size())
      return fail(op, "rank mismatch");
    int64_t stride = source->strides[sourceDim];
    int64_t product = 1;
    for (int64_t d : llvm::reverse(group)) {
      result.strides[d] = stride;
      stride *= shape[d];
      product *= shape[d];
    }
    if (product != source->sizes[sourceDim])
      return fail(op, "output sizes " + formatList(shape) +
                          " do not multiply to the size " +
                          Twine(source->sizes[sourceDim]) +
                          " of source dimension " + Twine(sourceDim));
  }
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult Interpreter::execCollapseShape(memref::CollapseShapeOp op) {
  const MemView *source = getMem(op, op.getSrc());
  if (!source)
    return failure();
  MemView result = *source;
  result.sizes.clear();
  result.strides.clear();
  for (const ReassociationIndices &group : op.getReassociationIndices()) {
    int64_t size = 1;
    for (int64_t d : group)
      size *= source->sizes[d];
    // Walking inward to outward over the dimensions larger than one, each
    // stride must be the next inner one times its size.
    std::optional<int64_t> innerStride;
    int64_t expected = 0;
    for (int64_t d : llvm::reverse(group)) {
      if (source->sizes[d] == 1 || size == 0)
        continue;
      if (innerStride && source->strides[d] != expected)
        return fail(op, "cannot collapse the dimensions " + formatList(group) +
                            " of the view with sizes " +
                            formatList(source->sizes) + " and strides " +
                            formatList(source->strides) +
                            ": they are not contiguous");
      if (!innerStride)
        innerStride = source->strides[d];
      expected = source->strides[d] * source->sizes[d];
    }
    result.sizes.push_back(size);
    result.strides.push_back(innerStride     ? *innerStride
                             : group.empty() ? 1
                                             : source->strides[group.back()]);
  }
  return setView(op, op.getResult(), std::move(result));
}

LogicalResult
Interpreter::execExtractStridedMetadata(memref::ExtractStridedMetadataOp op) {
  const MemView *source = getMem(op, op.getSource());
  if (!source)
    return failure();
  MemView base = *source;
  base.offset = 0;
  base.threadOffset.reset();
  base.sizes.clear();
  base.strides.clear();
  setMem(op.getBaseBuffer(), std::move(base));
  Type indexType = IndexType::get(op.getContext());
  if (!source->threadOffset) {
    setReg(op.getOffset(), uniformInt(indexType, source->offset));
  } else {
    Reg offset(8, /*uniform=*/false, numThreads);
    for (int64_t t = 0; t < numThreads; ++t) {
      int64_t value = source->getOffset(t);
      std::memcpy(offset.at(t), &value, 8);
    }
    setReg(op.getOffset(), std::move(offset));
  }
  for (auto [value, size] : llvm::zip(op.getSizes(), source->sizes))
    setReg(value, uniformInt(indexType, size));
  for (auto [value, stride] : llvm::zip(op.getStrides(), source->strides))
    setReg(value, uniformInt(indexType, stride));
  return success();
}
