//===- UKernelSelectionTest.cpp - ukernel selection from data -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/GFX950.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mx/InitMX.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <thread>

using namespace mlir;
using namespace mlir::mx;

namespace {

using gfx950::kScaledMMAUKernel;

class UKernelSelectionTest : public ::testing::Test {
protected:
  UKernelSelectionTest() : ctx(makeRegistry()) {
    ctx.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerMXDialects(registry);
    registerPipelineDialects(registry);
    return registry;
  }

  DataTiledLayoutAttr resolve(Type lhs, Type rhs, int64_t m, int64_t n,
                              gfx950::TargetAttr target = {}) {
    if (!target)
      target = pins();
    return gfx950::resolveLayout(&ctx, lhs, rhs, m, n, /*k=*/4096, target);
  }

  /// A gfx950 target with these pins (0: the resolver's choice).
  gfx950::TargetAttr
  pins(std::optional<gfx950::ScaledMMAIntrinsic> intrinsic = {},
       int64_t intrinsicsM = 0, int64_t intrinsicsN = 0,
       int64_t intrinsicsK = 0, bool requireUKernel = false) {
    return gfx950::TargetAttr::get(&ctx, intrinsic, intrinsicsM, intrinsicsN,
                                   intrinsicsK, 0, 0, /*splitK=*/0,
                                   /*configTable=*/"", requireUKernel);
  }

  Type f4() { return Float4E2M1FNType::get(&ctx); }
  Type f8() { return Float8E4M3FNType::get(&ctx); }
  Type f6() { return Float6E2M3FNType::get(&ctx); }

  MLIRContext ctx;
};

TEST_F(UKernelSelectionTest, LibraryHoldsTheScaledMMAUKernel) {
  EXPECT_TRUE(gfx950::getUKernelSource(kScaledMMAUKernel).has_value());
  EXPECT_FALSE(gfx950::getUKernelSource("mx_uk_nope").has_value());
}

TEST_F(UKernelSelectionTest, SeedLayoutSelectsTheScaledMMAUKernel) {
  gfx950::UKernelSelection selection =
      gfx950::selectUKernel(resolve(f4(), f4(), 10000, 16384));
  ASSERT_TRUE(selection.name.has_value()) << selection.rejections;
  EXPECT_EQ(*selection.name, kScaledMMAUKernel);
}

/// The register schedules come from the ukernel's data: with accumulators
/// from memory, fp4 x fp4 (except at 3 or 4 static K steps) and fp8 x fp8
/// on 16x16x128 unroll their K loop by 2 and keep the accumulators in AGPRs,
/// fp8 x fp4 only the AGPRs; from
/// zero-filled accumulators fp4 x fp4 and fp8 x fp8 do the same with their
/// first K step peeled, from 16 static K steps on; otherwise zero-filled
/// accumulators and 32x32x64 keep LLVM's choice, and on 32x32x64 fp6 and
/// fp8 A are read 8 rows (the resolver's tile: a whole K step) ahead with
/// accumulators from memory, fp6 A from zero too, and fp4 x fp4 reads the
/// next step's rows of A late at up to 8 static K steps; a
/// ukernel without the data (or an unknown name) gets the default.
TEST_F(UKernelSelectionTest, RegisterSchedulesComeFromTheUKernelData) {
  auto schedule = [&](DataTiledLayoutAttr layout, bool zero,
                      StringRef name = kScaledMMAUKernel,
                      std::optional<int64_t> kSteps = {}) {
    gfx950::RegisterSchedule s =
        gfx950::getRegisterSchedule(&ctx, name, layout, zero, kSteps);
    return std::make_tuple(s.unrollK, s.accumulatorAGPRs, s.peelFirstK);
  };
  auto lookahead = [&](DataTiledLayoutAttr layout, bool zero) {
    return gfx950::getRegisterSchedule(&ctx, kScaledMMAUKernel, layout, zero)
        .lookaheadRows;
  };
  DataTiledLayoutAttr seed = resolve(f4(), f4(), 10000, 16384);
  EXPECT_EQ(schedule(seed, /*zero=*/false),
            std::make_tuple(int64_t(2), true, false));
  // From memory with 3 or 4 static K steps no unroll (it spilled there).
  EXPECT_EQ(schedule(seed, /*zero=*/false, kScaledMMAUKernel, 4),
            std::make_tuple(int64_t(1), true, false));
  EXPECT_EQ(schedule(seed, /*zero=*/false, kScaledMMAUKernel, 5),
            std::make_tuple(int64_t(2), true, false));
  EXPECT_EQ(schedule(seed, /*zero=*/true),
            std::make_tuple(int64_t(1), false, false));
  EXPECT_EQ(schedule(seed, /*zero=*/true, kScaledMMAUKernel, 15),
            std::make_tuple(int64_t(1), false, false));
  EXPECT_EQ(schedule(seed, /*zero=*/true, kScaledMMAUKernel, 16),
            std::make_tuple(int64_t(2), true, true));
  // From zero the seed tile unrolls only whole pairs of K steps (its
  // remainder after the loop spilled); fp4 x fp6 keeps the remainder.
  auto remainder = [&](DataTiledLayoutAttr layout) {
    return gfx950::getRegisterSchedule(&ctx, kScaledMMAUKernel, layout,
                                       /*zero=*/true, 17)
        .unrollRemainder;
  };
  EXPECT_FALSE(remainder(seed));
  EXPECT_TRUE(remainder(resolve(f4(), f6(), 10000, 16384)));
  EXPECT_TRUE(gfx950::getRegisterSchedule(&ctx, kScaledMMAUKernel, seed,
                                          /*zero=*/false)
                  .unrollRemainder);
  DataTiledLayoutAttr fp8 = resolve(f8(), f8(), 10000, 16384);
  EXPECT_EQ(schedule(fp8, /*zero=*/false),
            std::make_tuple(int64_t(2), true, false));
  EXPECT_EQ(schedule(fp8, /*zero=*/true, kScaledMMAUKernel, 15),
            std::make_tuple(int64_t(1), false, false));
  EXPECT_EQ(schedule(fp8, /*zero=*/true, kScaledMMAUKernel, 16),
            std::make_tuple(int64_t(2), true, true));
  DataTiledLayoutAttr fp8Fp4 = resolve(f8(), f4(), 10000, 16384);
  EXPECT_EQ(schedule(fp8Fp4, /*zero=*/false),
            std::make_tuple(int64_t(1), true, false));
  EXPECT_EQ(schedule(fp8Fp4, /*zero=*/true, kScaledMMAUKernel, 16),
            std::make_tuple(int64_t(1), true, true));
  DataTiledLayoutAttr k32 =
      resolve(f4(), f4(), 10000, 16384,
              pins(gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64));
  ASSERT_EQ(gfx950::getIntrinsic(k32),
            gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64);
  EXPECT_EQ(schedule(k32, /*zero=*/false),
            std::make_tuple(int64_t(1), false, false));
  EXPECT_EQ(lookahead(k32, /*zero=*/false), 0);
  // fp4 x fp4 on 32x32x64 reads the next step's rows late at up to 8 static
  // K steps (it spilled at 2 and 5 from memory, 4 from zero), but not at 4
  // from memory (there it did not spill, and the late reads ran slower);
  // fp4 x fp6 does not (its tile never spilled).
  auto late = [&](DataTiledLayoutAttr layout, bool zero,
                  std::optional<int64_t> kSteps) {
    return gfx950::getRegisterSchedule(&ctx, kScaledMMAUKernel, layout, zero,
                                       kSteps)
        .lateNextRows;
  };
  for (bool zero : {false, true}) {
    EXPECT_TRUE(late(k32, zero, 2));
    EXPECT_TRUE(late(k32, zero, 8));
    EXPECT_FALSE(late(k32, zero, 9));
    EXPECT_FALSE(late(k32, zero, std::nullopt));
    EXPECT_FALSE(late(seed, zero, 4));
  }
  EXPECT_FALSE(late(k32, /*zero=*/false, 4));
  EXPECT_TRUE(late(k32, /*zero=*/true, 4));
  EXPECT_TRUE(late(k32, /*zero=*/false, 5));
  DataTiledLayoutAttr k32Fp6 =
      resolve(f4(), f6(), 10000, 16384,
              pins(gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64));
  ASSERT_EQ(gfx950::getIntrinsic(k32Fp6),
            gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64);
  EXPECT_FALSE(late(k32Fp6, /*zero=*/false, 4));
  // fp4 x fp6 on 16x16x128 with 16 x 4 x 2 intrinsics (a pinned tile, B
  // private) reads late at every K step count and unrolls by 2 from memory
  // past 5 K steps; with one along K (the resolver's 16 x 4 x 1) it keeps
  // the fp4 A schedules.
  DataTiledLayoutAttr fp6K2 =
      resolve(f4(), f6(), 10000, 16384,
              pins(gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128, 16, 4, 2));
  ASSERT_EQ(fp6K2.getIntrinsicsK(), 2);
  DataTiledLayoutAttr fp6K1 = resolve(f4(), f6(), 10000, 16384);
  ASSERT_EQ(fp6K1.getIntrinsicsK(), 1);
  for (bool zero : {false, true}) {
    for (int64_t steps : {1, 5, 6, 64})
      EXPECT_TRUE(late(fp6K2, zero, steps));
    EXPECT_FALSE(late(fp6K1, zero, 64));
  }
  // Only on the tile the entries were measured on: 8 x 8 x 2 keeps the fp4
  // A schedules.
  DataTiledLayoutAttr fp6Wide =
      resolve(f4(), f6(), 10000, 16384,
              pins(gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128, 8, 8, 2));
  ASSERT_EQ(fp6Wide.getIntrinsicsK(), 2);
  EXPECT_FALSE(late(fp6Wide, /*zero=*/false, 64));
  EXPECT_EQ(schedule(fp6K2, /*zero=*/false, kScaledMMAUKernel, 5),
            std::make_tuple(int64_t(1), true, false));
  EXPECT_EQ(schedule(fp6K2, /*zero=*/false, kScaledMMAUKernel, 6),
            std::make_tuple(int64_t(2), true, false));
  EXPECT_EQ(schedule(fp6K2, /*zero=*/true, kScaledMMAUKernel, 64),
            std::make_tuple(int64_t(1), true, true));
  EXPECT_EQ(lookahead(seed, /*zero=*/false), 0);
  EXPECT_EQ(lookahead(fp8, /*zero=*/false), 0);
  auto pins32 = pins(gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64);
  for (auto [lhs, rhs] :
       {std::make_pair(f8(), f8()), std::make_pair(f6(), f4())}) {
    DataTiledLayoutAttr wide = resolve(lhs, rhs, 10000, 16384, pins32);
    ASSERT_EQ(gfx950::getIntrinsic(wide),
              gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64);
    EXPECT_EQ(schedule(wide, /*zero=*/false),
              std::make_tuple(int64_t(1), false, false));
    EXPECT_EQ(lookahead(wide, /*zero=*/false), 8);
    // From zero-filled accumulators fp6 A only (fp8 A spilled).
    EXPECT_EQ(lookahead(wide, /*zero=*/true), lhs == f6() ? 8 : 0);
  }
  EXPECT_EQ(schedule(seed, /*zero=*/false, "mx_uk_scaled_mma_quantized_lhs"),
            std::make_tuple(int64_t(1), false, false));
  EXPECT_EQ(schedule(seed, /*zero=*/false, "mx_uk_nope"),
            std::make_tuple(int64_t(1), false, false));
}

/// The register schedules of the embedded ukernels are well formed; a
/// malformed entry (an unknown key, an unroll factor out of [1, 8], a wrong
/// type of value) is reported with its index and key.
TEST_F(UKernelSelectionTest, MalformedRegisterSchedulesAreReported) {
  for (const gfx950::UKernelInfo &ukernel :
       ctx.getOrLoadDialect<gfx950::GFX950Dialect>()->getUKernelLibrary())
    EXPECT_EQ(ukernel.problem, "") << ukernel.name.str();
  auto check = [&](StringRef text) {
    auto schedules = dyn_cast_or_null<ArrayAttr>(parseAttribute(text, &ctx));
    EXPECT_TRUE(schedules) << text.str();
    return schedules ? gfx950::checkRegisterSchedules(schedules)
                     : std::string("unparsable");
  };
  EXPECT_EQ(check("[{intrinsic = [\"mfma_scale_16x16x128\"], lhs_type = "
                  "f4E2M1FN, rhs_type = [f4E2M1FN, f8E4M3FN], accumulators = "
                  "\"memory\", unroll_k = 8 : i64, accumulator_agprs = "
                  "true, peel_first_k = true, min_k_steps = 16 : i64}, {}]"),
            "");
  EXPECT_EQ(check("[{unroll_k = 0 : i64}]"),
            "entry 0: 'unroll_k' cannot be 0 : i64");
  EXPECT_EQ(check("[{}, {unroll_k = 9 : i64}]"),
            "entry 1: 'unroll_k' cannot be 9 : i64");
  EXPECT_EQ(check("[{accumulators = \"registers\"}]"),
            "entry 0: 'accumulators' cannot be \"registers\"");
  EXPECT_EQ(check("[{intrinsic = \"mfma_scale_8x8\"}]"),
            "entry 0: 'intrinsic' cannot be \"mfma_scale_8x8\"");
  EXPECT_EQ(check("[{lhs_type = []}]"), "entry 0: 'lhs_type' cannot be []");
  EXPECT_EQ(check("[{accumulator_agprs = 1 : i64}]"),
            "entry 0: 'accumulator_agprs' cannot be 1 : i64");
  EXPECT_EQ(check("[{peel_first_k = 1 : i64}]"),
            "entry 0: 'peel_first_k' cannot be 1 : i64");
  EXPECT_EQ(check("[{min_k_steps = 0 : i64}]"),
            "entry 0: 'min_k_steps' cannot be 0 : i64");
  EXPECT_EQ(check("[{max_k_steps = 0 : i64}]"),
            "entry 0: 'max_k_steps' cannot be 0 : i64");
  EXPECT_EQ(check("[{lookahead_rows = 4 : i64}]"), "");
  EXPECT_EQ(check("[{lookahead_rows = 0 : i64}]"),
            "entry 0: 'lookahead_rows' cannot be 0 : i64");
  EXPECT_EQ(check("[{lookahead_rows = true}]"),
            "entry 0: 'lookahead_rows' cannot be true");
  EXPECT_EQ(check("[{late_next_rows = true}]"), "");
  EXPECT_EQ(check("[{intrinsics_m = 16 : i64, intrinsics_n = 4 : i64, "
                  "intrinsics_k = [1 : i64, 2 : i64]}]"),
            "");
  EXPECT_EQ(check("[{intrinsics_m = \"16\"}]"),
            "entry 0: 'intrinsics_m' cannot be \"16\"");
  EXPECT_EQ(check("[{intrinsics_k = 0 : i64}]"),
            "entry 0: 'intrinsics_k' cannot be 0 : i64");
  EXPECT_EQ(check("[{intrinsics_k = 2 : i32}]"),
            "entry 0: 'intrinsics_k' cannot be 2 : i32");
  EXPECT_EQ(check("[{unroll_remainder = false}]"), "");
  EXPECT_EQ(check("[{unroll_remainder = 0 : i64}]"),
            "entry 0: 'unroll_remainder' cannot be 0 : i64");
  EXPECT_EQ(check("[{late_next_rows = 1 : i64}]"),
            "entry 0: 'late_next_rows' cannot be 1 : i64");
  EXPECT_EQ(check("[{unroll = 2 : i64}]"), "entry 0: unknown key 'unroll'");
  EXPECT_EQ(check("[3 : i64]"), "entry 0: not a dictionary");
}

/// A tile whose two K steps of A and B do not fit the LDS but whose B is
/// private (one wave along M) gets A's stages only: fp4 x fp6 at 16 x 4 x 2
/// intrinsics on 1 x 4 waves stages 32 KiB of A and 64 KiB of B a K step,
/// so four stages of A (128 KiB) and the ring of two steps of A's scales
/// (2 x 64 lanes x 32 bytes). With two waves along M B is staged, and the
/// tile does not fit. The resolver proposes only tiles whose A and B both
/// fit, also with intrinsics_k pinned to 2.
TEST_F(UKernelSelectionTest, PrivateBTilesStageOnlyA) {
  auto layout = [&](int64_t subgroupsM, int64_t subgroupsN) {
    auto target = gfx950::TargetAttr::get(
        &ctx, gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128, 16, 4, 2,
        subgroupsM, subgroupsN, /*splitK=*/0, /*configTable=*/"",
        /*requireUKernel=*/true);
    return resolve(f4(), f6(), 10000, 16384, target);
  };
  DataTiledLayoutAttr privateB = layout(1, 4);
  ASSERT_EQ(privateB.getSubgroupsM(), 1);
  ASSERT_EQ(privateB.getIntrinsicsK(), 2);
  EXPECT_EQ(gfx950::getUKernelStageBytes(privateB), 32768 + 65536);
  EXPECT_EQ(gfx950::getUKernelLDSBytes(privateB), 4 * 32768 + 2 * 64 * 32);
  gfx950::LayoutCost cost = gfx950::getLayoutCost(privateB);
  EXPECT_EQ(cost.ldsBytes, 4 * 32768 + 2 * 64 * 32);
  EXPECT_EQ(cost.stagedBytes, 2 * (32768 + 65536));
  DataTiledLayoutAttr stagedB = layout(2, 2);
  ASSERT_EQ(stagedB.getSubgroupsM(), 2);
  EXPECT_GT(gfx950::getUKernelLDSBytes(stagedB), gfx950::kLDSBytes);
  DataTiledLayoutAttr resolved =
      resolve(f4(), f6(), 10000, 16384,
              pins(gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128, 0, 0, 2));
  EXPECT_EQ(resolved.getIntrinsicsK(), 2);
  EXPECT_LE(gfx950::getLayoutCost(resolved).stagedBytes, gfx950::kLDSBytes);
}

/// A small fp8 problem: the ukernel needs intrinsics_m * intrinsics_k and
/// intrinsics_n * intrinsics_k multiples of 4 (its scale groups), which a
/// longer K step gives one-intrinsic tiles; the layout stays within the
/// accumulator registers and the LDS staging.
TEST_F(UKernelSelectionTest, SmallFp8ProblemKeepsTheHardwareLimits) {
  DataTiledLayoutAttr layout =
      resolve(f8(), f8(), 40, 24, pins({}, 0, 0, 0, /*requireUKernel=*/true));
  ASSERT_TRUE(gfx950::selectUKernel(layout).name.has_value());
  gfx950::LayoutCost cost = gfx950::getLayoutCost(layout);
  EXPECT_LE(cost.accRegisters, gfx950::kAccRegisters);
  EXPECT_LE(cost.ldsBytes, gfx950::kLDSBytes);
  EXPECT_LE(cost.stagedBytes, gfx950::kLDSBytes);
  // One intrinsic per tile fits the problem once the K step is four
  // intrinsics long (the lane's 4 scale bytes are then one group), and small
  // M prefers the most tiles: 16 x 16 tiles, K steps of 512.
  gfx950::TileSizes tile = gfx950::getTileSizes(layout);
  EXPECT_EQ(tile.m, 16);
  EXPECT_EQ(tile.n, 16);
  EXPECT_EQ(tile.k, 512);
}

/// Decode: M = 1 with N = K = 8192 gets 16-row tiles and enough N tiles,
/// with the K parts chooseSplitK makes of them, to give every CU a
/// workgroup.
TEST_F(UKernelSelectionTest, DecodeFillsTheCUs) {
  DataTiledLayoutAttr layout = gfx950::resolveLayout(
      &ctx, f8(), f8(), 1, 8192, 8192, pins({}, 0, 0, 0, true));
  ASSERT_TRUE(gfx950::selectUKernel(layout).name.has_value());
  gfx950::TileSizes tile = gfx950::getTileSizes(layout);
  EXPECT_EQ(tile.m, 16);
  std::string why;
  llvm::raw_string_ostream os(why);
  int64_t tiles = 8192 / tile.n;
  int64_t parts = gfx950::chooseSplitK(tiles, 8192 / tile.k, 0, os);
  EXPECT_GE(tiles * parts, gfx950::kNumCUs) << why;
}

/// A grouped GEMM's experts are workgroups of the same launch, and its K
/// loop is not split: with 32 experts of 16 rows, the CUs are full with
/// fewer, wider N tiles than one GEMM of 16 rows needs, and the tiles (not
/// split-K parts) fill them.
TEST_F(UKernelSelectionTest, GroupedFillCountsTheExperts) {
  gfx950::TargetAttr target = pins({}, 0, 0, 0, true);
  DataTiledLayoutAttr single =
      gfx950::resolveLayout(&ctx, f4(), f4(), 16, 4096, 7168, target);
  DataTiledLayoutAttr grouped = gfx950::resolveLayout(
      &ctx, f4(), f4(), 16, 4096, 7168, target, /*groups=*/32,
      /*splitK=*/false);
  ASSERT_TRUE(gfx950::selectUKernel(grouped).name.has_value());
  gfx950::TileSizes one = gfx950::getTileSizes(single);
  gfx950::TileSizes all = gfx950::getTileSizes(grouped);
  EXPECT_EQ(all.m, 16);
  EXPECT_GT(all.n, one.n);
  EXPECT_GE(32 * (4096 / all.n), gfx950::kNumCUs);
}

/// A K shorter than every tile's K step (a routed down GEMM of a TP-sharded
/// MoE layer: K = I = 256, blocks of 16 rows, 144 blocks) pads K, and only
/// K: N (7168) still gets a wide tile, not the smallest one there is (the
/// 16 x 16 tile over 64,512 workgroups the resolver picked before).
TEST_F(UKernelSelectionTest, ShortKStillTilesN) {
  gfx950::TargetAttr target = pins({}, 0, 0, 0, true);
  DataTiledLayoutAttr layout = gfx950::resolveLayout(
      &ctx, f4(), f4(), 16, 7168, 256, target, /*groups=*/144,
      /*splitK=*/false);
  ASSERT_TRUE(gfx950::selectUKernel(layout).name.has_value());
  gfx950::TileSizes tile = gfx950::getTileSizes(layout);
  EXPECT_EQ(tile.m, 16);
  EXPECT_GT(tile.k, 256);
  EXPECT_GE(tile.n, 128);
  // Past M, the smallest tile still wins: a 4-row problem with K = 256.
  DataTiledLayoutAttr tiny =
      gfx950::resolveLayout(&ctx, f4(), f4(), 4, 16, 256, target);
  EXPECT_EQ(gfx950::getTileSizes(tiny).n, 16);
}

/// Small-M GEMMs that are never split along K (grouped): the fewest K steps
/// in a row per CU first. gpt-oss-120b's gate_up at one token (4 busy
/// blocks, N = 5760, K = 2880) fits one round of the CUs with either N
/// tile, so the 1024 K step (3 steps) beats the denser 512 one (6 steps);
/// a plain GEMM (which mx-split-k splits) keeps the shortest step.
TEST_F(UKernelSelectionTest, GroupedSmallMTakesTheShortestKChain) {
  gfx950::TargetAttr target = pins({}, 0, 0, 0, true);
  auto resolve = [&](int64_t groups, bool splitK) {
    return gfx950::getTileSizes(gfx950::resolveLayout(
        &ctx, f4(), f4(), 16, 5760, 2880, target, groups, splitK));
  };
  gfx950::TileSizes decode = resolve(4, false);
  EXPECT_EQ(decode.m, 16);
  EXPECT_EQ(decode.k, 1024);
  // Within one round (4 x 5760 / N tile <= 256 CUs): the densest tile.
  EXPECT_EQ(decode.n, 128);
  gfx950::TileSizes plain = resolve(4, true);
  EXPECT_LT(plain.k, 1024);
}

/// At equal K steps, the chain is shorter with fewer bytes per step on each
/// CU: gpt-oss-120b's down GEMM at one token (4 busy blocks, N = K = 2880)
/// takes 16 x 64 tiles (180 workgroups) over 16 x 128 (92), with 4 waves;
/// its gate_up (N = 5760) keeps 16 x 128, whose 180 tiles fit one round
/// where 16 x 64's 360 do not.
TEST_F(UKernelSelectionTest, GroupedSmallMTakesFewerBytesPerStep) {
  gfx950::TargetAttr target = pins({}, 0, 0, 0, true);
  DataTiledLayoutAttr down = gfx950::resolveLayout(
      &ctx, f4(), f4(), 16, 2880, 2880, target, /*groups=*/4, false);
  gfx950::TileSizes tile = gfx950::getTileSizes(down);
  EXPECT_EQ(tile.m, 16);
  EXPECT_EQ(tile.n, 64);
  EXPECT_EQ(tile.k, 1024);
  EXPECT_EQ(down.getSubgroupsM() * down.getSubgroupsN(), 4);
  gfx950::TileSizes gateUp = gfx950::getTileSizes(gfx950::resolveLayout(
      &ctx, f4(), f4(), 16, 5760, 2880, target, /*groups=*/4, false));
  EXPECT_EQ(gateUp.n, 128);
  EXPECT_EQ(gateUp.k, 1024);
}

/// Split-K: the fewest parts of at least 2 K tiles that fill the CUs; pins
/// round down to a divisor; enough tiles or too few K tiles: no split.
TEST(SplitKTest, ChoosesTheFewestPartsThatFillTheCUs) {
  std::string why;
  llvm::raw_string_ostream os(why);
  EXPECT_EQ(gfx950::chooseSplitK(32, 64, 0, os), 8);
  EXPECT_EQ(gfx950::chooseSplitK(100, 64, 0, os), 4);
  EXPECT_EQ(gfx950::chooseSplitK(16, 8, 0, os), 4);
  EXPECT_EQ(gfx950::chooseSplitK(16, 3, 0, os), 1);
  EXPECT_EQ(gfx950::chooseSplitK(256, 64, 0, os), 1);
  EXPECT_EQ(gfx950::chooseSplitK(ShapedType::kDynamic, 64, 0, os), 1);
  EXPECT_EQ(gfx950::chooseSplitK(1, 12, 5, os), 4);
  EXPECT_EQ(gfx950::chooseSplitK(1024, 12, 3, os), 3);
  EXPECT_EQ(gfx950::chooseSplitK(1, ShapedType::kDynamic, 4, os), 1);
}

/// Every pair of the five MX element types on both intrinsics is served by
/// the one ukernel, with the call's type parameters taken from the layout.
TEST_F(UKernelSelectionTest, EveryTypePairOnBothIntrinsicsIsServed) {
  SmallVector<Type> types = {
      Float4E2M1FNType::get(&ctx), Float6E2M3FNType::get(&ctx),
      Float6E3M2FNType::get(&ctx), Float8E4M3FNType::get(&ctx),
      Float8E5M2Type::get(&ctx)};
  for (gfx950::ScaledMMAIntrinsic intrinsic :
       {gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128,
        gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64})
    for (Type lhs : types)
      for (Type rhs : types) {
        DataTiledLayoutAttr layout =
            resolve(lhs, rhs, 4096, 4096, pins(intrinsic));
        gfx950::UKernelSelection selection = gfx950::selectUKernel(layout);
        std::string pair;
        llvm::raw_string_ostream(pair) << lhs << " x " << rhs;
        ASSERT_TRUE(selection.name.has_value())
            << pair << ": " << selection.rejections;
        EXPECT_EQ(*selection.name, kScaledMMAUKernel);
        DictionaryAttr parameters = gfx950::getUKernelTypeParameters(layout);
        EXPECT_EQ(parameters.getAs<TypeAttr>("lhs_type").getValue(), lhs);
        EXPECT_EQ(parameters.getAs<TypeAttr>("rhs_type").getValue(), rhs);
        EXPECT_EQ(parameters.getAs<StringAttr>("intrinsic").getValue(),
                  gfx950::stringifyScaledMMAIntrinsic(intrinsic));
      }
}

/// Binding the type parameters gives a function whose MFMAs take the
/// requested types and intrinsic, with the operand hooks implemented.
TEST_F(UKernelSelectionTest, InstantiationBindsTypesAndIntrinsic) {
  DataTiledLayoutAttr layout =
      resolve(Float6E3M2FNType::get(&ctx), Float8E5M2Type::get(&ctx), 4096,
              4096, pins(gfx950::ScaledMMAIntrinsic::mfma_scale_32x32x64));
  FailureOr<OwningOpRef<ModuleOp>> instance = gfx950::instantiateUKernel(
      &ctx, kScaledMMAUKernel, gfx950::getUKernelTypeParameters(layout),
      [&] { return emitError(UnknownLoc::get(&ctx)); });
  ASSERT_TRUE(succeeded(instance));
  int64_t mfmas = 0, calls = 0;
  (**instance)->walk([&](Operation *op) {
    if (auto mfma = dyn_cast<amdgpu::ScaledMFMAOp>(op)) {
      ++mfmas;
      EXPECT_EQ(mfma.getM(), 32u);
      EXPECT_EQ(mfma.getK(), 64u);
      // B is the MFMA's src0, A its src1 (it computes D^T = B A^T).
      EXPECT_EQ(cast<VectorType>(mfma.getSourceA().getType()).getElementType(),
                Float8E5M2Type::get(&ctx));
      EXPECT_EQ(cast<VectorType>(mfma.getSourceB().getType()).getElementType(),
                Float6E3M2FNType::get(&ctx));
      EXPECT_EQ(cast<VectorType>(mfma.getDestC().getType()).getNumElements(),
                16);
    }
    if (isa<func::CallOp>(op))
      ++calls;
  });
  // Two schedules (pipelined and simple), each a K loop and a last step.
  EXPECT_EQ(mfmas, 4);
  EXPECT_EQ(calls, 0);
}

/// The ukernel that quantizes A serves an fp4 A only when asked for one
/// (and the plain ukernel then does not).
TEST_F(UKernelSelectionTest, QuantizedLhsSelectsItsOwnUKernel) {
  DataTiledLayoutAttr fp4 = resolve(f4(), f4(), 16, 4096, pins({}, 1, 1, 4));
  gfx950::UKernelSelection quantized =
      gfx950::selectUKernel(fp4, /*quantizedLhs=*/true);
  ASSERT_TRUE(quantized.name.has_value()) << quantized.rejections;
  EXPECT_EQ(*quantized.name, "mx_uk_scaled_mma_quantized_lhs");
  EXPECT_NE(quantized.rejections.find("does not quantize A"), std::string::npos)
      << quantized.rejections;
  ASSERT_TRUE(gfx950::selectUKernel(fp4).name.has_value());
  EXPECT_EQ(*gfx950::selectUKernel(fp4).name, kScaledMMAUKernel);
  // An fp8 A is never quantized in the kernel.
  DataTiledLayoutAttr fp8 =
      resolve(Float8E4M3FNType::get(&ctx), f4(), 16, 4096, pins({}, 1, 1, 4));
  EXPECT_FALSE(gfx950::selectUKernel(fp8, /*quantizedLhs=*/true).name);
}

/// Instantiating it binds the source type (here f16), implements the
/// quantize hook with the packed conversions (nearest even), inlines its
/// helpers and leaves no call but none.
TEST_F(UKernelSelectionTest, QuantizedLhsInstantiation) {
  DataTiledLayoutAttr layout =
      resolve(f4(), Float8E5M2Type::get(&ctx), 16, 4096, pins({}, 1, 1, 4));
  DictionaryAttr parameters = gfx950::getUKernelTypeParameters(
      layout, gfx950::LhsQuantization{Float16Type::get(&ctx), ScaleRule::floor,
                                      Rounding::nearest_even});
  EXPECT_EQ(parameters.getAs<StringAttr>("lhs_scale").getValue(), "floor");
  FailureOr<OwningOpRef<ModuleOp>> instance = gfx950::instantiateUKernel(
      &ctx, "mx_uk_scaled_mma_quantized_lhs", parameters,
      [&] { return emitError(UnknownLoc::get(&ctx)); });
  ASSERT_TRUE(succeeded(instance));
  int64_t conversions = 0, calls = 0, bf16 = 0;
  (**instance)->walk([&](Operation *op) {
    conversions += isa<amdgpu::PackedScaledTruncOp>(op);
    calls += isa<func::CallOp>(op);
    for (Type type : op->getResultTypes())
      if (auto vector = dyn_cast<VectorType>(type))
        bf16 += vector.getElementType().isBF16();
  });
  // One hook per quantize call site (the prologue's and the loop's), 16
  // conversions (two values each) per block.
  EXPECT_EQ(conversions, 2 * 16);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(bf16, 0);
  // Without the quantization parameters it is an error.
  EXPECT_TRUE(failed(gfx950::instantiateUKernel(
      &ctx, "mx_uk_scaled_mma_quantized_lhs",
      gfx950::getUKernelTypeParameters(layout),
      [&] { return emitError(UnknownLoc::get(&ctx)); })));
}

TEST_F(UKernelSelectionTest, ScaleGroupsMustBeWhole) {
  // 1 x 2 scale bytes per lane cannot be read in 4-byte groups.
  gfx950::UKernelSelection selection =
      gfx950::selectUKernel(resolve(f4(), f4(), 4096, 4096,
                                    pins({}, /*intrinsicsM=*/1,
                                         /*intrinsicsN=*/4,
                                         /*intrinsicsK=*/2)));
  EXPECT_FALSE(selection.name.has_value());
  EXPECT_NE(selection.rejections.find("multiples of 4"), std::string::npos)
      << selection.rejections;
}

TEST_F(UKernelSelectionTest, InterleavingMustMatch) {
  DataTiledLayoutAttr plain = DataTiledLayoutAttr::get(
      &ctx,
      gfx950::ScaledMFMAAttr::get(
          &ctx, gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128),
      f4(), f4(), 4, 4, 2, 1, 1, {}, {}, {});
  gfx950::UKernelSelection selection = gfx950::selectUKernel(plain);
  EXPECT_FALSE(selection.name.has_value());
  EXPECT_NE(selection.rejections.find("interleave_m differs"),
            std::string::npos)
      << selection.rejections;
}

/// The library is parsed once per context: every caller, on any thread, gets
/// the same data.
TEST_F(UKernelSelectionTest, LibraryIsParsedOncePerContext) {
  auto *dialect = ctx.getOrLoadDialect<gfx950::GFX950Dialect>();
  std::vector<const gfx950::UKernelInfo *> seen(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back(
        [&, i] { seen[i] = dialect->getUKernelLibrary().data(); });
  for (std::thread &thread : threads)
    thread.join();
  ArrayRef<gfx950::UKernelInfo> library = dialect->getUKernelLibrary();
  EXPECT_EQ(library.size(), gfx950::getUKernelSources().size());
  for (const gfx950::UKernelInfo *data : seen)
    EXPECT_EQ(data, library.data());
  for (const gfx950::UKernelInfo &ukernel : library) {
    EXPECT_TRUE(ukernel.match) << ukernel.name.str() << ": " << ukernel.problem;
    EXPECT_TRUE(ukernel.functionType) << ukernel.name.str();
  }
}

/// Through LayoutResolverAttrInterface, #mx_gfx950.target resolves the seed
/// GEMM's encoding to the seed layout and names the ukernel that serves it.
TEST_F(UKernelSelectionTest, TargetAttrIsALayoutResolver) {
  Builder b(&ctx);
  AffineExpr m, n, k;
  bindDims(&ctx, m, n, k);
  ArrayAttr maps = b.getAffineMapArrayAttr(
      {AffineMap::get(3, 0, {m, k}, &ctx), AffineMap::get(3, 0, {n, k}, &ctx),
       AffineMap::get(3, 0, {m, n}, &ctx)});
  SmallVector<Type> types = {f4(), f4(), Float8E8M0FNUType::get(&ctx),
                             Float8E8M0FNUType::get(&ctx), b.getF32Type()};
  auto encoding =
      EncodingAttr::get(&ctx, OperandRole::lhs, types, maps,
                        {10000, 16384, 16384}, /*layout=*/Attribute());
  ScaledContractionDims dims;
  dims.m = {0};
  dims.n = {1};
  dims.k = 2;
  gfx950::TargetAttr target = pins({}, 0, 0, 0, /*requireUKernel=*/true);
  auto resolver = cast<LayoutResolverAttrInterface>(target);
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  FailureOr<TiledLayoutAttrInterface> layout =
      resolver.resolveLayout(*module, encoding, dims);
  ASSERT_TRUE(succeeded(layout));
  // The seed layout (README, test/Pipelines/mx-gfx950-pipeline-seed.mlir):
  // 16x4x2 intrinsics per wave on 1x4 waves.
  auto tiled = dyn_cast<DataTiledLayoutAttr>(*layout);
  ASSERT_TRUE(tiled);
  EXPECT_EQ(gfx950::getIntrinsic(tiled),
            gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128);
  EXPECT_EQ(tiled.getIntrinsicsM(), 16);
  EXPECT_EQ(tiled.getIntrinsicsN(), 4);
  EXPECT_EQ(tiled.getIntrinsicsK(), 2);
  EXPECT_EQ(tiled.getSubgroupsM(), 1);
  EXPECT_EQ(tiled.getSubgroupsN(), 4);
  std::string rejections;
  llvm::raw_string_ostream os(rejections);
  FailureOr<std::string> ukernel = resolver.selectUKernel(*layout, os);
  ASSERT_TRUE(succeeded(ukernel)) << rejections;
  EXPECT_EQ(*ukernel, kScaledMMAUKernel);
  // A layout no ukernel serves: failure, with one reason per ukernel.
  rejections.clear();
  DataTiledLayoutAttr plain = DataTiledLayoutAttr::get(
      &ctx,
      gfx950::ScaledMFMAAttr::get(
          &ctx, gfx950::ScaledMMAIntrinsic::mfma_scale_16x16x128),
      f4(), f4(), 4, 4, 2, 1, 1, {}, {}, {});
  EXPECT_TRUE(failed(resolver.selectUKernel(plain, os)));
  EXPECT_EQ(StringRef(rejections).count('\n'),
            gfx950::getUKernelSources().size())
      << rejections;
}

} // namespace
