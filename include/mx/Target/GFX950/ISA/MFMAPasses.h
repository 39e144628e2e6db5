//===- MFMAPasses.h - gfx950 MFMA pass counts and XDL wait states -*- C++
//-*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one home of two numbers the ISA executor's hazard checker
// (Hazards.cpp, HazardTable.def) and mx-gfx950-pad-xdl-wait-states both
// need: how many passes an MFMA takes, and how many wait states gfx950 asks
// between an XDL MFMA that writes a register and the instructions of the
// XDL-write rules that touch it. Header-only, so that the compiler's passes
// need not link the executor.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_ISA_MFMAPASSES_H
#define MX_TARGET_GFX950_ISA_MFMAPASSES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>

namespace mlir::mx::gfx950::isa {

/// The number of passes of the MFMA `mnemonic` (without an encoding suffix
/// such as `_e64`) and whether it runs on the XDL pipe; `cbsz` and `blgp`
/// are its modifiers (0 when absent). std::nullopt for an MFMA without a
/// known count (DGEMM, unknown shapes); `why` then says why. See
/// HazardTable.def for where the numbers come from.
inline std::optional<std::pair<int, bool>>
getMFMAPasses(llvm::StringRef mnemonic, unsigned cbsz, unsigned blgp,
              llvm::StringRef *why = nullptr) {
  auto unknown = [&](llvm::StringRef reason) {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  if (mnemonic.contains("f8f6f4")) {
    // cbsz/blgp 0 (fp8) and 1 (bf8) are the 8-bit formats.
    bool eightBit = cbsz <= 1 || blgp <= 1;
    if (mnemonic.contains("16x16x128"))
      return std::make_pair(eightBit ? 8 : 4, true);
    if (mnemonic.contains("32x32x64"))
      return std::make_pair(eightBit ? 16 : 8, true);
    return unknown("unknown f8f6f4 shape");
  }
  llvm::StringRef m = mnemonic;
  if (!m.consume_front("v_mfma_f32_") && !m.consume_front("v_mfma_i32_"))
    return unknown("not a dense f32/i32 MFMA");
  if (m.contains("f64"))
    return unknown("DGEMM hazards are not in the table");
  bool xdl = !m.ends_with("f32");
  if (m.starts_with("4x4x"))
    return std::make_pair(2, xdl);
  if (m.starts_with("16x16x"))
    return std::make_pair(xdl ? 4 : 8, xdl);
  if (m.starts_with("32x32x"))
    return std::make_pair(xdl ? 8 : 16, xdl);
  return unknown("unknown shape");
}

/// The k of gfx950's XDL-write rules (HazardTable.def's XdlWriteValuRead,
/// XdlWriteMemRead, XdlWriteVecWAW, XdlWriteMfmaSrcAB): NumPasses + k wait
/// states, + 1 on gfx950 unless the MFMA takes 2 passes.
constexpr int kXDLWriteExtraWaitStates = 3;

/// The wait states gfx950 asks between an XDL MFMA of `passes` passes that
/// writes a register and a VALU, memory or LDS instruction that reads or
/// rewrites it, or an MFMA that reads it as srcA, srcB or a scale.
constexpr int getXDLWriteWaitStates(int passes) {
  return passes + kXDLWriteExtraWaitStates + (passes != 2 ? 1 : 0);
}

} // namespace mlir::mx::gfx950::isa

#endif // MX_TARGET_GFX950_ISA_MFMAPASSES_H
