//===- LinkCodeObjects.cpp - mx-gfx950-link-code-objects ------------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Assembles the gfx950 assembly of gpu.binary objects and links it into code
// objects with an ld.lld found when the pass runs (upstream's
// gpu-module-to-binary{format=bin} only runs <toolkit>/llvm/bin/ld.lld, a
// path fixed when the pipeline is built, and reports a missing linker as
// "lld invocation failed").
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/Transforms/Passes.h"
#include "mx/Transforms/Parallel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVM/ROCDL/Utils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950LINKCODEOBJECTS
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;

/// Finds ld.lld as the pass description says; on failure, `searched` lists
/// the places looked in.
static std::optional<std::string>
findLLD(StringRef explicitPath, SmallVectorImpl<std::string> &searched) {
  if (!explicitPath.empty()) {
    searched.push_back(explicitPath.str());
    if (llvm::sys::fs::can_execute(explicitPath))
      return explicitPath.str();
    return std::nullopt;
  }
  SmallString<128> nextToTools(MX_LLVM_TOOLS_DIR);
  llvm::sys::path::append(nextToTools, "ld.lld");
  searched.push_back(nextToTools.str().str());
  if (llvm::sys::fs::can_execute(nextToTools))
    return nextToTools.str().str();
  for (StringRef name : {"ld.lld-" MX_LLVM_VERSION_MAJOR, "ld.lld"}) {
    searched.push_back((name + " on PATH").str());
    if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName(name))
      return *onPath;
  }
  return std::nullopt;
}

/// Links the relocatable object `object` into a shared code object with
/// `lld`; errors (lld's messages included) go to `binary`.
static FailureOr<std::string> link(gpu::BinaryOp binary, StringRef lld,
                                   ArrayRef<char> object) {
  SmallString<128> objectPath, hsacoPath, errorsPath;
  int objectFd;
  if (llvm::sys::fs::createTemporaryFile("mx-kernel", "o", objectFd,
                                         objectPath) ||
      llvm::sys::fs::createTemporaryFile("mx-kernel", "hsaco", hsacoPath) ||
      llvm::sys::fs::createTemporaryFile("mx-lld", "txt", errorsPath)) {
    return binary.emitError("cannot create the temporary files of the link");
  }
  llvm::FileRemover removeObject(objectPath), removeHsaco(hsacoPath),
      removeErrors(errorsPath);
  {
    llvm::raw_fd_ostream os(objectFd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
  }
  std::optional<StringRef> redirects[] = {std::nullopt, errorsPath.str(),
                                          errorsPath.str()};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(
      lld, {"ld.lld", "-shared", objectPath, "-o", hsacoPath},
      /*Env=*/std::nullopt, redirects, /*SecondsToWait=*/0,
      /*MemoryLimit=*/0, &message);
  if (status != 0) {
    InFlightDiagnostic diag =
        binary.emitError() << "linking the code object of @" << binary.getName()
                           << " with " << lld << " failed";
    if (!message.empty())
      diag << ": " << message;
    if (auto errors = llvm::MemoryBuffer::getFile(errorsPath))
      if (!(*errors)->getBuffer().trim().empty())
        diag << "\n" << (*errors)->getBuffer().trim();
    return failure();
  }
  auto hsaco = llvm::MemoryBuffer::getFile(hsacoPath, /*IsText=*/false);
  if (!hsaco)
    return binary.emitError("cannot read the linked code object");
  return (*hsaco)->getBuffer().str();
}

namespace {
/// One assembly object of a gpu.binary, and the code object it links into.
struct Link {
  gpu::BinaryOp binary;
  unsigned index;
  gpu::ObjectAttr object;
  std::string hsaco;
};

/// Assembles `item.object` and links it with `lld` into `item.hsaco`;
/// reports at the binary what fails. Touches no IR, so that objects may be
/// linked in parallel.
static LogicalResult assembleAndLink(Link &item, StringRef lld) {
  auto target = cast<ROCDL::ROCDLTargetAttr>(item.object.getTarget());
  FailureOr<SmallVector<char, 0>> relocatable = ROCDL::assembleIsa(
      item.object.getObject().getValue(), target.getTriple(), target.getChip(),
      target.getFeatures(), [&]() { return item.binary.emitError(); });
  if (failed(relocatable))
    return failure();
  FailureOr<std::string> hsaco = link(item.binary, lld, *relocatable);
  if (failed(hsaco))
    return failure();
  item.hsaco = std::move(*hsaco);
  return success();
}

struct LinkCodeObjectsPass
    : public mx::gfx950::impl::MXGFX950LinkCodeObjectsBase<
          LinkCodeObjectsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::vector<Link> work;
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (auto [index, attr] : llvm::enumerate(binary.getObjects())) {
        auto object = cast<gpu::ObjectAttr>(attr);
        if (object.getFormat() == gpu::CompilationTarget::Assembly &&
            isa<ROCDL::ROCDLTargetAttr>(object.getTarget()))
          work.push_back({binary, unsigned(index), object, {}});
      }
    });
    if (work.empty())
      return;
    SmallVector<std::string> searched;
    std::optional<std::string> lldPath = findLLD(lld, searched);
    if (!lldPath) {
      work.front().binary.emitError()
          << "cannot link gfx950 code objects: ld.lld not found (looked for "
          << llvm::join(searched, ", ")
          << "); install lld (Debian: lld-" MX_LLVM_VERSION_MAJOR
             ") or give its path with the lld option";
      return signalPassFailure();
    }

    // Assemble and link in parallel (each link is an lld process);
    // diagnostics in the objects' order.
    if (failed(mx::parallelForEachOrdered(
            &getContext(), work.size(),
            [&](size_t i) { return assembleAndLink(work[i], *lldPath); })))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    for (Link &item : work) {
      SmallVector<Attribute> objects(item.binary.getObjects().getValue());
      objects[item.index] = gpu::ObjectAttr::get(
          ctx, item.object.getTarget(), gpu::CompilationTarget::Binary,
          StringAttr::get(ctx, item.hsaco), item.object.getProperties(),
          item.object.getKernels());
      item.binary.setObjectsAttr(ArrayAttr::get(ctx, objects));
    }
  }
};
} // namespace
