//===- Hazards.h - gfx950 wait-state checks ---------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
  /// Called for every instruction one wave issues, in issue order, before
  /// the instruction's effects. Returns an error naming the rule broken.
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
