//===- CodeObjectLaunch.cpp - launching compiled gfx950 kernels -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Runner/CodeObjectLaunch.h"

#include "mx/Pipelines/Pipelines.h"
#include "mx/Runner/LaunchPlan.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::mx;

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

double mlir::mx::getLaunchBytes(const emu::LaunchInfo &launch) {
  double bytes = 0;
  for (unsigned operand = 0; operand < launch.args.size(); ++operand)
    bytes += double(getViewBytes(launch, operand));
  return bytes;
}

/// Compiles the kernels of \p lowered to gfx950 code objects: the last stage
/// of mx-gfx950-pipeline (output=hsaco) on a copy.
static FailureOr<OwningOpRef<ModuleOp>>
compileToBinaries(ModuleOp lowered, func::FuncOp host,
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
static LogicalResult
readCodeObjects(ModuleOp codegen, func::FuncOp host,
                llvm::StringMap<CompiledCodeObject> &objects) {
  for (auto binary : codegen.getOps<gpu::BinaryOp>()) {
    auto binaryObjects = binary.getObjects();
    auto object = binaryObjects.empty()
                      ? gpu::ObjectAttr()
                      : dyn_cast<gpu::ObjectAttr>(binaryObjects[0]);
    if (!object || object.getFormat() != gpu::CompilationTarget::Binary)
      return host.emitError()
             << "gpu.binary @" << binary.getName() << " holds no code object";
    CompiledCodeObject &codeObject = objects[binary.getName()];
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
static LogicalResult
layOutKernargs(ModuleOp lowered, func::FuncOp host,
               llvm::StringMap<CompiledCodeObject> &objects) {
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
llvm::Expected<CompiledKernel *>
mlir::mx::lookupKernel(llvm::StringMap<CompiledCodeObject> &objects,
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
  CompiledKernel &info = kernel->second;
  std::tie(info.workgroupFlops, info.workgroupMFMAs) = countWorkgroupMFMAs(
      launch.kernel, launch.block[0] * launch.block[1] * launch.block[2]);
  return &info;
}

LogicalResult
mlir::mx::compileCodeObjects(ModuleOp lowered, func::FuncOp host,
                             const GFX950EmulatorBackend::Options &options,
                             llvm::StringMap<CompiledCodeObject> &objects) {
  FailureOr<OwningOpRef<ModuleOp>> codegen =
      compileToBinaries(lowered, host, options);
  if (failed(codegen) || failed(readCodeObjects(**codegen, host, objects)) ||
      failed(layOutKernargs(lowered, host, objects)))
    return failure();
  return success();
}
