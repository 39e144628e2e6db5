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
/// A kernel of a loaded code object.
struct KernelInfo {
  hip::KernelMetadata metadata;
  SmallVector<hip::KernargSlot> slots;
  uint64_t explicitBytes = 0;
  hip::Function function = nullptr;
  /// MFMA FLOPs of one workgroup (2 M N K per wave-level instruction),
  /// or nullopt where a loop's trip count is not a constant.
  std::optional<double> workgroupFlops;
  int64_t workgroupMFMAs = 0;
};

/// One code object (one gpu.module of the program).
struct CodeObject {
  std::string image;
  hip::Module module = nullptr;
  llvm::StringMap<KernelInfo> kernels;
};

/// A launch as executed, for replaying it.
struct RecordedLaunch {
  KernelInfo *kernel = nullptr;
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
  llvm::StringMap<CodeObject> objects;
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

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// The MFMA FLOPs and instructions one workgroup of \p kernel executes with
/// \p threads threads: every amdgpu.scaled_mfma once per wave, times the
/// trip counts of the scf.for loops around it (nullopt FLOPs when one is
/// not constant). Both branches of an scf.if count.
static std::pair<std::optional<double>, int64_t>
countWorkgroupMFMAs(gpu::GPUFuncOp kernel, int64_t threads) {
  int64_t waves = (threads + 63) / 64;
  std::optional<double> flops = 0.0;
  int64_t mfmas = 0;
  kernel.walk([&](amdgpu::ScaledMFMAOp mfma) {
    int64_t trips = 1;
    for (Operation *parent = mfma->getParentOp(); parent && parent != kernel;
         parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      if (!loop)
        continue;
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!lb || !ub || !step || *step <= 0) {
        flops.reset();
        return;
      }
      trips *= *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
    }
    mfmas += trips * waves;
    if (flops)
      *flops += 2.0 * mfma.getM() * mfma.getN() * mfma.getK() * trips * waves;
  });
  if (!flops)
    mfmas = 0;
  return {flops, mfmas};
}

/// The bytes that the memref arguments of \p launch view, each buffer once.
static double getLaunchBytes(const emu::LaunchInfo &launch) {
  double bytes = 0;
  for (unsigned operand = 0; operand < launch.args.size(); ++operand)
    bytes += double(getViewBytes(launch, operand));
  return bytes;
}

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

/// Compiles the kernels of \p lowered to gfx950 code objects: the last stage
/// of mx-gfx950-pipeline (output=hsaco) on a copy.
static FailureOr<OwningOpRef<ModuleOp>>
compileCodeObjects(ModuleOp lowered, func::FuncOp host,
                   const GFX950EmulatorBackend::Options &options) {
  OwningOpRef<ModuleOp> codegen = lowered.clone();
  PassManager pm(lowered.getContext(), ModuleOp::getOperationName());
  if (options.configurePassManager && failed(options.configurePassManager(pm)))
    return failure();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  GFX950PipelineOptions pipelineOptions;
  if (failed(pipelineOptions.parseFromString(options.pipelineOptions,
                                             errorStream)))
    return host.emitError() << "invalid mx-gfx950-pipeline options '"
                            << options.pipelineOptions << "': " << errors;
  pipelineOptions.output = GFX950Output::HSACO;
  buildGFX950KernelCodegenPipeline(pm, pipelineOptions);
  if (failed(pm.run(*codegen)))
    return host.emitError()
           << "compiling the kernels of @" << host.getName()
           << " to gfx950 code objects (mx-gfx950-pipeline output=hsaco) "
              "failed";
  return codegen;
}

/// Reads the image and the kernels' metadata of every gpu.binary of
/// \p codegen into \p objects.
static LogicalResult readCodeObjects(ModuleOp codegen, func::FuncOp host,
                                     llvm::StringMap<CodeObject> &objects) {
  for (auto binary : codegen.getOps<gpu::BinaryOp>()) {
    auto binaryObjects = binary.getObjects();
    auto object = binaryObjects.empty()
                      ? gpu::ObjectAttr()
                      : dyn_cast<gpu::ObjectAttr>(binaryObjects[0]);
    if (!object || object.getFormat() != gpu::CompilationTarget::Binary)
      return host.emitError()
             << "gpu.binary @" << binary.getName() << " holds no code object";
    CodeObject &codeObject = objects[binary.getName()];
    codeObject.image = object.getObject().getValue().str();
    llvm::Expected<SmallVector<hip::KernelMetadata>> metadata =
        hip::readCodeObjectMetadata(codeObject.image);
    if (!metadata)
      return host.emitError() << "the code object of @" << binary.getName()
                              << ": " << llvm::toString(metadata.takeError());
    for (hip::KernelMetadata &kernel : *metadata)
      codeObject.kernels[kernel.name].metadata = std::move(kernel);
  }
  return success();
}

/// Lays out the kernel arguments of every kernel of \p lowered and checks
/// them against its code object in \p objects.
static LogicalResult layOutKernargs(ModuleOp lowered, func::FuncOp host,
                                    llvm::StringMap<CodeObject> &objects) {
  for (auto gpuModule : lowered.getOps<gpu::GPUModuleOp>()) {
    auto found = objects.find(gpuModule.getName());
    if (found == objects.end())
      return host.emitError()
             << "no code object for gpu.module @" << gpuModule.getName();
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      auto info = found->second.kernels.find(kernel.getName());
      if (info == found->second.kernels.end())
        return host.emitError() << "the code object of @" << gpuModule.getName()
                                << " has no kernel " << kernel.getName();
      llvm::Expected<SmallVector<hip::KernargSlot>> slots =
          hip::getKernargSlots(kernel);
      if (!slots)
        return host.emitError() << llvm::toString(slots.takeError());
      info->second.slots = std::move(*slots);
      info->second.explicitBytes = hip::layoutKernargs(info->second.slots);
      if (llvm::Error error = hip::checkKernargLayout(info->second.slots,
                                                      info->second.metadata))
        return host.emitError() << "the launch's kernel arguments do not "
                                   "match the code object: "
                                << llvm::toString(std::move(error));
    }
  }
  return success();
}

/// The kernel that \p launch runs, in \p objects, with its MFMA work for
/// the launch's block size counted.
static llvm::Expected<KernelInfo *>
lookupKernel(llvm::StringMap<CodeObject> &objects,
             const emu::LaunchInfo &launch) {
  StringRef moduleName =
      gpu::LaunchFuncOp(launch.op).getKernelModuleName().getValue();
  auto object = objects.find(moduleName);
  if (object == objects.end())
    return makeError("no code object for " + launch.symbol);
  auto kernel = object->second.kernels.find(
      gpu::LaunchFuncOp(launch.op).getKernelName().getValue());
  if (kernel == object->second.kernels.end())
    return makeError("no kernel for " + launch.symbol);
  KernelInfo &info = kernel->second;
  std::tie(info.workgroupFlops, info.workgroupMFMAs) = countWorkgroupMFMAs(
      launch.kernel, launch.block[0] * launch.block[1] * launch.block[2]);
  return &info;
}

/// Prints \p launch of \p kernel to \p plan instead of running it (dry
/// run): the launch, the code object's resources, the work and every
/// kernel argument.
static llvm::Error printPlannedLaunch(LaunchPlanPrinter &plan,
                                      const KernelInfo &kernel,
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
static LogicalResult loadCodeObjects(hip::Runtime &runtime,
                                     llvm::StringMap<CodeObject> &objects,
                                     func::FuncOp host) {
  for (auto &object : objects) {
    llvm::Expected<hip::Module> module =
        runtime.loadModule(object.second.image.data());
    if (!module)
      return host.emitError()
             << "loading the code object of @" << object.first() << ": "
             << llvm::toString(module.takeError());
    object.second.module = *module;
    for (auto &kernel : object.second.kernels) {
      llvm::Expected<hip::Function> function =
          runtime.getFunction(*module, kernel.first());
      if (!function)
        return host.emitError() << llvm::toString(function.takeError());
      kernel.second.function = *function;
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
  return runtime.launch(record.kernel->function, grid, block, record.kernargs);
}

llvm::Error HIPBackend::State::execute(const emu::LaunchInfo &launch) {
  llvm::Expected<KernelInfo *> found = lookupKernel(objects, launch);
  if (!found)
    return found.takeError();
  KernelInfo &kernel = **found;
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
  FailureOr<OwningOpRef<ModuleOp>> codegen =
      compileCodeObjects(lowered, host, options);
  if (failed(codegen) ||
      failed(readCodeObjects(**codegen, host, state->objects)) ||
      failed(layOutKernargs(lowered, host, state->objects)))
    return failure();

  if (hipOptions.dryRun) {
    state->plan.emplace(hipOptions.planStream ? *hipOptions.planStream
                                              : llvm::outs());
    run.executeLaunch = [this](const emu::LaunchInfo &launch) -> llvm::Error {
      llvm::Expected<KernelInfo *> kernel =
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
