//===- mx-exec-fuzzer.cpp - run small mx programs and compare -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libFuzzer target: runs the first function of the input on small exact
// inputs (MX elements and floats: integers in [-2, 2]; scales: E8M0 bytes
// 2^-3 .. 2^3; integers: [-2, 2]), with the independent reference evaluator
// and, as the header says, a backend:
//
//   //! reference          the reference evaluator only
//   //! cpu                mx-run's CPU backend (mx-cpu-pipeline, JIT)
//   //! gfx950-emu OPTIONS the gfx950 pipeline on the wave emulator
//   //! bad-args          no run: each argument is given data that cannot
//                          be used (mx-run's --arg=file:/dev/zero,
//                          npy:/dev/zero, file: and npy: of a FIFO without a
//                          writer, fill:1e400), which must be refused at
//                          once: data, a hang or unbounded memory is a bug
//
// (an input without a header gets an action chosen from a hash of its text)
// Programs whose buffers exceed 256 KiB are skipped (mx-run's memory budget
// check), so every run is small. On these inputs every product and sum is
// exact, so a backend that succeeds must agree with the reference bit for
// bit: a mismatch, like a crash, is a bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "mx/Runner/Compare.h"
#include "mx/Runner/ExecutionBackend.h"
#include "mx/Runner/InputSpec.h"
#include "mx/Runner/ReferenceEvaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/stat.h>

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::fuzz;

/// The most bytes one buffer of a fuzzed run may take.
static constexpr uint64_t kFuzzMemoryBudget = 256 * 1024;

llvm::ArrayRef<llvm::StringRef> mlir::mx::fuzz::getHeaderActions() {
  static const llvm::StringRef actions[] = {
      "reference",
      "cpu",
      "gfx950-emu",
      "gfx950-emu intrinsic=32x32x64",
      "gfx950-emu intrinsics-m=2 intrinsics-n=2 intrinsics-k=2",
      "gfx950-emu subgroups-m=2 subgroups-n=2",
      "bad-args",
  };
  return actions;
}

/// Exact data for an argument of \p type.
static std::optional<HostTensor> makeInput(const HostTensorType &type,
                                           unsigned index) {
  llvm::StringRef spec = type.elementKind == ElementKind::F8E8M0FNU
                             ? "random:scales,lo=124,hi=130"
                             : "random:int,lo=-2,hi=2";
  llvm::Expected<InputSpec> parsed = parseInputSpec(spec);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  llvm::Expected<HostTensor> value =
      materializeInput(*parsed, type, deriveSeed(1, index));
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

/// A FIFO that no one writes to, made once per process (empty if it cannot
/// be made).
static const std::string &getFifoPath() {
  static const std::string path = [] {
    llvm::SmallString<128> directory;
    if (llvm::sys::fs::createUniqueDirectory("mx-exec-fuzzer", directory))
      return std::string();
    llvm::sys::path::append(directory, "fifo");
    return mkfifo(directory.c_str(), 0600) == 0 ? directory.str().str()
                                                : std::string();
  }();
  return path;
}

/// Gives an argument of \p type each argument spec that names no usable
/// data: each must be refused (at parsing or materializing), at once.
static void checkBadArguments(const HostTensorType &type) {
  std::vector<std::string> specs = {"file:/dev/zero", "npy:/dev/zero",
                                    "fill:1e400", "fill:-1e400"};
  if (!getFifoPath().empty()) {
    specs.push_back("file:" + getFifoPath());
    specs.push_back("npy:" + getFifoPath());
  }
  for (const std::string &text : specs) {
    llvm::Expected<InputSpec> spec = parseInputSpec(text);
    if (!spec) {
      llvm::consumeError(spec.takeError());
      continue;
    }
    llvm::Expected<HostTensor> value = materializeInput(*spec, type, 1);
    if (value)
      fuzzerBug("--arg=" + text + " gave data for " + type.str());
    llvm::consumeError(value.takeError());
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return -1;
  std::string text(reinterpret_cast<const char *>(data), size);
  FuzzInput input = splitInput(text);
  chooseDefaultAction(input);
  std::unique_ptr<ExecutionBackend> backend;
  if (input.action == "cpu") {
    backend = std::make_unique<CPUBackend>();
  } else if (input.action == "gfx950-emu") {
    GFX950EmulatorBackend::Options options;
    options.pipelineOptions = input.options;
    backend = std::make_unique<GFX950EmulatorBackend>(options);
  } else if (!input.action.empty() && input.action != "reference" &&
             input.action != "bad-args") {
    return -1;
  }

  getContext();
  OwningOpRef<ModuleOp> module = parseModule(input.text);
  if (!module)
    return 0;
  func::FuncOp entry;
  for (auto func : module->getOps<func::FuncOp>())
    if (!func.isDeclaration()) {
      entry = func;
      break;
    }
  if (!entry)
    return 0;
  FailureOr<EntrySignature> signature =
      getEntrySignature(*module, entry.getName());
  if (failed(signature) || failed(checkMemoryBudget(entry, kFuzzMemoryBudget)))
    return 0;
  if (input.action == "bad-args") {
    for (const HostTensorType &type : signature->arguments)
      checkBadArguments(type);
    return 0;
  }
  SmallVector<HostTensor> inputs;
  for (auto [index, type] : llvm::enumerate(signature->arguments)) {
    std::optional<HostTensor> value = makeInput(type, index);
    if (!value)
      return 0;
    inputs.push_back(std::move(*value));
  }

  FailureOr<SmallVector<HostTensor>> reference =
      evaluateReference(*module, entry.getName(), inputs);
  if (!backend)
    return 0;
  backend->setMemoryBudget(kFuzzMemoryBudget);
  FailureOr<SmallVector<HostTensor>> results =
      backend->run(*module, entry.getName(), inputs);
  if (failed(reference) || failed(results))
    return 0;
  if (results->size() != reference->size())
    fuzzerBug(backend->getName() + " returned " + llvm::Twine(results->size()) +
              " results, the reference " + llvm::Twine(reference->size()));
  for (auto [index, got, want] : llvm::enumerate(*results, *reference)) {
    CompareOptions options;
    CompareResult compared = compareTensors(got, want, options);
    if (compared.passed())
      continue;
    printCompareResult(llvm::errs(), index, got, want, compared, options);
    fuzzerBug(backend->getName() +
              " disagrees with the reference evaluator on exact data");
  }
  return 0;
}
