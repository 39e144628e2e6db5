//===- LDSTest.cpp - the ISA executor's LDS reads across barriers ---------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Hand-written gfx950 instruction streams on the ISA executor: a ds_read
// stays in flight until an s_waitcnt lgkmcnt retires it, and it may cross
// an s_barrier (a kernel's next K step read ahead), but another wave may not
// write its bytes until then: the hardware may still be reading them.
//
//===----------------------------------------------------------------------===//

#include "KernelText.h"

#include "mx/Target/GFX950/ISA/Executor.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;

namespace {

/// Two waves (128 work-items, v0 = the work-item id) and 2 KiB of LDS:
/// each writes its 1 KiB (wave w: bytes [1024 w, 1024 w + 1024), 16 per
/// lane), meets the other at a barrier, reads its bytes back, then (with
/// `waitForReads`, after s_waitcnt lgkmcnt(0)) meets it at a second barrier
/// and writes 16 bytes per lane at its own offset or (`swap`) the other
/// wave's.
std::string run(bool waitForReads, bool swap) {
  std::vector<std::string> texts = {
      "v_lshlrev_b32_e32 v1, 4, v0", "v_mov_b32_e32 v4, 1",
      "v_mov_b32_e32 v5, 2",         "v_mov_b32_e32 v6, 3",
      "v_mov_b32_e32 v7, 4",         "ds_write_b128 v1, v[4:7]",
      "s_waitcnt lgkmcnt(0)",        "s_barrier",
      "ds_read_b128 v[8:11], v1",
  };
  if (waitForReads)
    texts.push_back("s_waitcnt lgkmcnt(0)");
  texts.push_back("s_barrier");
  texts.push_back(swap ? "v_xor_b32_e32 v3, 0x400, v1"
                       : "v_mov_b32_e32 v3, v1");
  texts.push_back("ds_write_b128 v3, v[4:7]");
  texts.push_back("s_waitcnt lgkmcnt(0)");
  texts.push_back("s_endpgm");
  Kernel kernel;
  kernel.name = "lds";
  kernel.descriptor.groupSegmentFixedSize = 2048;
  kernel.descriptor.computePgmRsrc1 = 7;
  appendInstructions(kernel, ArrayRef<std::string>(texts));
  DeviceMemory memory;
  Launch launch;
  launch.grid = {1, 1, 1};
  launch.block = {128, 1, 1};
  if (Error error = execute(kernel, launch, memory, ExecutorOptions()))
    return toString(std::move(error));
  return "";
}

TEST(LDSTest, ReadsInFlightAcrossABarrier) {
  // Each wave writes the bytes it read itself; or the other wave's, once
  // that wave retired its reads before the barrier.
  EXPECT_EQ(run(/*waitForReads=*/false, /*swap=*/false), "");
  EXPECT_EQ(run(/*waitForReads=*/true, /*swap=*/true), "");
  // Wave 0 (the waves run in turn up to each barrier) writes bytes that
  // wave 1 still reads.
  std::string error = run(/*waitForReads=*/false, /*swap=*/true);
  EXPECT_NE(error.find("wave 0, pc 0x58: ds_write_b128 v3, v[4:7]"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("LDS race: writes byte 1024 that wave 1 reads with a "
                       "ds_read it has not retired (missing s_waitcnt lgkmcnt "
                       "before the barrier)"),
            std::string::npos)
      << error;
}

} // namespace
