//===- GFX950ISABackend.h - mx-run --backend=gfx950-isa ---------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs a program's kernels as the code objects LLVM's AMDGPU backend makes
// of them (mx-gfx950-pipeline output=hsaco), on the gfx950 ISA executor
// (mx/Target/GFX950/ISA/Executor.h): the same host walk and launch plan as
// the gfx950-emu and hip backends, each launch's kernel arguments laid out
// from its code object's metadata as the hip backend lays them out.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_GFX950ISABACKEND_H
#define MX_RUNNER_GFX950ISABACKEND_H

#include "mx/Runner/ExecutionBackend.h"
#include "mx/Target/GFX950/ISA/TimingModel.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir::mx {

class GFX950ISABackend : public GFX950EmulatorBackend {
public:
  struct ISAOptions {
    /// Check the ISA's required wait states between instructions.
    bool checkHazards = true;
    /// Receives one line per run: launches, waves, instructions, MFMAs.
    std::function<void(StringRef)> reportStats;
    /// Code objects to run instead of the compiled ones, by gpu.module name
    /// (e.g. a compiled kernel's assembly edited and reassembled: the
    /// mutation tests). Their kernels must take the same arguments.
    std::vector<std::pair<std::string, std::string>> codeObjectFiles;
    /// The timing mode (mx/Target/GFX950/ISA/TimingModel.h): each launch's
    /// first CU's workgroups are timed with `machine`'s constants and the
    /// report (scaled to the launch's grid) goes to `reportTiming`.
    bool timing = false;
    gfx950::isa::MachineModel machine;
    std::function<void(const gfx950::isa::TimingReport &)> reportTiming;
  };

  GFX950ISABackend(const GFX950EmulatorBackend::Options &compile,
                   const ISAOptions &isaOptions);
  ~GFX950ISABackend() override;

  StringRef getName() const override { return "gfx950-isa"; }

  FailureOr<SmallVector<HostTensor>> run(ModuleOp module, StringRef entry,
                                         ArrayRef<HostTensor> inputs) override;

protected:
  LogicalResult prepareRun(ModuleOp lowered, func::FuncOp host,
                           emu::RunOptions &run) override;
  LogicalResult finishRun(func::FuncOp host) override;

private:
  ISAOptions isaOptions;
  struct State;
  std::unique_ptr<State> state;
};

} // namespace mlir::mx

#endif // MX_RUNNER_GFX950ISABACKEND_H
