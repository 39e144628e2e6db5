//===- GFX950Dialect.h - the gfx950 target dialect --------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The `mx_gfx950` dialect, its `#mx_gfx950.target` attribute (the layout
// resolver through which the core passes use gfx950) and its
// `#mx_gfx950.scaled_mfma` attribute (the intrinsic of gfx950's data-tiled
// layouts).
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_IR_GFX950DIALECT_H
#define MX_TARGET_GFX950_IR_GFX950DIALECT_H

#include "mx/Dialect/MX/IR/MXOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>
#include <optional>
#include <string>

namespace mlir::mx::gfx950 {
/// What the pipeline needs to know of one embedded ukernel, parsed once.
struct UKernelInfo {
  /// The ukernel's name (its function and file name).
  StringRef name;
  /// Its `mx.ukernel.match` dictionary; null when the source cannot be
  /// parsed or has none (then `problem` says which).
  DictionaryAttr match;
  /// The type of its function (null with `match`).
  FunctionType functionType;
  /// The types its body is written for, when it takes type parameters
  /// (`mx.ukernel.type_parameters`); null otherwise.
  DictionaryAttr typeParameters;
  /// Its `mx.ukernel.register_schedules` (see getRegisterSchedule); null
  /// when it has none.
  ArrayAttr registerSchedules;
  std::string problem;
};

class TargetAttr;

/// One entry of a tuned configuration table (`mx_gfx950.configs`): the
/// pins (a `#mx_gfx950.target`'s layout parameters and split_k) of the
/// contractions of `lhsType` x `rhsType` with M in [mMin, mMax] and exactly
/// N = `n`, K = `k`.
struct ConfigEntry {
  Type lhsType, rhsType;
  int64_t mMin = 0, mMax = 0, n = 0, k = 0;
  Attribute pins;
};
} // namespace mlir::mx::gfx950

#include "mx/Target/GFX950/IR/GFX950Dialect.h.inc"
#include "mx/Target/GFX950/IR/GFX950Enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mx/Target/GFX950/IR/GFX950Attrs.h.inc"

#define GET_OP_CLASSES
#include "mx/Target/GFX950/IR/GFX950Ops.h.inc"

#endif // MX_TARGET_GFX950_IR_GFX950DIALECT_H
