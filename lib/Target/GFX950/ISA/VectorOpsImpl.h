//===- VectorOpsImpl.h - shared VALU helpers --------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_LIB_TARGET_GFX950_ISA_VECTOROPSIMPL_H
#define MX_LIB_TARGET_GFX950_ISA_VECTOROPSIMPL_H

#include "ExecutorImpl.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::mx::gfx950::isa::detail {

using llvm::function_ref;

/// The SDWA field \p sel of \p value, zero- or (\p sext) sign-extended.
uint32_t selectBits(uint32_t value, SDWASel sel, bool sext);
/// \p result placed into \p old as the instruction's dst_sel and
/// dst_unused say.
uint32_t placeBits(const Instruction &inst, uint32_t result, uint32_t old);

float toF32(uint32_t bits);
uint32_t fromF32(float value);
/// IEEE half and bfloat16 <-> f32 (round to nearest even).
float halfToF32(uint16_t bits);
uint16_t f32ToHalf(float value);
uint16_t f32ToBF16(float value);

/// The sources of a VALU instruction from operand `first` on, per lane,
/// with SDWA selection and (for floats) neg/abs applied.
struct VALUOperands {
  Context &ctx;
  const Instruction &inst;
  unsigned first;
  int floatKind;
  uint32_t get(unsigned i, int lane) const;
};

/// Writes f(sources, lane) to the 32-bit destination (operand 0) of every
/// active lane, with clamp/omod (f32) and SDWA placement.
Step forEachLane(Context &ctx, const Instruction &inst, int floatKind,
                 unsigned numSrcs,
                 function_ref<uint32_t(const VALUOperands &, int)> f);

void addCompareOps(OpTable &table);

} // namespace mlir::mx::gfx950::isa::detail

#endif // MX_LIB_TARGET_GFX950_ISA_VECTOROPSIMPL_H
