//===- MXAttrs.td - mx dialect enums and attributes --------*- tablegen -*-===//
//
// Part of the mx project.
//
//===----------------------------------------------------------------------===//

#ifndef MX_DIALECT_MX_IR_MXATTRS_TD
#define MX_DIALECT_MX_IR_MXATTRS_TD

include "mlir/IR/EnumAttr.td"

def MX_ScaleRule_Floor : I32EnumAttrCase<"floor", 0>;
def MX_ScaleRule_Ceil : I32EnumAttrCase<"ceil", 1>;
def MX_ScaleRule_Even : I32EnumAttrCase<"even", 2>;
def MX_ScaleRule_RCeil : I32EnumAttrCase<"rceil", 3>;

def MX_ScaleRuleAttr : I32EnumAttr<"ScaleRule",
    "how the shared E8M0 exponent of a block is chosen from its amax", [
      MX_ScaleRule_Floor, MX_ScaleRule_Ceil, MX_ScaleRule_Even,
      MX_ScaleRule_RCeil]> {
  let cppNamespace = "::mlir::mx";
  let description = [{
    With `amax` the largest magnitude of the block and `emax` the exponent of
    the element format's largest normal value:
    * `floor` (OCP MX v1.0): `s = floor(log2(amax)) - emax`;
    * `ceil`: `s = ceil(log2(amax)) - emax`;
    * `even` (AITER/Triton MXFP4 quantizers): round amax's mantissa to the
      element's mantissa width (add half an element ulp to the f32 bits, clear
      the mantissa), then `floor(log2(.)) - emax`;
    * `rceil` (NVIDIA/torchao): `s = ceil(log2(f32(amax / max_elem)))`, so no
      element saturates.
    `s` is clamped to [-127, 127]; an all-zero block gets -127.
  }];
}

def MX_Rounding_NearestEven : I32EnumAttrCase<"nearest_even", 0>;
def MX_Rounding_TiesAway : I32EnumAttrCase<"ties_away", 1>;

def MX_RoundingAttr : I32EnumAttr<"Rounding",
    "rounding of a scaled value to the element format", [
      MX_Rounding_NearestEven, MX_Rounding_TiesAway]> {
  let cppNamespace = "::mlir::mx";
  let description = [{
    `nearest_even` is IEEE round-to-nearest-even (OCP, gfx950
    `v_cvt_scalef32_*`); `ties_away` rounds ties away from zero (the seed 000
    PyTorch/AITER reference quantizer).
  }];
}

#endif // MX_DIALECT_MX_IR_MXATTRS_TD
