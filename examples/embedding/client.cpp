//===- client.cpp - an mx C++ API client ----------------------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Usage: mx-embed-cpp GEMM.mlir
//
// Compiles a tensor-level mx program twice with mx::buildGFX950Pipeline:
// to gfx950 assembly, whose kernel report it prints, and to code objects
// (ld.lld found at run time), whose ELF headers it checks. Exits 1 on any
// failure.
//
//===----------------------------------------------------------------------===//

#include "mx/InitMX.h"
#include "mx/Pipelines/Pipelines.h"
#include "mx/Target/GFX950/Codegen/KernelReport.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Parses `path` and runs mx-gfx950-pipeline with `output` on it.
static OwningOpRef<ModuleOp> compile(MLIRContext &context, StringRef path,
                                     mx::GFX950Output output) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &context);
  if (!module)
    return nullptr;
  PassManager pm(&context);
  mx::GFX950PipelineOptions options;
  options.output = output;
  mx::buildGFX950Pipeline(pm, options);
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: " << argv[0] << " GEMM.mlir\n";
    return 1;
  }
  DialectRegistry registry;
  mx::registerMXDialects(registry);
  mx::registerPipelineDialects(registry);
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> isa = compile(context, argv[1], mx::GFX950Output::ISA);
  if (!isa || failed(mx::gfx950::printGPUBinariesReport(*isa, llvm::outs())))
    return 1;

  OwningOpRef<ModuleOp> hsaco =
      compile(context, argv[1], mx::GFX950Output::HSACO);
  if (!hsaco)
    return 1;
  int objects = 0;
  bool allELF = true;
  hsaco->walk([&](gpu::BinaryOp binary) {
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      StringRef bytes = object.getObject().getValue();
      bool elf = object.getFormat() == gpu::CompilationTarget::Binary &&
                 bytes.starts_with("\x7f"
                                   "ELF");
      llvm::outs() << "code object @" << binary.getName() << ": "
                   << bytes.size() << " bytes"
                   << (elf ? "" : " (not an ELF code object)") << "\n";
      allELF &= elf;
      ++objects;
    }
  });
  return objects > 0 && allELF ? 0 : 1;
}
