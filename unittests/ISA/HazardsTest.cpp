//===- HazardsTest.cpp - gfx950 wait-state checker ------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Feeds hand-made instruction streams (LLVM's printed gfx950 syntax, parsed
// by parseInstruction) to HazardChecker: every rule of HazardTable.def fires
// with one wait state too few and names its id, and stays quiet with exactly
// enough; s_nop counts N + 1; independent instructions raise nothing. The
// required counts are the ones LLVM 22's hazard recognizer inserts for gfx950
// (see HazardTable.def), so the expectations are not read off the table.
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/ISA/Hazards.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

#include <deque>
#include <string>
#include <vector>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;

namespace {

// An 8-pass (fp8 x fp8), a 4-pass (fp4 x fp4) 16x16x128 and the 32x32x64
// scaled MFMAs, all accumulating in a[0:3] / a[0:15].
const char *kMfma8 = "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[0:7], "
                     "v[8:15], a[0:3], v16, v17 op_sel_hi:[0,0,0]";
const char *kMfma4 = "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[0:3], "
                     "v[4:7], a[0:3], v8, v9 op_sel_hi:[0,0,0] cbsz:4 blgp:4";
const char *kMfma32x16 = "v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], v[0:7], "
                         "v[8:15], a[0:15], v16, v17";
const char *kMfma32x8 = "v_mfma_scale_f32_32x32x64_f8f6f4 a[0:15], v[0:3], "
                        "v[4:7], a[0:15], v8, v9 cbsz:4 blgp:4";
// The same with their result in VGPRs v[20:23].
const char *kMfma8V = "v_mfma_scale_f32_16x16x128_f8f6f4 v[20:23], v[0:7], "
                      "v[8:15], v[20:23], v16, v17";
const char *kMfma4V = "v_mfma_scale_f32_16x16x128_f8f6f4 v[20:23], v[0:3], "
                      "v[4:7], v[20:23], v8, v9 cbsz:4 blgp:4";
const char *kCmpx = "v_cmpx_eq_u32_e64 s[0:1], v1, v2";

/// An instruction stream with stable instructions and increasing pcs.
class Stream {
public:
  /// Appends \p text. "PARSED | REST" parses PARSED and keeps PARSED REST as
  /// the text, for syntax parseInstruction does not take yet (DPP controls,
  /// hwreg(...)).
  const Instruction &add(StringRef text) {
    auto [parsed, rest] = text.split(" | ");
    int64_t simm16 = 0;
    if (parsed.starts_with("s_nop "))
      (void)parsed.drop_front(6).getAsInteger(0, simm16);
    Expected<Instruction> inst = parseInstruction(parsed, pc, 8, simm16);
    if (!inst) {
      ADD_FAILURE() << toString(inst.takeError());
      insts.emplace_back();
      return insts.back();
    }
    if (!rest.empty())
      inst->text = (parsed + " " + rest).str();
    pc += 8;
    insts.push_back(std::move(*inst));
    return insts.back();
  }
  /// Issues everything added since the last run; the first error, if any.
  Error run(HazardChecker &checker) {
    for (; next < insts.size(); ++next)
      if (Error err = checker.issue(insts[next]))
        return err;
    return Error::success();
  }

private:
  std::deque<Instruction> insts;
  uint64_t pc = 0x1000;
  size_t next = 0;
};

/// Runs \p lines; the error text, or "" when none.
std::string runLines(ArrayRef<std::string> lines) {
  Stream stream;
  for (const std::string &line : lines)
    stream.add(line);
  HazardChecker checker;
  Error err = stream.run(checker);
  return err ? toString(std::move(err)) : "";
}

struct Case {
  const char *rule;
  std::vector<std::string> producer;
  std::string consumer;
  int required;
};

/// Producer, then \p waits wait states of filler, then the consumer.
std::vector<std::string> withWaits(const Case &c, int waits, bool nops) {
  std::vector<std::string> lines = c.producer;
  if (nops && waits > 0)
    lines.push_back("s_nop " + std::to_string(waits - 1));
  for (int i = 0; !nops && i < waits; ++i)
    lines.push_back("s_mov_b32 s99, " + std::to_string(i));
  lines.push_back(c.consumer);
  return lines;
}

void PrintTo(const Case &c, std::ostream *os) {
  *os << c.rule << ": '" << c.consumer << "' needs " << c.required;
}

class RuleFires : public ::testing::TestWithParam<Case> {};

TEST_P(RuleFires, TooFewWaitStatesNamesTheRuleAndEnoughPasses) {
  const Case &c = GetParam();
  for (bool nops : {true, false}) {
    std::string tooEarly = runLines(withWaits(c, c.required - 1, nops));
    EXPECT_NE(tooEarly.find(c.rule), std::string::npos)
        << "expected rule " << c.rule << ", got: '" << tooEarly << "'";
    std::string need = std::to_string(c.required) + " wait states required, " +
                       std::to_string(c.required - 1) + " present";
    EXPECT_NE(tooEarly.find(need), std::string::npos) << tooEarly;
    EXPECT_EQ(runLines(withWaits(c, c.required, nops)), "");
  }
}

const Case kCases[] = {
    // MFMA (XDL) producers: 8/4-pass 16x16x128, 16/8-pass 32x32x64.
    {"XDLWriteVgprVALURead", {kMfma8}, "v_accvgpr_read_b32 v30, a0", 12},
    {"XDLWriteVgprVALURead", {kMfma4}, "v_accvgpr_read_b32 v30, a3", 8},
    {"XDLWriteVgprVALURead", {kMfma32x16}, "v_accvgpr_read_b32 v30, a15", 20},
    {"XDLWriteVgprVALURead", {kMfma32x8}, "v_accvgpr_read_b32 v30, a7", 12},
    {"XDLWriteVgprVALURead", {kMfma8V}, "v_add_f32_e32 v30, v21, v31", 12},
    {"XDLWriteVgprMemRead",
     {kMfma8V},
     "global_store_dword v[30:31], v21, off",
     12},
    {"XDLWriteVgprMemRead",
     {kMfma8V},
     "global_store_dword v[20:21], v30, off",
     12},
    {"XDLWriteVgprMemRead",
     {kMfma4},
     "buffer_store_dwordx4 a[0:3], v9, s[4:7], 0 offen",
     8},
    {"XDLWriteVgprMemRead", {kMfma8}, "ds_write_b32 v30, a2", 12},
    {"XDLWriteVgprVALUWaw", {kMfma4V}, "v_mov_b32_e32 v21, 0", 8},
    {"XDLWriteVgprVALUWaw", {kMfma8}, "v_accvgpr_write_b32 a1, v30", 12},
    {"XDLWriteVgprVALUWaw",
     {kMfma8V},
     "global_load_dword v22, v[30:31], off",
     12},
    {"XDLWriteVgprSrcAB",
     {kMfma8V},
     "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[20:23], v[4:7], a[0:3], "
     "v8, v9 cbsz:4 blgp:4",
     12},
    {"XDLWriteVgprSrcAB",
     {kMfma4V},
     "v_mfma_scale_f32_16x16x128_f8f6f4 a[0:3], v[0:3], v[4:7], a[0:3], "
     "v21, v9 cbsz:4 blgp:4",
     8},
    {"XDLWriteVgprSrcCOverlapped",
     {kMfma8},
     "v_mfma_scale_f32_16x16x128_f8f6f4 a[2:5], v[0:7], v[8:15], a[2:5], "
     "v16, v17",
     10},
    {"XDLWriteVgprSrcCOverlapped",
     {kMfma4},
     "v_mfma_scale_f32_16x16x128_f8f6f4 a[2:5], v[0:3], v[4:7], a[2:5], "
     "v8, v9 cbsz:4 blgp:4",
     6},
    {"XDLWriteVgprSrcCOverlapped",
     {kMfma32x16},
     "v_mfma_scale_f32_32x32x64_f8f6f4 a[8:23], v[0:7], v[8:15], a[8:23], "
     "v16, v17",
     18},
    {"XDLReadSrcCVALUWar",
     {"v_mfma_scale_f32_16x16x128_f8f6f4 a[4:7], v[0:7], v[8:15], a[0:3], "
      "v16, v17"},
     "v_accvgpr_write_b32 a1, v30",
     7},
    {"XDLReadSrcCVALUWar",
     {"v_mfma_scale_f32_16x16x128_f8f6f4 a[4:7], v[0:3], v[4:7], a[0:3], v8, "
      "v9 cbsz:4 blgp:4"},
     "v_accvgpr_write_b32 a1, v30",
     3},
    {"XDLReadSrcCVALUWar",
     {"v_mfma_scale_f32_32x32x64_f8f6f4 a[16:31], v[0:7], v[8:15], a[0:15], "
      "v16, v17"},
     "v_accvgpr_write_b32 a1, v30",
     15},
    // MFMA with f32 inputs (not XDL, 8 passes).
    {"SMFMAWriteVgprRead",
     {"v_mfma_f32_16x16x4_f32 a[0:3], v0, v1, a[0:3]"},
     "v_accvgpr_read_b32 v30, a0",
     10},
    {"SMFMAWriteVgprWaw",
     {"v_mfma_f32_16x16x4_f32 a[0:3], v0, v1, a[0:3]"},
     "v_accvgpr_write_b32 a1, v30",
     10},
    {"SMFMAWriteVgprSrcAB",
     {"v_mfma_f32_16x16x4_f32 v[20:23], v0, v1, v[20:23]"},
     "v_mfma_f32_16x16x4_f32 a[0:3], v21, v1, a[0:3]",
     10},
    {"SMFMAWriteSrcCOverlapped",
     {"v_mfma_f32_16x16x4_f32 a[0:3], v0, v1, a[0:3]"},
     "v_mfma_f32_16x16x4_f32 a[2:5], v0, v1, a[2:5]",
     8},
    // VALU producers.
    {"LegacyVALUWritesVGPR", {"v_mov_b32_e32 v3, 0"}, kMfma8, 2},
    {"LegacyVALUWritesVGPR", {"v_mov_b32_e32 v16, 0"}, kMfma8, 2},
    {"LegacyVALUWritesVGPR", {"v_accvgpr_write_b32 a1, v30"}, kMfma8, 2},
    {"VALUWritesExec", {kCmpx}, kMfma8, 4},
    {"VALUWritesExec", {"v_readfirstlane_b32 exec_lo, v1"}, kMfma4, 4},
    {"VmemSgprWaitStates",
     {"v_readfirstlane_b32 s8, v1"},
     "buffer_load_dword v2, v3, s[8:11], 0 offen",
     5},
    {"VmemSgprWaitStates",
     {"v_readfirstlane_b32 s12, v1"},
     "buffer_load_dword v2, v3, s[8:11], s12 offen",
     5},
    {"VmemSgprWaitStates",
     {"v_readfirstlane_b32 s7, v1"},
     "global_load_dword v2, v3, s[6:7]",
     5},
    {"WriteSGPRReadConstant",
     {"v_readfirstlane_b32 s12, v1"},
     "v_add_u32_e32 v2, s12, v3",
     2},
    {"WriteVCCReadConstant",
     {"v_cmp_eq_u32_e32 vcc, v1, v2"},
     "v_add_u32_e32 v4, vcc_lo, v2",
     1},
    {"RWLaneWaitStates",
     {"v_readfirstlane_b32 s12, v1"},
     "v_readlane_b32 s13, v3, s12",
     4},
    {"RWLaneWaitStates",
     {"v_cmp_eq_u32_e32 vcc, v1, v2"},
     "v_writelane_b32 v3, s13, vcc_lo",
     4},
    {"VALUWriteEXECRWLane", {kCmpx}, "v_readlane_b32 s13, v3, 1", 4},
    {"VALUWriteEXECRWLane", {kCmpx}, "v_readfirstlane_b32 s13, v3", 4},
    {"VALUWriteVGPRReadlaneRead",
     {"v_mov_b32_e32 v3, 0"},
     "v_readfirstlane_b32 s13, v3",
     1},
    {"DivFMasWaitStates",
     {"v_cmp_eq_u32_e32 vcc, v1, v2"},
     "v_div_fmas_f32 v4, v1, v2, v3",
     4},
    {"DppExecWaitStates",
     {"v_readfirstlane_b32 exec_lo, v1"},
     "v_mov_b32_dpp v4, v3 | row_shr:1 row_mask:0xf bank_mask:0xf",
     5},
    {"DppVgprWaitStates",
     {"v_mov_b32_e32 v3, 0"},
     "v_mov_b32_dpp v4, v3 | quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
     2},
    {"TransDefWaitstates",
     {"v_exp_f32_e32 v3, v1"},
     "v_add_f32_e32 v4, v3, v2",
     1},
    {"Shift16DefWaitstates",
     {"v_mov_b32_sdwa v3, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE "
      "src0_sel:DWORD"},
     "v_add_u32_e32 v4, v3, v2",
     1},
    {"Shift16DefWaitstates",
     {"v_cvt_scalef32_pk_fp4_f32 v1, v2, v3, v4 op_sel:[0,0,0,1]"},
     "v_mov_b32_e32 v5, v1",
     1},
    {"VALUWriteReadlane94x-950-Permlane",
     {"v_mov_b32_e32 v1, 0"},
     "v_permlane32_swap_b32_e32 v2, v1",
     2},
    {"VCMPXWrite94x-950-Permlane",
     {kCmpx},
     "v_permlane32_swap_b32_e32 v5, v6",
     4},
    {"VCMPXWrite94x-ReadExec", {kCmpx}, "v_mov_b32_e32 v0, exec_lo", 2},
    // Stores, SALU, hardware registers.
    {"12DWordStore",
     {"global_store_dwordx4 v[30:31], v[4:7], off"},
     "v_mov_b32_e32 v5, 0",
     2},
    {"12DWordStore",
     {"buffer_store_dwordx3 v[4:6], v9, s[8:11], 0 offen"},
     "v_accvgpr_read_b32 v6, a0",
     2},
    {"LdsDma",
     {"s_mov_b32 m0, s2"},
     "buffer_load_dword v13, s[8:11], 0 offen lds",
     1},
    {"SetRegWaitStates",
     {"s_setreg_b32 s1 | hwreg(HW_REG_MODE, 0, 4)"},
     "s_getreg_b32 s2 | hwreg(HW_REG_MODE)",
     2},
    {"SetRegWaitStates",
     {"s_setreg_b32 s1 | hwreg(HW_REG_MODE, 0, 4)"},
     "s_setreg_b32 s3 | hwreg(HW_REG_MODE, 4, 2)",
     2},
};

INSTANTIATE_TEST_SUITE_P(Gfx950, RuleFires, ::testing::ValuesIn(kCases));

/// Every rule of the table has a case above that makes it fire.
TEST(HazardRules, EveryRuleHasAFiringCase) {
  StringSet<> ids;
  EXPECT_FALSE(getHazardRules().empty());
  for (const HazardRule &rule : getHazardRules()) {
    EXPECT_TRUE(ids.insert(rule.id).second) << "duplicate id " << rule.id;
    EXPECT_NE(StringRef(rule.source), "");
    EXPECT_NE(StringRef(rule.summary), "");
    bool fired = llvm::any_of(kCases, [&](const Case &c) {
      return StringRef(rule.id).ends_with(c.rule) &&
             runLines(withWaits(c, c.required - 1, true)).find(rule.id) !=
                 std::string::npos;
    });
    EXPECT_TRUE(fired) << rule.id << " has no firing case";
  }
}

TEST(Hazards, NopCountsNPlusOne) {
  // 12 wait states after an 8-pass XDL write: s_nop 11 is 12.
  EXPECT_EQ(runLines({kMfma8, "s_nop 11", "v_accvgpr_read_b32 v30, a0"}), "");
  EXPECT_NE(runLines({kMfma8, "s_nop 10", "v_accvgpr_read_b32 v30, a0"}), "");
  // Two s_nops and independent instructions add up.
  EXPECT_EQ(runLines({kMfma8, "s_nop 4", "v_mov_b32_e32 v40, 0", "s_nop 5",
                      "v_accvgpr_read_b32 v30, a0"}),
            "");
  EXPECT_NE(runLines({kMfma8, "s_nop 4", "v_mov_b32_e32 v40, 0", "s_nop 4",
                      "v_accvgpr_read_b32 v30, a0"}),
            "");
}

TEST(Hazards, NoFalsePositives) {
  // Back-to-back accumulation into the same srcC needs no wait.
  EXPECT_EQ(runLines({kMfma8, kMfma8, kMfma8}), "");
  // Independent registers right after an MFMA.
  EXPECT_EQ(
      runLines({kMfma8, "v_accvgpr_read_b32 v30, a4", "v_mov_b32_e32 v40, v41",
                "global_store_dword v[30:31], v42, off"}),
      "");
  // Reading an MFMA's srcA right after it is not a hazard.
  EXPECT_EQ(runLines({kMfma8, "v_mov_b32_e32 v50, v3"}), "");
  // SALU writes of EXEC and SGPRs, VCC as carry-in and mask.
  EXPECT_EQ(runLines({"s_mov_b64 exec, -1", kMfma8}), "");
  EXPECT_EQ(runLines({"s_mov_b32 s8, 0",
                      "buffer_load_dword v2, v3, s[8:11], 0 offen"}),
            "");
  EXPECT_EQ(runLines({"v_add_co_u32_e32 v1, vcc, v2, v3",
                      "v_addc_co_u32_e32 v4, vcc, v5, v6, vcc"}),
            "");
  EXPECT_EQ(runLines({"v_cmp_eq_u32_e64 s[4:5], v1, v2",
                      "v_cndmask_b32_e64 v0, v1, v2, s[4:5]"}),
            "");
  // A transcendental feeding a transcendental, 64-bit and LDS stores, an
  // SGPR soffset, an M0 write before a plain ds_read.
  EXPECT_EQ(runLines({"v_exp_f32_e32 v3, v1", "v_exp_f32_e32 v4, v3"}), "");
  EXPECT_EQ(runLines({"global_store_dwordx2 v[30:31], v[4:5], off",
                      "v_mov_b32_e32 v5, 0"}),
            "");
  EXPECT_EQ(runLines({"ds_write_b128 v1, v[4:7]", "v_mov_b32_e32 v5, 0"}), "");
  EXPECT_EQ(runLines({"buffer_store_dwordx4 v[4:7], v9, s[8:11], s12 offen",
                      "v_mov_b32_e32 v5, 0"}),
            "");
  EXPECT_EQ(runLines({"s_mov_b32 m0, s2", "ds_read_b32 v1, v2"}), "");
}

TEST(Hazards, NewerWriterHidesOlderOne) {
  // The 4-pass MFMA accumulates on the 8-pass one's result: a read 8 wait
  // states after it is fine although the 8-pass one is only 9 back.
  EXPECT_EQ(runLines({kMfma8, kMfma4, "s_nop 7", "v_accvgpr_read_b32 v30, a0"}),
            "");
}

TEST(Hazards, ErrorNamesProducerConsumerAndSource) {
  std::string err = runLines({kMfma8, "v_accvgpr_read_b32 v30, a0"});
  EXPECT_NE(err.find("pc 0x1000 '" + std::string(kMfma8) + "'"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("pc 0x1008 'v_accvgpr_read_b32 v30, a0'"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("GCNHazardRecognizer.cpp"), std::string::npos) << err;
  EXPECT_NE(err.find("12 wait states required, 0 present"), std::string::npos)
      << err;
}

TEST(Hazards, ResetForgetsTheWave) {
  Stream stream;
  stream.add(kMfma8);
  HazardChecker checker;
  Error first = stream.run(checker);
  ASSERT_FALSE(bool(first)) << toString(std::move(first));
  checker.reset();
  stream.add("v_accvgpr_read_b32 v30, a0");
  Error second = stream.run(checker);
  EXPECT_FALSE(bool(second)) << toString(std::move(second));
  // Without the reset the same stream is a hazard.
  HazardChecker fresh;
  Stream again;
  again.add(kMfma8);
  again.add("v_accvgpr_read_b32 v30, a0");
  Error third = again.run(fresh);
  EXPECT_TRUE(bool(third));
  consumeError(std::move(third));
}

TEST(Hazards, UnknownMfmaIsAnError) {
  std::string err =
      runLines({"v_mfma_f64_16x16x4_f64 a[0:7], v[0:1], v[2:3], a[0:7]"});
  EXPECT_NE(err.find("no pass count"), std::string::npos) << err;
}

} // namespace
