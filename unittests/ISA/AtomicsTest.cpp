//===- AtomicsTest.cpp - the ISA executor's atomics and cache control -----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Hand-written gfx950 instruction streams on the ISA executor: the dword
// atomics (global_atomic_* with and without sc0, the SGPR-base and 64-bit
// address forms, buffer_atomic_*), buffer_wbl2 / buffer_inv, and the lane
// counting LLVM's atomic optimizer emits around an atomic (s_bcnt1,
// v_mbcnt). Expected values follow from the CDNA4 ISA's definitions (an
// atomic returns the dword before its update; lanes in lane order), computed
// here in plain C++; the workgroups of a launch racing for one counter on
// several host threads must each get a distinct old value.
//
//===----------------------------------------------------------------------===//

#include "KernelText.h"

#include "mx/Target/GFX950/ISA/Executor.h"

#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;

namespace {

/// A kernel of \p texts (8 bytes apart) whose descriptor enables the kernarg
/// segment pointer (s[0:1]) and the workgroup id x (s2), with 64 VGPRs.
Kernel makeKernel(ArrayRef<std::string> texts) {
  Kernel kernel;
  kernel.name = "atomics";
  kernel.descriptor.kernelCodeProperties = 1 << 3;
  kernel.descriptor.computePgmRsrc1 = 7;
  kernel.descriptor.computePgmRsrc2 = (2 << 1) | (1 << 7);
  appendInstructions(kernel, texts);
  return kernel;
}

/// The launch's buffers of dwords; the kernarg segment holds their device
/// addresses in order (8 bytes each).
struct Buffers {
  std::vector<std::vector<uint32_t>> dwords;
  DeviceMemory memory;
  std::vector<uint64_t> kernargs;

  explicit Buffers(std::vector<std::vector<uint32_t>> contents)
      : dwords(std::move(contents)) {
    std::vector<uint64_t> addresses;
    for (std::vector<uint32_t> &buffer : dwords)
      addresses.push_back(memory.map(
          reinterpret_cast<uint8_t *>(buffer.data()), buffer.size() * 4,
          /*writable=*/true, "buffer " + std::to_string(addresses.size())));
    kernargs = addresses;
    kernargs.resize(std::max<size_t>(kernargs.size(), 2));
  }

  /// Runs \p kernel on \p grid workgroups of 64 work-items; the error or "".
  std::string run(const Kernel &kernel, uint32_t grid = 1,
                  unsigned threads = 1) {
    Launch launch;
    launch.grid = {grid, 1, 1};
    launch.block = {64, 1, 1};
    launch.kernargAddress =
        memory.map(reinterpret_cast<uint8_t *>(kernargs.data()),
                   kernargs.size() * 8, /*writable=*/false, "kernargs");
    ExecutorOptions options;
    options.threads = threads;
    if (Error error = execute(kernel, launch, memory, options))
      return toString(std::move(error));
    return "";
  }
};

/// Loads buffer 0's address into s[4:5] and buffer 1's into s[6:7]; v1 =
/// lane * 4, v2 = lane + 1.
const std::vector<std::string> kPrologue = {
    "s_load_dwordx2 s[4:5], s[0:1], 0x0", "s_load_dwordx2 s[6:7], s[0:1], 0x8",
    "v_lshlrev_b32_e32 v1, 2, v0", "v_add_u32_e32 v2, 1, v0",
    "s_waitcnt lgkmcnt(0)"};

std::vector<std::string> withPrologue(std::vector<std::string> body) {
  std::vector<std::string> texts = kPrologue;
  texts.insert(texts.end(), body.begin(), body.end());
  texts.push_back("s_endpgm");
  return texts;
}

//===----------------------------------------------------------------------===//
// global_atomic_add
//===----------------------------------------------------------------------===//

TEST(ISAAtomics, GlobalAddReturnsTheOldValueLaneAfterLane) {
  // Every lane adds lane + 1 to dword 0 of buffer 0 (100 before) and stores
  // what it got back at its dword of buffer 1: lane l gets
  // 100 + 1 + 2 + ... + l = 100 + l (l + 1) / 2.
  for (const char *atomic :
       {"global_atomic_add v3, v5, v2, s[4:5] sc0 sc1",
        "global_atomic_add v3, v[6:7], v2, off sc0",
        "global_atomic_add v3, v5, v2, s[4:5] offset:4 sc0"}) {
    SCOPED_TRACE(atomic);
    bool offset = StringRef(atomic).contains("offset:4");
    Buffers buffers({{0, 0}, std::vector<uint32_t>(64, 0)});
    buffers.dwords[0][offset] = 100;
    Kernel kernel = makeKernel(withPrologue(
        {"v_mov_b32_e32 v5, 0", "v_mov_b32_e32 v6, s4", "v_mov_b32_e32 v7, s5",
         atomic, "s_waitcnt vmcnt(0)", "global_store_dword v1, v3, s[6:7]"}));
    ASSERT_EQ(buffers.run(kernel), "");
    for (uint32_t lane = 0; lane < 64; ++lane)
      EXPECT_EQ(buffers.dwords[1][lane], 100 + lane * (lane + 1) / 2) << lane;
    EXPECT_EQ(buffers.dwords[0][offset], 100u + 64 * 65 / 2);
    EXPECT_EQ(buffers.dwords[0][!offset], 0u);
  }
}

TEST(ISAAtomics, GlobalAddWithoutReturnWritesNoRegister) {
  // Without sc0 the atomic has no vdst; memory is updated all the same, and
  // v3 keeps its value.
  Buffers buffers({{7}, std::vector<uint32_t>(64, 0)});
  Kernel kernel = makeKernel(
      withPrologue({"v_mov_b32_e32 v3, 55", "v_mov_b32_e32 v5, 0",
                    "global_atomic_add v5, v2, s[4:5]", "s_waitcnt vmcnt(0)",
                    "global_store_dword v1, v3, s[6:7]"}));
  ASSERT_EQ(buffers.run(kernel), "");
  EXPECT_EQ(buffers.dwords[0][0], 7u + 64 * 65 / 2);
  EXPECT_EQ(buffers.dwords[1], std::vector<uint32_t>(64, 55));
}

TEST(ISAAtomics, ReturnedValueIsPendingUntilTheWait) {
  Buffers buffers({{0}, std::vector<uint32_t>(64, 0)});
  Kernel kernel = makeKernel(withPrologue(
      {"v_mov_b32_e32 v5, 0", "global_atomic_add v3, v5, v2, s[4:5] sc0 sc1",
       "v_readfirstlane_b32 s8, v3"}));
  std::string error = buffers.run(kernel);
  EXPECT_NE(error.find("v_readfirstlane_b32 s8, v3: reads v3 before the load "
                       "that writes it"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("global_atomic_add v3, v5, v2, s[4:5] sc0 sc1) is "
                       "retired by an s_waitcnt"),
            std::string::npos)
      << error;
}

TEST(ISAAtomics, AddressOutsideTheBuffersIsAnError) {
  Buffers buffers({{0}, std::vector<uint32_t>(64, 0)});
  Kernel kernel = makeKernel(withPrologue(
      {"v_mov_b32_e32 v5, 4", "global_atomic_add v3, v5, v2, s[4:5] sc0"}));
  std::string error = buffers.run(kernel);
  EXPECT_NE(error.find("lane 0 atomic of 4 bytes at"), std::string::npos)
      << error;
  EXPECT_NE(error.find("outside the launch's buffers: buffer 0 (4 bytes"),
            std::string::npos)
      << error;
}

TEST(ISAAtomics, WorkgroupsOnHostThreadsEachGetADistinctCount) {
  // 64 workgroups of 64 lanes on 4 host threads each add 1 to one counter
  // four times and store the old values at their dwords: every count from
  // 0 to 16383 comes back exactly once, and the counter ends at 16384.
  Buffers buffers({{0}, std::vector<uint32_t>(64 * 64 * 4, ~0u)});
  std::vector<std::string> body = {"v_mov_b32_e32 v5, 0", "v_mov_b32_e32 v2, 1",
                                   "s_lshl_b32 s8, s2, 10",
                                   "v_add_u32_e32 v1, s8, v1"};
  for (int i = 0; i < 4; ++i)
    body.push_back("global_atomic_add v" + std::to_string(10 + i) +
                   ", v5, v2, s[4:5] sc0 sc1");
  body.push_back("s_waitcnt vmcnt(0)");
  for (int i = 0; i < 4; ++i)
    body.push_back("global_store_dword v1, v" + std::to_string(10 + i) +
                   ", s[6:7] offset:" + std::to_string(256 * i));
  ASSERT_EQ(buffers.run(makeKernel(withPrologue(body)), /*grid=*/64,
                        /*threads=*/4),
            "");
  EXPECT_EQ(buffers.dwords[0][0], 16384u);
  std::vector<uint32_t> counts = buffers.dwords[1];
  std::sort(counts.begin(), counts.end());
  std::vector<uint32_t> all(16384);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(counts, all);
}

//===----------------------------------------------------------------------===//
// The other dword atomics, global and buffer
//===----------------------------------------------------------------------===//

struct DwordAtomic {
  const char *name;
  uint32_t (*combine)(uint32_t memory, uint32_t data);
};

/// The CDNA4 ISA's definitions of the dword atomics (MEM = f(MEM, DATA)).
const DwordAtomic kDwordAtomics[] = {
    {"add", [](uint32_t m, uint32_t d) { return m + d; }},
    {"sub", [](uint32_t m, uint32_t d) { return m - d; }},
    {"swap", [](uint32_t, uint32_t d) { return d; }},
    {"smin",
     [](uint32_t m, uint32_t d) {
       return uint32_t(std::min(int32_t(m), int32_t(d)));
     }},
    {"umin", [](uint32_t m, uint32_t d) { return std::min(m, d); }},
    {"smax",
     [](uint32_t m, uint32_t d) {
       return uint32_t(std::max(int32_t(m), int32_t(d)));
     }},
    {"umax", [](uint32_t m, uint32_t d) { return std::max(m, d); }},
    {"and", [](uint32_t m, uint32_t d) { return m & d; }},
    {"or", [](uint32_t m, uint32_t d) { return m | d; }},
    {"xor", [](uint32_t m, uint32_t d) { return m ^ d; }},
};

TEST(ISAAtomics, DwordAtomicsGlobalAndBuffer) {
  // Lane l updates its own dword l of buffer 0 (m_l) with d_l (buffer 2)
  // and stores the returned value into buffer 1. The buffer form reaches
  // the same dwords through a raw V# of buffer 0 (num_records 256 bytes).
  std::vector<uint32_t> memory(64), data(64);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    memory[lane] = lane * 0x9e3779b9u;
    data[lane] = ~(lane * 0x7f4a7c15u) ^ (lane & 1 ? 0x80000000u : 0);
  }
  for (const DwordAtomic &atomic : kDwordAtomics) {
    for (bool buffer : {false, true}) {
      std::string text = buffer ? std::string("buffer_atomic_") + atomic.name +
                                      " v3, v1, s[8:11], 0 offen sc0"
                                : std::string("global_atomic_") + atomic.name +
                                      " v3, v1, v3, s[4:5] sc0";
      SCOPED_TRACE(text);
      Buffers buffers({memory, std::vector<uint32_t>(64, 0), data});
      Kernel kernel = makeKernel(withPrologue(
          {"s_load_dwordx2 s[12:13], s[0:1], 0x10", "s_mov_b32 s8, s4",
           "s_and_b32 s9, s5, 0xffff", "s_movk_i32 s10, 0x100",
           "s_mov_b32 s11, 0x20000", "s_waitcnt lgkmcnt(0)",
           "global_load_dword v3, v1, s[12:13]", "s_waitcnt vmcnt(0)", text,
           "s_waitcnt vmcnt(0)", "global_store_dword v1, v3, s[6:7]"}));
      ASSERT_EQ(buffers.run(kernel), "");
      for (uint32_t lane = 0; lane < 64; ++lane) {
        EXPECT_EQ(buffers.dwords[1][lane], memory[lane]) << lane;
        EXPECT_EQ(buffers.dwords[0][lane],
                  atomic.combine(memory[lane], data[lane]))
            << lane;
      }
    }
  }
}

TEST(ISAAtomics, UnmodelledAtomicsAreNotSupported) {
  EXPECT_TRUE(isSupported("global_atomic_add"));
  EXPECT_TRUE(isSupported("buffer_atomic_umax"));
  EXPECT_FALSE(isSupported("global_atomic_add_x2"));
  EXPECT_FALSE(isSupported("global_atomic_cmpswap"));
  EXPECT_FALSE(isSupported("global_atomic_add_f32"));
}

//===----------------------------------------------------------------------===//
// Cache control and lane counting
//===----------------------------------------------------------------------===//

TEST(ISAAtomics, CacheWritebackAndInvalidateCountOnVmcnt) {
  // A load, then the cache operations: with each counted on vmcnt, waiting
  // for vmcnt(4) retires the load (five outstanding); they change no data.
  Buffers buffers({{3}, std::vector<uint32_t>(64, 0)});
  Kernel kernel = makeKernel(
      withPrologue({"v_mov_b32_e32 v5, 0", "global_load_dword v3, v5, s[4:5]",
                    "buffer_wbl2 sc0 sc1", "buffer_inv sc0 sc1",
                    "buffer_wbl2 sc1", "buffer_inv sc1", "s_waitcnt vmcnt(4)",
                    "global_store_dword v1, v3, s[6:7]"}));
  ASSERT_EQ(buffers.run(kernel), "");
  EXPECT_EQ(buffers.dwords[1], std::vector<uint32_t>(64, 3));
  // Not counted, the wait would leave the load outstanding: one fewer
  // cache operation, and it is.
  kernel = makeKernel(withPrologue(
      {"v_mov_b32_e32 v5, 0", "global_load_dword v3, v5, s[4:5]",
       "buffer_wbl2 sc0 sc1", "buffer_inv sc0 sc1", "buffer_wbl2 sc1",
       "s_waitcnt vmcnt(4)", "global_store_dword v1, v3, s[6:7]"}));
  std::string error = buffers.run(kernel);
  EXPECT_NE(error.find("reads v3 before the load"), std::string::npos) << error;
}

TEST(ISAAtomics, LaneCountingOfTheAtomicOptimizer) {
  // s_bcnt1_i32_b64: the set bits of a 64-bit mask (and SCC = nonzero);
  // v_mbcnt_lo/hi: per lane, the set bits below the lane's own;
  // v_bcnt_u32_b32: the set bits of a dword plus an addend.
  uint64_t mask = 0x0000ffff'f0f0f0f1ull;
  Buffers buffers({std::vector<uint32_t>(64, 0), std::vector<uint32_t>(64, 0),
                   std::vector<uint32_t>(64, 0)});
  Kernel kernel = makeKernel(withPrologue(
      {"s_load_dwordx2 s[8:9], s[0:1], 0x10", "s_mov_b32 s10, 0xf0f0f0f1",
       "s_mov_b32 s11, 0xffff", "s_bcnt1_i32_b64 s12, s[10:11]",
       "s_cselect_b32 s13, 1, 0", "v_mbcnt_lo_u32_b32 v3, s10, 0",
       "v_mbcnt_hi_u32_b32 v3, s11, v3", "v_mov_b32_e32 v4, s12",
       "v_add_u32_e32 v4, s13, v4", "v_bcnt_u32_b32 v5, s10, v0",
       "s_waitcnt lgkmcnt(0)", "global_store_dword v1, v3, s[6:7]",
       "global_store_dword v1, v4, s[4:5]",
       "global_store_dword v1, v5, s[8:9]"}));
  ASSERT_EQ(buffers.run(kernel), "");
  for (uint32_t lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(buffers.dwords[1][lane],
              uint32_t(popcount(mask & ((uint64_t(1) << lane) - 1))))
        << lane;
    EXPECT_EQ(buffers.dwords[2][lane], 17 + lane) << lane;
  }
  // 17 + 16 bits, plus 1 for SCC.
  EXPECT_EQ(buffers.dwords[0], std::vector<uint32_t>(64, 33 + 1));
}

} // namespace
