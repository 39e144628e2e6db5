//===- CodeObjectLaunch.h - launching compiled gfx950 kernels ---*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the backends that run gfx950 code objects share (hip, gfx950-isa):
// the kernels of a lowered program compiled to code objects by the last
// stage of mx-gfx950-pipeline, their metadata, their kernel-argument
// layout checked against it, and the lookup of a launch's kernel. One
// source of truth for the launches: the host walk of the wave emulator
// (emu::RunOptions::executeLaunch) hands each launch to the backend.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_CODEOBJECTLAUNCH_H
#define MX_RUNNER_CODEOBJECTLAUNCH_H

#include "mx/Runner/ExecutionBackend.h"
#include "mx/Runner/HIPCodeObject.h"

#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir::mx {

/// A kernel of a compiled code object.
struct CompiledKernel {
  hip::KernelMetadata metadata;
  SmallVector<hip::KernargSlot> slots;
  uint64_t explicitBytes = 0;
  /// The backend's handle of the loaded kernel (the HIP runtime's
  /// function), if any.
  void *handle = nullptr;
  /// MFMA FLOPs of one workgroup (2 M N K per wave-level instruction),
  /// or nullopt where a loop's trip count is not a constant.
  std::optional<double> workgroupFlops;
  int64_t workgroupMFMAs = 0;
};

/// One code object (one gpu.module of the program).
struct CompiledCodeObject {
  std::string image;
  /// The backend's handle of the loaded code object, if any.
  void *handle = nullptr;
  llvm::StringMap<CompiledKernel> kernels;
};

/// Compiles the kernels of \p lowered (mx-gfx950-pipeline output=gpu) to
/// code objects with \p options' pipeline options, reads their metadata
/// and lays out the kernel arguments of every kernel, checked against its
/// code object, into \p objects (keyed by gpu.module name). Emits an error
/// at \p host and fails on a problem.
LogicalResult compileCodeObjects(ModuleOp lowered, func::FuncOp host,
                                 const GFX950EmulatorBackend::Options &options,
                                 llvm::StringMap<CompiledCodeObject> &objects);

/// The kernel that \p launch runs, in \p objects, with its MFMA work for
/// the launch's block size counted.
llvm::Expected<CompiledKernel *>
lookupKernel(llvm::StringMap<CompiledCodeObject> &objects,
             const emu::LaunchInfo &launch);

/// The bytes that the memref arguments of \p launch view, each buffer once.
double getLaunchBytes(const emu::LaunchInfo &launch);

} // namespace mlir::mx

#endif // MX_RUNNER_CODEOBJECTLAUNCH_H
