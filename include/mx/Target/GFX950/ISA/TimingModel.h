//===- TimingModel.h - cycle timing of gfx950 machine code ------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ISA executor's timing mode: a dynamic performance model of one CU.
// The executor runs the workgroups one CU holds at once (the kernel's
// occupancy) and records each wave's instruction stream, with the LDS
// addresses and memory bytes of every access; the timing model then issues
// those streams on a CU of 4 SIMDs, cycle by cycle in effect:
//  - each wave issues in program order, at most one instruction every
//    IssueCycles, and each SIMD one instruction a cycle from its waves;
//  - a SIMD's matrix pipe is busy for an MFMA's passes (per format and
//    shape); an MFMA reading a result of an MFMA still in the pipe (its srcC
//    or A/B) waits for it; an MFMA issued into an idle pipe starts late; VALU
//    after an MFMA waits for the operands to be read (PR 233721's rules);
//  - LDS accesses share the CU's LDS at its bandwidth, each taking as many
//    cycles as its bank conflicts, computed from the lanes' actual addresses;
//  - vector memory shares the CU's L2 path at its bandwidth and returns
//    after its latency, in order per counter (atomics as loads); LDS-DMA
//    also writes LDS; buffer_wbl2 and buffer_inv (a release's L2 writeback,
//    an acquire's invalidate) move no bytes and take an assumed fixed
//    latency each (not free on MI355X: a system-scope writeback flushes the
//    L2's dirty lines, a cost that depends on traffic the model does not
//    see);
//  - s_waitcnt stalls until the counted operations are back, s_barrier until
//    every wave of the workgroup arrived (plus its release cost), s_nop for
//    its wait states.
// Every constant comes from MachineModel.def (with its source or marked
// assumed), the home the static model (bench/mx_perf_model.py) shares.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_ISA_TIMINGMODEL_H
#define MX_TARGET_GFX950_ISA_TIMINGMODEL_H

#include "mx/Target/GFX950/ISA/CodeObject.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mx::gfx950::isa {

/// The machine constants (MachineModel.def).
struct MachineModel {
#define MX_GFX950_MACHINE(Name, pyName, value, unit, kind, source)             \
  double Name = value;
#include "mx/Target/GFX950/ISA/MachineModel.def"

  /// Sets the constant named \p name (the .def's Name or python_name).
  llvm::Error set(llvm::StringRef name, double value);
  /// Applies "NAME=VALUE".
  llvm::Error set(llvm::StringRef assignment);
  /// Prints every constant: name, value, unit, kind, source.
  static void printTable(llvm::raw_ostream &os);
};

/// One executed instruction of a wave, as the timing model needs it.
struct TraceEntry {
  /// Index into the kernel's instructions.
  uint32_t inst = 0;
  /// LDS cycles of a DS access with its bank conflicts (0: no DS access).
  uint32_t ldsCycles = 0;
  /// Bytes the instruction moves between memory and the CU (vector memory
  /// and LDS-DMA), or to/from LDS (DS).
  uint32_t bytes = 0;
  /// A taken branch to an earlier instruction (a loop's back edge).
  bool backEdge = false;
};

/// The recorded streams of the waves one CU holds at once.
struct CUTrace {
  unsigned wavesPerWorkgroup = 0;
  /// [workgroup * wavesPerWorkgroup + wave].
  std::vector<std::vector<TraceEntry>> waves;
};

/// What the timing model found for one CU's round of workgroups.
struct TimingReport {
  std::string kernel;
  unsigned workgroupsPerCU = 0, wavesPerWorkgroup = 0;
  /// Cycles from the first issue to the last wave's end.
  double cycles = 0;
  /// The main loop (the back edge taken most often by wave 0): iterations
  /// and steady-state cycles per iteration (the mean of the second half of
  /// the iterations); 0 when the kernel has no loop.
  uint64_t loopIterations = 0;
  double cyclesPerIteration = 0;
  /// MFMAs one wave issues per iteration of the main loop.
  double mfmasPerIteration = 0;
  /// The part of `cycles` outside the loop's steady state: cycles minus
  /// loopIterations * cyclesPerIteration (prologue, fill, epilogue; with a
  /// software-pipelined loop also the peeled iterations).
  double fixedCycles = 0;
  /// Per wave, averaged over the waves: instructions, MFMAs and the cycles
  /// it stalled on each cause.
  double instructions = 0, mfmas = 0;
  double mfmaPipeCycles = 0; ///< Cycles its MFMAs occupy the matrix pipe.
  double waitVM = 0, waitLGKM = 0, waitBarrier = 0, waitMFMAResult = 0,
         waitMFMAPipe = 0, waitNop = 0;
  /// Per CU: LDS bytes and the extra cycles bank conflicts cost.
  double ldsBytes = 0, ldsConflictCycles = 0, memoryBytes = 0;
  /// The instructions the waves stalled at longest (waits for memory,
  /// barriers, MFMA results; not for a busy pipe), with the stall cycles
  /// per wave: at most three, the longest first.
  std::vector<std::pair<std::string, double>> topStalls;
  /// The busiest SIMD's matrix pipe, as a fraction of `cycles`.
  double mfmaUtilization = 0;

  /// The launch over the whole machine: its workgroups, in rounds of
  /// CUs x workgroupsPerCU (wave quantization), each round `cycles` long,
  /// at ClockHz / Efficiency (setGrid fills these).
  uint64_t gridWorkgroups = 0, rounds = 0;
  double seconds = 0;
  void setGrid(uint64_t workgroups, const MachineModel &machine);

  /// Predicted cycles of one round of \p iterations loop iterations.
  double roundCycles(double iterations) const {
    return fixedCycles + iterations * cyclesPerIteration;
  }
  void print(llvm::raw_ostream &os) const;
  void printJSON(llvm::raw_ostream &os) const;
};

/// An inactive lane in ldsAccessCycles' addresses.
constexpr uint32_t kNoLane = UINT32_MAX;

/// The LDS cycles of one access of a DS instruction whose lanes access
/// \p bytesPerLane bytes at \p laneAddresses (64 entries, kNoLane for an
/// inactive lane). The LDS serves the wave in phases of LDSBytesPerCycle
/// bytes (ds_read_b128: 8 lanes, in the non-contiguous lane groups AMD
/// documents for gfx942; other widths: consecutive lanes); a phase takes as
/// many cycles as the most distinct dwords one of the LDSBanks banks serves
/// in it (the same dword is broadcast).
double ldsAccessCycles(const MachineModel &machine,
                       llvm::ArrayRef<uint32_t> laneAddresses,
                       unsigned bytesPerLane);

/// Runs the timing model over \p trace of \p kernel.
TimingReport simulateCU(const Kernel &kernel, const CUTrace &trace,
                        const MachineModel &machine);

/// The workgroups of \p wavesPerWorkgroup waves that one CU holds at once
/// for \p kernel with \p ldsBytes of LDS per workgroup: limited by LDS,
/// VGPRs (512 per lane per SIMD, 8 waves per SIMD at most) and the grid's
/// share of the CUs.
unsigned workgroupsPerCU(const Kernel &kernel, unsigned wavesPerWorkgroup,
                         uint64_t ldsBytes, uint64_t gridWorkgroups,
                         const MachineModel &machine);

} // namespace mlir::mx::gfx950::isa

#endif // MX_TARGET_GFX950_ISA_TIMINGMODEL_H
