//===- ScalarOps.cpp - SALU semantics -------------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SOP1/SOP2/SOPC/SOPK instructions as the CDNA4 ISA's chapter 5 defines
// them: operands are SGPRs, VCC, EXEC, M0 or constants; SCC is the carry,
// borrow, comparison or "result is not zero" bit each instruction states.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/bit.h"

using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

namespace {
using S32 = uint32_t (*)(uint32_t, uint32_t, bool &scc);
using S64 = uint64_t (*)(uint64_t, uint64_t, bool &scc);
} // namespace

/// d = f(s0, s1) on 32 bits, SCC as f sets it.
template <S32 f> static Step binary32(Context &ctx, const Instruction &inst) {
  bool scc = ctx.w.scc;
  uint32_t a = ctx.scalar32(inst.operands[1]);
  uint32_t b = inst.operands.size() > 2 ? ctx.scalar32(inst.operands[2]) : 0;
  ctx.setScalar32(inst.operands[0], f(a, b, scc));
  ctx.w.scc = scc;
  return Step::Next;
}

template <S64 f> static Step binary64(Context &ctx, const Instruction &inst) {
  bool scc = ctx.w.scc;
  uint64_t a = ctx.scalar64(inst.operands[1]);
  uint64_t b = inst.operands.size() > 2 ? ctx.scalar64(inst.operands[2]) : 0;
  ctx.setScalar64(inst.operands[0], f(a, b, scc));
  ctx.w.scc = scc;
  return Step::Next;
}

/// s_*k_* (SOPK): d = f(d, simm16) or d = simm16.
template <S32 f> static Step sopk(Context &ctx, const Instruction &inst) {
  bool scc = ctx.w.scc;
  uint32_t imm = uint32_t(int32_t(int16_t(ctx.scalar32(inst.operands[1]))));
  ctx.setScalar32(inst.operands[0],
                  f(ctx.scalar32(inst.operands[0]), imm, scc));
  ctx.w.scc = scc;
  return Step::Next;
}

/// SCC = f(s0, s1).
template <bool (*f)(uint64_t, uint64_t), bool wide = false>
static Step compare(Context &ctx, const Instruction &inst) {
  uint64_t a =
      wide ? ctx.scalar64(inst.operands[0]) : ctx.scalar32(inst.operands[0]);
  uint64_t b =
      wide ? ctx.scalar64(inst.operands[1]) : ctx.scalar32(inst.operands[1]);
  ctx.w.scc = f(a, b);
  return Step::Next;
}

/// s_cmpk_*: SCC = f(s0, simm16 (sign- or zero-extended)).
template <bool (*f)(uint64_t, uint64_t), bool isSigned>
static Step compareK(Context &ctx, const Instruction &inst) {
  uint32_t imm = uint32_t(ctx.scalar32(inst.operands[1]) & 0xffff);
  if (isSigned)
    imm = uint32_t(int32_t(int16_t(imm)));
  ctx.w.scc = f(ctx.scalar32(inst.operands[0]), imm);
  return Step::Next;
}

template <typename T> static bool eq(uint64_t a, uint64_t b) {
  return T(a) == T(b);
}
template <typename T> static bool ne(uint64_t a, uint64_t b) {
  return T(a) != T(b);
}
template <typename T> static bool lt(uint64_t a, uint64_t b) {
  return T(a) < T(b);
}
template <typename T> static bool le(uint64_t a, uint64_t b) {
  return T(a) <= T(b);
}
template <typename T> static bool gt(uint64_t a, uint64_t b) {
  return T(a) > T(b);
}
template <typename T> static bool ge(uint64_t a, uint64_t b) {
  return T(a) >= T(b);
}

/// s_*_saveexec_b64: d = EXEC; EXEC = f(s0, EXEC); SCC = EXEC != 0.
template <uint64_t (*f)(uint64_t, uint64_t)>
static Step saveExec(Context &ctx, const Instruction &inst) {
  uint64_t exec = ctx.w.exec;
  uint64_t source = ctx.scalar64(inst.operands[1]);
  ctx.setScalar64(inst.operands[0], exec);
  ctx.w.exec = f(source, exec);
  ctx.w.scc = ctx.w.exec != 0;
  return Step::Next;
}

/// s_cselect_b*: d = SCC ? s0 : s1.
template <bool wide> static Step select(Context &ctx, const Instruction &inst) {
  const Operand &pick = inst.operands[ctx.w.scc ? 1 : 2];
  if (wide)
    ctx.setScalar64(inst.operands[0], ctx.scalar64(pick));
  else
    ctx.setScalar32(inst.operands[0], ctx.scalar32(pick));
  return Step::Next;
}

static void addArithmetic(OpTable &t) {
  t["s_mov_b32"] = {binary32<[](uint32_t a, uint32_t, bool &) { return a; }>};
  t["s_mov_b64"] = {binary64<[](uint64_t a, uint64_t, bool &) { return a; }>};
  t["s_movk_i32"] = {sopk<[](uint32_t, uint32_t k, bool &) { return k; }>};
  t["s_not_b32"] = {binary32<[](uint32_t a, uint32_t, bool &scc) {
    scc = ~a != 0;
    return ~a;
  }>};
  t["s_not_b64"] = {binary64<[](uint64_t a, uint64_t, bool &scc) {
    scc = ~a != 0;
    return ~a;
  }>};
  t["s_add_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    scc = uint64_t(a) + b > 0xffffffffu;
    return a + b;
  }>};
  t["s_addc_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    uint64_t sum = uint64_t(a) + b + scc;
    scc = sum > 0xffffffffu;
    return uint32_t(sum);
  }>};
  t["s_sub_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    scc = b > a;
    return a - b;
  }>};
  t["s_subb_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    uint64_t sub = uint64_t(b) + scc;
    scc = sub > a;
    return uint32_t(a - sub);
  }>};
  // s_lshl<n>_add_u32: d = (s0 << n) + s1, the shift and the sum in 64
  // bits; SCC: the 64-bit result does not fit 32 bits.
#define MX_LSHL_ADD(N)                                                         \
  t["s_lshl" #N "_add_u32"] = {                                                \
      binary32<[](uint32_t a, uint32_t b, bool &scc) {                         \
        uint64_t sum = (uint64_t(a) << N) + b;                                 \
        scc = sum > 0xffffffffu;                                               \
        return uint32_t(sum);                                                  \
      }>};
  MX_LSHL_ADD(1)
  MX_LSHL_ADD(2)
  MX_LSHL_ADD(3)
  MX_LSHL_ADD(4)
#undef MX_LSHL_ADD
  auto addI32 = [](uint32_t a, uint32_t b, bool &scc) {
    int64_t sum = int64_t(int32_t(a)) + int32_t(b);
    scc = sum != int64_t(int32_t(uint32_t(sum)));
    return uint32_t(sum);
  };
  t["s_add_i32"] = {binary32<addI32>};
  t["s_addk_i32"] = {sopk<addI32>};
  t["s_sub_i32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    int64_t sum = int64_t(int32_t(a)) - int32_t(b);
    scc = sum != int64_t(int32_t(uint32_t(sum)));
    return uint32_t(sum);
  }>};
  auto mul = [](uint32_t a, uint32_t b, bool &) { return a * b; };
  t["s_mul_i32"] = {binary32<mul>};
  t["s_mulk_i32"] = {sopk<mul>};
  t["s_mul_hi_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &) {
    return uint32_t((uint64_t(a) * b) >> 32);
  }>};
  t["s_mul_hi_i32"] = {binary32<[](uint32_t a, uint32_t b, bool &) {
    return uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32);
  }>};
  t["s_min_i32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    scc = int32_t(a) < int32_t(b);
    return scc ? a : b;
  }>};
  t["s_max_i32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    scc = int32_t(a) > int32_t(b);
    return scc ? a : b;
  }>};
  t["s_min_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    scc = a < b;
    return scc ? a : b;
  }>};
  t["s_max_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    scc = a > b;
    return scc ? a : b;
  }>};
}

static void addBitwise(OpTable &t) {
#define MX_LOGIC(NAME, EXPR)                                                   \
  t["s_" NAME "_b32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {      \
    uint32_t d = EXPR;                                                         \
    scc = d != 0;                                                              \
    return d;                                                                  \
  }>};                                                                         \
  t["s_" NAME "_b64"] = {binary64<[](uint64_t a, uint64_t b, bool &scc) {      \
    uint64_t d = EXPR;                                                         \
    scc = d != 0;                                                              \
    return d;                                                                  \
  }>};
  MX_LOGIC("and", a & b)
  MX_LOGIC("or", a | b)
  MX_LOGIC("xor", a ^ b)
  MX_LOGIC("andn2", a & ~b)
  MX_LOGIC("orn2", a | ~b)
  MX_LOGIC("nand", ~(a & b))
  MX_LOGIC("nor", ~(a | b))
#undef MX_LOGIC
  t["s_lshl_b32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    uint32_t d = a << (b & 31);
    scc = d != 0;
    return d;
  }>};
  t["s_lshr_b32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    uint32_t d = a >> (b & 31);
    scc = d != 0;
    return d;
  }>};
  t["s_ashr_i32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    uint32_t d = uint32_t(int32_t(a) >> (b & 31));
    scc = d != 0;
    return d;
  }>};
  t["s_lshl_b64"] = {binary64<[](uint64_t a, uint64_t b, bool &scc) {
    uint64_t d = a << (b & 63);
    scc = d != 0;
    return d;
  }>};
  t["s_lshr_b64"] = {binary64<[](uint64_t a, uint64_t b, bool &scc) {
    uint64_t d = a >> (b & 63);
    scc = d != 0;
    return d;
  }>};
  t["s_ashr_i64"] = {binary64<[](uint64_t a, uint64_t b, bool &scc) {
    uint64_t d = uint64_t(int64_t(a) >> (b & 63));
    scc = d != 0;
    return d;
  }>};
  t["s_bfe_u32"] = {binary32<[](uint32_t a, uint32_t b, bool &scc) {
    unsigned offset = b & 31, width = (b >> 16) & 0x7f;
    uint32_t d = width == 0    ? 0
                 : width >= 32 ? a >> offset
                               : (a >> offset) & ((1u << width) - 1);
    scc = d != 0;
    return d;
  }>};
  // s_bcnt1_i32_b32/b64: D = the number of set bits of S0; SCC = D != 0
  // (LLVM's atomic optimizer counts the active lanes of EXEC with it).
  t["s_bcnt1_i32_b32"] = {binary32<[](uint32_t a, uint32_t, bool &scc) {
    uint32_t d = uint32_t(llvm::popcount(a));
    scc = d != 0;
    return d;
  }>};
  t["s_bcnt1_i32_b64"] = {[](Context &ctx, const Instruction &inst) {
    uint32_t d = uint32_t(llvm::popcount(ctx.scalar64(inst.operands[1])));
    ctx.setScalar32(inst.operands[0], d);
    ctx.w.scc = d != 0;
    return Step::Next;
  }};
  t["s_bitset0_b32"] = {[](Context &ctx, const Instruction &inst) {
    uint32_t bit = ctx.scalar32(inst.operands[1]) & 31;
    ctx.setScalar32(inst.operands[0],
                    ctx.scalar32(inst.operands[0]) & ~(1u << bit));
    return Step::Next;
  }};
  t["s_bitset1_b32"] = {[](Context &ctx, const Instruction &inst) {
    uint32_t bit = ctx.scalar32(inst.operands[1]) & 31;
    ctx.setScalar32(inst.operands[0],
                    ctx.scalar32(inst.operands[0]) | (1u << bit));
    return Step::Next;
  }};
  t["s_pack_ll_b32_b16"] = {binary32<[](uint32_t a, uint32_t b, bool &) {
    return (a & 0xffff) | (b << 16);
  }>};
  t["s_pack_lh_b32_b16"] = {binary32<[](uint32_t a, uint32_t b, bool &) {
    return (a & 0xffff) | (b & 0xffff0000);
  }>};
  t["s_pack_hh_b32_b16"] = {binary32<[](uint32_t a, uint32_t b, bool &) {
    return (a >> 16) | (b & 0xffff0000);
  }>};
}

static void addCompares(OpTable &t) {
#define MX_CMP(OP)                                                             \
  t["s_cmp_" #OP "_u32"] = {compare<OP<uint32_t>>, 0};                         \
  t["s_cmp_" #OP "_i32"] = {compare<OP<int32_t>>, 0};                          \
  t["s_cmpk_" #OP "_u32"] = {compareK<OP<uint32_t>, false>, 0};                \
  t["s_cmpk_" #OP "_i32"] = {compareK<OP<int32_t>, true>, 0};
  MX_CMP(eq)
  MX_CMP(ne)
  MX_CMP(lt)
  MX_CMP(le)
  MX_CMP(gt)
  MX_CMP(ge)
#undef MX_CMP
  t["s_cmp_lg_u32"] = {compare<ne<uint32_t>>, 0};
  t["s_cmp_lg_i32"] = {compare<ne<int32_t>>, 0};
  t["s_cmpk_lg_u32"] = {compareK<ne<uint32_t>, false>, 0};
  t["s_cmpk_lg_i32"] = {compareK<ne<int32_t>, true>, 0};
  t["s_cmp_eq_u64"] = {compare<eq<uint64_t>, true>, 0};
  t["s_cmp_lg_u64"] = {compare<ne<uint64_t>, true>, 0};
  t["s_bitcmp0_b32"] = {
      compare<[](uint64_t a, uint64_t b) { return !((a >> (b & 31)) & 1); }>,
      0};
  t["s_bitcmp1_b32"] = {
      compare<[](uint64_t a, uint64_t b) { return bool((a >> (b & 31)) & 1); }>,
      0};
  t["s_cselect_b32"] = {select<false>};
  t["s_cselect_b64"] = {select<true>};
  t["s_and_saveexec_b64"] = {
      saveExec<[](uint64_t s, uint64_t exec) { return s & exec; }>};
  t["s_or_saveexec_b64"] = {
      saveExec<[](uint64_t s, uint64_t exec) { return s | exec; }>};
  t["s_andn2_saveexec_b64"] = {
      saveExec<[](uint64_t s, uint64_t exec) { return s & ~exec; }>};
  t["s_xor_saveexec_b64"] = {
      saveExec<[](uint64_t s, uint64_t exec) { return s ^ exec; }>};
}

void mlir::mx::gfx950::isa::detail::addScalarOps(OpTable &table) {
  addArithmetic(table);
  addBitwise(table);
  addCompares(table);
}
