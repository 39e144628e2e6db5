//===- mx-run.cpp - run a function of an mx program on the host -----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Parses an MLIR file, runs one function on the chosen execution backend
// (`cpu`: mx-cpu-pipeline + JIT) with arguments read from files or
// generated, and optionally prints, saves and checks the results against the
// reference evaluator or known-answer files. Exit codes: 0 success, 1 a
// result mismatch, 2 bad usage, bad input or a failed run.
//
//===----------------------------------------------------------------------===//

#ifdef MX_INCLUDE_TESTS
#include "TestTarget.h"
#endif
#include "mx/Dialect/MX/IR/MXOps.h"
#include "mx/Emulator/ScaledMFMA.h"
#include "mx/InitMX.h"
#include "mx/Runner/Compare.h"
#include "mx/Runner/ExecutionBackend.h"
#include "mx/Runner/GFX950ISABackend.h"
#include "mx/Runner/HIPBackend.h"
#include "mx/Runner/InputSpec.h"
#include "mx/Runner/ReferenceEvaluator.h"
#include "mx/Runner/RunReference.h"
#include "mx/Runner/TensorIO.h"
#include "mx/Support/ErrorTracker.h"
#include "mx/Support/FileIO.h"
#include "mx/Support/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::mx;
namespace cl = llvm::cl;

static constexpr int kExitMismatch = 1;
static constexpr int kExitError = 2;

static cl::OptionCategory mxRunCategory("mx-run options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir file>"),
                                          cl::cat(mxRunCategory));

static cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: the module's only "
                       "function definition)"),
              cl::value_desc("NAME"), cl::cat(mxRunCategory));

/// The --backend help lists every backend the runner library provides.
static const std::string backendDescription =
    "Execution backend: " + llvm::join(getExecutionBackendNames(), ", ") +
    " (default: cpu)";
static cl::opt<bool> isaHazards(
    "isa-hazards",
    cl::desc("With the gfx950-isa backend, check the ISA's required wait "
             "states between dependent instructions (default on)"),
    cl::init(true));

static cl::opt<bool> timingModel(
    "timing-model",
    cl::desc("With the gfx950-isa backend, time each launch on the ISA "
             "executor's cycle model of one CU (its first workgroups, as "
             "many as a CU holds) and scale it over the grid; prints "
             "'timing' lines (docs/guides/timing-model.md)"));

static cl::list<std::string> timingConstants(
    "timing-constant",
    cl::desc("With --timing-model, set a machine constant of "
             "MachineModel.def (NAME=VALUE, repeatable; `mx-isa "
             "--machine-constants` lists them)"),
    cl::value_desc("NAME=VALUE"));

static cl::opt<std::string> timingJSON(
    "timing-json",
    cl::desc("With --timing-model, also write each launch's report as one "
             "JSON object per line to PATH"),
    cl::value_desc("PATH"));

static cl::list<std::string> isaCodeObjects(
    "isa-code-object",
    cl::desc("With the gfx950-isa backend, run the code object in PATH for "
             "gpu.module MODULE instead of the compiled one (MODULE=PATH; "
             "repeatable): e.g. a kernel's assembly edited and reassembled"),
    cl::value_desc("MODULE=PATH"));

static cl::opt<std::string> backendName("backend", cl::desc(backendDescription),
                                        cl::value_desc("NAME"), cl::init("cpu"),
                                        cl::cat(mxRunCategory));

static cl::opt<bool>
    timing("timing",
           cl::desc("Print the wall time of each phase (parse, inputs, "
                    "preprocess, run with every compilation pass, reference, "
                    "report) on stderr"),
           cl::init(false), cl::cat(mxRunCategory));

static cl::opt<uint64_t>
    globalSeed("seed", cl::desc("Seed of the random:... arguments (default 0)"),
               cl::value_desc("N"), cl::init(0), cl::cat(mxRunCategory));

static cl::list<std::string> argSpecs(
    "arg",
    cl::desc("Value of the next function argument: file:PATH, npy:PATH, "
             "random:KIND[,key=value...] (KIND: uniform, normal, int, codes, "
             "scales; keys lo, hi, mean, std, specials, seed), zeros, "
             "fill:VALUE"),
    cl::value_desc("SPEC"), cl::cat(mxRunCategory));

static cl::list<std::string>
    outPaths("out",
             cl::desc("Write the next result to PATH (raw file format, or "
                      ".npy if PATH ends in .npy)"),
             cl::value_desc("PATH"), cl::cat(mxRunCategory));

static cl::opt<int64_t> maxWorkgroups(
    "max-workgroups",
    cl::desc("Launch budget: a kernel launch of more workgroups (the "
             "product of its grid) is an error, on every backend and in "
             "the --dry-run plan (default 2^24)"),
    cl::value_desc("N"), cl::init(emu::kDefaultMaxWorkgroups),
    cl::cat(mxRunCategory));

static cl::opt<std::string> maxMemory(
    "max-memory",
    cl::desc("Memory budget: the most bytes one buffer (argument, result or "
             "intermediate) may take; a number of bytes with an optional "
             "K, M, G or T suffix (powers of 1024; default 16G, also the "
             "largest argument or result mx-run handles)"),
    cl::value_desc("BYTES"), cl::init("16G"), cl::cat(mxRunCategory));

/// Parses --max-memory: digits with an optional K/M/G/T suffix.
static std::optional<uint64_t> parseMemorySize(StringRef text) {
  unsigned shift = 0;
  if (!text.empty()) {
    switch (llvm::toUpper(text.back())) {
    case 'K':
      shift = 10;
      break;
    case 'M':
      shift = 20;
      break;
    case 'G':
      shift = 30;
      break;
    case 'T':
      shift = 40;
      break;
    default:
      break;
    }
  }
  if (shift)
    text = text.drop_back();
  uint64_t value;
  if (text.getAsInteger(10, value) || value == 0 ||
      value > (UINT64_MAX >> shift))
    return std::nullopt;
  return value << shift;
}

static cl::opt<bool> printResults("print",
                                  cl::desc("Print the results (type and "
                                           "first values)"),
                                  cl::cat(mxRunCategory));

static cl::opt<unsigned>
    printLimit("print-limit",
               cl::desc("Values shown per result by --print (0: all; "
                        "default 16)"),
               cl::value_desc("N"), cl::init(16), cl::cat(mxRunCategory));

static cl::opt<std::string>
    compareWith("compare",
                cl::desc("Also evaluate with the reference evaluator and "
                         "compare every result (only 'reference')"),
                cl::value_desc("reference"), cl::cat(mxRunCategory));

static cl::list<std::string>
    expectSpecs("expect",
                cl::desc("Known answer for the next result: file:PATH, "
                         "npy:PATH, zeros or fill:VALUE"),
                cl::value_desc("SPEC"), cl::cat(mxRunCategory));

static cl::opt<double>
    relativeTolerance("rtol",
                      cl::desc("Relative tolerance for float results "
                               "(default 0: bit-exact)"),
                      cl::value_desc("R"), cl::init(0), cl::cat(mxRunCategory));

static cl::opt<double>
    absoluteTolerance("atol",
                      cl::desc("Absolute tolerance for float results "
                               "(default 0: bit-exact)"),
                      cl::value_desc("A"), cl::init(0), cl::cat(mxRunCategory));

static cl::opt<unsigned>
    optLevel("opt-level",
             cl::desc("LLVM optimization level of the cpu backend (0-3, "
                      "default 2)"),
             cl::value_desc("N"), cl::init(2), cl::cat(mxRunCategory));

static cl::opt<std::string> gfx950PipelineOptions(
    "gfx950-options",
    cl::desc("Options of mx-gfx950-pipeline for the gfx950-emu, gfx950-isa and "
             "hip backends, e.g. "
             "'intrinsic=32x32x64 intrinsics-m=2'"),
    cl::init(""), cl::cat(mxRunCategory));

static cl::opt<bool>
    emulatorStats("emu-stats",
                  cl::desc("With the gfx950-emu or gfx950-isa backend, print "
                           "the number of launches, "
                           "workgroups and MFMAs executed"),
                  cl::init(false), cl::cat(mxRunCategory));

static cl::opt<bool> printLaunches(
    "print-launches",
    cl::desc("With the gfx950-emu or gfx950-isa backend, print each launch of "
             "the host "
             "function (kernel, grid, block, arguments and their buffers) "
             "before it runs: the launch plan format of --dry-run"),
    cl::init(false), cl::cat(mxRunCategory));

static cl::opt<bool> dryRun(
    "dry-run",
    cl::desc("With the hip backend, compile to code objects and print the "
             "launch plan (kernels, grids, blocks, LDS, registers, kernel "
             "argument layouts, buffers) without loading a HIP runtime; "
             "--arg options may be left out (zeros)"),
    cl::init(false), cl::cat(mxRunCategory));

static cl::opt<unsigned> repeatCount(
    "repeat",
    cl::desc("With the hip backend, time every launch and the whole program "
             "N times with HIP events after --warmup untimed runs, and "
             "print min/median/max, TFLOP/s and GB/s (lines 'hip @...' and "
             "'hip-timing {json}' for bench scripts)"),
    cl::value_desc("N"), cl::init(0), cl::cat(mxRunCategory));

static cl::opt<unsigned>
    warmupCount("warmup",
                cl::desc("With --repeat, untimed runs before the timed ones "
                         "(default 1)"),
                cl::value_desc("N"), cl::init(1), cl::cat(mxRunCategory));

static cl::opt<std::string> hipLibrary(
    "hip-library",
    cl::desc("With the hip backend, the HIP runtime library to load (default: "
             "$MX_HIP_LIBRARY, else libamdhip64.so from the loader's search "
             "path, $ROCM_PATH/lib, /opt/rocm/lib)"),
    cl::value_desc("PATH"), cl::init(""), cl::cat(mxRunCategory));

/// --threads; created in main (see registerThreadsOption).
static cl::opt<unsigned> *emulatorThreads = nullptr;

static cl::opt<cl::boolOrDefault> emulatorProgress(
    "progress",
    cl::desc("With the gfx950-emu or gfx950-isa backend, show the workgroups "
             "done of each "
             "launch on stderr (default: when stderr is a terminal)"),
    cl::cat(mxRunCategory));

static cl::opt<std::string> preprocessPipeline(
    "preprocess",
    cl::desc("Textual pass pipeline run on the program before the backend, "
             "e.g. 'mx-set-encodings,mx-materialize-encodings' to execute "
             "the data-tiled program; --compare=reference still evaluates "
             "the original program"),
    cl::value_desc("PIPELINE"), cl::cat(mxRunCategory));

/// The arithmetic models of one scaled MFMA (--mfma-arithmetic,
/// --reference-arithmetic): the emulator's (emu::MFMAArithmetic) and the
/// per-instruction reference's (ref::InstructionArithmetic) implement each.
enum class MFMAArithmeticOption { Exact, CDNA3Grouped };

static auto mfmaArithmeticValues() {
  return cl::values(
      clEnumValN(MFMAArithmeticOption::Exact, "exact",
                 "exact dot product of the instruction plus C, rounded once "
                 "to f32 (the default: the ISA's definition, and where "
                 "gfx950's internals are unpublished, the model that "
                 "assumes nothing)"),
      clEnumValN(MFMAArithmeticOption::CDNA3Grouped, "cdna3-grouped",
                 "CDNA3's fp8 MFMA as MMA-Sim (arXiv 2511.10909) models it: "
                 "groups of 16 products, aligned and truncated to 24 "
                 "fractional bits, added to C with one rounding per group"));
}

static cl::opt<MFMAArithmeticOption> mfmaArithmetic(
    "mfma-arithmetic",
    cl::desc("Arithmetic of the gfx950-emu and gfx950-isa backends' scaled "
             "MFMA, and of the "
             "reference's per-instruction rounding (default exact)"),
    cl::init(MFMAArithmeticOption::Exact), mfmaArithmeticValues(),
    cl::cat(mxRunCategory));

static cl::opt<MFMAArithmeticOption> referenceArithmetic(
    "reference-arithmetic",
    cl::desc("Arithmetic of the reference's per-instruction rounding when it "
             "differs from --mfma-arithmetic (e.g. to measure one model "
             "against the other)"),
    mfmaArithmeticValues(), cl::cat(mxRunCategory));

enum class ReferenceRounding { Auto, Once, PerInstruction };
static cl::opt<ReferenceRounding> referenceRounding(
    "reference-rounding",
    cl::desc("How --compare=reference rounds scaled contractions"),
    cl::init(ReferenceRounding::Auto),
    cl::values(
        clEnumValN(ReferenceRounding::Auto, "auto",
                   "per-instruction on gfx950-emu, once otherwise (default)"),
        clEnumValN(ReferenceRounding::Once, "once",
                   "the exact result rounded once to f32"),
        clEnumValN(ReferenceRounding::PerInstruction, "per-instruction",
                   "to f32 after every matrix instruction, in the backend "
                   "kernel's K order with the MFMA arithmetic: bit-exact on "
                   "any data; a contraction whose order the backend does not "
                   "know is rounded once and compared within an error bound "
                   "derived from |acc| + sum |a*b|")),
    cl::cat(mxRunCategory));

static cl::opt<double> sumTolerance(
    "sum-tol",
    cl::desc("Tolerance of scaled contraction results relative to the sum "
             "of the magnitudes of their terms, |acc| + sum |a*b| (default "
             "0)"),
    cl::value_desc("R"), cl::init(0), cl::cat(mxRunCategory));

/// Prints "mx-run: error: <message>" and returns kExitError.
static int fail(const Twine &message) {
  llvm::WithColor::error(llvm::errs(), "mx-run") << message << "\n";
  return kExitError;
}

/// Describes argument or result \p index of the entry for messages.
static std::string describe(StringRef what, unsigned index, StringRef func,
                            const HostTensorType &type) {
  return (what + " #" + Twine(index) + " of @" + func + " (" + type.str() + ")")
      .str();
}

/// A progress callback for the emulator: "mx-run: @module::@kernel:
/// done/total workgroups" on stderr, at most every 200 ms and when a launch
/// completes; rewritten in place on a terminal (\p terminal), one line per
/// report otherwise (at most one a second).
static std::function<void(StringRef, int64_t, int64_t)>
makeProgressPrinter(bool terminal) {
  using Clock = std::chrono::steady_clock;
  auto last = std::make_shared<Clock::time_point>();
  return [terminal, last](StringRef kernel, int64_t done, int64_t total) {
    Clock::time_point now = Clock::now();
    auto interval = terminal ? std::chrono::milliseconds(200)
                             : std::chrono::milliseconds(1000);
    if (done != total && now - *last < interval)
      return;
    *last = now;
    llvm::errs() << (terminal ? "\r" : "") << "mx-run: " << kernel << ": "
                 << done << "/" << total << " workgroups"
                 << (terminal && done != total ? "\x1b[K" : "\n");
    llvm::errs().flush();
  };
}

/// The phase being timed (--timing); compilations nest their passes in it.
static TimingScope *currentPhase = nullptr;

/// Applies the pass manager command-line options, and with --timing, times
/// the passes within the current phase.
static LogicalResult configurePassManager(PassManager &pm) {
  if (currentPhase)
    pm.enableTiming(*currentPhase);
  return applyPassManagerCLOptions(pm);
}

static ::mx::ref::InstructionArithmetic
toReference(MFMAArithmeticOption arithmetic) {
  return arithmetic == MFMAArithmeticOption::Exact
             ? ::mx::ref::InstructionArithmetic::Exact
             : ::mx::ref::InstructionArithmetic::CDNA3Grouped;
}

/// Describes the first --out path that repeats an earlier one (the same
/// text, or the same existing file), if any.
static std::optional<std::string> findRepeatedOutPath() {
  for (auto [index, path] : llvm::enumerate(outPaths))
    for (size_t earlier = 0; earlier < index; ++earlier)
      if (outPaths[earlier] == path ||
          llvm::sys::fs::equivalent(outPaths[earlier], path))
        return "--out #" + std::to_string(index) + " '" + path +
               "' names the file of --out #" + std::to_string(earlier) +
               " (each result needs a file of its own)";
  return std::nullopt;
}

/// Runs mx-run; \p errors watches the context of the program.
static int runMain(ErrorTracker &errors) {
  DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  TimingScope rootTimer = timingManager.getRootScope();
  TimingScope phase;
  // Starts timing the next phase (ending the previous one).
  auto startPhase = [&](StringRef name) {
    phase = rootTimer.nest(name);
    currentPhase = timing ? &phase : nullptr;
  };

  // Options that need no input.
  if (inputFilename.empty())
    return fail("no input file (usage: mx-run FILE.mlir --arg=SPEC ...; see "
                "--help)");
  if (backendName != "hip" && (dryRun || repeatCount.getNumOccurrences() ||
                               hipLibrary.getNumOccurrences()))
    return fail("--dry-run, --repeat and --hip-library need --backend=hip");
  if (maxWorkgroups < 1)
    return fail("--max-workgroups must be positive");
  if (std::optional<std::string> repeated = findRepeatedOutPath())
    return fail(*repeated);
  if (backendName != "gfx950-isa" &&
      (isaCodeObjects.getNumOccurrences() || isaHazards.getNumOccurrences() ||
       timingModel))
    return fail("--isa-code-object, --isa-hazards and --timing-model need "
                "--backend=gfx950-isa");
  if (!timingModel &&
      (timingConstants.getNumOccurrences() || timingJSON.getNumOccurrences()))
    return fail("--timing-constant and --timing-json need --timing-model");
  if (backendName != "gfx950-emu" && backendName != "gfx950-isa" &&
      printLaunches)
    return fail("--print-launches needs --backend=gfx950-emu or gfx950-isa "
                "(the hip backend prints the plan with --dry-run)");
  auto gfx950Options = [&] {
    GFX950EmulatorBackend::Options options;
    options.pipelineOptions = gfx950PipelineOptions;
    options.configurePassManager = configurePassManager;
    options.run.maxWorkgroups = maxWorkgroups;
    return options;
  };
  std::unique_ptr<ExecutionBackend> backend;
  if (backendName == "cpu") {
    if (optLevel > 3)
      return fail("--opt-level must be 0, 1, 2 or 3");
    CPUBackend::Options options;
    options.optLevel = optLevel;
    options.configurePassManager = configurePassManager;
    backend = std::make_unique<CPUBackend>(options);
  } else if (backendName == "gfx950-emu" || backendName == "gfx950-isa") {
    GFX950EmulatorBackend::Options options = gfx950Options();
    if (printLaunches)
      options.launchPlan = &llvm::outs();
    auto printLine = [](StringRef line) { llvm::outs() << line << "\n"; };
    if (emulatorStats)
      options.reportStats = printLine;
    options.run.threads = *emulatorThreads;
    options.run.mfmaNumerics =
        emu::getScaledDotFn(mfmaArithmetic == MFMAArithmeticOption::Exact
                                ? emu::MFMAArithmetic::Exact
                                : emu::MFMAArithmetic::CDNA3Grouped);
    bool terminal = llvm::sys::Process::StandardErrIsDisplayed();
    if (emulatorProgress == cl::BOU_TRUE ||
        (emulatorProgress == cl::BOU_UNSET && terminal))
      options.run.progress = makeProgressPrinter(terminal);
    if (backendName == "gfx950-emu") {
      backend = std::make_unique<GFX950EmulatorBackend>(options);
    } else {
      GFX950ISABackend::ISAOptions isaOptions;
      isaOptions.checkHazards = isaHazards;
      for (const std::string &spec : isaCodeObjects) {
        auto [module, path] = StringRef(spec).split('=');
        if (module.empty() || path.empty())
          return fail("--isa-code-object expects MODULE=PATH, got '" + spec +
                      "'");
        isaOptions.codeObjectFiles.emplace_back(module.str(), path.str());
      }
      if (emulatorStats)
        isaOptions.reportStats = printLine;
      options.reportStats = nullptr;
      isaOptions.timing = timingModel;
      for (const std::string &assignment : timingConstants)
        if (llvm::Error error = isaOptions.machine.set(assignment))
          return fail("--timing-constant: " + llvm::toString(std::move(error)));
      if (timingModel) {
        std::shared_ptr<llvm::raw_fd_ostream> json;
        if (!timingJSON.empty()) {
          std::error_code error;
          json = std::make_shared<llvm::raw_fd_ostream>(timingJSON, error);
          if (error)
            return fail("--timing-json: cannot write '" + timingJSON +
                        "': " + error.message());
        }
        isaOptions.reportTiming =
            [json](const gfx950::isa::TimingReport &report) {
              report.print(llvm::outs());
              if (json)
                report.printJSON(*json);
            };
      }
      backend = std::make_unique<GFX950ISABackend>(options, isaOptions);
    }
  } else if (backendName == "hip") {
    HIPBackend::HIPOptions options;
    options.library = hipLibrary;
    options.dryRun = dryRun;
    options.repeat = repeatCount;
    options.warmup = warmupCount;
    options.reportTimings = [](StringRef entry, ArrayRef<HIPTiming> timings) {
      for (const HIPTiming &timing : timings)
        printHIPTiming(llvm::outs(), entry, timing, repeatCount);
    };
    backend = std::make_unique<HIPBackend>(gfx950Options(), options);
  } else {
    backend = createExecutionBackend(backendName);
  }
  if (!backend)
    return fail("unknown backend '" + backendName + "' (available: " +
                llvm::join(getExecutionBackendNames(), ", ") + ")");
  std::optional<uint64_t> memoryBudget = parseMemorySize(maxMemory);
  if (!memoryBudget)
    return fail("invalid --max-memory '" + maxMemory +
                "' (a positive number of bytes with an optional K, M, G or "
                "T suffix)");
  backend->setMemoryBudget(*memoryBudget);
  bool compareReference = false;
  if (!compareWith.empty()) {
    if (compareWith != "reference")
      return fail("unknown --compare value '" + compareWith +
                  "' (expected 'reference')");
    compareReference = true;
  }
  CompareOptions compareOptions;
  compareOptions.rtol = relativeTolerance;
  compareOptions.atol = absoluteTolerance;
  compareOptions.sumTol = sumTolerance;
  if (!(compareOptions.rtol >= 0 && std::isfinite(compareOptions.rtol)) ||
      !(compareOptions.atol >= 0 && std::isfinite(compareOptions.atol)) ||
      !(compareOptions.sumTol >= 0 && std::isfinite(compareOptions.sumTol)))
    return fail("--rtol, --atol and --sum-tol must be finite and "
                "non-negative");
  ReferenceOptions referenceOptions;
  referenceOptions.perInstruction =
      referenceRounding == ReferenceRounding::PerInstruction ||
      (referenceRounding == ReferenceRounding::Auto &&
       roundsPerInstructionByDefault(backend->getName()));
  referenceOptions.arithmetic = toReference(
      referenceArithmetic.getNumOccurrences() ? referenceArithmetic.getValue()
                                              : mfmaArithmetic.getValue());

  if (dryRun && (compareReference || !expectSpecs.empty() ||
                 !outPaths.empty() || printResults))
    return fail("--dry-run runs nothing: no --compare, --expect, --out or "
                "--print");
  SmallVector<InputSpec> inputSpecs, expectedSpecs;
  for (auto [index, text] : llvm::enumerate(argSpecs)) {
    llvm::Expected<InputSpec> spec = parseInputSpec(text);
    if (!spec)
      return fail("--arg #" + Twine(index) + ": " +
                  llvm::toString(spec.takeError()));
    inputSpecs.push_back(*spec);
  }
  for (auto [index, text] : llvm::enumerate(expectSpecs)) {
    llvm::Expected<InputSpec> spec = parseInputSpec(text);
    if (!spec)
      return fail("--expect #" + Twine(index) + ": " +
                  llvm::toString(spec.takeError()));
    if (spec->kind == InputSpec::Kind::Random)
      return fail("--expect #" + Twine(index) + ": '" + text +
                  "' is random; expected file:PATH, npy:PATH, zeros or "
                  "fill:VALUE");
    expectedSpecs.push_back(*spec);
  }

  // Parse the module.
  startPhase("parse");
  DialectRegistry registry;
  registerMXDialects(registry);
  registerPipelineDialects(registry);
#ifdef MX_INCLUDE_TESTS
  test::registerTestTarget(registry);
#endif
  MLIRContext context(registry);
  // Diagnostics point at the source; dumping whole functions adds nothing.
  context.printOpOnDiagnostic(false);
  UserFileLimits limits;
  limits.allowStdin = true;
  limits.requiresNullTerminator = true;
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      readUserFile(inputFilename, limits, "the input");
  if (!file)
    return fail(llvm::toString(file.takeError()));
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  errors.watch(&context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return kExitError;

  FailureOr<EntrySignature> signature = getEntrySignature(*module, entryName);
  if (failed(signature))
    return kExitError;
  std::string funcName = signature->func.getName().str();
  // Every buffer of the entry (the reference evaluates it as it is).
  if (failed(checkMemoryBudget(signature->func, *memoryBudget)) ||
      failed(checkNoRecursion(*module)))
    return kExitError;
  size_t numArgs = signature->arguments.size();
  size_t numResults = signature->results.size();
  // A plan does not depend on the values: zeros unless given.
  if (dryRun && inputSpecs.empty())
    for (size_t index = 0; index < numArgs; ++index) {
      llvm::Expected<InputSpec> zeros = parseInputSpec("zeros");
      if (!zeros)
        return fail(llvm::toString(zeros.takeError()));
      inputSpecs.push_back(*zeros);
    }
  if (inputSpecs.size() != numArgs)
    return fail("@" + funcName + " takes " + Twine(numArgs) +
                " argument(s) but " + Twine(inputSpecs.size()) +
                " --arg option(s) were given");
  if (!outPaths.empty() && outPaths.size() != numResults)
    return fail("@" + funcName + " has " + Twine(numResults) +
                " result(s) but " + Twine(outPaths.size()) +
                " --out option(s) were given");
  if (!expectedSpecs.empty() && expectedSpecs.size() != numResults)
    return fail("@" + funcName + " has " + Twine(numResults) +
                " result(s) but " + Twine(expectedSpecs.size()) +
                " --expect option(s) were given");

  // Materialize the inputs and the expected results.
  startPhase("inputs");
  SmallVector<HostTensor> inputs;
  for (auto [index, spec] : llvm::enumerate(inputSpecs)) {
    const HostTensorType &type = signature->arguments[index];
    llvm::Expected<HostTensor> value =
        materializeInput(spec, type, deriveSeed(globalSeed, index));
    if (!value)
      return fail("--arg #" + Twine(index) + " for " +
                  describe("argument", index, funcName, type) + ": " +
                  llvm::toString(value.takeError()));
    inputs.push_back(std::move(*value));
  }
  SmallVector<HostTensor> expected;
  for (auto [index, spec] : llvm::enumerate(expectedSpecs)) {
    const HostTensorType &type = signature->results[index];
    if (!type.hasStaticShape())
      return fail("--expect #" + Twine(index) + ": " +
                  describe("result", index, funcName, type) +
                  " has a dynamic shape; --expect needs a static result type");
    llvm::Expected<HostTensor> value = materializeInput(spec, type, 0);
    if (!value)
      return fail("--expect #" + Twine(index) + " for " +
                  describe("result", index, funcName, type) + ": " +
                  llvm::toString(value.takeError()));
    expected.push_back(std::move(*value));
  }

  // Run, on a preprocessed copy of the program if asked.
  auto preprocess = [&](ModuleOp program) -> LogicalResult {
    if (preprocessPipeline.empty())
      return success();
    PassManager pm(&context, ModuleOp::getOperationName());
    if (currentPhase)
      pm.enableTiming(*currentPhase);
    std::string pipelineErrors;
    llvm::raw_string_ostream pipelineErrorStream(pipelineErrors);
    if (failed(
            parsePassPipeline(preprocessPipeline, pm, pipelineErrorStream))) {
      fail("invalid --preprocess pipeline '" + preprocessPipeline +
           "': " + pipelineErrors);
      return failure();
    }
    if (failed(pm.run(program))) {
      fail("--preprocess pipeline failed");
      return failure();
    }
    return success();
  };
  OwningOpRef<ModuleOp> program = module->clone();
  if (!preprocessPipeline.empty()) {
    startPhase("preprocess");
    if (failed(preprocess(*program)))
      return kExitError;
    // e.g. the tiles of a layout padded far beyond the tensors.
    Operation *preprocessed = program->lookupSymbol(funcName);
    if (preprocessed && failed(checkMemoryBudget(preprocessed, *memoryBudget)))
      return kExitError;
  }
  startPhase(("run on " + backend->getName()).str());
  FailureOr<SmallVector<HostTensor>> results =
      backend->run(*program, funcName, inputs);
  if (failed(results))
    return kExitError;
  if (dryRun)
    return 0;
  ReferenceResults reference;
  if (compareReference) {
    startPhase("reference");
    FailureOr<ReferenceResults> evaluated = evaluateReferenceFor(
        *backend, *module, funcName, inputs, referenceOptions, preprocess);
    if (failed(evaluated))
      return kExitError;
    reference = std::move(*evaluated);
  }

  // Report.
  startPhase("report");
  llvm::raw_ostream &os = llvm::outs();
  if (printResults)
    for (auto [index, result] : llvm::enumerate(*results))
      printTensor(os, "result #" + std::to_string(index), result, printLimit);
  for (auto [index, path] : llvm::enumerate(outPaths)) {
    const HostTensor &result = (*results)[index];
    std::vector<uint8_t> bytes = StringRef(path).ends_with(".npy")
                                     ? writeNpy(result)
                                     : toFileFormat(result);
    if (llvm::Error error = writeFileBytes(path, bytes))
      return fail("--out #" + Twine(index) + ": " +
                  llvm::toString(std::move(error)));
  }
  if (!compareReference && expected.empty())
    return 0;

  bool passed = true;
  if (compareReference) {
    passed &= printReferenceComparison(os, funcName, backend->getName(),
                                       *results, reference, compareOptions);
  }
  if (!expected.empty()) {
    os << "comparing @" << funcName << " on " << backend->getName()
       << " with --expect:\n";
    passed &= compareAll(os, *results, expected, compareOptions);
  }
  os << (passed ? "PASS" : "FAIL") << "\n";
  os.flush();
  return passed ? 0 : kExitMismatch;
}

/// Registers --threads. libLLVM already registers an internal, undocumented
/// "threads" option of its own, which mx-run does not use: it is taken off
/// the command line first, so that --threads is mx-run's.
static void registerThreadsOption() {
  auto &registered = cl::getRegisteredOptions();
  if (cl::Option *existing = registered.lookup("threads"))
    existing->removeArgument();
  static cl::opt<unsigned> threads(
      "threads",
      cl::desc("With the gfx950-emu or gfx950-isa backend, host threads that "
               "run the "
               "workgroups of each launch (default 0: one per hardware "
               "thread; the results do not depend on it)"),
      cl::value_desc("N"), cl::init(0), cl::cat(mxRunCategory));
  emulatorThreads = &threads;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::mx::setVersionPrinter("mx-run");
  registerThreadsOption();
  registerMXPasses();
  registerPipelineUpstreamPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(mxRunCategory);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "mx-run: run a function of an mx program on the host\n\n"
          "  mx-run FILE.mlir [--entry=NAME] [--backend=cpu] [--seed=N]\n"
          "         --arg=SPEC ... [--out=PATH ...] [--print]\n"
          "         [--compare=reference] [--expect=SPEC ...] [--rtol=R "
          "--atol=A]\n"
          "  mx-run FILE.mlir --backend=hip --arg=SPEC ... [--expect=SPEC ...] "
          "[--repeat=N]\n"
          "         (a gfx950 GPU through libamdhip64.so, loaded at run "
          "time)\n"
          "  mx-run FILE.mlir --backend=hip --dry-run   (the launch plan, "
          "no GPU)\n\n"
          "Arguments must be ranked tensors of static shape. Exit codes: 0 "
          "success, 1 result mismatch, 2 error.\n",
          &llvm::errs()))
    return kExitError;
  // An error emitted in the program's context is an error of the run, even
  // where the function that emitted it went on.
  ErrorTracker errors;
  int status = runMain(errors);
  if (status != kExitError && errors.hadError())
    return fail("errors were emitted above");
  return status;
}
