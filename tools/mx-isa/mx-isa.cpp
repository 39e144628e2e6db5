//===- mx-isa.cpp - what the gfx950 ISA executor makes of a code object ---===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lists the kernels of a gfx950 code object (LLVM's or anybody's), their
// descriptors, and the opcodes their machine code uses with how often each
// appears and whether the ISA executor (mx-run --backend=gfx950-isa)
// implements it:
//
//   mx-isa FILE.co [--kernel=NAME]
//
// Exits 1 when an opcode is not covered (or the file is not a code object).
//
// With --run, executes one launch of a kernel on the ISA executor with
// buffers and kernel arguments given on the command line (a code object
// nobody here compiled, e.g. a peer's hand-written kernel):
//
//   mx-isa FILE.co --run --kernel=NAME --grid=X,Y,Z --block=X,Y,Z
//       --buffer=NAME=PATH | --buffer=NAME=zeros:BYTES ...
//       --kernarg-size=BYTES --kernarg=OFFSET:TYPE:VALUE ...
//       [--out=NAME=PATH ...] [--run-threads=N] [--check-hazards=false]
//
// TYPE is ptr (VALUE a buffer name), u32, i32, u64 or f32. A grid of more
// workgroups than --max-workgroups (default 2^24) is refused. Exits 1 when
// the executor reports an error, 2 on bad input.
//
//===----------------------------------------------------------------------===//

#include "mx/Emulator/WaveEmulator.h"
#include "mx/Support/FileIO.h"
#include "mx/Support/Version.h"
#include "mx/Target/GFX950/ISA/Executor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstring>
#include <map>

using namespace llvm;
namespace isa = mlir::mx::gfx950::isa;

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<code object>"));
static cl::opt<std::string>
    kernelName("kernel", cl::desc("Only the kernel NAME"), cl::init(""));

static cl::opt<bool> runMode("run", cl::desc("Execute one launch"));
static cl::opt<std::string> gridSpec("grid", cl::desc("Workgroups X,Y,Z"),
                                     cl::init("1,1,1"));
static cl::opt<std::string> blockSpec("block",
                                      cl::desc("Work-items per group X,Y,Z"),
                                      cl::init("64,1,1"));
static cl::list<std::string>
    bufferSpecs("buffer", cl::desc("NAME=PATH or NAME=zeros:BYTES"));
static cl::list<std::string> kernargSpecs("kernarg",
                                          cl::desc("OFFSET:TYPE:VALUE"));
static cl::opt<unsigned>
    kernargSize("kernarg-size", cl::desc("Kernarg segment bytes"), cl::init(0));
static cl::list<std::string> outSpecs("out", cl::desc("NAME=PATH"));
static cl::opt<unsigned>
    threads("run-threads", cl::desc("With --run: host threads"), cl::init(1));
static cl::opt<int64_t> maxWorkgroups(
    "max-workgroups",
    cl::desc("With --run: the launch budget, the most workgroups (the "
             "product of --grid; default 2^24)"),
    cl::init(mlir::mx::emu::kDefaultMaxWorkgroups));
static cl::opt<bool> hazards("check-hazards",
                             cl::desc("With --run: check wait states"),
                             cl::init(true));
static cl::opt<bool>
    timingModel("timing-model",
                cl::desc("With --run: time the launch's first CU's "
                         "workgroups on the cycle model (TimingModel.h)"));
static cl::list<std::string>
    timingConstants("timing-constant",
                    cl::desc("With --timing-model: NAME=VALUE of a machine "
                             "constant (repeatable)"));
static cl::opt<std::string>
    timingJSON("timing-json",
               cl::desc("With --timing-model: also write the report as JSON "
                        "to PATH"));
static cl::opt<bool> machineConstants(
    "machine-constants",
    cl::desc("Print the machine constants of MachineModel.def (name, value, "
             "unit, kind, source) and exit"));

/// Reports a bad command line and returns 2.
static int badInput(const Twine &message) {
  errs() << "mx-isa: " << message << "\n";
  return 2;
}

/// Parses "X,Y,Z" into \p dims.
static bool parseDims(StringRef spec, std::array<uint32_t, 3> &dims) {
  SmallVector<StringRef> parts;
  spec.split(parts, ',');
  if (parts.size() != 3)
    return false;
  for (unsigned d = 0; d < 3; ++d)
    if (parts[d].trim().getAsInteger(10, dims[d]) || dims[d] == 0)
      return false;
  return true;
}

/// Writes one kernel argument "OFFSET:TYPE:VALUE" into \p segment.
static bool putKernarg(StringRef spec, std::vector<uint8_t> &segment,
                       const StringMap<uint64_t> &addresses,
                       std::string &error) {
  SmallVector<StringRef> parts;
  spec.split(parts, ':', 2);
  uint64_t offset;
  if (parts.size() != 3 || parts[0].getAsInteger(0, offset)) {
    error = "--kernarg expects OFFSET:TYPE:VALUE, got '" + spec.str() + "'";
    return false;
  }
  StringRef type = parts[1], value = parts[2];
  uint64_t bits = 0;
  unsigned bytes = 4;
  bool ok = true;
  if (type == "ptr") {
    auto it = addresses.find(value);
    ok = it != addresses.end();
    bits = ok ? it->second : 0;
    bytes = 8;
  } else if (type == "u64") {
    ok = !value.getAsInteger(0, bits);
    bytes = 8;
  } else if (type == "u32" || type == "i32") {
    int64_t v;
    ok = !value.getAsInteger(0, v) && v >= INT32_MIN && v <= UINT32_MAX;
    bits = uint32_t(v);
  } else if (type == "f32") {
    double v;
    ok = !value.getAsDouble(v);
    float f = float(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bits = u;
  } else {
    ok = false;
  }
  if (!ok || offset + bytes > segment.size()) {
    error = "bad --kernarg '" + spec.str() +
            "' (unknown buffer or type, or beyond --kernarg-size)";
    return false;
  }
  for (unsigned b = 0; b < bytes; ++b)
    segment[offset + b] = uint8_t(bits >> (8 * b));
  return true;
}

/// --run: one launch of \p kernel.
static int runLaunch(const isa::Kernel &kernel) {
  isa::Launch launch;
  if (!parseDims(gridSpec, launch.grid) || !parseDims(blockSpec, launch.block))
    return badInput("--grid and --block expect X,Y,Z (positive)");
  auto widen = [](std::array<uint32_t, 3> dims) {
    return std::array<int64_t, 3>{dims[0], dims[1], dims[2]};
  };
  if (std::optional<std::string> refused = mlir::mx::emu::checkLaunchBudget(
          kernel.name, widen(launch.grid), widen(launch.block), maxWorkgroups))
    return badInput(*refused);
  StringMap<std::vector<uint8_t>> buffers;
  for (StringRef spec : bufferSpecs) {
    auto [name, source] = spec.split('=');
    if (name.empty() || source.empty() || buffers.count(name))
      return badInput("--buffer expects a new NAME=PATH or NAME=zeros:BYTES");
    std::vector<uint8_t> &bytes = buffers[name];
    uint64_t size;
    if (source.consume_front("zeros:")) {
      if (source.getAsInteger(0, size) || size > (uint64_t(1) << 34))
        return badInput("bad size in --buffer '" + spec + "'");
      bytes.assign(size, 0);
      continue;
    }
    Expected<std::unique_ptr<MemoryBuffer>> file =
        mlir::mx::readUserFile(source, {}, "the buffer");
    if (!file)
      return badInput(toString(file.takeError()));
    bytes.assign((*file)->getBufferStart(), (*file)->getBufferEnd());
  }
  isa::DeviceMemory memory;
  StringMap<uint64_t> addresses;
  for (auto &entry : buffers)
    addresses[entry.first()] =
        memory.map(entry.second.data(), entry.second.size(), true,
                   "buffer '" + entry.first().str() + "'");
  std::vector<uint8_t> segment(
      std::max<uint64_t>(kernargSize, kernel.descriptor.kernargSize), 0);
  for (StringRef spec : kernargSpecs) {
    std::string error;
    if (!putKernarg(spec, segment, addresses, error))
      return badInput(error);
  }
  launch.kernargAddress =
      memory.map(segment.data(), segment.size(), false, "kernarg segment");
  isa::ExecutorOptions options;
  options.threads = threads;
  options.checkHazards = hazards;
  isa::ExecutionStats stats;
  if (!timingModel) {
    if (Error error = isa::execute(kernel, launch, memory, options, &stats)) {
      errs() << "mx-isa: " << toString(std::move(error)) << "\n";
      return 1;
    }
  } else {
    isa::MachineModel machine;
    for (StringRef assignment : timingConstants)
      if (Error error = machine.set(assignment))
        return badInput("--timing-constant: " + toString(std::move(error)));
    Expected<isa::TimingReport> report =
        isa::executeAndTime(kernel, launch, memory, options, machine, &stats);
    if (!report) {
      errs() << "mx-isa: " << toString(report.takeError()) << "\n";
      return 1;
    }
    report->print(outs());
    if (!timingJSON.empty()) {
      std::error_code ec;
      raw_fd_ostream os(timingJSON, ec);
      if (ec)
        return badInput("cannot write '" + timingJSON + "'");
      report->printJSON(os);
    }
  }
  outs() << "ran " << kernel.name << ": " << stats.workgroups << " workgroups, "
         << stats.waves << " waves, " << stats.instructions << " instructions, "
         << stats.scaledMFMAs << " scaled MFMAs\n";
  for (StringRef spec : outSpecs) {
    auto [name, path] = spec.split('=');
    auto it = buffers.find(name);
    if (it == buffers.end())
      return badInput("--out names no buffer: '" + spec + "'");
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    if (ec)
      return badInput("cannot write '" + path + "'");
    os.write(reinterpret_cast<const char *>(it->second.data()),
             it->second.size());
  }
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  mlir::mx::setVersionPrinter("mx-isa");
  cl::ParseCommandLineOptions(argc, argv,
                              "mx-isa: the opcodes of a gfx950 code object "
                              "and their coverage by the ISA executor\n");
  if (machineConstants) {
    isa::MachineModel::printTable(outs());
    return 0;
  }
  if (inputFilename.empty())
    return badInput("no code object given (usage: mx-isa FILE.co [--run ...])");
  if (!runMode && (timingModel || timingConstants.getNumOccurrences() ||
                   timingJSON.getNumOccurrences()))
    return badInput("--timing-model, --timing-constant and --timing-json "
                    "need --run");
  Expected<std::unique_ptr<MemoryBuffer>> file =
      mlir::mx::readUserFile(inputFilename, {}, "the code object");
  if (!file) {
    errs() << "mx-isa: " << toString(file.takeError()) << "\n";
    return 1;
  }
  Expected<isa::CodeObject> object = isa::loadCodeObject((*file)->getBuffer());
  if (!object) {
    errs() << "mx-isa: " << inputFilename << ": "
           << toString(object.takeError()) << "\n";
    return 1;
  }
  if (runMode) {
    const isa::Kernel *kernel =
        kernelName.empty() && object->kernels.size() == 1
            ? &object->kernels.front()
            : object->lookup(kernelName);
    if (!kernel)
      return badInput("--run needs --kernel=NAME of a kernel of the object");
    return runLaunch(*kernel);
  }
  bool allCovered = true;
  for (const isa::Kernel &kernel : object->kernels) {
    if (!kernelName.empty() && kernel.name != kernelName)
      continue;
    const isa::KernelDescriptor &kd = kernel.descriptor;
    outs() << "kernel " << kernel.name << ": " << kernel.instructions.size()
           << " instructions, LDS " << kd.groupSegmentFixedSize
           << " bytes, kernarg " << kd.kernargSize << " bytes, "
           << (kd.getVGPRBlocks() + 1) * 8 << " VGPRs+AGPRs (AGPRs from "
           << kd.getAccumOffset() << "), " << kd.getUserSGPRCount()
           << " user SGPRs\n";
    std::map<std::string, unsigned> counts;
    for (const isa::Instruction &inst : kernel.instructions)
      ++counts[inst.mnemonic];
    for (const auto &[mnemonic, count] : counts) {
      bool covered = isa::isSupported(mnemonic);
      allCovered &= covered;
      outs() << "  " << mnemonic << " " << count
             << (covered ? "" : " NOT COVERED") << "\n";
    }
  }
  return allCovered ? 0 : 1;
}
