//===- CodeObject.cpp - loading and decoding gfx950 code objects ----------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/ISA/CodeObject.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUDisassembler();
}

using namespace llvm;
using namespace mlir::mx::gfx950::isa;
namespace isa = mlir::mx::gfx950::isa;

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message.str());
}

const Kernel *CodeObject::lookup(StringRef name) const {
  for (const Kernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

namespace {
/// LLVM's MC objects for gfx950: disassembler and printer.
struct Disassembler {
  Triple triple{"amdgcn-amd-amdhsa"};
  std::unique_ptr<MCRegisterInfo> registers;
  std::unique_ptr<MCAsmInfo> asmInfo;
  std::unique_ptr<MCSubtargetInfo> subtarget;
  std::unique_ptr<MCInstrInfo> instrInfo;
  std::unique_ptr<MCContext> context;
  std::unique_ptr<MCDisassembler> disassembler;
  std::unique_ptr<MCInstPrinter> printer;

  Error init();
  /// Decodes the instructions of [begin, end) of \p text (loaded at
  /// \p base) into \p kernel.
  Error decode(ArrayRef<uint8_t> text, uint64_t base, uint64_t begin,
               uint64_t end, bool stopAtPadding, Kernel &kernel);
};
} // namespace

Error Disassembler::init() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("the AMDGPU target of LLVM is not available: " + error);
  registers.reset(target->createMCRegInfo(triple));
  MCTargetOptions options;
  asmInfo.reset(target->createMCAsmInfo(*registers, triple, options));
  subtarget.reset(target->createMCSubtargetInfo(triple, "gfx950", ""));
  instrInfo.reset(target->createMCInstrInfo());
  if (!registers || !asmInfo || !subtarget || !instrInfo)
    return makeError("LLVM's AMDGPU MC layer could not be created");
  context = std::make_unique<MCContext>(triple, asmInfo.get(), registers.get(),
                                        subtarget.get());
  disassembler.reset(target->createMCDisassembler(*subtarget, *context));
  printer.reset(
      target->createMCInstPrinter(triple, 0, *asmInfo, *instrInfo, *registers));
  if (!disassembler || !printer)
    return makeError("LLVM's AMDGPU disassembler could not be created");
  return Error::success();
}

Error Disassembler::decode(ArrayRef<uint8_t> text, uint64_t base,
                           uint64_t begin, uint64_t end, bool stopAtPadding,
                           Kernel &kernel) {
  bool ended = false;
  for (uint64_t pc = begin; pc < end;) {
    MCInst mcInst;
    uint64_t size = 0;
    ArrayRef<uint8_t> bytes = text.slice(pc - base, end - pc);
    MCDisassembler::DecodeStatus status =
        disassembler->getInstruction(mcInst, size, bytes, pc, nulls());
    if ((status != MCDisassembler::Success || size == 0) && stopAtPadding &&
        ended)
      return Error::success();
    if (status != MCDisassembler::Success || size == 0)
      return makeError(formatv("kernel {0}: undecodable instruction at "
                               "offset {1:x} of the text",
                               kernel.name, pc - begin)
                           .str());
    std::string printed;
    raw_string_ostream os(printed);
    printer->printInst(&mcInst, pc, "", *subtarget, os);
    int64_t simm16 = 0;
    for (const MCOperand &operand : mcInst)
      if (operand.isImm()) {
        simm16 = operand.getImm();
        break;
      }
    Expected<isa::Instruction> inst =
        parseInstruction(printed, pc, unsigned(size), simm16);
    if (!inst)
      return makeError("kernel " + kernel.name + ": " +
                       toString(inst.takeError()));
    ended |= inst->mnemonic == "s_endpgm";
    kernel.indexOfPc[pc] = kernel.instructions.size();
    kernel.instructions.push_back(std::move(*inst));
    pc += size;
    // Code after s_endpgm that nothing branches to is padding (s_code_end
    // fill); decoding stops at the function's end anyway.
  }
  return Error::success();
}

/// Reads the 64-byte descriptor at \p bytes.
static KernelDescriptor readDescriptor(const uint8_t *bytes) {
  using namespace llvm::support;
  KernelDescriptor kd;
  kd.groupSegmentFixedSize = endian::read32le(bytes + 0);
  kd.privateSegmentFixedSize = endian::read32le(bytes + 4);
  kd.kernargSize = endian::read32le(bytes + 8);
  kd.kernelCodeEntryByteOffset = int64_t(endian::read64le(bytes + 16));
  kd.computePgmRsrc3 = endian::read32le(bytes + 44);
  kd.computePgmRsrc1 = endian::read32le(bytes + 48);
  kd.computePgmRsrc2 = endian::read32le(bytes + 52);
  kd.kernelCodeProperties = endian::read16le(bytes + 56);
  uint16_t preload = endian::read16le(bytes + 58);
  kd.kernargPreloadLength = preload & 0x7f;
  kd.kernargPreloadOffset = preload >> 7;
  return kd;
}

/// The bytes of the section holding \p symbol and its load address.
static Expected<std::pair<ArrayRef<uint8_t>, uint64_t>>
getSectionBytes(const object::SymbolRef &symbol) {
  Expected<object::section_iterator> section = symbol.getSection();
  if (!section)
    return section.takeError();
  if (*section == symbol.getObject()->section_end())
    return makeError("a kernel symbol is in no section");
  Expected<StringRef> contents = (*section)->getContents();
  if (!contents)
    return contents.takeError();
  return std::make_pair(arrayRefFromStringRef(*contents),
                        (*section)->getAddress());
}

/// Loads the kernel whose descriptor is \p kdSymbol, of function \p name.
static Error loadKernel(Disassembler &disassembler,
                        const object::ELFObjectFileBase &elf,
                        const object::ELFSymbolRef &kdSymbol, StringRef name,
                        CodeObject &codeObject) {
  Expected<std::pair<ArrayRef<uint8_t>, uint64_t>> kdSection =
      getSectionBytes(kdSymbol);
  if (!kdSection)
    return kdSection.takeError();
  Expected<uint64_t> kdAddress = kdSymbol.getAddress();
  if (!kdAddress)
    return kdAddress.takeError();
  auto [kdBytes, kdBase] = *kdSection;
  if (*kdAddress < kdBase || *kdAddress - kdBase + 64 > kdBytes.size())
    return makeError("the kernel descriptor of " + name +
                     " lies outside its section (truncated code object?)");
  Kernel kernel;
  kernel.name = name.str();
  kernel.descriptor = readDescriptor(kdBytes.data() + (*kdAddress - kdBase));
  uint64_t entry =
      *kdAddress + uint64_t(kernel.descriptor.kernelCodeEntryByteOffset);
  for (const object::ELFSymbolRef &symbol : elf.symbols()) {
    Expected<StringRef> symbolName = symbol.getName();
    Expected<uint64_t> address = symbol.getAddress();
    if (!symbolName || !address || *symbolName != name) {
      if (!symbolName)
        consumeError(symbolName.takeError());
      if (!address)
        consumeError(address.takeError());
      continue;
    }
    Expected<std::pair<ArrayRef<uint8_t>, uint64_t>> text =
        getSectionBytes(symbol);
    if (!text)
      return text.takeError();
    auto [textBytes, textBase] = *text;
    // Hand-written kernels may leave the function's size 0: their code runs
    // to the end of the section (decoding stops at what cannot be decoded
    // after an s_endpgm: padding).
    bool sized = symbol.getSize() != 0;
    uint64_t end =
        sized ? *address + symbol.getSize() : textBase + textBytes.size();
    if (*address != entry || entry < textBase ||
        end - textBase > textBytes.size() || end <= entry)
      return makeError("the code of kernel " + name +
                       " does not match its descriptor or lies outside "
                       "its section (truncated code object?)");
    if (Error error = disassembler.decode(textBytes, textBase, entry, end,
                                          /*stopAtPadding=*/!sized, kernel))
      return error;
    codeObject.kernels.push_back(std::move(kernel));
    return Error::success();
  }
  return makeError("no function symbol for kernel descriptor " + name + ".kd");
}

Expected<CodeObject> mlir::mx::gfx950::isa::loadCodeObject(StringRef image) {
  Disassembler disassembler;
  if (Error error = disassembler.init())
    return std::move(error);
  Expected<std::unique_ptr<object::ObjectFile>> file =
      object::ObjectFile::createELFObjectFile(
          MemoryBufferRef(image, "code object"));
  if (!file)
    return makeError("not a valid ELF code object: " +
                     toString(file.takeError()));
  auto *elf = dyn_cast<object::ELFObjectFileBase>(file->get());
  if (!elf || elf->getArch() != Triple::amdgcn)
    return makeError("not an AMDGPU code object");
  CodeObject codeObject;
  for (const object::ELFSymbolRef &symbol : elf->symbols()) {
    Expected<StringRef> name = symbol.getName();
    if (!name)
      return name.takeError();
    if (!name->ends_with(".kd"))
      continue;
    if (Error error = loadKernel(disassembler, *elf, symbol, name->drop_back(3),
                                 codeObject))
      return std::move(error);
  }
  if (codeObject.kernels.empty())
    return makeError("the code object has no kernel (no `.kd` symbol)");
  return codeObject;
}
