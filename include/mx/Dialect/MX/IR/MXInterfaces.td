//===- MXInterfaces.td - mx attribute interfaces -----------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXINTERFACES_TD
#define MX_DIALECT_MX_IR_MXINTERFACES_TD

include "mlir/IR/OpBase.td"

def MX_TiledLayoutAttrInterface : AttrInterface<"TiledLayoutAttrInterface"> {
  let cppNamespace = "::mlir::mx";
  let description = [{
    A resolved data-tiled layout: how each operand of a scaled contraction is
    cut into tiles (the inner tile sizes) and how each tile is rearranged
    (the swizzle) for a target's matrix instructions, so that
    target-independent passes and verifiers can use the layout without
    knowing the target. Implemented by `#mx.data_tiled_layout` (from the
    intrinsic's `ScaledMMAIntrinsicAttrInterface`) and by any layout
    attribute a target defines for itself.
  }];
  let methods = [
    InterfaceMethod<
      "Sizes of the unswizzled inner tile of `role`: [M, K] (lhs), [N, K] "
      "(rhs), [M, K/32] (lhs_scales), [N, K/32] (rhs_scales), [M, N] "
      "(result).",
      "::llvm::SmallVector<int64_t>", "getInnerTileSizes",
      (ins "::mlir::mx::OperandRole":$role)>,
    InterfaceMethod<
      "The swizzle of the inner tile of `role`: how each inner tile "
      "dimension is expanded and how the expanded dimensions are permuted.",
      "::mlir::mx::TileSwizzle", "getSwizzle",
      (ins "::mlir::mx::OperandRole":$role)>,
    InterfaceMethod<
      "The logical element type of `role`: the MX element type of lhs and "
      "rhs, f8E8M0FNU for the scales, f32 for the result.",
      "::mlir::Type", "getElementType",
      (ins "::mlir::mx::OperandRole":$role)>,
  ];
}

def MX_ScaledMMAIntrinsicAttrInterface
    : AttrInterface<"ScaledMMAIntrinsicAttrInterface"> {
  let cppNamespace = "::mlir::mx";
  let description = [{
    One scaled matrix-multiply instruction of a target, as data: the shape
    of the tile it computes (M x N x K elements, K a multiple of the MX block
    size 32), how many lanes a subgroup executing it has, and, per operand
    role, how one intrinsic tile is distributed over those lanes and their
    registers (the "intrinsic swizzle", a `TileSwizzle` of the single
    intrinsic tile whose expanded dimensions are `Lane`s and `Internal`
    values). `#mx.data_tiled_layout` composes that swizzle with its unroll
    counts, subgroups and interleavings; which instruction it is, the core
    never knows. Implemented by a target's intrinsic attribute, e.g.
    `#mx_gfx950.scaled_mfma<16x16x128>`.
  }];
  let methods = [
    InterfaceMethod<
      "The tile one intrinsic computes: M, N and K (elements; K a multiple "
      "of 32, one scale per 32 K elements).",
      "::std::tuple<int64_t, int64_t, int64_t>", "getMNKShape", (ins)>,
    InterfaceMethod<
      "Lanes of the subgroup (wave, warp) that executes the intrinsic.",
      "int64_t", "getSubgroupSize", (ins)>,
    InterfaceMethod<
      "The distribution of one intrinsic tile of `role` over the lanes and "
      "their values when its element type is `elementType` (the role's "
      "logical element type: the MX type of lhs/rhs, f8E8M0FNU for scales, "
      "f32 for the result). The unswizzled intrinsic tile is [M, K] (lhs), "
      "[N, K] (rhs), [M, K/32] (lhs_scales), [N, K/32] (rhs_scales), [M, N] "
      "(result); every expanded dimension is a `Lane` or an `Internal` one, "
      "and the permutation puts the lanes before the values of a lane.",
      "::mlir::mx::TileSwizzle", "getIntrinsicSwizzle",
      (ins "::mlir::mx::OperandRole":$role, "::mlir::Type":$elementType)>,
  ];
}

#endif // MX_DIALECT_MX_IR_MXINTERFACES_TD
