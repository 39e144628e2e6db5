//===- MatrixOps.cpp - scaled MFMA, MX conversions, AGPR moves ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// v_mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4 and v_cvt_scalef32_pk_fp4_*
// on the register file, with the wave emulator's arithmetic
// (mx/Emulator/ScaledMFMA.h): the A/B formats come from CBSZ/BLGP, the
// scale bytes from {OP_SEL_HI[i], OP_SEL[i]} of each scale operand.
//
//===----------------------------------------------------------------------===//

#include "VectorOpsImpl.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;
using namespace mlir::mx;
using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

/// Lane-major copy of \p words registers of operand \p op: out[l * words +
/// w] = register w of lane l.
static void gather(const Context &ctx, const Operand &op, unsigned words,
                   uint32_t *out) {
  if (!op.isVector()) {
    uint32_t value = ctx.src32(op, 0);
    std::fill(out, out + kLanes * words, value);
    return;
  }
  for (unsigned w = 0; w < words; ++w) {
    const uint32_t *reg = &ctx.w.v[(Context::unified(op) + w) * kLanes];
    for (int lane = 0; lane < kLanes; ++lane)
      out[lane * words + w] = reg[lane];
  }
}

/// The scale byte an MFMA scale operand \p i (0: A, 1: B) uses.
static unsigned scaleByte(const Instruction &inst, unsigned i) {
  unsigned hi = inst.hasOpSelHi ? (inst.opSelHi >> i) & 1 : 1;
  return hi << 1 | ((inst.opSel >> i) & 1);
}

template <emu::MFMAShape shape>
static Step scaledMFMA(Context &ctx, const Instruction &inst) {
  if (inst.cbsz > 4 || inst.blgp > 4)
    return ctx.fail(formatv("cbsz:{0} blgp:{1} name no f8f6f4 format",
                            inst.cbsz, inst.blgp));
  auto fmtA = emu::SourceFormat(inst.cbsz);
  auto fmtB = emu::SourceFormat(inst.blgp);
  unsigned wordsA = emu::wordsPerLane(fmtA), wordsB = emu::wordsPerLane(fmtB);
  unsigned accs = emu::accumulatorsPerLane(shape);
  const Operand &dst = inst.operands[0];
  if (dst.count < accs ||
      (inst.operands[1].isVector() && inst.operands[1].count < wordsA) ||
      (inst.operands[2].isVector() && inst.operands[2].count < wordsB))
    return ctx.fail("register operands narrower than the formats need");
  uint32_t a[kLanes * 8], b[kLanes * 8], scaleA[kLanes], scaleB[kLanes];
  float c[kLanes * 16], d[kLanes * 16];
  gather(ctx, inst.operands[1], wordsA, a);
  gather(ctx, inst.operands[2], wordsB, b);
  gather(ctx, inst.operands[3], accs, reinterpret_cast<uint32_t *>(c));
  gather(ctx, inst.operands[4], 1, scaleA);
  gather(ctx, inst.operands[5], 1, scaleB);
  emu::ScaledMFMAOperands ops{shape,  fmtA,
                              fmtB,   a,
                              b,      c,
                              scaleA, scaleByte(inst, 0),
                              scaleB, scaleByte(inst, 1)};
  emu::scaledMFMA(ops, d, ctx.options.numerics);
  unsigned base = Context::unified(dst);
  for (unsigned v = 0; v < accs; ++v) {
    uint32_t *reg = &ctx.w.v[(base + v) * kLanes];
    for (int lane = 0; lane < kLanes; ++lane)
      reg[lane] = fromF32(d[lane * accs + v]);
  }
  ++ctx.mfmas;
  return Step::Next;
}

/// v_cvt_scalef32_pk_fp4_{f32,f16,bf16}: two values, divided by the f32
/// scale's power of two, to two FP4 codes in byte OP_SEL[3:2] of the
/// destination (the other bytes kept).
template <int sourceKind>
static Step convertToFP4(Context &ctx, const Instruction &inst) {
  unsigned index = ((inst.opSel >> 2) & 1) | ((inst.opSel >> 3) & 1) << 1;
  unsigned numSources = sourceKind == 32 ? 2 : 1;
  const Operand &scale = inst.operands[1 + numSources];
  return forEachLane(ctx, inst, 0, 2, [&](const VALUOperands &, int lane) {
    uint32_t old = ctx.src32(inst.operands[0], lane);
    int exponent = int((ctx.src32(scale, lane, 32) >> 23) & 0xff);
    double values[2];
    if (sourceKind == 32) {
      values[0] = toF32(ctx.src32(inst.operands[1], lane, 32));
      values[1] = toF32(ctx.src32(inst.operands[2], lane, 32));
    } else {
      uint32_t packed = ctx.src32(inst.operands[1], lane, 16);
      for (int j = 0; j < 2; ++j) {
        uint16_t half = uint16_t(packed >> (16 * j));
        values[j] =
            sourceKind == 16 ? halfToF32(half) : toF32(uint32_t(half) << 16);
      }
    }
    uint32_t byte = emu::convertToFP4(values[0], exponent) |
                    emu::convertToFP4(values[1], exponent) << 4;
    return (old & ~(0xffu << (8 * index))) | byte << (8 * index);
  });
}

void mlir::mx::gfx950::isa::detail::addMatrixOps(OpTable &t) {
  t["v_mfma_scale_f32_16x16x128_f8f6f4"] = {
      scaledMFMA<emu::MFMAShape::M16N16K128>};
  t["v_mfma_scale_f32_32x32x64_f8f6f4"] = {
      scaledMFMA<emu::MFMAShape::M32N32K64>};
  t["v_cvt_scalef32_pk_fp4_f32"] = {convertToFP4<32>};
  t["v_cvt_scalef32_pk_fp4_f16"] = {convertToFP4<16>};
  t["v_cvt_scalef32_pk_fp4_bf16"] = {convertToFP4<0>};
  Handler move = [](Context &ctx, const Instruction &inst) {
    return forEachLane(ctx, inst, 0, 1, [](const VALUOperands &ops, int l) {
      return ops.get(0, l);
    });
  };
  for (const char *name :
       {"v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_accvgpr_mov_b32",
        "v_accvgpr_read", "v_accvgpr_write", "v_accvgpr_mov"})
    t[name] = {move};
}
