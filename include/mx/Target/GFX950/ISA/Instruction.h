//===- Instruction.h - a decoded gfx950 instruction -------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One machine instruction of a gfx950 code object as the ISA executor sees
// it: LLVM's AMDGPU MCDisassembler decodes the bits and its MCInstPrinter
// prints the canonical assembly (what `llvm-objdump --mcpu=gfx950` shows);
// parseInstruction turns that text into a mnemonic, register operands and
// modifiers. Nothing here decodes encodings by hand.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_ISA_INSTRUCTION_H
#define MX_TARGET_GFX950_ISA_INSTRUCTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::mx::gfx950::isa {

/// What an operand names.
enum class OperandKind : uint8_t {
  SGPR, ///< s<n> or s[a:b].
  VGPR, ///< v<n> or v[a:b].
  AGPR, ///< a<n> or a[a:b].
  VCC,  ///< vcc (64 bits), vcc_lo, vcc_hi: SGPR-like, `reg` 0/1.
  Exec, ///< exec, exec_lo, exec_hi: `reg` 0/1.
  M0,   ///< m0.
  SCC,  ///< src_scc.
  Imm,  ///< an inline constant or literal (`value`, `isFloat`).
  Off,  ///< `off` (no address VGPR / no SGPR offset).
};

/// One operand: a register range of `count` 32-bit registers starting at
/// `reg`, or an immediate.
struct Operand {
  OperandKind kind = OperandKind::Imm;
  uint16_t reg = 0;
  uint8_t count = 1;
  /// Source modifiers: -x, |x|, sext(x).
  bool neg = false, abs = false, sext = false;
  /// Imm: the integer printed, or the float printed when isFloat (then
  /// `fvalue`; its bits depend on the operand's type).
  bool isFloat = false;
  int64_t value = 0;
  double fvalue = 0;

  bool isRegister() const {
    return kind != OperandKind::Imm && kind != OperandKind::Off;
  }
  bool isVector() const {
    return kind == OperandKind::VGPR || kind == OperandKind::AGPR;
  }
};

/// SDWA operand selection (dst_sel / src*_sel).
enum class SDWASel : uint8_t {
  Byte0,
  Byte1,
  Byte2,
  Byte3,
  Word0,
  Word1,
  Dword
};

/// A decoded instruction.
struct Instruction {
  /// The address of the instruction in the code object's text and its size
  /// in bytes (4 or 8, 12 with a literal).
  uint64_t pc = 0;
  unsigned size = 4;
  /// LLVM's printed form, e.g. "v_add_u32_e32 v1, s2, v1" (for messages).
  std::string text;
  /// The mnemonic as printed: "v_add_u32_e32", "s_waitcnt", ...
  std::string mnemonic;
  llvm::SmallVector<Operand, 6> operands;

  // Modifiers (0 / false when absent).
  int64_t offset = 0, offset0 = 0, offset1 = 0;
  bool offen = false, idxen = false, lds = false;
  bool sc0 = false, sc1 = false, nt = false;
  bool clamp = false;
  int omod = 0;
  unsigned opSel = 0, opSelHi = 0, negLo = 0, negHi = 0;
  bool hasOpSelHi = false;
  unsigned cbsz = 0, blgp = 0, abid = 0;
  unsigned bitop3 = 0;
  SDWASel dstSel = SDWASel::Dword, src0Sel = SDWASel::Dword,
          src1Sel = SDWASel::Dword;
  bool dstUnusedPreserve = false, dstUnusedSext = false;
  /// s_waitcnt: the counters it waits for (-1 when absent: no wait).
  int vmcnt = -1, expcnt = -1, lgkmcnt = -1;
  /// Branches: the target pc; s_nop: the wait states (simm16 + 1).
  uint64_t target = 0;
  int64_t simm16 = 0;
};

/// Parses LLVM's printed form \p text of the instruction at \p pc (\p size
/// bytes); \p simm16 is the instruction's raw 16-bit immediate for SOPP
/// instructions (branch offsets, s_nop), which the printer may render as a
/// label. Fails on text it cannot parse, naming it.
llvm::Expected<Instruction> parseInstruction(llvm::StringRef text, uint64_t pc,
                                             unsigned size, int64_t simm16);

} // namespace mlir::mx::gfx950::isa

#endif // MX_TARGET_GFX950_ISA_INSTRUCTION_H
