//===- ExecutionBackend.h - executing mx programs on the host ---*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An ExecutionBackend runs one function of a tensor-level MLIR module on
// HostTensor arguments and returns its HostTensor results. Backends report
// problems as MLIR diagnostics on the module's context and return failure.
//
//===----------------------------------------------------------------------===//

#ifndef MX_RUNNER_EXECUTIONBACKEND_H
#define MX_RUNNER_EXECUTIONBACKEND_H

#include "mx/Emulator/WaveEmulator.h"
#include "mx/Runner/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <functional>
#include <memory>
#include <string>

namespace mlir {
class PassManager;

namespace mx {

/// An argument of an entry function that takes a weight packed once by
/// another function of the module (`mx.prepacked_by`, made by
/// mx-hoist-argument-relayouts): callers pass the logical weight, and the
/// backend runs the packing function on it before the entry.
struct PrepackedArgument {
  unsigned argument = 0;
  /// The packing function: one argument (the logical weight), one result.
  std::string function;
  /// The type the entry itself takes (the packing function's result).
  HostTensorType packed;
};

/// The entry function of a run and the types of its arguments and results.
/// `arguments` are what callers pass: a prepacked argument's logical type
/// (the packing function's argument type).
struct EntrySignature {
  func::FuncOp func;
  SmallVector<HostTensorType> arguments;
  SmallVector<HostTensorType> results;
  SmallVector<PrepackedArgument> prepacked;

  /// The types the entry function itself takes: `arguments` with each
  /// prepacked argument's packed type.
  SmallVector<HostTensorType> getCalleeArguments() const;
};

/// Looks up the entry function \p entry in \p module; an empty name selects
/// the module's only function definition. Every argument and result must be
/// a ranked tensor of a supported element type (HostTensor.h); arguments must
/// have static shapes. An argument with `mx.prepacked_by` must name a
/// function definition of the module taking one tensor and returning the
/// argument's type. Emits an error (listing the available functions when
/// the name is unknown) and fails otherwise.
FailureOr<EntrySignature> getEntrySignature(ModuleOp module, StringRef entry);

/// The packing function of every argument of \p func (a function of any
/// level, e.g. a compiled host function) that has `mx.prepacked_by`, in
/// argument order; emits an error at \p func and fails when one names no
/// function definition of the enclosing module taking one argument and
/// returning one result.
FailureOr<SmallVector<std::pair<unsigned, func::FuncOp>>>
getPrepackFunctions(func::FuncOp func);

/// Checks that \p inputs match the argument types of \p signature; emits an
/// error at the function's location otherwise.
LogicalResult verifyInputs(const EntrySignature &signature,
                           ArrayRef<HostTensor> inputs);

/// How a backend's kernel accumulates one scaled contraction along K: in f32,
/// starting from the accumulator input, with one rounding per matrix
/// instruction; instruction t takes the K values [t kStep, (t + 1) kStep) in
/// increasing t, K being padded with zero products to a multiple of kTile;
/// with `parts` > 1 (split-K, mx-split-k) the padded K is cut into that many
/// equal parts, each accumulated from +0, and the parts are added to the
/// accumulator in increasing K. (Where partial sums of one output are
/// combined in an order the kernel does not fix, e.g. split-K with atomics,
/// there is no ContractionOrder.)
struct ContractionOrder {
  int64_t kStep = 0;
  int64_t kTile = 0;
  int64_t parts = 1;
};

/// A scaled contraction a backend compiles, with its K order: \p loc is the
/// location of the contraction in the module given to getContractionOrders.
struct LocatedContractionOrder {
  Location loc;
  ContractionOrder order;
};

/// The default memory budget of a run (`mx-run --max-memory`): the most
/// bytes one buffer (a tensor or memref value: argument, result or
/// intermediate) may take, 16 GiB.
constexpr uint64_t kDefaultMemoryBudget = uint64_t(1) << 34;

/// Checks every statically shaped tensor and memref value of \p root (block
/// arguments and op results, the intermediates included) against \p budget
/// bytes, counting sub-byte elements as packed bits, with overflow-safe
/// arithmetic. Emits an error at the first value over it (which op makes it,
/// its type and size) and fails.
LogicalResult checkMemoryBudget(Operation *root, uint64_t budget);

/// Fails with an error naming the cycle when a function of \p module reaches
/// itself through `func.call`: such a program has no bounded run to offer
/// (without a base case it never ends, and the JIT turns it into a loop), so
/// mx-run refuses it instead of hanging.
LogicalResult checkNoRecursion(ModuleOp module);

/// Runs a function of a tensor-level module.
class ExecutionBackend {
public:
  virtual ~ExecutionBackend();

  /// The most bytes one buffer of the compiled program may take; the
  /// lowered program is checked with checkMemoryBudget before it runs.
  void setMemoryBudget(uint64_t bytes) { memoryBudget = bytes; }

  /// The name used by `mx-run --backend=`.
  virtual StringRef getName() const = 0;

  /// Runs \p entry of \p module on \p inputs (one per argument, of the
  /// argument types). \p module is left unchanged.
  virtual FailureOr<SmallVector<HostTensor>>
  run(ModuleOp module, StringRef entry, ArrayRef<HostTensor> inputs) = 0;

  /// Returns the K order of the scaled contractions of \p entry whose order
  /// the backend knows (none by default), for a run of run() on the same
  /// module and inputs.
  virtual FailureOr<SmallVector<LocatedContractionOrder>>
  getContractionOrders(ModuleOp module, StringRef entry,
                       ArrayRef<HostTensor> inputs) {
    return SmallVector<LocatedContractionOrder>();
  }

protected:
  /// How a backend compiles the module it runs (see lowerEntry).
  struct Lowering {
    /// Called on the pass manager before the pipeline (e.g. command-line IR
    /// printing options); may be empty. A failure aborts the run.
    std::function<LogicalResult(PassManager &)> configurePassManager;
    /// Adds the backend's pipeline to the pass manager; may emit an error at
    /// the entry function (e.g. invalid pipeline options) and fail.
    std::function<LogicalResult(PassManager &, func::FuncOp entry)>
        buildPipeline;
    /// Compile only the entry and the functions it uses: other functions of
    /// the copy are erased first.
    bool onlyEntry = false;
    /// The error when the pipeline fails, completed by " the module
    /// containing @<entry>".
    std::string pipelineFailure;
  };

  /// The entry of a run and the lowered copy of its module.
  struct LoweredEntry {
    EntrySignature signature;
    OwningOpRef<ModuleOp> module;
  };

  /// The common start of run(): looks up \p entry in \p module
  /// (getEntrySignature), checks \p inputs against it (verifyInputs) and
  /// compiles a copy of \p module as \p lowering says. Emits the error and
  /// fails on any problem; \p module is left unchanged.
  FailureOr<LoweredEntry> lowerEntry(ModuleOp module, StringRef entry,
                                     ArrayRef<HostTensor> inputs,
                                     const Lowering &lowering) const;

  uint64_t memoryBudget = kDefaultMemoryBudget;
};

/// No compilation: the entry evaluated by the reference evaluator
/// (evaluateReference, rounding once), for checking the reference itself, or
/// a program that no backend compiles yet, against known answers (--expect).
class ReferenceBackend : public ExecutionBackend {
public:
  StringRef getName() const override { return "reference"; }
  FailureOr<SmallVector<HostTensor>> run(ModuleOp module, StringRef entry,
                                         ArrayRef<HostTensor> inputs) override;
};

/// Lowers the module with mx::buildCPUPipeline to the LLVM dialect,
/// JIT-compiles it with mlir::ExecutionEngine for the host and calls the
/// entry through its packed interface (every memref descriptor field is one
/// packed argument; the results come back as a struct of descriptors).
class CPUBackend : public ExecutionBackend {
public:
  struct Options {
    /// LLVM optimization level of the JIT-compiled code (0-3).
    unsigned optLevel = 2;
    /// Called on the pass manager before the pipeline runs (e.g. to apply
    /// command-line IR printing options); a failure aborts the run.
    std::function<LogicalResult(PassManager &)> configurePassManager;
  };

  CPUBackend() = default;
  explicit CPUBackend(const Options &options) : options(options) {}

  StringRef getName() const override { return "cpu"; }
  FailureOr<SmallVector<HostTensor>> run(ModuleOp module, StringRef entry,
                                         ArrayRef<HostTensor> inputs) override;

private:
  Options options;
};

/// Compiles the module with mx::buildGFX950Pipeline (output=gpu: host
/// function with gpu.launch_func, gfx950 kernels with specialized ukernels)
/// and executes the entry's host function on the gfx950 wave emulator
/// (mx/Emulator/WaveEmulator.h). MX arguments go in as the bytes the
/// pipeline's ABI expects (`mx.packed_type`: fp4/fp6 packed, fp8 and E8M0 one
/// byte per element); results come back the same way.
class GFX950EmulatorBackend : public ExecutionBackend {
public:
  struct Options {
    /// Options of mx-gfx950-pipeline, in its textual form (e.g.
    /// "intrinsic=32x32x64 intrinsics-m=2"); `output` is always `gpu`.
    std::string pipelineOptions;
    /// Called on the pass manager before the pipeline runs.
    std::function<LogicalResult(PassManager &)> configurePassManager;
    /// If set, receives one line per run: launches, workgroups, MFMAs.
    std::function<void(StringRef)> reportStats;
    /// How the emulator runs the launches: host threads per launch
    /// (default 1) and a progress callback.
    emu::RunOptions run;
    /// If set, receives the launch plan (mx/Runner/LaunchPlan.h): each
    /// launch as it is about to execute.
    llvm::raw_ostream *launchPlan = nullptr;
  };

  GFX950EmulatorBackend() = default;
  explicit GFX950EmulatorBackend(const Options &options) : options(options) {}

  StringRef getName() const override { return "gfx950-emu"; }
  FailureOr<SmallVector<HostTensor>> run(ModuleOp module, StringRef entry,
                                         ArrayRef<HostTensor> inputs) override;
  /// Every mx.tiled_scaled_mma that data tiling (the first stage of the
  /// pipeline, buildGFX950DataTilingPipeline) makes of the entry, at its
  /// location: the ukernel (ukernels/gfx950/mx_uk_scaled_mma.mlir) walks
  /// the K tiles in increasing order and, within a K tile, the K unroll in
  /// increasing order, each MFMA adding its products to the accumulators in
  /// registers, so the order is the layout's (kStep: one instruction's K,
  /// layout::getInstructionKStep; kTile: the tile's K; parts: the op's
  /// mx.split_k, whose parts an ordered reduction adds). A layout whose
  /// instructions take K values that are not consecutive is left out.
  FailureOr<SmallVector<LocatedContractionOrder>>
  getContractionOrders(ModuleOp module, StringRef entry,
                       ArrayRef<HostTensor> inputs) override;

protected:
  /// The lowering of the entry (and what it calls) by the pipeline of
  /// `options`, or by its first stage only when \p dataTilingOnly.
  Lowering getLowering(bool dataTilingOnly) const;

  /// Called with the compiled module (output=gpu) and its host function
  /// \p host before the host function runs with \p run; a subclass may
  /// execute the launches elsewhere (emu::RunOptions::executeLaunch). Emits
  /// an error at \p host and fails on a problem.
  virtual LogicalResult prepareRun(ModuleOp lowered, func::FuncOp host,
                                   emu::RunOptions &run) {
    return success();
  }
  /// Called after the host function ran; emits an error and fails on a
  /// problem.
  virtual LogicalResult finishRun(func::FuncOp host) { return success(); }
  /// Called, when the entry has prepacked arguments, before each compiled
  /// host function runs: the packing functions (once per model load), then
  /// the entry (\p isEntry, the per-call program). \p header says which
  /// (e.g. "prepack @f_prepack_1 (argument #1 of @f): once per model load");
  /// the emulator prints it to the launch plan.
  virtual void beginHostRun(StringRef header, bool isEntry);

  /// Runs the compiled packing functions \p prepacks (by argument of the
  /// entry \p func, compiled as \p host) on their arguments in \p args with
  /// \p run, replacing each by the packed weight; emits an error and fails
  /// on a problem.
  LogicalResult
  runPrepacks(func::FuncOp func, func::FuncOp host,
              ArrayRef<std::pair<unsigned, func::FuncOp>> prepacks,
              MutableArrayRef<emu::HostValue> args, const emu::RunOptions &run);

  Options options;
};

/// Names of the available backends, default first.
ArrayRef<StringRef> getExecutionBackendNames();

/// Creates the backend called \p name; null if there is none.
std::unique_ptr<ExecutionBackend> createExecutionBackend(StringRef name);

} // namespace mx
} // namespace mlir

#endif // MX_RUNNER_EXECUTIONBACKEND_H
