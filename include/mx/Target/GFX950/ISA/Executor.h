//===- Executor.h - executing gfx950 machine code ---------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The gfx950 ISA executor: runs a kernel of a code object (CodeObject.h) one
// wave of 64 lanes at a time, the waves of a workgroup interleaved at
// s_barrier, under an adversarial memory model:
//  - a load's destination registers (and an LDS-DMA's LDS bytes) are poison
//    until the s_waitcnt that retires it (vmcnt in order; lgkmcnt in order
//    for LDS, SMEM retiring last as it may return out of order); reading or
//    overwriting poison is an error naming both instructions;
//  - LDS bytes written by one wave and accessed by another between the same
//    two barriers are a race; a ds_write not yet retired when another wave
//    reads its bytes is an error;
//  - the ISA's required wait states between dependent instructions are
//    checked (Hazards.h);
//  - global accesses outside the launch's buffers are errors; buffer
//    accesses out of their V#'s range read 0 and drop writes (the ISA's
//    rule mx relies on for padding);
//  - atomics (buffer_atomic_*, global_atomic_*) run lane after lane under
//    one lock shared by the host threads that run workgroups; memory is
//    coherent (a store is visible at once), so buffer_wbl2 and buffer_inv,
//    the L2 writeback and invalidate of a release and an acquire, change no
//    data: a kernel that leaves them out, whose results an MI355X may get
//    wrong, gets them right here (not caught).
// The scaled-MFMA and conversion arithmetic is the wave emulator's
// (mx/Emulator/ScaledMFMA.h): one home, both arithmetic policies.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_ISA_EXECUTOR_H
#define MX_TARGET_GFX950_ISA_EXECUTOR_H

#include "mx/Emulator/ScaledMFMA.h"
#include "mx/Target/GFX950/ISA/CodeObject.h"
#include "mx/Target/GFX950/ISA/TimingModel.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mlir::mx::gfx950::isa {

/// The device memory of a launch: host byte ranges mapped at device
/// addresses, with unmapped gaps between them so that an access past one
/// buffer does not land in the next.
class DeviceMemory {
public:
  /// Maps \p size bytes at \p data and returns their device address
  /// (4 KiB-aligned).
  uint64_t map(uint8_t *data, uint64_t size, bool writable, std::string name);
  /// The host address of device bytes [address, address + bytes), or null
  /// when they are not inside one mapped range (or it is read-only and
  /// \p write is set).
  uint8_t *translate(uint64_t address, uint64_t bytes, bool write) const;
  /// "buffer 'name' (N bytes at 0x...)" or "no buffer" for \p address.
  std::string describe(uint64_t address) const;

private:
  struct Region {
    uint64_t base;
    uint64_t size;
    uint8_t *data;
    bool writable;
    std::string name;
  };
  std::vector<Region> regions;
  uint64_t next = uint64_t(1) << 40;
};

struct ExecutorOptions {
  /// The scaled-MFMA arithmetic (emu::getScaledDotFn).
  emu::ScaledDotFn numerics = emu::exactScaledDot;
  /// Check the ISA's wait states (Hazards.h).
  bool checkHazards = true;
  /// Workgroups run on this many host threads (workgroups are independent
  /// but for their atomics, which the lock orders).
  unsigned threads = 1;
  /// A wave that issues more instructions than this is reported as hung.
  uint64_t maxInstructionsPerWave = uint64_t(1) << 31;
  /// The timing mode (TimingModel.h): when set, the instruction streams of
  /// the first `traceWorkgroups` workgroups are recorded into `trace`
  /// (resized here; waves in workgroup-major order).
  CUTrace *trace = nullptr;
  unsigned traceWorkgroups = 0;
  /// The constants the recorded LDS bank conflicts are costed with.
  MachineModel machine;
  /// Called after each workgroup with the workgroups done and their total;
  /// never concurrently.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

/// What one launch executed.
struct ExecutionStats {
  uint64_t workgroups = 0;
  uint64_t waves = 0;
  uint64_t instructions = 0;
  uint64_t scaledMFMAs = 0;
};

/// A launch: grid (workgroups) and block (work-items) sizes and the device
/// address of its kernarg segment.
struct Launch {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint64_t kernargAddress = 0;
  /// Dynamic LDS bytes beyond the descriptor's static size.
  uint32_t dynamicLDSBytes = 0;
};

/// Checks that \p kernel can run \p launch on gfx950 (LDS, VGPRs and AGPRs,
/// workgroup size, scratch); returns the reason otherwise.
llvm::Error checkLaunch(const Kernel &kernel, const Launch &launch);

/// Runs every workgroup of \p launch of \p kernel on \p memory. Returns the
/// first error (with the kernel, workgroup, wave, pc and instruction).
llvm::Error execute(const Kernel &kernel, const Launch &launch,
                    DeviceMemory &memory, const ExecutorOptions &options,
                    ExecutionStats *stats = nullptr);

/// Runs \p launch as execute() does and times the workgroups one CU holds
/// (workgroupsPerCU) on the timing model with \p machine; the report is
/// scaled to the launch's grid.
llvm::Expected<TimingReport>
executeAndTime(const Kernel &kernel, const Launch &launch, DeviceMemory &memory,
               ExecutorOptions options, const MachineModel &machine,
               ExecutionStats *stats = nullptr);

/// Whether the executor implements \p mnemonic (as LLVM prints it).
bool isSupported(llvm::StringRef mnemonic);

} // namespace mlir::mx::gfx950::isa

#endif // MX_TARGET_GFX950_ISA_EXECUTOR_H
