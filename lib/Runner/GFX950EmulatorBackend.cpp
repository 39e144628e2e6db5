//===- GFX950EmulatorBackend.cpp - mx-run --backend=gfx950-emu ------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Emulator/WaveEmulator.h"
#include "mx/Layout/LayoutQuery.h"
#include "mx/Pipelines/Pipelines.h"
#include "mx/Runner/ExecutionBackend.h"
#include "mx/Runner/LaunchPlan.h"
#include "mx/Runner/TensorIO.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::mx;

/// The elements of `value` (a memref of `elementBytes`-byte elements) in
/// row-major order, as bytes.
static std::vector<uint8_t> readBytes(const emu::HostValue &value,
                                      unsigned elementBytes) {
  std::vector<uint8_t> bytes;
  auto append = [&](auto values) {
    bytes.resize(values.size() * sizeof(values[0]));
    if (!values.empty())
      std::memcpy(bytes.data(), values.data(), bytes.size());
  };
  switch (elementBytes) {
  case 1:
    append(value.read<uint8_t>());
    break;
  case 2:
    append(value.read<uint16_t>());
    break;
  case 4:
    append(value.read<uint32_t>());
    break;
  case 8:
    append(value.read<uint64_t>());
    break;
  }
  return bytes;
}

ExecutionBackend::Lowering
GFX950EmulatorBackend::getLowering(bool dataTilingOnly) const {
  Lowering lowering;
  lowering.configurePassManager = options.configurePassManager;
  std::string text = options.pipelineOptions;
  lowering.buildPipeline =
      [text, dataTilingOnly](PassManager &pm,
                             func::FuncOp func) -> LogicalResult {
    std::string pipelineErrors;
    llvm::raw_string_ostream errorStream(pipelineErrors);
    auto pipelineOptions = std::make_unique<GFX950PipelineOptions>();
    if (failed(pipelineOptions->parseFromString(text, errorStream)))
      return func.emitError() << "invalid mx-gfx950-pipeline options '" << text
                              << "': " << pipelineErrors;
    pipelineOptions->output = GFX950Output::GPU;
    if (dataTilingOnly)
      buildGFX950DataTilingPipeline(pm, *pipelineOptions);
    else
      buildGFX950Pipeline(pm, *pipelineOptions);
    return success();
  };
  lowering.onlyEntry = true;
  lowering.pipelineFailure = "the gfx950 pipeline (mx-gfx950-pipeline) failed "
                             "on";
  return lowering;
}

FailureOr<SmallVector<LocatedContractionOrder>>
GFX950EmulatorBackend::getContractionOrders(ModuleOp module, StringRef entry,
                                            ArrayRef<HostTensor> inputs) {
  FailureOr<LoweredEntry> tiled =
      lowerEntry(module, entry, inputs, getLowering(/*dataTilingOnly=*/true));
  if (failed(tiled))
    return failure();
  SmallVector<LocatedContractionOrder> orders;
  tiled->module->walk([&](TiledScaledMMAOp op) {
    TiledLayoutAttrInterface layout = op.getLayout();
    std::optional<int64_t> kStep = layout::getInstructionKStep(layout);
    if (!kStep)
      return;
    int64_t kTile = layout.getInnerTileSizes(OperandRole::lhs)[1];
    int64_t parts = 1;
    if (auto splitK =
            op->getAttrOfType<IntegerAttr>(MXDialect::kSplitKAttrName))
      parts = splitK.getInt();
    orders.push_back({op.getLoc(), ContractionOrder{*kStep, kTile, parts}});
  });
  return orders;
}

/// Argument #\p index of the compiled \p host (of the entry \p func, or of
/// one of its packing functions): \p input in the file format (packed
/// sub-byte elements), which is exactly the byte layout of the pipeline's
/// ABI.
static FailureOr<emu::HostValue> getHostArgument(func::FuncOp func,
                                                 func::FuncOp host,
                                                 unsigned index,
                                                 const HostTensor &input) {
  StringRef name = host.getName();
  auto type = dyn_cast<MemRefType>(host.getArgumentTypes()[index]);
  if (!type || !type.hasStaticShape())
    return func.emitError() << "argument #" << index << " of the compiled @"
                            << name << " is not a static memref";
  std::vector<uint8_t> bytes = toFileFormat(input);
  unsigned elementBits = type.getElementTypeBitWidth();
  if (int64_t(bytes.size()) * 8 != type.getNumElements() * elementBits)
    return func.emitError()
           << "argument #" << index << " of @" << name << " holds "
           << bytes.size() << " bytes, the compiled function expects " << type;
  auto buffer = std::make_shared<emu::HostBuffer>(bytes.size());
  buffer->bytes = std::move(bytes);
  return emu::HostValue::memref(buffer, type.getShape());
}

/// The arguments of the compiled \p host of the entry \p func: \p inputs,
/// except those that \p prepacks (the compiled packing functions, by
/// argument) pack: their packing functions' arguments for now (run()
/// replaces them by the packed weights).
static FailureOr<SmallVector<emu::HostValue>>
getHostArguments(func::FuncOp func, func::FuncOp host,
                 ArrayRef<HostTensor> inputs,
                 const llvm::DenseMap<unsigned, func::FuncOp> &prepacks) {
  SmallVector<emu::HostValue> args;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    func::FuncOp prepack = prepacks.lookup(index);
    FailureOr<emu::HostValue> arg =
        prepack ? getHostArgument(func, prepack, 0, input)
                : getHostArgument(func, host, index, input);
    if (failed(arg))
      return failure();
    args.push_back(std::move(*arg));
  }
  return args;
}

void GFX950EmulatorBackend::beginHostRun(StringRef header, bool isEntry) {
  if (options.launchPlan)
    *options.launchPlan << header << "\n";
}

/// Reports the launches, workgroups and MFMAs of the run of @\p name (and
/// the MFMA rate of the launches with MFMAs) through \p report.
static void reportRunStats(const std::function<void(StringRef)> &report,
                           StringRef name, const emu::HostRunStats &stats) {
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "gfx950-emu @" << name << ": " << stats.launches << " launches ("
     << stats.launchesPerKernel.size() << " kernels), " << stats.workgroups
     << " workgroups, " << stats.mfmas << " MFMAs";
  report(line);
  if (stats.mfmas) {
    line.clear();
    os << "gfx950-emu @" << name << ": the launches with MFMAs took "
       << llvm::format("%.3f", stats.mfmaLaunchSeconds) << " s: "
       << llvm::format("%.0f", double(stats.mfmas) /
                                   std::max(stats.mfmaLaunchSeconds, 1e-9))
       << " MFMAs/s";
    report(line);
  }
}

/// The results \p results of the compiled \p host as tensors of the entry
/// \p signature's result types; dynamic sizes are those of the returned
/// buffers.
static FailureOr<SmallVector<HostTensor>>
getResultTensors(const EntrySignature &signature, func::FuncOp host,
                 ArrayRef<emu::HostValue> results) {
  func::FuncOp func = signature.func;
  StringRef name = func.getName();
  SmallVector<HostTensor> tensors;
  for (auto [index, value, type] :
       llvm::enumerate(results, signature.results)) {
    auto memrefType = dyn_cast<MemRefType>(host.getResultTypes()[index]);
    if (!memrefType || value.getKind() != emu::HostValue::Kind::MemRef)
      return func.emitError() << "result #" << index << " of the compiled @"
                              << name << " is not a memref";
    unsigned elementBits = memrefType.getElementTypeBitWidth();
    std::vector<uint8_t> bytes = readBytes(value, (elementBits + 7) / 8);
    // Dynamic result sizes are those of the returned buffer (whose
    // innermost size counts bytes where fp4/fp6 codes are packed).
    HostTensorType resultType = type;
    ArrayRef<int64_t> sizes = value.getLayout().sizes;
    for (auto [d, size] : llvm::enumerate(resultType.shape)) {
      if (ShapedType::isStatic(size) || d >= sizes.size())
        continue;
      size = sizes[d];
      if (d + 1 == resultType.shape.size() &&
          isPackedInFileFormat(resultType.elementKind))
        size = size * 8 / getBitWidth(resultType.elementKind);
    }
    llvm::Expected<HostTensor> tensor = fromFileFormat(resultType, bytes);
    if (!tensor)
      return func.emitError() << "result #" << index << " of @" << name << ": "
                              << llvm::toString(tensor.takeError());
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

LogicalResult GFX950EmulatorBackend::runPrepacks(
    func::FuncOp func, func::FuncOp host,
    ArrayRef<std::pair<unsigned, func::FuncOp>> prepacks,
    MutableArrayRef<emu::HostValue> args, const emu::RunOptions &run) {
  for (auto [index, prepack] : prepacks) {
    std::string name = prepack.getName().str();
    beginHostRun(("prepack @" + name + " (argument #" + Twine(index) + " of @" +
                  func.getName() + "): once per model load")
                     .str(),
                 /*isEntry=*/false);
    emu::HostRunStats stats;
    llvm::Expected<SmallVector<emu::HostValue>> packed =
        emu::runHostFunction(prepack, args[index], &stats, run);
    if (!packed)
      return func.emitError()
             << "the " << getName() << " backend failed on @" << name << ": "
             << llvm::toString(packed.takeError());
    auto type = dyn_cast<MemRefType>(host.getArgumentTypes()[index]);
    if (packed->size() != 1 ||
        (*packed)[0].getKind() != emu::HostValue::Kind::MemRef || !type ||
        ArrayRef((*packed)[0].getLayout().sizes) != type.getShape())
      return func.emitError() << "the compiled @" << name
                              << " did not return one memref of the type of "
                                 "argument #"
                              << index << " of @" << func.getName();
    if (options.reportStats)
      reportRunStats(options.reportStats, name, stats);
    args[index] = std::move((*packed)[0]);
  }
  return success();
}

FailureOr<SmallVector<HostTensor>>
GFX950EmulatorBackend::run(ModuleOp module, StringRef entry,
                           ArrayRef<HostTensor> inputs) {
  // Compile a copy holding the entry (and what it calls) down to the level
  // the emulator runs; other functions of the file are not compiled.
  FailureOr<LoweredEntry> loweredEntry =
      lowerEntry(module, entry, inputs, getLowering(/*dataTilingOnly=*/false));
  if (failed(loweredEntry))
    return failure();
  const EntrySignature *signature = &loweredEntry->signature;
  OwningOpRef<ModuleOp> &lowered = loweredEntry->module;
  func::FuncOp func = signature->func;
  std::string name = func.getName().str();
  auto host = lowered->lookupSymbol<func::FuncOp>(name);
  if (!host || host.getNumArguments() != inputs.size() ||
      host.getNumResults() != signature->results.size())
    return func.emitError() << "the gfx950 pipeline did not keep the "
                               "signature of @"
                            << name;
  FailureOr<SmallVector<std::pair<unsigned, func::FuncOp>>> prepackList =
      getPrepackFunctions(host);
  if (failed(prepackList))
    return failure();
  llvm::DenseMap<unsigned, func::FuncOp> prepacks(prepackList->begin(),
                                                  prepackList->end());
  FailureOr<SmallVector<emu::HostValue>> args =
      getHostArguments(func, host, inputs, prepacks);
  if (failed(args))
    return failure();

  emu::RunOptions run = options.run;
  std::optional<LaunchPlanPrinter> plan;
  if (options.launchPlan) {
    plan.emplace(*options.launchPlan);
    run.onLaunch = [&](const emu::LaunchInfo &launch) {
      plan->print(launch);
      return llvm::Error::success();
    };
  }
  if (failed(prepareRun(*lowered, host, run)) ||
      failed(runPrepacks(func, host, *prepackList, *args, run)))
    return failure();
  if (!prepacks.empty())
    beginHostRun("@" + name + ": per call", /*isEntry=*/true);
  emu::HostRunStats stats;
  llvm::Expected<SmallVector<emu::HostValue>> results =
      emu::runHostFunction(host, *args, &stats, run);
  if (!results)
    return func.emitError()
           << "the " << getName() << " backend failed on @" << name << ": "
           << llvm::toString(results.takeError());
  if (failed(finishRun(host)))
    return failure();
  if (options.reportStats)
    reportRunStats(options.reportStats, name, stats);
  return getResultTensors(*signature, host, *results);
}
