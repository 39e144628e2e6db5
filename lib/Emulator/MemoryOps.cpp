//===- MemoryOps.cpp - memory and its access in the wave emulator ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// memref ops: private and workgroup memory of a workgroup, host allocations,
// globals and copies; and the checked element access that every load and
// store goes through (bounds, storage, initialization, workgroup-memory
// races, buffer semantics); memref.atomic_rmw on global memory. Views of
// memory are in MemoryViews.cpp.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

#include <mutex>
#include <tuple>

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

void Interpreter::registerMemoryHandlers(HandlerTable &table) {
  table.add<memref::AllocaOp>([](Interpreter &self,
                                 memref::AllocaOp alloca) -> LogicalResult {
    if (self.isHost())
      return self.execAlloc(alloca, alloca.getType(), alloca.getDynamicSizes());
    FailureOr<MemView> view = self.createLocal(alloca, alloca.getType(),
                                               alloca.getDynamicSizes(), true);
    if (failed(view))
      return failure();
    self.setMem(alloca.getResult(), *view);
    return success();
  });
  table.add<memref::AllocOp>([](Interpreter &self, memref::AllocOp alloc) {
    return self.execAlloc(alloc, alloc.getType(), alloc.getDynamicSizes());
  });
  table.add<memref::DeallocOp>([](Interpreter &self, memref::DeallocOp op) {
    return self.execDealloc(op);
  });
  table.add<memref::CopyOp>(
      [](Interpreter &self, memref::CopyOp op) { return self.execCopy(op); });
  table.add<memref::GetGlobalOp>([](Interpreter &self, memref::GetGlobalOp op) {
    return self.execGetGlobal(op);
  });
  table.add<memref::LoadOp>(
      [](Interpreter &self, memref::LoadOp load) -> LogicalResult {
        std::optional<TypeInfo> info = getTypeInfo(load.getType());
        if (!info)
          return self.unsupportedType(load, load.getType());
        Reg loaded;
        if (failed(self.access(load, load.getMemRef(), load.getIndices(), 1,
                               /*isWrite=*/false, &loaded, nullptr)))
          return failure();
        self.setReg(load.getResult(), std::move(loaded));
        return success();
      });
  table.add<memref::StoreOp>(
      [](Interpreter &self, memref::StoreOp store) -> LogicalResult {
        const Reg *value = self.getReg(store, store.getValueToStore());
        if (!value)
          return failure();
        return self.access(store, store.getMemRef(), store.getIndices(), 1,
                           /*isWrite=*/true, nullptr, value);
      });
  table.add<memref::AtomicRMWOp>([](Interpreter &self, memref::AtomicRMWOp op) {
    return self.execAtomicRMW(op);
  });
  registerViewHandlers(table);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

FailureOr<int64_t> Interpreter::getAllocSize(Operation *op, int64_t size,
                                             ValueRange dynamicSizes,
                                             unsigned &next) {
  if (ShapedType::isDynamic(size)) {
    if (next >= dynamicSizes.size())
      return fail(op, "missing dynamic size");
    FailureOr<int64_t> value =
        getUniformInt(op, dynamicSizes[next++], "a dynamic size");
    if (failed(value))
      return failure();
    size = *value;
  }
  if (size < 0)
    return fail(op, "negative size " + Twine(size));
  return size;
}

FailureOr<MemView> Interpreter::createLocal(Operation *op, MemRefType type,
                                            ValueRange dynamicSizes,
                                            bool perThread) {
  if (!type.getLayout().isIdentity())
    return fail(op, "only identity-layout memrefs can be allocated");
  int64_t elemBytes = getMemElemBytes(type.getElementType());
  if (!elemBytes)
    return unsupportedType(op, type);
  MemView view;
  view.elemBytes = elemBytes;
  unsigned next = 0;
  int64_t numElements = 1;
  for (int64_t staticSize : type.getShape()) {
    FailureOr<int64_t> resolved =
        getAllocSize(op, staticSize, dynamicSizes, next);
    if (failed(resolved))
      return failure();
    int64_t size = *resolved;
    if (size > 0 && numElements > kMaxLocalBytes / size)
      return fail(op, "allocation too large");
    numElements *= size;
    view.sizes.push_back(size);
  }
  view.strides.resize(view.sizes.size());
  int64_t stride = 1;
  for (int64_t d = int64_t(view.sizes.size()) - 1; d >= 0; --d) {
    view.strides[d] = stride;
    stride *= view.sizes[d];
  }
  int64_t bytes = numElements * elemBytes;
  int64_t copies = perThread ? numThreads : 1;
  if (bytes > (kMaxLocalBytes - localBytes) / copies)
    return fail(op, "private/workgroup memory exceeds " +
                        Twine(kMaxLocalBytes) + " bytes");
  localBytes += bytes * copies;
  auto storage = std::make_unique<Storage>();
  storage->owned.assign(size_t(bytes * copies), 0);
  storage->ownedInitialized.assign(size_t(bytes * copies), 0);
  storage->data = storage->owned.data();
  storage->initialized = storage->ownedInitialized.data();
  storage->size = bytes * copies;
  {
    llvm::raw_string_ostream os(storage->name);
    os << "'" << op->getName() << "' at " << op->getLoc();
  }
  // Workgroup memory is shared by the workgroup's waves: check for races.
  if (!perThread)
    storage->lds.assign(size_t(bytes), LDSByte());
  view.storage = storage.get();
  view.threadStride = perThread ? bytes : 0;
  localStorages.push_back(std::move(storage));
  return view;
}

/// Whether bytes [begin, begin + numBytes) of \p storage were all written.
/// Eight flags at a time: an access is a few bytes per thread, too few for
/// a call to memchr to pay.
[[gnu::always_inline]] static inline bool
isInitialized(const Storage &storage, int64_t begin, int64_t numBytes) {
  if (!storage.initialized)
    return true;
  const uint8_t *flags = storage.initialized + begin;
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  int64_t b = 0;
  for (; b + 8 <= numBytes; b += 8) {
    uint64_t word;
    std::memcpy(&word, flags + b, 8);
    if ((word - kOnes) & ~word & (kOnes << 7)) // Some byte is zero.
      return false;
  }
  for (; b < numBytes; ++b)
    if (!flags[b])
      return false;
  return true;
}

/// Copies \p numBytes bytes, eight at a time: an access copies a few bytes
/// per thread, too few for a call to memcpy to pay.
[[gnu::always_inline]] static inline void
copyBytes(uint8_t *to, const uint8_t *from, int64_t numBytes) {
  int64_t b = 0;
  for (; b + 8 <= numBytes; b += 8)
    std::memcpy(to + b, from + b, 8);
  for (; b < numBytes; ++b)
    to[b] = from[b];
}

/// Marks bytes [begin, begin + numBytes) of \p storage written (when it
/// tracks initialization), as copyBytes copies them.
[[gnu::always_inline]] static inline void
markInitialized(Storage &storage, int64_t begin, int64_t numBytes) {
  static const uint8_t kWritten[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  if (!storage.initialized)
    return;
  uint8_t *flags = storage.initialized + begin;
  int64_t b = 0;
  for (; b + 8 <= numBytes; b += 8)
    std::memcpy(flags + b, kWritten, 8);
  for (; b < numBytes; ++b)
    flags[b] = 1;
}

bool Interpreter::accessPrivateAtUniformIndices(const MemView &view,
                                                int64_t begin, int64_t numBytes,
                                                bool isWrite, Reg *loaded,
                                                const Reg *stored) {
  // Private memory at the same indices in every thread (the unrolled
  // ukernels' arrays indexed by constants): the bounds once, then a copy
  // per thread. What this does not take (an access past the thread's
  // storage, a read of unwritten bytes) the caller's general loop reports;
  // a read has written nothing by then.
  Storage &storage = *view.storage;
  if (begin < 0 || begin + numBytes > view.threadStride)
    return false;
  for (int64_t t = 0; t < numThreads; ++t) {
    if (!isActive(t))
      continue;
    int64_t at = view.threadStride * t + begin;
    if (isWrite) {
      copyBytes(storage.data + at, stored->at(t), numBytes);
      markInitialized(storage, at, numBytes);
    } else if (isInitialized(storage, at, numBytes)) {
      copyBytes(loaded->at(t), storage.data + at, numBytes);
    } else {
      return false;
    }
  }
  return true;
}

LogicalResult Interpreter::accessBuffer(Operation *op, const MemView &view,
                                        int64_t t, bool uniform, int64_t linear,
                                        int64_t count, bool isWrite,
                                        Reg *loaded, const Reg *stored,
                                        function_ref<std::string()> describe) {
  // Buffer semantics: the shape is not checked, each element is
  // range-checked against the buffer (offsets are unsigned on the
  // hardware: below the base is out of range). In-range elements must
  // still lie in the storage.
  Storage &storage = *view.storage;
  int64_t numBytes = count * view.elemBytes;
  int64_t first = linear * view.elemBytes;
  int64_t firstRelative = first - view.bufferBase;
  if (firstRelative >= 0 && firstRelative + numBytes <= view.numRecords &&
      first >= 0 && first + numBytes <= storage.size &&
      (isWrite || isInitialized(storage, first, numBytes))) {
    // Every element in range (the usual case): one copy.
    if (isWrite) {
      copyBytes(storage.data + first, stored->at(t), numBytes);
      markInitialized(storage, first, numBytes);
    } else {
      copyBytes(loaded->at(t), storage.data + first, numBytes);
    }
    return success();
  }
  for (int64_t k = 0; k < count; ++k) {
    int64_t begin = (linear + k) * view.elemBytes;
    int64_t relative = begin - view.bufferBase;
    if (relative < 0 || relative + view.elemBytes > view.numRecords)
      continue; // Loads read 0 (the register starts zeroed); stores drop.
    if (begin < 0 || begin + view.elemBytes > storage.size)
      return failThread(
          op, t, uniform,
          (isWrite ? "write at " : "read at ") + describe() +
              " through a fat raw buffer touches bytes [" + Twine(begin) +
              ", " + Twine(begin + view.elemBytes) +
              ") outside its storage of " + Twine(storage.size) + " bytes");
    uint8_t *data = storage.data + begin;
    if (isWrite) {
      std::memcpy(data, stored->at(t) + k * view.elemBytes,
                  size_t(view.elemBytes));
      if (storage.initialized)
        std::memset(storage.initialized + begin, 1, size_t(view.elemBytes));
      continue;
    }
    if (!isInitialized(storage, begin, view.elemBytes))
      return failThread(op, t, uniform,
                        "read at " + describe() +
                            " reads memory that was never written");
    std::memcpy(loaded->at(t) + k * view.elemBytes, data,
                size_t(view.elemBytes));
  }
  return success();
}

std::string Interpreter::checkLDSAccessOfThreads(Storage &storage, int64_t t,
                                                 bool uniform, int64_t begin,
                                                 int64_t numBytes,
                                                 bool isWrite) {
  // Workgroup memory: races between the waves. A uniform access stands for
  // every active wave's.
  if (!uniform)
    return checkLDSAccess(storage, t / kWaveSize, begin, numBytes, isWrite,
                          /*async=*/false);
  for (int64_t w = 0; w < getNumWaves(); ++w)
    if (isWaveActive(w)) {
      std::string race = checkLDSAccess(storage, w, begin, numBytes, isWrite,
                                        /*async=*/false);
      if (!race.empty())
        return race;
    }
  return "";
}

LogicalResult Interpreter::accessStorage(Operation *op, const MemView &view,
                                         int64_t t, bool uniform, bool inBounds,
                                         int64_t linear, int64_t numBytes,
                                         bool isWrite, Reg *loaded,
                                         const Reg *stored,
                                         function_ref<std::string()> describe) {
  Storage &storage = *view.storage;
  if (!inBounds)
    return failThread(op, t, uniform,
                      (isWrite ? "write at " : "read at ") + describe() +
                          " is out of bounds");
  int64_t base = view.threadStride * t;
  int64_t limit = view.threadStride ? base + view.threadStride : storage.size;
  int64_t begin = base + linear * view.elemBytes;
  if (begin < base || begin + numBytes > limit)
    return failThread(
        op, t, uniform,
        (isWrite ? "write at " : "read at ") + describe() + " touches bytes [" +
            Twine(begin - base) + ", " + Twine(begin - base + numBytes) +
            ") outside its storage of " + Twine(limit - base) + " bytes");
  if (!storage.lds.empty()) {
    std::string race =
        checkLDSAccessOfThreads(storage, t, uniform, begin, numBytes, isWrite);
    if (!race.empty())
      return failThread(op, t, uniform,
                        (isWrite ? "write at " : "read at ") + describe() +
                            ": " + race);
  }
  if (isWrite) {
    copyBytes(storage.data + begin, stored->at(t), numBytes);
    markInitialized(storage, begin, numBytes);
  } else {
    if (!isInitialized(storage, begin, numBytes))
      return failThread(op, t, uniform,
                        "read at " + describe() +
                            " reads memory that was never written");
    copyBytes(loaded->at(t), storage.data + begin, numBytes);
  }
  return success();
}

LogicalResult Interpreter::access(Operation *op, Value memref,
                                  ValueRange indices, int64_t count,
                                  bool isWrite, Reg *loaded,
                                  const Reg *stored) {
  const MemView *viewPtr = getMem(op, memref);
  if (!viewPtr)
    return failure();
  const MemView &view = *viewPtr;
  int64_t rank = int64_t(view.sizes.size());
  if (int64_t(indices.size()) != rank)
    return fail(op, "expected " + Twine(rank) + " indices");
  if (count > 1 && rank > 0 && view.strides.back() != 1)
    return fail(op, "vector access along a non-contiguous innermost "
                    "dimension is not supported");
  if (count > 1 && rank == 0)
    return fail(op, "vector access to a rank-0 memref");
  SmallVector<const Reg *, 6> indexRegs;
  if (failed(getRegs(op, indices, indexRegs)))
    return failure();
  bool uniform =
      view.threadStride == 0 && !view.threadOffset &&
      llvm::all_of(indexRegs, [](const Reg *reg) { return reg->uniform; });
  if (stored)
    uniform &= stored->uniform;
  int64_t numBytes = count * view.elemBytes;
  if (loaded)
    *loaded = Reg(uint32_t(numBytes), uniform, numThreads);
  Storage &storage = *view.storage;
  if (storage.freed)
    return fail(op, Twine(isWrite ? "write to " : "read of ") + storage.name +
                        " after its memref.dealloc");
  if (isWrite && storage.readOnly)
    return fail(op, "write to the constant " + storage.name);
  SmallVector<int64_t, 6> idx(rank);
  // The indices' part of the element offset, and whether they are in
  // bounds, for thread t (once for all threads when the indices are
  // uniform, e.g. private memory indexed by constants).
  bool uniformIndices =
      llvm::all_of(indexRegs, [](const Reg *reg) { return reg->uniform; });
  int64_t indexOffset = 0;
  bool inBounds = true;
  auto readIndices = [&](int64_t t) {
    indexOffset = 0;
    inBounds = true;
    for (int64_t d = 0; d < rank; ++d) {
      idx[d] = readIndex(*indexRegs[d], t);
      int64_t extent = d == rank - 1 ? count : 1;
      if (idx[d] < 0 || idx[d] > view.sizes[d] - extent)
        inBounds = false;
      indexOffset += idx[d] * view.strides[d];
    }
  };
  if (uniformIndices)
    readIndices(0);
  if (uniformIndices && inBounds && !view.isBuffer && storage.lds.empty() &&
      view.threadStride != 0 && !view.threadOffset &&
      accessPrivateAtUniformIndices(
          view, (view.getOffset(0) + indexOffset) * view.elemBytes, numBytes,
          isWrite, loaded, stored))
    return success();
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (!uniform && !isActive(t))
      continue;
    if (!uniformIndices)
      readIndices(t);
    int64_t linear = view.getOffset(t) + indexOffset;
    auto describe = [&]() {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "index " << formatList(idx);
      if (count > 1)
        os << " (+" << count << " elements)";
      os << " of " << memref.getType() << " with shape "
         << formatList(view.sizes) << " (" << storage.name << ")";
      return text;
    };
    if (view.isBuffer) {
      if (failed(accessBuffer(op, view, t, uniform, linear, count, isWrite,
                              loaded, stored, describe)))
        return failure();
      continue;
    }
    if (failed(accessStorage(op, view, t, uniform, inBounds, linear, numBytes,
                             isWrite, loaded, stored, describe)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::execVectorLoadStore(Operation *op, Value memref,
                                               ValueRange indices,
                                               VectorType vectorType,
                                               bool isWrite, Value stored) {
  auto memrefType = cast<MemRefType>(memref.getType());
  Type elemType = memrefType.getElementType();
  int64_t count = 1;
  if (isa<VectorType>(elemType)) {
    if (elemType != vectorType)
      return fail(op, "vector type differs from the memref's vector element "
                      "type");
  } else {
    if (vectorType.getRank() != 1 || vectorType.isScalable())
      return fail(op, "only 1-D vector accesses are supported");
    if (vectorType.getElementType() != elemType)
      return fail(op, "vector and memref element types differ");
    count = vectorType.getNumElements();
  }
  if (isWrite) {
    const Reg *value = getReg(op, stored);
    if (!value)
      return failure();
    return access(op, memref, indices, count, true, nullptr, value);
  }
  Reg loaded;
  if (failed(access(op, memref, indices, count, false, &loaded, nullptr)))
    return failure();
  setReg(op->getResult(0), std::move(loaded));
  return success();
}

//===--- Atomics --------------------------------------------------------===//

/// The value an integer memref.atomic_rmw of \p kind leaves in memory, from
/// the \p bits-bit (32 or 64) \p old value in memory and the operand
/// \p value (both zero-extended); nullopt for the kinds not modelled.
static std::optional<uint64_t> combineAtomic(arith::AtomicRMWKind kind,
                                             uint64_t old, uint64_t value,
                                             unsigned bits) {
  int64_t a = signExtend(old, bits), b = signExtend(value, bits);
  switch (kind) {
  case arith::AtomicRMWKind::addi:
    return (old + value) & maskBits(bits);
  case arith::AtomicRMWKind::andi:
    return old & value;
  case arith::AtomicRMWKind::ori:
    return old | value;
  case arith::AtomicRMWKind::xori:
    return old ^ value;
  case arith::AtomicRMWKind::assign:
    return value;
  case arith::AtomicRMWKind::maxs:
    return a < b ? value : old;
  case arith::AtomicRMWKind::mins:
    return b < a ? value : old;
  case arith::AtomicRMWKind::maxu:
    return std::max(old, value);
  case arith::AtomicRMWKind::minu:
    return std::min(old, value);
  default:
    return std::nullopt;
  }
}

/// The lock every memref.atomic_rmw of the process holds while it runs:
/// workgroups run on several host threads, and their read-modify-writes of
/// the same memory must not interleave. Releasing it after one RMW and
/// taking it for the next also orders each thread's plain stores before its
/// RMW before the plain loads after a later RMW of another thread
/// (acquire-release, as the hardware's system-scope atomic with its cache
/// writeback and invalidate).
static std::mutex &getAtomicsMutex() {
  static std::mutex mutex;
  return mutex;
}

LogicalResult Interpreter::checkAtomicMemory(memref::AtomicRMWOp op,
                                             const MemView &view) {
  Storage &storage = *view.storage;
  if (view.isBuffer)
    return fail(op, "memref.atomic_rmw through a fat raw buffer is not "
                    "supported (only global memory)");
  if (view.threadStride != 0)
    return fail(op, "memref.atomic_rmw on private memory is not supported "
                    "(only global memory)");
  if (!storage.lds.empty())
    return fail(op, "memref.atomic_rmw on workgroup memory is not supported "
                    "(only global memory)");
  if (storage.freed)
    return fail(op, "read of " + storage.name + " after its memref.dealloc");
  if (storage.readOnly)
    return fail(op, "write to the constant " + storage.name);
  return success();
}

LogicalResult Interpreter::execAtomicRMW(memref::AtomicRMWOp op) {
  arith::AtomicRMWKind kind = op.getKind();
  Type type = op.getType();
  unsigned bits = type.isInteger(32) ? 32 : type.isInteger(64) ? 64 : 0;
  if (!bits || !combineAtomic(kind, 0, 0, bits)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "memref.atomic_rmw " << arith::stringifyAtomicRMWKind(kind) << " on "
       << type
       << " is not supported (the emulator runs addi, andi, ori, xori, maxs, "
          "maxu, mins, minu and assign on i32 and i64)";
    return fail(op, text);
  }
  const MemView *viewPtr = getMem(op, op.getMemref());
  const Reg *value = getReg(op, op.getValue());
  if (!viewPtr || !value)
    return failure();
  const MemView &view = *viewPtr;
  if (failed(checkAtomicMemory(op, view)))
    return failure();
  int64_t rank = int64_t(view.sizes.size());
  SmallVector<const Reg *, 6> indexRegs;
  if (failed(getRegs(op, op.getIndices(), indexRegs)))
    return failure();
  if (int64_t(indexRegs.size()) != rank)
    return fail(op, "expected " + Twine(rank) + " indices");
  Storage &storage = *view.storage;
  int64_t numBytes = bits / 8;
  Reg result(uint32_t(numBytes), /*uniform=*/false, numThreads);
  // One active thread after the other, in thread (lane) order.
  std::lock_guard<std::mutex> lock(getAtomicsMutex());
  SmallVector<int64_t, 6> idx(rank);
  for (int64_t t = 0; t < numThreads; ++t) {
    if (!isActive(t))
      continue;
    bool inBounds = true;
    int64_t linear = view.getOffset(t);
    for (int64_t d = 0; d < rank; ++d) {
      idx[d] = readIndex(*indexRegs[d], t);
      inBounds &= idx[d] >= 0 && idx[d] < view.sizes[d];
      linear += idx[d] * view.strides[d];
    }
    int64_t begin = linear * view.elemBytes;
    auto where = [&] {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "memref.atomic_rmw at index " << formatList(idx) << " of "
         << op.getMemref().getType() << " with shape " << formatList(view.sizes)
         << " (" << storage.name << ")";
      return text;
    };
    if (!inBounds)
      return failThread(op, t, false, where() + " is out of bounds");
    if (begin < 0 || begin + numBytes > storage.size)
      return failThread(op, t, false,
                        where() + " touches bytes [" + Twine(begin) + ", " +
                            Twine(begin + numBytes) +
                            ") outside its storage of " + Twine(storage.size) +
                            " bytes");
    // The atomic reads its bytes before it writes them.
    if (!isInitialized(storage, begin, numBytes))
      return failThread(op, t, false,
                        where() + " reads memory that was never written");
    uint64_t old = readBits(storage.data + begin, 0, bits);
    uint64_t operand = readBits(value->at(t), 0, bits);
    writeBits(storage.data + begin, 0, bits,
              *combineAtomic(kind, old, operand, bits));
    markInitialized(storage, begin, numBytes);
    writeBits(result.at(t), 0, bits, old);
  }
  setReg(op.getResult(), std::move(result));
  return success();
}

//===--- Host memory ----------------------------------------------------===//

Storage *Interpreter::getHostStorage(std::shared_ptr<HostBuffer> buffer,
                                     const Twine &name) {
  auto it = hostStorages.find(buffer.get());
  if (it != hostStorages.end())
    return it->second;
  auto storage = std::make_unique<Storage>();
  storage->data = buffer->bytes.data();
  storage->size = int64_t(buffer->bytes.size());
  storage->name = name.str();
  if (buffer->initialized.size() == buffer->bytes.size() &&
      !buffer->initialized.empty())
    storage->initialized = buffer->initialized.data();
  storage->readOnly = buffer->readOnly;
  storage->host = std::move(buffer);
  Storage *result = storage.get();
  hostStorages[result->host.get()] = result;
  longLivedStorages.push_back(std::move(storage));
  return result;
}

LogicalResult Interpreter::execGetGlobal(memref::GetGlobalOp op) {
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      op, op.getNameAttr());
  if (!global)
    return fail(op, "no memref.global @" + op.getName());
  MemRefType type = global.getType();
  Type elemType = type.getElementType();
  int64_t elemBytes = getMemElemBytes(elemType);
  if (!elemBytes || !(isa<FloatType>(elemType) || elemType.isIntOrIndex()))
    return unsupportedType(op, type);
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return fail(op, "the global @" + op.getName() +
                        " needs a static shape and an identity layout");
  Storage *storage = globalStorages.lookup(global);
  if (!storage) {
    int64_t numElements = type.getNumElements();
    if (numElements > kMaxHostBytes / elemBytes)
      return fail(op, "the global @" + op.getName() + " is too large");
    int64_t bytes = numElements * elemBytes;
    auto buffer = std::make_shared<HostBuffer>(size_t(bytes));
    if (global.isExternal())
      return fail(op, "the global @" + op.getName() +
                          " is external (no initial value)");
    if (global.isUninitialized()) {
      buffer->initialized.assign(size_t(bytes), 0);
    } else {
      auto dense = dyn_cast<DenseElementsAttr>(*global.getInitialValue());
      if (!dense || dense.getElementType() != elemType)
        return fail(op, "the initial value of @" + op.getName() +
                            " is not a dense elements attribute of its "
                            "element type");
      unsigned bits = elemBytes * 8;
      int64_t i = 0;
      if (isa<FloatType>(elemType)) {
        for (const llvm::APFloat &value : dense.getValues<llvm::APFloat>())
          writeBits(buffer->bytes.data(), uint64_t(i++) * bits, bits,
                    value.bitcastToAPInt().getZExtValue());
      } else {
        for (const llvm::APInt &value : dense.getValues<llvm::APInt>())
          writeBits(buffer->bytes.data(), uint64_t(i++) * bits, bits,
                    value.getZExtValue() & maskBits(bits));
      }
      if (i != numElements)
        return fail(op, "the initial value of @" + op.getName() + " has " +
                            Twine(i) + " elements, expected " +
                            Twine(numElements));
    }
    buffer->readOnly = global.getConstant();
    storage =
        getHostStorage(std::move(buffer), "memref.global @" + op.getName());
    globalStorages[global] = storage;
  }
  MemView view;
  view.storage = storage;
  view.elemBytes = elemBytes;
  StridedLayout layout = StridedLayout::rowMajor(type.getShape());
  view.sizes.assign(layout.sizes.begin(), layout.sizes.end());
  view.strides.assign(layout.strides.begin(), layout.strides.end());
  return setView(op, op.getResult(), std::move(view));
}

LogicalResult Interpreter::execAlloc(Operation *op, MemRefType type,
                                     ValueRange dynamicSizes) {
  if (!type.getLayout().isIdentity())
    return fail(op, "only identity-layout memrefs can be allocated");
  int64_t elemBytes = getMemElemBytes(type.getElementType());
  if (!elemBytes)
    return unsupportedType(op, type);
  SmallVector<int64_t> sizes;
  unsigned next = 0;
  int64_t bytes = elemBytes;
  for (int64_t staticSize : type.getShape()) {
    FailureOr<int64_t> resolved =
        getAllocSize(op, staticSize, dynamicSizes, next);
    if (failed(resolved))
      return failure();
    int64_t size = *resolved;
    if (llvm::MulOverflow(bytes, size, bytes) || bytes > kMaxHostBytes)
      return fail(op, "allocation too large");
    sizes.push_back(size);
  }
  if (bytes > kMaxHostBytes - hostBytes)
    return fail(op,
                "host allocations exceed " + Twine(kMaxHostBytes) + " bytes");
  hostBytes += bytes;
  auto buffer =
      std::make_shared<HostBuffer>(HostBuffer::uninitialized(size_t(bytes)));
  std::string name;
  {
    llvm::raw_string_ostream os(name);
    os << "'" << op->getName() << "' at " << op->getLoc();
  }
  Storage *storage = getHostStorage(std::move(buffer), name);
  storage->isHeap = isa<memref::AllocOp>(op);
  MemView view;
  view.storage = storage;
  view.elemBytes = elemBytes;
  StridedLayout layout = StridedLayout::rowMajor(sizes);
  view.sizes.assign(layout.sizes.begin(), layout.sizes.end());
  view.strides.assign(layout.strides.begin(), layout.strides.end());
  return setView(op, op->getResult(0), std::move(view));
}

LogicalResult Interpreter::execDealloc(memref::DeallocOp op) {
  const MemView *view = getMem(op, op.getMemref());
  if (!view)
    return failure();
  Storage &storage = *view->storage;
  if (!storage.isHeap)
    return fail(op, "deallocates " + storage.name +
                        ", which is not a memref.alloc");
  if (storage.freed)
    return fail(op, "deallocates " + storage.name + " twice");
  if (view->offset != 0 || view->baseOffset != 0 || view->threadOffset)
    return fail(op, "deallocates a view at offset " + Twine(view->offset) +
                        " of " + storage.name + ", not the allocation");
  storage.freed = true;
  return success();
}

LogicalResult Interpreter::execCopy(memref::CopyOp op) {
  const MemView *source = getMem(op, op.getSource());
  const MemView *target = getMem(op, op.getTarget());
  if (!source || !target)
    return failure();
  if (source->sizes != target->sizes || source->elemBytes != target->elemBytes)
    return fail(op, "the source shape " + formatList(source->sizes) +
                        " differs from the target shape " +
                        formatList(target->sizes));
  Storage &from = *source->storage, &to = *target->storage;
  for (Storage *storage : {&from, &to})
    if (storage->freed)
      return fail(op, "use of " + storage->name + " after its memref.dealloc");
  if (to.readOnly)
    return fail(op, "write to the constant " + to.name);
  StridedLayout fromLayout, toLayout;
  fromLayout.offset = source->baseOffset + source->offset;
  fromLayout.sizes.assign(source->sizes.begin(), source->sizes.end());
  fromLayout.strides.assign(source->strides.begin(), source->strides.end());
  toLayout.offset = target->baseOffset + target->offset;
  toLayout.sizes = fromLayout.sizes;
  toLayout.strides.assign(target->strides.begin(), target->strides.end());
  int64_t elemBytes = source->elemBytes;
  for (int64_t i = 0, e = fromLayout.getNumElements(); i < e; ++i) {
    int64_t begin = fromLayout.getPosition(i) * elemBytes;
    int64_t end = toLayout.getPosition(i) * elemBytes;
    for (auto [storage, position, what] :
         {std::make_tuple(&from, begin, "reads"),
          std::make_tuple(&to, end, "writes")})
      if (position < 0 || position + elemBytes > storage->size)
        return fail(op, Twine(what) + " element " + Twine(i) +
                            " (row-major) at bytes [" + Twine(position) + ", " +
                            Twine(position + elemBytes) + ") outside " +
                            storage->name + " of " + Twine(storage->size) +
                            " bytes");
    std::memmove(to.data + end, from.data + begin, size_t(elemBytes));
    // Initialization travels with the bytes.
    if (to.initialized) {
      for (int64_t b = 0; b < elemBytes; ++b)
        to.initialized[end + b] =
            from.initialized ? from.initialized[begin + b] : 1;
    }
  }
  return success();
}
