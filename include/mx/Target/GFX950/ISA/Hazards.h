//===- Hazards.h - gfx950 wait-state (hazard) checker -----------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ISA executor's check of the wait states gfx950 requires between
// dependent instructions of one wave (the CDNA3/CDNA4 "manually inserted wait
// states" rules, e.g. an MFMA result read by a VALU too early). The rules are
// data, one row each with its source, in lib/Target/GFX950/ISA/
// HazardTable.def; docs/guides/isa-executor-hazards.md lists them.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_ISA_HAZARDS_H
#define MX_TARGET_GFX950_ISA_HAZARDS_H

#include "mx/Target/GFX950/ISA/Instruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir::mx::gfx950::isa {

/// Checks one wave's instruction stream against HazardTable.def.
class HazardChecker {
public:
  HazardChecker();
  ~HazardChecker();
  /// Called for every instruction one wave issues, in issue order (after
  /// branches are resolved: the dynamic stream), before the instruction's
  /// effects. Each issued instruction counts as one wait state; `s_nop N`
  /// counts N + 1. Returns an error naming the rule (its id and source),
  /// the producer (its pc and text) and the consumer (pc and text), and the
  /// wait states required vs. present, if the consumer issues too early.
  llvm::Error issue(const Instruction &inst);
  /// Forget the history (a new wave).
  void reset();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// The rules of HazardTable.def, for docs and tests: id, source, summary.
struct HazardRule {
  const char *id;
  const char *source;
  const char *summary;
};
llvm::ArrayRef<HazardRule> getHazardRules();

} // namespace mlir::mx::gfx950::isa

#endif // MX_TARGET_GFX950_ISA_HAZARDS_H
