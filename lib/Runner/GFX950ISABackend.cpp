//===- GFX950ISABackend.cpp - mx-run --backend=gfx950-isa -----------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/GFX950ISABackend.h"

#include "mx/Runner/CodeObjectLaunch.h"
#include "mx/Support/FileIO.h"
#include "mx/Target/GFX950/ISA/Executor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <optional>

using namespace mlir;
using namespace mlir::mx;
namespace isa = mlir::mx::gfx950::isa;

struct GFX950ISABackend::State {
  llvm::StringMap<CompiledCodeObject> objects;
  /// The decoded kernels of each code object (by gpu.module name).
  llvm::StringMap<isa::CodeObject> decoded;
  isa::ExecutionStats stats;
  uint64_t launches = 0;
  llvm::StringSet<> kernels;
  double seconds = 0;
  /// The time of the launches that executed scaled MFMAs.
  double mfmaSeconds = 0;

  /// The timing mode's constants and where its reports go.
  std::optional<isa::MachineModel> timing;
  std::function<void(const isa::TimingReport &)> reportTiming;

  llvm::Error execute(const emu::LaunchInfo &launch,
                      const isa::ExecutorOptions &options);
};

GFX950ISABackend::GFX950ISABackend(
    const GFX950EmulatorBackend::Options &compile, const ISAOptions &isaOptions)
    : GFX950EmulatorBackend(compile), isaOptions(isaOptions) {}

GFX950ISABackend::~GFX950ISABackend() = default;

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

FailureOr<SmallVector<HostTensor>>
GFX950ISABackend::run(ModuleOp module, StringRef entry,
                      ArrayRef<HostTensor> inputs) {
  state = std::make_unique<State>();
  if (isaOptions.timing) {
    state->timing = isaOptions.machine;
    state->reportTiming = isaOptions.reportTiming;
  }
  FailureOr<SmallVector<HostTensor>> results =
      GFX950EmulatorBackend::run(module, entry, inputs);
  state.reset();
  return results;
}

/// Writes the hidden kernel arguments the runtime provides (grid and
/// workgroup sizes, grid dimensions; zero for the others) into \p segment.
static void fillHiddenArguments(const hip::KernelMetadata &metadata,
                                const emu::LaunchInfo &launch,
                                std::vector<uint8_t> &segment) {
  for (const hip::KernelArgMetadata &arg : metadata.args) {
    if (!arg.isHidden() || arg.offset + arg.size > segment.size())
      continue;
    uint64_t value = 0;
    StringRef kind = arg.valueKind;
    for (unsigned d = 0; d < 3; ++d) {
      char axis = "xyz"[d];
      if (kind == (Twine("hidden_block_count_") + Twine(axis)).str())
        value = uint64_t(launch.grid[d]);
      else if (kind == (Twine("hidden_group_size_") + Twine(axis)).str())
        value = uint64_t(launch.block[d]);
    }
    if (kind == "hidden_grid_dims")
      value = 3;
    for (uint64_t b = 0; b < arg.size && b < 8; ++b)
      segment[arg.offset + b] = uint8_t(value >> (8 * b));
  }
}

llvm::Error
GFX950ISABackend::State::execute(const emu::LaunchInfo &launch,
                                 const isa::ExecutorOptions &options) {
  llvm::Expected<CompiledKernel *> found = lookupKernel(objects, launch);
  if (!found)
    return found.takeError();
  CompiledKernel &kernel = **found;
  auto launchOp = gpu::LaunchFuncOp(launch.op);
  const isa::Kernel *code =
      decoded[launchOp.getKernelModuleName().getValue()].lookup(
          launchOp.getKernelName().getValue());
  if (!code)
    return makeError("no machine code for " + launch.symbol);
  isa::DeviceMemory memory;
  llvm::DenseMap<const emu::HostBuffer *, uint64_t> addresses;
  for (auto [i, arg] : llvm::enumerate(launch.args)) {
    const std::shared_ptr<emu::HostBuffer> &buffer = arg.getBuffer();
    if (arg.getKind() != emu::HostValue::Kind::MemRef || !buffer ||
        addresses.count(buffer.get()))
      continue;
    addresses[buffer.get()] =
        memory.map(buffer->bytes.data(), buffer->bytes.size(),
                   !buffer->readOnly, "argument #" + std::to_string(i));
  }
  llvm::Expected<std::vector<uint8_t>> kernargs = hip::packKernargs(
      kernel.slots, launch.kernel, launch.args,
      [&](const emu::HostBuffer *buffer) { return addresses.lookup(buffer); });
  if (!kernargs)
    return kernargs.takeError();
  std::vector<uint8_t> segment = std::move(*kernargs);
  segment.resize(
      std::max<size_t>(segment.size(), kernel.metadata.kernargSegmentSize), 0);
  fillHiddenArguments(kernel.metadata, launch, segment);
  isa::Launch isaLaunch;
  for (unsigned d = 0; d < 3; ++d) {
    if (launch.grid[d] <= 0 || launch.grid[d] > UINT32_MAX ||
        launch.block[d] <= 0 || launch.block[d] > 1024)
      return makeError("launch of " + launch.symbol +
                       " with a grid or block size out of range");
    isaLaunch.grid[d] = uint32_t(launch.grid[d]);
    isaLaunch.block[d] = uint32_t(launch.block[d]);
  }
  isaLaunch.kernargAddress =
      memory.map(segment.data(), segment.size(), false, "kernarg segment");
  auto start = std::chrono::steady_clock::now();
  uint64_t mfmasBefore = stats.scaledMFMAs;
  if (timing) {
    llvm::Expected<isa::TimingReport> report =
        isa::executeAndTime(*code, isaLaunch, memory, options, *timing, &stats);
    if (!report)
      return report.takeError();
    if (reportTiming)
      reportTiming(*report);
  } else if (llvm::Error error =
                 isa::execute(*code, isaLaunch, memory, options, &stats)) {
    return error;
  }
  double launchSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  seconds += launchSeconds;
  if (stats.scaledMFMAs != mfmasBefore)
    mfmaSeconds += launchSeconds;
  ++launches;
  kernels.insert(launch.symbol);
  // Every byte of a buffer the kernel may have written counts as written.
  for (const emu::HostValue &arg : launch.args)
    if (arg.getKind() == emu::HostValue::Kind::MemRef && arg.getBuffer() &&
        !arg.getBuffer()->readOnly)
      arg.getBuffer()->initialized.clear();
  return llvm::Error::success();
}

LogicalResult GFX950ISABackend::prepareRun(ModuleOp lowered, func::FuncOp host,
                                           emu::RunOptions &run) {
  if (failed(compileCodeObjects(lowered, host, options, state->objects)))
    return failure();
  for (const auto &[module, path] : isaOptions.codeObjectFiles) {
    auto object = state->objects.find(module);
    if (object == state->objects.end())
      return host.emitError() << "--isa-code-object: the program has no "
                                 "gpu.module @"
                              << module;
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
        readUserFile(path, {}, "the code object");
    if (!file)
      return host.emitError()
             << "--isa-code-object: " << llvm::toString(file.takeError());
    object->second.image = (*file)->getBuffer().str();
  }
  for (auto &object : state->objects) {
    llvm::Expected<isa::CodeObject> decoded =
        isa::loadCodeObject(object.second.image);
    if (!decoded)
      return host.emitError()
             << "decoding the code object of @" << object.first() << ": "
             << llvm::toString(decoded.takeError());
    state->decoded[object.first()] = std::move(*decoded);
  }
  isa::ExecutorOptions executorOptions;
  executorOptions.numerics = run.mfmaNumerics;
  executorOptions.threads = run.threads;
  executorOptions.checkHazards = isaOptions.checkHazards;
  run.executeLaunch = [this, executorOptions,
                       progress = run.progress](const emu::LaunchInfo &launch) {
    isa::ExecutorOptions launchOptions = executorOptions;
    if (progress)
      launchOptions.progress = [&](uint64_t done, uint64_t total) {
        progress(launch.symbol, int64_t(done), int64_t(total));
      };
    return state->execute(launch, launchOptions);
  };
  return success();
}

LogicalResult GFX950ISABackend::finishRun(func::FuncOp host) {
  if (!isaOptions.reportStats)
    return success();
  const isa::ExecutionStats &stats = state->stats;
  // The first line as the wave emulator's (mx-run --emu-stats).
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "gfx950-isa @" << host.getName() << ": " << state->launches
     << " launches (" << state->kernels.size() << " kernels), "
     << stats.workgroups << " workgroups, " << stats.scaledMFMAs << " MFMAs";
  isaOptions.reportStats(line);
  line.clear();
  os << "gfx950-isa @" << host.getName() << ": " << stats.waves
     << " waves issued " << stats.instructions << " instructions in "
     << llvm::format("%.3f", state->seconds) << " s";
  if (stats.scaledMFMAs)
    os << llvm::format("; the launches with MFMAs took %.3f s: %.0f MFMAs/s",
                       state->mfmaSeconds,
                       double(stats.scaledMFMAs) /
                           std::max(state->mfmaSeconds, 1e-9));
  isaOptions.reportStats(line);
  return success();
}
