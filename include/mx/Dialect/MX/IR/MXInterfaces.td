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
    (the swizzle) for a target's matrix instructions. Implemented by the
    target (e.g. `#mx.data_tiled_layout` through the gfx950 external model),
    so that target-independent passes and verifiers can use the layout
    without knowing the target.
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

#endif // MX_DIALECT_MX_IR_MXINTERFACES_TD
