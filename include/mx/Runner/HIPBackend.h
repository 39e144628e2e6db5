//===- HIPBackend.h - mx-run --backend=hip ----------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs a program on a gfx950 GPU through the HIP runtime, compiled exactly
// as the gfx950 emulator backend compiles it and launched exactly as the
// emulator launches it:
//
//  - the module goes through mx-gfx950-pipeline to output=gpu (the
//    emulator's input), then a copy through the last stage of the pipeline
//    (buildGFX950KernelCodegenPipeline) to one linked code object per
//    gpu.module;
//  - the host function runs in the emulator's host interpreter
//    (emu::runHostFunction), which evaluates the host operations and every
//    launch's grid, block and arguments; each launch executes on the GPU
//    (emu::RunOptions::executeLaunch) instead of the emulator: the memref
//    arguments' buffers are copied to device buffers (one per host buffer,
//    allocated at first use), the explicit kernel arguments packed as the
//    code object's metadata says (mx/Runner/HIPCodeObject.h, checked for
//    every kernel before anything runs), the kernel launched with
//    hipModuleLaunchKernel and the buffers copied back;
//  - with `repeat`, every launch is then replayed on the device buffers
//    and timed with HIP events (after `warmup` untimed launches), and the
//    whole sequence end to end.
//
// The runtime (libamdhip64.so) is loaded with dlopen when a run needs it
// (lib/Runner/HIPRuntime.h); `dryRun` prints the launch plan
// (mx/Runner/LaunchPlan.h, the emulator's format, plus each launch's code
// object facts and kernarg layout) and needs no runtime.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_HIPBACKEND_H
#define MX_RUNNER_HIPBACKEND_H

#include "mx/Runner/ExecutionBackend.h"

#include <memory>

namespace mlir::mx {

/// The measured time of one launch of a run, or of the whole run (`index`
/// -1), over `repeat` timed repetitions.
struct HIPTiming {
  int64_t index = -1;
  /// "@module::@kernel", or "end to end".
  std::string what;
  std::array<int64_t, 3> grid = {0, 0, 0};
  std::array<int64_t, 3> block = {0, 0, 0};
  /// Seconds: the fastest, median and slowest repetition.
  double minSeconds = 0, medianSeconds = 0, maxSeconds = 0;
  /// Floating-point operations of the launch (MFMA work: 2 M N K per
  /// matrix instruction executed, counted statically from the kernel), or
  /// of the program's contractions (2 M N K each) end to end; 0 if unknown.
  double flops = 0;
  /// Bytes of the launch's memref views (each counted once), or of the
  /// entry's arguments and results end to end.
  double bytes = 0;
};

/// Prints \p timing as one line of the bench format: "hip-timing {json}"
/// with the fields of HIPTiming plus tflops and gbps (at the median).
void printHIPTiming(llvm::raw_ostream &os, StringRef entry,
                    const HIPTiming &timing, int64_t repeat);

class HIPBackend : public GFX950EmulatorBackend {
public:
  struct HIPOptions {
    /// The HIP runtime library to load (default: $MX_HIP_LIBRARY, then
    /// libamdhip64.so from the usual places).
    std::string library;
    /// Print the launch plan to `planStream` (default stdout) instead of
    /// running; no runtime is loaded.
    bool dryRun = false;
    llvm::raw_ostream *planStream = nullptr;
    /// Timed repetitions of every launch and of the whole program (0: no
    /// timing), after `warmup` untimed ones.
    unsigned repeat = 0;
    unsigned warmup = 1;
    /// Receives the entry's name and the timings of a run with repeat > 0.
    std::function<void(StringRef, ArrayRef<HIPTiming>)> reportTimings;
  };

  HIPBackend(const GFX950EmulatorBackend::Options &compile,
             const HIPOptions &hipOptions);
  ~HIPBackend() override;

  StringRef getName() const override { return "hip"; }

  FailureOr<SmallVector<HostTensor>> run(ModuleOp module, StringRef entry,
                                         ArrayRef<HostTensor> inputs) override;

protected:
  LogicalResult prepareRun(ModuleOp lowered, func::FuncOp host,
                           emu::RunOptions &run) override;
  LogicalResult finishRun(func::FuncOp host) override;
  /// Prints \p header to the plan of a dry run; the launches of the packing
  /// functions are not timed with the entry's.
  void beginHostRun(StringRef header, bool isEntry) override;

private:
  HIPOptions hipOptions;
  struct State;
  std::unique_ptr<State> state;
};

} // namespace mlir::mx

#endif // MX_RUNNER_HIPBACKEND_H
