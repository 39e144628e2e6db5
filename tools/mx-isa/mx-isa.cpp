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
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/ISA/Executor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
namespace isa = mlir::mx::gfx950::isa;

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<code object>"), cl::Required);
static cl::opt<std::string>
    kernelName("kernel", cl::desc("Only the kernel NAME"), cl::init(""));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "mx-isa: the opcodes of a gfx950 code object "
                              "and their coverage by the ISA executor\n");
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(
      inputFilename, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!file) {
    errs() << "mx-isa: cannot read '" << inputFilename
           << "': " << file.getError().message() << "\n";
    return 1;
  }
  Expected<isa::CodeObject> object = isa::loadCodeObject((*file)->getBuffer());
  if (!object) {
    errs() << "mx-isa: " << inputFilename << ": "
           << toString(object.takeError()) << "\n";
    return 1;
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
