//===- MemoryOps.cpp - SMEM, buffer, global and LDS semantics -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Memory instructions. Loads write their destination at issue and leave it
// pending (poison) until an s_waitcnt retires them; stores and LDS writes
// are counted the same way, so that the counters match the hardware's.
//  - SMEM (s_load_*, s_buffer_load_*): lgkmcnt, may return out of order.
//  - MUBUF (buffer_*): raw buffers (no idxen, swizzle or add_tid; the
//    stride is then unused) through a V# (base, num_records); each dword
//    outside [0, num_records) of the offset (voffset + inst_offset; the SGPR
//    offset is not range-checked) reads 0 and is not written. With `lds`, the
//    dwords go to LDS at M0[17:0] + inst_offset + lane * size (CDNA4
//    ISA 9.1.9), counted by vmcnt.
//  - FLAT global (global_*): a 64-bit VGPR address, or an SGPR base plus a
//    32-bit VGPR offset; addresses outside the launch's buffers are errors.
//  - DS (ds_*): per-lane LDS addresses (vaddr + offset), bounds- and
//    race-checked.
//  - Atomics (buffer_atomic_*, global_atomic_*: add, sub, swap, smin, umin,
//    smax, umax, and, or, xor on dwords; buffer_atomic_pk_add_bf16): each
//    active lane in lane order reads, combines and writes its dword under
//    one lock shared by every host thread, so that atomics of workgroups on
//    other threads do not interleave, and whatever a wave stored before its
//    atomic is visible to a wave whose later atomic follows it (the lock's
//    release and acquire). With sc0 (glc) the dword before the update
//    returns into the data VGPR (buffer) or vdst (global), pending until an
//    s_waitcnt vmcnt.
//  - buffer_wbl2 / buffer_inv (with any sc0/sc1 scope bits): the L2
//    writeback and invalidate of a release and an acquire. The executor's
//    memory is coherent (every store is visible at once), so they change no
//    data; they count on vmcnt as the hardware does (LLVM waits for
//    vmcnt(0) after buffer_wbl2) and take and release the atomics' lock, a
//    full fence between host threads.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <mutex>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

/// The access of a load or store: bytes per lane and how a short load
/// fills its register.
struct Access {
  unsigned bytes = 4;
  bool signExtend = false;
  /// d16 loads write one half and keep the other: 0 none, 1 low, 2 high.
  unsigned d16 = 0;
};

/// The access size of a memory mnemonic from its suffix.
static Access getAccess(StringRef mnemonic) {
  Access access;
  StringRef m = mnemonic;
  if (m.consume_back("_d16_hi"))
    access.d16 = 2;
  else if (m.consume_back("_d16"))
    access.d16 = 1;
  if (m.ends_with("dwordx4") || m.ends_with("b128"))
    access.bytes = 16;
  else if (m.ends_with("dwordx3") || m.ends_with("b96"))
    access.bytes = 12;
  else if (m.ends_with("dwordx2") || m.ends_with("b64"))
    access.bytes = 8;
  else if (m.ends_with("dwordx8"))
    access.bytes = 32;
  else if (m.ends_with("dwordx16"))
    access.bytes = 64;
  else if (m.ends_with("short") || m.ends_with("b16") || m.ends_with("u16") ||
           m.ends_with("i16"))
    access.bytes = 2;
  else if (m.ends_with("byte") || m.ends_with("b8") || m.ends_with("u8") ||
           m.ends_with("i8"))
    access.bytes = 1;
  access.signExtend = m.ends_with("sbyte") || m.ends_with("sshort") ||
                      m.ends_with("i8") || m.ends_with("i16");
  return access;
}

/// Writes \p bytes loaded for \p lane to the registers of \p dst as
/// \p access says.
static void writeLoaded(Context &ctx, const Operand &dst, int lane,
                        const uint8_t *bytes, const Access &access) {
  unsigned base = Context::unified(dst);
  if (access.bytes >= 4) {
    for (unsigned w = 0; w < access.bytes / 4; ++w)
      std::memcpy(&ctx.w.v[(base + w) * kLanes + lane], bytes + 4 * w, 4);
    return;
  }
  uint32_t value = 0;
  std::memcpy(&value, bytes, access.bytes);
  unsigned bits = 8 * access.bytes;
  if (access.signExtend && (value >> (bits - 1)) & 1)
    value |= ~((1u << bits) - 1);
  uint32_t &reg = ctx.w.v[base * kLanes + lane];
  if (access.d16 == 1)
    reg = (reg & 0xffff0000) | (value & 0xffff);
  else if (access.d16 == 2)
    reg = (reg & 0xffff) | (value << 16);
  else
    reg = value;
}

/// The bytes a store writes for \p lane from the registers of \p data.
static void readStored(Context &ctx, const Operand &data, int lane,
                       uint8_t *bytes, const Access &access) {
  unsigned base = Context::unified(data);
  for (unsigned w = 0; w < (access.bytes + 3) / 4; ++w) {
    uint32_t value = ctx.w.v[(base + w) * kLanes + lane];
    if (access.d16 == 2)
      value >>= 16;
    std::memcpy(bytes + 4 * w, &value, std::min(4u, access.bytes - 4 * w));
  }
}

//===----------------------------------------------------------------------===//
// SMEM
//===----------------------------------------------------------------------===//

static Step scalarLoad(Context &ctx, const Instruction &inst) {
  const Operand &dst = inst.operands[0];
  bool buffer = StringRef(inst.mnemonic).starts_with("s_buffer");
  uint64_t base = ctx.scalar64(inst.operands[1]) & 0xffffffffffffULL;
  uint64_t offset =
      inst.operands.size() > 2 ? uint64_t(ctx.scalar32(inst.operands[2])) : 0;
  offset += uint64_t(inst.offset);
  unsigned bytes = 4 * dst.count;
  Pending &pending = ctx.addPending(Pending::Counter::LGKM, inst);
  pending.outOfOrder = true;
  for (unsigned w = 0; w < dst.count; ++w) {
    uint64_t at = offset + 4 * w;
    uint32_t value = 0;
    if (buffer &&
        at + 4 > ctx.scalar32(Operand{OperandKind::SGPR,
                                      uint16_t(inst.operands[1].reg + 2)})) {
      value = 0;
    } else if (const uint8_t *p =
                   ctx.memory.translate(base + (at & ~uint64_t(3)), 4, false)) {
      std::memcpy(&value, p, 4);
    } else {
      return ctx.fail(formatv("scalar load of {0} bytes at {1:x} (+{2}) "
                              "outside the launch's buffers: {3}",
                              bytes, base, at, ctx.memory.describe(base + at)));
    }
    ctx.w.s[dst.reg + w] = value;
  }
  ctx.markPending(pending, dst);
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// MUBUF
//===----------------------------------------------------------------------===//

namespace {
/// A buffer resource (V#): base, stride, num_records, and the bits that
/// make an access other than raw (swizzle_enable, add_tid_enable).
struct BufferResource {
  uint64_t base;
  uint32_t stride;
  uint32_t numRecords;
  bool swizzle, addTid;
};
} // namespace

static BufferResource readResource(const Context &ctx, const Operand &op) {
  const uint32_t *s = &ctx.w.s[op.reg];
  return {s[0] | uint64_t(s[1] & 0xffff) << 32, (s[1] >> 16) & 0x3fff, s[2],
          bool(s[1] >> 31), bool((s[3] >> 23) & 1)};
}

/// Whether an access through \p rsrc is to a raw buffer (CDNA4 ISA 9.1.5.1:
/// AddTID == 0, SwizzleEn == 0, IdxEn == 0), the only kind modelled. The
/// stride does not matter then: the index is 0 and the range check is on
/// the offset alone.
static bool isRaw(const Instruction &inst, const BufferResource &rsrc) {
  return !inst.idxen && !rsrc.swizzle && !rsrc.addTid;
}

/// buffer_load_* / buffer_store_* (raw buffers, offen or no VGPR offset).
template <bool isStore>
static Step bufferAccess(Context &ctx, const Instruction &inst) {
  Access access = getAccess(inst.mnemonic);
  bool toLDS = inst.lds;
  // Operands: [vdata,] vaddr|off, srsrc, soffset.
  unsigned first = toLDS ? 0 : 1;
  const Operand &vaddr = inst.operands[first];
  BufferResource rsrc = readResource(ctx, inst.operands[first + 1]);
  uint32_t soffset = ctx.scalar32(inst.operands[first + 2]);
  if (!isRaw(inst, rsrc))
    return ctx.fail("structured (indexed), swizzled or add-tid buffer "
                    "accesses are not modelled by the ISA executor");
  Pending &pending = ctx.addPending(Pending::Counter::VM, inst);
  uint8_t bytes[64];
  unsigned ldsStride = access.bytes >= 12 ? 16 : 4;
  uint32_t ldsBase = (ctx.w.m0 & 0x3ffff) + uint32_t(inst.offset);
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t offset =
        uint64_t(inst.offset) + (inst.offen ? ctx.src32(vaddr, lane) : 0);
    ctx.noteMemory(access.bytes);
    if (isStore)
      readStored(ctx, inst.operands[0], lane, bytes, access);
    for (unsigned b = 0; b < access.bytes; b += 4) {
      unsigned chunk = std::min(4u, access.bytes - b);
      bool inRange = offset + b + chunk <= rsrc.numRecords;
      uint64_t address = rsrc.base + soffset + offset + b;
      uint8_t *p =
          inRange ? ctx.memory.translate(address, chunk, isStore) : nullptr;
      if (inRange && !p)
        return ctx.fail(formatv("buffer {0} of {1} bytes at {2:x} in range "
                                "of its V# but outside the launch's "
                                "buffers: {3}",
                                isStore ? "store" : "load", chunk, address,
                                ctx.memory.describe(address)));
      if (isStore) {
        if (p)
          std::memcpy(p, bytes + b, chunk);
      } else if (p) {
        std::memcpy(bytes + b, p, chunk);
      } else {
        std::memset(bytes + b, 0, chunk);
      }
    }
    if (isStore)
      continue;
    if (!toLDS) {
      writeLoaded(ctx, inst.operands[0], lane, bytes, access);
      continue;
    }
    uint32_t at = ldsBase + uint32_t(lane) * ldsStride;
    if (ctx.checkLDSWrite(at, access.bytes, &pending, true, inst) == Step::Fail)
      return Step::Fail;
    std::memcpy(&ctx.wg.lds[at], bytes, access.bytes);
  }
  if (!isStore && !toLDS)
    ctx.markPending(pending, inst.operands[0]);
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// Atomics and cache control
//===----------------------------------------------------------------------===//

/// The lock every atomic (and cache writeback or invalidate) of the process
/// holds: workgroups run on several host threads.
static std::mutex &getAtomicsMutex() {
  static std::mutex mutex;
  return mutex;
}

namespace {
/// What a dword atomic leaves in memory from the old dword and the data.
using Combine = uint32_t (*)(uint32_t old, uint32_t data);
} // namespace

/// buffer_atomic_pk_add_bf16 (CDNA4 MUBUF opcode 82): each bf16 half of the
/// dword becomes MEM.half + DATA.half, rounded to nearest even (APFloat's
/// IEEE addition on bfloat16, denormals kept).
static uint32_t addPackedBF16(uint32_t old, uint32_t data) {
  auto add = [](uint16_t a, uint16_t b) {
    APFloat x(APFloat::BFloat(), APInt(16, a));
    x.add(APFloat(APFloat::BFloat(), APInt(16, b)),
          APFloat::rmNearestTiesToEven);
    return uint16_t(x.bitcastToAPInt().getZExtValue());
  };
  return add(uint16_t(old), uint16_t(data)) |
         uint32_t(add(uint16_t(old >> 16), uint16_t(data >> 16))) << 16;
}

/// buffer_atomic_<op> vdata, vaddr|off, srsrc, soffset [offen] [offset:N]
/// [sc0] (raw buffers): each active lane's dword at the buffer address
/// becomes combine(MEM, DATA); with sc0 the dword before the update returns
/// into vdata. A dword outside the V#'s num_records is not written and
/// returns 0, as for stores and loads.
template <Combine combine>
static Step bufferAtomic(Context &ctx, const Instruction &inst) {
  const Operand &vdata = inst.operands[0];
  BufferResource rsrc = readResource(ctx, inst.operands[2]);
  uint32_t soffset = ctx.scalar32(inst.operands[3]);
  if (!isRaw(inst, rsrc))
    return ctx.fail("structured (indexed), swizzled or add-tid buffer "
                    "accesses are not modelled by the ISA executor");
  Pending &pending = ctx.addPending(Pending::Counter::VM, inst);
  std::lock_guard<std::mutex> guard(getAtomicsMutex());
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t offset = uint64_t(inst.offset) +
                      (inst.offen ? ctx.src32(inst.operands[1], lane) : 0);
    uint32_t data = ctx.w.v[Context::unified(vdata) * kLanes + lane];
    ctx.noteMemory(4);
    uint32_t old = 0;
    if (offset + 4 <= rsrc.numRecords) {
      uint64_t address = rsrc.base + soffset + offset;
      uint8_t *p = ctx.memory.translate(address, 4, true);
      if (!p)
        return ctx.fail(formatv("buffer atomic of 4 bytes at {0:x} in range "
                                "of its V# but outside the launch's "
                                "buffers: {1}",
                                address, ctx.memory.describe(address)));
      std::memcpy(&old, p, 4);
      uint32_t updated = combine(old, data);
      std::memcpy(p, &updated, 4);
    }
    if (inst.sc0)
      ctx.w.v[Context::unified(vdata) * kLanes + lane] = old;
  }
  if (inst.sc0)
    ctx.markPending(pending, vdata);
  return Step::Next;
}

namespace {
/// A FLAT global access's address for `lane`: the 64-bit `vaddr`, or the
/// scalar base `saddr` plus the 32-bit `vaddr` (saddr not `off`), plus the
/// instruction's offset.
struct GlobalAddress {
  GlobalAddress(Context &ctx, const Instruction &inst, const Operand &vaddr,
                const Operand &saddr)
      : ctx(ctx), vaddr(vaddr), offset(uint64_t(inst.offset)),
        scalarBase(saddr.kind != OperandKind::Off),
        base(scalarBase ? ctx.scalar64(saddr) : 0) {}
  uint64_t operator()(int lane) const {
    return (scalarBase ? base + ctx.src32(vaddr, lane)
                       : ctx.src64(vaddr, lane)) +
           offset;
  }
  Context &ctx;
  const Operand &vaddr;
  uint64_t offset;
  bool scalarBase;
  uint64_t base;
};
} // namespace

/// global_atomic_<op> (FLAT global segment): with sc0 (glc: return the
/// pre-op value) `vdst, vaddr, vdata, saddr|off`, else `vaddr, vdata,
/// saddr|off`; [offset:N]. The address is the 64-bit vaddr, or saddr plus
/// the 32-bit vaddr; each active lane's dword becomes combine(MEM, DATA).
/// An address outside the launch's buffers is an error.
template <Combine combine>
static Step globalAtomic(Context &ctx, const Instruction &inst) {
  unsigned first = inst.sc0 ? 1 : 0;
  if (inst.operands.size() != first + 3)
    return ctx.fail(formatv("expected {0} operands ({1}vaddr, vdata, "
                            "saddr|off)",
                            first + 3, inst.sc0 ? "vdst, " : ""));
  const Operand &vdata = inst.operands[first + 1];
  GlobalAddress addressOf(ctx, inst, inst.operands[first],
                          inst.operands[first + 2]);
  Pending &pending = ctx.addPending(Pending::Counter::VM, inst);
  std::lock_guard<std::mutex> guard(getAtomicsMutex());
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t address = addressOf(lane);
    ctx.noteMemory(4);
    uint8_t *p = ctx.memory.translate(address, 4, true);
    if (!p)
      return ctx.fail(formatv("lane {0} atomic of 4 bytes at {1:x} outside "
                              "the launch's buffers: {2}",
                              lane, address, ctx.memory.describe(address)));
    uint32_t old;
    std::memcpy(&old, p, 4);
    uint32_t updated = combine(old, ctx.src32(vdata, lane));
    std::memcpy(p, &updated, 4);
    // The lane's operands are read: vdst may overlap them (LLVM's
    // `global_atomic_add v2, v2, v3, s[14:15] sc0`).
    if (inst.sc0)
      ctx.setV32(inst.operands[0], lane, old);
  }
  if (inst.sc0)
    ctx.markPending(pending, inst.operands[0]);
  return Step::Next;
}

/// buffer_wbl2 and buffer_inv (see the file header): counted on vmcnt, no
/// data changed, the atomics' lock taken and released.
static Step cacheControl(Context &ctx, const Instruction &inst) {
  if (!inst.operands.empty())
    return ctx.fail("expected no operands");
  ctx.addPending(Pending::Counter::VM, inst);
  std::lock_guard<std::mutex> guard(getAtomicsMutex());
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// FLAT global
//===----------------------------------------------------------------------===//

template <bool isStore>
static Step globalAccess(Context &ctx, const Instruction &inst) {
  Access access = getAccess(inst.mnemonic);
  // Loads: vdst, vaddr, saddr|off. Stores: vaddr, vdata, saddr|off.
  const Operand &data = inst.operands[isStore ? 1 : 0];
  GlobalAddress addressOf(ctx, inst, inst.operands[isStore ? 0 : 1],
                          inst.operands[2]);
  Pending &pending = ctx.addPending(Pending::Counter::VM, inst);
  uint8_t bytes[64];
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t address = addressOf(lane);
    ctx.noteMemory(access.bytes);
    uint8_t *p = ctx.memory.translate(address, access.bytes, isStore);
    if (!p)
      return ctx.fail(formatv("lane {0} {1} {2} bytes at {3:x} outside the "
                              "launch's buffers: {4}",
                              lane, isStore ? "stores" : "loads", access.bytes,
                              address, ctx.memory.describe(address)));
    if (isStore) {
      readStored(ctx, data, lane, bytes, access);
      std::memcpy(p, bytes, access.bytes);
    } else {
      writeLoaded(ctx, data, lane, p, access);
    }
  }
  if (!isStore)
    ctx.markPending(pending, data);
  return Step::Next;
}

//===----------------------------------------------------------------------===//
// DS (LDS)
//===----------------------------------------------------------------------===//

/// The LDS address of access \p k of a DS instruction at \p address: the
/// byte offset, or for the two-access forms offset0/offset1 in units of
/// \p unit bytes (the access size, times 64 for the st64 forms).
static uint32_t ldsAddress(const Instruction &inst, uint32_t address, bool two,
                           unsigned k, unsigned unit) {
  if (!two)
    return address + uint32_t(inst.offset);
  return address + uint32_t((k ? inst.offset1 : inst.offset0) * unit);
}

/// ds_read* / ds_read2*: one or two accesses per lane.
template <unsigned strideScale>
static Step ldsRead(Context &ctx, const Instruction &inst) {
  Access access = getAccess(inst.mnemonic);
  bool two = StringRef(inst.mnemonic).starts_with("ds_read2");
  const Operand &dst = inst.operands[0];
  const Operand &vaddr = inst.operands[1];
  Pending &pending = ctx.addPending(Pending::Counter::LGKM, inst);
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint32_t address = ctx.src32(vaddr, lane);
    uint8_t bytes[32];
    for (unsigned k = 0; k < (two ? 2u : 1u); ++k) {
      uint32_t at =
          ldsAddress(inst, address, two, k, access.bytes * strideScale);
      if (ctx.checkLDSRead(at, access.bytes, inst, &pending) == Step::Fail)
        return Step::Fail;
      ctx.noteLDS(lane, k, at, access.bytes);
      std::memcpy(bytes + k * access.bytes, &ctx.wg.lds[at], access.bytes);
    }
    Access whole = access;
    whole.bytes *= two ? 2 : 1;
    writeLoaded(ctx, dst, lane, bytes, whole);
  }
  ctx.markPending(pending, dst);
  return Step::Next;
}

/// ds_write* / ds_write2*: vaddr, data (, data1).
template <unsigned strideScale>
static Step ldsWrite(Context &ctx, const Instruction &inst) {
  Access access = getAccess(inst.mnemonic);
  bool two = StringRef(inst.mnemonic).starts_with("ds_write2");
  const Operand &vaddr = inst.operands[0];
  Pending &pending = ctx.addPending(Pending::Counter::LGKM, inst);
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint32_t address = ctx.src32(vaddr, lane);
    for (unsigned k = 0; k < (two ? 2u : 1u); ++k) {
      uint32_t at =
          ldsAddress(inst, address, two, k, access.bytes * strideScale);
      uint8_t bytes[16];
      readStored(ctx, inst.operands[1 + k], lane, bytes, access);
      if (ctx.checkLDSWrite(at, access.bytes, &pending, false, inst) ==
          Step::Fail)
        return Step::Fail;
      ctx.noteLDS(lane, k, at, access.bytes);
      std::memcpy(&ctx.wg.lds[at], bytes, access.bytes);
    }
  }
  return Step::Next;
}

/// Registers buffer_atomic_<name> and global_atomic_<name>.
template <Combine combine>
static void addDwordAtomic(OpTable &t, const std::string &name) {
  t["buffer_atomic_" + name] = {bufferAtomic<combine>, 0};
  t["global_atomic_" + name] = {globalAtomic<combine>, 0};
}

/// The dword atomics of the CDNA4 ISA's MUBUF and FLAT global opcodes (not
/// the _x2 forms, cmpswap, inc, dec or the float ones).
static void addDwordAtomics(OpTable &t) {
  addDwordAtomic<[](uint32_t m, uint32_t d) { return m + d; }>(t, "add");
  addDwordAtomic<[](uint32_t m, uint32_t d) { return m - d; }>(t, "sub");
  addDwordAtomic<[](uint32_t, uint32_t d) { return d; }>(t, "swap");
  addDwordAtomic<[](uint32_t m, uint32_t d) {
    return int32_t(d) < int32_t(m) ? d : m;
  }>(t, "smin");
  addDwordAtomic<[](uint32_t m, uint32_t d) { return std::min(m, d); }>(t,
                                                                        "umin");
  addDwordAtomic<[](uint32_t m, uint32_t d) {
    return int32_t(d) > int32_t(m) ? d : m;
  }>(t, "smax");
  addDwordAtomic<[](uint32_t m, uint32_t d) { return std::max(m, d); }>(t,
                                                                        "umax");
  addDwordAtomic<[](uint32_t m, uint32_t d) { return m & d; }>(t, "and");
  addDwordAtomic<[](uint32_t m, uint32_t d) { return m | d; }>(t, "or");
  addDwordAtomic<[](uint32_t m, uint32_t d) { return m ^ d; }>(t, "xor");
}

void mlir::mx::gfx950::isa::detail::addMemoryOps(OpTable &t) {
  for (const char *size :
       {"dword", "dwordx2", "dwordx4", "dwordx8", "dwordx16"}) {
    t[std::string("s_load_") + size] = {scalarLoad};
    t[std::string("s_buffer_load_") + size] = {scalarLoad};
  }
  for (const char *size :
       {"dword", "dwordx2", "dwordx3", "dwordx4", "ubyte", "sbyte", "ushort",
        "sshort", "ubyte_d16", "ubyte_d16_hi", "sbyte_d16", "sbyte_d16_hi",
        "short_d16", "short_d16_hi"}) {
    t[std::string("buffer_load_") + size] = {bufferAccess<false>};
    t[std::string("global_load_") + size] = {globalAccess<false>};
  }
  for (const char *size : {"dword", "dwordx2", "dwordx3", "dwordx4", "byte",
                           "short", "byte_d16_hi", "short_d16_hi"}) {
    t[std::string("buffer_store_") + size] = {bufferAccess<true>, 0};
    t[std::string("global_store_") + size] = {globalAccess<true>, 0};
  }
  // Atomics write their first operand only with sc0 (returning): the table
  // says none, and the handlers mark a returned value pending.
  t["buffer_atomic_pk_add_bf16"] = {bufferAtomic<addPackedBF16>, 0};
  addDwordAtomics(t);
  t["buffer_wbl2"] = {cacheControl, 0};
  t["buffer_inv"] = {cacheControl, 0};
  for (const char *size :
       {"b32", "b64", "b96", "b128", "u8", "i8", "u16", "i16", "u8_d16",
        "u8_d16_hi", "i8_d16", "i8_d16_hi", "u16_d16", "u16_d16_hi"})
    t[std::string("ds_read_") + size] = {ldsRead<1>};
  t["ds_read2_b32"] = {ldsRead<1>};
  t["ds_read2_b64"] = {ldsRead<1>};
  t["ds_read2st64_b32"] = {ldsRead<64>};
  t["ds_read2st64_b64"] = {ldsRead<64>};
  for (const char *size :
       {"b8", "b16", "b32", "b64", "b96", "b128", "b8_d16_hi", "b16_d16_hi"})
    t[std::string("ds_write_") + size] = {ldsWrite<1>, 0};
  t["ds_write2_b32"] = {ldsWrite<1>, 0};
  t["ds_write2_b64"] = {ldsWrite<1>, 0};
  t["ds_write2st64_b32"] = {ldsWrite<64>, 0};
  t["ds_write2st64_b64"] = {ldsWrite<64>, 0};
}
