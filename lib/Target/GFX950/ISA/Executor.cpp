//===- Executor.cpp - running gfx950 kernels wave by wave -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <mutex>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

//===----------------------------------------------------------------------===//
// DeviceMemory
//===----------------------------------------------------------------------===//

uint64_t DeviceMemory::map(uint8_t *data, uint64_t size, bool writable,
                           std::string name) {
  uint64_t base = next;
  regions.push_back({base, size, data, writable, std::move(name)});
  // A 1 MiB unmapped gap after every buffer.
  next = alignTo(base + size, 4096) + (uint64_t(1) << 20);
  return base;
}

uint8_t *DeviceMemory::translate(uint64_t address, uint64_t bytes,
                                 bool write) const {
  auto it = std::upper_bound(
      regions.begin(), regions.end(), address,
      [](uint64_t a, const Region &region) { return a < region.base; });
  if (it == regions.begin())
    return nullptr;
  const Region &region = *std::prev(it);
  if (address - region.base > region.size ||
      bytes > region.size - (address - region.base) ||
      (write && !region.writable))
    return nullptr;
  return region.data + (address - region.base);
}

std::string DeviceMemory::describe(uint64_t address) const {
  for (const Region &region : regions)
    if (address >= region.base && address < region.base + region.size + 4096)
      return formatv("{0} ({1} bytes at {2:x}, {3}offset {4})", region.name,
                     region.size, region.base,
                     region.writable ? "" : "read-only, ",
                     int64_t(address - region.base))
          .str();
  return "no buffer";
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

uint64_t mlir::mx::gfx950::isa::detail::floatImmediate(double value,
                                                       int width) {
  if (width == 64)
    return bit_cast<uint64_t>(value);
  APFloat f(value);
  bool lost;
  f.convert(width == 16 ? APFloat::IEEEhalf() : APFloat::IEEEsingle(),
            APFloat::rmNearestTiesToEven, &lost);
  return f.bitcastToAPInt().getZExtValue();
}

uint32_t Context::scalar32(const Operand &op) const {
  switch (op.kind) {
  case OperandKind::SGPR:
    return w.s[op.reg];
  case OperandKind::VCC:
    return uint32_t(w.vcc >> (32 * op.reg));
  case OperandKind::Exec:
    return uint32_t(w.exec >> (32 * op.reg));
  case OperandKind::M0:
    return w.m0;
  case OperandKind::SCC:
    return w.scc;
  case OperandKind::Imm:
    return op.isFloat ? uint32_t(floatImmediate(op.fvalue, 32))
                      : uint32_t(op.value);
  default:
    return 0;
  }
}

uint64_t Context::scalar64(const Operand &op) const {
  switch (op.kind) {
  case OperandKind::SGPR:
    return w.s[op.reg] | uint64_t(w.s[op.reg + 1]) << 32;
  case OperandKind::VCC:
    return w.vcc;
  case OperandKind::Exec:
    return w.exec;
  case OperandKind::Imm:
    return op.isFloat ? floatImmediate(op.fvalue, 64) : uint64_t(op.value);
  default:
    return scalar32(op);
  }
}

void Context::setScalar32(const Operand &op, uint32_t value) {
  auto setHalf = [&](uint64_t &reg) {
    unsigned shift = 32 * op.reg;
    reg = (reg & ~(uint64_t(0xffffffff) << shift)) | uint64_t(value) << shift;
  };
  switch (op.kind) {
  case OperandKind::SGPR:
    w.s[op.reg] = value;
    return;
  case OperandKind::VCC:
    setHalf(w.vcc);
    return;
  case OperandKind::Exec:
    setHalf(w.exec);
    return;
  case OperandKind::M0:
    w.m0 = value;
    return;
  default:
    return;
  }
}

void Context::setScalar64(const Operand &op, uint64_t value) {
  switch (op.kind) {
  case OperandKind::SGPR:
    w.s[op.reg] = uint32_t(value);
    w.s[op.reg + 1] = uint32_t(value >> 32);
    return;
  case OperandKind::VCC:
    w.vcc = value;
    return;
  case OperandKind::Exec:
    w.exec = value;
    return;
  default:
    setScalar32(op, uint32_t(value));
  }
}

uint32_t Context::src32(const Operand &op, int lane, int floatKind) const {
  if (op.isVector())
    return w.v[unified(op) * kLanes + lane];
  if (op.kind == OperandKind::Imm && op.isFloat)
    return uint32_t(floatImmediate(op.fvalue, floatKind ? floatKind : 32));
  return scalar32(op);
}

uint64_t Context::src64(const Operand &op, int lane, int floatKind) const {
  if (op.isVector())
    return w.v[unified(op) * kLanes + lane] |
           uint64_t(w.v[(unified(op) + 1) * kLanes + lane]) << 32;
  if (op.kind == OperandKind::Imm && op.isFloat)
    return floatImmediate(op.fvalue, floatKind ? floatKind : 64);
  return scalar64(op);
}

std::string Context::describe(unsigned index) const {
  const Instruction &inst = kernel.instructions[index];
  return formatv("pc {0:x}: {1}", inst.pc, inst.text).str();
}

//===----------------------------------------------------------------------===//
// Pending memory operations
//===----------------------------------------------------------------------===//

static void waitFor(Workgroup &wg, Wave &w, Pending::Counter counter,
                    int limit);

/// The largest value of each counter on gfx9 and later (vmcnt 6 bits,
/// lgkmcnt 4 bits): a wave that has that many operations outstanding stalls
/// the next one until the oldest retires, so issuing one retires the oldest
/// beyond the limit (LLVM's SIInsertWaitcnts relies on this).
static int maxOutstanding(Pending::Counter counter) {
  return counter == Pending::Counter::VM ? 63 : 15;
}

Pending &Context::addPending(Pending::Counter counter,
                             const Instruction &inst) {
  waitFor(wg, w, counter, maxOutstanding(counter) - 1);
  Pending &pending = w.pending.emplace_back();
  pending.counter = counter;
  pending.sequence = w.nextSequence++;
  pending.inst = w.pcIndex;
  return pending;
}

void Context::markPending(Pending &pending, const Operand &dst) {
  pending.scalar = dst.kind == OperandKind::SGPR;
  pending.first = pending.scalar ? dst.reg : unified(dst);
  pending.count = dst.count;
  for (unsigned i = 0; i < dst.count; ++i) {
    if (pending.scalar)
      w.sPending[pending.first + i] = pending.sequence;
    else
      w.vPending[pending.first + i] = pending.sequence;
  }
}

/// Retires \p pending: its registers and LDS bytes become readable.
static void retire(Workgroup &wg, Wave &w, const Pending &pending) {
  for (unsigned i = 0; i < pending.count; ++i) {
    uint32_t &slot = pending.scalar ? w.sPending[pending.first + i]
                                    : w.vPending[pending.first + i];
    if (slot == pending.sequence)
      slot = 0;
  }
  for (auto [begin, end] : pending.lds)
    for (uint32_t a = begin; a < end; ++a)
      wg.shadow[a].pending = 0;
  // (An older read retiring clears a byte that a younger unretired read of
  // the same wave covers too: the check may miss that one, never
  // flag a correct kernel.)
  uint64_t self = uint64_t(1) << (w.id & 63);
  for (auto [begin, end] : pending.ldsReads)
    for (uint32_t a = begin; a < end; ++a)
      wg.shadow[a].inFlightReaders &= ~self;
}

void Context::retireAll() {
  for (const Pending &pending : w.pending)
    retire(wg, w, pending);
  w.pending.clear();
}

/// s_waitcnt: retires operations of \p counter until at most \p limit are
/// outstanding, oldest first; out-of-order ones (SMEM) last.
static void waitFor(Workgroup &wg, Wave &w, Pending::Counter counter,
                    int limit) {
  if (limit < 0)
    return;
  auto outstanding = [&] {
    return std::count_if(
        w.pending.begin(), w.pending.end(),
        [&](const Pending &p) { return p.counter == counter; });
  };
  for (int64_t n = outstanding(); n > limit; --n) {
    auto victim =
        std::find_if(w.pending.begin(), w.pending.end(), [&](const Pending &p) {
          return p.counter == counter && !p.outOfOrder;
        });
    if (victim == w.pending.end())
      victim =
          std::find_if(w.pending.begin(), w.pending.end(),
                       [&](const Pending &p) { return p.counter == counter; });
    retire(wg, w, *victim);
    w.pending.erase(victim);
  }
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

Step Context::checkLDSRead(uint32_t address, uint32_t bytes,
                           const Instruction &inst, Pending *pending) {
  if (uint64_t(address) + bytes > ldsLimit)
    return fail(formatv("reads LDS bytes [{0}, {1}) beyond the workgroup's "
                        "{2} bytes",
                        address, uint64_t(address) + bytes, ldsLimit));
  uint16_t self = uint16_t(w.id + 1);
  for (uint32_t a = address; a < address + bytes; ++a) {
    LDSByte &b = wg.shadow[a];
    if (b.pending && (b.pending != self))
      return fail(
          formatv("reads LDS byte {0} while {1} of wave {2} that "
                  "writes it is not retired (missing s_waitcnt "
                  "{3})",
                  a, b.pending & kPendingDMA ? "the LDS-DMA" : "the ds_write",
                  (b.pending & ~kPendingDMA) - 1,
                  b.pending & kPendingDMA ? "vmcnt"
                                          : "lgkmcnt before "
                                            "the barrier"));
    if (b.writeEpoch == wg.epoch && b.writer != self)
      return fail(formatv("LDS race: reads byte {0} that wave {1} wrote "
                          "since the last barrier",
                          a, b.writer - 1));
    if (b.readEpoch != wg.epoch) {
      b.readEpoch = wg.epoch;
      b.readers = 0;
    }
    b.readers |= uint64_t(1) << (w.id & 63);
    if (pending)
      b.inFlightReaders |= uint64_t(1) << (w.id & 63);
  }
  if (pending) {
    // Lanes often read consecutive bytes: one range for them.
    auto &ranges = pending->ldsReads;
    if (!ranges.empty() && ranges.back().second == address)
      ranges.back().second = address + bytes;
    else
      ranges.push_back({address, address + bytes});
  }
  return Step::Next;
}

Step Context::checkLDSWrite(uint32_t address, uint32_t bytes, Pending *pending,
                            bool dma, const Instruction &inst) {
  if (uint64_t(address) + bytes > ldsLimit)
    return fail(formatv("writes LDS bytes [{0}, {1}) beyond the workgroup's "
                        "{2} bytes",
                        address, uint64_t(address) + bytes, ldsLimit));
  uint16_t self = uint16_t(w.id + 1);
  uint64_t others = ~(uint64_t(1) << (w.id & 63));
  for (uint32_t a = address; a < address + bytes; ++a) {
    LDSByte &b = wg.shadow[a];
    if (b.writeEpoch == wg.epoch && b.writer != self)
      return fail(formatv("LDS race: writes byte {0} that wave {1} wrote "
                          "since the last barrier",
                          a, b.writer - 1));
    if (b.readEpoch == wg.epoch && (b.readers & others))
      return fail(formatv("LDS race: writes byte {0} that another wave read "
                          "since the last barrier",
                          a));
    if (uint64_t reading = b.inFlightReaders & others)
      return fail(formatv("LDS race: writes byte {0} that wave {1} reads "
                          "with a ds_read it has not retired (missing "
                          "s_waitcnt lgkmcnt before the barrier)",
                          a, llvm::countr_zero(reading)));
    b.writer = self;
    b.writeEpoch = wg.epoch;
    if (pending)
      b.pending = dma ? uint16_t(self | kPendingDMA) : self;
  }
  if (pending)
    pending->lds.push_back({address, address + bytes});
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// Control
//===----------------------------------------------------------------------===//

std::pair<int, int>
mlir::mx::gfx950::isa::detail::waitcntCounts(const Instruction &inst) {
  int vm = inst.vmcnt, lgkm = inst.lgkmcnt;
  if (!inst.operands.empty() && inst.operands[0].kind == OperandKind::Imm) {
    // The raw simm16: vmcnt [3:0] and [15:14], lgkmcnt [11:8].
    uint32_t bits = uint32_t(inst.operands[0].value);
    vm = int((bits & 0xf) | ((bits >> 14) & 3) << 4);
    lgkm = int((bits >> 8) & 0xf);
  }
  return {vm, lgkm};
}

static Step execWaitcnt(Context &ctx, const Instruction &inst) {
  auto [vm, lgkm] = waitcntCounts(inst);
  waitFor(ctx.wg, ctx.w, Pending::Counter::VM, vm);
  waitFor(ctx.wg, ctx.w, Pending::Counter::LGKM, lgkm);
  return Step::Next;
}

static Step execBarrier(Context &, const Instruction &) {
  return Step::Barrier;
}
static Step execEnd(Context &, const Instruction &) { return Step::End; }
static Step execNothing(Context &, const Instruction &) { return Step::Next; }

template <typename Cond>
static Step branchIf(Context &ctx, const Instruction &inst, Cond cond) {
  if (!cond(ctx))
    return Step::Next;
  auto it = ctx.kernel.indexOfPc.find(inst.target);
  if (it == ctx.kernel.indexOfPc.end())
    return ctx.fail(formatv("branches to {0:x}, which is no instruction of "
                            "the kernel",
                            inst.target));
  ctx.jumpIndex = it->second;
  return Step::Jump;
}

static void addControlOps(OpTable &table) {
  table["s_waitcnt"] = {execWaitcnt, 0};
  table["s_barrier"] = {execBarrier, 0};
  table["s_endpgm"] = {execEnd, 0};
  for (const char *name : {"s_nop", "s_setprio", "s_sleep", "s_sched_barrier"})
    table[name] = {execNothing, 0};
  table["s_branch"] = {[](Context &c, const Instruction &i) {
                         return branchIf(c, i, [](Context &) { return true; });
                       },
                       0};
  table["s_cbranch_scc0"] = {[](Context &c, const Instruction &i) {
                               return branchIf(
                                   c, i, [](Context &x) { return !x.w.scc; });
                             },
                             0};
  table["s_cbranch_scc1"] = {[](Context &c, const Instruction &i) {
                               return branchIf(
                                   c, i, [](Context &x) { return x.w.scc; });
                             },
                             0};
  table["s_cbranch_vccz"] = {
      [](Context &c, const Instruction &i) {
        return branchIf(c, i, [](Context &x) { return x.w.vcc == 0; });
      },
      0};
  table["s_cbranch_vccnz"] = {
      [](Context &c, const Instruction &i) {
        return branchIf(c, i, [](Context &x) { return x.w.vcc != 0; });
      },
      0};
  table["s_cbranch_execz"] = {
      [](Context &c, const Instruction &i) {
        return branchIf(c, i, [](Context &x) { return x.w.exec == 0; });
      },
      0};
  table["s_cbranch_execnz"] = {
      [](Context &c, const Instruction &i) {
        return branchIf(c, i, [](Context &x) { return x.w.exec != 0; });
      },
      0};
}

static const OpTable &getOpTable() {
  static const OpTable table = [] {
    OpTable t;
    addControlOps(t);
    addScalarOps(t);
    addVectorOps(t);
    addVectorMoreOps(t);
    addMemoryOps(t);
    addMatrixOps(t);
    return t;
  }();
  return table;
}

OpInfo mlir::mx::gfx950::isa::detail::lookupOp(StringRef mnemonic) {
  auto it = getOpTable().find(mnemonic);
  return it == getOpTable().end() ? OpInfo() : it->second;
}

bool mlir::mx::gfx950::isa::isSupported(StringRef mnemonic) {
  return getOpTable().count(mnemonic);
}
