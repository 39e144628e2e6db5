//===- ScaledMFMA.cpp - gfx950 scaled MFMA instruction semantics ----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lane layouts: scaledMFMA() unpacks the register tuples of the 64 lanes
// into logical A [Md][K], B (as [N][K]), the scales and C, computes every
// output element with the numerics function (ScaledDotExact.cpp,
// ScaledDotGrouped.cpp; the exact one through a wave-level fast path that
// decodes the operands once) and scatters D back.
//
//===----------------------------------------------------------------------===//

#include "ScaledDot.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace mlir::mx::emu;
using mlir::mx::emu::detail::combineBlocks;
using mlir::mx::emu::detail::combineSmallBlocks;
using mlir::mx::emu::detail::getScaledIntTable;
using mlir::mx::emu::detail::Int128;
using mlir::mx::emu::detail::kMaxFastBlocks;
using mlir::mx::emu::detail::ScaledIntTable;

//===----------------------------------------------------------------------===//
// Lane layouts
//===----------------------------------------------------------------------===//

namespace {

/// Returns item \p t (width \p width bits) of the little-endian densely
/// packed register tuple \p words.
uint8_t extractItem(const uint32_t *words, int width, int t) {
  int bit = width * t;
  int word = bit / 32, offset = bit % 32;
  uint32_t value = words[word] >> offset;
  if (offset + width > 32)
    value |= words[word + 1] << (32 - offset);
  return static_cast<uint8_t>(value & ((1u << width) - 1));
}

/// Returns the K index of item \p t of a lane in K-group \p g (ISA §7.1.5.1).
int kIndexOf(SourceFormat fmt, int depth, int g, int t) {
  if (bitsOf(fmt) == 8) // fp8: two 16-element chunks, K/2 apart.
    return (t / 16) * (depth / 2) + 16 * g + (t % 16);
  return 32 * g + t; // fp6/fp4: 32 consecutive K values.
}

/// Returns the (row, column) of accumulator item \p v of lane \p lane.
void accumulatorPosition(MFMAShape shape, int lane, int v, int &row, int &col) {
  int md = rowsOf(shape);
  int g = lane / md;
  col = lane % md;
  row = shape == MFMAShape::M16N16K128 ? 4 * g + v
                                       : 8 * (v / 4) + 4 * g + (v % 4);
}

/// Unpacks the A or B operand: out[r * K + k] = element (r, k) of A, or
/// (k, column r) of B.
void unpackOperand(MFMAShape shape, SourceFormat fmt, const uint32_t *regs,
                   uint8_t *out) {
  int md = rowsOf(shape), depth = depthOf(shape);
  int words = wordsPerLane(fmt);
  for (int lane = 0; lane < kWaveSize; ++lane) {
    int r = lane % md, g = lane / md;
    const uint32_t *laneWords = regs + lane * words;
    uint8_t items[kItemsPerLane];
    // A constant width lets the compiler unroll the extraction.
    auto extractAll = [&](auto width) {
      for (int t = 0; t < kItemsPerLane; ++t)
        items[t] = extractItem(laneWords, width, t);
    };
    switch (bitsOf(fmt)) {
    case 4:
      extractAll(std::integral_constant<int, 4>());
      break;
    case 6:
      extractAll(std::integral_constant<int, 6>());
      break;
    default:
      extractAll(std::integral_constant<int, 8>());
      break;
    }
    for (int t = 0; t < kItemsPerLane; ++t)
      out[r * depth + kIndexOf(fmt, depth, g, t)] = items[t];
  }
}

/// Unpacks a scale operand: out[r * blocks + g] = selected byte of lane
/// r + Md * g.
void unpackScales(MFMAShape shape, const uint32_t *regs, unsigned opsel,
                  uint8_t *out) {
  assert(opsel < 4 && "opsel selects one of 4 bytes");
  int md = rowsOf(shape), blocks = blocksOf(shape);
  for (int lane = 0; lane < kWaveSize; ++lane)
    out[(lane % md) * blocks + lane / md] =
        static_cast<uint8_t>(regs[lane] >> (8 * (opsel & 3)));
}

/// The logical operands of one scaled MFMA (see scaledMFMA): A [Md][K], B
/// as [N][K], the scales [Md][blocks] of each and C [Md][Md]. The element
/// codes are unpacked from the registers on first use (the fast path reads
/// the registers directly and needs them only for a fallback).
struct LogicalOperands {
  const ScaledMFMAOperands &regs;
  int md, depth, blocks;
  const uint8_t *scaleA, *scaleB;
  const float *c;
  std::array<uint8_t, kWaveSize * kItemsPerLane> a, b;
  bool unpacked = false;

  LogicalOperands(const ScaledMFMAOperands &regs, const uint8_t *scaleA,
                  const uint8_t *scaleB, const float *c)
      : regs(regs), md(rowsOf(regs.shape)), depth(depthOf(regs.shape)),
        blocks(blocksOf(regs.shape)), scaleA(scaleA), scaleB(scaleB), c(c) {}

  /// The inputs of output element D[i][j].
  ScaledDotInputs inputs(int i, int j) {
    if (!unpacked) {
      unpackOperand(regs.shape, regs.fmtA, regs.a, a.data());
      unpackOperand(regs.shape, regs.fmtB, regs.b, b.data());
      unpacked = true;
    }
    return {regs.fmtA,
            regs.fmtB,
            depth,
            a.data() + i * depth,
            b.data() + j * depth,
            scaleA + i * blocks,
            scaleB + j * blocks,
            c[i * md + j]};
  }
};

/// The values (as \p Elem) of the two 4-bit codes of each byte, low nibble
/// first, for the fp4 table \p table (E2M1: the only 4-bit format).
template <typename Elem>
const std::array<Elem, 2> *getNibblePairs(const ScaledIntTable &table) {
  static const std::array<std::array<Elem, 2>, 256> pairs = [&] {
    std::array<std::array<Elem, 2>, 256> result;
    for (int byte = 0; byte < 256; ++byte)
      result[byte] = {static_cast<Elem>(table.value[byte & 0xF]),
                      static_cast<Elem>(table.value[byte >> 4])};
    return result;
  }();
  return pairs.data();
}

/// Decodes the A or B registers \p regs of format \p fmt straight into
/// integer units, in the logical order of unpackOperand (out[r * K + k]),
/// and sets wide[r] for the rows (columns of B) holding a NaN or Inf code.
template <typename Elem>
void decodeOperand(MFMAShape shape, SourceFormat fmt, const uint32_t *regs,
                   Elem *out, bool *wide) {
  const ScaledIntTable &table = getScaledIntTable(fmt);
  const int md = rowsOf(shape), depth = depthOf(shape);
  const int words = wordsPerLane(fmt), width = bitsOf(fmt);
  const bool hasSpecials =
      fmt == SourceFormat::E4M3 || fmt == SourceFormat::E5M2;
  for (int lane = 0; lane < kWaveSize; ++lane) {
    int r = lane % md, g = lane / md;
    const uint32_t *laneWords = regs + lane * words;
    Elem *row = out + r * depth;
    if (width == 4) {
      // Byte i holds items 2i (low nibble) and 2i + 1: K 32g + 2i and up,
      // both decoded by one lookup of the byte.
      const std::array<Elem, 2> *pairs = getNibblePairs<Elem>(table);
      Elem *to = row + kScaleBlock * g;
      for (int i = 0; i < kItemsPerLane / 2; ++i) {
        uint8_t byte = static_cast<uint8_t>(laneWords[i / 4] >> (8 * (i % 4)));
        std::memcpy(to + 2 * i, pairs[byte].data(), sizeof(pairs[byte]));
      }
    } else if (width == 8) {
      bool special = false;
      for (int t = 0; t < kItemsPerLane; ++t) {
        uint8_t code = static_cast<uint8_t>(laneWords[t / 4] >> (8 * (t % 4)));
        row[kIndexOf(fmt, depth, g, t)] = static_cast<Elem>(table.value[code]);
        special |= table.special[code];
      }
      wide[r] |= hasSpecials && special;
    } else {
      for (int t = 0; t < kItemsPerLane; ++t)
        row[kScaleBlock * g + t] =
            static_cast<Elem>(table.value[extractItem(laneWords, width, t)]);
    }
  }
}

/// Returns 2^e as a double for a block exponent \p e (well inside the
/// normal range: element units times a scale, at least 2^-160).
inline double powerOfTwo(int e) {
  assert(e > -1022 && e < 1024 && "outside the normal double range");
  uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// The fast exact path of a whole MFMA (see exactScaledDot), with elements
/// held as \p Elem and K-blocks summed in \p Acc, which must hold 32
/// products of any two elements of the formats.
template <typename Elem, typename Acc>
void fastMFMAWith(LogicalOperands &ops, float *result) {
  const ScaledIntTable &ta = getScaledIntTable(ops.regs.fmtA);
  const ScaledIntTable &tb = getScaledIntTable(ops.regs.fmtB);
  const int md = ops.md, depth = ops.depth, blocks = ops.blocks;
  constexpr int kMaxElements = kWaveSize * kItemsPerLane;
  Elem av[kMaxElements], bv[kMaxElements];
  // Rows of A and columns of B with a NaN/Inf code or a NaN scale take the
  // wide path; their (zero) integer values are not used.
  bool rowWide[32] = {}, colWide[32] = {};
  decodeOperand(ops.regs.shape, ops.regs.fmtA, ops.regs.a, av, rowWide);
  decodeOperand(ops.regs.shape, ops.regs.fmtB, ops.regs.b, bv, colWide);
  int expA[32 * kMaxFastBlocks], expB[32 * kMaxFastBlocks];
  // 2^expA and 2^expB as doubles, and per row (column) the smallest and
  // largest block exponent, for the double sum below.
  double powA[32 * kMaxFastBlocks], powB[32 * kMaxFastBlocks];
  int minExpA[32], maxExpA[32], minExpB[32], maxExpB[32];
  for (int r = 0; r < md; ++r) {
    minExpA[r] = minExpB[r] = std::numeric_limits<int>::max();
    maxExpA[r] = maxExpB[r] = std::numeric_limits<int>::min();
    for (int blk = 0; blk < blocks; ++blk) {
      int index = r * blocks + blk;
      rowWide[r] |= ops.scaleA[index] == 0xFF;
      colWide[r] |= ops.scaleB[index] == 0xFF;
      expA[index] = ta.unitExp + static_cast<int>(ops.scaleA[index]) - 127;
      expB[index] = tb.unitExp + static_cast<int>(ops.scaleB[index]) - 127;
      powA[index] = powerOfTwo(expA[index]);
      powB[index] = powerOfTwo(expB[index]);
      minExpA[r] = std::min(minExpA[r], expA[index]);
      maxExpA[r] = std::max(maxExpA[r], expA[index]);
      minExpB[r] = std::min(minExpB[r], expB[index]);
      maxExpB[r] = std::max(maxExpB[r], expB[index]);
    }
  }
  // The block sums stay below 2^kSumBits units (see fastMFMA; 128-bit
  // sums do not take the double path).
  constexpr int kSumBits = sizeof(Acc) <= 4 ? 23 : 41;

  for (int i = 0; i < md; ++i)
    for (int j = 0; j < md; ++j) {
      float &out = result[i * md + j];
      if (rowWide[i] || colWide[j]) {
        out = wideScaledDot(ops.inputs(i, j));
        continue;
      }
      using Sum = std::conditional_t<sizeof(Acc) <= 8, int64_t, Int128>;
      Sum sums[kMaxFastBlocks];
      int exps[kMaxFastBlocks];
      for (int blk = 0; blk < blocks; ++blk) {
        const Elem *pa = av + i * depth + blk * kScaleBlock;
        const Elem *pb = bv + j * depth + blk * kScaleBlock;
        Acc sum = 0;
        for (int k = 0; k < kScaleBlock; ++k)
          sum += static_cast<Acc>(pa[k]) * static_cast<Acc>(pb[k]);
        sums[blk] = sum;
        exps[blk] = expA[i * blocks + blk] + expB[j * blocks + blk];
      }
      // The usual case in double: every term (the block sums times their
      // units, C) is a multiple of 2^lo below 2^hi, so when hi - lo leaves
      // room for the carries of up to kMaxFastBlocks + 1 terms within 53
      // bits, the double sum is exact and its conversion to f32 the one
      // rounding to nearest-even. Exact zeros (their sign), results outside
      // the normal f32 range and NaN/Inf C take combineSmallBlocks /
      // combineBlocks. Bit-identical to them (ScaledMFMAFastPathTest).
      float c = ops.c[i * md + j];
      uint32_t cBits;
      std::memcpy(&cBits, &c, sizeof(cBits));
      int cField = static_cast<int>((cBits >> 23) & 0xFF);
      int lo = minExpA[i] + minExpB[j];
      int hi = maxExpA[i] + maxExpB[j] + kSumBits;
      if ((cBits & 0x7FFFFFFF) != 0) {
        int cLsb = std::max(cField, 1) - 150;
        lo = std::min(lo, cLsb);
        hi = std::max(hi, cLsb + 24);
      }
      // (With E5M2 the block sums are 128-bit: no double path.)
      if (sizeof(Acc) <= 8 && cField != 0xFF && hi - lo <= 49) {
        double total = c;
        for (int blk = 0; blk < blocks; ++blk)
          total += static_cast<double>(sums[blk]) *
                   (powA[i * blocks + blk] * powB[j * blocks + blk]);
        double magnitude = std::fabs(total);
        if (magnitude >= 0x1p-126 && magnitude < 0x1p127) {
          out = static_cast<float>(total);
          continue;
        }
      }
      bool done;
      if constexpr (sizeof(Acc) <= 8)
        done = combineSmallBlocks(sums, exps, blocks, c, out);
      else
        done = combineBlocks(sums, exps, blocks, c, out);
      if (!done)
        out = wideScaledDot(ops.inputs(i, j));
    }
}

/// Computes every output of a whole MFMA with the numerics of exactScaledDot
/// into \p result ([Md][Md]), with the narrowest integers that hold the
/// formats' block sums exactly.
void fastMFMA(LogicalOperands &ops, float *result) {
  auto isSmall = [](SourceFormat fmt) {
    return fmt == SourceFormat::E2M1 || fmt == SourceFormat::E2M3 ||
           fmt == SourceFormat::E3M2;
  };
  SourceFormat fmtA = ops.regs.fmtA, fmtB = ops.regs.fmtB;
  // fp4/fp6: elements below 2^9 units, 32 products below 2^23.
  if (isSmall(fmtA) && isSmall(fmtB))
    return fastMFMAWith<int16_t, int32_t>(ops, result);
  // With E4M3: elements below 2^18 units, 32 products below 2^41.
  if (fmtA != SourceFormat::E5M2 && fmtB != SourceFormat::E5M2)
    return fastMFMAWith<int32_t, int64_t>(ops, result);
  // With E5M2: elements below 2^32 units, 32 products below 2^69.
  return fastMFMAWith<int64_t, Int128>(ops, result);
}

} // namespace

void mlir::mx::emu::scaledMFMA(const ScaledMFMAOperands &ops, float *d,
                               ScaledDotFn numerics) {
  const MFMAShape shape = ops.shape;
  const int md = rowsOf(shape), acc = accumulatorsPerLane(shape);
  static_assert(16 * 128 == kWaveSize * kItemsPerLane &&
                    32 * 64 == kWaveSize * kItemsPerLane,
                "every lane item is one matrix element");

  // Logical operands: A [Md][K], B as [N][K], scales [Md][blocks], C [Md][Md].
  // Fixed-size buffers, so that an MFMA allocates nothing.
  constexpr int kScales = kWaveSize;
  constexpr int kAccumulators = 32 * 32;
  std::array<uint8_t, kScales> sa, sb;
  std::array<float, kAccumulators> c, result;
  unpackScales(shape, ops.scaleA, ops.opselA, sa.data());
  unpackScales(shape, ops.scaleB, ops.opselB, sb.data());
  for (int lane = 0; lane < kWaveSize; ++lane)
    for (int v = 0; v < acc; ++v) {
      int row, col;
      accumulatorPosition(shape, lane, v, row, col);
      c[row * md + col] = ops.c[lane * acc + v];
    }

  LogicalOperands logical(ops, sa.data(), sb.data(), c.data());
  if (numerics == exactScaledDot) {
    fastMFMA(logical, result.data());
  } else {
    for (int i = 0; i < md; ++i)
      for (int j = 0; j < md; ++j)
        result[i * md + j] = numerics(logical.inputs(i, j));
  }

  // Written only after every input was read, so d may alias ops.c.
  for (int lane = 0; lane < kWaveSize; ++lane)
    for (int v = 0; v < acc; ++v) {
      int row, col;
      accumulatorPosition(shape, lane, v, row, col);
      d[lane * acc + v] = result[row * md + col];
    }
}

void mlir::mx::emu::scaledMFMA(MFMAShape shape, SourceFormat fmtA,
                               SourceFormat fmtB, const uint32_t *a,
                               const uint32_t *b, const float *c,
                               const uint32_t *scaleA, unsigned opselA,
                               const uint32_t *scaleB, unsigned opselB,
                               float *d) {
  ScaledMFMAOperands ops{shape, fmtA,   fmtB,   a,      b,
                         c,     scaleA, opselA, scaleB, opselB};
  scaledMFMA(ops, d);
}

//===----------------------------------------------------------------------===//
// Lane tables, exposed
//===----------------------------------------------------------------------===//

LanePosition mlir::mx::emu::operandItemPosition(MFMAShape shape,
                                                SourceFormat fmt, int lane,
                                                int t) {
  int md = rowsOf(shape);
  return {lane % md, kIndexOf(fmt, depthOf(shape), lane / md, t)};
}

LanePosition mlir::mx::emu::scaleLanePosition(MFMAShape shape, int lane) {
  // As unpackScales: lane r + Md * g holds (row r, K-block g).
  int md = rowsOf(shape);
  return {lane % md, lane / md};
}

LanePosition mlir::mx::emu::accumulatorItemPosition(MFMAShape shape, int lane,
                                                    int v) {
  LanePosition pos;
  accumulatorPosition(shape, lane, v, pos.row, pos.col);
  return pos;
}

/// The FP4 (E2M1) code of \p value divided by 2^(scaleExponent - 127), as
/// CDNA4's ISA (section 7.3) defines V_CVT_SCALEF32_PK_FP4_*: the quotient
/// (exact here, in double) rounded to the nearest FP4 value, ties to even;
/// a magnitude beyond 6 after rounding saturates to 6; the sign is kept (a
/// result rounded to zero keeps the sign of the input). NaN and infinite
/// inputs, which the ISA text leaves open, saturate like large values (the
/// quantize kernels discard their codes).
uint8_t mlir::mx::emu::convertToFP4(double value, int scaleExponent) {
  bool negative = std::signbit(value);
  double magnitude = std::fabs(value);
  uint8_t code;
  if (std::isnan(magnitude) || std::isinf(magnitude)) {
    code = 7;
  } else {
    double q = std::ldexp(magnitude, 127 - scaleExponent);
    // The grid: 0.5 apart below 2, 1 apart in [2, 4), 2 apart in [4, 6].
    if (q < 2) {
      code = uint8_t(std::nearbyint(q * 2)); // 0..4 (4: 2.0)
    } else if (q < 4) {
      code = uint8_t(4 + std::nearbyint(q) - 2); // 2 -> 4, 3 -> 5, 4 -> 6
    } else {
      double rounded = std::nearbyint(q / 2) * 2; // 4 -> 6, 6 -> 7
      code = rounded >= 6 ? 7 : 6;
    }
  }
  return uint8_t(code | (negative ? 0x8 : 0));
}
