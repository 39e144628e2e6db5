//===- Instruction.cpp - parsing LLVM's printed gfx950 instructions -------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/ISA/Instruction.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;
using namespace mlir::mx::gfx950::isa;

static Error parseError(StringRef text, const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot parse '" + text + "': " + what);
}

/// Parses "n" or "[a:b]" after a register file letter.
static bool parseRange(StringRef body, Operand &op) {
  unsigned first, last;
  if (body.consume_front("[")) {
    auto [a, b] = body.drop_back().split(':');
    if (!body.ends_with("]") || a.getAsInteger(10, first) ||
        b.getAsInteger(10, last) || last < first)
      return false;
    op.reg = first;
    op.count = last - first + 1;
    return true;
  }
  if (body.getAsInteger(10, first))
    return false;
  op.reg = first;
  op.count = 1;
  return true;
}

/// Parses a register name or immediate (without source modifiers).
static bool parseBareOperand(StringRef token, Operand &op) {
  auto special = StringSwitch<std::pair<OperandKind, int>>(token)
                     .Case("vcc", {OperandKind::VCC, 0})
                     .Case("vcc_lo", {OperandKind::VCC, 0})
                     .Case("vcc_hi", {OperandKind::VCC, 1})
                     .Case("exec", {OperandKind::Exec, 0})
                     .Case("exec_lo", {OperandKind::Exec, 0})
                     .Case("exec_hi", {OperandKind::Exec, 1})
                     .Case("m0", {OperandKind::M0, 0})
                     .Case("src_scc", {OperandKind::SCC, 0})
                     .Case("off", {OperandKind::Off, 0})
                     .Default({OperandKind::Imm, -1});
  if (special.second >= 0) {
    op.kind = special.first;
    op.reg = special.second;
    op.count = (token == "vcc" || token == "exec") ? 2 : 1;
    return true;
  }
  if (token.size() >= 2 &&
      (token[0] == 's' || token[0] == 'v' || token[0] == 'a') &&
      (isDigit(token[1]) || token[1] == '[')) {
    op.kind = token[0] == 's'   ? OperandKind::SGPR
              : token[0] == 'v' ? OperandKind::VGPR
                                : OperandKind::AGPR;
    return parseRange(token.drop_front(), op);
  }
  op.kind = OperandKind::Imm;
  bool negative = token.consume_front("-");
  uint64_t bits;
  if (token.starts_with("0x") ? !token.drop_front(2).getAsInteger(16, bits)
                              : !token.getAsInteger(10, bits)) {
    op.value = negative ? -int64_t(bits) : int64_t(bits);
    return true;
  }
  double value;
  if (!token.getAsDouble(value)) {
    op.isFloat = true;
    op.fvalue = negative ? -value : value;
    return true;
  }
  return false;
}

/// Parses an operand with its source modifiers (-x, |x|, -|x|, sext(x)).
static bool parseOperand(StringRef token, Operand &op) {
  if (token.consume_front("sext(")) {
    op.sext = true;
    return token.consume_back(")") && parseBareOperand(token, op);
  }
  if (token.starts_with("-") && token.size() > 1 &&
      (token[1] == '|' || isAlpha(token[1]))) {
    op.neg = true;
    token = token.drop_front();
  }
  if (token.starts_with("|")) {
    op.abs = true;
    if (!token.consume_back("|"))
      return false;
    token = token.drop_front();
  }
  return parseBareOperand(token, op);
}

/// Parses "[1,0,1]" into a bit mask (bit i = element i).
static bool parseBitList(StringRef value, unsigned &mask) {
  if (!value.consume_front("[") || !value.consume_back("]"))
    return false;
  SmallVector<StringRef> bits;
  value.split(bits, ',');
  mask = 0;
  for (auto [i, bit] : llvm::enumerate(bits)) {
    if (bit != "0" && bit != "1")
      return false;
    mask |= unsigned(bit == "1") << i;
  }
  return true;
}

static std::optional<SDWASel> parseSel(StringRef value) {
  return StringSwitch<std::optional<SDWASel>>(value)
      .Case("BYTE_0", SDWASel::Byte0)
      .Case("BYTE_1", SDWASel::Byte1)
      .Case("BYTE_2", SDWASel::Byte2)
      .Case("BYTE_3", SDWASel::Byte3)
      .Case("WORD_0", SDWASel::Word0)
      .Case("WORD_1", SDWASel::Word1)
      .Case("DWORD", SDWASel::Dword)
      .Default(std::nullopt);
}

/// Parses "name(n)" counters of s_waitcnt.
static bool parseCounter(StringRef token, Instruction &inst) {
  auto [name, rest] = token.split('(');
  unsigned value;
  if (!rest.consume_back(")") || rest.getAsInteger(10, value))
    return false;
  int *counter = StringSwitch<int *>(name)
                     .Case("vmcnt", &inst.vmcnt)
                     .Case("expcnt", &inst.expcnt)
                     .Case("lgkmcnt", &inst.lgkmcnt)
                     .Default(nullptr);
  if (!counter)
    return false;
  *counter = int(value);
  return true;
}

/// Parses one modifier token; false if it is not one.
static bool parseModifier(StringRef token, Instruction &inst) {
  bool *flag = StringSwitch<bool *>(token)
                   .Case("offen", &inst.offen)
                   .Case("idxen", &inst.idxen)
                   .Case("lds", &inst.lds)
                   .Cases({"sc0", "glc"}, &inst.sc0)
                   .Cases({"sc1", "slc"}, &inst.sc1)
                   .Case("nt", &inst.nt)
                   .Case("clamp", &inst.clamp)
                   .Default(nullptr);
  if (flag) {
    *flag = true;
    return true;
  }
  if (token.contains('('))
    return parseCounter(token, inst);
  auto [name, value] = token.split(':');
  if (value.empty())
    return false;
  int64_t number = 0;
  bool isNumber = !value.getAsInteger(0, number);
  if (name == "dst_unused") {
    inst.dstUnusedPreserve = value == "UNUSED_PRESERVE";
    inst.dstUnusedSext = value == "UNUSED_SEXT";
    return true;
  }
  if (name.ends_with("_sel") && name != "op_sel") {
    std::optional<SDWASel> sel = parseSel(value);
    if (!sel)
      return false;
    (name == "dst_sel"    ? inst.dstSel
     : name == "src0_sel" ? inst.src0Sel
                          : inst.src1Sel) = *sel;
    return name == "dst_sel" || name == "src0_sel" || name == "src1_sel";
  }
  if (value.starts_with("[")) {
    unsigned *mask = StringSwitch<unsigned *>(name)
                         .Case("op_sel", &inst.opSel)
                         .Case("op_sel_hi", &inst.opSelHi)
                         .Case("neg_lo", &inst.negLo)
                         .Case("neg_hi", &inst.negHi)
                         .Default(nullptr);
    inst.hasOpSelHi |= name == "op_sel_hi";
    return mask && parseBitList(value, *mask);
  }
  if (!isNumber)
    return false;
  if (name == "mul" || name == "div") {
    inst.omod = name == "mul" ? int(number) : -int(number);
    return true;
  }
  int64_t *field = StringSwitch<int64_t *>(name)
                       .Case("offset", &inst.offset)
                       .Case("offset0", &inst.offset0)
                       .Case("offset1", &inst.offset1)
                       .Default(nullptr);
  if (field) {
    *field = number;
    return true;
  }
  unsigned *small = StringSwitch<unsigned *>(name)
                        .Case("cbsz", &inst.cbsz)
                        .Case("blgp", &inst.blgp)
                        .Case("abid", &inst.abid)
                        .Case("bitop3", &inst.bitop3)
                        .Default(nullptr);
  if (!small)
    return false;
  *small = unsigned(number);
  return true;
}

/// Splits at commas outside brackets.
static SmallVector<StringRef> splitOperands(StringRef rest) {
  SmallVector<StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '[' || rest[i] == '(')
      ++depth;
    else if (rest[i] == ']' || rest[i] == ')')
      --depth;
    else if (rest[i] == ',' && depth == 0) {
      parts.push_back(rest.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!rest.trim().empty())
    parts.push_back(rest.drop_front(start).trim());
  return parts;
}

Expected<Instruction> mlir::mx::gfx950::isa::parseInstruction(StringRef text,
                                                              uint64_t pc,
                                                              unsigned size,
                                                              int64_t simm16) {
  Instruction inst;
  inst.pc = pc;
  inst.size = size;
  inst.text = text.trim().str();
  StringRef line = StringRef(inst.text);
  // Comments (`; ...`, `// ...`) are not part of the instruction.
  line = line.split(" //").first.split(';').first.trim();
  auto [mnemonic, rest] = line.split(' ');
  inst.mnemonic = mnemonic.str();
  inst.simm16 = simm16;
  inst.target = pc + 4 + uint64_t(int64_t(int16_t(simm16)) * 4);
  bool isSOPP = mnemonic == "s_nop" || mnemonic.starts_with("s_cbranch") ||
                mnemonic == "s_branch" || mnemonic.starts_with("s_sleep") ||
                mnemonic == "s_setprio";
  if (isSOPP)
    return inst;
  for (StringRef part : splitOperands(rest)) {
    SmallVector<StringRef> tokens;
    part.split(tokens, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef token : tokens) {
      Operand op;
      if (parseModifier(token, inst))
        continue;
      if (!parseOperand(token, op))
        return parseError(inst.text,
                          "unknown operand or modifier '" + token + "'");
      inst.operands.push_back(op);
    }
  }
  return inst;
}
