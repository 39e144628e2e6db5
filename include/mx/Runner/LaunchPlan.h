//===- LaunchPlan.h - printing a host program's launches --------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The launch plan of a compiled mx program: the `gpu.launch_func`s its host
// function executes, in order, as the emulator's host interpreter evaluates
// them (emu::LaunchInfo, the one source of truth of launches). The gfx950
// emulator prints them (`mx-run --backend=gfx950-emu --print-launches`) and
// the HIP backend prints the same lines (`--backend=hip --dry-run`), adding
// what only a code object knows (LDS, registers, the kernarg layout) on
// lines of their own:
//
//   launch #1 @seed000_gemm_mma0::@seed000_gemm_mma0 grid 2x1x1 block 256x1x1
//     arg #0 memref<128x96xf32>: buffer #3 (49152 bytes, argument #2 of
//       @seed000_gemm), offset 0, sizes [128, 96], strides [96, 1]
//
// (one line per argument). Buffers are numbered in the order of their first
// use by a launch.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_LAUNCHPLAN_H
#define MX_RUNNER_LAUNCHPLAN_H

#include "mx/Emulator/WaveEmulator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mx {

/// Prints launches in the launch plan format, numbering buffers.
class LaunchPlanPrinter {
public:
  explicit LaunchPlanPrinter(llvm::raw_ostream &os) : os(os) {}

  /// Prints the `launch` line and one `  arg` line per argument of
  /// \p launch.
  void print(const emu::LaunchInfo &launch);

  /// The number of \p buffer in the plan (assigned at its first use).
  unsigned getBufferId(const emu::HostBuffer *buffer);

  llvm::raw_ostream &getStream() { return os; }

private:
  llvm::raw_ostream &os;
  llvm::DenseMap<const emu::HostBuffer *, unsigned> bufferIds;
  /// The buffers numbered by print(), kept alive so that no later buffer
  /// (e.g. of the next host function a plan prints, after a packing
  /// function's) reuses an address, and so a number.
  std::vector<std::shared_ptr<emu::HostBuffer>> numbered;
};

/// The bytes of the view of a memref launch argument (its elements, in
/// their storage size, from the first to the last it can address), 0 for a
/// scalar: what a kernel can read or write through it.
int64_t getViewBytes(const emu::LaunchInfo &launch, unsigned operand);

} // namespace mlir::mx

#endif // MX_RUNNER_LAUNCHPLAN_H
