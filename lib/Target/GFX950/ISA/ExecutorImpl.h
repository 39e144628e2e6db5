//===- ExecutorImpl.h - the ISA executor's wave state -----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the ISA executor: the state of a wave and a workgroup, the
// context an instruction's semantics run in, and the opcode table that maps
// LLVM's mnemonics to semantics (one file per unit: SALU.cpp, VALU*.cpp,
// MemoryOps.cpp, MatrixOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_TARGET_GFX950_ISA_EXECUTORIMPL_H
#define MX_LIB_TARGET_GFX950_ISA_EXECUTORIMPL_H

#include "mx/Target/GFX950/ISA/Executor.h"
#include "mx/Target/GFX950/ISA/Hazards.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <deque>
#include <memory>

namespace mlir::mx::gfx950::isa::detail {

constexpr int kLanes = 64;
constexpr unsigned kSGPRSlots = 128;
/// AGPR a<n> lives at unified index 256 + n.
constexpr unsigned kAGPRBase = 256;

/// What a handler tells the wave loop.
enum class Step : uint8_t { Next, Jump, Barrier, End, Fail };

/// A memory operation issued and not yet retired by s_waitcnt.
struct Pending {
  enum class Counter : uint8_t { VM, LGKM };
  Counter counter = Counter::VM;
  /// SMEM may return out of order: it retires last (adversarially).
  bool outOfOrder = false;
  uint32_t sequence = 0;
  /// The issuing instruction (index into the kernel's instructions).
  unsigned inst = 0;
  /// Destination registers: unified vector index or SGPR, and count.
  bool scalar = false;
  uint16_t first = 0, count = 0;
  /// LDS byte ranges [begin, end) it writes (ds_write*, LDS-DMA).
  std::vector<std::pair<uint32_t, uint32_t>> lds;
  /// LDS byte ranges [begin, end) it reads (ds_read*): until it retires,
  /// another wave may not write them.
  std::vector<std::pair<uint32_t, uint32_t>> ldsReads;
};

/// Per LDS byte: who may not read it now and who touched it in which
/// barrier epoch.
struct LDSByte {
  /// 1 + the wave whose unretired ds_write holds it; with the top bit set,
  /// an unretired LDS-DMA (no wave may read it).
  uint16_t pending = 0;
  uint16_t writer = 0;
  uint32_t writeEpoch = 0;
  uint32_t readEpoch = 0;
  uint64_t readers = 0;
  /// The waves (bit `id mod 64`) with an unretired ds_read of the byte.
  uint64_t inFlightReaders = 0;
};
constexpr uint16_t kPendingDMA = 0x8000;

struct Workgroup {
  std::array<uint32_t, 3> id = {0, 0, 0};
  std::vector<uint8_t> lds;
  std::vector<LDSByte> shadow;
  /// The barrier epoch: incremented when every live wave passed s_barrier.
  uint32_t epoch = 1;
};

struct Wave {
  unsigned id = 0;
  std::array<uint32_t, kSGPRSlots> s{};
  uint64_t vcc = 0, exec = 0;
  uint32_t m0 = 0;
  bool scc = false;
  /// Unified vector register file, register-major: v[reg * 64 + lane].
  std::vector<uint32_t> v;
  /// The sequence number of the pending load writing each register (0:
  /// none).
  std::vector<uint32_t> vPending;
  std::array<uint32_t, kSGPRSlots> sPending{};
  std::deque<Pending> pending;
  uint32_t nextSequence = 1;
  unsigned pcIndex = 0;
  uint64_t issued = 0;
  bool atBarrier = false, ended = false;
  std::unique_ptr<HazardChecker> hazards;

  uint32_t *vreg(unsigned unified) { return &v[unified * kLanes]; }
};

/// What the timing mode records of the instruction being executed: the LDS
/// address of each lane's DS access and the bytes it moves.
struct TraceProbe {
  /// Per access of the instruction (two for ds_read2/ds_write2), each
  /// lane's address (kNoLane: inactive).
  std::array<std::array<uint32_t, kLanes>, 2> ldsAddresses = [] {
    std::array<std::array<uint32_t, kLanes>, 2> none;
    for (auto &access : none)
      access.fill(kNoLane);
    return none;
  }();
  unsigned ldsBytesPerAccess = 0;
  uint64_t bytes = 0;
};

/// The vmcnt and lgkmcnt an s_waitcnt waits for (-1: that counter is not
/// waited for), from its printed fields or its raw simm16.
std::pair<int, int> waitcntCounts(const Instruction &inst);

struct Context;
using Handler = Step (*)(Context &, const Instruction &);

/// An opcode's semantics and how many of its leading operands it writes.
struct OpInfo {
  Handler handler = nullptr;
  uint8_t numDsts = 1;
};
using OpTable = llvm::StringMap<OpInfo>;

/// The semantics of \p mnemonic (a null handler when unknown).
OpInfo lookupOp(llvm::StringRef mnemonic);

void addScalarOps(OpTable &table);
void addVectorOps(OpTable &table);
void addVectorMoreOps(OpTable &table);
void addMemoryOps(OpTable &table);
void addMatrixOps(OpTable &table);

/// The context of one instruction.
struct Context {
  Context(const Kernel &kernel, DeviceMemory &memory,
          const ExecutorOptions &options, Workgroup &wg, Wave &w)
      : kernel(kernel), memory(memory), options(options), wg(wg), w(w) {}

  const Kernel &kernel;
  DeviceMemory &memory;
  const ExecutorOptions &options;
  Workgroup &wg;
  Wave &w;
  unsigned ldsLimit = 0;
  unsigned jumpIndex = 0;
  /// Set in the timing mode's recorded workgroups.
  TraceProbe *probe = nullptr;
  std::string error;
  uint64_t mfmas = 0;

  Step fail(const llvm::Twine &message) {
    error = message.str();
    return Step::Fail;
  }
  bool active(int lane) const { return (w.exec >> lane) & 1; }
  /// For the timing mode: a lane's DS access of \p bytes at \p address, or
  /// \p bytes of vector memory.
  void noteLDS(int lane, unsigned access, uint32_t address, unsigned bytes) {
    if (!probe)
      return;
    probe->ldsAddresses[access & 1][lane] = address;
    probe->ldsBytesPerAccess = bytes;
    probe->bytes += bytes;
  }
  void noteMemory(unsigned bytes) {
    if (probe)
      probe->bytes += bytes;
  }

  // Scalar operands (SGPR, VCC, EXEC, M0, SCC, immediates).
  uint32_t scalar32(const Operand &op) const;
  uint64_t scalar64(const Operand &op) const;
  void setScalar32(const Operand &op, uint32_t value);
  void setScalar64(const Operand &op, uint64_t value);

  /// The unified index of vector register operand \p op, word \p word.
  static unsigned unified(const Operand &op, unsigned word = 0) {
    return (op.kind == OperandKind::AGPR ? kAGPRBase : 0) + op.reg + word;
  }
  /// Lane \p lane of a 32-bit source (vector register or scalar operand);
  /// \p floatKind: 0 integer, 16/32/64 the float width an inline float
  /// constant takes.
  uint32_t src32(const Operand &op, int lane, int floatKind = 0) const;
  uint64_t src64(const Operand &op, int lane, int floatKind = 0) const;
  void setV32(const Operand &op, int lane, uint32_t value) {
    w.v[unified(op) * kLanes + lane] = value;
  }
  void setV64(const Operand &op, int lane, uint64_t value) {
    w.v[unified(op) * kLanes + lane] = uint32_t(value);
    w.v[(unified(op) + 1) * kLanes + lane] = uint32_t(value >> 32);
  }

  /// Records a memory operation's destination registers as pending.
  Pending &addPending(Pending::Counter counter, const Instruction &inst);
  void markPending(Pending &pending, const Operand &dst);

  /// "LDS byte ..." access checks: bounds, races, unretired writes.
  /// Checks a read of LDS bytes [address, address + bytes); with \p pending
  /// (the ds_read's), they count as read until it retires.
  Step checkLDSRead(uint32_t address, uint32_t bytes, const Instruction &inst,
                    Pending *pending = nullptr);
  /// Marks the current wave done: its unretired operations retire.
  void retireAll();
  Step checkLDSWrite(uint32_t address, uint32_t bytes, Pending *pending,
                     bool dma, const Instruction &inst);

  /// The instruction at index \p index, for messages: "pc 0x..: text".
  std::string describe(unsigned index) const;
};

/// The bits of a float immediate of \p width (16, 32 or 64).
uint64_t floatImmediate(double value, int width);

} // namespace mlir::mx::gfx950::isa::detail

#endif // MX_LIB_TARGET_GFX950_ISA_EXECUTORIMPL_H
