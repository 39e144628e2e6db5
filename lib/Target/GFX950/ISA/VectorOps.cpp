//===- VectorOps.cpp - VALU semantics: 32-bit and 16-bit lanes ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// VOP1/VOP2/VOP3 (and their SDWA forms) on 32-bit and 16-bit lanes, and
// VOPC compares, as the CDNA4 ISA's chapter 6 defines them. Every op runs
// on the lanes EXEC enables. 16-bit results zero the upper half (gfx9);
// SDWA selects source bytes/words and places the result by dst_sel.
//
//===----------------------------------------------------------------------===//

#include "VectorOpsImpl.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>

using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

uint32_t mlir::mx::gfx950::isa::detail::selectBits(uint32_t value, SDWASel sel,
                                                   bool sext) {
  unsigned shift = 0, bits = 32;
  switch (sel) {
  case SDWASel::Byte0:
  case SDWASel::Byte1:
  case SDWASel::Byte2:
  case SDWASel::Byte3:
    shift = 8 * (unsigned(sel) - unsigned(SDWASel::Byte0));
    bits = 8;
    break;
  case SDWASel::Word0:
  case SDWASel::Word1:
    shift = 16 * (unsigned(sel) - unsigned(SDWASel::Word0));
    bits = 16;
    break;
  case SDWASel::Dword:
    return value;
  }
  uint32_t field = (value >> shift) & ((1u << bits) - 1);
  if (sext && (field >> (bits - 1)))
    field |= ~((1u << bits) - 1);
  return field;
}

uint32_t mlir::mx::gfx950::isa::detail::placeBits(const Instruction &inst,
                                                  uint32_t result,
                                                  uint32_t old) {
  if (inst.dstSel == SDWASel::Dword)
    return result;
  unsigned shift, bits;
  if (inst.dstSel <= SDWASel::Byte3) {
    shift = 8 * unsigned(inst.dstSel);
    bits = 8;
  } else {
    shift = 16 * (unsigned(inst.dstSel) - unsigned(SDWASel::Word0));
    bits = 16;
  }
  uint32_t mask = ((1u << bits) - 1) << shift;
  uint32_t placed = (result << shift) & mask;
  if (inst.dstUnusedPreserve)
    return (old & ~mask) | placed;
  if (inst.dstUnusedSext && ((result >> (bits - 1)) & 1))
    return placed | uint32_t(~((uint64_t(1) << (shift + bits)) - 1));
  return placed;
}

float mlir::mx::gfx950::isa::detail::toF32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t mlir::mx::gfx950::isa::detail::fromF32(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

uint32_t VALUOperands::get(unsigned i, int lane) const {
  const Operand &op = inst.operands[first + i];
  uint32_t value = ctx.src32(op, lane, floatKind);
  SDWASel sel = i == 0 ? inst.src0Sel : i == 1 ? inst.src1Sel : SDWASel::Dword;
  value = selectBits(value, sel, op.sext);
  if (floatKind == 32) {
    if (op.abs)
      value &= 0x7fffffff;
    if (op.neg)
      value ^= 0x80000000;
  } else if (floatKind == 16) {
    if (op.abs)
      value &= 0x7fff;
    if (op.neg)
      value ^= 0x8000;
  }
  return value;
}

/// Applies clamp and the output modifier to an f32 result.
static uint32_t outputModifiers(const Instruction &inst, uint32_t bits) {
  if (!inst.clamp && !inst.omod)
    return bits;
  float f = toF32(bits);
  if (inst.omod > 0)
    f *= float(inst.omod);
  else if (inst.omod < 0)
    f /= float(-inst.omod);
  if (inst.clamp)
    f = std::isnan(f) ? 0.0f : std::fmin(std::fmax(f, 0.0f), 1.0f);
  return fromF32(f);
}

Step mlir::mx::gfx950::isa::detail::forEachLane(
    Context &ctx, const Instruction &inst, int floatKind, unsigned numSrcs,
    function_ref<uint32_t(const VALUOperands &, int)> f) {
  VALUOperands ops{ctx, inst, 1, floatKind};
  const Operand &dst = inst.operands[0];
  uint32_t *d = ctx.w.vreg(Context::unified(dst));
  for (int lane = 0; lane < kLanes; ++lane) {
    if (!ctx.active(lane))
      continue;
    uint32_t result = f(ops, lane);
    if (floatKind == 32)
      result = outputModifiers(inst, result);
    d[lane] = placeBits(inst, result, d[lane]);
  }
  return Step::Next;
}

namespace {
using U3 = uint32_t (*)(uint32_t, uint32_t, uint32_t);
} // namespace

/// d = f(src0, src1, src2) per lane (missing sources read 0).
template <U3 f, int floatKind = 0, bool zeroHigh16 = false>
static Step lanewise(Context &ctx, const Instruction &inst) {
  unsigned n = unsigned(inst.operands.size()) - 1;
  return forEachLane(ctx, inst, floatKind, n,
                     [&](const VALUOperands &ops, int lane) {
                       uint32_t a = ops.get(0, lane);
                       uint32_t b = n > 1 ? ops.get(1, lane) : 0;
                       uint32_t c = n > 2 ? ops.get(2, lane) : 0;
                       uint32_t r = f(a, b, c);
                       return zeroHigh16 ? r & 0xffff : r;
                     });
}

/// The low 24 bits of \p x as a signed integer (the i24 operand of
/// v_mul_i32_i24 and v_mad_i32_i24).
static int64_t signExtend24(uint32_t x) { return int32_t(x << 8) >> 8; }

static float f(uint32_t bits) { return toF32(bits); }
static uint32_t u(float value) { return fromF32(value); }

/// Registers the _e32/_e64/_sdwa spellings of a VALU op.
static void addForms(OpTable &t, const std::string &name, Handler handler,
                     uint8_t numDsts = 1) {
  t[name] = {handler, numDsts};
  t[name + "_e32"] = {handler, numDsts};
  t[name + "_e64"] = {handler, numDsts};
  t[name + "_sdwa"] = {handler, numDsts};
}

static void addIntegerOps(OpTable &t) {
  addForms(t, "v_mov_b32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) { return a; }>);
  addForms(t, "v_not_b32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) { return ~a; }>);
  // (LLVM materializes constants such as 0x80000000 as bfrev of 1.)
  addForms(t, "v_bfrev_b32", lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return llvm::reverseBits(a);
           }>);
  addForms(t, "v_add_u32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a + b; }>);
  addForms(t, "v_add_i32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a + b; }>);
  addForms(t, "v_mul_i32_i24", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return uint32_t(signExtend24(a) * signExtend24(b));
           }>);
  addForms(t, "v_sub_u32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a - b; }>);
  addForms(t, "v_subrev_u32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return b - a; }>);
  addForms(t, "v_and_b32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a & b; }>);
  addForms(t, "v_or_b32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a | b; }>);
  addForms(t, "v_xor_b32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a ^ b; }>);
  addForms(
      t, "v_lshlrev_b32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t) { return b << (a & 31); }>);
  addForms(
      t, "v_lshrrev_b32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t) { return b >> (a & 31); }>);
  addForms(t, "v_ashrrev_i32", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return uint32_t(int32_t(b) >> (a & 31));
           }>);
  addForms(t, "v_max_i32", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return uint32_t(std::max(int32_t(a), int32_t(b)));
           }>);
  addForms(t, "v_min_i32", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return uint32_t(std::min(int32_t(a), int32_t(b)));
           }>);
  addForms(t, "v_max_u32", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return std::max(a, b);
           }>);
  addForms(t, "v_min_u32", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return std::min(a, b);
           }>);
  addForms(t, "v_mul_u32_u24", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return (a & 0xffffff) * (b & 0xffffff);
           }>);
  addForms(t, "v_mul_hi_u32_u24",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32);
           }>);
  addForms(t, "v_mul_lo_u32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a * b; }>);
  addForms(t, "v_mul_hi_u32", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return uint32_t((uint64_t(a) * b) >> 32);
           }>);
  addForms(t, "v_bcnt_u32_b32", lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return uint32_t(llvm::popcount(a)) + b;
           }>);
  // v_mbcnt_lo/hi_u32_b32 d, s0, s1: d = s1 + the set bits of s0 (the low
  // or high half of a 64-bit mask) below the lane's own bit (LLVM counts the
  // active lanes below each lane with the pair).
  addForms(t, "v_mbcnt_lo_u32_b32", [](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 0, 2, [](const VALUOperands &ops, int lane) {
      uint64_t below = (uint64_t(1) << lane) - 1;
      return uint32_t(llvm::popcount(ops.get(0, lane) & uint32_t(below))) +
             ops.get(1, lane);
    });
  });
  addForms(t, "v_mbcnt_hi_u32_b32", [](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 0, 2, [](const VALUOperands &ops, int lane) {
      uint64_t below = (uint64_t(1) << lane) - 1;
      return uint32_t(
                 llvm::popcount(ops.get(0, lane) & uint32_t(below >> 32))) +
             ops.get(1, lane);
    });
  });
}

/// Three-source integer ops (VOP3).
static void addTernaryOps(OpTable &t) {
  addForms(t, "v_mad_u32_u24", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return (a & 0xffffff) * (b & 0xffffff) + c;
           }>);
  addForms(t, "v_mad_i32_i24", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return uint32_t(signExtend24(a) * signExtend24(b)) + c;
           }>);
  addForms(t, "v_lshl_add_u32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return (a << (b & 31)) + c;
           }>);
  addForms(t, "v_add_lshl_u32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return (a + b) << (c & 31);
           }>);
  addForms(t, "v_lshl_or_b32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return (a << (b & 31)) | c;
           }>);
  addForms(
      t, "v_and_or_b32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t c) { return (a & b) | c; }>);
  addForms(
      t, "v_or3_b32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t c) { return a | b | c; }>);
  addForms(
      t, "v_xad_u32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t c) { return (a ^ b) + c; }>);
  addForms(
      t, "v_add3_u32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t c) { return a + b + c; }>);
  addForms(t, "v_med3_i32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             int32_t x = int32_t(a), y = int32_t(b), z = int32_t(c);
             return uint32_t(
                 std::max(std::min(x, y), std::min(std::max(x, y), z)));
           }>);
  addForms(t, "v_med3_u32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return std::max(std::min(a, b), std::min(std::max(a, b), c));
           }>);
  addForms(t, "v_min3_i32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return uint32_t(std::min({int32_t(a), int32_t(b), int32_t(c)}));
           }>);
  addForms(t, "v_max3_i32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return uint32_t(std::max({int32_t(a), int32_t(b), int32_t(c)}));
           }>);
  addForms(t, "v_min3_u32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return std::min({a, b, c});
           }>);
  addForms(t, "v_max3_u32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return std::max({a, b, c});
           }>);
  addForms(t, "v_bfe_u32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             unsigned offset = b & 31, width = c & 31;
             return width ? (a >> offset) & ((1u << width) - 1) : 0u;
           }>);
  addForms(t, "v_bfe_i32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             unsigned offset = b & 31, width = c & 31;
             if (!width)
               return 0u;
             uint32_t v = (a >> offset) & ((1u << width) - 1);
             return (v >> (width - 1)) & 1 ? v | ~((1u << width) - 1) : v;
           }>);
  addForms(t, "v_bfi_b32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return (a & b) | (~a & c);
           }>);
  addForms(t, "v_alignbit_b32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return uint32_t(((uint64_t(a) << 32) | b) >> (c & 31));
           }>);
  addForms(t, "v_perm_b32", lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             // Bytes of {src0, src1}: selector 0-3 src1, 4-7 src0; 8-11
             // sign bits, 12 zero, 13+ 0xff.
             uint64_t v = (uint64_t(a) << 32) | b;
             uint32_t d = 0;
             for (int i = 0; i < 4; ++i) {
               unsigned sel = (c >> (8 * i)) & 0xff;
               uint32_t byte;
               if (sel < 8)
                 byte = (v >> (8 * sel)) & 0xff;
               else if (sel < 12)
                 byte = ((v >> (16 * (sel - 8) + 15)) & 1) ? 0xff : 0;
               else
                 byte = sel == 12 ? 0 : 0xff;
               d |= byte << (8 * i);
             }
             return d;
           }>);
}

static void add16BitOps(OpTable &t) {
  addForms(t, "v_add_u16",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a + b; }, 0,
                    true>);
  addForms(t, "v_sub_u16",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a - b; }, 0,
                    true>);
  addForms(t, "v_mul_lo_u16",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) { return a * b; }, 0,
                    true>);
  addForms(t, "v_lshlrev_b16",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return (b & 0xffff) << (a & 15);
           },
                    0, true>);
  addForms(t, "v_lshrrev_b16",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return (b & 0xffff) >> (a & 15);
           },
                    0, true>);
  addForms(t, "v_min_u16",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return std::min(a & 0xffff, b & 0xffff);
           },
                    0, true>);
  addForms(t, "v_max_u16",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return std::max(a & 0xffff, b & 0xffff);
           },
                    0, true>);
}

static void addFloatOps(OpTable &t) {
  addForms(
      t, "v_add_f32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t) { return u(f(a) + f(b)); },
               32>);
  addForms(
      t, "v_sub_f32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t) { return u(f(a) - f(b)); },
               32>);
  addForms(
      t, "v_subrev_f32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t) { return u(f(b) - f(a)); },
               32>);
  addForms(
      t, "v_mul_f32",
      lanewise<[](uint32_t a, uint32_t b, uint32_t) { return u(f(a) * f(b)); },
               32>);
  addForms(t, "v_fma_f32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             return u(std::fma(f(a), f(b), f(c)));
           },
                    32>);
  addForms(t, "v_max_f32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return u(std::fmax(f(a), f(b)));
           },
                    32>);
  addForms(t, "v_min_f32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return u(std::fmin(f(a), f(b)));
           },
                    32>);
  addForms(t, "v_ldexp_f32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t) {
             return u(std::ldexp(f(a), int32_t(b)));
           },
                    32>);
  addForms(t, "v_exp_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return u(std::exp2(f(a)));
           },
                    32>);
  addForms(t, "v_log_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return u(std::log2(f(a)));
           },
                    32>);
  addForms(
      t, "v_rcp_f32",
      lanewise<[](uint32_t a, uint32_t, uint32_t) { return u(1.0f / f(a)); },
               32>);
  addForms(
      t, "v_rcp_iflag_f32",
      lanewise<[](uint32_t a, uint32_t, uint32_t) { return u(1.0f / f(a)); },
               32>);
  addForms(t, "v_sqrt_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return u(std::sqrt(f(a)));
           },
                    32>);
  addForms(t, "v_rndne_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return u(std::nearbyint(f(a)));
           },
                    32>);
  addForms(t, "v_trunc_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return u(std::trunc(f(a)));
           },
                    32>);
  addForms(t, "v_floor_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return u(std::floor(f(a)));
           },
                    32>);
  addForms(t, "v_maximum3_f32",
           lanewise<[](uint32_t a, uint32_t b, uint32_t c) {
             // maximum: NaN-propagating, -0 < +0.
             auto maximum = [](float x, float y) {
               if (std::isnan(x) || std::isnan(y))
                 return std::numeric_limits<float>::quiet_NaN();
               if (x == y)
                 return std::signbit(x) ? y : x;
               return x > y ? x : y;
             };
             return u(maximum(maximum(f(a), f(b)), f(c)));
           },
                    32>);
  addForms(t, "v_cvt_i32_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             // Saturating; NaN converts to 0.
             float x = std::trunc(f(a));
             if (std::isnan(x))
               return 0u;
             if (x >= 2147483648.0f)
               return 0x7fffffffu;
             if (x < -2147483648.0f)
               return 0x80000000u;
             return uint32_t(int32_t(x));
           },
                    32>);
  addForms(t, "v_cvt_u32_f32",
           lanewise<[](uint32_t a, uint32_t, uint32_t) {
             float x = f(a);
             if (std::isnan(x) || x <= 0)
               return 0u;
             return x >= 4294967296.0f ? 0xffffffffu : uint32_t(x);
           },
                    32>);
  addForms(
      t, "v_cvt_f32_u32",
      lanewise<[](uint32_t a, uint32_t, uint32_t) { return u(float(a)); }>);
  addForms(t, "v_cvt_f32_i32", lanewise<[](uint32_t a, uint32_t, uint32_t) {
             return u(float(int32_t(a)));
           }>);
}

void mlir::mx::gfx950::isa::detail::addVectorOps(OpTable &table) {
  addIntegerOps(table);
  addTernaryOps(table);
  add16BitOps(table);
  addFloatOps(table);
  addCompareOps(table);
}
