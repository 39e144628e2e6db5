//===- HIPBackend.cpp - mx-run --backend=hip ------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/HIPBackend.h"

#include "HIPRuntime.h"
#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Pipelines/Pipelines.h"
#include "mx/Runner/CodeObjectLaunch.h"
#include "mx/Runner/HIPCodeObject.h"
#include "mx/Runner/LaunchPlan.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::mx;

namespace {
/// A launch as executed, for replaying it.
struct RecordedLaunch {
  CompiledKernel *kernel = nullptr;
  std::string symbol;
  int64_t index = 0;
  std::array<int64_t, 3> grid, block;
  std::vector<uint8_t> kernargs;
  double flops = 0;
  double bytes = 0;
};

/// The device copy of a host buffer.
struct DeviceBuffer {
  std::shared_ptr<emu::HostBuffer> host;
  void *device = nullptr;
};
} // namespace

struct HIPBackend::State {
  std::unique_ptr<hip::Runtime> runtime;
  llvm::StringMap<CompiledCodeObject> objects;
  llvm::DenseMap<const emu::HostBuffer *, DeviceBuffer> buffers;
  std::vector<RecordedLaunch> launches;
  std::optional<LaunchPlanPrinter> plan;
  std::string entry;
  double entryFlops = 0;
  double entryBytes = 0;

  /// Runs \p launch on the device: its buffers copied there, its kernel
  /// launched and waited for, the buffers it may have written copied back;
  /// recorded for timing.
  llvm::Error execute(const emu::LaunchInfo &launch);

  ~State() {
    if (runtime)
      for (auto &entry : buffers)
        llvm::consumeError(runtime->free(entry.second.device));
  }
};

HIPBackend::HIPBackend(const GFX950EmulatorBackend::Options &compile,
                       const HIPOptions &hipOptions)
    : GFX950EmulatorBackend(compile), hipOptions(hipOptions) {}

HIPBackend::~HIPBackend() = default;

FailureOr<SmallVector<HostTensor>>
HIPBackend::run(ModuleOp module, StringRef entry, ArrayRef<HostTensor> inputs) {
  state = std::make_unique<State>();
  FailureOr<EntrySignature> signature = getEntrySignature(module, entry);
  if (failed(signature))
    return failure();
  state->entry = signature->func.getName().str();
  // End to end: the contractions' useful work and the entry's data.
  signature->func.walk([&](ScaledContractionOp op) {
    // 2 (batch) M N K: two FLOPs per point of the iteration space.
    double points = 2;
    for (int64_t size : op.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(size))
        return;
      points *= double(size);
    }
    state->entryFlops += points;
  });
  for (const HostTensorType &type : signature->arguments)
    state->entryBytes += double(type.getStorageSize());
  for (const HostTensorType &type : signature->results)
    if (type.hasStaticShape())
      state->entryBytes += double(type.getStorageSize());
  FailureOr<SmallVector<HostTensor>> results =
      GFX950EmulatorBackend::run(module, entry, inputs);
  state.reset();
  return results;
}

/// Prints \p launch of \p kernel to \p plan instead of running it (dry
/// run): the launch, the code object's resources, the work and every
/// kernel argument.
static llvm::Error printPlannedLaunch(LaunchPlanPrinter &plan,
                                      const CompiledKernel &kernel,
                                      const emu::LaunchInfo &launch) {
  plan.print(launch);
  llvm::raw_ostream &os = plan.getStream();
  const hip::KernelMetadata &md = kernel.metadata;
  int64_t workgroups = launch.grid[0] * launch.grid[1] * launch.grid[2];
  os << "  code object @"
     << gpu::LaunchFuncOp(launch.op).getKernelModuleName().getValue() << ": "
     << md.symbol << ", LDS " << md.groupSegmentFixedSize << " bytes, scratch "
     << md.privateSegmentFixedSize << " bytes, " << md.sgprCount << " SGPRs, "
     << md.vgprCount << " VGPRs, " << md.agprCount << " AGPRs\n";
  os << "  work: ";
  if (kernel.workgroupFlops)
    os << kernel.workgroupMFMAs * workgroups << " MFMAs, "
       << llvm::format("%.0f", *kernel.workgroupFlops * workgroups) << " FLOPs";
  else
    os << "MFMAs unknown";
  os << ", " << llvm::format("%.0f", getLaunchBytes(launch))
     << " bytes viewed\n";
  os << "  kernarg segment " << md.kernargSegmentSize << " bytes, align "
     << md.kernargSegmentAlign << ", explicit " << kernel.explicitBytes
     << " bytes\n";
  for (const hip::KernargSlot &slot : kernel.slots) {
    os << "  kernarg " << slot.offset << "+" << slot.bytes << " "
       << slot.describe() << " = ";
    if (slot.kind == hip::KernargSlot::Kind::AllocatedPointer ||
        slot.kind == hip::KernargSlot::Kind::AlignedPointer) {
      os << "buffer #"
         << plan.getBufferId(launch.args[slot.operand].getBuffer().get())
         << "\n";
      continue;
    }
    llvm::Expected<uint64_t> value =
        hip::getKernargValue(slot, launch.kernel, launch.args);
    if (!value)
      return value.takeError();
    os << int64_t(*value) << "\n";
  }
  return llvm::Error::success();
}

/// Loads every code object of \p objects into \p runtime and looks up the
/// functions of its kernels.
static LogicalResult
loadCodeObjects(hip::Runtime &runtime,
                llvm::StringMap<CompiledCodeObject> &objects,
                func::FuncOp host) {
  for (auto &object : objects) {
    llvm::Expected<hip::Module> module =
        runtime.loadModule(object.second.image.data());
    if (!module)
      return host.emitError()
             << "loading the code object of @" << object.first() << ": "
             << llvm::toString(module.takeError());
    object.second.handle = *module;
    for (auto &kernel : object.second.kernels) {
      llvm::Expected<hip::Function> function =
          runtime.getFunction(*module, kernel.first());
      if (!function)
        return host.emitError() << llvm::toString(function.takeError());
      kernel.second.handle = *function;
    }
  }
  return success();
}

/// Copies the buffers of the memref arguments of \p launch to their device
/// copies in \p buffers (allocated on first use), current with the host's.
static llvm::Error copyArgumentsToDevice(
    hip::Runtime &runtime,
    llvm::DenseMap<const emu::HostBuffer *, DeviceBuffer> &buffers,
    const emu::LaunchInfo &launch) {
  for (const emu::HostValue &arg : launch.args) {
    const std::shared_ptr<emu::HostBuffer> &buffer = arg.getBuffer();
    if (arg.getKind() != emu::HostValue::Kind::MemRef || !buffer)
      continue;
    DeviceBuffer &device = buffers[buffer.get()];
    if (!device.device) {
      llvm::Expected<void *> pointer = runtime.allocate(buffer->size());
      if (!pointer)
        return pointer.takeError();
      device.device = *pointer;
      device.host = buffer;
    }
    if (llvm::Error error = runtime.copyToDevice(
            device.device, buffer->bytes.data(), buffer->size()))
      return error;
  }
  return llvm::Error::success();
}

/// Copies back every writable buffer that \p launch was given: the kernel
/// may have written any of them.
static llvm::Error copyArgumentsToHost(
    hip::Runtime &runtime,
    llvm::DenseMap<const emu::HostBuffer *, DeviceBuffer> &buffers,
    const emu::LaunchInfo &launch) {
  for (const emu::HostValue &arg : launch.args) {
    const std::shared_ptr<emu::HostBuffer> &buffer = arg.getBuffer();
    if (arg.getKind() != emu::HostValue::Kind::MemRef || !buffer ||
        buffer->readOnly)
      continue;
    if (llvm::Error error = runtime.copyToHost(
            buffer->bytes.data(), buffers[buffer.get()].device, buffer->size()))
      return error;
  }
  return llvm::Error::success();
}

/// Launches \p record's kernel with its grid, block and kernel arguments.
static llvm::Error launchRecorded(hip::Runtime &runtime,
                                  RecordedLaunch &record) {
  unsigned grid[3], block[3];
  for (int d = 0; d < 3; ++d) {
    grid[d] = unsigned(record.grid[d]);
    block[d] = unsigned(record.block[d]);
  }
  return runtime.launch(record.kernel->handle, grid, block, record.kernargs);
}

llvm::Error HIPBackend::State::execute(const emu::LaunchInfo &launch) {
  llvm::Expected<CompiledKernel *> found = lookupKernel(objects, launch);
  if (!found)
    return found.takeError();
  CompiledKernel &kernel = **found;
  if (llvm::Error error = copyArgumentsToDevice(*runtime, buffers, launch))
    return error;
  llvm::Expected<std::vector<uint8_t>> kernargs =
      hip::packKernargs(kernel.slots, launch.kernel, launch.args,
                        [&](const emu::HostBuffer *buffer) {
                          return uint64_t(uintptr_t(buffers[buffer].device));
                        });
  if (!kernargs)
    return kernargs.takeError();
  RecordedLaunch record;
  record.kernel = &kernel;
  record.symbol = launch.symbol;
  record.index = launch.index;
  record.grid = launch.grid;
  record.block = launch.block;
  record.kernargs = std::move(*kernargs);
  int64_t workgroups = launch.grid[0] * launch.grid[1] * launch.grid[2];
  record.flops =
      kernel.workgroupFlops ? *kernel.workgroupFlops * workgroups : 0;
  record.bytes = getLaunchBytes(launch);
  if (llvm::Error error = launchRecorded(*runtime, record))
    return error;
  if (llvm::Error error = runtime->synchronize())
    return error;
  if (llvm::Error error = copyArgumentsToHost(*runtime, buffers, launch))
    return error;
  launches.push_back(std::move(record));
  return llvm::Error::success();
}

LogicalResult HIPBackend::prepareRun(ModuleOp lowered, func::FuncOp host,
                                     emu::RunOptions &run) {
  // A real run needs the runtime and a device: checked first.
  if (!hipOptions.dryRun) {
    llvm::Expected<std::unique_ptr<hip::Runtime>> runtime =
        hip::Runtime::load(hipOptions.library);
    if (!runtime)
      return host.emitError() << llvm::toString(runtime.takeError());
    state->runtime = std::move(*runtime);
  }
  if (failed(compileCodeObjects(lowered, host, options, state->objects)))
    return failure();

  if (hipOptions.dryRun) {
    state->plan.emplace(hipOptions.planStream ? *hipOptions.planStream
                                              : llvm::outs());
    run.executeLaunch = [this](const emu::LaunchInfo &launch) -> llvm::Error {
      llvm::Expected<CompiledKernel *> kernel =
          lookupKernel(state->objects, launch);
      if (!kernel)
        return kernel.takeError();
      return printPlannedLaunch(*state->plan, **kernel, launch);
    };
    return success();
  }
  if (failed(loadCodeObjects(*state->runtime, state->objects, host)))
    return failure();
  run.executeLaunch = [this](const emu::LaunchInfo &launch) {
    return state->execute(launch);
  };
  return success();
}

void HIPBackend::beginHostRun(StringRef header, bool isEntry) {
  if (state->plan)
    state->plan->getStream() << header << "\n";
  // Only the entry's launches are the per-call program that is timed.
  if (isEntry)
    state->launches.clear();
}

/// The fastest, median and slowest of \p seconds (sorted here).
static void summarize(std::vector<double> &seconds, HIPTiming &timing) {
  std::sort(seconds.begin(), seconds.end());
  size_t n = seconds.size();
  timing.minSeconds = seconds.front();
  timing.maxSeconds = seconds.back();
  timing.medianSeconds =
      n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
}

LogicalResult HIPBackend::finishRun(func::FuncOp host) {
  if (hipOptions.dryRun || hipOptions.repeat == 0 || !state->runtime)
    return success();
  hip::Runtime &runtime = *state->runtime;
  unsigned repeat = hipOptions.repeat;
  std::vector<hip::Event> starts, stops;
  for (unsigned r = 0; r < repeat; ++r) {
    llvm::Expected<hip::Event> start = runtime.createEvent();
    llvm::Expected<hip::Event> stop = runtime.createEvent();
    if (!start || !stop) {
      llvm::Error error = llvm::joinErrors(start.takeError(), stop.takeError());
      return host.emitError() << llvm::toString(std::move(error));
    }
    starts.push_back(*start);
    stops.push_back(*stop);
  }
  // Times `body` repeat times after `warmup` untimed calls.
  auto measure = [&](function_ref<llvm::Error()> body,
                     HIPTiming &timing) -> llvm::Error {
    for (unsigned w = 0; w < hipOptions.warmup; ++w)
      if (llvm::Error error = body())
        return error;
    for (unsigned r = 0; r < repeat; ++r) {
      if (llvm::Error error = runtime.record(starts[r]))
        return error;
      if (llvm::Error error = body())
        return error;
      if (llvm::Error error = runtime.record(stops[r]))
        return error;
    }
    std::vector<double> seconds;
    for (unsigned r = 0; r < repeat; ++r) {
      llvm::Expected<float> ms =
          runtime.elapsedMilliseconds(starts[r], stops[r]);
      if (!ms)
        return ms.takeError();
      seconds.push_back(double(*ms) * 1e-3);
    }
    summarize(seconds, timing);
    return llvm::Error::success();
  };

  SmallVector<HIPTiming> timings;
  for (RecordedLaunch &record : state->launches) {
    HIPTiming timing;
    timing.index = record.index;
    timing.what = record.symbol;
    timing.grid = record.grid;
    timing.block = record.block;
    timing.flops = record.flops;
    timing.bytes = record.bytes;
    if (llvm::Error error =
            measure([&] { return launchRecorded(runtime, record); }, timing))
      return host.emitError() << "timing " << record.symbol << ": "
                              << llvm::toString(std::move(error));
    timings.push_back(timing);
  }
  HIPTiming total;
  total.what = "end to end";
  total.flops = state->entryFlops;
  total.bytes = state->entryBytes;
  if (llvm::Error error = measure(
          [&]() -> llvm::Error {
            for (RecordedLaunch &record : state->launches)
              if (llvm::Error error = launchRecorded(runtime, record))
                return error;
            return llvm::Error::success();
          },
          total))
    return host.emitError() << "timing @" << host.getName() << ": "
                            << llvm::toString(std::move(error));
  timings.push_back(total);
  if (hipOptions.reportTimings)
    hipOptions.reportTimings(state->entry, timings);
  return success();
}

void mlir::mx::printHIPTiming(llvm::raw_ostream &os, StringRef entry,
                              const HIPTiming &timing, int64_t repeat) {
  double median = timing.medianSeconds;
  double tflops = median > 0 ? timing.flops / median / 1e12 : 0;
  double gbps = median > 0 ? timing.bytes / median / 1e9 : 0;
  os << "hip @" << entry << " ";
  if (timing.index >= 0)
    os << "launch #" << timing.index << " " << timing.what;
  else
    os << timing.what;
  os << llvm::format(": min %.3f us, median %.3f us, max %.3f us (%d runs)",
                     timing.minSeconds * 1e6, median * 1e6,
                     timing.maxSeconds * 1e6, int(repeat));
  if (timing.flops > 0)
    os << llvm::format(", %.3f TFLOP/s", tflops);
  os << llvm::format(", %.1f GB/s\n", gbps);

  llvm::json::Object object{{"entry", entry},
                            {"launch", timing.index},
                            {"kernel", timing.what},
                            {"repeat", repeat},
                            {"min_us", timing.minSeconds * 1e6},
                            {"median_us", median * 1e6},
                            {"max_us", timing.maxSeconds * 1e6},
                            {"flops", timing.flops},
                            {"bytes", timing.bytes},
                            {"tflops", tflops},
                            {"gbps", gbps}};
  if (timing.index >= 0) {
    object["grid"] =
        llvm::json::Array({timing.grid[0], timing.grid[1], timing.grid[2]});
    object["block"] =
        llvm::json::Array({timing.block[0], timing.block[1], timing.block[2]});
  }
  os << "hip-timing " << llvm::json::Value(std::move(object)) << "\n";
}
