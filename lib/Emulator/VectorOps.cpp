//===- VectorOps.cpp - vector ops of the wave emulator --------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// vector ops on registers: extract/insert, broadcast, slices, shuffles,
// from_elements, bit and shape casts (same bits), and vector.load/store
// (through the checked access of MemoryOps.cpp). Vectors are packed densely
// little-endian (see WaveEmulator.h).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

void Interpreter::registerVectorHandlers(HandlerTable &table) {
  table.add<vector::LoadOp>([](Interpreter &self, vector::LoadOp load) {
    return self.execVectorLoadStore(load, load.getBase(), load.getIndices(),
                                    load.getVectorType(), false, Value());
  });
  table.add<vector::StoreOp>([](Interpreter &self, vector::StoreOp store) {
    return self.execVectorLoadStore(store, store.getBase(), store.getIndices(),
                                    store.getVectorType(), true,
                                    store.getValueToStore());
  });
  table.add<vector::BitCastOp, vector::ShapeCastOp>(
      [](Interpreter &self, Operation *op) { return self.execBitcast(op); });
  table.add<vector::ExtractOp>(
      [](Interpreter &self, vector::ExtractOp extract) {
        return self.execExtractInsert(extract, extract.getSource(),
                                      extract.getMixedPosition(), Value());
      });
  table.add<vector::InsertOp>([](Interpreter &self, vector::InsertOp insert) {
    return self.execExtractInsert(insert, insert.getDest(),
                                  insert.getMixedPosition(),
                                  insert.getValueToStore());
  });
  table.add<vector::BroadcastOp>([](Interpreter &self, vector::BroadcastOp op) {
    return self.execBroadcast(op);
  });
  table.add<vector::ShuffleOp>([](Interpreter &self, vector::ShuffleOp op) {
    return self.execShuffle(op);
  });
  table.add<vector::ExtractStridedSliceOp>(
      [](Interpreter &self, vector::ExtractStridedSliceOp op) {
        return self.execStridedSlice(op);
      });
  table.add<vector::FromElementsOp>(
      [](Interpreter &self,
         vector::FromElementsOp fromElements) -> LogicalResult {
        std::optional<TypeInfo> info = getTypeInfo(fromElements.getType());
        if (!info)
          return self.unsupportedType(fromElements, fromElements.getType());
        SmallVector<const Reg *> in;
        bool uniform = true;
        for (Value element : fromElements.getElements()) {
          const Reg *reg = self.getReg(fromElements, element);
          if (!reg)
            return failure();
          in.push_back(reg);
          uniform &= reg->uniform;
        }
        Reg out(info->bytes, uniform, self.numThreads);
        for (int64_t t = 0, e = uniform ? 1 : self.numThreads; t < e; ++t)
          for (auto [i, reg] : llvm::enumerate(in))
            copyBits(out.at(t), i * info->elemBits, reg->at(t), 0,
                     info->elemBits);
        self.setReg(fromElements.getResult(), std::move(out));
        return success();
      });
}

//===----------------------------------------------------------------------===//
// Vectors
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execExtractInsert(Operation *op, Value vector,
                                             ArrayRef<OpFoldResult> position,
                                             Value inserted) {
  std::optional<TypeInfo> info = getTypeInfo(vector.getType());
  if (!info)
    return unsupportedType(op, vector.getType());
  const Reg *source = getReg(op, vector);
  if (!source)
    return failure();
  const Reg *insertedReg = inserted ? getReg(op, inserted) : nullptr;
  if (inserted && !insertedReg)
    return failure();
  // Elements per position step of each dimension (row-major).
  SmallVector<int64_t> strides(info->shape.size(), 1);
  for (int64_t d = int64_t(info->shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * info->shape[d + 1];
  int64_t span =
      position.empty() ? info->numElements : strides[position.size() - 1];
  SmallVector<const Reg *> dynamic(position.size(), nullptr);
  SmallVector<int64_t> fixed(position.size(), 0);
  bool uniform = source->uniform && (!insertedReg || insertedReg->uniform);
  for (auto [i, ofr] : llvm::enumerate(position)) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      fixed[i] = cast<IntegerAttr>(attr).getInt();
      continue;
    }
    dynamic[i] = getReg(op, cast<Value>(ofr));
    if (!dynamic[i])
      return failure();
    uniform &= dynamic[i]->uniform;
  }
  Type resultType = op->getResult(0).getType();
  std::optional<TypeInfo> resultInfo = getTypeInfo(resultType);
  if (!resultInfo)
    return unsupportedType(op, resultType);
  Reg out(resultInfo->bytes, uniform, numThreads);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    int64_t linear = 0;
    for (size_t i = 0; i < position.size(); ++i) {
      int64_t p = dynamic[i] ? readIndex(*dynamic[i], t) : fixed[i];
      if (p < 0 || p >= info->shape[i])
        return failThread(op, t, uniform,
                          "position " + Twine(p) + " out of range [0, " +
                              Twine(info->shape[i]) + ") (poison)");
      linear += p * strides[i];
    }
    uint64_t bit = uint64_t(linear) * info->elemBits;
    uint64_t numBits = uint64_t(span) * info->elemBits;
    if (!inserted) {
      copyBits(out.at(t), 0, source->at(t), bit, numBits);
    } else {
      std::memcpy(out.at(t), source->at(t), info->bytes);
      copyBits(out.at(t), bit, insertedReg->at(t), 0, numBits);
    }
  }
  setReg(op->getResult(0), std::move(out));
  return success();
}

LogicalResult Interpreter::execBroadcast(vector::BroadcastOp op) {
  std::optional<TypeInfo> out = getTypeInfo(op.getType());
  std::optional<TypeInfo> in = getTypeInfo(op.getSource().getType());
  if (!out)
    return unsupportedType(op, op.getType());
  if (!in)
    return unsupportedType(op, op.getSource().getType());
  const Reg *source = getReg(op, op.getSource());
  if (!source)
    return failure();
  // Source dimensions align with the trailing result dimensions; a source
  // dimension of size one is stretched.
  int64_t rank = int64_t(out->shape.size());
  int64_t offset = rank - int64_t(in->shape.size());
  Reg result(out->bytes, source->uniform, numThreads);
  SmallVector<int64_t> index(rank);
  for (int64_t i = 0; i < out->numElements; ++i) {
    int64_t rest = i;
    for (int64_t d = rank - 1; d >= 0; --d) {
      index[d] = rest % out->shape[d];
      rest /= out->shape[d];
    }
    int64_t sourceLinear = 0;
    for (int64_t d = 0; d < int64_t(in->shape.size()); ++d) {
      int64_t size = in->shape[d];
      sourceLinear = sourceLinear * size + (size == 1 ? 0 : index[d + offset]);
    }
    for (int64_t t = 0, e = source->uniform ? 1 : numThreads; t < e; ++t)
      copyBits(result.at(t), uint64_t(i) * out->elemBits, source->at(t),
               uint64_t(sourceLinear) * in->elemBits, out->elemBits);
  }
  setReg(op.getResult(), std::move(result));
  return success();
}

LogicalResult Interpreter::execStridedSlice(vector::ExtractStridedSliceOp op) {
  std::optional<TypeInfo> in = getTypeInfo(op.getSource().getType());
  std::optional<TypeInfo> out = getTypeInfo(op.getType());
  if (!in || !out || in->shape.size() != 1)
    return fail(op, "only 1-D vector slices are supported");
  const Reg *source = getReg(op, op.getSource());
  if (!source)
    return failure();
  int64_t offset = cast<IntegerAttr>(op.getOffsets()[0]).getInt();
  int64_t stride = cast<IntegerAttr>(op.getStrides()[0]).getInt();
  Reg result(out->bytes, source->uniform, numThreads);
  for (int64_t t = 0, e = source->uniform ? 1 : numThreads; t < e; ++t)
    for (int64_t i = 0; i < out->numElements; ++i)
      copyBits(result.at(t), uint64_t(i) * out->elemBits, source->at(t),
               uint64_t(offset + i * stride) * in->elemBits, in->elemBits);
  setReg(op.getResult(), std::move(result));
  return success();
}

LogicalResult Interpreter::execShuffle(vector::ShuffleOp op) {
  std::optional<TypeInfo> v1 = getTypeInfo(op.getV1().getType());
  std::optional<TypeInfo> v2 = getTypeInfo(op.getV2().getType());
  std::optional<TypeInfo> out = getTypeInfo(op.getType());
  if (!v1 || !v2 || !out)
    return unsupportedType(op, op.getType());
  const Reg *a = getReg(op, op.getV1());
  const Reg *b = getReg(op, op.getV2());
  if (!a || !b)
    return failure();
  // The mask picks slices along the leading dimension (elements of 0-D and
  // 1-D vectors) of the concatenation of v1 and v2.
  auto leading = [](const TypeInfo &info) {
    return info.shape.empty() ? int64_t(1) : info.shape.front();
  };
  int64_t n1 = leading(*v1), n2 = leading(*v2);
  uint64_t sliceBits = uint64_t(v1->numElements / n1) * v1->elemBits;
  bool uniform = a->uniform && b->uniform;
  Reg result(out->bytes, uniform, numThreads);
  for (auto [i, index] : llvm::enumerate(op.getMask())) {
    if (index == vector::ShuffleOp::kPoisonIndex)
      continue; // Poison: zeros.
    if (index < 0 || index >= n1 + n2)
      return fail(op, "mask index " + Twine(index) + " out of range");
    const Reg *from = index < n1 ? a : b;
    int64_t slice = index < n1 ? index : index - n1;
    for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t)
      copyBits(result.at(t), uint64_t(i) * sliceBits, from->at(t),
               uint64_t(slice) * sliceBits, sliceBits);
  }
  setReg(op.getResult(), std::move(result));
  return success();
}
