//===- Timing.cpp - the ISA executor's cycle timing model -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "mx/Target/GFX950/ISA/TimingModel.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <deque>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

//===----------------------------------------------------------------------===//
// MachineModel
//===----------------------------------------------------------------------===//

Error MachineModel::set(StringRef name, double value) {
#define MX_GFX950_MACHINE(Name, pyName, v, unit, kind, source)                 \
  if (name == #Name || name == #pyName) {                                      \
    Name = value;                                                              \
    return Error::success();                                                   \
  }
#include "mx/Target/GFX950/ISA/MachineModel.def"
  return createStringError(inconvertibleErrorCode(),
                           "no machine constant '" + name.str() +
                               "' (mx-isa --machine-constants lists them)");
}

Error MachineModel::set(StringRef assignment) {
  auto [name, text] = assignment.split('=');
  double value;
  if (name.empty() || text.trim().getAsDouble(value) || !(value >= 0))
    return createStringError(inconvertibleErrorCode(),
                             "expected NAME=VALUE with a number >= 0, got '" +
                                 assignment.str() + "'");
  return set(name.trim(), value);
}

void MachineModel::printTable(raw_ostream &os) {
  MachineModel defaults;
#define MX_GFX950_MACHINE(Name, pyName, v, unit, kind, source)                 \
  os << format("%-28s %-32s %14g %-11s %-10s %s\n", #Name, #pyName,            \
               defaults.Name, unit, #kind, source);
#include "mx/Target/GFX950/ISA/MachineModel.def"
}

//===----------------------------------------------------------------------===//
// LDS bank conflicts
//===----------------------------------------------------------------------===//

/// The lanes of each phase of a ds_read_b128 / ds_write_b128 (AMD's
/// Composable Kernel documentation for gfx942: lanes 0-3 with 20-23, 4-7
/// with 16-19, 8-11 with 28-31, 12-15 with 24-27, the same in the upper
/// half). That gfx950 keeps them is an assumption; AITER's gfx950 kernel
/// reads conflict-free under it with 64 banks, and not under consecutive
/// lanes.
static constexpr uint8_t kB128Phases[8][8] = {
    {0, 1, 2, 3, 20, 21, 22, 23},     {4, 5, 6, 7, 16, 17, 18, 19},
    {8, 9, 10, 11, 28, 29, 30, 31},   {12, 13, 14, 15, 24, 25, 26, 27},
    {32, 33, 34, 35, 52, 53, 54, 55}, {36, 37, 38, 39, 48, 49, 50, 51},
    {40, 41, 42, 43, 60, 61, 62, 63}, {44, 45, 46, 47, 56, 57, 58, 59}};

double mlir::mx::gfx950::isa::ldsAccessCycles(const MachineModel &machine,
                                              ArrayRef<uint32_t> laneAddresses,
                                              unsigned bytesPerLane) {
  unsigned banks = std::max(1u, unsigned(machine.LDSBanks));
  unsigned width = std::max(1u, bytesPerLane);
  unsigned perPhase = std::max(1u, unsigned(machine.LDSBytesPerCycle) / width);
  bool b128 = width == 16 && perPhase == 8 && laneAddresses.size() == 64;
  std::vector<SmallVector<uint32_t, 4>> dwords(banks);
  double cycles = 0;
  auto phase = [&](auto lanes) {
    for (auto &bank : dwords)
      bank.clear();
    unsigned passes = 0;
    for (unsigned lane : lanes) {
      if (lane >= laneAddresses.size() || laneAddresses[lane] == kNoLane)
        continue;
      passes = std::max(passes, 1u);
      for (unsigned b = 0; b < width; b += 4) {
        uint32_t dword = (laneAddresses[lane] + b) / 4;
        auto &bank = dwords[dword % banks];
        if (!llvm::is_contained(bank, dword)) {
          bank.push_back(dword);
          passes = std::max(passes, unsigned(bank.size()));
        }
      }
    }
    cycles += passes;
  };
  if (b128) {
    for (const auto &lanes : kB128Phases)
      phase(ArrayRef<uint8_t>(lanes));
    return cycles;
  }
  SmallVector<unsigned, 64> lanes;
  for (unsigned first = 0; first < laneAddresses.size(); first += perPhase) {
    lanes.clear();
    for (unsigned l = first;
         l < std::min<size_t>(laneAddresses.size(), first + perPhase); ++l)
      lanes.push_back(l);
    phase(ArrayRef<unsigned>(lanes));
  }
  return cycles;
}

//===----------------------------------------------------------------------===//
// Occupancy
//===----------------------------------------------------------------------===//

unsigned mlir::mx::gfx950::isa::workgroupsPerCU(const Kernel &kernel,
                                                unsigned wavesPerWorkgroup,
                                                uint64_t ldsBytes,
                                                uint64_t gridWorkgroups,
                                                const MachineModel &machine) {
  unsigned simds = std::max(1u, unsigned(machine.SIMDsPerCU));
  unsigned vgprs = (kernel.descriptor.getVGPRBlocks() + 1) * 8;
  unsigned wavesPerSIMD = std::min(8u, kNumVGPRs / std::max(8u, vgprs));
  unsigned byWaves = wavesPerSIMD * simds / std::max(1u, wavesPerWorkgroup);
  unsigned byLDS =
      ldsBytes ? unsigned(uint64_t(machine.LDSBytes) / ldsBytes) : byWaves;
  uint64_t cus = std::max(1.0, machine.CUs);
  uint64_t byGrid = (gridWorkgroups + cus - 1) / cus;
  return unsigned(
      std::max<uint64_t>(1, std::min<uint64_t>({byWaves, byLDS, byGrid})));
}

//===----------------------------------------------------------------------===//
// The CU
//===----------------------------------------------------------------------===//

namespace {
enum class Kind : uint8_t {
  MFMA,
  VALU,
  DS,
  VMEM,
  SMEM,
  Wait,
  Barrier,
  Nop,
  End,
  Scalar
};

struct StaticInfo {
  Kind kind = Kind::Scalar;
  /// VMEM: issue to completion (data back, or the store, atomic or cache
  /// operation done).
  double vmemLatency = 0;
  double mfmaCycles = 0;
  double valuHold = 0;
  unsigned numDsts = 1;
  int vmcnt = -1, lgkmcnt = -1;
  unsigned nopStates = 0;
};

struct WaveTimer {
  const std::vector<TraceEntry> *trace = nullptr;
  size_t next = 0;
  unsigned simd = 0, workgroup = 0;
  double t = 0;
  bool atBarrier = false, done = false;
  std::deque<double> vm, lgkm;
  /// When each unified vector register's MFMA result is ready.
  std::vector<double> ready = std::vector<double>(kNumVGPRs, 0.0);
  /// Per back edge: when it was taken and the MFMAs issued by then.
  DenseMap<uint32_t, std::vector<std::pair<double, double>>> backEdges;
  double instructions = 0, mfmas = 0, mfmaPipeCycles = 0;
  double waitVM = 0, waitLGKM = 0, waitBarrier = 0, waitMFMAResult = 0,
         waitMFMAPipe = 0, waitNop = 0;
};

struct SIMDTimer {
  double issueFree = 0, pipeFree = 0, valuHold = 0, pipeBusy = 0;
};
} // namespace

static StaticInfo classify(const Instruction &inst,
                           const MachineModel &machine) {
  StaticInfo info;
  StringRef m = inst.mnemonic;
  info.numDsts = lookupOp(m).numDsts;
  if (m.starts_with("v_mfma")) {
    info.kind = Kind::MFMA;
    bool big = m.contains("32x32");
    if (m.contains("f8f6f4")) {
      bool narrow = inst.cbsz >= 2 && inst.blgp >= 2;
      info.mfmaCycles =
          big ? (narrow ? machine.MFMA32NarrowCycles : machine.MFMA32WideCycles)
              : (narrow ? machine.MFMA16NarrowCycles
                        : machine.MFMA16WideCycles);
    } else {
      // Other MFMAs (none in mx's or AITER's main loops): costed as the
      // scaled MFMA of their shape with an fp8 operand (an approximation).
      info.mfmaCycles =
          big ? machine.MFMA32WideCycles : machine.MFMA16WideCycles;
    }
    unsigned widest = 0;
    for (unsigned i = 1; i < 3 && i < inst.operands.size(); ++i)
      widest = std::max<unsigned>(widest, inst.operands[i].count * 4);
    info.valuHold =
        1 + widest / std::max(1.0, machine.VALUAfterMFMABytesPerCycle);
  } else if (m.starts_with("ds_")) {
    info.kind = Kind::DS;
  } else if (m.starts_with("buffer_") || m.starts_with("global_")) {
    // Loads, stores and atomics (an atomic is performed in the L2 and
    // returns like a load): the global latency. The cache writeback and
    // invalidate of a release and an acquire move no bytes on the L2 path
    // and cost an assumed fixed latency each (MachineModel.def: on MI355X a
    // system-scope writeback's cost depends on the L2's dirty lines, which
    // the model does not track).
    info.kind = Kind::VMEM;
    info.vmemLatency = m == "buffer_wbl2"  ? machine.CacheWritebackCycles
                       : m == "buffer_inv" ? machine.CacheInvalidateCycles
                                           : machine.GlobalLatency;
  } else if (m.starts_with("s_load") || m.starts_with("s_buffer_load")) {
    info.kind = Kind::SMEM;
  } else if (m == "s_waitcnt") {
    info.kind = Kind::Wait;
    std::tie(info.vmcnt, info.lgkmcnt) = waitcntCounts(inst);
  } else if (m == "s_barrier") {
    info.kind = Kind::Barrier;
  } else if (m == "s_nop") {
    info.kind = Kind::Nop;
    info.nopStates = unsigned(inst.simm16 & 0xf) + 1;
  } else if (m == "s_endpgm") {
    info.kind = Kind::End;
  } else if (m.starts_with("v_")) {
    info.kind = Kind::VALU;
  }
  return info;
}

/// The time the vector registers \p inst reads are ready (MFMA results).
static double sourcesReady(const Instruction &inst, const StaticInfo &info,
                           const WaveTimer &w) {
  double ready = 0;
  for (auto [i, op] : llvm::enumerate(inst.operands)) {
    if (!op.isVector() || (i < info.numDsts && !inst.lds))
      continue;
    for (unsigned r = 0; r < op.count; ++r) {
      unsigned index = Context::unified(op, r);
      if (index < w.ready.size())
        ready = std::max(ready, w.ready[index]);
    }
  }
  return ready;
}

/// Waits until at most \p limit entries of \p queue are outstanding.
static double drain(std::deque<double> &queue, int limit, double t) {
  while (limit >= 0 && int(queue.size()) > limit) {
    t = std::max(t, queue.front());
    queue.pop_front();
  }
  return t;
}

/// Before a memory operation of a counter that saturates at \p max: waits
/// for the oldest operation when \p max are outstanding.
static double makeRoom(std::deque<double> &queue, int max, double t) {
  return int(queue.size()) >= max ? drain(queue, max - 1, t) : t;
}

/// Records an operation done at \p done; the counter retires in order, so
/// not before the one issued before it.
static void addInOrder(std::deque<double> &queue, double done) {
  queue.push_back(queue.empty() ? done : std::max(done, queue.back()));
}

namespace {
/// The timing model of one CU (see TimingModel.h): issues the recorded
/// streams of its waves and accounts where the time goes.
class CUTimer {
public:
  CUTimer(const Kernel &kernel, const CUTrace &trace,
          const MachineModel &machine);
  /// Issues every recorded instruction.
  void run();
  TimingReport makeReport() const;

private:
  /// The wave that can issue first, or null when all are done or waiting.
  WaveTimer *nextWave();
  /// Issues the next instruction of \p w.
  void issue(WaveTimer &w);
  /// The cost of an instruction of each kind: updates the units it uses and
  /// returns when the wave may issue its next instruction; \p t is its issue
  /// time (a wait may move it).
  double issueMFMA(WaveTimer &w, SIMDTimer &s, const Instruction &inst,
                   const StaticInfo &info, double t);
  double issueDS(WaveTimer &w, const TraceEntry &entry, double &t);
  double issueVMEM(WaveTimer &w, const TraceEntry &entry,
                   const Instruction &inst, const StaticInfo &info, double &t);
  double issueWait(WaveTimer &w, const TraceEntry &entry,
                   const StaticInfo &info, double &t);
  /// Releases the barrier of \p workgroup when every wave of it that has
  /// not ended waits there: BarrierCycles after the last arrival.
  void releaseBarrier(unsigned workgroup);
  void describeLoop(TimingReport &report) const;

  const Kernel &kernel;
  const MachineModel &machine;
  std::vector<StaticInfo> infos;
  std::vector<SIMDTimer> simd;
  std::vector<WaveTimer> waves;
  unsigned perWG;
  double issueCycles;
  double ldsFree = 0, memFree = 0, ldsBytes = 0, ldsConflict = 0, memBytes = 0;
  /// Stall cycles (waits for loads, barriers and MFMA results; not for a
  /// busy pipe) at each instruction, summed over the waves.
  std::vector<double> stalls;
};
} // namespace

CUTimer::CUTimer(const Kernel &kernel, const CUTrace &trace,
                 const MachineModel &machine)
    : kernel(kernel), machine(machine),
      simd(std::max(1u, unsigned(machine.SIMDsPerCU))),
      waves(trace.waves.size()), perWG(std::max(1u, trace.wavesPerWorkgroup)),
      issueCycles(machine.IssueCycles),
      stalls(kernel.instructions.size(), 0.0) {
  infos.reserve(kernel.instructions.size());
  for (const Instruction &inst : kernel.instructions)
    infos.push_back(classify(inst, machine));
  for (auto [i, w] : llvm::enumerate(waves)) {
    w.trace = &trace.waves[i];
    w.simd = unsigned(i % simd.size());
    w.workgroup = unsigned(i / perWG);
    w.done = w.trace->empty();
  }
}

void CUTimer::releaseBarrier(unsigned workgroup) {
  double last = 0;
  bool any = false;
  for (WaveTimer &other : waves)
    if (other.workgroup == workgroup && !other.done) {
      if (!other.atBarrier)
        return;
      any = true;
      last = std::max(last, other.t);
    }
  if (!any)
    return;
  double release = last + machine.BarrierCycles;
  for (WaveTimer &other : waves)
    if (other.workgroup == workgroup && !other.done) {
      other.waitBarrier += release - other.t;
      stalls[(*other.trace)[other.next - 1].inst] += release - other.t;
      other.t = release;
      other.atBarrier = false;
    }
}

WaveTimer *CUTimer::nextWave() {
  WaveTimer *w = nullptr;
  for (WaveTimer &candidate : waves)
    if (!candidate.done && !candidate.atBarrier &&
        (!w || std::max(candidate.t, simd[candidate.simd].issueFree) <
                   std::max(w->t, simd[w->simd].issueFree)))
      w = &candidate;
  return w;
}

void CUTimer::run() {
  while (WaveTimer *w = nextWave())
    issue(*w);
}

double CUTimer::issueMFMA(WaveTimer &w, SIMDTimer &s, const Instruction &inst,
                          const StaticInfo &info, double t) {
  double start = std::max(t, s.pipeFree);
  if (s.pipeFree < t)
    start += machine.MFMAIdleStartCycles;
  w.waitMFMAPipe += start - t;
  s.pipeFree = start + info.mfmaCycles;
  s.pipeBusy += info.mfmaCycles;
  s.valuHold = std::max(s.valuHold, start + info.valuHold);
  w.mfmas += 1;
  w.mfmaPipeCycles += info.mfmaCycles;
  const Operand &dst = inst.operands[0];
  for (unsigned r = 0; r < dst.count; ++r)
    w.ready[Context::unified(dst, r)] =
        s.pipeFree + machine.MFMADependentExtraCycles;
  return start + issueCycles;
}

double CUTimer::issueDS(WaveTimer &w, const TraceEntry &entry, double &t) {
  t = makeRoom(w.lgkm, 15, t);
  double start = std::max(t, ldsFree);
  double conflictFree = entry.bytes / std::max(1.0, machine.LDSBytesPerCycle);
  ldsFree = start + entry.ldsCycles;
  ldsBytes += entry.bytes;
  ldsConflict += std::max(0.0, double(entry.ldsCycles) - conflictFree);
  addInOrder(w.lgkm, ldsFree + machine.LDSLatency);
  return t + issueCycles;
}

double CUTimer::issueVMEM(WaveTimer &w, const TraceEntry &entry,
                          const Instruction &inst, const StaticInfo &info,
                          double &t) {
  t = makeRoom(w.vm, 63, t);
  double start = std::max(t, memFree);
  memFree = start + entry.bytes / std::max(1.0, machine.L2BytesPerCycle);
  memBytes += entry.bytes;
  if (inst.lds) {
    // The DMA writes its bytes into LDS too.
    ldsFree = std::max(ldsFree, t) +
              entry.bytes / std::max(1.0, machine.LDSBytesPerCycle);
    ldsBytes += entry.bytes;
  }
  addInOrder(w.vm, std::max(t + info.vmemLatency, memFree));
  return t + issueCycles;
}

double CUTimer::issueWait(WaveTimer &w, const TraceEntry &entry,
                          const StaticInfo &info, double &t) {
  double afterVM = drain(w.vm, info.vmcnt, t);
  w.waitVM += afterVM - t;
  double afterLGKM = drain(w.lgkm, info.lgkmcnt, afterVM);
  w.waitLGKM += afterLGKM - afterVM;
  stalls[entry.inst] += afterLGKM - t;
  t = afterLGKM;
  return t + issueCycles;
}

void CUTimer::issue(WaveTimer &w) {
  const TraceEntry &entry = (*w.trace)[w.next++];
  const Instruction &inst = kernel.instructions[entry.inst];
  const StaticInfo &info = infos[entry.inst];
  SIMDTimer &s = simd[w.simd];
  double t = std::max(w.t, s.issueFree);
  double ready = sourcesReady(inst, info, w);
  if (ready > t) {
    w.waitMFMAResult += ready - t;
    stalls[entry.inst] += ready - t;
    t = ready;
  }
  w.instructions += 1;
  double next = t + issueCycles;
  switch (info.kind) {
  case Kind::MFMA:
    next = issueMFMA(w, s, inst, info, t);
    break;
  case Kind::VALU:
    if (s.valuHold > t) {
      w.waitMFMAPipe += s.valuHold - t;
      t = s.valuHold;
      next = t + issueCycles;
    }
    break;
  case Kind::DS:
    next = issueDS(w, entry, t);
    break;
  case Kind::VMEM:
    next = issueVMEM(w, entry, inst, info, t);
    break;
  case Kind::SMEM:
    t = makeRoom(w.lgkm, 15, t);
    addInOrder(w.lgkm, t + machine.SMEMLatency);
    next = t + issueCycles;
    break;
  case Kind::Wait:
    next = issueWait(w, entry, info, t);
    break;
  case Kind::Nop:
    w.waitNop += std::max(0.0, info.nopStates - issueCycles);
    next = t + std::max(issueCycles, double(info.nopStates));
    break;
  case Kind::Barrier:
    w.atBarrier = true;
    w.t = t;
    s.issueFree = t + 1;
    releaseBarrier(w.workgroup);
    return;
  case Kind::End:
    // Stores still in flight finish before the wave's slot is free.
    t = drain(w.vm, 0, t);
    w.done = true;
    break;
  case Kind::Scalar:
    break;
  }
  if (entry.backEdge)
    w.backEdges[entry.inst].push_back({t, w.mfmas});
  s.issueFree = t + 1;
  w.t = w.done ? t : next;
  w.done |= w.next >= w.trace->size();
  // A wave that ends releases a barrier the others wait at.
  if (w.done)
    releaseBarrier(w.workgroup);
}

void CUTimer::describeLoop(TimingReport &report) const {
  report.fixedCycles = report.cycles;
  if (waves.empty())
    return;
  // The main loop: wave 0's most taken back edge.
  const std::vector<std::pair<double, double>> *times = nullptr;
  for (const auto &[inst, list] : waves[0].backEdges)
    if (!times || list.size() > times->size())
      times = &list;
  if (!times || times->size() < 2)
    return;
  size_t count = times->size(), half = count / 2;
  const auto &first = (*times)[half - 1], &last = (*times)[count - 1];
  report.loopIterations = count + 1;
  report.cyclesPerIteration = (last.first - first.first) / double(count - half);
  report.mfmasPerIteration =
      (last.second - first.second) / double(count - half);
  report.fixedCycles =
      std::max(0.0, report.cycles - double(report.loopIterations) *
                                        report.cyclesPerIteration);
}

TimingReport CUTimer::makeReport() const {
  TimingReport report;
  report.kernel = kernel.name;
  report.wavesPerWorkgroup = perWG;
  report.workgroupsPerCU = unsigned(waves.size() / perWG);
  double n = std::max<size_t>(1, waves.size());
  for (const WaveTimer &w : waves) {
    report.cycles = std::max(report.cycles, w.t);
    report.instructions += w.instructions / n;
    report.mfmas += w.mfmas / n;
    report.mfmaPipeCycles += w.mfmaPipeCycles / n;
    report.waitVM += w.waitVM / n;
    report.waitLGKM += w.waitLGKM / n;
    report.waitBarrier += w.waitBarrier / n;
    report.waitMFMAResult += w.waitMFMAResult / n;
    report.waitMFMAPipe += w.waitMFMAPipe / n;
    report.waitNop += w.waitNop / n;
  }
  std::vector<unsigned> order(stalls.size());
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return stalls[a] != stalls[b] ? stalls[a] > stalls[b] : a < b;
  });
  for (unsigned i = 0; i < std::min<size_t>(3, order.size()); ++i) {
    if (stalls[order[i]] <= 0)
      break;
    const Instruction &inst = kernel.instructions[order[i]];
    report.topStalls.push_back(
        {formatv("pc {0:x}: {1}", inst.pc, inst.text).str(),
         stalls[order[i]] / n});
  }
  report.ldsBytes = ldsBytes;
  report.ldsConflictCycles = ldsConflict;
  report.memoryBytes = memBytes;
  double busiest = 0;
  for (const SIMDTimer &s : simd)
    busiest = std::max(busiest, s.pipeBusy);
  report.mfmaUtilization = report.cycles ? busiest / report.cycles : 0;
  describeLoop(report);
  return report;
}

TimingReport mlir::mx::gfx950::isa::simulateCU(const Kernel &kernel,
                                               const CUTrace &trace,
                                               const MachineModel &machine) {
  CUTimer timer(kernel, trace, machine);
  timer.run();
  return timer.makeReport();
}

Expected<TimingReport> mlir::mx::gfx950::isa::executeAndTime(
    const Kernel &kernel, const Launch &launch, DeviceMemory &memory,
    ExecutorOptions options, const MachineModel &machine,
    ExecutionStats *stats) {
  uint64_t threads =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  uint64_t workgroups =
      uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  CUTrace trace;
  options.trace = &trace;
  options.machine = machine;
  options.traceWorkgroups = workgroupsPerCU(
      kernel, unsigned((threads + kLanes - 1) / kLanes),
      kernel.descriptor.groupSegmentFixedSize + launch.dynamicLDSBytes,
      workgroups, machine);
  if (Error error = execute(kernel, launch, memory, options, stats))
    return std::move(error);
  TimingReport report = simulateCU(kernel, trace, machine);
  report.setGrid(workgroups, machine);
  return report;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

void TimingReport::setGrid(uint64_t workgroups, const MachineModel &machine) {
  gridWorkgroups = workgroups;
  uint64_t perRound =
      std::max<uint64_t>(1, uint64_t(machine.CUs) * workgroupsPerCU);
  rounds = (workgroups + perRound - 1) / perRound;
  seconds = double(rounds) * cycles / machine.ClockHz /
            std::max(1e-9, machine.Efficiency);
}

void TimingReport::print(raw_ostream &os) const {
  os << formatv("timing {0}: {1} workgroup(s) of {2} waves on one CU: {3:f0} "
                "cycles",
                kernel, workgroupsPerCU, wavesPerWorkgroup, cycles);
  if (loopIterations)
    os << formatv("; main loop {0} iterations, {1:f1} cycles and {2:f0} "
                  "MFMAs per wave each in the steady state, {3:f0} cycles "
                  "outside it",
                  loopIterations, cyclesPerIteration, mfmasPerIteration,
                  fixedCycles);
  os << "\n";
  os << formatv("timing {0}: per wave {1:f0} instructions, {2:f0} MFMAs "
                "({3:f0} pipe cycles; the busiest pipe {4:f1}% busy); "
                "stalls: vmcnt {5:f0}, lgkmcnt {6:f0}, barrier {7:f0}, "
                "MFMA result {8:f0}, MFMA pipe {9:f0}, s_nop {10:f0}\n",
                kernel, instructions, mfmas, mfmaPipeCycles,
                100 * mfmaUtilization, waitVM, waitLGKM, waitBarrier,
                waitMFMAResult, waitMFMAPipe, waitNop);
  if (!topStalls.empty()) {
    os << "timing " << kernel << ": the largest stalls per wave:";
    for (auto [index, stall] : llvm::enumerate(topStalls))
      os << (index ? ";" : "")
         << formatv(" {0:f0} cycles at {1}", stall.second, stall.first);
    os << "\n";
  }
  os << formatv("timing {0}: CU: {1:f0} LDS bytes ({2:f0} cycles of bank "
                "conflicts), {3:f0} bytes of vector memory\n",
                kernel, ldsBytes, ldsConflictCycles, memoryBytes);
  if (gridWorkgroups)
    os << formatv("timing {0}: the launch: {1} workgroups in {2} round(s) "
                  "over the CUs: {3:f2} us\n",
                  kernel, gridWorkgroups, rounds, seconds * 1e6);
}

void TimingReport::printJSON(raw_ostream &os) const {
  json::Object object{
      {"kernel", kernel},
      {"workgroups_per_cu", workgroupsPerCU},
      {"waves_per_workgroup", wavesPerWorkgroup},
      {"cycles", cycles},
      {"loop_iterations", int64_t(loopIterations)},
      {"cycles_per_iteration", cyclesPerIteration},
      {"mfmas_per_iteration", mfmasPerIteration},
      {"fixed_cycles", fixedCycles},
      {"instructions_per_wave", instructions},
      {"mfmas_per_wave", mfmas},
      {"mfma_pipe_cycles_per_wave", mfmaPipeCycles},
      {"mfma_utilization", mfmaUtilization},
      {"wait_vmcnt", waitVM},
      {"wait_lgkmcnt", waitLGKM},
      {"wait_barrier", waitBarrier},
      {"wait_mfma_result", waitMFMAResult},
      {"wait_mfma_pipe", waitMFMAPipe},
      {"wait_nop", waitNop},
      {"lds_bytes", ldsBytes},
      {"lds_conflict_cycles", ldsConflictCycles},
      {"memory_bytes", memoryBytes},
      {"top_stalls",
       [&] {
         json::Array array;
         for (const auto &[where, cycles] : topStalls)
           array.push_back(json::Object{{"at", where}, {"cycles", cycles}});
         return array;
       }()},
      {"grid_workgroups", int64_t(gridWorkgroups)},
      {"rounds", int64_t(rounds)},
      {"seconds", seconds},
  };
  os << json::Value(std::move(object)) << "\n";
}
