//===- GPUModulesToBinaries.cpp - mx-gpu-modules-to-binaries --------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Transforms/Parallel.h"
#include "mx/Transforms/Passes.h"
#include "mx/Transforms/Transforms.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::mx {
#define GEN_PASS_DEF_MXGPUMODULESTOBINARIES
#include "mx/Transforms/Passes.h.inc"
} // namespace mlir::mx

using namespace mlir;

namespace {
/// One gpu.module and the serialized form of it for each of its targets.
struct Serialization {
  gpu::GPUModuleOp module;
  SmallVector<SmallVector<char, 0>> objects;
};

/// Serializes `work.module` for each of its targets into `work.objects`;
/// reports at the module what fails. Reads the module only, so that modules
/// may be serialized in parallel.
static LogicalResult serialize(Serialization &work,
                               const gpu::TargetOptions &options) {
  ArrayAttr targets = work.module.getTargetsAttr();
  if (!targets || targets.empty())
    return work.module.emitError(
        "cannot serialize a gpu.module without target attributes");
  for (Attribute attr : targets) {
    auto target = dyn_cast<gpu::TargetAttrInterface>(attr);
    if (!target)
      return work.module.emitError()
             << "target " << attr << " cannot serialize a gpu.module";
    std::optional<SmallVector<char, 0>> object =
        target.serializeToObject(work.module, options);
    if (!object)
      return work.module.emitError()
             << "serializing the module for " << attr << " failed";
    work.objects.push_back(std::move(*object));
  }
  return success();
}

} // namespace

/// Replaces `item.module` by a gpu.binary of its serialized objects.
static LogicalResult replaceByBinary(Serialization &item,
                                     const gpu::TargetOptions &options) {
  gpu::GPUModuleOp module = item.module;
  SmallVector<Attribute> objects;
  for (auto [attr, object] :
       llvm::zip_equal(module.getTargetsAttr(), item.objects)) {
    Attribute created = cast<gpu::TargetAttrInterface>(attr).createObject(
        module, object, options);
    if (!created)
      return module.emitError()
             << "creating the object for " << attr << " failed";
    objects.push_back(created);
  }
  OpBuilder builder(module);
  gpu::BinaryOp::create(
      builder, module.getLoc(), module.getName(),
      dyn_cast_or_null<gpu::OffloadingLLVMTranslationAttrInterface>(
          module.getOffloadingHandlerAttr()),
      builder.getArrayAttr(objects));
  module->erase();
  return success();
}

LogicalResult
mx::serializeGPUModulesToBinaries(Operation *op,
                                  gpu::CompilationTarget compilationTarget) {
  std::vector<Serialization> work;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (auto module : block.getOps<gpu::GPUModuleOp>())
        work.push_back({module, {}});
  if (work.empty())
    return success();

  // The symbol table of the enclosing op, built when a target asks for it
  // (before the parallel part: building it walks the op).
  SymbolTable *symbolTable = nullptr;
  std::optional<SymbolTable> table;
  if (Operation *tableOp = SymbolTable::getNearestSymbolTable(op))
    symbolTable = &table.emplace(tableOp);
  auto getSymbolTable = [symbolTable] { return symbolTable; };
  gpu::TargetOptions options(/*toolkitPath=*/{}, /*librariesToLink=*/{},
                             /*cmdOptions=*/{}, /*elfSection=*/{},
                             compilationTarget, getSymbolTable);

  // Serialize in parallel; diagnostics in the modules' order.
  if (failed(mx::parallelForEachOrdered(
          op->getContext(), work.size(),
          [&](size_t i) { return serialize(work[i], options); })))
    return failure();

  // The binaries, in order, in the modules' places.
  for (Serialization &item : work)
    if (failed(replaceByBinary(item, options)))
      return failure();
  return success();
}

std::optional<gpu::CompilationTarget>
mx::parseCompilationTarget(StringRef format) {
  return llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(format)
      .Case("isa", gpu::CompilationTarget::Assembly)
      .Case("bin", gpu::CompilationTarget::Binary)
      .Case("llvm", gpu::CompilationTarget::Offload)
      .Case("fatbin", gpu::CompilationTarget::Fatbin)
      .Default(std::nullopt);
}

namespace {
struct GPUModulesToBinariesPass
    : public mx::impl::MXGPUModulesToBinariesBase<GPUModulesToBinariesPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<gpu::CompilationTarget> compilationTarget =
        mx::parseCompilationTarget(format);
    if (!compilationTarget) {
      getOperation()->emitError()
          << "mx-gpu-modules-to-binaries: format must be isa, bin, llvm or "
             "fatbin, got '"
          << format << "'";
      return signalPassFailure();
    }
    if (failed(mx::serializeGPUModulesToBinaries(getOperation(),
                                                 *compilationTarget)))
      return signalPassFailure();
  }
};
} // namespace
