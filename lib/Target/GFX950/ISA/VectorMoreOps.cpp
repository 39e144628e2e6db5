//===- VectorMoreOps.cpp - VALU semantics: compares, carries, 64-bit ------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// VOPC compares (a bit per lane into VCC or an SGPR pair; inactive lanes
// write 0), carry-in/out adds, v_cndmask, 64-bit lanes, packed (VOP3P)
// ops, conversions, the f32 division helpers and lane moves, as the CDNA4
// ISA's chapter 6 defines them.
//
//===----------------------------------------------------------------------===//

#include "VectorOpsImpl.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <limits>

using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

float mlir::mx::gfx950::isa::detail::halfToF32(uint16_t bits) {
  llvm::APFloat h(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  bool lost;
  h.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return h.convertToFloat();
}

static uint16_t convertTo(const llvm::fltSemantics &semantics, float value) {
  llvm::APFloat f(value);
  bool lost;
  f.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  return uint16_t(f.bitcastToAPInt().getZExtValue());
}

uint16_t mlir::mx::gfx950::isa::detail::f32ToHalf(float value) {
  return convertTo(llvm::APFloat::IEEEhalf(), value);
}

uint16_t mlir::mx::gfx950::isa::detail::f32ToBF16(float value) {
  return convertTo(llvm::APFloat::BFloat(), value);
}

//===----------------------------------------------------------------------===//
// Compares
//===----------------------------------------------------------------------===//

namespace {
enum class Cond {
  F,
  LT,
  EQ,
  LE,
  GT,
  NE,
  GE,
  T,
  O,
  U,
  NGE,
  NLG,
  NGT,
  NLE,
  NEQ,
  NLT,
  LG
};
} // namespace

template <typename T> static bool holds(Cond cond, T a, T b) {
  bool unordered = false;
  if constexpr (std::is_floating_point_v<T>)
    unordered = std::isnan(a) || std::isnan(b);
  switch (cond) {
  case Cond::F:
    return false;
  case Cond::T:
    return true;
  case Cond::LT:
    return a < b;
  case Cond::EQ:
    return a == b;
  case Cond::LE:
    return a <= b;
  case Cond::GT:
    return a > b;
  case Cond::NE:
    return a != b;
  case Cond::GE:
    return a >= b;
  case Cond::LG:
    return !unordered && a != b;
  case Cond::O:
    return !unordered;
  case Cond::U:
    return unordered;
  case Cond::NGE:
    return !(a >= b);
  case Cond::NLG:
    return unordered || a == b;
  case Cond::NGT:
    return !(a > b);
  case Cond::NLE:
    return !(a <= b);
  case Cond::NEQ:
    return !(a == b);
  case Cond::NLT:
    return !(a < b);
  }
  return false;
}

/// v_cmp_<cond>_<T>: bit `lane` of the 64-bit destination (operand 0).
template <typename T, Cond cond>
static Step compareLanes(Context &ctx, const Instruction &inst) {
  constexpr int floatKind = std::is_floating_point_v<T> ? 8 * sizeof(T) : 0;
  VALUOperands ops{ctx, inst, 1, floatKind == 64 ? 0 : floatKind};
  uint64_t mask = 0;
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    T a, b;
    if constexpr (sizeof(T) == 8) {
      uint64_t x = ctx.src64(inst.operands[1], lane, floatKind);
      uint64_t y = ctx.src64(inst.operands[2], lane, floatKind);
      std::memcpy(&a, &x, 8);
      std::memcpy(&b, &y, 8);
    } else if constexpr (std::is_same_v<T, float>) {
      a = toF32(ops.get(0, lane));
      b = toF32(ops.get(1, lane));
    } else {
      a = T(ops.get(0, lane));
      b = T(ops.get(1, lane));
    }
    if (holds(cond, a, b))
      mask |= uint64_t(1) << lane;
  }
  ctx.setScalar64(inst.operands[0], mask);
  return Step::Next;
}

/// v_cmp_class_f32: the IEEE class of src0 is in the mask src1.
static Step compareClass(Context &ctx, const Instruction &inst) {
  VALUOperands ops{ctx, inst, 1, 32};
  uint64_t mask = 0;
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    float x = toF32(ops.get(0, lane));
    uint32_t classes = ctx.src32(inst.operands[2], lane);
    uint32_t bits = fromF32(x);
    bool negative = bits >> 31;
    int cls;
    if (std::isnan(x))
      cls = (bits & 0x400000) ? 1 : 0;
    else if (std::isinf(x))
      cls = negative ? 2 : 9;
    else if (x == 0)
      cls = negative ? 5 : 6;
    else if (std::fpclassify(x) == FP_SUBNORMAL)
      cls = negative ? 4 : 7;
    else
      cls = negative ? 3 : 8;
    if ((classes >> cls) & 1)
      mask |= uint64_t(1) << lane;
  }
  ctx.setScalar64(inst.operands[0], mask);
  return Step::Next;
}

template <typename T>
static void addCompareType(OpTable &t, const std::string &type) {
  static const std::pair<const char *, Cond> conds[] = {
      {"f", Cond::F},     {"lt", Cond::LT},   {"eq", Cond::EQ},
      {"le", Cond::LE},   {"gt", Cond::GT},   {"ne", Cond::NE},
      {"ge", Cond::GE},   {"t", Cond::T},     {"tru", Cond::T},
      {"o", Cond::O},     {"u", Cond::U},     {"nge", Cond::NGE},
      {"nlg", Cond::NLG}, {"ngt", Cond::NGT}, {"nle", Cond::NLE},
      {"neq", Cond::NEQ}, {"nlt", Cond::NLT}, {"lg", Cond::LG}};
  static const Handler handlers[] = {
      compareLanes<T, Cond::F>,   compareLanes<T, Cond::LT>,
      compareLanes<T, Cond::EQ>,  compareLanes<T, Cond::LE>,
      compareLanes<T, Cond::GT>,  compareLanes<T, Cond::NE>,
      compareLanes<T, Cond::GE>,  compareLanes<T, Cond::T>,
      compareLanes<T, Cond::T>,   compareLanes<T, Cond::O>,
      compareLanes<T, Cond::U>,   compareLanes<T, Cond::NGE>,
      compareLanes<T, Cond::NLG>, compareLanes<T, Cond::NGT>,
      compareLanes<T, Cond::NLE>, compareLanes<T, Cond::NEQ>,
      compareLanes<T, Cond::NLT>, compareLanes<T, Cond::LG>};
  for (auto [i, cond] : llvm::enumerate(conds)) {
    std::string name = std::string("v_cmp_") + cond.first + "_" + type;
    for (const char *form : {"_e32", "_e64", "_sdwa"})
      t[name + form] = {handlers[i], 1};
  }
}

void mlir::mx::gfx950::isa::detail::addCompareOps(OpTable &t) {
  addCompareType<uint16_t>(t, "u16");
  addCompareType<int16_t>(t, "i16");
  addCompareType<uint32_t>(t, "u32");
  addCompareType<int32_t>(t, "i32");
  addCompareType<uint64_t>(t, "u64");
  addCompareType<int64_t>(t, "i64");
  addCompareType<float>(t, "f32");
  for (const char *form : {"_e32", "_e64", "_sdwa"})
    t[std::string("v_cmp_class_f32") + form] = {compareClass, 1};
}

//===----------------------------------------------------------------------===//
// Carries, selects, 64-bit lanes
//===----------------------------------------------------------------------===//

/// v_{add,sub,subrev}_co_u32 and v_{addc,subb,subbrev}_co_u32: operand 0
/// the sum, operand 1 the carry-out mask, operands 2-3 the sources,
/// operand 4 the carry-in mask.
template <int kind, bool carryIn>
static Step carry(Context &ctx, const Instruction &inst) {
  uint64_t in = carryIn ? ctx.scalar64(inst.operands[4]) : 0;
  uint64_t out = 0;
  uint32_t *d = ctx.w.vreg(Context::unified(inst.operands[0]));
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t a = ctx.src32(inst.operands[2], lane);
    uint64_t b = ctx.src32(inst.operands[3], lane);
    uint64_t c = (in >> lane) & 1;
    if (kind == 2)
      std::swap(a, b);
    uint64_t result = kind == 0 ? a + b + c : a - b - c;
    bool flag = kind == 0 ? result > 0xffffffffu : b + c > a;
    d[lane] = uint32_t(result);
    out |= uint64_t(flag) << lane;
  }
  ctx.setScalar64(inst.operands[1], out);
  return Step::Next;
}

/// v_cndmask_b32: d = mask[lane] ? src1 : src0.
static Step cndmask(Context &ctx, const Instruction &inst) {
  uint64_t mask = ctx.scalar64(inst.operands[3]);
  return forEachLane(ctx, inst, 32, 2, [&](const VALUOperands &ops, int lane) {
    return ops.get((mask >> lane) & 1, lane);
  });
}

namespace {
using U64Fn = uint64_t (*)(uint64_t, uint64_t, uint64_t);
} // namespace

/// 64-bit lanes: d[0:1] = f(src0, src1, src2) with 64-bit sources.
template <U64Fn f, int floatKind = 0>
static Step lanes64(Context &ctx, const Instruction &inst) {
  unsigned n = unsigned(inst.operands.size());
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t a = ctx.src64(inst.operands[1], lane, floatKind);
    uint64_t b = n > 2 ? ctx.src64(inst.operands[2], lane, floatKind) : 0;
    uint64_t c = n > 3 ? ctx.src64(inst.operands[3], lane, floatKind) : 0;
    ctx.setV64(inst.operands[0], lane, f(a, b, c));
  }
  return Step::Next;
}

/// v_mad_u64_u32 d[0:1], carry, a, b, c[0:1]: d = a * b + c.
static Step madU64U32(Context &ctx, const Instruction &inst) {
  uint64_t out = 0;
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t a = ctx.src32(inst.operands[2], lane);
    uint64_t b = ctx.src32(inst.operands[3], lane);
    uint64_t c = ctx.src64(inst.operands[4], lane);
    unsigned __int128 wide = (unsigned __int128)(a * b) + c;
    ctx.setV64(inst.operands[0], lane, uint64_t(wide));
    out |= uint64_t(wide >> 64 != 0) << lane;
  }
  ctx.setScalar64(inst.operands[1], out);
  return Step::Next;
}

static Step readFirstLane(Context &ctx, const Instruction &inst) {
  int lane = ctx.w.exec ? __builtin_ctzll(ctx.w.exec) : 0;
  ctx.setScalar32(inst.operands[0], ctx.src32(inst.operands[1], lane));
  return Step::Next;
}

static Step readLane(Context &ctx, const Instruction &inst) {
  int lane = int(ctx.scalar32(inst.operands[2]) & 63);
  ctx.setScalar32(inst.operands[0], ctx.src32(inst.operands[1], lane));
  return Step::Next;
}

static Step writeLane(Context &ctx, const Instruction &inst) {
  int lane = int(ctx.scalar32(inst.operands[2]) & 63);
  ctx.setV32(inst.operands[0], lane, ctx.scalar32(inst.operands[1]));
  return Step::Next;
}

static void addCarryAndWideOps(OpTable &t) {
  for (const char *form : {"_e32", "_e64"}) {
    std::string f = form;
    t["v_add_co_u32" + f] = {carry<0, false>, 2};
    t["v_sub_co_u32" + f] = {carry<1, false>, 2};
    t["v_subrev_co_u32" + f] = {carry<2, false>, 2};
    t["v_addc_co_u32" + f] = {carry<0, true>, 2};
    t["v_subb_co_u32" + f] = {carry<1, true>, 2};
    t["v_subbrev_co_u32" + f] = {carry<2, true>, 2};
    t["v_cndmask_b32" + f] = {cndmask, 1};
  }
  t["v_cndmask_b32_sdwa"] = {cndmask, 1};
  t["v_mad_u64_u32"] = {madU64U32, 2};
  t["v_readfirstlane_b32"] = {readFirstLane, 1};
  t["v_readlane_b32"] = {readLane, 1};
  t["v_writelane_b32"] = {writeLane, 1};
  t["v_lshl_add_u64"] = {lanes64<[](uint64_t a, uint64_t b, uint64_t c) {
    return (a << (b & 63)) + c;
  }>};
  for (const char *name : {"v_mov_b64", "v_mov_b64_e32", "v_mov_b64_e64"})
    t[name] = {lanes64<[](uint64_t a, uint64_t, uint64_t) { return a; }>};
  // v_lshlrev_b64 d, shift (32-bit), value (64-bit).
  t["v_lshlrev_b64"] = {[](Context &ctx, const Instruction &inst) {
    for (int lane = 0; lane < kLanes; ++lane)
      if (ctx.active(lane))
        ctx.setV64(inst.operands[0], lane,
                   ctx.src64(inst.operands[2], lane)
                       << (ctx.src32(inst.operands[1], lane) & 63));
    return Step::Next;
  }};
  t["v_lshrrev_b64"] = {[](Context &ctx, const Instruction &inst) {
    for (int lane = 0; lane < kLanes; ++lane)
      if (ctx.active(lane))
        ctx.setV64(inst.operands[0], lane,
                   ctx.src64(inst.operands[2], lane) >>
                       (ctx.src32(inst.operands[1], lane) & 63));
    return Step::Next;
  }};
  t["v_ashrrev_i64"] = {[](Context &ctx, const Instruction &inst) {
    for (int lane = 0; lane < kLanes; ++lane)
      if (ctx.active(lane))
        ctx.setV64(inst.operands[0], lane,
                   uint64_t(int64_t(ctx.src64(inst.operands[2], lane)) >>
                            (ctx.src32(inst.operands[1], lane) & 63)));
    return Step::Next;
  }};
}

//===----------------------------------------------------------------------===//
// Packed (VOP3P) ops
//===----------------------------------------------------------------------===//

/// The source half \p hi of packed operand \p i: op_sel picks the low
/// result's half, op_sel_hi the high result's (default: the high half).
static bool pickHigh(const Instruction &inst, unsigned i, bool hi) {
  if (!hi)
    return (inst.opSel >> i) & 1;
  return inst.hasOpSelHi ? (inst.opSelHi >> i) & 1 : true;
}

/// Packed 16-bit lanes: each half of d = f(halves of the sources).
template <uint32_t (*f)(uint32_t, uint32_t, uint32_t)>
static Step packed16(Context &ctx, const Instruction &inst) {
  unsigned n = unsigned(inst.operands.size()) - 1;
  return forEachLane(ctx, inst, 0, n, [&](const VALUOperands &, int lane) {
    uint32_t result = 0;
    for (int hi = 0; hi < 2; ++hi) {
      uint32_t s[3] = {0, 0, 0};
      for (unsigned i = 0; i < n && i < 3; ++i) {
        uint32_t v = ctx.src32(inst.operands[1 + i], lane, 16);
        s[i] = (pickHigh(inst, i, hi) ? v >> 16 : v) & 0xffff;
        if (((hi ? inst.negHi : inst.negLo) >> i) & 1)
          s[i] ^= 0x8000;
      }
      result |= (f(s[0], s[1], s[2]) & 0xffff) << (16 * hi);
    }
    return result;
  });
}

/// Packed f32 (two 32-bit halves of 64-bit registers).
template <float (*f)(float, float, float)>
static Step packedF32(Context &ctx, const Instruction &inst) {
  unsigned n = unsigned(inst.operands.size()) - 1;
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint64_t result = 0;
    for (int hi = 0; hi < 2; ++hi) {
      float s[3] = {0, 0, 0};
      for (unsigned i = 0; i < n && i < 3; ++i) {
        uint64_t v = ctx.src64(inst.operands[1 + i], lane, 32);
        const Operand &op = inst.operands[1 + i];
        if (op.kind == OperandKind::Imm)
          v = (v & 0xffffffff) | (v << 32);
        uint32_t bits = uint32_t(pickHigh(inst, i, hi) ? v >> 32 : v);
        if (((hi ? inst.negHi : inst.negLo) >> i) & 1)
          bits ^= 0x80000000;
        s[i] = toF32(bits);
      }
      result |= uint64_t(fromF32(f(s[0], s[1], s[2]))) << (32 * hi);
    }
    ctx.setV64(inst.operands[0], lane, result);
  }
  return Step::Next;
}

static float maximumF(float x, float y) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<float>::quiet_NaN();
  if (x == y)
    return std::signbit(x) ? y : x;
  return x > y ? x : y;
}

static void addPackedOps(OpTable &t) {
  t["v_pk_add_u16"] = {
      packed16<[](uint32_t a, uint32_t b, uint32_t) { return a + b; }>};
  t["v_pk_sub_u16"] = {
      packed16<[](uint32_t a, uint32_t b, uint32_t) { return a - b; }>};
  t["v_pk_mul_lo_u16"] = {
      packed16<[](uint32_t a, uint32_t b, uint32_t) { return a * b; }>};
  t["v_pk_mad_u16"] = {
      packed16<[](uint32_t a, uint32_t b, uint32_t c) { return a * b + c; }>};
  t["v_pk_lshlrev_b16"] = {
      packed16<[](uint32_t a, uint32_t b, uint32_t) { return b << (a & 15); }>};
  t["v_pk_lshrrev_b16"] = {
      packed16<[](uint32_t a, uint32_t b, uint32_t) { return b >> (a & 15); }>};
  t["v_pk_max_u16"] = {packed16<[](uint32_t a, uint32_t b, uint32_t) {
    return std::max(a, b);
  }>};
  t["v_pk_min_u16"] = {packed16<[](uint32_t a, uint32_t b, uint32_t) {
    return std::min(a, b);
  }>};
  t["v_pk_maximum3_f16"] = {packed16<[](uint32_t a, uint32_t b, uint32_t c) {
    float m = maximumF(maximumF(halfToF32(uint16_t(a)), halfToF32(uint16_t(b))),
                       halfToF32(uint16_t(c)));
    return uint32_t(f32ToHalf(m));
  }>};
  t["v_pk_add_f32"] = {
      packedF32<[](float a, float b, float) { return a + b; }>};
  t["v_pk_mul_f32"] = {
      packedF32<[](float a, float b, float) { return a * b; }>};
  t["v_pk_fma_f32"] = {
      packedF32<[](float a, float b, float c) { return std::fma(a, b, c); }>};
}

//===----------------------------------------------------------------------===//
// Conversions, fused multiply-adds, division helpers
//===----------------------------------------------------------------------===//

static void addConversions(OpTable &t) {
  Handler cvtF32F16 = [](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 16, 1, [](const VALUOperands &ops, int l) {
      return fromF32(halfToF32(uint16_t(ops.get(0, l))));
    });
  };
  for (const char *form : {"_e32", "_e64", "_sdwa"})
    t[std::string("v_cvt_f32_f16") + form] = {cvtF32F16};
  t["v_cvt_f16_f32_e32"] = {[](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 32, 1, [](const VALUOperands &ops, int l) {
      return uint32_t(f32ToHalf(toF32(ops.get(0, l))));
    });
  }};
  t["v_cvt_pk_bf16_f32"] = {[](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 32, 2, [](const VALUOperands &ops, int l) {
      return uint32_t(f32ToBF16(toF32(ops.get(0, l)))) |
             uint32_t(f32ToBF16(toF32(ops.get(1, l)))) << 16;
    });
  }};
  t["v_cvt_pk_f16_f32"] = {[](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 32, 2, [](const VALUOperands &ops, int l) {
      return uint32_t(f32ToHalf(toF32(ops.get(0, l)))) |
             uint32_t(f32ToHalf(toF32(ops.get(1, l)))) << 16;
    });
  }};
}

static Step fmac(Context &ctx, const Instruction &inst) {
  return forEachLane(ctx, inst, 32, 2, [&](const VALUOperands &ops, int l) {
    float d = toF32(ctx.src32(inst.operands[0], l));
    return fromF32(std::fma(toF32(ops.get(0, l)), toF32(ops.get(1, l)), d));
  });
}

/// v_div_scale_f32 d, vcc, s0, s1, s2 (denominator s1, numerator s2): d =
/// s0, scaled by 2^64 where the quotient would leave the f32 range (the
/// ISA's cases for denormal operands are not modelled: mx's kernels divide
/// normal numbers); a zero denominator or numerator gives NaN, which
/// v_div_fixup_f32 replaces.
static Step divScale(Context &ctx, const Instruction &inst) {
  uint64_t flags = 0;
  uint32_t *d = ctx.w.vreg(Context::unified(inst.operands[0]));
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    float s0 = toF32(ctx.src32(inst.operands[2], lane, 32));
    float s1 = toF32(ctx.src32(inst.operands[3], lane, 32));
    float s2 = toF32(ctx.src32(inst.operands[4], lane, 32));
    float result = s0;
    if (s1 == 0 || s2 == 0) {
      result = std::numeric_limits<float>::quiet_NaN();
    } else if (std::ilogb(s2) - std::ilogb(s1) >= 96 ||
               std::ilogb(s2) <= -104) {
      // Numerator far above the denominator, or tiny: scale by 2^64.
      // Numerator far above the denominator: the denominator is scaled and
      // the quotient scaled back (VCC); a tiny numerator: both scaled.
      bool large = std::ilogb(s2) - std::ilogb(s1) >= 96;
      flags |= uint64_t(large) << lane;
      result = !large || s0 == s1 ? std::ldexp(s0, 64) : s0;
    }
    d[lane] = fromF32(result);
  }
  ctx.setScalar64(inst.operands[1], flags);
  return Step::Next;
}

/// v_div_fmas_f32: fma(s0, s1, s2), scaled by 2^64 where VCC is set.
static Step divFmas(Context &ctx, const Instruction &inst) {
  return forEachLane(ctx, inst, 32, 3, [&](const VALUOperands &ops, int l) {
    float r = std::fma(toF32(ops.get(0, l)), toF32(ops.get(1, l)),
                       toF32(ops.get(2, l)));
    return fromF32((ctx.w.vcc >> l) & 1 ? std::ldexp(r, 64) : r);
  });
}

/// v_div_fixup_f32 d, quotient, denominator, numerator: the special cases.
static Step divFixup(Context &ctx, const Instruction &inst) {
  return forEachLane(ctx, inst, 32, 3, [](const VALUOperands &ops, int l) {
    float q = toF32(ops.get(0, l)), den = toF32(ops.get(1, l)),
          num = toF32(ops.get(2, l));
    bool negative = std::signbit(den) != std::signbit(num);
    float nan = std::numeric_limits<float>::quiet_NaN();
    float inf = std::numeric_limits<float>::infinity();
    float r;
    if (std::isnan(den) || std::isnan(num))
      r = nan;
    else if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num)))
      r = nan;
    else if (den == 0 || std::isinf(num))
      r = negative ? -inf : inf;
    else if (std::isinf(den) || num == 0)
      r = negative ? -0.0f : 0.0f;
    else
      r = std::copysign(std::fabs(q), negative ? -1.0f : 1.0f);
    return fromF32(r);
  });
}

/// v_bitop3: each result bit is bitop3[{s0, s1, s2} bits].
template <bool sixteen>
static Step bitop3(Context &ctx, const Instruction &inst) {
  return forEachLane(ctx, inst, 0, 3, [&](const VALUOperands &ops, int l) {
    uint32_t a = ops.get(0, l), b = ops.get(1, l), c = ops.get(2, l);
    uint32_t d = 0;
    for (int i = 0; i < 8; ++i) {
      if (!((inst.bitop3 >> i) & 1))
        continue;
      d |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    }
    return sixteen ? d & 0xffff : d;
  });
}

static void addFloatHelpers(OpTable &t) {
  t["v_fmac_f32_e32"] = {fmac};
  t["v_fmac_f32_e64"] = {fmac};
  // v_fmamk_f32 d, s0, K, s1: s0 * K + s1. v_fmaak_f32 d, s0, s1, K.
  t["v_fmamk_f32"] = {[](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 32, 3, [](const VALUOperands &o, int l) {
      return fromF32(
          std::fma(toF32(o.get(0, l)), toF32(o.get(1, l)), toF32(o.get(2, l))));
    });
  }};
  t["v_fmaak_f32"] = t["v_fmamk_f32"];
  t["v_div_scale_f32"] = {divScale, 2};
  t["v_div_fmas_f32"] = {divFmas};
  t["v_div_fixup_f32"] = {divFixup};
  t["v_bitop3_b32"] = {bitop3<false>};
  t["v_bitop3_b16"] = {bitop3<true>};
}

void mlir::mx::gfx950::isa::detail::addVectorMoreOps(OpTable &table) {
  addCarryAndWideOps(table);
  addPackedOps(table);
  addConversions(table);
  addFloatHelpers(table);
}
