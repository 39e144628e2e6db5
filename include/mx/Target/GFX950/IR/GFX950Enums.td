//===- GFX950Enums.td - the gfx950 target's enums ----------*- tablegen -*-===//
//
// Part of the mx project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Separate from GFX950Dialect.td so that its enum declarations are generated
// without the mx dialect's.
//
//===----------------------------------------------------------------------===//

#ifndef MX_TARGET_GFX950_IR_GFX950ENUMS_TD
#define MX_TARGET_GFX950_IR_GFX950ENUMS_TD

include "mlir/IR/EnumAttr.td"

def GFX950_Intrinsic_16x16x128 : I32EnumAttrCase<"mfma_scale_16x16x128", 0>;
def GFX950_Intrinsic_32x32x64 : I32EnumAttrCase<"mfma_scale_32x32x64", 1>;

def GFX950_ScaledMMAIntrinsic : I32EnumAttr<"ScaledMMAIntrinsic",
    "a gfx950 scaled MFMA instruction", [
      GFX950_Intrinsic_16x16x128, GFX950_Intrinsic_32x32x64]> {
  let cppNamespace = "::mlir::mx::gfx950";
  let genSpecializedAttr = 0;
  let description = [{
    `mfma_scale_16x16x128` is `v_mfma_scale_f32_16x16x128_f8f6f4` (M = N =
    16, K = 128: four 32-blocks per row), `mfma_scale_32x32x64` is
    `v_mfma_scale_f32_32x32x64_f8f6f4` (M = N = 32, K = 64: two blocks).
  }];
}

#endif // MX_TARGET_GFX950_IR_GFX950ENUMS_TD
