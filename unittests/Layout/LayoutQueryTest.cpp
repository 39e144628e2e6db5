//===- LayoutQueryTest.cpp - layout queries against the emulator ----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Checks mx::layout::OperandPlaces (where each element of a data-tiled tile
// lives, read off gfx950::getSwizzle) against the wave emulator's own lane
// tables (emu::operandItemPosition, scaleLanePosition,
// accumulatorItemPosition): for every lane and item of both intrinsics and
// every element width, the element the emulator reads from (lane, item) is
// the one the layout query places there. Multi-wave, unrolled layouts check
// the intrinsic, wave and scale-byte placement from the attribute's
// documented structure (subgroups outermost, then intrinsics, then lanes;
// wave w = subgroup (w / subgroups_n, w % subgroups_n); interleaved scale
// bytes M-major, K innermost).
//
//===----------------------------------------------------------------------===//

#include "mx/Layout/LayoutQuery.h"

#include "mx/Dialect/MX/IR/MXDialect.h"
#include "mx/Emulator/ScaledMFMA.h"
#include "mx/Target/GFX950/GFX950.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::mx;
using layout::ElementPlace;
using layout::OperandPlaces;

namespace {

constexpr auto k16 = gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128;
constexpr auto k32 = gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64;

class LayoutQueryTest : public ::testing::Test {
protected:
  LayoutQueryTest() : ctx(makeRegistry()) { ctx.loadAllAvailableDialects(); }

  /// The mx dialect and the gfx950 target (`#mx_gfx950.scaled_mfma`).
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registry.insert<MXDialect>();
    gfx950::registerTarget(registry);
    return registry;
  }

  /// The element type of emulator format `fmt`.
  Type typeOf(emu::SourceFormat fmt) {
    switch (fmt) {
    case emu::SourceFormat::E4M3:
      return Float8E4M3FNType::get(&ctx);
    case emu::SourceFormat::E5M2:
      return Float8E5M2Type::get(&ctx);
    case emu::SourceFormat::E2M3:
      return Float6E2M3FNType::get(&ctx);
    case emu::SourceFormat::E3M2:
      return Float6E3M2FNType::get(&ctx);
    case emu::SourceFormat::E2M1:
      return Float4E2M1FNType::get(&ctx);
    }
    return {};
  }

  OperandPlaces places(DataTiledLayoutAttr layout, OperandRole role) {
    std::string error;
    FailureOr<OperandPlaces> result = OperandPlaces::get(
        cast<TiledLayoutAttrInterface>(Attribute(layout)), role, error);
    EXPECT_TRUE(succeeded(result)) << error;
    return std::move(*result);
  }

  MLIRContext ctx;
};

struct Case {
  gfx950::ScaledMMAIntrinsic intrinsic;
  emu::MFMAShape shape;
  emu::SourceFormat fmtA, fmtB;
};

const Case kCases[] = {
    {k16, emu::MFMAShape::M16N16K128, emu::SourceFormat::E2M1,
     emu::SourceFormat::E4M3},
    {k16, emu::MFMAShape::M16N16K128, emu::SourceFormat::E4M3,
     emu::SourceFormat::E2M3},
    {k16, emu::MFMAShape::M16N16K128, emu::SourceFormat::E3M2,
     emu::SourceFormat::E5M2},
    {k32, emu::MFMAShape::M32N32K64, emu::SourceFormat::E2M1,
     emu::SourceFormat::E4M3},
    {k32, emu::MFMAShape::M32N32K64, emu::SourceFormat::E5M2,
     emu::SourceFormat::E2M3},
    {k32, emu::MFMAShape::M32N32K64, emu::SourceFormat::E2M3,
     emu::SourceFormat::E2M1},
};

/// One intrinsic: every (lane, item) of A, B, both scales and the
/// accumulator is where the emulator reads or writes it.
TEST_F(LayoutQueryTest, OneIntrinsicMatchesEmulatorLaneTables) {
  for (const Case &c : kCases) {
    SCOPED_TRACE(testing::Message()
                 << gfx950::stringifyScaledMMAIntrinsic(c.intrinsic).str()
                 << " A " << int(c.fmtA) << " B " << int(c.fmtB));
    auto layout = DataTiledLayoutAttr::get(
        &ctx, gfx950::ScaledMFMAAttr::get(&ctx, c.intrinsic), typeOf(c.fmtA),
        typeOf(c.fmtB), 1, 1, 1, 1, 1, {}, {}, {});
    for (auto [role, fmt] : {std::make_pair(OperandRole::lhs, c.fmtA),
                             std::make_pair(OperandRole::rhs, c.fmtB)}) {
      OperandPlaces operand = places(layout, role);
      int bits = emu::bitsOf(fmt);
      ASSERT_EQ(operand.getBits(), bits);
      ASSERT_EQ(operand.getLaneBits(), emu::kItemsPerLane * bits);
      for (int lane = 0; lane < emu::kWaveSize; ++lane)
        for (int t = 0; t < emu::kItemsPerLane; ++t) {
          emu::LanePosition pos =
              emu::operandItemPosition(c.shape, fmt, lane, t);
          const ElementPlace &place = operand.at(pos.row, pos.col);
          ASSERT_EQ(place.lane, lane) << "item " << t;
          ASSERT_EQ(place.item, t) << "lane " << lane;
          // Items are packed densely, little-endian (ISA §7.1.4).
          ASSERT_EQ(place.laneBit, t * bits);
          ASSERT_EQ(place.waves, (SmallVector<int64_t, 4>{0}));
          // The inverse query finds it in register t * bits / 32.
          auto held = operand.getHeldBy(0, lane, t * bits / 32);
          ASSERT_TRUE(llvm::is_contained(held, &place));
        }
    }
    for (OperandRole role :
         {OperandRole::lhs_scales, OperandRole::rhs_scales}) {
      OperandPlaces operand = places(layout, role);
      for (int lane = 0; lane < emu::kWaveSize; ++lane) {
        emu::LanePosition pos = emu::scaleLanePosition(c.shape, lane);
        const ElementPlace &place = operand.at(pos.row, pos.col);
        ASSERT_EQ(place.lane, lane);
        ASSERT_EQ(place.laneBit, 0);
      }
    }
    // The ukernels give the MFMA B as src0 and A as src1, so the MFMA's
    // D row is the result's column (D^T = B A^T).
    OperandPlaces result = places(layout, OperandRole::result);
    for (int lane = 0; lane < emu::kWaveSize; ++lane)
      for (int v = 0; v < emu::accumulatorsPerLane(c.shape); ++v) {
        emu::LanePosition pos = emu::accumulatorItemPosition(c.shape, lane, v);
        const ElementPlace &place = result.at(pos.col, pos.row);
        ASSERT_EQ(place.lane, lane);
        ASSERT_EQ(place.item, v);
        ASSERT_EQ(place.laneBit, 32 * v);
      }
  }
}

/// Unrolled intrinsics over several waves, scales interleaved as the
/// resolver makes them: each element is in the intrinsic, wave and lane item
/// the emulator expects for its position within that intrinsic.
TEST_F(LayoutQueryTest, UnrolledLayoutMatchesEmulatorLaneTables) {
  SmallVector<OperandRole> interleaveM = {OperandRole::lhs_scales};
  SmallVector<OperandRole> interleaveN = {OperandRole::rhs_scales};
  SmallVector<OperandRole> interleaveK = {OperandRole::lhs_scales,
                                          OperandRole::rhs_scales};
  for (const Case &c : kCases) {
    const int64_t im = 2, in = 3, ik = 2, sm = 2, sn = 2;
    SCOPED_TRACE(testing::Message()
                 << gfx950::stringifyScaledMMAIntrinsic(c.intrinsic).str()
                 << " A " << int(c.fmtA) << " B " << int(c.fmtB));
    auto layout = DataTiledLayoutAttr::get(
        &ctx, gfx950::ScaledMFMAAttr::get(&ctx, c.intrinsic), typeOf(c.fmtA),
        typeOf(c.fmtB), im, in, ik, sm, sn, interleaveM, interleaveN,
        interleaveK);
    const int md = emu::rowsOf(c.shape), depth = emu::depthOf(c.shape);
    const int blocks = emu::blocksOf(c.shape);
    // Data: A rows are (sg_m, i_m, r), B rows (sg_n, i_n, r); K is (i_k, k).
    for (auto [role, fmt, unroll, subgroups] :
         {std::make_tuple(OperandRole::lhs, c.fmtA, im, sm),
          std::make_tuple(OperandRole::rhs, c.fmtB, in, sn)}) {
      OperandPlaces operand = places(layout, role);
      ASSERT_EQ(operand.getNumWaves(), sm * sn);
      bool isLhs = role == OperandRole::lhs;
      for (int64_t sg = 0; sg < subgroups; ++sg)
        for (int64_t i = 0; i < unroll; ++i)
          for (int64_t iK = 0; iK < ik; ++iK)
            for (int lane = 0; lane < emu::kWaveSize; ++lane)
              for (int t = 0; t < emu::kItemsPerLane; ++t) {
                emu::LanePosition pos =
                    emu::operandItemPosition(c.shape, fmt, lane, t);
                const ElementPlace &place = operand.at(
                    (sg * unroll + i) * md + pos.row, iK * depth + pos.col);
                ASSERT_EQ(place.lane, lane);
                ASSERT_EQ(place.item, t);
                ASSERT_EQ(place.laneBit, t * emu::bitsOf(fmt));
                ASSERT_EQ(isLhs ? place.intrinsicM : place.intrinsicN, i);
                ASSERT_EQ(place.intrinsicK, iK);
                SmallVector<int64_t, 4> waves;
                for (int64_t w = 0; w < sm * sn; ++w)
                  if ((isLhs ? w / sn : w % sn) == sg)
                    waves.push_back(w);
                ASSERT_EQ(place.waves, waves);
              }
    }
    // Scales: one byte per intrinsic, the M (N) unroll then the K unroll
    // innermost in the lane's values.
    for (auto [role, unroll, subgroups] :
         {std::make_tuple(OperandRole::lhs_scales, im, sm),
          std::make_tuple(OperandRole::rhs_scales, in, sn)}) {
      OperandPlaces operand = places(layout, role);
      ASSERT_EQ(operand.getLaneBits(), 8 * unroll * ik);
      for (int64_t sg = 0; sg < subgroups; ++sg)
        for (int64_t i = 0; i < unroll; ++i)
          for (int64_t iK = 0; iK < ik; ++iK)
            for (int lane = 0; lane < emu::kWaveSize; ++lane) {
              emu::LanePosition pos = emu::scaleLanePosition(c.shape, lane);
              const ElementPlace &place = operand.at(
                  (sg * unroll + i) * md + pos.row, iK * blocks + pos.col);
              ASSERT_EQ(place.lane, lane);
              ASSERT_EQ(place.laneBit, 8 * (i * ik + iK));
            }
    }
    // Accumulator: rows (sg_m, i_m, row), columns (sg_n, i_n, col), (row,
    // col) the MFMA's D^T (B is src0); wave sg_m * sn + sg_n.
    OperandPlaces result = places(layout, OperandRole::result);
    for (int64_t sgM = 0; sgM < sm; ++sgM)
      for (int64_t sgN = 0; sgN < sn; ++sgN)
        for (int64_t iM = 0; iM < im; ++iM)
          for (int64_t iN = 0; iN < in; ++iN)
            for (int lane = 0; lane < emu::kWaveSize; ++lane)
              for (int v = 0; v < emu::accumulatorsPerLane(c.shape); ++v) {
                emu::LanePosition pos =
                    emu::accumulatorItemPosition(c.shape, lane, v);
                const ElementPlace &place =
                    result.at((sgM * im + iM) * md + pos.col,
                              (sgN * in + iN) * md + pos.row);
                ASSERT_EQ(place.lane, lane);
                ASSERT_EQ(place.item, v);
                ASSERT_EQ(place.intrinsicM, iM);
                ASSERT_EQ(place.intrinsicN, iN);
                ASSERT_EQ(place.waves,
                          (SmallVector<int64_t, 4>{sgM * sn + sgN}));
              }
  }
}

/// The "what does lane L of wave W hold in register R" query on fp6: items
/// straddling two registers are in both.
/// getInstructionKStep is the instruction's K, and instruction q of a K step
/// (ElementPlace::intrinsicK) holds exactly the K columns [q kStep,
/// (q + 1) kStep) of the lhs tile, with or without the K unroll interleaved.
TEST_F(LayoutQueryTest, InstructionKStepMatchesPlaces) {
  for (auto [intrinsic, shape] : {std::pair(k16, emu::MFMAShape::M16N16K128),
                                  std::pair(k32, emu::MFMAShape::M32N32K64)}) {
    for (emu::SourceFormat fmt :
         {emu::SourceFormat::E2M1, emu::SourceFormat::E3M2,
          emu::SourceFormat::E4M3}) {
      for (int64_t ik : {1, 2, 4}) {
        for (bool interleave : {false, true}) {
          SmallVector<OperandRole> interleaveK = {OperandRole::lhs_scales};
          if (interleave)
            interleaveK.push_back(OperandRole::lhs);
          auto layout = DataTiledLayoutAttr::get(
              &ctx, gfx950::ScaledMFMAAttr::get(&ctx, intrinsic), typeOf(fmt),
              typeOf(fmt), 2, 1, ik, 1, 1, {OperandRole::lhs_scales}, {},
              interleaveK);
          std::optional<int64_t> kStep = layout::getInstructionKStep(
              cast<TiledLayoutAttrInterface>(Attribute(layout)));
          ASSERT_TRUE(kStep.has_value());
          EXPECT_EQ(*kStep, emu::depthOf(shape));
          OperandPlaces lhs = places(layout, OperandRole::lhs);
          for (int64_t k = 0; k < lhs.getCols(); ++k)
            EXPECT_EQ(std::max<int64_t>(0, lhs.at(0, k).intrinsicK), k / *kStep)
                << "k = " << k << ", intrinsics_k = " << ik;
        }
      }
    }
  }
}

TEST_F(LayoutQueryTest, HeldByCountsStraddlingItems) {
  auto layout = DataTiledLayoutAttr::get(
      &ctx, gfx950::ScaledMFMAAttr::get(&ctx, k16), Float6E2M3FNType::get(&ctx),
      Float4E2M1FNType::get(&ctx), 1, 1, 1, 1, 1, {}, {}, {});
  OperandPlaces lhs = places(layout, OperandRole::lhs);
  // Register 0 holds bits 0..31: items 0..4 and the low 2 bits of item 5.
  auto held = lhs.getHeldBy(0, 0, 0);
  ASSERT_EQ(held.size(), 6u);
  for (int t = 0; t < 6; ++t) {
    emu::LanePosition pos = emu::operandItemPosition(
        emu::MFMAShape::M16N16K128, emu::SourceFormat::E2M3, 0, t);
    EXPECT_EQ(held[t], &lhs.at(pos.row, pos.col));
  }
  // Register 1 holds bits 32..63: item 5 (bits 30..35) to item 10 (60..65).
  EXPECT_EQ(lhs.getHeldBy(0, 0, 1).size(), 6u);
  EXPECT_TRUE(lhs.getHeldBy(1, 0, 0).empty()) << "there is one wave";
}

} // namespace
