//===- Dispatch.cpp - launches, workgroups and waves ----------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <cmath>
#include <mutex>

using namespace llvm;
using namespace mlir::mx::gfx950::isa;
using namespace mlir::mx::gfx950::isa::detail;

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message.str());
}

/// A fill for registers and LDS nobody wrote: reading it gives garbage
/// that exact-data comparisons notice.
constexpr uint32_t kGarbage = 0x7fbadbad;

Error mlir::mx::gfx950::isa::checkLaunch(const Kernel &kernel,
                                         const Launch &launch) {
  const KernelDescriptor &kd = kernel.descriptor;
  uint64_t lds = uint64_t(kd.groupSegmentFixedSize) + launch.dynamicLDSBytes;
  if (lds > kMaxLDSBytes)
    return makeError(formatv("kernel {0} asks for {1} bytes of LDS; gfx950 "
                             "has {2} per workgroup",
                             kernel.name, lds, kMaxLDSBytes));
  unsigned vgprs = (kd.getVGPRBlocks() + 1) * 8;
  if (vgprs > kNumVGPRs)
    return makeError(formatv("kernel {0} asks for {1} VGPRs+AGPRs; gfx950 "
                             "has {2}",
                             kernel.name, vgprs, kNumVGPRs));
  if (kd.getAccumOffset() > vgprs && kd.getAccumOffset() > 256)
    return makeError(formatv("kernel {0}: accum_offset {1} is beyond its "
                             "{2} VGPRs",
                             kernel.name, kd.getAccumOffset(), vgprs));
  if (kd.privateSegmentFixedSize || kd.hasUserSGPR(0) || kd.hasUserSGPR(5))
    return makeError("kernel " + kernel.name +
                     " uses scratch (private segment), which the ISA "
                     "executor does not model (mx kernels have none)");
  uint64_t threads =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  if (threads == 0 || threads > 1024)
    return makeError(formatv("kernel {0}: a workgroup of {1} work-items; "
                             "gfx950 runs 1 to 1024",
                             kernel.name, threads));
  for (unsigned d = 0; d < 3; ++d)
    if (launch.grid[d] == 0)
      return makeError("kernel " + kernel.name + ": an empty grid");
  return Error::success();
}

namespace {
/// The state shared by the workgroups of one launch.
struct LaunchState {
  const Kernel &kernel;
  const Launch &launch;
  DeviceMemory &memory;
  const ExecutorOptions &options;
  std::vector<OpInfo> ops;
};
} // namespace

/// Sets up wave \p id of \p wg as the kernel descriptor says: user SGPRs,
/// workgroup ids, work-item ids in v0, EXEC.
static Error initWave(const LaunchState &state, Workgroup &wg, Wave &w,
                      unsigned id) {
  const KernelDescriptor &kd = state.kernel.descriptor;
  const Launch &launch = state.launch;
  w.id = id;
  w.s.fill(kGarbage);
  w.v.assign(kNumVGPRs * kLanes, kGarbage);
  w.vPending.assign(kNumVGPRs, 0);
  unsigned s = 0;
  auto put64 = [&](uint64_t value) {
    w.s[s++] = uint32_t(value);
    w.s[s++] = uint32_t(value >> 32);
  };
  if (kd.hasUserSGPR(1)) // Dispatch packet: not modelled; null.
    put64(0);
  if (kd.hasUserSGPR(2)) // Queue: not modelled; null.
    put64(0);
  if (kd.hasUserSGPR(3))
    put64(launch.kernargAddress);
  if (kd.hasUserSGPR(4))
    put64(0);
  if (kd.hasUserSGPR(6))
    w.s[s++] = 0;
  if (kd.kernargPreloadLength) {
    uint64_t bytes = uint64_t(kd.kernargPreloadLength) * 4;
    const uint8_t *kernargs = state.memory.translate(
        launch.kernargAddress + kd.kernargPreloadOffset * 4, bytes, false);
    if (!kernargs)
      return makeError("the preloaded kernel arguments lie outside the "
                       "kernarg segment");
    for (unsigned i = 0; i < kd.kernargPreloadLength; ++i)
      std::memcpy(&w.s[s++], kernargs + 4 * i, 4);
  }
  if (s > kd.getUserSGPRCount())
    return makeError(formatv("kernel {0}: its descriptor enables {1} user "
                             "SGPRs but counts {2}",
                             state.kernel.name, s, kd.getUserSGPRCount()));
  s = kd.getUserSGPRCount();
  for (unsigned d = 0; d < 3; ++d)
    if (kd.hasWorkgroupId(d))
      w.s[s++] = wg.id[d];
  if (kd.hasWorkgroupInfo())
    w.s[s++] = 0;
  // Work-item ids, packed in v0 (gfx90a and later): x [9:0], y [19:10],
  // z [29:20]; EXEC has the lanes that hold a work-item.
  const auto &block = launch.block;
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  w.exec = 0;
  for (int lane = 0; lane < kLanes; ++lane) {
    uint64_t linear = uint64_t(id) * kLanes + lane;
    if (linear >= threads)
      continue;
    w.exec |= uint64_t(1) << lane;
    uint32_t x = uint32_t(linear % block[0]);
    uint32_t y = uint32_t(linear / block[0] % block[1]);
    uint32_t z = uint32_t(linear / (uint64_t(block[0]) * block[1]));
    unsigned dims = kd.getWorkItemIdDims();
    w.v[lane] = x | (dims >= 1 ? y << 10 : 0) | (dims >= 2 ? z << 20 : 0);
  }
  w.vcc = 0;
  w.m0 = kGarbage;
  w.scc = false;
  if (state.options.checkHazards && !w.hazards)
    w.hazards = std::make_unique<HazardChecker>();
  return Error::success();
}

/// Registers an instruction reads before they are ready, or writes while a
/// load into them is in flight.
static Step checkPending(Context &ctx, const Instruction &inst,
                         unsigned numDsts) {
  Wave &w = ctx.w;
  for (auto [i, op] : llvm::enumerate(inst.operands)) {
    if (op.kind != OperandKind::SGPR && !op.isVector())
      continue;
    for (unsigned r = 0; r < op.count; ++r) {
      uint32_t sequence = op.kind == OperandKind::SGPR
                              ? w.sPending[op.reg + r]
                              : w.vPending[Context::unified(op, r)];
      if (!sequence)
        continue;
      auto pending = llvm::find_if(
          w.pending, [&](const Pending &p) { return p.sequence == sequence; });
      std::string name = (op.kind == OperandKind::SGPR   ? "s"
                          : op.kind == OperandKind::AGPR ? "a"
                                                         : "v") +
                         std::to_string(op.reg + r);
      return ctx.fail(formatv("{0} {1} before the load that writes it ({2}) "
                              "is retired by an s_waitcnt",
                              i < numDsts ? "overwrites" : "reads", name,
                              ctx.describe(pending->inst)));
    }
  }
  return Step::Next;
}

/// The timing mode's record of the instruction \p ctx just executed.
static TraceEntry makeTraceEntry(const Context &ctx, unsigned index, Step step,
                                 const TraceProbe &probe) {
  TraceEntry entry;
  entry.inst = index;
  entry.bytes = uint32_t(probe.bytes);
  double lds = 0;
  for (const auto &access : probe.ldsAddresses)
    if (llvm::any_of(access, [](uint32_t a) { return a != kNoLane; }))
      lds +=
          ldsAccessCycles(ctx.options.machine, access, probe.ldsBytesPerAccess);
  entry.ldsCycles = uint32_t(std::ceil(lds));
  entry.backEdge = step == Step::Jump && ctx.jumpIndex <= index;
  return entry;
}

/// Runs wave \p w until it reaches a barrier or its end; records its
/// instructions into \p trace when set.
static Error runWave(const LaunchState &state, Workgroup &wg, Wave &w,
                     ExecutionStats &stats, std::vector<TraceEntry> *trace) {
  const std::vector<Instruction> &insts = state.kernel.instructions;
  Context ctx(state.kernel, state.memory, state.options, wg, w);
  ctx.ldsLimit = unsigned(wg.lds.size());
  TraceProbe probe;
  if (trace)
    ctx.probe = &probe;
  auto where = [&](const Instruction &inst) {
    return formatv("kernel {0}, workgroup ({1}, {2}, {3}), wave {4}, pc "
                   "{5:x}: {6}: ",
                   state.kernel.name, wg.id[0], wg.id[1], wg.id[2], w.id,
                   inst.pc, inst.text)
        .str();
  };
  while (true) {
    if (w.pcIndex >= insts.size())
      return makeError("kernel " + state.kernel.name +
                       ": execution ran past the end of the code");
    const Instruction &inst = insts[w.pcIndex];
    const OpInfo &info = state.ops[w.pcIndex];
    if (!info.handler)
      return makeError(where(inst) + "opcode '" + inst.mnemonic +
                       "' is not implemented by the ISA executor");
    if (++w.issued > state.options.maxInstructionsPerWave)
      return makeError(where(inst) + "the wave issued more than " +
                       Twine(state.options.maxInstructionsPerWave) +
                       " instructions (a hang?)");
    if (w.hazards)
      if (Error error = w.hazards->issue(inst))
        return makeError(where(inst) + toString(std::move(error)));
    if (!w.pending.empty() &&
        checkPending(ctx, inst, inst.lds ? 0 : info.numDsts) == Step::Fail)
      return makeError(where(inst) + ctx.error);
    Step step = info.handler(ctx, inst);
    ++stats.instructions;
    if (trace && step != Step::Fail) {
      trace->push_back(makeTraceEntry(ctx, w.pcIndex, step, probe));
      probe = TraceProbe();
    }
    switch (step) {
    case Step::Next:
      ++w.pcIndex;
      break;
    case Step::Jump:
      w.pcIndex = ctx.jumpIndex;
      break;
    case Step::Barrier:
      ++w.pcIndex;
      w.atBarrier = true;
      stats.scaledMFMAs += ctx.mfmas;
      return Error::success();
    case Step::End:
      // What the wave left in flight completes (its LDS reads no longer
      // hold their bytes against the other waves' writes).
      ctx.retireAll();
      w.ended = true;
      stats.scaledMFMAs += ctx.mfmas;
      return Error::success();
    case Step::Fail:
      return makeError(where(inst) + ctx.error);
    }
  }
}

/// Runs workgroup \p index of the launch.
static Error runWorkgroup(const LaunchState &state, uint64_t index,
                          Workgroup &wg, std::vector<Wave> &waves,
                          ExecutionStats &stats) {
  const ExecutorOptions &options = state.options;
  bool traced = options.trace && index < options.traceWorkgroups;
  const auto &grid = state.launch.grid;
  wg.id = {uint32_t(index % grid[0]), uint32_t(index / grid[0] % grid[1]),
           uint32_t(index / (uint64_t(grid[0]) * grid[1]))};
  size_t ldsBytes = state.kernel.descriptor.groupSegmentFixedSize +
                    state.launch.dynamicLDSBytes;
  wg.lds.assign(ldsBytes, 0xa5);
  wg.shadow.assign(ldsBytes, LDSByte());
  wg.epoch = 1;
  for (auto [id, wave] : llvm::enumerate(waves)) {
    wave = Wave();
    if (Error error = initWave(state, wg, wave, unsigned(id)))
      return error;
  }
  stats.waves += waves.size();
  ++stats.workgroups;
  while (true) {
    for (auto [id, wave] : llvm::enumerate(waves)) {
      if (wave.ended || wave.atBarrier)
        continue;
      std::vector<TraceEntry> *trace =
          traced ? &options.trace->waves[index * waves.size() + id] : nullptr;
      if (Error error = runWave(state, wg, wave, stats, trace))
        return error;
    }
    bool anyWaiting = llvm::any_of(
        waves, [](const Wave &w) { return w.atBarrier && !w.ended; });
    if (!anyWaiting)
      return Error::success();
    for (Wave &wave : waves)
      wave.atBarrier = false;
    ++wg.epoch;
  }
}

Error mlir::mx::gfx950::isa::execute(const Kernel &kernel, const Launch &launch,
                                     DeviceMemory &memory,
                                     const ExecutorOptions &options,
                                     ExecutionStats *stats) {
  if (Error error = checkLaunch(kernel, launch))
    return error;
  LaunchState state{kernel, launch, memory, options, {}};
  state.ops.reserve(kernel.instructions.size());
  for (const Instruction &inst : kernel.instructions)
    state.ops.push_back(lookupOp(inst.mnemonic));
  uint64_t threads =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  unsigned numWaves = unsigned((threads + kLanes - 1) / kLanes);
  uint64_t workgroups =
      uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  if (options.trace) {
    options.trace->wavesPerWorkgroup = numWaves;
    options.trace->waves.assign(
        size_t(std::min<uint64_t>(options.traceWorkgroups, workgroups)) *
            numWaves,
        {});
  }
  unsigned numThreads = std::max(1u, options.threads);
  std::atomic<uint64_t> next{0};
  uint64_t done = 0;
  std::mutex mutex;
  Error firstError = Error::success();
  ExecutionStats total;
  auto worker = [&] {
    Workgroup wg;
    std::vector<Wave> waves(numWaves);
    ExecutionStats local;
    for (uint64_t index = next++; index < workgroups; index = next++) {
      Error error = runWorkgroup(state, index, wg, waves, local);
      std::lock_guard<std::mutex> lock(mutex);
      if (error) {
        if (!firstError)
          firstError = std::move(error);
        else
          consumeError(std::move(error));
        next = workgroups;
        break;
      }
      if (options.progress)
        options.progress(++done, workgroups);
    }
    std::lock_guard<std::mutex> lock(mutex);
    total.workgroups += local.workgroups;
    total.waves += local.waves;
    total.instructions += local.instructions;
    total.scaledMFMAs += local.scaledMFMAs;
  };
  if (numThreads == 1 || workgroups == 1) {
    worker();
  } else {
    DefaultThreadPool pool(hardware_concurrency(numThreads));
    for (unsigned t = 0; t < numThreads; ++t)
      pool.async(worker);
    pool.wait();
  }
  if (stats) {
    stats->workgroups += total.workgroups;
    stats->waves += total.waves;
    stats->instructions += total.instructions;
    stats->scaledMFMAs += total.scaledMFMAs;
  }
  return firstError;
}
