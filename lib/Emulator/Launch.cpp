//===- Launch.cpp - kernel launches and host programs in the emulator -----===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernel launches (argument binding, the grid of workgroups, gpu id ops,
// gpu.subgroup_broadcast), host programs (runHost: arguments, results and
// gpu.launch_func, which runs a nested kernel-mode interpreter on views of
// host memory) and the public entry points runKernel and runHostFunction.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace mlir::mx::emu;
using namespace mlir::mx::emu::detail;

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

void Interpreter::registerGPUHandlers(HandlerTable &table) {
  auto dimOf = [](gpu::Dimension dim) { return unsigned(dim); };
  table.add<gpu::ThreadIdOp>([dimOf](Interpreter &self, gpu::ThreadIdOp tid) {
    unsigned d = dimOf(tid.getDimension());
    // The same in every workgroup of the launch: computed once.
    Reg &cached = self.threadIds[d];
    if (cached.data.empty()) {
      if (failed(self.execThreadValue(
              tid,
              [&](int64_t t) {
                int64_t id[3] = {t % self.blockSize[0],
                                 (t / self.blockSize[0]) % self.blockSize[1],
                                 t / (self.blockSize[0] * self.blockSize[1])};
                return id[d];
              },
              /*uniform=*/false)))
        return failure();
      cached = *self.getReg(tid, tid.getResult());
      return success();
    }
    self.setReg(tid.getResult(), cached);
    return success();
  });
  table.add<gpu::BlockIdOp>([dimOf](Interpreter &self, gpu::BlockIdOp bid) {
    unsigned d = dimOf(bid.getDimension());
    return self.execThreadValue(
        bid, [&](int64_t) { return self.blockId[d]; }, true);
  });
  table.add<gpu::BlockDimOp>([dimOf](Interpreter &self, gpu::BlockDimOp dim) {
    unsigned d = dimOf(dim.getDimension());
    return self.execThreadValue(
        dim, [&](int64_t) { return self.blockSize[d]; }, true);
  });
  table.add<gpu::GridDimOp>([dimOf](Interpreter &self, gpu::GridDimOp dim) {
    unsigned d = dimOf(dim.getDimension());
    return self.execThreadValue(
        dim, [&](int64_t) { return self.gridSize[d]; }, true);
  });
  table.add<gpu::LaneIdOp>([](Interpreter &self, Operation *op) {
    return self.execThreadValue(
        op, [](int64_t t) { return t % kWaveSize; }, false);
  });
  table.add<gpu::SubgroupIdOp>([](Interpreter &self, Operation *op) {
    return self.execThreadValue(
        op, [](int64_t t) { return t / kWaveSize; }, false);
  });
  table.add<gpu::NumSubgroupsOp>([](Interpreter &self, Operation *op) {
    return self.execThreadValue(
        op,
        [&](int64_t) { return (self.numThreads + kWaveSize - 1) / kWaveSize; },
        true);
  });
  table.add<gpu::SubgroupSizeOp>([](Interpreter &self, Operation *op) {
    return self.execThreadValue(
        op, [](int64_t) { return int64_t(kWaveSize); }, true);
  });
  table.add<gpu::SubgroupBroadcastOp>(
      [](Interpreter &self, gpu::SubgroupBroadcastOp op) {
        return self.execSubgroupBroadcast(op);
      });
  table.add<gpu::LaunchFuncOp>([](Interpreter &self, gpu::LaunchFuncOp op) {
    return self.execLaunch(op);
  });
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Why `func` (the `what` being run) cannot be interpreted: it has no body,
/// or more than one block; nullopt if it can.
static std::optional<std::string> checkBody(FunctionOpInterface func,
                                            StringRef what) {
  if (func.isExternal())
    return ("the " + what + " has no body").str();
  if (!func.getFunctionBody().hasOneBlock())
    return std::string("unstructured control flow (several blocks) is not "
                       "supported");
  return std::nullopt;
}

LogicalResult Interpreter::run(ArrayRef<HostValue> args, bool verify) {
  // Verify first: the interpreter relies on verified IR.
  if (verify)
    if (std::optional<std::string> diagnostics = verifyOp(kernel))
      return failLaunch("the kernel does not verify:\n" + *diagnostics);
  if (std::optional<std::string> problem = checkBody(kernel, "kernel"))
    return failLaunch(*problem);
  if (failed(bindArguments(args)))
    return failure();
  return runWorkgroups(args);
}

LogicalResult Interpreter::bindArguments(ArrayRef<HostValue> args) {
  for (unsigned d = 0; d < 3; ++d) {
    if (gridSize[d] < 1 || blockSize[d] < 1 || blockSize[d] > kMaxThreads)
      return failLaunch("grid and block sizes must be positive (a workgroup "
                        "has at most " +
                        Twine(kMaxThreads) + " threads), got grid " +
                        formatList(gridSize) + " and block " +
                        formatList(blockSize));
  }
  if (blockSize[0] * blockSize[1] > kMaxThreads ||
      blockSize[0] * blockSize[1] * blockSize[2] > kMaxThreads)
    return failLaunch("a workgroup has at most " + Twine(kMaxThreads) +
                      " threads, got block " + formatList(blockSize));
  numThreads = blockSize[0] * blockSize[1] * blockSize[2];
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
    ArrayRef<int32_t> sizes = *known;
    for (unsigned d = 0; d < sizes.size() && d < 3; ++d)
      if (sizes[d] != blockSize[d])
        return failLaunch(
            "known_block_size " +
            formatList(SmallVector<int64_t>(sizes.begin(), sizes.end())) +
            " does not match the launch block " + formatList(blockSize));
  }
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownGridSize()) {
    ArrayRef<int32_t> sizes = *known;
    for (unsigned d = 0; d < sizes.size() && d < 3; ++d)
      if (sizes[d] != gridSize[d])
        return failLaunch("known_grid_size does not match the launch grid " +
                          formatList(gridSize));
  }

  // Bind the arguments.
  FunctionType type = kernel.getFunctionType();
  if (args.size() != type.getNumInputs())
    return failLaunch("expects " + Twine(type.getNumInputs()) +
                      " arguments, got " + Twine(args.size()));
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type argType = type.getInput(i);
    BlockArgument blockArg = kernel.getArgument(i);
    std::string name = "kernel argument #" + std::to_string(i);
    RtValue rt;
    if (auto memrefType = dyn_cast<MemRefType>(argType)) {
      if (arg.getKind() != HostValue::Kind::MemRef || !arg.getBuffer())
        return failLaunch(name + " is a memref; pass HostValue::memref");
      int64_t elemBytes = getMemElemBytes(memrefType.getElementType());
      if (!elemBytes)
        return failLaunch(name + ": unsupported memref element type (sub-byte "
                                 "and odd-width types cannot be stored)");
      const StridedLayout &layout = arg.getLayout();
      ArrayRef<int64_t> shape = layout.sizes;
      if (int64_t(shape.size()) != memrefType.getRank())
        return failLaunch(name + " has rank " + Twine(memrefType.getRank()) +
                          ", got shape " + formatList(shape));
      if (layout.strides.size() != shape.size())
        return failLaunch(name + ": the layout has " +
                          Twine(layout.strides.size()) + " strides for " +
                          Twine(shape.size()) + " sizes");
      int64_t numBytes = elemBytes;
      for (int64_t size : shape)
        if (size < 0 || llvm::MulOverflow(numBytes, size, numBytes))
          return failLaunch(name + ": invalid shape " + formatList(shape));
      std::string mismatch = checkViewAgainstType(memrefType, layout.offset,
                                                  shape, layout.strides);
      if (!mismatch.empty())
        return failLaunch(name + ": " + mismatch);
      HostBuffer &buffer = *arg.getBuffer();
      auto storage = std::make_unique<Storage>();
      storage->data = buffer.bytes.data();
      storage->size = int64_t(buffer.bytes.size());
      storage->name = name;
      if (!arg.getName().empty())
        storage->name += ", " + arg.getName().str();
      if (!buffer.initialized.empty()) {
        if (buffer.initialized.size() != buffer.bytes.size())
          return failLaunch(name + ": the buffer's initialization mask has " +
                            Twine(buffer.initialized.size()) + " entries for " +
                            Twine(buffer.bytes.size()) + " bytes");
        storage->initialized = buffer.initialized.data();
      }
      storage->readOnly = buffer.readOnly;
      rt.isMem = true;
      rt.mem.storage = storage.get();
      rt.mem.elemBytes = elemBytes;
      rt.mem.offset = layout.offset;
      rt.mem.sizes.assign(shape.begin(), shape.end());
      rt.mem.strides.assign(layout.strides.begin(), layout.strides.end());
      argStorages.push_back(std::move(storage));
    } else {
      std::string error = scalarArgument(argType, arg, rt.reg);
      if (!error.empty())
        return failLaunch(name + error);
    }
    argValues.push_back({blockArg, std::move(rt)});
  }
  return success();
}

/// Whether the workgroups of \p kernel may run on several host threads:
/// they share nothing but the kernel arguments' memory, unless the kernel
/// uses a mutable memref.global (each interpreter has its own copy).
static bool mayRunConcurrently(gpu::GPUFuncOp kernel) {
  WalkResult result = kernel.walk([&](memref::GetGlobalOp op) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        op, op.getNameAttr());
    return global && global.getConstant() ? WalkResult::advance()
                                          : WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

LogicalResult Interpreter::runWorkgroups(ArrayRef<HostValue> args) {
  int64_t total = gridSize[0];
  if (llvm::MulOverflow(total, gridSize[1], total) ||
      llvm::MulOverflow(total, gridSize[2], total))
    return failLaunch("the grid " + formatList(gridSize) +
                      " has too many workgroups");
  // Workgroup `linear` is (x, y, z) with x fastest.
  auto setBlockId = [this](Interpreter &in, int64_t linear) {
    in.blockId = {linear % gridSize[0], (linear / gridSize[0]) % gridSize[1],
                  linear / (gridSize[0] * gridSize[1])};
    in.anyWorkgroup = true;
  };
  std::mutex progressMutex;
  int64_t done = 0;
  auto reportDone = [&] {
    if (!options.progress)
      return;
    std::lock_guard<std::mutex> lock(progressMutex);
    options.progress(symbol, ++done, total);
  };
  unsigned threads = options.threads;
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  threads = unsigned(std::min<int64_t>(threads, total));
  if (threads <= 1 || !mayRunConcurrently(kernel)) {
    for (int64_t linear = 0; linear < total; ++linear) {
      setBlockId(*this, linear);
      if (failed(runWorkgroup()))
        return failure();
      ++stats.workgroups;
      reportDone();
    }
    return success();
  }

  // One interpreter per host thread takes the next workgroup until all are
  // done or one at a lower index than the next has failed; every workgroup
  // below the lowest failing one runs, so its error is the one reported.
  struct Worker {
    RunStats stats;
    std::unique_ptr<Interpreter> interpreter;
    int64_t failedAt = -1;
  };
  std::vector<Worker> workers(threads);
  for (Worker &worker : workers) {
    worker.interpreter = std::make_unique<Interpreter>(
        kernel, gridSize, blockSize, worker.stats, options, symbol);
    if (failed(worker.interpreter->bindArguments(args))) {
      error = worker.interpreter->getError();
      return failure();
    }
  }
  std::atomic<int64_t> next{0}, firstFailure{total};
  auto work = [&](Worker &worker) {
    for (;;) {
      int64_t linear = next.fetch_add(1);
      if (linear >= firstFailure.load())
        return;
      setBlockId(*worker.interpreter, linear);
      if (failed(worker.interpreter->runWorkgroup())) {
        worker.failedAt = linear;
        int64_t lowest = firstFailure.load();
        while (linear < lowest &&
               !firstFailure.compare_exchange_weak(lowest, linear)) {
        }
        return;
      }
      ++worker.stats.workgroups;
      reportDone();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i)
    pool.emplace_back(work, std::ref(workers[i]));
  work(workers[0]);
  for (std::thread &thread : pool)
    thread.join();
  for (const Worker &worker : workers) {
    stats.workgroups += worker.stats.workgroups;
    stats.operations += worker.stats.operations;
    stats.mfmas += worker.stats.mfmas;
    if (worker.failedAt >= 0 && worker.failedAt == firstFailure.load())
      error = worker.interpreter->getError();
  }
  return success(error.empty());
}

LogicalResult Interpreter::runWorkgroup() {
  values.clear();
  localStorages.clear();
  localBytes = 0;
  callStack.clear();
  activeMask.clear();
  barrierPhase = 0;
  pendingCopies.assign(getNumWaves(), {});
  ldsWritesInFlight.assign(getNumWaves(), 0);
  ldsReadsInFlight.assign(getNumWaves(), {});
  for (auto &[value, rt] : argValues)
    values[value] = rt;
  for (auto [i, attribution] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    FailureOr<MemView> view =
        createLocal(kernel, cast<MemRefType>(attribution.getType()), {},
                    /*perThread=*/false);
    if (failed(view))
      return failure();
    view->storage->name =
        ("workgroup attribution #" + Twine(i) + " of @" + kernel.getName())
            .str();
    setMem(attribution, *view);
  }
  for (BlockArgument attribution : kernel.getPrivateAttributions()) {
    FailureOr<MemView> view =
        createLocal(kernel, cast<MemRefType>(attribution.getType()), {},
                    /*perThread=*/true);
    if (failed(view))
      return failure();
    setMem(attribution, *view);
  }
  SmallVector<RtValue> results;
  return runBlock(kernel.getBody().front(), {}, results);
}

LogicalResult Interpreter::execThreadValue(Operation *op,
                                           function_ref<int64_t(int64_t)> fn,
                                           bool uniform) {
  std::optional<TypeInfo> info = getTypeInfo(op->getResult(0).getType());
  if (!info || info->isVector)
    return unsupportedType(op, op->getResult(0).getType());
  Reg out(info->bytes, uniform, numThreads);
  for (int64_t t = 0, e = uniform ? 1 : numThreads; t < e; ++t)
    writeBits(out.at(t), 0, info->elemBits,
              uint64_t(fn(t)) & maskBits(info->elemBits));
  setReg(op->getResult(0), std::move(out));
  return success();
}

// Each wave's lanes get the value of its first active lane, or of lane
// `lane` (which must be active, else the result is poison).
LogicalResult Interpreter::execSubgroupBroadcast(gpu::SubgroupBroadcastOp op) {
  const Reg *source = getReg(op, op.getSrc());
  if (!source)
    return failure();
  if (source->uniform) {
    setReg(op.getResult(), *source);
    return success();
  }
  std::optional<int64_t> lane;
  if (op.getBroadcastType() == gpu::BroadcastType::specific_lane) {
    FailureOr<int64_t> value = getUniformInt(op, op.getLane(), "the lane");
    if (failed(value))
      return failure();
    if (*value < 0 || *value >= kWaveSize)
      return fail(op, "lane " + Twine(*value) + " out of range (poison)");
    lane = *value;
  }
  Reg result(source->bytes, /*uniform=*/false, numThreads);
  for (int64_t wave = 0; wave < getNumWaves(); ++wave) {
    int64_t first = wave * kWaveSize;
    int64_t end = std::min<int64_t>(numThreads, first + kWaveSize);
    int64_t from = -1;
    if (lane)
      from =
          first + *lane < end && isActive(first + *lane) ? first + *lane : -1;
    else
      for (int64_t t = first; t < end && from < 0; ++t)
        if (isActive(t))
          from = t;
    if (from < 0) {
      if (lane && isWaveActive(wave))
        return fail(op, "wave " + Twine(wave) + ": lane " + Twine(*lane) +
                            " is not active (poison)");
      continue;
    }
    for (int64_t t = first; t < end; ++t)
      std::memcpy(result.at(t), source->at(from), source->bytes);
  }
  setReg(op.getResult(), std::move(result));
  return success();
}

//===----------------------------------------------------------------------===//
// gpu.launch_func
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::checkLaunchSupported(gpu::LaunchFuncOp op) {
  if (!op.getAsyncDependencies().empty() || op.getAsyncToken())
    return fail(op, "asynchronous launches are not supported");
  if (op.hasClusterSize())
    return fail(op, "cluster launches are not supported");
  if (Value dynamicShared = op.getDynamicSharedMemorySize()) {
    FailureOr<int64_t> bytes =
        getUniformInt(op, dynamicShared, "the dynamic shared memory size");
    if (failed(bytes))
      return failure();
    if (*bytes != 0)
      return fail(op, "dynamic shared memory is not supported");
  }
  return success();
}

std::optional<std::string>
mlir::mx::emu::checkLaunchBudget(StringRef symbol, std::array<int64_t, 3> grid,
                                 std::array<int64_t, 3> block,
                                 int64_t maxWorkgroups) {
  int64_t workgroups = 1;
  bool overflow = false;
  for (int64_t size : grid)
    overflow |= size > 0 && llvm::MulOverflow(workgroups, size, workgroups);
  if (!overflow && workgroups <= maxWorkgroups)
    return std::nullopt;
  std::string count = overflow ? "more than 2^63" : std::to_string(workgroups);
  return ("the launch of " + symbol + " with grid " + formatList(grid) +
          " and block " + formatList(block) + " has " + count +
          " workgroups, more than the launch budget of " +
          Twine(maxWorkgroups) + " workgroups")
      .str();
}

LogicalResult Interpreter::getLaunchSizes(gpu::LaunchFuncOp op,
                                          std::array<int64_t, 3> &grid,
                                          std::array<int64_t, 3> &block) {
  gpu::KernelDim3 gridValues = op.getGridSizeOperandValues();
  gpu::KernelDim3 blockValues = op.getBlockSizeOperandValues();
  Value gridOperands[] = {gridValues.x, gridValues.y, gridValues.z};
  Value blockOperands[] = {blockValues.x, blockValues.y, blockValues.z};
  for (int d = 0; d < 3; ++d) {
    FailureOr<int64_t> g = getUniformInt(op, gridOperands[d], "a grid size");
    FailureOr<int64_t> b = getUniformInt(op, blockOperands[d], "a block size");
    if (failed(g) || failed(b))
      return failure();
    grid[d] = *g;
    block[d] = *b;
  }
  return success();
}

FailureOr<SmallVector<HostValue>>
Interpreter::getLaunchArguments(gpu::LaunchFuncOp op, StringRef symbol) {
  SmallVector<HostValue> args;
  for (Value operand : op.getKernelOperands()) {
    const RtValue *rt = lookup(op, operand);
    if (!rt)
      return failure();
    if (rt->isMem) {
      const MemView &view = rt->mem;
      Storage &storage = *view.storage;
      if (storage.freed)
        return fail(op, "passes " + storage.name +
                            " after its memref.dealloc to " + symbol);
      if (!storage.host || view.threadStride || view.threadOffset)
        return fail(op, "passes a memref that is not host memory");
      args.push_back(
          HostValue::memref(storage.host, view.getLayout(), storage.name));
      continue;
    }
    std::optional<HostValue> value = getScalarValue(operand.getType(), rt->reg);
    if (!value)
      return unsupportedType(op, operand.getType());
    args.push_back(*value);
  }
  return args;
}

LogicalResult Interpreter::executeLaunchElsewhere(const LaunchInfo &launch) {
  if (llvm::Error error = options.executeLaunch(launch))
    return fail(launch.op, "launch of " + launch.symbol + " (grid " +
                               formatList(launch.grid) + ", block " +
                               formatList(launch.block) +
                               ") failed: " + llvm::toString(std::move(error)));
  // The executor wrote the buffers outside the interpreter's view.
  for (const HostValue &arg : launch.args)
    if (const std::shared_ptr<HostBuffer> &buffer = arg.getBuffer())
      if (!buffer->readOnly && !buffer->initialized.empty())
        std::fill(buffer->initialized.begin(), buffer->initialized.end(), 1);
  ++hostStats->launches;
  ++hostStats->launchesPerKernel[launch.symbol];
  hostStats->workgroups += launch.grid[0] * launch.grid[1] * launch.grid[2];
  return success();
}

LogicalResult Interpreter::emulateLaunch(const LaunchInfo &launch) {
  RunStats kernelStats;
  Interpreter kernel(launch.kernel, launch.grid, launch.block, kernelStats,
                     options, launch.symbol);
  auto start = std::chrono::steady_clock::now();
  LogicalResult result = kernel.run(launch.args, /*verify=*/false);
  if (kernelStats.mfmas)
    hostStats->mfmaLaunchSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  ++hostStats->launches;
  ++hostStats->launchesPerKernel[launch.symbol];
  hostStats->workgroups += kernelStats.workgroups;
  hostStats->kernelOperations += kernelStats.operations;
  hostStats->mfmas += kernelStats.mfmas;
  if (failed(result))
    return fail(launch.op, "launch of " + launch.symbol + " (grid " +
                               formatList(launch.grid) + ", block " +
                               formatList(launch.block) +
                               ") failed: " + kernel.getError());
  return success();
}

LogicalResult Interpreter::execLaunch(gpu::LaunchFuncOp op) {
  LaunchInfo launch;
  launch.op = op;
  launch.symbol = ("@" + op.getKernelModuleName().getValue() + "::@" +
                   op.getKernelName().getValue())
                      .str();
  if (failed(checkLaunchSupported(op)))
    return failure();
  launch.kernel =
      SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(op, op.getKernel());
  if (!launch.kernel || !launch.kernel.isKernel())
    return fail(op, "no gpu.func kernel " + launch.symbol);
  if (failed(getLaunchSizes(op, launch.grid, launch.block)))
    return failure();
  if (std::optional<std::string> refused = checkLaunchBudget(
          launch.symbol, launch.grid, launch.block, options.maxWorkgroups))
    return fail(op, *refused);
  FailureOr<SmallVector<HostValue>> args =
      getLaunchArguments(op, launch.symbol);
  if (failed(args))
    return failure();
  launch.args = std::move(*args);
  launch.index = hostStats->launches;
  if (options.onLaunch)
    if (llvm::Error error = options.onLaunch(launch))
      return fail(op, llvm::toString(std::move(error)));
  if (options.executeLaunch)
    return executeLaunchElsewhere(launch);
  return emulateLaunch(launch);
}

//===----------------------------------------------------------------------===//
// Host functions
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::runHost(ArrayRef<HostValue> args,
                                   SmallVectorImpl<HostValue> &results) {
  // Verify the whole module first (host function and kernels).
  {
    Operation *top = hostFunction;
    while (top->getParentOp())
      top = top->getParentOp();
    if (std::optional<std::string> diagnostics = verifyOp(top))
      return failLaunch("the module does not verify:\n" + *diagnostics);
  }
  if (std::optional<std::string> problem = checkBody(hostFunction, "function"))
    return failLaunch(*problem);
  numThreads = 1;

  FunctionType type = hostFunction.getFunctionType();
  if (args.size() != type.getNumInputs())
    return failLaunch("expects " + Twine(type.getNumInputs()) +
                      " arguments, got " + Twine(args.size()));
  SmallVector<RtValue> argValues;
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type argType = type.getInput(i);
    std::string name = "argument #" + std::to_string(i) + " of @" +
                       hostFunction.getName().str();
    RtValue rt;
    if (auto memrefType = dyn_cast<MemRefType>(argType)) {
      if (arg.getKind() != HostValue::Kind::MemRef || !arg.getBuffer())
        return failLaunch(name + " is a memref; pass HostValue::memref");
      int64_t elemBytes = getMemElemBytes(memrefType.getElementType());
      if (!elemBytes)
        return failLaunch(name + ": unsupported memref element type");
      const StridedLayout &layout = arg.getLayout();
      if (layout.strides.size() != layout.sizes.size())
        return failLaunch(name + ": the layout has " +
                          Twine(layout.strides.size()) + " strides for " +
                          Twine(layout.sizes.size()) + " sizes");
      for (int64_t size : layout.sizes)
        if (size < 0)
          return failLaunch(name + ": negative size in " +
                            formatList(layout.sizes));
      std::string mismatch = checkViewAgainstType(memrefType, layout.offset,
                                                  layout.sizes, layout.strides);
      if (!mismatch.empty())
        return failLaunch(name + ": " + mismatch);
      if (!arg.getBuffer()->initialized.empty() &&
          arg.getBuffer()->initialized.size() != arg.getBuffer()->size())
        return failLaunch(name + ": the initialization mask has the wrong "
                                 "size");
      rt.isMem = true;
      rt.mem.storage = getHostStorage(arg.getBuffer(), name);
      rt.mem.elemBytes = elemBytes;
      rt.mem.offset = layout.offset;
      rt.mem.sizes.assign(layout.sizes.begin(), layout.sizes.end());
      rt.mem.strides.assign(layout.strides.begin(), layout.strides.end());
    } else {
      std::string error = scalarArgument(argType, arg, rt.reg);
      if (!error.empty())
        return failLaunch(name + error);
    }
    argValues.push_back(std::move(rt));
  }

  callStack.push_back(hostFunction);
  SmallVector<RtValue> yielded;
  if (failed(runBlock(hostFunction.getBody().front(), argValues, yielded)))
    return failure();
  callStack.pop_back();

  for (auto [value, resultType] : llvm::zip(yielded, type.getResults())) {
    if (value.isMem) {
      results.push_back(
          HostValue::memref(value.mem.storage->host, value.mem.getLayout()));
      continue;
    }
    std::optional<HostValue> result = getScalarValue(resultType, value.reg);
    if (!result)
      return failLaunch("unsupported result type");
    results.push_back(*result);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

llvm::Error mlir::mx::emu::runKernel(gpu::GPUFuncOp kernel,
                                     ArrayRef<HostValue> args,
                                     std::array<int64_t, 3> gridSize,
                                     std::array<int64_t, 3> blockSize,
                                     RunStats *stats,
                                     const RunOptions &options) {
  if (!kernel)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "runKernel: null kernel");
  std::string symbol = ("@" + kernel.getName()).str();
  if (std::optional<std::string> refused =
          checkLaunchBudget(symbol, gridSize, blockSize, options.maxWorkgroups))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *refused);
  RunStats counters;
  Interpreter interpreter(kernel, gridSize, blockSize, counters, options,
                          symbol);
  LogicalResult result = interpreter.run(args, /*verify=*/true);
  if (stats)
    *stats = counters;
  if (failed(result))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   interpreter.getError());
  return llvm::Error::success();
}

llvm::Expected<SmallVector<HostValue>>
mlir::mx::emu::runHostFunction(func::FuncOp function, ArrayRef<HostValue> args,
                               HostRunStats *stats, const RunOptions &options) {
  if (!function)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "runHostFunction: null function");
  RunStats hostCounters;
  HostRunStats counters;
  Interpreter interpreter(function, hostCounters, counters, options);
  SmallVector<HostValue> results;
  LogicalResult result = interpreter.runHost(args, results);
  counters.hostOperations = hostCounters.operations;
  if (stats)
    *stats = counters;
  if (failed(result))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   interpreter.getError());
  return results;
}
