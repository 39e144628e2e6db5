//===- TimingModelTest.cpp - the ISA executor's cycle model ---------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The timing model on hand-made streams of one wave, with expectations
// derived from the machine constants (not read off the model's output): a
// chain of dependent MFMAs costs each link its passes plus the dependent
// extra; independent MFMAs stream at the pipe rate; a wait for a load costs
// the global latency; and the LDS bank-conflict count of known address
// patterns (consecutive dwords, one bank, a broadcast, b128 in AMD's lane
// phases).
//
//===----------------------------------------------------------------------===//

#include "KernelText.h"

#include "mx/Target/GFX950/ISA/TimingModel.h"

#include "gtest/gtest.h"

#include <array>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;

namespace {

/// A kernel of \p texts and a trace of one wave running it once.
struct OneWave {
  Kernel kernel;
  CUTrace trace;

  explicit OneWave(ArrayRef<const char *> texts) {
    appendInstructions(kernel, texts);
    trace.wavesPerWorkgroup = 1;
    trace.waves.emplace_back();
    for (unsigned i = 0; i < kernel.instructions.size(); ++i) {
      TraceEntry entry;
      entry.inst = i;
      if (StringRef(kernel.instructions[i].mnemonic).starts_with("buffer_"))
        entry.bytes = 64 * 16;
      trace.waves[0].push_back(entry);
    }
  }
};

const char *kDependent = "v_mfma_scale_f32_16x16x128_f8f6f4 v[20:23], "
                         "v[0:3], v[4:7], v[20:23], v8, v9 cbsz:4 blgp:4";
const char *kIndependent = "v_mfma_scale_f32_16x16x128_f8f6f4 v[24:27], "
                           "v[0:3], v[4:7], v[24:27], v8, v9 cbsz:4 blgp:4";

TEST(TimingModel, DependentMFMAsWaitForTheirResult) {
  MachineModel machine;
  OneWave chain({kDependent, kDependent, "s_endpgm"});
  OneWave independent({kDependent, kIndependent, "s_endpgm"});
  TimingReport a = simulateCU(chain.kernel, chain.trace, machine);
  TimingReport b = simulateCU(independent.kernel, independent.trace, machine);
  // The second MFMA of the chain starts when the first's result is ready:
  // its passes plus the dependent extra after the first started; the
  // independent one when the pipe frees.
  EXPECT_DOUBLE_EQ(a.waitMFMAResult - b.waitMFMAResult,
                   machine.MFMA16NarrowCycles +
                       machine.MFMADependentExtraCycles - machine.IssueCycles);
  // The pipe then idled, so the dependent MFMA also starts late.
  EXPECT_DOUBLE_EQ(a.cycles - b.cycles, machine.MFMADependentExtraCycles +
                                            machine.MFMAIdleStartCycles);
  EXPECT_DOUBLE_EQ(b.mfmaPipeCycles, 2 * machine.MFMA16NarrowCycles);
}

TEST(TimingModel, WideOperandsTakeTwiceThePasses) {
  MachineModel machine;
  OneWave fp8({"v_mfma_scale_f32_16x16x128_f8f6f4 v[20:23], v[0:7], "
               "v[8:15], v[20:23], v16, v17",
               "s_endpgm"});
  TimingReport report = simulateCU(fp8.kernel, fp8.trace, machine);
  EXPECT_DOUBLE_EQ(report.mfmaPipeCycles, machine.MFMA16WideCycles);
}

TEST(TimingModel, WaitingForALoadCostsItsLatency) {
  MachineModel machine;
  OneWave wave({"buffer_load_dwordx4 v[0:3], v4, s[0:3], 0 offen",
                "s_waitcnt vmcnt(0)", "s_endpgm"});
  TimingReport report = simulateCU(wave.kernel, wave.trace, machine);
  EXPECT_DOUBLE_EQ(report.waitVM, machine.GlobalLatency - machine.IssueCycles);
  EXPECT_DOUBLE_EQ(report.memoryBytes, 1024);
  // With twice the latency, twice the wait (plus the one issue slot).
  ASSERT_FALSE(errorToBool(machine.set("global_latency=2000")));
  report = simulateCU(wave.kernel, wave.trace, machine);
  EXPECT_DOUBLE_EQ(report.waitVM, 2000 - machine.IssueCycles);
}

TEST(TimingModel, AtomicsAndCacheControlCostTheirLatencies) {
  MachineModel machine;
  // A returning atomic: back after the global latency, like a load.
  OneWave atomic({"global_atomic_add v3, v5, v2, s[4:5] sc0 sc1",
                  "s_waitcnt vmcnt(0)", "s_endpgm"});
  TimingReport report = simulateCU(atomic.kernel, atomic.trace, machine);
  EXPECT_DOUBLE_EQ(report.waitVM, machine.GlobalLatency - machine.IssueCycles);
  // A release's writeback and an acquire's invalidate: their assumed
  // latencies, each on vmcnt.
  OneWave writeback({"buffer_wbl2 sc0 sc1", "s_waitcnt vmcnt(0)", "s_endpgm"});
  report = simulateCU(writeback.kernel, writeback.trace, machine);
  EXPECT_DOUBLE_EQ(report.waitVM,
                   machine.CacheWritebackCycles - machine.IssueCycles);
  OneWave invalidate({"buffer_inv sc0 sc1", "s_waitcnt vmcnt(0)", "s_endpgm"});
  report = simulateCU(invalidate.kernel, invalidate.trace, machine);
  EXPECT_DOUBLE_EQ(report.waitVM,
                   machine.CacheInvalidateCycles - machine.IssueCycles);
  ASSERT_FALSE(errorToBool(machine.set("cache_writeback_cycles=5000")));
  report = simulateCU(writeback.kernel, writeback.trace, machine);
  EXPECT_DOUBLE_EQ(report.waitVM, 5000 - machine.IssueCycles);
}

TEST(TimingModel, SettingConstants) {
  MachineModel machine;
  EXPECT_FALSE(errorToBool(machine.set("LDSBanks=32")));
  EXPECT_EQ(machine.LDSBanks, 32);
  EXPECT_TRUE(errorToBool(machine.set("NoSuchConstant=1")));
  EXPECT_TRUE(errorToBool(machine.set("LDSBanks")));
  EXPECT_TRUE(errorToBool(machine.set("LDSBanks=-1")));
}

std::array<uint32_t, 64> addresses(uint32_t stride) {
  std::array<uint32_t, 64> lanes;
  for (uint32_t lane = 0; lane < 64; ++lane)
    lanes[lane] = lane * stride;
  return lanes;
}

TEST(TimingModel, LDSBankConflicts) {
  MachineModel machine; // 64 banks, 128 bytes a cycle.
  // Consecutive dwords: 32 lanes a phase, no conflict: 2 cycles.
  EXPECT_DOUBLE_EQ(ldsAccessCycles(machine, addresses(4), 4), 2);
  // Every lane the same dword: a broadcast.
  EXPECT_DOUBLE_EQ(ldsAccessCycles(machine, addresses(0), 4), 2);
  // A 256-byte stride puts every lane of a phase in one bank: 32 passes.
  EXPECT_DOUBLE_EQ(ldsAccessCycles(machine, addresses(256), 4), 64);
  // Inactive lanes take no part.
  std::array<uint32_t, 64> half = addresses(256);
  for (unsigned lane = 1; lane < 64; lane += 2)
    half[lane] = kNoLane;
  EXPECT_DOUBLE_EQ(ldsAccessCycles(machine, half, 4), 32);
  // b128 of consecutive lanes: 8 phases of 8 lanes (lanes 0-3 with 20-23,
  // ...): lanes 0-3 and 20-23 lie 320 bytes apart, so no two share a bank.
  EXPECT_DOUBLE_EQ(ldsAccessCycles(machine, addresses(16), 16), 8);
  // b128 with lanes 4 apart in one 256-byte row pair: lanes n and n+16 of a
  // phase (4-7 with 16-19) collide when the stride is 256/16 = 16 lanes.
  EXPECT_DOUBLE_EQ(ldsAccessCycles(machine, addresses(64), 16), 16);
}

} // namespace
