//===- Runner.cpp - C API of running mx programs on the host --------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A thin layer over the runner library (mx/Runner): the backends, the
// reference comparison and the launch plan are the ones mx-run drives.
//
//===----------------------------------------------------------------------===//

#include "mx-c/Runner.h"
#include "PipelineOptions.h"

#include "mx/Runner/Compare.h"
#include "mx/Runner/ExecutionBackend.h"
#include "mx/Runner/GFX950ISABackend.h"
#include "mx/Runner/HIPBackend.h"
#include "mx/Runner/RunReference.h"
#include "mx/Runner/TensorIO.h"
#include "mx/Target/GFX950/UKernels/UKernels.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::mx;

static_assert(MX_DYNAMIC_SIZE == ShapedType::kDynamic,
              "MX_DYNAMIC_SIZE must be MLIR's dynamic size");

namespace {
/// The strings and shape an MxTensorType points into.
struct WrappedTypeStorage {
  std::string type;
  SmallVector<int64_t> shape;
  MxTensorType get(const HostTensorType &hostType) {
    type = hostType.str();
    shape.assign(hostType.shape.begin(), hostType.shape.end());
    MxTensorType result;
    result.type = wrap(StringRef(type));
    result.elementType = wrap(getElementKindName(hostType.elementKind));
    result.elementBits = getBitWidth(hostType.elementKind);
    result.rank = static_cast<intptr_t>(shape.size());
    result.shape = shape.data();
    result.numBytes = hostType.hasStaticShape() ? hostType.getFileSize() : -1;
    return result;
  }
};
} // namespace

MlirLogicalResult mxForEachEntryType(MlirModule module, MlirStringRef entry,
                                     MxTensorTypeCallback callback,
                                     void *userData) {
  if (mlirModuleIsNull(module) || !callback || (entry.length && !entry.data))
    return mlirLogicalResultFailure();
  FailureOr<EntrySignature> signature =
      getEntrySignature(unwrap(module), unwrap(entry));
  if (failed(signature))
    return mlirLogicalResultFailure();
  WrappedTypeStorage storage;
  for (auto [index, type] : llvm::enumerate(signature->arguments)) {
    MxTensorType wrapped = storage.get(type);
    callback(false, index, &wrapped, userData);
  }
  for (auto [index, type] : llvm::enumerate(signature->results)) {
    MxTensorType wrapped = storage.get(type);
    callback(true, index, &wrapped, userData);
  }
  return mlirLogicalResultSuccess();
}

MxRunOptions mxRunOptionsGetDefault(void) {
  MxRunOptions options;
  options.entry = mlirStringRefCreate(nullptr, 0);
  options.backend = mlirStringRefCreate(nullptr, 0);
  options.gfx950 = nullptr;
  options.compareReference = false;
  CompareOptions compare;
  options.rtol = compare.rtol;
  options.atol = compare.atol;
  options.sumTol = compare.sumTol;
  options.threads = 1;
  options.maxWorkgroups = 0;
  options.maxMemory = 0;
  options.optLevel = CPUBackend::Options().optLevel;
  return options;
}

/// The textual form of \p options for GFX950EmulatorBackend::Options (the
/// C++ options printed as parseFromString reads them); emits an error at
/// \p loc and fails when an option is out of range.
static FailureOr<std::string>
getPipelineOptionsText(const MxGFX950PipelineOptions *options, Location loc) {
  if (!options)
    return std::string();
  GFX950PipelineOptions cxx;
  if (!capi::convertGFX950PipelineOptions(*options, cxx))
    return emitError(loc)
           << "invalid mx-gfx950-pipeline options (an unknown enumerator, a "
              "negative size or split-k, an unroll-k outside [0, "
           << gfx950::kMaxUKernelUnrollK
           << "], a string with a length and no characters)";
  std::string text;
  llvm::raw_string_ostream os(text);
  cxx.print(os);
  StringRef trimmed = StringRef(text).trim();
  if (trimmed.consume_front("{"))
    trimmed.consume_back("}");
  return trimmed.str();
}

/// Creates the backend \p options name; emits an error at \p loc and
/// returns null when it is unknown or its options are invalid.
static std::unique_ptr<ExecutionBackend>
createBackend(const MxRunOptions &options, Location loc) {
  StringRef name = unwrap(options.backend);
  if (name.empty())
    name = "cpu";
  FailureOr<std::string> pipeline = getPipelineOptionsText(options.gfx950, loc);
  if (failed(pipeline))
    return nullptr;
  if (options.threads < 0 || options.threads > 4096 ||
      options.maxWorkgroups < 0 || options.maxMemory < 0 ||
      options.optLevel < 0 || options.optLevel > 3) {
    emitError(loc) << "invalid run options: threads must be 0-4096, "
                      "maxWorkgroups and maxMemory must not be negative, "
                      "optLevel must be 0-3";
    return nullptr;
  }
  GFX950EmulatorBackend::Options gfx950;
  gfx950.pipelineOptions = *pipeline;
  gfx950.run.threads = options.threads;
  if (options.maxWorkgroups)
    gfx950.run.maxWorkgroups = options.maxWorkgroups;
  std::unique_ptr<ExecutionBackend> backend;
  if (name == "cpu") {
    CPUBackend::Options cpu;
    cpu.optLevel = options.optLevel;
    backend = std::make_unique<CPUBackend>(cpu);
  } else if (name == "gfx950-emu") {
    backend = std::make_unique<GFX950EmulatorBackend>(gfx950);
  } else if (name == "gfx950-isa") {
    backend = std::make_unique<GFX950ISABackend>(
        gfx950, GFX950ISABackend::ISAOptions());
  } else if (name == "hip") {
    backend = std::make_unique<HIPBackend>(gfx950, HIPBackend::HIPOptions());
  } else {
    backend = createExecutionBackend(name);
  }
  if (!backend) {
    emitError(loc) << "unknown backend '" << name << "' (available: "
                   << llvm::join(getExecutionBackendNames(), ", ") << ")";
    return nullptr;
  }
  if (options.maxMemory)
    backend->setMemoryBudget(options.maxMemory);
  return backend;
}

/// Reads the inputs of \p signature from \p buffers; emits an error at the
/// function and fails on a wrong count or size.
static FailureOr<SmallVector<HostTensor>>
readInputs(const EntrySignature &signature, ArrayRef<MxTensorBuffer> buffers) {
  func::FuncOp func = signature.func;
  if (buffers.size() != signature.arguments.size())
    return func.emitError()
           << "@" << func.getName() << " takes " << signature.arguments.size()
           << " argument(s) but " << buffers.size() << " input(s) were given";
  SmallVector<HostTensor> inputs;
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    const HostTensorType &type = signature.arguments[index];
    if (buffer.numBytes < 0 || (buffer.numBytes && !buffer.data))
      return func.emitError() << "input #" << index << " has no data";
    ArrayRef<uint8_t> bytes(static_cast<const uint8_t *>(buffer.data),
                            static_cast<size_t>(buffer.numBytes));
    llvm::Expected<HostTensor> tensor = fromFileFormat(type, bytes);
    if (!tensor)
      return func.emitError()
             << "input #" << index << " for argument #" << index << " of @"
             << func.getName() << " (" << type.str()
             << "): " << llvm::toString(tensor.takeError());
    inputs.push_back(std::move(*tensor));
  }
  return inputs;
}

/// Compares \p results with the reference evaluation of the entry and
/// prints the report to \p os; returns whether all matched.
static FailureOr<bool> compareWithReference(llvm::raw_ostream &os,
                                            ExecutionBackend &backend,
                                            ModuleOp module, StringRef entry,
                                            ArrayRef<HostTensor> inputs,
                                            ArrayRef<HostTensor> results,
                                            const MxRunOptions &options) {
  ReferenceOptions referenceOptions;
  referenceOptions.perInstruction =
      roundsPerInstructionByDefault(backend.getName());
  FailureOr<ReferenceResults> reference = evaluateReferenceFor(
      backend, module, entry, inputs, std::move(referenceOptions));
  if (failed(reference))
    return failure();
  CompareOptions compare;
  compare.rtol = options.rtol;
  compare.atol = options.atol;
  compare.sumTol = options.sumTol;
  bool passed = printReferenceComparison(os, entry, backend.getName(), results,
                                         *reference, compare);
  os << (passed ? "PASS" : "FAIL") << "\n";
  return passed;
}

MlirLogicalResult mxRun(MlirModule module, const MxRunOptions *options,
                        const MxTensorBuffer *inputs, intptr_t numInputs,
                        MxTensorCallback resultCallback,
                        MlirStringCallback reportCallback, void *userData,
                        bool *passed) {
  if (mlirModuleIsNull(module) || !options || !resultCallback ||
      numInputs < 0 || (numInputs > 0 && !inputs) ||
      (options->entry.length && !options->entry.data) ||
      (options->backend.length && !options->backend.data))
    return mlirLogicalResultFailure();
  if (passed)
    *passed = true;
  ModuleOp program = unwrap(module);
  for (double tolerance : {options->rtol, options->atol, options->sumTol})
    if (!(tolerance >= 0 && std::isfinite(tolerance))) {
      emitError(program.getLoc())
          << "rtol, atol and sumTol must be finite and non-negative";
      return mlirLogicalResultFailure();
    }
  std::unique_ptr<ExecutionBackend> backend =
      createBackend(*options, program.getLoc());
  if (!backend)
    return mlirLogicalResultFailure();
  FailureOr<EntrySignature> signature =
      getEntrySignature(program, unwrap(options->entry));
  if (failed(signature))
    return mlirLogicalResultFailure();
  std::string entry = signature->func.getName().str();
  uint64_t budget =
      options->maxMemory ? options->maxMemory : kDefaultMemoryBudget;
  if (failed(checkMemoryBudget(signature->func, budget)) ||
      failed(checkNoRecursion(program)))
    return mlirLogicalResultFailure();
  FailureOr<SmallVector<HostTensor>> hostInputs =
      readInputs(*signature, ArrayRef(inputs, numInputs));
  if (failed(hostInputs))
    return mlirLogicalResultFailure();
  FailureOr<SmallVector<HostTensor>> results =
      backend->run(program, entry, *hostInputs);
  if (failed(results))
    return mlirLogicalResultFailure();
  if (options->compareReference) {
    std::string report;
    llvm::raw_string_ostream os(report);
    FailureOr<bool> matched = compareWithReference(
        os, *backend, program, entry, *hostInputs, *results, *options);
    if (failed(matched))
      return mlirLogicalResultFailure();
    if (passed)
      *passed = *matched;
    if (reportCallback)
      reportCallback(wrap(StringRef(report)), userData);
  }
  WrappedTypeStorage storage;
  for (auto [index, result] : llvm::enumerate(*results)) {
    std::vector<uint8_t> bytes = toFileFormat(result);
    MxTensor tensor;
    tensor.type = storage.get(result.type);
    tensor.data = mlirStringRefCreate(
        reinterpret_cast<const char *>(bytes.data()), bytes.size());
    resultCallback(index, &tensor, userData);
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult
mxGFX950PrintLaunchPlan(MlirModule module, MlirStringRef entry,
                        const MxGFX950PipelineOptions *options,
                        MlirStringCallback callback, void *userData) {
  if (mlirModuleIsNull(module) || !callback || (entry.length && !entry.data))
    return mlirLogicalResultFailure();
  ModuleOp program = unwrap(module);
  FailureOr<std::string> pipeline =
      getPipelineOptionsText(options, program.getLoc());
  if (failed(pipeline))
    return mlirLogicalResultFailure();
  FailureOr<EntrySignature> signature =
      getEntrySignature(program, unwrap(entry));
  if (failed(signature))
    return mlirLogicalResultFailure();
  // A plan does not depend on the values.
  SmallVector<HostTensor> zeros;
  for (const HostTensorType &type : signature->arguments)
    zeros.emplace_back(type);
  std::string plan;
  llvm::raw_string_ostream os(plan);
  GFX950EmulatorBackend::Options compile;
  compile.pipelineOptions = *pipeline;
  HIPBackend::HIPOptions hip;
  hip.dryRun = true;
  hip.planStream = &os;
  HIPBackend backend(compile, hip);
  if (failed(backend.run(program, signature->func.getName(), zeros)))
    return mlirLogicalResultFailure();
  callback(wrap(StringRef(plan)), userData);
  return mlirLogicalResultSuccess();
}
