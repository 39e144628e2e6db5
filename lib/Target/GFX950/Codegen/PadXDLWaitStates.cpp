//===- PadXDLWaitStates.cpp - mx-gfx950-pad-xdl-wait-states ---------------===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Inserts the s_nops that LLVM 22 leaves out after 16-pass XDL MFMAs: its
// GCNHazardRecognizer asks for NumPasses + 4 = 20 wait states on gfx950
// between such an MFMA and an instruction that reads or rewrites its result,
// but looks back at most 19, so a consumer exactly 19 wait states behind
// passes its check (and fails the ISA executor's).
//
//===----------------------------------------------------------------------===//

#include "mx/Target/GFX950/ISA/MFMAPasses.h"
#include "mx/Target/GFX950/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::mx::gfx950 {
#define GEN_PASS_DEF_MXGFX950PADXDLWAITSTATES
#include "mx/Target/GFX950/Transforms/Passes.h.inc"
} // namespace mlir::mx::gfx950

using namespace mlir;

namespace {
/// The most wait states LLVM 22's GCNHazardRecognizer looks back when it
/// checks the XDL-write rules: a rule that asks for more can be left short.
constexpr int kLLVMLookBack = 19;

/// A range of VGPRs ('v') or AGPRs ('a').
struct RegRange {
  char file;
  unsigned lo, hi;
  bool overlaps(const RegRange &o) const {
    return file == o.file && lo <= o.hi && o.lo <= hi;
  }
};

/// One line of assembly, classified.
struct Line {
  StringRef text;
  StringRef mnemonic;             ///< Empty unless an instruction.
  SmallVector<RegRange> operands; ///< Vector registers, in operand order.
  int waitStates = 0;             ///< 0 unless an instruction.
  bool endsBlock = false;         ///< A label before it or a branch.
  int required = 0; ///< An XDL MFMA: the XDL-write rules' wait states.
};
} // namespace

/// The vector register operands of `operands` (the text after the
/// mnemonic, comment stripped), in order.
static SmallVector<RegRange> parseRegisters(StringRef operands) {
  SmallVector<RegRange> out;
  for (size_t i = 0; i < operands.size(); ++i) {
    char c = operands[i];
    if ((c != 'v' && c != 'a') ||
        (i > 0 && (llvm::isAlnum(operands[i - 1]) || operands[i - 1] == '_')))
      continue;
    StringRef rest = operands.drop_front(i + 1);
    unsigned lo = 0, hi = 0;
    if (rest.starts_with("[")) {
      StringRef inside =
          rest.drop_front().take_until([](char ch) { return ch == ']'; });
      auto [first, second] = inside.split(':');
      if (first.getAsInteger(10, lo) || second.getAsInteger(10, hi))
        continue;
    } else {
      StringRef digits = rest.take_while(llvm::isDigit);
      if (digits.empty() || digits.getAsInteger(10, lo))
        continue;
      // A name such as `vcc` or `off` is not a register.
      StringRef after = rest.drop_front(digits.size());
      if (!after.empty() && (llvm::isAlnum(after[0]) || after[0] == '_'))
        continue;
      hi = lo;
    }
    out.push_back({c, lo, hi});
  }
  return out;
}

/// The value of the modifier `name:N` in `operands`, or 0.
static unsigned modifier(StringRef operands, StringRef name) {
  size_t at = operands.find((name + ":").str());
  unsigned value = 0;
  if (at != StringRef::npos)
    (void)operands.drop_front(at + name.size() + 1)
        .take_while(llvm::isDigit)
        .getAsInteger(10, value);
  return value;
}

static Line classify(StringRef text) {
  Line line;
  line.text = text;
  StringRef body = text.split(';').first.trim();
  if (body.ends_with(":")) { // A label: control may arrive from elsewhere.
    line.endsBlock = true;
    return line;
  }
  if (body.empty() || body.starts_with("."))
    return line;
  auto [mnemonic, operands] = body.split(' ');
  if (mnemonic.empty() || !llvm::isAlpha(mnemonic[0]))
    return line;
  line.mnemonic = mnemonic;
  line.operands = parseRegisters(operands);
  line.waitStates = 1;
  if (mnemonic == "s_nop") {
    unsigned n = 0;
    if (!operands.trim().getAsInteger(0, n))
      line.waitStates = int(n) + 1;
  }
  line.endsBlock = mnemonic.starts_with("s_branch") ||
                   mnemonic.starts_with("s_cbranch") ||
                   mnemonic == "s_endpgm" || mnemonic.starts_with("s_setpc") ||
                   mnemonic.starts_with("s_swappc");
  if (mnemonic.starts_with("v_mfma")) {
    std::optional<std::pair<int, bool>> passes = mx::gfx950::isa::getMFMAPasses(
        mnemonic.split("_e64").first, modifier(operands, "cbsz"),
        modifier(operands, "blgp"));
    if (passes && passes->second)
      line.required = mx::gfx950::isa::getXDLWriteWaitStates(passes->first);
  }
  return line;
}

/// Whether `consumer` touches `result` in a way the XDL-write rules cover:
/// any operand of a VALU, memory or LDS instruction; srcA, srcB or a scale
/// of an MFMA (its srcC and destination: the overlapped-srcC rule, at most
/// 18 for 16 passes).
static bool touches(const Line &consumer, const RegRange &result) {
  if (consumer.mnemonic.starts_with("s_"))
    return false;
  bool mfma = consumer.mnemonic.starts_with("v_mfma");
  for (auto [index, reg] : llvm::enumerate(consumer.operands)) {
    if (mfma && (index == 0 || index == 3))
      continue;
    if (reg.overlaps(result))
      return true;
  }
  return false;
}

/// Returns `assembly` with the s_nops inserted; `inserted` counts them.
static std::string pad(StringRef assembly, unsigned &inserted) {
  SmallVector<StringRef> texts;
  assembly.split(texts, '\n');
  std::vector<Line> lines;
  lines.reserve(texts.size());
  for (StringRef text : texts)
    lines.push_back(classify(text));

  // The wait states missing in front of each line.
  std::vector<int> missing(lines.size(), 0);
  for (size_t p = 0; p < lines.size(); ++p) {
    const Line &producer = lines[p];
    // Requirements of at most kLLVMLookBack LLVM enforces itself.
    if (producer.required <= kLLVMLookBack || producer.operands.empty() ||
        producer.endsBlock)
      continue;
    RegRange result = producer.operands.front();
    int present = 0;
    for (size_t c = p + 1; c < lines.size() && present < producer.required;
         ++c) {
      const Line &line = lines[c];
      if (line.mnemonic.empty()) {
        if (line.endsBlock)
          break;
        continue;
      }
      if (touches(line, result))
        missing[c] = std::max(missing[c], producer.required - present);
      if (line.endsBlock)
        break;
      present += line.waitStates;
    }
  }

  std::string out;
  out.reserve(assembly.size() + 64);
  for (size_t i = 0; i < lines.size(); ++i) {
    for (int left = missing[i]; left > 0; left -= 8) {
      out += "\ts_nop " + std::to_string(std::min(left, 8) - 1) + "\n";
      ++inserted;
    }
    out += lines[i].text.str();
    if (i + 1 < lines.size())
      out += "\n";
  }
  return out;
}

namespace {
struct PadXDLWaitStatesPass
    : public mx::gfx950::impl::MXGFX950PadXDLWaitStatesBase<
          PadXDLWaitStatesPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation().walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects(binary.getObjects().getValue());
      bool changed = false;
      for (Attribute &attr : objects) {
        auto object = cast<gpu::ObjectAttr>(attr);
        if (object.getFormat() != gpu::CompilationTarget::Assembly ||
            !isa<ROCDL::ROCDLTargetAttr>(object.getTarget()))
          continue;
        unsigned inserted = 0;
        std::string text = pad(object.getObject().getValue(), inserted);
        if (!inserted)
          continue;
        numNops += inserted;
        attr =
            gpu::ObjectAttr::get(ctx, object.getTarget(), object.getFormat(),
                                 StringAttr::get(ctx, text),
                                 object.getProperties(), object.getKernels());
        changed = true;
      }
      if (changed)
        binary.setObjectsAttr(ArrayAttr::get(ctx, objects));
    });
  }
};
} // namespace
