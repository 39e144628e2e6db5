//===- KernelReport.cpp - static statistics of gfx950 kernels -------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/Codegen/KernelReport.h"

#include "mx/Target/GFX950/GFX950.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmParser();
}

using namespace mlir;
using namespace mlir::mx;
using namespace mlir::mx::gfx950;

static int64_t sum(const llvm::StringMap<int64_t> &counts) {
  int64_t total = 0;
  for (const auto &entry : counts)
    total += entry.getValue();
  return total;
}

int64_t InstructionCounts::getNumMFMAs() const { return sum(mfmas); }

int64_t InstructionCounts::getNumGlobalStores() const {
  return sum(globalStores);
}

static void count(InstructionCounts &counts, StringRef line) {
  StringRef mnemonic = line.take_until([](char c) { return llvm::isSpace(c); });
  ++counts.instructions;
  if (mnemonic.starts_with("v_mfma"))
    ++counts.mfmas[mnemonic];
  bool toLDS = line.contains(" lds") || mnemonic.starts_with("global_load_lds");
  if (toLDS && (mnemonic.starts_with("global_load") ||
                mnemonic.starts_with("buffer_load")))
    ++counts.directToLDSLoads;
  else if (mnemonic.starts_with("global_load") ||
           mnemonic.starts_with("buffer_load"))
    ++counts.globalLoads;
  else if (mnemonic.starts_with("ds_read") || mnemonic.starts_with("ds_load"))
    ++counts.ldsLoads;
  else if (mnemonic.starts_with("global_store") ||
           mnemonic.starts_with("buffer_store"))
    ++counts.globalStores[mnemonic];
}

/// Parses the `.amdgpu_metadata` YAML block: one entry per kernel, `key:
/// value` lines at the entry's level.
static void parseMetadata(StringRef assembly,
                          SmallVectorImpl<KernelStats> &kernels) {
  size_t begin = assembly.find(".amdgpu_metadata");
  size_t end = assembly.find(".end_amdgpu_metadata");
  if (begin == StringRef::npos || end == StringRef::npos)
    return;
  SmallVector<StringRef> lines;
  assembly.slice(begin, end).split(lines, '\n');
  KernelStats *current = nullptr;
  for (StringRef line : lines) {
    StringRef entry;
    if (line.starts_with("  - .")) {
      kernels.emplace_back();
      current = &kernels.back();
      entry = line.drop_front(4);
    } else if (line.starts_with("    .") && current) {
      entry = line.drop_front(4);
    } else {
      continue;
    }
    auto [key, value] = entry.split(':');
    value = value.trim();
    if (key == ".name") {
      current->name = value.str();
      continue;
    }
    int64_t number = 0;
    if (value.getAsInteger(10, number))
      continue;
    if (int64_t *field =
            llvm::StringSwitch<int64_t *>(key)
                .Case(".vgpr_count", &current->vgprs)
                .Case(".agpr_count", &current->agprs)
                .Case(".sgpr_count", &current->sgprs)
                .Case(".group_segment_fixed_size", &current->ldsBytes)
                .Case(".private_segment_fixed_size", &current->scratchBytes)
                .Case(".vgpr_spill_count", &current->vgprSpills)
                .Case(".sgpr_spill_count", &current->sgprSpills)
                .Case(".max_flat_workgroup_size", &current->maxWorkgroupSize)
                .Default(nullptr))
      *field = number;
  }
}

/// Whether the branch `body[at]` back to `body[target]` closes a loop:
/// whether control reaches it from `target` without leaving [target, at]. A
/// block that LLVM placed after the code it jumps back into (the rare side
/// of a branch, moved to the function's end) is no loop.
static bool closesLoop(ArrayRef<StringRef> body,
                       const llvm::StringMap<size_t> &labels, size_t target,
                       size_t at) {
  SmallVector<bool> seen(at - target + 1, false);
  SmallVector<size_t> work = {target};
  while (!work.empty()) {
    for (size_t i = work.pop_back_val(); i <= at && !seen[i - target]; ++i) {
      seen[i - target] = true;
      if (i == at)
        return true;
      StringRef line = body[i];
      if (line.starts_with("s_endpgm"))
        break;
      bool jump = line.starts_with("s_branch");
      if (!jump && !line.starts_with("s_cbranch"))
        continue;
      auto it = labels.find(line.rsplit(' ').second);
      if (it != labels.end() && it->second >= target && it->second <= at)
        work.push_back(it->second);
      if (jump)
        break;
    }
  }
  return false;
}

/// Counts the instructions of `kernel`'s body (from its label to the
/// function end) and of its main loop.
static void analyzeBody(StringRef assembly, KernelStats &kernel) {
  SmallVector<StringRef> lines;
  assembly.split(lines, '\n');
  std::string label = kernel.name + ":";
  auto start = llvm::find_if(
      lines, [&](StringRef line) { return line.trim() == label; });
  if (start == lines.end())
    return;
  SmallVector<StringRef> body;
  llvm::StringMap<size_t> labels;
  SmallVector<std::pair<size_t, StringRef>> branches;
  for (auto it = std::next(start); it != lines.end(); ++it) {
    StringRef line = it->trim();
    if (line.starts_with(".Lfunc_end"))
      break;
    if (line.empty() || line.starts_with(";"))
      continue;
    if (line.ends_with(":")) {
      labels[line.drop_back()] = body.size();
      continue;
    }
    if (line.starts_with("."))
      continue;
    if (line.starts_with("s_branch") || line.starts_with("s_cbranch"))
      branches.push_back({body.size(), line.rsplit(' ').second});
    body.push_back(line);
  }
  for (StringRef line : body)
    count(kernel.total, line);
  for (auto [at, target] : branches) {
    auto it = labels.find(target);
    if (it == labels.end() || it->second > at ||
        !closesLoop(body, labels, it->second, at))
      continue;
    InstructionCounts loop;
    for (size_t i = it->second; i <= at; ++i)
      count(loop, body[i]);
    if (!kernel.hasLoop || loop.getNumMFMAs() > kernel.mainLoop.getNumMFMAs()) {
      kernel.mainLoop = std::move(loop);
      kernel.hasLoop = true;
    }
  }
}

/// Waves per SIMD allowed by the unified VGPR/AGPR file (512 registers per
/// lane and SIMD, allocated in granules of 8) and by LDS (160 KiB per CU,
/// 4 SIMDs, allocated in granules of 1280 bytes).
static int64_t getWavesPerSIMD(const KernelStats &kernel) {
  int64_t waves = 8;
  int64_t registers = llvm::alignTo(std::max<int64_t>(kernel.vgprs, 1), 8);
  waves = std::min<int64_t>(waves, 512 / registers);
  if (kernel.ldsBytes > 0) {
    int64_t workgroupsPerCU = kLDSBytes / llvm::alignTo(kernel.ldsBytes, 1280);
    int64_t wavesPerWorkgroup = std::max<int64_t>(
        1, llvm::divideCeil(kernel.maxWorkgroupSize, kWaveSize));
    waves = std::min<int64_t>(waves, workgroupsPerCU * wavesPerWorkgroup / 4);
  }
  return waves;
}

/// Assembles `assembly` for gfx950 and returns the size of every function
/// symbol.
static llvm::Expected<llvm::StringMap<int64_t>>
getSymbolSizes(StringRef assembly) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
  });
  llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers(
      target->createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(
      target->createMCAsmInfo(*registers, triple, options));
  std::unique_ptr<llvm::MCInstrInfo> instrInfo(target->createMCInstrInfo());
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "gfx950", ""));
  if (!registers || !asmInfo || !instrInfo || !subtarget)
    return llvm::createStringError("cannot create the gfx950 MC layer");

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(assembly, "gfx950.s",
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &diag, void *context) {
        diag.print(/*ProgName=*/nullptr,
                   *static_cast<llvm::raw_string_ostream *>(context));
      },
      &diagnosticStream);
  llvm::MCContext context(triple, asmInfo.get(), registers.get(),
                          subtarget.get(), &sourceMgr, &options);
  std::unique_ptr<llvm::MCObjectFileInfo> objectInfo(
      target->createMCObjectFileInfo(context, /*PIC=*/false));
  context.setObjectFileInfo(objectInfo.get());

  llvm::SmallString<0> object;
  llvm::raw_svector_ostream objectStream(object);
  std::unique_ptr<llvm::MCAsmBackend> backend(
      target->createMCAsmBackend(*subtarget, *registers, options));
  std::unique_ptr<llvm::MCCodeEmitter> emitter(
      target->createMCCodeEmitter(*instrInfo, context));
  if (!backend || !emitter)
    return llvm::createStringError("cannot create the gfx950 assembler");
  std::unique_ptr<llvm::MCObjectWriter> writer =
      backend->createObjectWriter(objectStream);
  std::unique_ptr<llvm::MCStreamer> streamer(target->createMCObjectStreamer(
      triple, context, std::move(backend), std::move(writer),
      std::move(emitter), *subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(sourceMgr, context, *streamer, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*subtarget, *parser, *instrInfo, options));
  if (!targetParser)
    return llvm::createStringError("cannot create the gfx950 asm parser");
  parser->setTargetParser(*targetParser);
  if (parser->Run(/*NoInitialTextSection=*/false))
    return llvm::createStringError("cannot assemble the kernel: " +
                                   diagnostics);

  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> file =
      llvm::object::ObjectFile::createObjectFile(
          llvm::MemoryBufferRef(object.str(), "gfx950.o"));
  if (!file)
    return file.takeError();
  auto *elf = dyn_cast<llvm::object::ELFObjectFileBase>(file->get());
  if (!elf)
    return llvm::createStringError("the assembled kernel is not ELF");
  llvm::StringMap<int64_t> sizes;
  for (llvm::object::ELFSymbolRef symbol : elf->symbols()) {
    llvm::Expected<StringRef> name = symbol.getName();
    if (!name)
      return name.takeError();
    sizes[*name] = symbol.getSize();
  }
  return sizes;
}

llvm::Expected<SmallVector<KernelStats, 1>>
gfx950::analyzeAssembly(StringRef assembly) {
  SmallVector<KernelStats, 1> kernels;
  parseMetadata(assembly, kernels);
  if (kernels.empty())
    return llvm::createStringError(
        "no AMDHSA kernel metadata (.amdgpu_metadata) in the assembly");
  llvm::Expected<llvm::StringMap<int64_t>> sizes = getSymbolSizes(assembly);
  if (!sizes)
    return sizes.takeError();
  for (KernelStats &kernel : kernels) {
    analyzeBody(assembly, kernel);
    kernel.codeBytes = sizes->lookup(kernel.name);
    kernel.wavesPerSIMD = getWavesPerSIMD(kernel);
  }
  return kernels;
}

static void printCounts(llvm::raw_ostream &os, StringRef prefix,
                        const InstructionCounts &counts) {
  os << "  " << prefix << "instructions: " << counts.instructions << "\n";
  os << "  " << prefix << "mfma: " << counts.getNumMFMAs() << "\n";
  auto printByKind = [&](StringRef name,
                         const llvm::StringMap<int64_t> &byKind) {
    SmallVector<StringRef> kinds;
    for (const auto &entry : byKind)
      kinds.push_back(entry.getKey());
    llvm::sort(kinds);
    for (StringRef kind : kinds)
      os << "  " << prefix << name << "." << kind << ": " << byKind.lookup(kind)
         << "\n";
  };
  printByKind("mfma", counts.mfmas);
  os << "  " << prefix << "global_loads: " << counts.globalLoads << "\n";
  os << "  " << prefix << "lds_loads: " << counts.ldsLoads << "\n";
  os << "  " << prefix << "direct_to_lds_loads: " << counts.directToLDSLoads
     << "\n";
  os << "  " << prefix << "global_stores: " << counts.getNumGlobalStores()
     << "\n";
  printByKind("global_stores", counts.globalStores);
}

void gfx950::printReport(llvm::raw_ostream &os, ArrayRef<KernelStats> kernels) {
  for (const KernelStats &kernel : kernels) {
    os << "kernel " << kernel.name << "\n";
    os << "  vgprs: " << kernel.vgprs << "\n";
    os << "  agprs: " << kernel.agprs << "\n";
    os << "  sgprs: " << kernel.sgprs << "\n";
    os << "  lds_bytes: " << kernel.ldsBytes << "\n";
    os << "  scratch_bytes: " << kernel.scratchBytes << "\n";
    os << "  vgpr_spills: " << kernel.vgprSpills << "\n";
    os << "  sgpr_spills: " << kernel.sgprSpills << "\n";
    os << "  max_workgroup_size: " << kernel.maxWorkgroupSize << "\n";
    os << "  waves_per_simd: " << kernel.wavesPerSIMD << "\n";
    os << "  code_bytes: " << kernel.codeBytes << "\n";
    printCounts(os, "", kernel.total);
    if (kernel.hasLoop)
      printCounts(os, "main_loop.", kernel.mainLoop);
  }
}
