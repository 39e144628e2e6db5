//===- GFX950.h - the gfx950 target -----------------------------*- C++ -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The gfx950 target's entry point: its registration, and what its kernels
// compute in a GEMM's epilogue. Its rooms mirror the pipeline: IR/ (the
// `mx_gfx950` dialect and its target attribute), Layout/ (intrinsic facts,
// swizzles, the resolver's choices, the configuration table), UKernels/ (the
// ukernel library, selection, instantiation helpers), Transforms/ (the
// passes, in pipeline order), Codegen/ (linking, the kernel report).
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_GFX950_H
#define MX_TARGET_GFX950_GFX950_H

#include "mx/Target/GFX950/Layout/Layout.h"

namespace mlir {
class DialectRegistry;

namespace mx::gfx950 {

/// Whether gfx950 kernels can compute `op` in the epilogue of a GEMM, for
/// every sum, without a device library: arith ops (except the scaling
/// conversions, which have no scalar lowering there, and ops on floats
/// narrower than 16 bits) and the f32 math ops of getEpilogueMathOps();
/// otherwise failure with the reason in `reason`.
/// TargetAttr::checkEpilogueOp answers with this.
LogicalResult checkEpilogueOp(Operation *op, raw_ostream &reason);

/// The math ops (mnemonics) that a gfx950 epilogue computes in f32, and how:
/// `expanded` ones are rewritten into the others and arith before ROCDL
/// (upstream math-expand-ops, e.g. tanh(x) = sign(x) (1 - e) / (1 + e) with
/// e = exp(-2|x|)); the rest become LLVM intrinsics that the AMDGPU backend
/// selects (math.exp: llvm.exp.f32, v_exp_f32 with a range reduction).
/// Every other math op would become a call into ROCm's device library
/// (__ocml_*), which mx does not link.
struct EpilogueMathOp {
  StringLiteral name;
  bool expanded;
};
ArrayRef<EpilogueMathOp> getEpilogueMathOps();

/// The mnemonics of the expanded ops of getEpilogueMathOps() (the `ops` of
/// math-expand-ops in mx-gfx950-pipeline).
SmallVector<std::string> getExpandedMathOps();

/// Registers the gfx950 target: the `mx_gfx950` dialect (`#mx_gfx950.target`
/// and `#mx_gfx950.scaled_mfma`, the intrinsic of its data-tiled layouts).
void registerTarget(DialectRegistry &registry);

} // namespace mx::gfx950
} // namespace mlir

#endif // MX_TARGET_GFX950_GFX950_H
