//===- SwizzleTest.cpp - gfx950 data-tiled swizzles -----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Pins the swizzles of mx::gfx950::getSwizzle against expectations derived by
// hand from the CDNA4 ISA "F8F6F4 MFMA" lane layout tables, both as explicit
// expand shapes/permutations and element by element (lane, item) -> (row, k).
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"

#include "mx/Dialect/MX/IR/MXDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::mx;
using Kind = TileSwizzle::Kind;

namespace {

class SwizzleTest : public ::testing::Test {
protected:
  SwizzleTest() { ctx.loadDialect<MXDialect, gfx950::GFX950Dialect>(); }

  DataTiledLayoutAttr layout(gfx950::ScaledMMAIntrinsic intrinsic, Type lhs,
                             Type rhs, int64_t im = 1, int64_t in = 1,
                             int64_t ik = 1, int64_t sm = 1, int64_t sn = 1,
                             ArrayRef<OperandRole> interleaveM = {},
                             ArrayRef<OperandRole> interleaveN = {},
                             ArrayRef<OperandRole> interleaveK = {}) {
    return DataTiledLayoutAttr::get(
        &ctx, gfx950::ScaledMFMAAttr::get(&ctx, intrinsic), lhs, rhs, im, in,
        ik, sm, sn, interleaveM, interleaveN, interleaveK);
  }

  Type f4() { return Float4E2M1FNType::get(&ctx); }
  Type f8() { return Float8E4M3FNType::get(&ctx); }
  Type f6() { return Float6E2M3FNType::get(&ctx); }

  static SmallVector<int64_t> kinds(const TileSwizzle &s) {
    SmallVector<int64_t> result;
    for (const auto &group : s.expandShape)
      for (const auto &dim : group)
        result.push_back(static_cast<int64_t>(dim.kind));
    return result;
  }

  MLIRContext ctx;
};

constexpr auto k16 = gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128;
constexpr auto k32 = gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64;

/// Maps a position of the swizzled tile back to (row, column) of the
/// unswizzled inner tile.
std::pair<int64_t, int64_t> unswizzle(const TileSwizzle &s,
                                      ArrayRef<int64_t> position) {
  SmallVector<int64_t> coords = s.getTileCoords(position);
  return {coords[0], coords[1]};
}

TEST_F(SwizzleTest, Fp4Lhs16x16x128) {
  TileSwizzle s = gfx950::getSwizzle(layout(k16, f4(), f4()), OperandRole::lhs);
  // M: 16 lanes (r); K: 4 lane groups (g) x 32 values per lane.
  ASSERT_EQ(s.expandShape.size(), 2u);
  EXPECT_EQ(s.getExpandedShape(), (SmallVector<int64_t>{16, 4, 32}));
  EXPECT_EQ(kinds(s),
            (SmallVector<int64_t>{int64_t(Kind::Lane), int64_t(Kind::Lane),
                                  int64_t(Kind::Internal)}));
  EXPECT_EQ(s.permutation, (SmallVector<int64_t>{1, 0, 2}));
  EXPECT_EQ(s.getSwizzledShape(), (SmallVector<int64_t>{4, 16, 32}));
}

/// ISA table: fp4/fp6 lane l, item t holds A[l % Md][32 (l / Md) + t].
static void checkContiguousOperand(const TileSwizzle &s, int64_t md) {
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t t = 0; t < 32; ++t) {
      auto [row, k] = unswizzle(s, {lane / md, lane % md, t});
      EXPECT_EQ(row, lane % md);
      EXPECT_EQ(k, 32 * (lane / md) + t);
    }
}

/// ISA table: fp8 lane l, item t = 16 h + u holds
/// A[l % Md][h * K/2 + 16 (l / Md) + u].
static void checkFp8Operand(const TileSwizzle &s, int64_t md, int64_t k) {
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t t = 0; t < 32; ++t) {
      auto [row, col] = unswizzle(s, {lane / md, lane % md, t / 16, t % 16});
      EXPECT_EQ(row, lane % md);
      EXPECT_EQ(col, (t / 16) * (k / 2) + 16 * (lane / md) + t % 16)
          << "lane " << lane << " item " << t;
    }
}

TEST_F(SwizzleTest, LaneMapsFp4Fp6) {
  checkContiguousOperand(
      gfx950::getSwizzle(layout(k16, f4(), f4()), OperandRole::lhs), 16);
  checkContiguousOperand(
      gfx950::getSwizzle(layout(k32, f4(), f4()), OperandRole::lhs), 32);
  checkContiguousOperand(
      gfx950::getSwizzle(layout(k16, f4(), f6()), OperandRole::rhs), 16);
  checkContiguousOperand(
      gfx950::getSwizzle(layout(k32, f6(), f4()), OperandRole::lhs), 32);
}

TEST_F(SwizzleTest, Fp8TwoKChunks16x16x128) {
  TileSwizzle s = gfx950::getSwizzle(layout(k16, f8(), f4()), OperandRole::lhs);
  EXPECT_EQ(s.getExpandedShape(), (SmallVector<int64_t>{16, 2, 4, 16}));
  EXPECT_EQ(s.permutation, (SmallVector<int64_t>{2, 0, 1, 3}));
  EXPECT_EQ(s.getSwizzledShape(), (SmallVector<int64_t>{4, 16, 2, 16}));
  checkFp8Operand(s, 16, 128);
  // Lane 16 (g = 1, r = 0): items 0-15 are k 16-31, items 16-31 k 80-95;
  // a contiguous-32 layout would give k 32-63 instead.
  EXPECT_EQ(unswizzle(s, {1, 0, 0, 0}).second, 16);
  EXPECT_EQ(unswizzle(s, {1, 0, 1, 0}).second, 80);
}

TEST_F(SwizzleTest, Fp8TwoKChunks32x32x64) {
  TileSwizzle s = gfx950::getSwizzle(layout(k32, f4(), f8()), OperandRole::rhs);
  EXPECT_EQ(s.getSwizzledShape(), (SmallVector<int64_t>{2, 32, 2, 16}));
  checkFp8Operand(s, 32, 64);
  // Lane 32 (g = 1): k 16-31 then 48-63.
  EXPECT_EQ(unswizzle(s, {1, 0, 0, 0}).second, 16);
  EXPECT_EQ(unswizzle(s, {1, 0, 1, 0}).second, 48);
}

TEST_F(SwizzleTest, Scales) {
  for (auto [intrinsic, md] :
       {std::make_pair(k16, 16), std::make_pair(k32, 32)}) {
    TileSwizzle s = gfx950::getSwizzle(layout(intrinsic, f8(), f4()),
                                       OperandRole::lhs_scales);
    // Lane l holds the scale of row l % Md, K-block l / Md: one byte.
    EXPECT_EQ(s.getSwizzledShape(), (SmallVector<int64_t>{64 / md, md}));
    for (int64_t lane = 0; lane < 64; ++lane) {
      auto [row, block] = unswizzle(s, {lane / md, lane % md});
      EXPECT_EQ(row, lane % md);
      EXPECT_EQ(block, lane / md);
    }
  }
}

TEST_F(SwizzleTest, Accumulators) {
  TileSwizzle s16 =
      gfx950::getSwizzle(layout(k16, f4(), f4()), OperandRole::result);
  EXPECT_EQ(s16.getSwizzledShape(), (SmallVector<int64_t>{4, 16, 4}));
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t v = 0; v < 4; ++v) {
      // 16x16: item v of lane l is D[l % 16][4 (l / 16) + v] (the ISA's
      // D^T[4 (l / 16) + v][l % 16]: the ukernels give B as src0).
      auto [m, n] = unswizzle(s16, {lane / 16, lane % 16, v});
      EXPECT_EQ(m, lane % 16);
      EXPECT_EQ(n, 4 * (lane / 16) + v);
    }
  TileSwizzle s32 =
      gfx950::getSwizzle(layout(k32, f4(), f4()), OperandRole::result);
  EXPECT_EQ(s32.getSwizzledShape(), (SmallVector<int64_t>{2, 32, 4, 4}));
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t v = 0; v < 16; ++v) {
      // 32x32: item v of lane l is D[l % 32][8 (v / 4) + 4 (l / 32) + v % 4].
      auto [m, n] = unswizzle(s32, {lane / 32, lane % 32, v / 4, v % 4});
      EXPECT_EQ(m, lane % 32);
      EXPECT_EQ(n, 8 * (v / 4) + 4 * (lane / 32) + v % 4);
    }
}

TEST_F(SwizzleTest, UnrolledAndInterleaved) {
  DataTiledLayoutAttr l =
      layout(k16, f4(), f4(), /*im=*/2, /*in=*/4, /*ik=*/2, /*sm=*/2,
             /*sn=*/1, {OperandRole::lhs_scales}, {OperandRole::rhs_scales},
             {OperandRole::lhs_scales, OperandRole::rhs_scales});
  EXPECT_EQ(gfx950::getInnerTileSizes(l, OperandRole::lhs),
            (SmallVector<int64_t>{64, 256}));
  EXPECT_EQ(gfx950::getInnerTileSizes(l, OperandRole::rhs_scales),
            (SmallVector<int64_t>{64, 8}));
  // lhs: [subgroup 2, intrinsic-M 2, intrinsic-K 2, lane g 4, lane r 16, 32].
  TileSwizzle lhs = gfx950::getSwizzle(l, OperandRole::lhs);
  EXPECT_EQ(lhs.getExpandedShape(), (SmallVector<int64_t>{2, 2, 16, 2, 4, 32}));
  EXPECT_EQ(lhs.permutation, (SmallVector<int64_t>{0, 1, 3, 4, 2, 5}));
  // lhs scales: the M and K unrolls are innermost, so each lane's 2x2 scale
  // bytes (for its four MFMAs) are contiguous.
  TileSwizzle scales = gfx950::getSwizzle(l, OperandRole::lhs_scales);
  EXPECT_EQ(scales.getSwizzledShape(), (SmallVector<int64_t>{2, 4, 16, 2, 2}));
  EXPECT_EQ(scales.permutation, (SmallVector<int64_t>{0, 4, 2, 1, 3}));
  // Byte (i_m = 1, i_k = 1) of lane (g = 2, r = 5) in wave 1: row
  // 32 + 16 + 5, K-block 4 + 2.
  EXPECT_EQ(unswizzle(scales, {1, 2, 5, 1, 1}),
            (std::pair<int64_t, int64_t>{53, 6}));
  // rhs scales: N unroll 4 and K unroll 2 innermost: 8 bytes per lane.
  EXPECT_EQ(gfx950::getSwizzle(l, OperandRole::rhs_scales).getSwizzledShape(),
            (SmallVector<int64_t>{4, 16, 4, 2}));
  // Result: [sg_m, i_m, i_n, lane g, lane r, 4 values].
  EXPECT_EQ(gfx950::getSwizzle(l, OperandRole::result).getSwizzledShape(),
            (SmallVector<int64_t>{2, 2, 4, 4, 16, 4}));
}

TEST_F(SwizzleTest, ResolverHonoursLimitsAndOverrides) {
  auto none = gfx950::TargetAttr::get(&ctx, std::nullopt, 0, 0, 0, 0, 0,
                                      /*splitK=*/0, /*configTable=*/"",
                                      /*requireUKernel=*/false);
  DataTiledLayoutAttr big =
      gfx950::resolveLayout(&ctx, f4(), f4(), 10000, 16384, 16384, none);
  gfx950::LayoutCost cost = gfx950::getLayoutCost(big);
  EXPECT_LE(cost.accRegisters, gfx950::kAccRegisters);
  EXPECT_LE(cost.ldsBytes, gfx950::kLDSBytes);
  EXPECT_LE(cost.stagedBytes, gfx950::kLDSBytes);
  EXPECT_LE(big.getNumSubgroups(), 4);
  // fp4 K step: 128 bytes of a row = 256 elements = 2 intrinsics.
  EXPECT_EQ(big.getIntrinsicsK(), 2);
  // The scales interleave M/N and K.
  EXPECT_TRUE(big.isInterleaved(OperandRole::lhs_scales, 0));
  EXPECT_TRUE(big.isInterleaved(OperandRole::rhs_scales, 2));
  // A small problem gets a small tile.
  DataTiledLayoutAttr small =
      gfx950::resolveLayout(&ctx, f8(), f4(), 16, 16, 128, none);
  EXPECT_EQ(gfx950::getTileSizes(small).m, 16);
  EXPECT_EQ(gfx950::getTileSizes(small).n, 16);
  EXPECT_EQ(small.getIntrinsicsK(), 1);
  // Overrides win.
  auto pinned = gfx950::TargetAttr::get(&ctx, k32, /*intrinsicsM=*/3, 0, 0, 0,
                                        /*subgroupsN=*/2, /*splitK=*/0,
                                        /*configTable=*/"",
                                        /*requireUKernel=*/false);
  DataTiledLayoutAttr forced =
      gfx950::resolveLayout(&ctx, f4(), f4(), 64, 64, 256, pinned);
  EXPECT_EQ(gfx950::getIntrinsic(forced), k32);
  EXPECT_EQ(forced.getIntrinsicsM(), 3);
  EXPECT_EQ(forced.getSubgroupsN(), 2);
}

} // namespace
