//===- AMDGPUOps.cpp - amdgpu ops and the LDS protocol in the emulator ----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amdgpu.scaled_mfma (per wave, with the instruction semantics of
// mx/Emulator/ScaledMFMA.h), and the LDS staging protocol of the ukernels:
// amdgpu.gather_to_lds, amdgpu.memory_counter_wait, workgroup barriers
// (gpu.barrier, amdgpu.lds_barrier) and the race checks of workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/IR/GFX950Dialect.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

void Interpreter::registerAMDGPUHandlers(HandlerTable &table) {
  table.add<amdgpu::ScaledMFMAOp>(
      [](Interpreter &self, amdgpu::ScaledMFMAOp op) {
        return self.execScaledMFMA(op);
      });
  table.add<gpu::BarrierOp, amdgpu::LDSBarrierOp, ROCDL::SBarrierOp>(
      [](Interpreter &self, Operation *op) { return self.execBarrier(op); });
  table.add<amdgpu::GatherToLDSOp>(
      [](Interpreter &self, amdgpu::GatherToLDSOp op) {
        return self.execGatherToLDS(op);
      });
  table.add<amdgpu::MemoryCounterWaitOp>(
      [](Interpreter &self, amdgpu::MemoryCounterWaitOp op) {
        return self.execMemoryCounterWait(op);
      });
  table.add<gfx950::WaitLoadsOp>([](Interpreter &self, gfx950::WaitLoadsOp op) {
    return self.execWaitLoads(op);
  });
  table.add<gfx950::WaitLDSOp>([](Interpreter &self, gfx950::WaitLDSOp op) {
    return self.execWaitLDS(op);
  });
  // Scheduling hints have no semantics.
  table.add<amdgpu::SchedBarrierOp, ROCDL::SchedGroupBarrier>(
      [](Interpreter &, Operation *) { return success(); });
  table.add<amdgpu::PackedScaledTruncOp>(
      [](Interpreter &self, amdgpu::PackedScaledTruncOp op) {
        return self.execPackedScaledTrunc(op);
      });
}

//===----------------------------------------------------------------------===//
// amdgpu.packed_scaled_trunc (v_cvt_scalef32_pk_fp4_{f32,f16,bf16})
//===----------------------------------------------------------------------===//

LogicalResult
Interpreter::execPackedScaledTrunc(amdgpu::PackedScaledTruncOp op) {
  auto resultType = cast<VectorType>(op.getRes().getType());
  if (!isa<Float4E2M1FNType>(resultType.getElementType()))
    return unsupportedType(op, resultType);
  auto sourceType = cast<VectorType>(op.getSource().getType());
  auto sourceElement = cast<FloatType>(sourceType.getElementType());
  const llvm::fltSemantics &semantics = sourceElement.getFloatSemantics();
  unsigned sourceBits = sourceElement.getWidth();
  const Reg *source = getReg(op, op.getSource());
  const Reg *scale = getReg(op, op.getScale());
  const Reg *existing =
      op.getExisting() ? getReg(op, op.getExisting()) : nullptr;
  if (!source || !scale || (op.getExisting() && !existing))
    return failure();
  bool uniform =
      source->uniform && scale->uniform && (!existing || existing->uniform);
  Reg out(4, uniform, numThreads);
  int64_t index = op.getIndex();
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t) {
    if (existing)
      copyBits(out.at(t), 0, existing->at(t), 0, 32);
    // Only the exponent field of the f32 scale is used.
    int scaleExponent = int((readBits(scale->at(t), 0, 32) >> 23) & 0xFF);
    for (int64_t j = 0; j < sourceType.getNumElements(); ++j) {
      llvm::APFloat value(
          semantics,
          llvm::APInt(sourceBits,
                      readBits(source->at(t), j * sourceBits, sourceBits)));
      bool lost;
      value.convert(llvm::APFloat::IEEEdouble(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      writeBits(out.at(t), (2 * index + j) * 4, 4,
                convertToFP4(value.convertToDouble(), scaleExponent));
    }
  }
  setReg(op.getRes(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// amdgpu.scaled_mfma
//===----------------------------------------------------------------------===//

FailureOr<bool> Interpreter::isWholeWaveActive(Operation *op, int64_t wave) {
  int64_t active = 0;
  for (int64_t lane = 0; lane < kWaveSize; ++lane)
    active += isActive(wave * kWaveSize + lane);
  if (active == 0)
    return false;
  if (active != kWaveSize)
    return fail(op, "executed by a partially active wave (wave " + Twine(wave) +
                        ": " + Twine(active) + " of " + Twine(kWaveSize) +
                        " lanes active)");
  return true;
}

LogicalResult Interpreter::execScaledMFMA(amdgpu::ScaledMFMAOp op) {
  MFMAShape shape;
  if (op.getM() == 16 && op.getN() == 16 && op.getK() == 128)
    shape = MFMAShape::M16N16K128;
  else if (op.getM() == 32 && op.getN() == 32 && op.getK() == 64)
    shape = MFMAShape::M32N32K64;
  else
    return fail(op, "unsupported shape " + Twine(op.getM()) + "x" +
                        Twine(op.getN()) + "x" + Twine(op.getK()));
  auto sourceFormat =
      [&](Value source) -> FailureOr<std::pair<SourceFormat, int>> {
    auto type = dyn_cast<VectorType>(source.getType());
    std::optional<SourceFormat> format =
        type ? getSourceFormat(type.getElementType()) : std::nullopt;
    if (!format || type.getNumElements() != kItemsPerLane)
      return unsupportedType(op, source.getType());
    return std::make_pair(*format, wordsPerLane(*format));
  };
  auto formatA = sourceFormat(op.getSourceA());
  if (failed(formatA))
    return failure();
  auto formatB = sourceFormat(op.getSourceB());
  if (failed(formatB))
    return failure();
  int accumulators = accumulatorsPerLane(shape);
  auto accType = cast<VectorType>(op.getDestC().getType());
  if (accType.getNumElements() != accumulators ||
      !accType.getElementType().isF32())
    return fail(op, "the accumulator type does not match the shape");
  if (numThreads % kWaveSize != 0)
    return fail(op, "the workgroup of " + Twine(numThreads) +
                        " threads is not a whole number of 64-lane waves");

  const Reg *a = getReg(op, op.getSourceA());
  const Reg *b = getReg(op, op.getSourceB());
  const Reg *c = getReg(op, op.getDestC());
  const Reg *scaleA = getReg(op, op.getScalesA());
  const Reg *scaleB = getReg(op, op.getScalesB());
  if (!a || !b || !c || !scaleA || !scaleB)
    return failure();
  int wordsA = formatA->second, wordsB = formatB->second;
  if (a->bytes != uint32_t(4 * wordsA) || b->bytes != uint32_t(4 * wordsB) ||
      c->bytes != uint32_t(4 * accumulators) || scaleA->bytes > 4 ||
      scaleB->bytes > 4)
    return fail(op, "unexpected operand register sizes");

  constexpr int64_t lanes = kWaveSize;
  std::vector<uint32_t> wa(lanes * wordsA), wb(lanes * wordsB);
  std::vector<uint32_t> sa(lanes), sb(lanes);
  std::vector<float> wc(lanes * accumulators), wd(lanes * accumulators);
  Reg d(uint32_t(4 * accumulators), /*uniform=*/false, numThreads);
  for (int64_t wave = 0, e = numThreads / lanes; wave < e; ++wave) {
    // Inactive waves skip the instruction; a wave must not be split.
    FailureOr<bool> active = isWholeWaveActive(op, wave);
    if (failed(active))
      return failure();
    if (!*active)
      continue;
    // The wave's registers: one block when per thread, else per lane.
    int64_t first = wave * lanes;
    auto gather = [&](const Reg &reg, void *to, int64_t laneBytes) {
      if (!reg.uniform) {
        std::memcpy(to, reg.at(first), size_t(lanes * laneBytes));
        return;
      }
      for (int64_t lane = 0; lane < lanes; ++lane)
        std::memcpy(static_cast<uint8_t *>(to) + lane * laneBytes, reg.at(0),
                    size_t(laneBytes));
    };
    gather(*a, wa.data(), 4 * wordsA);
    gather(*b, wb.data(), 4 * wordsB);
    gather(*c, wc.data(), 4 * accumulators);
    for (int64_t lane = 0; lane < lanes; ++lane) {
      int64_t t = first + lane;
      // Scales: vector<4xf8E8M0FNU> is the 32-bit word (byte i = element
      // i); a scalar scale is byte 0.
      sa[lane] = 0;
      sb[lane] = 0;
      std::memcpy(&sa[lane], scaleA->at(t), scaleA->bytes);
      std::memcpy(&sb[lane], scaleB->at(t), scaleB->bytes);
    }
    ScaledMFMAOperands operands;
    operands.shape = shape;
    operands.fmtA = formatA->first;
    operands.fmtB = formatB->first;
    operands.a = wa.data();
    operands.b = wb.data();
    operands.c = wc.data();
    operands.scaleA = sa.data();
    operands.opselA = op.getScalesIdxA();
    operands.scaleB = sb.data();
    operands.opselB = op.getScalesIdxB();
    // d is per thread: the wave's accumulators are one block.
    scaledMFMA(operands, wd.data(), options.mfmaNumerics);
    std::memcpy(d.at(first), wd.data(), size_t(lanes * 4 * accumulators));
    ++stats.mfmas;
  }
  setReg(op.getResult(), std::move(d));
  return success();
}

//===----------------------------------------------------------------------===//
// Workgroup memory: direct-to-LDS copies, waits, barriers and races
//===----------------------------------------------------------------------===//
//
// Lock-step execution makes every store visible at once, so a kernel that
// forgets a barrier or a wait still computes the right values here. The
// race checks catch what the hardware would get wrong: per byte of
// workgroup memory they remember the wave and barrier phase of the last
// write and the waves that read it in the current phase, and an
// amdgpu.gather_to_lds stays pending (invisible, even to its own wave) until
// an amdgpu.memory_counter_wait of its wave completes it.

std::string Interpreter::checkLDSAccess(Storage &storage, int64_t wave,
                                        int64_t begin, int64_t numBytes,
                                        bool isWrite, bool async) {
  uint16_t self = uint16_t(1u << wave);
  // The messages are built only for the byte that races (the checks run for
  // every byte of every LDS access).
  auto where = [&](int64_t b) {
    return "byte " + std::to_string(b) + " of " + storage.name;
  };
  auto writer = [](const LDSByte &state) {
    return "wave " + std::to_string(state.writer);
  };
  // One pass: each byte is checked, then recorded (a race ends the run, so
  // the bytes recorded before it do not matter).
  if (isWrite && !async)
    ldsWritesInFlight[wave] = 1;
  for (int64_t b = begin; b < begin + numBytes; ++b) {
    LDSByte &state = storage.lds[b];
    bool writtenByOther = state.writer >= 0 && state.writer != wave &&
                          state.writePhase >= barrierPhase;
    if (!isWrite) {
      if (state.pending)
        return "reads " + where(b) + ", which an amdgpu.gather_to_lds of " +
               writer(state) +
               " is still writing (no amdgpu.memory_counter_wait of that "
               "wave completed it)";
      if (writtenByOther)
        return "reads " + where(b) + ", which " + writer(state) +
               " wrote after the last barrier (a barrier is missing between "
               "the write and the read)";
      if (state.readPhase != barrierPhase) {
        state.readPhase = barrierPhase;
        state.readers = 0;
      }
      state.readers |= self;
      state.inFlightReaders |= self;
      continue;
    }
    uint16_t others = state.readPhase == barrierPhase
                          ? uint16_t(state.readers & ~self)
                          : uint16_t(0);
    if (others)
      return "overwrites " + where(b) + ", which wave " +
             std::to_string(llvm::countr_zero(others)) +
             " read after the last barrier (a barrier is missing between the "
             "read and the write)";
    if (uint16_t reading = uint16_t(state.inFlightReaders & ~self))
      return "overwrites " + where(b) + ", which wave " +
             std::to_string(llvm::countr_zero(reading)) +
             " still reads (no amdgpu.memory_counter_wait ds(0) of that "
             "wave since its read)";
    if (state.pending)
      return "overwrites " + where(b) + ", which an amdgpu.gather_to_lds of " +
             writer(state) + " is still writing";
    if (writtenByOther)
      return "overwrites " + where(b) + ", which " + writer(state) +
             " wrote after the last barrier (a barrier is missing between "
             "the writes)";
    state.writer = int8_t(wave);
    state.pending = async;
    state.writePhase = async ? -1 : barrierPhase;
  }
  if (!isWrite) {
    // One op's reads (a lane's after the other's) merge where contiguous.
    SmallVector<LDSRange> &reads = ldsReadsInFlight[wave];
    if (!reads.empty() && reads.back().storage == &storage &&
        reads.back().serial == stats.operations &&
        reads.back().begin + reads.back().size == begin)
      reads.back().size += numBytes;
    else
      reads.push_back({&storage, begin, numBytes, stats.operations});
  }
  return "";
}

void Interpreter::completeLDSAccesses(int64_t wave, int64_t keep) {
  uint16_t self = uint16_t(1u << wave);
  SmallVector<LDSRange> &reads = ldsReadsInFlight[wave];
  // The reads of the `keep` most recent ops stay in flight.
  size_t first = reads.size();
  for (int64_t ops = 0; first > 0 && ops < keep; ++ops) {
    int64_t serial = reads[first - 1].serial;
    while (first > 0 && reads[first - 1].serial == serial)
      --first;
  }
  for (const LDSRange &range : ArrayRef(reads).take_front(first))
    for (int64_t b = range.begin; b < range.begin + range.size; ++b)
      range.storage->lds[b].inFlightReaders &= uint16_t(~self);
  reads.erase(reads.begin(), reads.begin() + first);
  // A byte the completed reads shared with the others stays reserved.
  for (const LDSRange &range : reads)
    for (int64_t b = range.begin; b < range.begin + range.size; ++b)
      range.storage->lds[b].inFlightReaders |= self;
  if (keep == 0)
    ldsWritesInFlight[wave] = 0;
}

void Interpreter::completeCopies(int64_t wave, size_t keep) {
  std::deque<PendingCopy> &copies = pendingCopies[wave];
  while (copies.size() > keep) {
    PendingCopy copy = copies.front();
    copies.pop_front();
    for (int64_t b = copy.begin; b < copy.begin + copy.size; ++b) {
      LDSByte &state = copy.storage->lds[b];
      if (state.pending && state.writer == wave) {
        state.pending = false;
        state.writePhase = barrierPhase;
      }
    }
  }
}

// Every thread of the workgroup must reach a barrier; in lock step it has
// nothing to wait for, but it starts a new phase for the race checks. It
// does not complete copies (amdgpu.lds_barrier waits for LDS operations,
// not for the vector memory counter that amdgpu.gather_to_lds counts on).
// gpu.barrier and amdgpu.lds_barrier fence workgroup memory: each wave
// waits for its LDS reads and writes first. rocdl.s.barrier does not: a
// wave with LDS writes in flight (none waited for with
// amdgpu.memory_counter_wait ds(0) since) could have another wave read
// bytes it still writes, so it must not reach one. Its reads in flight may
// cross it (the next K step's fragments read ahead), but their bytes stay
// reserved against the other waves' writes until the wave waits for them
// (LDSByte::inFlightReaders).
LogicalResult Interpreter::execBarrier(Operation *op) {
  if (isPartial())
    return fail(op, "barrier in divergent control flow (" +
                        Twine(countActive()) + " of " + Twine(numThreads) +
                        " threads active)");
  bool fenced = !isa<ROCDL::SBarrierOp>(op);
  for (int64_t wave = 0; wave < getNumWaves(); ++wave) {
    if (!fenced && ldsWritesInFlight[wave])
      return fail(op, "barrier without a fence while wave " + Twine(wave) +
                          " has workgroup memory writes in flight (no "
                          "amdgpu.memory_counter_wait ds(0) since them)");
    if (fenced)
      completeLDSAccesses(wave);
  }
  ++barrierPhase;
  return success();
}

// gfx9 counts loads and stores on one vector memory counter (vmcnt): a wait
// for either leaves at most that many of the wave's copies pending. Other
// vector memory operations complete at once in the emulator, so counting
// only copies keeps more of them pending than the hardware would: never
// fewer.
LogicalResult
Interpreter::execMemoryCounterWait(amdgpu::MemoryCounterWaitOp op) {
  // ds(0): the wave's LDS reads and writes are done.
  if (std::optional<uint32_t> ds = op.getDs())
    for (int64_t wave = 0; wave < getNumWaves(); ++wave)
      if (isWaveActive(wave))
        completeLDSAccesses(wave, *ds);
  std::optional<uint32_t> load = op.getLoad(), store = op.getStore();
  if (!load && !store)
    return success();
  waitForLoads(std::min(load.value_or(UINT32_MAX), store.value_or(UINT32_MAX)));
  return success();
}

void Interpreter::waitForLoads(size_t keep) {
  for (int64_t wave = 0; wave < getNumWaves(); ++wave)
    if (isWaveActive(wave))
      completeCopies(wave, keep);
}

/// The count of wait op `op`, uniform and within [0, `max`], the range of
/// gfx950's `counter` (a wait that leaves more in flight cannot be
/// encoded).
FailureOr<int64_t> Interpreter::getWaitCount(Operation *op, Value count,
                                             int64_t max, StringRef counter) {
  FailureOr<int64_t> n = getUniformInt(op, count, "the count");
  if (failed(n))
    return failure();
  if (*n < 0 || *n > max)
    return fail(op, "the count " + Twine(*n) + " is not in [0, " + Twine(max) +
                        "] (gfx950's " + counter + ")");
  return n;
}

LogicalResult Interpreter::execWaitLoads(gfx950::WaitLoadsOp op) {
  FailureOr<int64_t> count = getWaitCount(
      op, op.getCount(), gfx950::kMaxLoadCount, "vector memory counter");
  if (failed(count))
    return failure();
  waitForLoads(size_t(*count));
  return success();
}

// The emulator counts the ops that read LDS, where the hardware counts
// instructions (LLVM may merge two reads): a ukernel's count is a lower
// bound on those, so the emulator completes at least the reads the
// hardware would.
LogicalResult Interpreter::execWaitLDS(gfx950::WaitLDSOp op) {
  FailureOr<int64_t> count =
      getWaitCount(op, op.getCount(), gfx950::kMaxLDSCount, "LDS counter");
  if (failed(count))
    return failure();
  for (int64_t wave = 0; wave < getNumWaves(); ++wave)
    if (isWaveActive(wave))
      completeLDSAccesses(wave, *count);
  return success();
}

// global_load_lds_dword{,x3,x4} (CDNA4 ISA, "LDS DMA"): lane l of a wave
// reads its own `transfer` bytes at its source indices and writes them to
// workgroup memory at base + l * max(4, transfer) (12-byte transfers take 16
// bytes, 1- and 2-byte ones 4, zero-extended), base being the destination
// indices of the wave's first active lane (what the hardware takes from
// M0). The write is pending until an amdgpu.memory_counter_wait of the wave
// completes it.
LogicalResult Interpreter::execGatherToLDS(amdgpu::GatherToLDSOp op) {
  Type transfer = op.getTransferType();
  int64_t bits = 0;
  if (auto vectorType = dyn_cast<VectorType>(transfer))
    bits = vectorType.getNumElements() * vectorType.getElementTypeBitWidth();
  else if (transfer.isIntOrFloat())
    bits = transfer.getIntOrFloatBitWidth();
  if (!llvm::is_contained({8, 16, 32, 96, 128}, bits))
    return unsupportedType(op, transfer);
  int64_t bytes = bits / 8;
  int64_t laneBytes = bytes <= 4 ? 4 : 16;
  auto srcType = cast<MemRefType>(op.getSrc().getType());
  int64_t elemBytes = getMemElemBytes(srcType.getElementType());
  if (!elemBytes || bytes % elemBytes != 0)
    return fail(op, "the transfer type must be a whole number of source "
                    "elements");
  if (numThreads % kWaveSize != 0)
    return fail(op, "the workgroup of " + Twine(numThreads) +
                        " threads is not a whole number of 64-lane waves");

  // Every active lane reads its transfer (checked like a vector.load).
  Reg loaded;
  if (failed(access(op, op.getSrc(), op.getSrcIndices(), bytes / elemBytes,
                    /*isWrite=*/false, &loaded, nullptr)))
    return failure();

  const MemView *dst = getMem(op, op.getDst());
  if (!dst)
    return failure();
  Storage &storage = *dst->storage;
  if (storage.lds.empty())
    return fail(op, "the destination is not workgroup memory of the kernel");
  int64_t rank = int64_t(dst->sizes.size());
  int64_t numElements = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (dst->strides[d] != numElements)
      return fail(op, "the destination view must be contiguous (row-major)");
    numElements *= dst->sizes[d];
  }
  SmallVector<const Reg *, 4> indexRegs;
  if (failed(getRegs(op, op.getDstIndices(), indexRegs)))
    return failure();
  if (int64_t(indexRegs.size()) != rank)
    return fail(op, "expected " + Twine(rank) + " destination indices");

  constexpr int64_t lanes = kWaveSize;
  int64_t total = lanes * laneBytes;
  for (int64_t wave = 0, e = numThreads / lanes; wave < e; ++wave) {
    // Inactive waves skip the instruction; a wave must not be split.
    FailureOr<bool> active = isWholeWaveActive(op, wave);
    if (failed(active))
      return failure();
    if (!*active)
      continue;
    int64_t first = wave * lanes;
    int64_t linear = 0;
    SmallVector<int64_t, 4> idx;
    bool inBounds = true;
    for (int64_t d = 0; d < rank; ++d) {
      idx.push_back(readIndex(*indexRegs[d], first));
      inBounds &= idx[d] >= 0 && idx[d] < dst->sizes[d];
      linear += idx[d] * dst->strides[d];
    }
    // The wave's bytes, relative to the view's first element.
    int64_t begin = linear * dst->elemBytes;
    int64_t viewBytes = numElements * dst->elemBytes;
    int64_t viewBegin = dst->getOffset(first) * dst->elemBytes;
    if (!inBounds || begin + total > viewBytes || viewBegin < 0 ||
        viewBegin + viewBytes > storage.size) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "wave " << wave << ": the destination index " << formatList(idx)
         << " of " << op.getDst().getType() << " with shape "
         << formatList(dst->sizes) << " (" << storage.name << ") plus " << lanes
         << " lanes x " << laneBytes << " bytes leaves the view (bytes ["
         << begin << ", " << begin + total << ") of " << viewBytes << ")";
      return fail(op, text);
    }
    begin += viewBegin;
    std::string race = checkLDSAccess(storage, wave, begin, total,
                                      /*isWrite=*/true, /*async=*/true);
    if (!race.empty())
      return fail(op, "wave " + Twine(wave) + ": the copy " + race);
    for (int64_t lane = 0; lane < lanes; ++lane) {
      uint8_t *to = storage.data + begin + lane * laneBytes;
      std::memcpy(to, loaded.at(first + lane), size_t(bytes));
      std::memset(to + bytes, 0, size_t(laneBytes - bytes));
    }
    if (storage.initialized)
      std::memset(storage.initialized + begin, 1, size_t(total));
    pendingCopies[wave].push_back({&storage, begin, total});
  }
  return success();
}
