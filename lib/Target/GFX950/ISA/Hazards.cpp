//===- Hazards.cpp - gfx950 wait-state (hazard) checker -------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each instruction is classified once (cached by pc): its classes, the
// register ranges it writes, the ranges it reads with their roles (srcA,
// srcC, lane select, carry-in, ...) and, for an MFMA, its number of passes.
// The checker keeps a ring of the last issued instructions with the wait
// state at which each finished issuing; a new instruction is checked against
// every rule of HazardTable.def whose producer class matches a ring entry
// still within the longest wait of the table and whose consumer class matches
// the new instruction.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/ISA/Hazards.h"
#include "mx/Target/GFX950/ISA/MFMAPasses.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;

namespace {

/// Instruction classes of HazardTable.def (bit masks).
namespace Cls {
enum : uint32_t {
  Valu = 1u << 0,  ///< Vector ALU other than MFMA (v_accvgpr_* included).
  Xdl = 1u << 1,   ///< MFMA executed by the XDL pipe.
  Smfma = 1u << 2, ///< MFMA with f32 inputs (not XDL).
  Mfma = Xdl | Smfma,
  Trans = 1u << 3,
  NonTransValu = 1u << 4,
  Vmem = 1u << 5, ///< buffer_/global_/flat_/scratch_, LDS DMA included.
  Lds = 1u << 6,  ///< ds_*.
  LdsDma = 1u << 7,
  Salu = 1u << 8,
  Smem = 1u << 9,
  Readlane = 1u << 10,
  Readfirstlane = 1u << 11,
  Writelane = 1u << 12,
  DivFmas = 1u << 13,
  Dpp = 1u << 14,
  Permlane = 1u << 15,
  Vcmpx = 1u << 16,
  PartialWrite = 1u << 17,
  WideStore = 1u << 18,
  Setreg = 1u << 19,
  Getreg = 1u << 20,
};
} // namespace Cls

/// How a consumer depends on a producer (see HazardTable.def).
enum class Rel : uint8_t {
  VecRead,
  VecWAW,
  MfmaSrcAB,
  MfmaSrcCOverlap,
  SrcCWAR,
  SgprRead,
  SgprConst,
  VccConst,
  LaneSelect,
  ReadlaneSrc,
  ExecWrite,
  ExecExplicitRead,
  VccImplicit,
  M0Read,
  StoreDataWAR,
  SameHwreg,
};

enum class Formula : uint8_t { Const, Passes, PassesGfx950 };

struct RuleRow {
  const char *id, *source, *summary;
  uint32_t producer, consumer;
  Rel rel;
  Formula formula;
  int k;
};

#define HAZARD_RULE(Name, Id, Producer, Consumer, Relation, Form, K, Source,   \
                    Summary)                                                   \
  {Id, Source, Summary, (Producer), (Consumer), Relation, Formula::Form, K},
constexpr RuleRow kRules[] = {
#include "HazardTable.def"
};
constexpr size_t kNumRules = std::size(kRules);
static_assert(kNumRules <= 64, "rule masks are 64-bit");

/// The most passes an MFMA takes (32x32 8-bit scaled MFMA, f32 SMFMA).
constexpr int kMaxPasses = 16;

constexpr int requiredFor(const RuleRow &rule, int passes) {
  switch (rule.formula) {
  case Formula::Const:
    return rule.k;
  case Formula::Passes:
    return passes + rule.k;
  case Formula::PassesGfx950:
    return passes + rule.k + (passes != 2 ? 1 : 0);
  }
  return 0;
}
// The XDL-write rows use the formula mx-gfx950-pad-xdl-wait-states pads
// to (getXDLWriteWaitStates).
static_assert(requiredFor(RuleRow{nullptr, nullptr, nullptr, 0, 0, Rel{},
                                  Formula::PassesGfx950,
                                  kXDLWriteExtraWaitStates},
                          16) == getXDLWriteWaitStates(16) &&
              getXDLWriteWaitStates(16) == 20);

constexpr int computeMaxWait() {
  int most = 0;
  for (const RuleRow &rule : kRules)
    most = std::max(most, requiredFor(rule, kMaxPasses));
  return most;
}
/// No rule needs more wait states than this: older history is irrelevant.
constexpr int kMaxWait = computeMaxWait();

/// Register files as the checker tracks them.
enum class File : uint8_t { V, A, S, Vcc, Exec, M0 };

struct Range {
  File file;
  uint16_t first, count;
  bool overlaps(const Range &o) const {
    return file == o.file && first < o.first + o.count &&
           o.first < first + count;
  }
  bool covers(const Range &o) const {
    return file == o.file && first <= o.first &&
           o.first + o.count <= first + count;
  }
  bool operator==(const Range &o) const {
    return file == o.file && first == o.first && count == o.count;
  }
  bool isVector() const { return file == File::V || file == File::A; }
};

/// What a read operand is to its instruction.
enum class Role : uint8_t {
  Src,
  SrcA,
  SrcB,
  SrcC,
  Scale,
  LaneSel,
  ReadlaneSrc,
  Carry, ///< Carry-in or lane mask (v_addc, v_subb, v_cndmask).
  Addr,
  Data,
};

struct Read {
  Range range;
  Role role;
};

/// One instruction, classified once.
struct Info {
  const Instruction *inst = nullptr;
  uint32_t cls = 0;
  int passes = 0;
  unsigned waitStates = 1;
  SmallVector<Range, 3> writes;
  SmallVector<Read, 6> reads;
  std::optional<Range> storeData;
  std::string hwreg;
  bool readsVcc = false, readsM0 = false;
  uint64_t producerRules = 0, consumerRules = 0;

  bool writesFile(File file) const {
    return llvm::any_of(writes, [&](const Range &r) { return r.file == file; });
  }
};

std::optional<Range> toRange(const Operand &op) {
  switch (op.kind) {
  case OperandKind::SGPR:
    return Range{File::S, op.reg, op.count};
  case OperandKind::VGPR:
    return Range{File::V, op.reg, op.count};
  case OperandKind::AGPR:
    return Range{File::A, op.reg, op.count};
  case OperandKind::VCC:
    return Range{File::Vcc, op.reg, op.count};
  case OperandKind::Exec:
    return Range{File::Exec, op.reg, op.count};
  case OperandKind::M0:
    return Range{File::M0, 0, 1};
  default:
    return std::nullopt;
  }
}

/// The mnemonic without its encoding suffix (_e32, _e64, _sdwa, _dpp).
StringRef baseMnemonic(StringRef mnemonic) {
  for (StringRef suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (mnemonic.consume_back(suffix))
      break;
  return mnemonic;
}

bool isTrans(StringRef base) {
  static constexpr StringLiteral kTrans[] = {
      "v_exp_f32",  "v_log_f32",  "v_rcp_f32",        "v_rcp_iflag_f32",
      "v_rsq_f32",  "v_sqrt_f32", "v_sin_f32",        "v_cos_f32",
      "v_exp_f16",  "v_log_f16",  "v_rcp_f16",        "v_rsq_f16",
      "v_sqrt_f16", "v_sin_f16",  "v_cos_f16",        "v_rcp_f64",
      "v_rsq_f64",  "v_sqrt_f64", "v_exp_legacy_f32", "v_log_legacy_f32"};
  return llvm::is_contained(kTrans, base);
}

/// The number of passes of an MFMA and whether it runs on the XDL pipe
/// (getMFMAPasses; see HazardTable.def for where the numbers come from).
Expected<std::pair<int, bool>> mfmaPasses(const Instruction &inst) {
  StringRef why;
  if (std::optional<std::pair<int, bool>> passes = getMFMAPasses(
          baseMnemonic(inst.mnemonic), inst.cbsz, inst.blgp, &why))
    return *passes;
  return createStringError(inconvertibleErrorCode(),
                           "hazard checker: no pass count for '" + inst.text +
                               "': " + why);
}

/// Appends the register operands of `inst` from index `from` as reads.
void addReads(Info &info, const Instruction &inst, size_t from, Role role) {
  for (size_t i = from; i < inst.operands.size(); ++i)
    if (std::optional<Range> r = toRange(inst.operands[i]))
      info.reads.push_back({*r, role});
}

Error classifyMfma(Info &info, const Instruction &inst) {
  Expected<std::pair<int, bool>> passes = mfmaPasses(inst);
  if (!passes)
    return passes.takeError();
  info.passes = passes->first;
  info.cls |= passes->second ? Cls::Xdl : Cls::Smfma;
  static constexpr Role kRoles[] = {Role::SrcA, Role::SrcB, Role::SrcC,
                                    Role::Scale, Role::Scale};
  for (auto [i, op] : llvm::enumerate(inst.operands)) {
    std::optional<Range> r = toRange(op);
    if (!r)
      continue;
    if (i == 0)
      info.writes.push_back(*r);
    else
      info.reads.push_back({*r, i <= 5 ? kRoles[i - 1] : Role::Src});
  }
  return Error::success();
}

void classifyValu(Info &info, const Instruction &inst) {
  StringRef mnemonic = inst.mnemonic;
  StringRef base = baseMnemonic(mnemonic);
  info.cls |= Cls::Valu;
  info.cls |= isTrans(base) ? Cls::Trans : Cls::NonTransValu;
  if (mnemonic.ends_with("_dpp"))
    info.cls |= Cls::Dpp;
  if (base.starts_with("v_permlane"))
    info.cls |= Cls::Permlane;
  if (base.starts_with("v_div_fmas")) {
    info.cls |= Cls::DivFmas;
    info.readsVcc = true;
  }
  if (base.starts_with("v_cmpx_")) {
    info.cls |= Cls::Vcmpx;
    info.writes.push_back({File::Exec, 0, 2});
  }
  bool readlane = base == "v_readlane_b32",
       writelane = base == "v_writelane_b32";
  if (readlane)
    info.cls |= Cls::Readlane;
  if (base == "v_readfirstlane_b32")
    info.cls |= Cls::Readfirstlane | Cls::Readlane;
  if (writelane)
    info.cls |= Cls::Writelane;
  bool carryOut = StringSwitch<bool>(base)
                      .StartsWith("v_add_co_", true)
                      .StartsWith("v_sub_co_", true)
                      .StartsWith("v_subrev_co_", true)
                      .StartsWith("v_addc_co_", true)
                      .StartsWith("v_subb_co_", true)
                      .StartsWith("v_subbrev_co_", true)
                      .StartsWith("v_div_scale_", true)
                      .StartsWith("v_mad_u64_u32", true)
                      .StartsWith("v_mad_i64_i32", true)
                      .Default(false);
  bool carryIn =
      base.starts_with("v_addc_co_") || base.starts_with("v_subb_co_") ||
      base.starts_with("v_subbrev_co_") || base.starts_with("v_cndmask_");
  // v_swap_b32, v_permlane*_swap exchange their two VGPR operands: both are
  // read and written.
  bool swap = (base.starts_with("v_permlane") && base.contains("_swap")) ||
              base == "v_swap_b32";
  size_t numDsts = base == "v_nop" ? 0 : (carryOut || swap ? 2 : 1);
  size_t numOps = inst.operands.size();
  for (size_t i = 0; i < numOps; ++i) {
    std::optional<Range> r = toRange(inst.operands[i]);
    if (!r)
      continue;
    if (i < numDsts) {
      info.writes.push_back(*r);
      if (swap)
        info.reads.push_back({*r, Role::Src});
      continue;
    }
    Role role = Role::Src;
    if ((readlane || base == "v_readfirstlane_b32") && i == 1)
      role = Role::ReadlaneSrc;
    else if ((readlane || writelane) && i == 2)
      role = Role::LaneSel;
    else if (carryIn && i + 1 == numOps && !r->isVector())
      role = Role::Carry;
    info.reads.push_back({*r, role});
  }
  bool vectorDst = !info.writes.empty() && info.writes.front().isVector();
  bool sdwaPartial =
      mnemonic.ends_with("_sdwa") && inst.dstSel != SDWASel::Dword;
  bool cvtScalePartial =
      base.starts_with("v_cvt_scalef32") && (inst.opSel & 8u) != 0;
  if (vectorDst && (sdwaPartial || cvtScalePartial))
    info.cls |= Cls::PartialWrite;
}

/// Whether a ds_* instruction returns a value in its first operand.
bool dsHasDst(StringRef m) {
  return m.starts_with("ds_read") || m.starts_with("ds_load") ||
         m.contains("_rtn_") || m.starts_with("ds_permute") ||
         m.starts_with("ds_bpermute") || m.starts_with("ds_swizzle") ||
         m.starts_with("ds_append") || m.starts_with("ds_consume");
}

void classifyMemory(Info &info, const Instruction &inst) {
  StringRef m = inst.mnemonic;
  const auto &ops = inst.operands;
  if (m.starts_with("ds_")) {
    info.cls |= Cls::Lds;
    bool dst = dsHasDst(m);
    bool store = m.starts_with("ds_write") || m.starts_with("ds_store");
    for (auto [i, op] : llvm::enumerate(ops))
      if (std::optional<Range> r = toRange(op)) {
        if (i == 0 && dst)
          info.writes.push_back(*r);
        else
          info.reads.push_back({*r, store && i > 0 ? Role::Data : Role::Addr});
      }
    return;
  }
  info.cls |= Cls::Vmem;
  bool buffer = m.starts_with("buffer_");
  if (inst.lds || m.contains("_load_lds") || m.starts_with("global_load_lds")) {
    info.cls |= Cls::LdsDma;
    info.readsM0 = true;
    addReads(info, inst, 0, Role::Addr);
    return;
  }
  bool atomic = m.contains("_atomic");
  bool load = m.contains("_load") || (atomic && inst.sc0);
  bool store = m.contains("_store") || atomic;
  // Data: the first operand of buffer stores/atomics, the second of
  // global/flat/scratch stores; the destination comes first in loads.
  size_t dataIdx = buffer ? 0 : (load && atomic ? 2 : 1);
  for (auto [i, op] : llvm::enumerate(ops)) {
    std::optional<Range> r = toRange(op);
    if (!r)
      continue;
    if (i == 0 && load)
      info.writes.push_back(*r);
    if (i == 0 && load && !(buffer && atomic))
      continue;
    bool data = store && i == dataIdx;
    info.reads.push_back({*r, data ? Role::Data : Role::Addr});
    if (data && !load && r->isVector() && r->count > 2) {
      bool sgprSoffset =
          buffer && ops.size() > 3 && ops[3].kind == OperandKind::SGPR;
      if (!sgprSoffset) {
        info.cls |= Cls::WideStore;
        info.storeData = *r;
      }
    }
  }
}

/// The hardware register named by `hwreg(NAME, ...)` in \p text.
std::string hwregName(StringRef text) {
  size_t at = text.find("hwreg(");
  if (at == StringRef::npos)
    return "";
  StringRef rest = text.drop_front(at + 6);
  return rest.take_until([](char c) { return c == ',' || c == ')'; })
      .trim()
      .str();
}

void classifyScalar(Info &info, const Instruction &inst) {
  StringRef m = inst.mnemonic;
  if (m == "s_nop") {
    unsigned n;
    StringRef arg = StringRef(inst.text).drop_front(5).trim();
    info.waitStates = (arg.getAsInteger(0, n) ? unsigned(inst.simm16) : n) + 1;
    return;
  }
  bool smem = m.starts_with("s_load") || m.starts_with("s_buffer_load") ||
              m.starts_with("s_store") || m.starts_with("s_buffer_store") ||
              m.starts_with("s_scratch") || m.starts_with("s_dcache") ||
              m.starts_with("s_memtime") || m.starts_with("s_memrealtime");
  bool noDst = m.starts_with("s_cmp") || m.starts_with("s_bitcmp") ||
               m.starts_with("s_setreg") || m.starts_with("s_store") ||
               m.starts_with("s_buffer_store") || m.starts_with("s_dcache") ||
               m.starts_with("s_waitcnt") || m.starts_with("s_barrier") ||
               m.starts_with("s_sendmsg") || m.starts_with("s_set_gpr_idx");
  info.cls |= smem ? Cls::Smem : Cls::Salu;
  if (m.starts_with("s_setreg")) {
    info.cls |= Cls::Setreg;
    info.hwreg = hwregName(inst.text);
  }
  if (m.starts_with("s_getreg")) {
    info.cls |= Cls::Getreg;
    info.hwreg = hwregName(inst.text);
  }
  if (m.contains("saveexec") || m.contains("wrexec"))
    info.writes.push_back({File::Exec, 0, 2});
  for (auto [i, op] : llvm::enumerate(inst.operands))
    if (std::optional<Range> r = toRange(op)) {
      if (i == 0 && !noDst)
        info.writes.push_back(*r);
      else
        info.reads.push_back({*r, Role::Src});
    }
}

Expected<std::unique_ptr<Info>> classify(const Instruction &inst) {
  auto info = std::make_unique<Info>();
  info->inst = &inst;
  StringRef m = inst.mnemonic;
  if ((m.starts_with("v_mfma") && !m.starts_with("v_mfma_ld_scale")) ||
      m.starts_with("v_smfmac")) {
    if (Error err = classifyMfma(*info, inst))
      return std::move(err);
  } else if (m.starts_with("v_")) {
    classifyValu(*info, inst);
  } else if (m.starts_with("ds_") || m.starts_with("buffer_") ||
             m.starts_with("global_") || m.starts_with("flat_") ||
             m.starts_with("scratch_")) {
    classifyMemory(*info, inst);
  } else if (m.starts_with("s_")) {
    classifyScalar(*info, inst);
  }
  for (auto [i, rule] : llvm::enumerate(kRules)) {
    if (info->cls & rule.producer)
      info->producerRules |= uint64_t(1) << i;
    if (info->cls & rule.consumer)
      info->consumerRules |= uint64_t(1) << i;
  }
  return std::move(info);
}

/// Consumer operands whose nearest writer has been seen already (bit i: the
/// consumer's read/write i); older producers do not reach them.
struct Claims {
  uint32_t reads = 0, writes = 0;
};

bool anyWriteOverlaps(const Info &p, const Range &r, bool vectorOnly) {
  return llvm::any_of(p.writes, [&](const Range &w) {
    return (!vectorOnly || w.isVector()) && w.overlaps(r);
  });
}

/// Whether a read of the consumer with a role accepted by \p accept overlaps
/// a register the producer wrote.
template <typename Accept>
bool readsWritten(const Info &p, const Info &c, const Claims &claims,
                  Accept accept) {
  for (auto [i, read] : llvm::enumerate(c.reads))
    if (!(claims.reads >> i & 1) && accept(read) &&
        anyWriteOverlaps(p, read.range, false))
      return true;
  return false;
}

bool relationHolds(Rel rel, const Info &p, const Info &c,
                   const Claims &claims) {
  auto file = [](File f) {
    return [f](const Read &read) { return read.range.file == f; };
  };
  auto role = [](Role r, File f) {
    return [r, f](const Read &read) {
      return read.role == r && read.range.file == f;
    };
  };
  auto vector = [](const Read &read) { return read.range.isVector(); };
  switch (rel) {
  case Rel::VecRead:
    return readsWritten(p, c, claims, vector);
  case Rel::MfmaSrcAB:
    return readsWritten(p, c, claims, [](const Read &read) {
      return read.role == Role::SrcA || read.role == Role::SrcB ||
             read.role == Role::Scale;
    });
  case Rel::MfmaSrcCOverlap:
    // A srcC a later MFMA rewrote whole depends on that one only (LLVM's
    // getWaitStatesSinceDef finds the nearest overlapping definition).
    if (p.writes.empty())
      return false;
    for (auto [i, read] : llvm::enumerate(c.reads))
      if (!(claims.reads >> i & 1) && read.role == Role::SrcC &&
          read.range.overlaps(p.writes.front()) &&
          !(read.range == p.writes.front()))
        return true;
    return false;
  case Rel::VecWAW:
    for (auto [i, w] : llvm::enumerate(c.writes))
      if (!(claims.writes >> i & 1) && w.isVector() &&
          anyWriteOverlaps(p, w, true))
        return true;
    return false;
  case Rel::SrcCWAR:
    return llvm::any_of(c.writes, [&](const Range &w) {
      return llvm::any_of(p.reads, [&](const Read &read) {
        return read.role == Role::SrcC && read.range.overlaps(w);
      });
    });
  case Rel::SgprRead:
    return readsWritten(p, c, claims, [](const Read &read) {
      return read.range.file == File::S || read.range.file == File::Vcc;
    });
  case Rel::SgprConst:
    return readsWritten(p, c, claims, role(Role::Src, File::S));
  case Rel::VccConst:
    return readsWritten(p, c, claims, role(Role::Src, File::Vcc));
  case Rel::LaneSelect:
    return readsWritten(p, c, claims, [](const Read &read) {
      return read.role == Role::LaneSel;
    });
  case Rel::ReadlaneSrc:
    return readsWritten(p, c, claims, [](const Read &read) {
      return read.role == Role::ReadlaneSrc;
    });
  case Rel::ExecWrite:
    return p.writesFile(File::Exec);
  case Rel::ExecExplicitRead:
    return p.writesFile(File::Exec) && llvm::any_of(c.reads, file(File::Exec));
  case Rel::VccImplicit:
    return p.writesFile(File::Vcc) && c.readsVcc;
  case Rel::M0Read:
    return p.writesFile(File::M0) && c.readsM0;
  case Rel::StoreDataWAR:
    return p.storeData && llvm::any_of(c.writes, [&](const Range &w) {
             return w.overlaps(*p.storeData);
           });
  case Rel::SameHwreg:
    return !p.hwreg.empty() && p.hwreg == c.hwreg;
  }
  return false;
}

/// Marks the consumer operands a producer fully rewrote.
void claim(const Info &p, const Info &c, Claims &claims) {
  auto covered = [&](const Range &r) {
    return llvm::any_of(p.writes, [&](const Range &w) { return w.covers(r); });
  };
  for (auto [i, read] : llvm::enumerate(c.reads))
    if (i < 32 && covered(read.range))
      claims.reads |= 1u << i;
  for (auto [i, w] : llvm::enumerate(c.writes))
    if (i < 32 && covered(w))
      claims.writes |= 1u << i;
}

Error hazardError(const RuleRow &rule, const Info &p, const Info &c,
                  int required, int present) {
  return createStringError(
      inconvertibleErrorCode(),
      formatv("wait-state hazard: rule {0} ({1}; source: {2}): producer pc "
              "{3:x} '{4}', consumer pc {5:x} '{6}': {7} wait states "
              "required, {8} present",
              rule.id, rule.summary, rule.source, p.inst->pc, p.inst->text,
              c.inst->pc, c.inst->text, required, present)
          .str());
}

} // namespace

struct HazardChecker::Impl {
  struct Entry {
    const Info *info;
    uint64_t end; ///< The wait state after the producer's own.
  };
  static constexpr size_t kRing = 32;
  static_assert(kRing > size_t(kMaxWait), "the ring must cover the window");
  std::array<Entry, kRing> ring;
  size_t head = 0, size = 0;
  uint64_t clock = 0;
  DenseMap<uint64_t, std::unique_ptr<Info>> cache;

  Expected<const Info *> lookup(const Instruction &inst) {
    std::unique_ptr<Info> &slot = cache[inst.pc];
    if (!slot || slot->inst != &inst ||
        slot->inst->mnemonic.size() != inst.mnemonic.size()) {
      Expected<std::unique_ptr<Info>> info = classify(inst);
      if (!info)
        return info.takeError();
      slot = std::move(*info);
    }
    return slot.get();
  }

  Error check(const Info &c) {
    Claims claims;
    for (size_t n = 0; n < size; ++n) {
      const Entry &e = ring[(head + kRing - 1 - n) % kRing];
      int present = int(clock - e.end);
      if (present >= kMaxWait)
        break;
      uint64_t rules = e.info->producerRules & c.consumerRules;
      while (rules) {
        unsigned i = llvm::countr_zero(rules);
        rules &= rules - 1;
        const RuleRow &rule = kRules[i];
        int required = requiredFor(rule, e.info->passes);
        if (present < required && relationHolds(rule.rel, *e.info, c, claims))
          return hazardError(rule, *e.info, c, required, present);
      }
      // A register this producer rewrote fully hides older writers of it.
      claim(*e.info, c, claims);
    }
    return Error::success();
  }
};

HazardChecker::HazardChecker() : impl(std::make_unique<Impl>()) {}
HazardChecker::~HazardChecker() = default;

Error HazardChecker::issue(const Instruction &inst) {
  Expected<const Info *> info = impl->lookup(inst);
  if (!info)
    return info.takeError();
  if (Error err = impl->check(**info))
    return err;
  impl->clock += (*info)->waitStates;
  impl->ring[impl->head] = {*info, impl->clock};
  impl->head = (impl->head + 1) % Impl::kRing;
  impl->size = std::min(impl->size + 1, Impl::kRing);
  return Error::success();
}

void HazardChecker::reset() {
  impl->size = 0;
  impl->clock = 0;
}

ArrayRef<HazardRule> mlir::mx::gfx950::isa::getHazardRules() {
  static const auto rules = [] {
    std::array<HazardRule, kNumRules> out;
    for (auto [i, rule] : llvm::enumerate(kRules))
      out[i] = {rule.id, rule.source, rule.summary};
    return out;
  }();
  return rules;
}
